//! Builds the browser client into the server: compiles `tabula-web` for
//! `wasm32-unknown-unknown`, runs wasm-bindgen on it (as a library, no
//! extra tool to install), gzips the page, the JavaScript and the wasm, and
//! writes `web_assets.rs` for `src/web_client.rs` to include. Nothing is read
//! from disk at run time.
//!
//! The wasm target is added with `rustup target add` when it is missing
//! (that works where rustup's automatic installation is off). Where the web
//! client still cannot be built, everything else builds: one warning says
//! why, and the server's page says how to get the browser client.
//!
//! `TABULA_WEB=skip` builds a server whose page says the web client was left
//! out (for quick local builds that do not need it).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest = PathBuf::from(env("CARGO_MANIFEST_DIR"));
    let workspace = manifest
        .parent()
        .expect("server/ sits in the workspace")
        .to_path_buf();
    let out = PathBuf::from(env("OUT_DIR"));
    for watched in [
        "client/src",
        "client/Cargo.toml",
        "client/web/src",
        "client/web/Cargo.toml",
        "shared/src",
        "shared/Cargo.toml",
        "Cargo.lock",
        "server/web/index.html",
    ] {
        println!(
            "cargo:rerun-if-changed={}",
            workspace.join(watched).display()
        );
    }
    println!("cargo:rerun-if-env-changed=TABULA_WEB");

    let page = std::fs::read_to_string(manifest.join("web/index.html")).expect("web/index.html");
    let assets = if std::env::var("TABULA_WEB").as_deref() == Ok("skip") {
        left_out(
            "Tabula was built without its browser client (TABULA_WEB=skip). \
             Use the desktop client, or rebuild the server without that setting.",
        )
    } else {
        match add_wasm_target().and_then(|()| build_web_client(&workspace, &out, &page)) {
            Ok(assets) => assets,
            Err(why) => {
                println!(
                    "cargo:warning=the browser client was left out: {why}. Everything else \
                     builds; for the browser client run `rustup target add \
                     wasm32-unknown-unknown` and build again."
                );
                left_out(&format!(
                    "This Tabula server was built without its browser client ({why}). \
                     Play with the desktop client (<code>cargo run --release -p tabula-client</code>), \
                     or let the host add the browser client: <code>rustup target add \
                     wasm32-unknown-unknown</code>, then build and start the server again."
                ))
            }
        }
    };
    write_assets(&out, &assets);
}

/// The page of a server built without the browser client: `note` says why
/// and what to do.
fn left_out(note: &str) -> Assets {
    Assets {
        page: format!(
            "<!DOCTYPE html><meta charset=utf-8><meta name=viewport \
             content=\"width=device-width\"><title>Tabula</title>\
             <h1>Tabula</h1><p id=web-client-missing>{note}</p>"
        ),
        script: Vec::new(),
        wasm: Vec::new(),
        hash: "none".into(),
    }
}

/// Makes sure the toolchain building this has the wasm32 target: where its
/// standard library is missing, asks rustup for it (as `rustup target add`,
/// which works where rustup's automatic installation is off).
fn add_wasm_target() -> Result<(), String> {
    const TARGET: &str = "wasm32-unknown-unknown";
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let sysroot = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .map_err(|e| format!("rustc did not run ({e})"))?;
    let sysroot = PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim());
    let target_lib = sysroot.join("lib/rustlib").join(TARGET).join("lib");
    // Built again when the target comes or goes (a missing path always
    // counts as changed, so a build without it tries again each time).
    println!("cargo:rerun-if-changed={}", target_lib.display());
    if target_lib.is_dir() {
        return Ok(());
    }
    let mut rustup = Command::new("rustup");
    rustup.args(["target", "add", TARGET]);
    // The toolchain this build runs on (rustup's proxies say which).
    if let Ok(toolchain) = std::env::var("RUSTUP_TOOLCHAIN") {
        rustup.args(["--toolchain", &toolchain]);
    }
    match rustup.status() {
        Ok(status) if status.success() && target_lib.is_dir() => Ok(()),
        Ok(_) => Err(format!("`rustup target add {TARGET}` failed")),
        Err(_) => Err(format!(
            "the {TARGET} target is not installed and there is no rustup to add it"
        )),
    }
}

