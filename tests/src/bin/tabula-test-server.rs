//! A Tabula server for end-to-end tests: binds `127.0.0.1:0`, prints
//! `LISTENING <addr>` on stdout, and serves with test-friendly settings
//! (fixed dice seed, no wait for dice seeds, short grace period) until killed or stdin closes.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;
use tokio::io::AsyncReadExt;
use tokio::net::TcpListener;

#[derive(Parser)]
struct Args {
    /// Where the database lives.
    #[arg(long)]
    data_dir: PathBuf,
    /// A PostgreSQL database instead of the SQLite file in `data_dir`.
    #[arg(long)]
    database: Option<String>,
    /// Joins a cluster through this Redis (with `database`).
    #[arg(long)]
    redis: Option<String>,
    /// Milliseconds a cluster node's lease on a room lasts.
    #[arg(long, default_value_t = 2_000)]
    lease_ms: u64,
    /// Fixed dice seed.
    #[arg(long, default_value_t = 7)]
    dice_seed: u64,
    /// Milliseconds the opening roll waits for the players' dice seeds
    /// (none by default, as in [`tabula_tests::test_config`]).
    #[arg(long, default_value_t = 0)]
    dice_seed_wait_ms: u64,
    /// Address to bind.
    #[arg(long, default_value = "127.0.0.1:0")]
    bind: String,
    /// Milliseconds a request waits for the store before it is refused.
    #[arg(long, default_value_t = 10_000)]
    store_timeout_ms: u64,
    /// Game analyses run at once.
    #[arg(long, default_value_t = 1)]
    analysis_workers: usize,
    /// Game analyses that may wait for a worker.
    #[arg(long, default_value_t = 8)]
    analysis_queue: usize,
    /// Nodes per position of the Gomoku analyses.
    #[arg(long, default_value_t = 20_000)]
    analysis_nodes: u64,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    // Warnings (a slow store commit, say) go to stderr, which the tests
    // leave to the terminal, so that a failing run shows them.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(tabula_server::log_filter("warn"))
        .init();
    let listener = TcpListener::bind(&args.bind).await?;
    println!("LISTENING {}", listener.local_addr()?);
    std::io::stdout().flush()?;
    let config = tabula_server::Config {
        data_dir: args.data_dir,
        database: args.database,
        redis: args.redis,
        lease: Duration::from_millis(args.lease_ms),
        // As in `tabula_tests::test_config`: the tests' fast loops are not
        // what the flood limit is for.
        rate_burst: 500,
        rate_per_sec: 500,
        dice_seed: Some(args.dice_seed),
        dice_seed_wait: Duration::from_millis(args.dice_seed_wait_ms),
        grace: Duration::from_secs(2),
        ai_budget: Duration::from_millis(100),
        store_timeout: Duration::from_millis(args.store_timeout_ms),
        analysis_workers: args.analysis_workers,
        analysis_queue: args.analysis_queue,
        analysis_gomoku_nodes: args.analysis_nodes,
        ..tabula_server::Config::default()
    };
    // Stops gracefully when stdin closes; SIGKILL stops it hard.
    let stdin_closed = async {
        let mut buf = [0u8; 64];
        let mut stdin = tokio::io::stdin();
        while let Ok(n) = stdin.read(&mut buf).await {
            if n == 0 {
                break;
            }
        }
    };
    tabula_server::run(listener, config, stdin_closed).await?;
    Ok(())
}
