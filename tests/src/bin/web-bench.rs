//! `web-bench`: the browser client's figures, measured in a real headless
//! Chromium against a real server on loopback (run it `--release`):
//!
//! - the size of the web bundle as served (gzipped page, loader and wasm);
//! - the time from opening the page to the first frame of the connect
//!   screen (a first visit) and of the lobby (a returning player, connected
//!   at once with the name and token the browser kept);
//! - egui's CPU time per frame while a Backgammon game animates on the
//!   page (two protocol bots play, the page watches by invite link).
//!
//! `cargo run --release -p tabula-tests --bin web-bench -- --runs 7`

use std::time::Duration;

use clap::Parser;
use serde_json::{Value, json};
use tabula_shared::backgammon::{GamePhase, Side};
use tabula_shared::game::LiveGame;
use tabula_tests::browser::Browser;
use tabula_tests::{Client, TestServer, backgammon_options, replay_snapshot};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[derive(Parser)]
struct Args {
    /// Page loads to time (the median is reported).
    #[arg(long, default_value_t = 7)]
    runs: usize,
    /// Seconds of Backgammon animation to sample.
    #[arg(long, default_value_t = 8)]
    animate_secs: u64,
}

/// Records, in the page, the time (ms since navigation) of the first frame
/// that draws the mark `name`.
fn first_frame_script(name: &str) -> String {
    format!(
        "(function poll() {{ try {{ if (JSON.parse(window.tabulaProbe())[{name:?}]) {{ window.__firstAt = performance.now(); return; }} }} catch (e) {{}} setTimeout(poll, 2); }})();"
    )
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn pct(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

async fn gzipped_size(addr: std::net::SocketAddr, path: &str) -> usize {
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let req = format!("GET {path} HTTP/1.1\r\nHost: b\r\nAccept-Encoding: gzip\r\n\r\n");
    s.write_all(req.as_bytes()).await.expect("send");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.expect("read");
    let head = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("head");
    raw.len() - head - 4
}

/// Opens the page and returns when the mark appeared (ms since navigation).
async fn time_to(page: &mut Browser, url: &str, mark: &str) -> f64 {
    let script = first_frame_script(mark);
    let added = page
        .call(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": script}),
        )
        .await;
    page.open(url).await;
    let at = page
        .wait_for(mark, "window.__firstAt ?? null", Duration::from_secs(60))
        .await;
    page.call(
        "Page.removeScriptToEvaluateOnNewDocument",
        json!({"identifier": added["identifier"]}),
    )
    .await;
    at.as_f64().expect("ms")
}

/// One step of a plain bot game: whoever is to act rolls, plays the first
/// legal play, or takes. Returns false once the game is over.
async fn bot_step(players: &mut [Client; 2], room: &str) -> bool {
    let snap = players[0]
        .request(json!({"type": "sync", "room_id": room}))
        .await;
    if !snap["snapshot"]["result"].is_null() {
        return false;
    }
    let LiveGame::Backgammon(m) = replay_snapshot(&snap) else {
        return false;
    };
    let (side, action): (Side, Value) = match *m.phase() {
        GamePhase::AwaitingRoll { side } => (side, json!({"kind": "roll"})),
        GamePhase::Moving { side, dice } => {
            let play = m
                .position_for(side)
                .legal_plays(dice)
                .into_iter()
                .next()
                .map(|(play, _)| play.to_string())
                .unwrap_or_default();
            (side, json!({"kind": "play", "play": play}))
        }
        GamePhase::CubeOffered { by } => (by.opponent(), json!({"kind": "take"})),
        _ => return true,
    };
    let who = usize::from(side != Side::White);
    players[who].act(room, action).await;
    true
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    let server = TestServer::start().await;
    let url = format!("http://{}/", server.addr);

    let [script, wasm] = tabula_server::web_client::asset_paths();
    let sizes = [
        gzipped_size(server.addr, "/").await,
        gzipped_size(server.addr, &script).await,
        gzipped_size(server.addr, &wasm).await,
    ];
    let total: usize = sizes.iter().sum();
    println!(
        "bundle as served (gzip): page {} B, loader {} B, wasm {} B; total {:.2} MB",
        sizes[0],
        sizes[1],
        sizes[2],
        total as f64 / 1e6
    );

    // First visits: a fresh browser each time (nothing cached).
    let mut first = Vec::new();
    for _ in 0..args.runs {
        let mut page = Browser::launch(1280, 800).await;
        first.push(time_to(&mut page, &url, "name").await);
        page.close().await;
    }
    // A returning player: the name is kept; each reload connects and shows
    // the lobby (the files come from the browser's cache, as they would).
    let mut page = Browser::launch(1280, 800).await;
    page.open(&url).await;
    page.connect_as("Bench").await;
    page.centre_of("create-room").await;
    page.open("about:blank").await;
    let mut lobby = Vec::new();
    for _ in 0..args.runs {
        lobby.push(time_to(&mut page, &url, "create-room").await);
        page.open("about:blank").await;
    }
    println!(
        "page open -> first frame of the connect screen (first visit): median {:.0} ms (min {:.0}, max {:.0}, {} runs)",
        median(&mut first),
        first[0],
        first[first.len() - 1],
        args.runs
    );
    println!(
        "page open -> first frame of the lobby (returning player): median {:.0} ms (min {:.0}, max {:.0}, {} runs)",
        median(&mut lobby),
        lobby[0],
        lobby[lobby.len() - 1],
        args.runs
    );

    // Backgammon animating on the page: two bots play, the page watches.
    let mut white = server.client("White").await;
    let mut black = server.client("Black").await;
    let (room, _) = white
        .create(backgammon_options(json!({"kind": "human"}), "white", 0))
        .await;
    black.join(&room, "player").await;
    let mut players = [white, black];
    page.open(&format!("{url}#/room/{room}")).await;
    page.centre_of("flip-board").await;
    let mut frames = Vec::new();
    let end = tokio::time::Instant::now() + Duration::from_secs(args.animate_secs);
    let mut playing = true;
    while tokio::time::Instant::now() < end && playing {
        playing = bot_step(&mut players, &room).await;
        for _ in 0..8 {
            if let Some(ms) = page.mark("frame-ms").await.as_f64() {
                frames.push(ms);
            }
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }
    println!(
        "egui CPU time per frame while Backgammon animates: median {:.2} ms, p95 {:.2} ms, max {:.2} ms ({} samples)",
        median(&mut frames),
        pct(&mut frames, 0.95),
        pct(&mut frames, 1.0),
        frames.len()
    );
    page.close().await;
    server.stop().await;
}
