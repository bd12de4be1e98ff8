//! Cluster bench: what a move costs when its two players are on different
//! nodes, next to the same move with both on one node, in the same run.
//!
//! ```sh
//! cargo run --release -p tabula-tests --bin cluster-bench -- --games 200 --seconds 60
//! ```
//!
//! Starts a throwaway PostgreSQL and Redis (or uses `--database` and
//! `--redis`), and two Tabula nodes on them as child processes (this same
//! program, `serve`). Half the games have both players on node A; in the
//! other half, black is on A (which runs the room) and white on B, so that
//! every move crosses Redis once on its way to the opponent (white's also
//! on its way in). Each game moves once a second, the games spread over
//! the second. Prints move-to-opponent latency (p50, p90, p99, max) of both
//! halves and their ratio.

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tabula_test_postgres::TestPostgres;
use tabula_tests::redis::TestRedis;
use tabula_tests::{gomoku_options, listening_addr, points_without_five};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

#[derive(Parser)]
#[command(about = "Cross-node move latency of a two-node Tabula cluster")]
struct Args {
    #[command(subcommand)]
    command: Option<Cmd>,
    /// Games in all (half same-node, half cross-node).
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Seconds of play measured.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// A PostgreSQL database to use instead of a throwaway one.
    #[arg(long)]
    database: Option<String>,
    /// A Redis to use instead of a throwaway one.
    #[arg(long)]
    redis: Option<String>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run one node (a child process of the bench).
    Serve {
        #[arg(long)]
        database: String,
        #[arg(long)]
        redis: String,
    },
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

fn main() {
    let args = Args::parse();
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    match args.command {
        Some(Cmd::Serve { database, redis }) => runtime.block_on(serve(database, redis)),
        None => runtime.block_on(bench(args)),
    }
}

async fn serve(database: String, redis: String) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    println!("LISTENING {}", listener.local_addr().expect("addr"));
    let dir = tempfile::tempdir().expect("dir");
    let config = tabula_server::Config {
        database: Some(database),
        redis: Some(redis),
        ..tabula_tests::load_config(dir.path())
    };
    tabula_server::run(listener, config, std::future::pending::<()>())
        .await
        .expect("server");
}

/// A node running as a child process; killed when dropped.
struct Node {
    addr: SocketAddr,
    child: Child,
}

