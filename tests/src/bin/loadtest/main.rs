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
//! - **arena** (`--phases arena --only tabula`): an arena of 2,000 players
//!   for five minutes of fast games (five stones each, then a resignation);
//!   the pairing latency from a game's end to the next pairing, p50 and
//!   p99, and the server's CPU.
//!
//! With `--postgres URL`, the baseline is Tabula itself on that PostgreSQL
//! database instead of the relay: the table then compares the two store
//! backends in the same run (columns `postgres` and `tabula`, the SQLite
//! file), both at the same rates.

mod arena;
mod games;
mod scenarios;
mod target;
mod wire;

use std::time::Duration;

use clap::{Parser, Subcommand};

use scenarios::{Ramp, measure};
use target::{serve_relay, serve_tabula, start};

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
    /// Players in the arena phase.
    #[arg(long, default_value_t = 2_000)]
    arena_players: usize,
    /// The arena phase's length in minutes.
    #[arg(long, default_value_t = 5)]
    arena_minutes: u32,
    /// Which phases to run, comma-separated: idle, games, peak, and arena
    /// (Tabula only: an arena of `--arena-players` for `--arena-minutes`
    /// of fast games; pairing latency and server CPU).
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
