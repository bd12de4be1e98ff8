//! Times the analysis of whole games, as the server runs it for `analyse`.
//!
//! `analysis-bench --games 5` plays that many Backgammon money games
//! (Expert against Beginner) and Gomoku games (Expert against
//! Intermediate), analyses each with the server's default settings, and
//! prints the time per game (median, slowest) with the games' lengths.

use std::time::{Duration, Instant};

use clap::Parser;
use tabula_ai::Level;
use tabula_ai::analysis::{self, GOMOKU_NODES};
use tabula_ai_tools::sample_games;
use tabula_shared::protocol::GameRecord;

#[derive(Parser)]
#[command(about = "Time the analysis of whole games of each kind")]
struct Cli {
    /// Games of each kind.
    #[arg(long, default_value_t = 5)]
    games: u64,
    /// First seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Nodes per Gomoku position (the server's `--analysis-nodes`).
    #[arg(long, default_value_t = GOMOKU_NODES)]
    nodes: u64,
}

/// Analyses each record, printing one line per game; returns the times.
fn time(kind: &str, records: &[GameRecord], nodes: u64) -> Vec<Duration> {
    records
        .iter()
        .enumerate()
        .map(|(i, record)| {
            let start = Instant::now();
            analysis::analyse(record, nodes, &mut |_, _| {}).expect("the record replays");
            let took = start.elapsed();
            println!(
                "{kind} game {}: {} actions, analysed in {:.2} s",
                i + 1,
                record.len(),
                took.as_secs_f64()
            );
            took
        })
        .collect()
}

fn summary(kind: &str, mut times: Vec<Duration>) {
    times.sort();
    let median = times[times.len() / 2];
    let slowest = times[times.len() - 1];
    println!(
        "{kind}: median {:.2} s, slowest {:.2} s over {} games",
        median.as_secs_f64(),
        slowest.as_secs_f64(),
        times.len()
    );
}

fn main() {
    let cli = Cli::parse();
    let seeds = cli.seed..cli.seed + cli.games;
    let bg: Vec<GameRecord> = seeds
        .clone()
        .map(|s| sample_games::backgammon(s, [Level::Expert, Level::Beginner], Duration::ZERO))
        .collect();
    let gomoku: Vec<GameRecord> = seeds
        .map(|s| sample_games::gomoku(s, [Level::Expert, Level::Intermediate], 50_000))
        .collect();
    let bg_times = time("backgammon", &bg, cli.nodes);
    let gomoku_times = time("gomoku", &gomoku, cli.nodes);
    summary("backgammon", bg_times);
    summary("gomoku", gomoku_times);
}
