//! Soak tool: a Tabula server under games that start, finish and start
//! again for a long time, with the server's memory sampled as it goes, to
//! see where it settles.
//!
//! ```sh
//! cargo run --release -p tabula-tests --bin soak -- --games 200 --minutes 60
//! ```
//!
//! The server runs as a child process of this tool (`serve`), with the load
//! settings of `tabula_tests::load_config` and its data in a fresh
//! directory. Each of `--games` pairs of players, returning guests (each
//! connection says hello with the token its first one was given), plays
//! Gomoku games to the end in a loop: connect, create or join a room, five
//! black stones in a row against four white ones at `--move-ms` a move,
//! the game over, both leave and disconnect, and the room closes once
//! empty. Every `--sample-secs` a line gives the games finished and the
//! server's resident memory and CPU; at the end the clients stop and,
//! after `--settle-secs`, the memory with nobody connected.

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tabula_tests::process_stats::{cpu_ms, rss_kib};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The same allocator as `tabula-server`'s binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(about = "Soak a Tabula server: games finishing and starting for a long time")]
struct Args {
    #[command(subcommand)]
    command: Option<Cmd>,
    /// Pairs of players, each playing one game after another.
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// How long the games go on.
    #[arg(long, default_value_t = 60.0)]
    minutes: f64,
    /// Milliseconds between a player's moves.
    #[arg(long, default_value_t = 250)]
    move_ms: u64,
    /// Seconds between two samples of the server's memory.
    #[arg(long, default_value_t = 60)]
    sample_secs: u64,
    /// Seconds to wait after the clients stopped before the last sample.
    #[arg(long, default_value_t = 30)]
    settle_secs: u64,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run the Tabula server (a child process of the tool).
    Serve {
        #[arg(long)]
        data_dir: std::path::PathBuf,
    },
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

fn main() {
    let args = Args::parse();
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    match args.command {
        Some(Cmd::Serve { ref data_dir }) => runtime.block_on(serve(data_dir.clone())),
        None => runtime.block_on(drive(args)),
    }
}

async fn serve(data_dir: std::path::PathBuf) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    println!("LISTENING {}", listener.local_addr().expect("addr"));
    let config = tabula_tests::load_config(&data_dir);
    tabula_server::run(listener, config, std::future::pending::<()>())
        .await
        .expect("server");
}

/// The server process, killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
    _dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start() -> Server {
    let dir = tempfile::tempdir().expect("dir");
    let mut child = Command::new(std::env::current_exe().expect("exe"))
        .arg("serve")
        .arg("--data-dir")
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn the server");
    let addr = tabula_tests::listening_addr(&mut child);
    Server {
        child,
        addr,
        _dir: dir,
    }
}

/// Counts shared by the players and the sampler.
#[derive(Default)]
struct Counts {
    games: AtomicU64,
    moves: AtomicU64,
    errors: AtomicU64,
}

/// Reads until a text frame matches `pred`; None on close or after 10 s.
async fn until(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Option<Value> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        match tokio::time::timeout_at(deadline, ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                if let Ok(v) = serde_json::from_str::<Value>(t.as_str())
                    && pred(&v)
                {
                    return Some(v);
                }
            }
            Ok(Some(Ok(_))) => {}
            _ => return None,
        }
    }
}

async fn send(ws: &mut Ws, v: Value) -> Option<()> {
    ws.send(Message::Text(v.to_string().into())).await.ok()
}

/// A connection that said hello as `name`, resuming with `token` when it
/// has one (and keeping the one it is given).
async fn connect(addr: SocketAddr, name: &str, token: &mut Option<String>) -> Option<Ws> {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/"))
        .await
        .ok()?;
    let mut hello = json!({"type": "hello", "protocol": 1, "name": name});
    if let Some(t) = token {
        hello["token"] = json!(t);
    }
    send(&mut ws, hello).await?;
    let welcome = until(&mut ws, |v| v["type"] == "welcome").await?;
    if let Some(t) = welcome["token"].as_str() {
        *token = Some(t.to_string());
    }
    Some(ws)
}

/// Places a stone and waits for its event.
async fn place(ws: &mut Ws, room: &str, x: u8, y: u8) -> Option<()> {
    send(
        ws,
        json!({"type": "act", "room_id": room, "request_id": 1,
               "action": {"kind": "place", "point": {"x": x, "y": y}}}),
    )
    .await?;
    until(ws, |v| v["request_id"] == 1)
        .await
        .and_then(|v| (v["type"] == "event").then_some(()))
}

