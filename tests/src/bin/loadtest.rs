//! Load tool: measures a Tabula server and a bare tokio-tungstenite relay
//! under the same load, in the same run, on the same machine.
//!
//! ```sh
//! cargo run --release -p tabula-tests --bin loadtest -- --idle 10000 --games 2000 --spectators 1000
//! ```
//!
//! Both servers run as child processes of this tool (`serve-tabula`,
//! `serve-relay`), so their memory can be read from `/proc`; with
//! `LOADTEST_WRAP` set, the Tabula one runs under that command (a
//! profiler). Scenarios:
//! - **idle**: N connections held (Tabula: after `hello`); server RSS per connection;
//! - **games**: M games at one move per second each; move-to-opponent latency,
//!   first with the games alone, then with the spectators below on game 0;
//! - **fan-out**: one room with S spectators; move-to-spectator latency;
//! - **peak**: games at rising move rates; the highest rate with p99 under 50 ms
//!   that the server kept up with (at least 95% of the offered moves done).
//!   A failed step is played once more, then the rate halfway back to the
//!   last step passed, before the ramp ends; the figure where the first
//!   failure would have ended it is printed too. The two
//!   servers' ramps run interleaved, Tabula's at half the relay's rates.
//!   (`--paced`, a diagnostic: Tabula's at the relay's rates on half the
//!   games instead.)
//!
//! With `--postgres URL`, the baseline is Tabula itself on that PostgreSQL
//! database instead of the relay: the table then compares the two store
//! backends in the same run (columns `postgres` and `tabula`, the SQLite
//! file), both at the same rates.

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tabula_tests::process_stats::{cpu_ms, rss_kib};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The same allocator as `tabula-server`'s binary; the relay and the tool
/// use it too, as they are this same program.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(about = "Load-test Tabula next to a bare relay")]
struct Args {
    #[command(subcommand)]
    command: Option<Cmd>,
    /// Idle connections to hold.
    #[arg(long, default_value_t = 10_000)]
    idle: usize,
    /// Concurrent games at one move per second.
    #[arg(long, default_value_t = 2_000)]
    games: usize,
    /// Spectators on one room.
    #[arg(long, default_value_t = 1_000)]
    spectators: usize,
    /// Seconds per measured phase.
    #[arg(long, default_value_t = 15)]
    seconds: u64,
    /// Games used for the peak-rate ramp. (With 1,000, a fast machine's
    /// relay passed the ramp's last step, 96 moves/s per game: the ramp's
    /// end, not the relay, set its figure.)
    #[arg(long, default_value_t = 2_000)]
    peak_games: usize,
    /// Compare Tabula on this PostgreSQL database (the `postgres` column)
    /// with Tabula on its SQLite file, instead of with the relay.
    #[arg(long, value_name = "URL")]
    postgres: Option<String>,
    /// Only measure this target: tabula or relay.
    #[arg(long)]
    only: Option<String>,
    /// Which phases to run, comma-separated: idle, games, peak.
    #[arg(long, default_value = "idle,games,peak", value_delimiter = ',')]
    phases: Vec<String>,
    /// The peak ramp's moves per second per game, in order (the relay's;
    /// with both servers measured, Tabula's are half these). Steps are 2
    /// apart (12-3%) from 16 to 60 (Tabula's: 1 apart from 8 to 30), where
    /// the two servers saturate on machines of this kind (relay 40-55 on a
    /// fast day, 20 on a slow one): with steps 7-10% apart, a ratio near 0.5
    /// was decided by which way one step fell. (A Gomoku game holds 225
    /// moves, so a Tabula step above 56 moves/s for 4 s runs out of board
    /// and fails as not kept up with.)
    #[arg(
        long,
        default_value = "2,4,8,12,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48,50,52,54,56,58,60,64,72,80,96",
        value_delimiter = ','
    )]
    rates: Vec<f64>,
    /// After each peak step, print its moves per 100 ms with their p50 and
    /// max latency (to see whether a failed step stalled once or throughout).
    #[arg(long)]
    timeline: bool,
    /// Seconds per peak step.
    #[arg(long, default_value_t = 4)]
    peak_seconds: u64,
    /// A diagnostic, not the target's figure: with both servers measured,
    /// Tabula's ramp plays half the games at the relay's per-game rates
    /// (instead of as many games at half the rates), so that each
    /// connection sees the same gaps between frames as the relay's. Below
    /// TCP's 40 ms delayed-ACK timer a connection's ACKs ride on its next
    /// frame; above it each frame read costs a separate ACK packet.
    #[arg(long)]
    paced: bool,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run a Tabula server (child process of the tool).
    ServeTabula {
        #[arg(long)]
        data_dir: std::path::PathBuf,
        /// A PostgreSQL database instead of the SQLite file.
        #[arg(long)]
        database: Option<String>,
    },
    /// Run the bare relay (child process of the tool).
    ServeRelay,
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

