//! The browser client, built into the server (see `build.rs`): the page at
//! `/`, its loader and its WebAssembly under content-hashed names. These
//! three are the only files the server answers with; no request path ever
//! reaches the file system.

mod assets {
    include!(concat!(env!("OUT_DIR"), "/web_assets.rs"));
}

/// One file the server can send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asset {
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its bytes, gzipped.
    pub gzipped: &'static [u8],
    /// Its `Cache-Control`: the page is checked on every load, the hashed
    /// files never change under their name.
    pub cache_control: &'static str,
}

/// The page.
pub const PAGE: Asset = Asset {
    content_type: "text/html; charset=utf-8",
    gzipped: assets::PAGE_GZ,
    cache_control: "no-cache",
};

const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// The file served at `path` (the query already removed), if any.
pub fn asset(path: &str) -> Option<Asset> {
    if path == "/" || path == "/index.html" {
        return Some(PAGE);
    }
    let name = path.strip_prefix("/tabula-")?;
    let (hash, extension) = name.split_once('.')?;
    if hash != assets::HASH || assets::WASM_GZ.is_empty() {
        return None;
    }
    match extension {
        "js" => Some(Asset {
            content_type: "text/javascript; charset=utf-8",
            gzipped: assets::SCRIPT_GZ,
            cache_control: IMMUTABLE,
        }),
        "wasm" => Some(Asset {
            content_type: "application/wasm",
            gzipped: assets::WASM_GZ,
            cache_control: IMMUTABLE,
        }),
        _ => None,
    }
}

/// The paths of the page's two files (for tests and the size report).
pub fn asset_paths() -> [String; 2] {
    [
        format!("/tabula-{}.js", assets::HASH),
        format!("/tabula-{}.wasm", assets::HASH),
    ]
}

/// Whether this server was built with its web client.
pub fn included() -> bool {
    !assets::WASM_GZ.is_empty()
}