/// One whole game between a fresh pair of connections: black wins on
/// row 7 with white on row 9, then both leave and hang up.
async fn one_game(
    addr: SocketAddr,
    k: usize,
    tokens: &mut [Option<String>; 2],
    pace: Duration,
    counts: &Counts,
) -> Option<()> {
    let [black_token, white_token] = tokens;
    let mut black = connect(addr, &format!("soak-b{k}"), black_token).await?;
    let mut white = connect(addr, &format!("soak-w{k}"), white_token).await?;
    send(
        &mut black,
        json!({"type": "create_room", "options": {"game": {"game": "gomoku"}, "opponent": {"kind": "human"}, "colour": "black"}}),
    )
    .await?;
    let joined = until(&mut black, |v| v["type"] == "joined").await?;
    let room = joined["room_id"].as_str()?.to_string();
    send(
        &mut white,
        json!({"type": "join_room", "room_id": room, "role": "player"}),
    )
    .await?;
    until(&mut white, |v| v["type"] == "joined").await?;
    for x in 0..5u8 {
        tokio::time::sleep(pace).await;
        place(&mut black, &room, x, 7).await?;
        counts.moves.fetch_add(1, Ordering::Relaxed);
        if x == 4 {
            break;
        }
        tokio::time::sleep(pace).await;
        place(&mut white, &room, x, 9).await?;
        counts.moves.fetch_add(1, Ordering::Relaxed);
    }
    until(&mut white, |v| v["event"]["kind"] == "game_over").await?;
    for ws in [&mut black, &mut white] {
        send(ws, json!({"type": "leave_room", "room_id": room})).await?;
        let _ = ws.close(None).await;
    }
    Some(())
}

async fn drive(args: Args) {
    let server = start();
    let pid = server.child.id();
    let addr = server.addr;
    let counts = Arc::new(Counts::default());
    let stop = Arc::new(AtomicBool::new(false));
    let pace = Duration::from_millis(args.move_ms);
    let mut players = Vec::new();
    for k in 0..args.games {
        let counts = counts.clone();
        let stop = stop.clone();
        players.push(tokio::spawn(async move {
            // Spread the first games over a second.
            tokio::time::sleep(Duration::from_millis((k as u64 * 1000) / 200)).await;
            let mut tokens = [None, None];
            while !stop.load(Ordering::Relaxed) {
                match one_game(addr, k, &mut tokens, pace, &counts).await {
                    Some(()) => counts.games.fetch_add(1, Ordering::Relaxed),
                    None => counts.errors.fetch_add(1, Ordering::Relaxed),
                };
            }
        }));
    }
    let started = Instant::now();
    let rss = |label: &str, at: f64| {
        let rss = rss_kib(pid);
        println!(
            "{label:>8} {:>7.1} min  games {:>7}  moves {:>8}  errors {:>4}  RSS {:>7.1} MiB  CPU {:>7.1} s",
            at / 60.0,
            counts.games.load(Ordering::Relaxed),
            counts.moves.load(Ordering::Relaxed),
            counts.errors.load(Ordering::Relaxed),
            rss as f64 / 1024.0,
            cpu_ms(pid) / 1000.0,
        );
        rss
    };
    let first = rss("start", 0.0);
    let mut peak = first;
    let end = started + Duration::from_secs_f64(args.minutes * 60.0);
    while Instant::now() < end {
        let next = (Instant::now() + Duration::from_secs(args.sample_secs)).min(end);
        tokio::time::sleep_until(next.into()).await;
        peak = peak.max(rss("playing", started.elapsed().as_secs_f64()));
    }
    stop.store(true, Ordering::Relaxed);
    for p in players {
        let _ = p.await;
    }
    let playing = rss("stopped", started.elapsed().as_secs_f64());
    tokio::time::sleep(Duration::from_secs(args.settle_secs)).await;
    let settled = rss("settled", started.elapsed().as_secs_f64());
    println!(
        "soak: {} pairs, {:.0} min, {} games, {} errors; RSS start {:.1} MiB, peak {:.1} MiB, at the end {:.1} MiB, {} s after the clients left {:.1} MiB",
        args.games,
        args.minutes,
        counts.games.load(Ordering::Relaxed),
        counts.errors.load(Ordering::Relaxed),
        first as f64 / 1024.0,
        peak as f64 / 1024.0,
        playing as f64 / 1024.0,
        args.settle_secs,
        settled as f64 / 1024.0,
    );
}