/// The page and the two files it loads.
struct Assets {
    page: String,
    script: Vec<u8>,
    wasm: Vec<u8>,
    hash: String,
}

fn build_web_client(workspace: &Path, out: &Path, page: &str) -> Result<Assets, String> {
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| workspace.join("target"), PathBuf::from)
        .join("web-client");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut build = Command::new(cargo);
    build
        .current_dir(workspace)
        .args(["build", "-p", "tabula-web", "--lib"])
        .args(["--target", "wasm32-unknown-unknown", "--profile", "web"])
        .arg("--target-dir")
        .arg(&target_dir);
    // The outer build's wrappers and flags are for the server on this
    // machine (clippy, coverage, native CPU flags), not for the wasm.
    for var in [
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "CARGO_TARGET_DIR",
        "CARGO_PRIMARY_PACKAGE",
    ] {
        build.env_remove(var);
    }
    let status = build
        .status()
        .map_err(|e| format!("cargo did not run ({e})"))?;
    if !status.success() {
        return Err("compiling it for wasm32-unknown-unknown failed (see the errors above)".into());
    }
    let wasm_in = target_dir.join("wasm32-unknown-unknown/web/tabula_web.wasm");
    let bindgen_out = out.join("web");
    let _ = std::fs::remove_dir_all(&bindgen_out);
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&wasm_in)
        .web(true)
        .expect("web output")
        .typescript(false)
        .out_name("tabula")
        .generate(&bindgen_out)
        .expect("wasm-bindgen runs");
    assert!(
        !bindgen_out.join("snippets").exists(),
        "the web client uses JavaScript snippets, which the server does not serve"
    );
    let script = std::fs::read(bindgen_out.join("tabula.js")).expect("tabula.js");
    let wasm = std::fs::read(bindgen_out.join("tabula_bg.wasm")).expect("tabula_bg.wasm");
    let hash = content_hash(&[&script, &wasm]);
    // The loader asks for the wasm under the name the server gives it.
    let script = String::from_utf8(script)
        .expect("utf-8 JavaScript")
        .replace("tabula_bg.wasm", &format!("tabula-{hash}.wasm"))
        .into_bytes();
    Ok(Assets {
        page: page.replace("@HASH@", &hash),
        script,
        wasm,
        hash,
    })
}

/// A short hex digest of the files, so that their names change with them
/// and browsers may cache them for good.
fn content_hash(parts: &[&[u8]]) -> String {
    // FNV-1a, 64 bits: a cache key, not a security measure.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in *part {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

fn write_assets(out: &Path, assets: &Assets) {
    let files = [
        ("page.html.gz", assets.page.as_bytes()),
        ("tabula.js.gz", &assets.script[..]),
        ("tabula.wasm.gz", &assets.wasm[..]),
    ];
    for (name, bytes) in files {
        std::fs::write(out.join(name), gzip(bytes)).expect("write asset");
    }
    let code = format!(
        "/// The content hash in the asset names.\n\
         pub const HASH: &str = {hash:?};\n\
         /// The page, gzipped.\n\
         pub const PAGE_GZ: &[u8] = include_bytes!(concat!(env!(\"OUT_DIR\"), \"/page.html.gz\"));\n\
         /// The wasm-bindgen loader, gzipped (empty when left out).\n\
         pub const SCRIPT_GZ: &[u8] = include_bytes!(concat!(env!(\"OUT_DIR\"), \"/tabula.js.gz\"));\n\
         /// The client's WebAssembly, gzipped (empty when left out).\n\
         pub const WASM_GZ: &[u8] = include_bytes!(concat!(env!(\"OUT_DIR\"), \"/tabula.wasm.gz\"));\n",
        hash = assets.hash
    );
    std::fs::write(out.join("web_assets.rs"), code).expect("write web_assets.rs");
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).expect("gzip");
    encoder.finish().expect("gzip")
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("cargo sets {name}"))
}
