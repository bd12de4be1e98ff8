//! `tabula-server`: run a Tabula server with embedded defaults.

use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;
use tabula_server::Config;
use tabula_server::engines::EngineSpec;
use tokio::net::TcpListener;

/// mimalloc instead of the system allocator: a move allocates and frees many
/// small buffers across threads, and glibc's malloc was ~8% of the server's
/// CPU under the load test.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Host Gomoku and Backgammon for your friends.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:7878")]
    bind: String,
    /// Directory for the SQLite database (created when needed).
    #[arg(long, default_value = "tabula-data")]
    data_dir: PathBuf,
    /// Keep everything in this PostgreSQL database instead of the SQLite
    /// file, e.g. `postgres://tabula@localhost/tabula` (the tables are made
    /// on first start).
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// Run as one node of a cluster: the nodes share one PostgreSQL
    /// (`--database`) and meet in this Redis, e.g. `redis://127.0.0.1/`.
    #[arg(long, value_name = "URL", requires = "database")]
    redis: Option<String>,
    /// Seconds a cluster node's lease on a room lasts unless renewed: a dead
    /// node's rooms move to another node within about this long.
    #[arg(long, default_value_t = 10)]
    lease_secs: u64,
    /// A reverse proxy in front of this server (repeat for several): its
    /// connections count as coming from the client address it puts last
    /// in `X-Forwarded-For` (the hop it added itself), for the per-address
    /// limits. Name only an address that nothing but the proxy connects
    /// from: anyone else connecting from it can claim any address. With
    /// 127.0.0.1, every program on this machine can, so bind the server
    /// where only the proxy reaches it (e.g. `--bind 127.0.0.1:7878` on a
    /// host with no other users) or give the proxy an address of its own.
    #[arg(long, value_name = "IP")]
    trusted_proxy: Vec<std::net::IpAddr>,
    /// Make the server private: clients must send this password.
    #[arg(long)]
    password: Option<String>,
    /// Seconds a dropped player's seat is held.
    #[arg(long, default_value_t = 60)]
    grace_secs: u64,
    /// Most connections held at once.
    #[arg(long, default_value_t = 20_000)]
    max_connections: usize,
    /// Most rooms open at once.
    #[arg(long, default_value_t = 10_000)]
    max_rooms: usize,
    /// Requests per second one connection may sustain.
    #[arg(long, default_value_t = 30)]
    rate_per_sec: u32,
    /// Milliseconds the AI may think per move.
    #[arg(long, default_value_t = 1000)]
    ai_budget_ms: u64,
    /// Fix the dice so games can be reproduced (testing only).
    #[arg(long)]
    dice_seed: Option<u64>,
    /// Milliseconds a Backgammon match's opening roll waits for the players'
    /// dice seeds.
    #[arg(long, default_value_t = 3000)]
    dice_seed_wait_ms: u64,
    /// Seconds a request waits for the store (a stalled disk) before it is
    /// refused with `internal`.
    #[arg(long, default_value_t = 10)]
    store_timeout_secs: u64,
    /// New guest identities one client address may make in ten minutes.
    #[arg(long, default_value_t = 100)]
    new_players_per_address: u32,
    /// Rooms one client address may have open when creating another.
    #[arg(long, default_value_t = 100)]
    rooms_per_address: usize,
    /// Connections one client address may hold at once, unfinished
    /// handshakes included (a club behind one NAT address shares it).
    #[arg(long, default_value_t = 200)]
    connections_per_address: usize,
    /// Mebibytes that may wait, over all connections, for clients that read
    /// slowly; past it the slowest are dropped first.
    #[arg(long, default_value_t = 64)]
    max_outbound_mib: usize,
    /// An external engine offered as an opponent, e.g.
    /// `gomoku:Rapfi=/path/to/pbrain-rapfi` (a Gomocup brain) or
    /// `backgammon:Tabula=bg-engine --level expert` (bg-engine's line
    /// protocol); repeat for more. Arguments are split at spaces.
    #[arg(long = "engine", value_name = "GAME:NAME=COMMAND")]
    engines: Vec<EngineSpec>,
    /// Most engine processes running at once (each room against an engine
    /// runs its own while a game is played in it).
    #[arg(long, default_value_t = 16)]
    max_engine_processes: usize,
    /// Game analyses run at once (default: one fewer than the cores, at
    /// least one); hints have as many workers of their own.
    #[arg(long)]
    analysis_workers: Option<usize>,
    /// Game analyses that may wait for a worker before requests are
    /// answered `busy`.
    #[arg(long, default_value_t = 8)]
    analysis_queue: usize,
    /// Nodes per position of the Gomoku Expert in analyses and hints.
    #[arg(long, default_value_t = tabula_ai::analysis::GOMOKU_NODES)]
    analysis_nodes: u64,
    /// Hints one player may ask for in a minute.
    #[arg(long, default_value_t = 20)]
    hints_per_minute: u32,
    /// Do not add the built-in puzzle set to the store at start: serve the
    /// puzzles found in this server's own games (a store that holds the
    /// set already keeps it).
    #[arg(long)]
    no_built_in_puzzles: bool,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    match serve().await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            // Said plainly: "another Tabula server is using ./tabula-data", say.
            tracing::error!("{e}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn serve() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_env_filter(tabula_server::log_filter("info"))
        .init();
    let args = Args::parse();
    for (i, spec) in args.engines.iter().enumerate() {
        if args.engines[..i]
            .iter()
            .any(|s| s.game == spec.game && s.name == spec.name)
        {
            return Err(format!("two engines are called {:?}", spec.name).into());
        }
        spec.check_program()?;
    }
    raise_fd_limit();
    let config = Config {
        data_dir: args.data_dir,
        database: args.database,
        redis: args.redis,
        lease: Duration::from_secs(args.lease_secs.max(1)),
        trusted_proxies: args.trusted_proxy,
        password: args.password,
        grace: Duration::from_secs(args.grace_secs),
        max_connections: args.max_connections,
        max_rooms: args.max_rooms,
        rate_per_sec: args.rate_per_sec,
        ai_budget: Duration::from_millis(args.ai_budget_ms),
        dice_seed: args.dice_seed,
        dice_seed_wait: Duration::from_millis(args.dice_seed_wait_ms),
        store_timeout: Duration::from_secs(args.store_timeout_secs),
        new_players_per_address: args.new_players_per_address,
        rooms_per_address: args.rooms_per_address,
        connections_per_address: args.connections_per_address,
        max_outbound_bytes: args.max_outbound_mib.saturating_mul(1024 * 1024),
        engines: args.engines,
        max_engine_processes: args.max_engine_processes,
        analysis_workers: args
            .analysis_workers
            .unwrap_or_else(tabula_server::default_analysis_workers),
        analysis_queue: args.analysis_queue,
        analysis_gomoku_nodes: args.analysis_nodes,
        hints_per_minute: args.hints_per_minute,
        built_in_puzzles: !args.no_built_in_puzzles,
        ..Config::default()
    };
    let listener = TcpListener::bind(&args.bind)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", args.bind))?;
    tabula_server::run(listener, config, shutdown_signal()).await?;
    Ok(())
}

/// Resolves on SIGINT or SIGTERM.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = match signal(SignalKind::terminate()) {
            Ok(s) => s,
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Raises the open-file limit to its hard maximum, so thousands of clients fit.
fn raise_fd_limit() {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) => tracing::debug!(limit = n, "open-file limit"),
        Err(e) => tracing::warn!(error = %e, "could not raise the open-file limit"),
    }
}