fn main() {
    let args = Args::parse();
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    match args.command {
        Some(Cmd::ServeTabula { data_dir, database }) => {
            runtime.block_on(serve_tabula(data_dir, database))
        }
        Some(Cmd::ServeRelay) => runtime.block_on(serve_relay()),
        None => runtime.block_on(drive(args)),
    }
}

// ---------- the two servers ----------

async fn serve_tabula(data_dir: std::path::PathBuf, database: Option<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    println!("LISTENING {}", listener.local_addr().expect("addr"));
    let config = tabula_server::Config {
        database,
        ..tabula_tests::load_config(&data_dir)
    };
    tabula_server::run(listener, config, std::future::pending::<()>())
        .await
        .expect("server");
}

/// A bare relay: one task per connection, small read buffers. The first text
/// frame names a room; every later frame goes to everyone else in that room.
async fn serve_relay() {
    type Rooms = Arc<Mutex<std::collections::HashMap<String, Vec<(u64, mpsc::Sender<Message>)>>>>;
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    println!("LISTENING {}", listener.local_addr().expect("addr"));
    let rooms: Rooms = Arc::default();
    let mut next = 0u64;
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        next += 1;
        let id = next;
        let rooms = rooms.clone();
        tokio::spawn(async move {
            let config = WebSocketConfig::default()
                .read_buffer_size(4096)
                .write_buffer_size(0);
            let Ok(mut ws) =
                tokio_tungstenite::accept_async_with_config(stream, Some(config)).await
            else {
                return;
            };
            let (tx, mut rx) = mpsc::channel::<Message>(256);
            let mut room: Option<String> = None;
            loop {
                tokio::select! {
                    frame = ws.next() => match frame {
                        Some(Ok(Message::Text(text))) => match &room {
                            None => {
                                let name = text.to_string();
                                rooms.lock().expect("lock").entry(name.clone()).or_default().push((id, tx.clone()));
                                room = Some(name);
                            }
                            Some(name) => {
                                let peers: Vec<_> = rooms.lock().expect("lock").get(name).map(|v| v.iter().filter(|(i, _)| *i != id).map(|(_, t)| t.clone()).collect()).unwrap_or_default();
                                for peer in peers {
                                    let _ = peer.try_send(Message::Text(text.clone()));
                                }
                            }
                        },
                        Some(Ok(_)) => {}
                        _ => break,
                    },
                    out = rx.recv() => match out {
                        Some(m) => if ws.send(m).await.is_err() { break },
                        None => break,
                    }
                }
            }
            if let Some(name) = room
                && let Some(v) = rooms.lock().expect("lock").get_mut(&name)
            {
                v.retain(|(i, _)| *i != id);
            }
        });
    }
}

// ---------- driving ----------

struct Target {
    name: &'static str,
    tabula: bool,
    addr: SocketAddr,
    child: Child,
    _dir: Option<tempfile::TempDir>,
}

/// An environment variable: a command to run the Tabula server under.
const WRAP: &str = "LOADTEST_WRAP";