impl Node {
    fn start(database: &str, redis: &str) -> Node {
        let exe = std::env::current_exe().expect("this program");
        let mut child = Command::new(exe)
            .args(["serve", "--database", database, "--redis", redis])
            .stdout(Stdio::piped())
            .spawn()
            .expect("node starts");
        let addr = listening_addr(&mut child);
        Node { addr, child }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn send(ws: &mut Ws, message: Value) {
    ws.send(Message::Text(message.to_string().into()))
        .await
        .expect("send");
}

/// Reads until a frame matches `pred`.
async fn until(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .expect("a frame in time")
            .expect("open")
            .expect("frame");
        if let Message::Text(text) = frame {
            let v: Value = serde_json::from_str(text.as_str()).expect("json");
            if pred(&v) {
                return v;
            }
        }
    }
}

async fn player(addr: SocketAddr, name: &str) -> Ws {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/"))
        .await
        .expect("connect");
    send(
        &mut ws,
        json!({"type": "hello", "protocol": 1, "name": name, "request_id": 1}),
    )
    .await;
    until(&mut ws, |m| m["type"] == "welcome").await;
    ws
}

/// Plays one game for `seconds`, a move a second after `offset`, and
/// records each move's latency to the opponent in `latencies`.
async fn play(
    mut black: Ws,
    mut white: Ws,
    room: String,
    offset: Duration,
    seconds: u64,
    latencies: Arc<Mutex<Vec<Duration>>>,
) {
    let stones = [points_without_five([0, 1]), points_without_five([2, 3])];
    tokio::time::sleep(offset).await;
    let start = Instant::now();
    let mut i = 0usize;
    while start.elapsed() < Duration::from_secs(seconds) && i / 2 < stones[0].len() {
        let due = start + Duration::from_secs(i as u64);
        tokio::time::sleep_until(due.into()).await;
        let (mover, opponent) = if i.is_multiple_of(2) {
            (&mut black, &mut white)
        } else {
            (&mut white, &mut black)
        };
        let point = stones[i % 2][i / 2].clone();
        let sent = Instant::now();
        send(
            mover,
            json!({"type": "act", "room_id": room, "request_id": 100 + i,
                   "action": {"kind": "place", "point": point}}),
        )
        .await;
        let seq_kind = |m: &Value| m["type"] == "event" && m["event"]["kind"] == "action";
        until(opponent, seq_kind).await;
        let took = sent.elapsed();
        until(mover, |m| m["request_id"] == json!(100 + i)).await;
        latencies.lock().expect("lock").push(took);
        i += 1;
    }
}

/// p-th percentile of sorted `v`.
fn pct(v: &[Duration], p: f64) -> Duration {
    if v.is_empty() {
        return Duration::ZERO;
    }
    let at = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[at]
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

async fn bench(args: Args) {
    let pg = args.database.is_none().then(TestPostgres::start);
    let redis = args.redis.is_none().then(TestRedis::start);
    let database = args
        .database
        .clone()
        .unwrap_or_else(|| pg.as_ref().expect("pg").database());
    let redis_url = args
        .redis
        .clone()
        .unwrap_or_else(|| redis.as_ref().expect("redis").url());
    let a = Node::start(&database, &redis_url);
    let b = Node::start(&database, &redis_url);
    println!(
        "nodes: A {} and B {}; {} games ({} same-node, {} cross-node), {} s",
        a.addr,
        b.addr,
        args.games,
        args.games / 2,
        args.games - args.games / 2,
        args.seconds
    );
    let same = Arc::new(Mutex::new(Vec::new()));
    let cross = Arc::new(Mutex::new(Vec::new()));
    let mut games = Vec::new();
    for g in 0..args.games {
        let crossing = g % 2 == 1;
        let mut black = player(a.addr, &format!("B{g}")).await;
        let white_node = if crossing { b.addr } else { a.addr };
        let mut white = player(white_node, &format!("W{g}")).await;
        send(
            &mut black,
            json!({"type": "create_room", "request_id": 2,
                   "options": gomoku_options(json!({"kind": "human"}), "black")}),
        )
        .await;
        let joined = until(&mut black, |m| m["request_id"] == 2).await;
        let room = joined["room_id"].as_str().expect("room").to_string();
        // Node B learns of the room through Redis: try until it has.
        loop {
            send(
                &mut white,
                json!({"type": "join_room", "request_id": 2, "room_id": room, "role": "player"}),
            )
            .await;
            let reply = until(&mut white, |m| m["request_id"] == 2).await;
            if reply["type"] == "joined" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let offset = Duration::from_secs_f64(g as f64 / args.games as f64);
        let into = if crossing {
            cross.clone()
        } else {
            same.clone()
        };
        games.push(tokio::spawn(play(
            black,
            white,
            room,
            offset,
            args.seconds,
            into,
        )));
    }
    for game in games {
        game.await.expect("game");
    }
    let mut rows = Vec::new();
    for (name, v) in [("same-node", &same), ("cross-node", &cross)] {
        let mut v = v.lock().expect("lock").clone();
        v.sort();
        rows.push((name, v));
    }
    println!("move to opponent, ms   moves     p50     p90     p99     max");
    for (name, v) in &rows {
        println!(
            "{name:<20} {:>8} {:>7} {:>7} {:>7} {:>7}",
            v.len(),
            ms(pct(v, 0.5)),
            ms(pct(v, 0.9)),
            ms(pct(v, 0.99)),
            ms(pct(v, 1.0))
        );
    }
    let (s, c) = (&rows[0].1, &rows[1].1);
    println!(
        "cross-node extra: p50 +{} ms (x{:.2}), p99 +{} ms (x{:.2})",
        ms(pct(c, 0.5).saturating_sub(pct(s, 0.5))),
        pct(c, 0.5).as_secs_f64() / pct(s, 0.5).as_secs_f64().max(1e-9),
        ms(pct(c, 0.99).saturating_sub(pct(s, 0.99))),
        pct(c, 0.99).as_secs_f64() / pct(s, 0.99).as_secs_f64().max(1e-9),
    );
}