impl Drop for Target {
    fn drop(&mut self) {
        if self.tabula && std::env::var_os(WRAP).is_some() {
            // A profiler writes its report at exit, which SIGKILL skips.
            let _ = Command::new("kill")
                .arg("-TERM")
                .arg(self.child.id().to_string())
                .status();
            std::thread::sleep(Duration::from_secs(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the relay (`tabula` false) or a Tabula server, on `database`
/// when given.
fn start(tabula: bool, database: Option<&str>) -> Target {
    let exe = std::env::current_exe().expect("exe");
    let mut cmd = match std::env::var(WRAP) {
        // For profiling: `LOADTEST_WRAP="valgrind --tool=callgrind"` runs
        // the Tabula server under that command.
        Ok(wrap) if tabula => {
            let mut words = wrap.split_whitespace();
            let mut cmd = Command::new(words.next().expect("a wrapper command"));
            cmd.args(words).arg(exe);
            cmd
        }
        _ => Command::new(exe),
    };
    let dir = tabula.then(|| tempfile::tempdir().expect("dir"));
    match &dir {
        Some(d) => cmd.arg("serve-tabula").arg("--data-dir").arg(d.path()),
        None => cmd.arg("serve-relay"),
    };
    if let Some(url) = database {
        cmd.arg("--database").arg(url);
    }
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let addr = tabula_tests::listening_addr(&mut child);
    Target {
        name: match (tabula, database) {
            (false, _) => "relay",
            (true, None) => "tabula",
            (true, Some(_)) => "postgres",
        },
        tabula,
        addr,
        child,
        _dir: dir,
    }
}

async fn connect(addr: SocketAddr) -> Option<Ws> {
    let config = WebSocketConfig::default().read_buffer_size(4096);
    match tokio_tungstenite::connect_async_with_config(format!("ws://{addr}/"), Some(config), false)
        .await
    {
        Ok((ws, _)) => Some(ws),
        Err(e) => {
            say_why("connect", &e.to_string());
            None
        }
    }
}

/// Prints why a connection could not be opened: the first few times only.
fn say_why(what: &str, why: &str) {
    static SAID: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    if SAID.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < 5 {
        eprintln!("{what} failed: {why}");
    }
}

async fn send(ws: &mut Ws, v: Value) -> bool {
    send_text(ws, v.to_string()).await
}

async fn send_text(ws: &mut Ws, text: String) -> bool {
    ws.send(Message::Text(text.into())).await.is_ok()
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

/// Like [`until`], but tests the raw text: the measured loops use it so that
/// the tool spends as little CPU as it can on frames, for both servers alike.
async fn until_text(ws: &mut Ws, mut pred: impl FnMut(&str) -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        match tokio::time::timeout_at(deadline, ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                if pred(t.as_str()) {
                    return true;
                }
            }
            Ok(Some(Ok(_))) => {}
            _ => return false,
        }
    }
}

/// Whether a Tabula frame is a game action event.
fn is_action_event(text: &str) -> bool {
    text.starts_with("{\"type\":\"event\"") && text.contains("\"event\":{\"kind\":\"action\"")
}

/// A connection that has said hello (Tabula) or joined `room` (relay).
async fn open(target: &Target, room: &str) -> Option<Ws> {
    let mut ws = connect(target.addr).await?;
    if target.tabula {
        send(
            &mut ws,
            json!({"type": "hello", "protocol": 1, "name": "load"}),
        )
        .await;
        if until(&mut ws, |v| v["type"] == "welcome").await.is_none() {
            say_why("hello", "no welcome within 10 s");
            return None;
        }
    } else {
        ws.send(Message::Text(room.to_string().into())).await.ok()?;
    }
    Some(ws)
}

/// The n-th point of a fill order in which no colour ever gets five in a row:
/// black takes the points with (x + 2y) mod 4 < 2, white the others.
fn fill_point(black: bool, n: usize) -> Option<(u8, u8)> {
    (0..15u8)
        .flat_map(|y| (0..15u8).map(move |x| (x, y)))
        .filter(|&(x, y)| ((usize::from(x) + 2 * usize::from(y)) % 4 < 2) == black)
        .nth(n)
}

struct Game {
    a: Ws,
    b: Ws,
    room: String,
    /// Moves played so far.
    n: usize,
}

async fn open_game(target: &Target, k: usize) -> Option<Game> {
    let room = format!("game-{k}");
    let mut a = open(target, &room).await?;
    let mut b = open(target, &room).await?;
    if target.tabula {
        send(&mut a, json!({"type": "create_room", "options": {"game": {"game": "gomoku"}, "opponent": {"kind": "human"}, "colour": "black"}})).await;
        let joined = until(&mut a, |v| v["type"] == "joined").await?;
        let id = joined["room_id"].as_str()?.to_string();
        send(
            &mut b,
            json!({"type": "join_room", "room_id": id, "role": "player"}),
        )
        .await;
        until(&mut b, |v| v["type"] == "joined").await?;
        return Some(Game {
            a,
            b,
            room: id,
            n: 0,
        });
    }
    Some(Game { a, b, room, n: 0 })
}

#[derive(Default)]
struct Stats {
    /// Each move done: (seconds since the phase began, move-to-opponent
    /// latency in ms).
    moves: Vec<(f64, f64)>,
    errors: u64,
}

impl Stats {
    /// The move-to-opponent latencies, in ms.
    fn opponent(&self) -> Vec<f64> {
        self.moves.iter().map(|&(_, latency)| latency).collect()
    }

    /// Moves per second over `seconds`.
    fn rate(&self, seconds: u64) -> f64 {
        self.moves.len() as f64 / seconds as f64
    }
}

/// The table's p50, p99 and max rows for one latency sample.
fn push_latency(out: &mut Vec<(String, f64)>, name: &str, v: &mut [f64]) {
    for (label, p) in [("p50", 0.5), ("p99", 0.99), ("max", 1.0)] {
        out.push((format!("{name} {label} ms"), pct(v, p)));
    }
}

fn pct(v: &mut [f64], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[i.min(v.len() - 1)]
}

/// Plays `games` at `rate` moves per second each for `seconds`; spectators
/// (already joined) watch game 0 and report through `watch`.
async fn play(
    target: &Target,
    games: Vec<Game>,
    rate: f64,
    seconds: u64,
    sent: Arc<Mutex<Vec<Instant>>>,
) -> (Stats, Vec<Game>) {
    let stats = Arc::new(Mutex::new(Stats::default()));
    let tabula = target.tabula;
    let mut tasks = Vec::new();
    let start = Instant::now();
    for (k, mut g) in games.into_iter().enumerate() {
        let stats = stats.clone();
        let sent = sent.clone();
        tasks.push(tokio::spawn(async move {
            let period = Duration::from_secs_f64(1.0 / rate);
            // Spread the games over the period.
            let offset = period.mul_f64((k % 1000) as f64 / 1000.0);
            let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + offset + period, period);
            while start.elapsed() < Duration::from_secs(seconds) {
                tick.tick().await;
                let n = g.n;
                let black = n % 2 == 0;
                let (mover, other) = if black { (&mut g.a, &mut g.b) } else { (&mut g.b, &mut g.a) };
                let t0 = Instant::now();
                if k == 0 {
                    sent.lock().expect("lock").push(t0);
                }
                // Frames written by hand, not through serde_json::Value: the
                // tool's own CPU is taken from the server under test.
                let ok = if tabula {
                    let Some((x, y)) = fill_point(black, n / 2) else { break };
                    let act = format!(
                        r#"{{"type":"act","room_id":"{}","request_id":{n},"action":{{"kind":"place","point":{{"x":{x},"y":{y}}}}}}}"#,
                        g.room
                    );
                    send_text(mover, act).await && until_text(other, is_action_event).await
                } else {
                    send_text(mover, format!(r#"{{"n":{n}}}"#)).await && until_text(other, |_| true).await
                };
                let latency = t0.elapsed().as_secs_f64() * 1000.0;
                if tabula {
                    // The mover's answer: its own action event, with its request_id.
                    let answer = format!("{{\"request_id\":{n},\"type\":\"event\"");
                    let id = format!("{{\"request_id\":{n},");
                    let mut reply_ok = false;
                    let replied = until_text(mover, |t| {
                        reply_ok = t.starts_with(&answer);
                        t.starts_with(&id)
                    })
                    .await;
                    if !replied || !reply_ok {
                        stats.lock().expect("lock").errors += 1;
                    }
                }
                let mut s = stats.lock().expect("lock");
                if ok {
                    s.moves.push((start.elapsed().as_secs_f64(), latency));
                } else {
                    s.errors += 1;
                }
                g.n += 1;
            }
            g
        }));
    }
    let mut back = Vec::new();
    for t in tasks {
        if let Ok(g) = t.await {
            back.push(g);
        }
    }
    let stats = Arc::try_unwrap(stats)
        .map(|m| m.into_inner().expect("lock"))
        .unwrap_or_default();
    (stats, back)
}

async fn drive(args: Args) {
    println!(
        "tabula load test: idle={} games={} spectators={} seconds={}",
        args.idle, args.games, args.spectators, args.seconds
    );
    let mut targets = Vec::new();
    let mut rows = Vec::new();
    // The baseline first: the relay, or Tabula on PostgreSQL.
    let baseline = args.postgres.as_deref();
    for tabula in [false, true] {
        let name = match (tabula, baseline) {
            (true, _) => "tabula",
            (false, None) => "relay",
            (false, Some(_)) => "postgres",
        };
        if args.only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let target = match baseline {
            Some(url) if !tabula => start(true, Some(url)),
            _ => start(tabula, None),
        };
        tokio::time::sleep(Duration::from_millis(300)).await;
        rows.push(measure(&target, &args).await);
        targets.push(target);
    }
    if args.phases.iter().any(|p| p == "peak") {
        // Both ramps at once, a step of each in turn, so that both servers
        // are measured in the same minutes of this shared machine.
        let mut ramps: Vec<Ramp> = targets
            .iter()
            .map(|t| Ramp::new(t, &args, targets.len() > 1))
            .collect();
        let mut round = 0;
        while ramps.iter().any(|r| !r.done) {
            // Alternate which goes first, so neither always follows the other.
            for i in 0..ramps.len() {
                let i = if round % 2 == 0 {
                    i
                } else {
                    ramps.len() - 1 - i
                };
                ramps[i].next_step(&args).await;
            }
            round += 1;
        }
        for (row, ramp) in rows.iter_mut().zip(ramps) {
            row.extend(ramp.finish());
        }
    }
    let base = if baseline.is_some() {
        "postgres"
    } else {
        "relay"
    };
    println!("\n| figure | {base} | tabula | tabula/{base} |");
    println!("|---|---|---|---|");
    let keys: Vec<String> = rows
        .first()
        .map(|r| r.iter().map(|(k, _)| k.clone()).collect())
        .unwrap_or_default();
    for key in keys {
        let get = |i: usize| {
            rows.get(i)
                .and_then(|r| r.iter().find(|(k, _)| *k == key).map(|(_, v)| *v))
        };
        let (relay, tabula) = if rows.len() == 2 {
            (get(0), get(1))
        } else {
            (None, get(0))
        };
        let f = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.1}"));
        let ratio = match (relay, tabula) {
            (Some(r), Some(t)) if r != 0.0 => format!("{:.2}", t / r),
            _ => "-".into(),
        };
        println!("| {key} | {} | {} | {ratio} |", f(relay), f(tabula));
    }
}

async fn measure(target: &Target, args: &Args) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    let phase = |name: &str| args.phases.iter().any(|p| p == name);
    if phase("idle") {
        measure_idle(target, args, &mut out).await;
    }
    if phase("games") {
        measure_games(target, args, &mut out).await;
    }
    out
}

/// Idle connections: how many are held, and the server's memory per connection.
async fn measure_idle(target: &Target, args: &Args, out: &mut Vec<(String, f64)>) {
    let pid = target.child.id();
    let base = rss_kib(pid);
    // Idle connections.
    let mut idle = Vec::with_capacity(args.idle);
    let mut failed = 0;
    for chunk in 0..args.idle.div_ceil(500) {
        let n = 500.min(args.idle - chunk * 500);
        let opens = (0..n).map(|_| open(target, "idle"));
        for ws in futures_util::future::join_all(opens).await {
            match ws {
                Some(ws) => idle.push(ws),
                None => failed += 1,
            }
        }
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let rss = rss_kib(pid);
    let per = (rss.saturating_sub(base)) as f64 / idle.len().max(1) as f64;
    // Still there after a while?
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut alive = 0;
    for ws in idle.iter_mut() {
        if ws.send(Message::Ping(Default::default())).await.is_ok() {
            alive += 1;
        }
    }
    println!(
        "[{}] idle: {} held, {} failed, {} alive, RSS {} KiB -> {} KiB, {:.1} KiB/connection",
        target.name,
        idle.len(),
        failed,
        alive,
        base,
        rss,
        per
    );
    out.push(("idle connections held".into(), alive as f64));
    out.push(("idle connect failures".into(), failed as f64));
    out.push(("server KiB per idle connection".into(), per));
    drop(idle);
    tokio::time::sleep(Duration::from_secs(2)).await;
}

/// Games at one move per second, with spectators watching game 0.
async fn measure_games(target: &Target, args: &Args, out: &mut Vec<(String, f64)>) {
    let pid = target.child.id();
    // Games at 1 move/s, with spectators on game 0.
    let mut games = Vec::new();
    for chunk in (0..args.games).collect::<Vec<_>>().chunks(200) {
        let opened =
            futures_util::future::join_all(chunk.iter().map(|k| open_game(target, *k))).await;
        games.extend(opened.into_iter().flatten());
    }
    // First the games alone, then again with the spectators watching game 0.
    let (alone, games) = play(
        target,
        games,
        1.0,
        args.seconds,
        Arc::new(Mutex::new(Vec::new())),
    )
    .await;
    let mut alone_latency = alone.opponent();
    println!(
        "[{}] {} games at 1 move/s, no spectators: {:.0} moves/s, opponent p50 {:.2} ms p99 {:.2} ms max {:.2} ms, errors {}",
        target.name,
        games.len(),
        alone.rate(args.seconds),
        pct(&mut alone_latency, 0.5),
        pct(&mut alone_latency, 0.99),
        pct(&mut alone_latency, 1.0),
        alone.errors,
    );
    push_latency(out, "games alone: move-to-opponent", &mut alone_latency);
    out.push(("games alone: errors".into(), alone.errors as f64));
    let sent: Arc<Mutex<Vec<Instant>>> = Arc::new(Mutex::new(Vec::new()));
    let watch_room = games.first().map(|g| g.room.clone()).unwrap_or_default();
    let spectator_lat = Arc::new(Mutex::new(Vec::new()));
    let mut watchers = Vec::new();
    for _ in 0..args.spectators {
        let Some(mut ws) = open(target, &watch_room).await else {
            continue;
        };
        if target.tabula {
            send(
                &mut ws,
                json!({"type": "join_room", "room_id": watch_room, "role": "spectator"}),
            )
            .await;
            if until(&mut ws, |v| v["type"] == "snapshot").await.is_none() {
                continue;
            }
        }
        let sent = sent.clone();
        let lat = spectator_lat.clone();
        let tabula = target.tabula;
        watchers.push(tokio::spawn(async move {
            let mut i = 0usize;
            while let Some(Ok(m)) = ws.next().await {
                let Message::Text(t) = m else { continue };
                if tabula && !is_action_event(t.as_str()) {
                    continue;
                }
                let t0 = sent.lock().expect("lock").get(i).copied();
                if let Some(t0) = t0 {
                    lat.lock()
                        .expect("lock")
                        .push(t0.elapsed().as_secs_f64() * 1000.0);
                }
                i += 1;
            }
        }));
    }
    let before = rss_kib(pid);
    let (stats, games) = play(target, games, 1.0, args.seconds, sent).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    for w in &watchers {
        w.abort();
    }
    let mut spec = spectator_lat.lock().expect("lock").clone();
    let rate = stats.rate(args.seconds);
    let mut latency = stats.opponent();
    println!(
        "[{}] {} games at 1 move/s: {:.0} moves/s, opponent p50 {:.2} ms p99 {:.2} ms max {:.2} ms, errors {}; {} spectators: p50 {:.2} ms p99 {:.2} ms max {:.2} ms; RSS {} KiB",
        target.name,
        games.len(),
        rate,
        pct(&mut latency, 0.5),
        pct(&mut latency, 0.99),
        pct(&mut latency, 1.0),
        stats.errors,
        watchers.len(),
        pct(&mut spec, 0.5),
        pct(&mut spec, 0.99),
        pct(&mut spec, 1.0),
        before
    );
    out.push(("games held".into(), games.len() as f64));
    out.push(("moves/s at 1 move/s per game".into(), rate));
    push_latency(out, "move-to-opponent", &mut latency);
    out.push(("errors".into(), stats.errors as f64));
    out.push(("spectators".into(), watchers.len() as f64));
    push_latency(out, "move-to-spectator", &mut spec);
    drop(games);
}

/// Peak: fresh games at each rising rate until p99 passes 50 ms. A failed
/// step is played once more before the ramp ends: on this shared machine a
/// one-off stall (both processes' CPU per move jumping by a third at once)
/// otherwise decides where either server's ramp ends. Both figures are kept.
/// Then the rate halfway back to the last step passed is played (twice at
/// most), to halve the ramp's resolution where it ended.
///
/// When both servers are measured, their ramps run interleaved, one step of
/// each in turn, and Tabula's rates are half the relay's (the target ratio):
/// near the target both ramps end in the same minutes, so the ratio compares
/// the servers under the same machine conditions.
struct Ramp<'a> {
    target: &'a Target,
    games: usize,
    rates: Vec<f64>,
    step: usize,
    attempt: usize,
    best: f64,
    first_failure: Option<f64>,
    cpu_at_8: Option<f64>,
    /// Once the ramp has failed a step twice: the rate halfway between it
    /// and the last step passed, played (and retried) before the ramp ends.
    /// Steps near saturation are 4-6% apart; this halves that, so that two
    /// servers which held the same paired step can still come apart.
    refine: Option<f64>,
    done: bool,
}

impl<'a> Ramp<'a> {
    fn new(target: &'a Target, args: &Args, paired: bool) -> Ramp<'a> {
        // Paired with the relay, Tabula plays half the relay's moves: at
        // half the rates, or (`--paced`) on half the games.
        let (scale, games) = match (paired && target.tabula, args.paced) {
            (true, false) => (0.5, args.peak_games),
            (true, true) => (1.0, args.peak_games / 2),
            (false, _) => (1.0, args.peak_games),
        };
        Ramp {
            target,
            games,
            rates: args.rates.iter().map(|r| r * scale).collect(),
            step: 0,
            attempt: 0,
            best: 0.0,
            first_failure: None,
            cpu_at_8: None,
            refine: None,
            done: args.rates.is_empty(),
        }
    }

    /// Plays the next step (or the retry of a failed one).
    async fn next_step(&mut self, args: &Args) {
        if self.done {
            return;
        }
        let rate = self.refine.unwrap_or(self.rates[self.step]);
        // Each try gets fresh games (room names from the step and attempt).
        let tag = self.step + usize::from(self.refine.is_some()) * self.rates.len();
        let (mps, cpu_us_per_move, passed) =
            peak_step(self.target, args, self.games, tag, self.attempt, rate).await;
        if rate == 8.0 && self.attempt == 0 {
            // 8 moves/s per game: busy, but below every saturation seen so far.
            self.cpu_at_8 = Some(cpu_us_per_move);
        }
        if passed {
            self.best = self.best.max(mps);
            self.attempt = 0;
            if self.refine.is_some() {
                self.done = true;
            } else {
                self.step += 1;
                self.done = self.step == self.rates.len();
            }
        } else {
            self.first_failure.get_or_insert(self.best);
            self.attempt += 1;
            if self.attempt == 2 {
                self.attempt = 0;
                match (self.refine, self.step.checked_sub(1)) {
                    (None, Some(last_passed)) => {
                        self.refine = Some((self.rates[last_passed] + rate) / 2.0);
                    }
                    _ => self.done = true,
                }
            }
        }
    }

    fn finish(self) -> Vec<(String, f64)> {
        vec![
            (
                "server CPU us per move (8 moves/s per game)".into(),
                self.cpu_at_8.unwrap_or(f64::NAN),
            ),
            (
                "peak moves/s, ramp ends at the first failed step".into(),
                self.first_failure.unwrap_or(self.best),
            ),
            (
                "peak moves/s with p99 < 50 ms (>= 95% of offered; a failed step tried twice, then the halfway rate)"
                    .into(),
                self.best,
            ),
        ]
    }
}

/// One line: `tenth-of-a-second:moves/p50 ms/max ms` for each 100 ms of a step.
fn print_timeline(name: &str, when: &[(f64, f64)]) {
    let mut buckets: std::collections::BTreeMap<u64, Vec<f64>> = Default::default();
    for (t, latency) in when {
        buckets.entry((t * 10.0) as u64).or_default().push(*latency);
    }
    let line: Vec<String> = buckets
        .iter_mut()
        .map(|(b, v)| format!("{b}:{}/{:.0}/{:.0}", v.len(), pct(v, 0.5), pct(v, 1.0)))
        .collect();
    println!("[{name}] timeline {}", line.join(" "));
}

/// One step of the peak ramp on fresh games: (moves/s, server CPU us per
/// move, whether it passed).
async fn peak_step(
    target: &Target,
    args: &Args,
    games: usize,
    step: usize,
    attempt: usize,
    rate: f64,
) -> (f64, f64, bool) {
    let pid = target.child.id();
    let mut peak = Vec::new();
    for chunk in (0..games).collect::<Vec<_>>().chunks(200) {
        let first = 100_000 * (2 * step + attempt + 1);
        let opened =
            futures_util::future::join_all(chunk.iter().map(|k| open_game(target, first + *k)))
                .await;
        peak.extend(opened.into_iter().flatten());
    }
    let cpu_before = cpu_ms(pid);
    let tool_before = cpu_ms(std::process::id());
    let (s, back) = play(
        target,
        peak,
        rate,
        args.peak_seconds,
        Arc::new(Mutex::new(Vec::new())),
    )
    .await;
    let done = s.moves.len().max(1) as f64;
    let cpu_us_per_move = (cpu_ms(pid) - cpu_before) * 1000.0 / done;
    let tool_us_per_move = (cpu_ms(std::process::id()) - tool_before) * 1000.0 / done;
    let mps = s.rate(args.peak_seconds);
    let p99 = pct(&mut s.opponent(), 0.99);
    if args.timeline {
        print_timeline(target.name, &s.moves);
    }
    // A step counts only when the server kept up with it: under a closed
    // loop (each game waits for its move's answer) an overloaded server
    // would otherwise show its saturated rate with a bounded p99.
    let offered = rate * back.len() as f64;
    let passed = p99 < 50.0 && s.errors == 0 && mps >= 0.95 * offered;
    println!(
        "[{}] peak ramp: {} games x {rate} moves/s{}: {mps:.0} moves/s, p99 {p99:.2} ms, errors {}, CPU per move: server {cpu_us_per_move:.0} us, load tool {tool_us_per_move:.0} us{}",
        target.name,
        back.len(),
        if attempt > 0 { " (again)" } else { "" },
        s.errors,
        if passed { "" } else { " -> failed" }
    );
    (mps, cpu_us_per_move, passed)
}
