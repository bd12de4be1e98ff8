//! The Backgammon levels judged by GNU Backgammon: each level plays money
//! games (or `--length N` point matches) against itself (cube in use, its
//! own cube decisions), the games are exported as `.mat` and analysed by
//! gnubg (`analyse match`, its default 2-ply), and the tool prints each
//! level's error rate on its checker plays (mean equity lost per unforced
//! play, mp, with a 95% interval) and gnubg's marks, next to the rate our
//! own analysis gives; then gnubg's view of its cube decisions: the close
//! ones, the error per close decision (mp), missed and wrong doubles, wrong
//! takes and passes.
//!
//! `cargo run --release -p tabula-ai-tools --bin bg-ladder -- --games 20`
//! `cargo run --release -p tabula-ai-tools --bin bg-ladder -- --games 30 --length 3 --levels expert`

use std::time::{Duration, Instant};

use clap::Parser;
use tabula_ai::Level;
use tabula_ai::analysis::{self, GOMOKU_NODES};
use tabula_ai_tools::sample_games;
use tabula_shared::backgammon::MatchConfig;
use tabula_shared::protocol::{GameAnalysis, GameRecord};

// The ladder reads the losses and marks; the analysis test also reads the
// mover and the dice.
#[allow(dead_code)]
#[path = "../../tools/gnubg_judge.rs"]
mod gnubg_judge;

#[derive(Parser)]
#[command(about = "Backgammon levels' error rates, judged by gnubg")]
struct Cli {
    /// Games per level (each level plays both sides).
    #[arg(long, default_value_t = 20)]
    games: u64,
    /// First dice seed.
    #[arg(long, default_value_t = 1000)]
    seed: u64,
    /// The AIs' budget per decision, in milliseconds (the server's default
    /// is 1000; the Expert looks 1-ply ahead from 20, 2-ply from 250).
    #[arg(long, default_value_t = 1000)]
    budget_ms: u64,
    /// Levels to judge.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "beginner,casual,intermediate,advanced,expert"
    )]
    levels: Vec<String>,
    /// Match length in points (0: money games).
    #[arg(long, default_value_t = 0)]
    length: u32,
    /// Keep the exported matches in this directory.
    #[arg(long)]
    keep: Option<std::path::PathBuf>,
}

fn level(name: &str) -> Level {
    Level::from_name(name).unwrap_or_else(|| panic!("unknown level {name:?}"))
}

/// Mean and 95% half-width.
fn mean_ci(xs: &[f32]) -> (f64, f64) {
    let n = xs.len().max(1) as f64;
    let mean = xs.iter().map(|&x| f64::from(x)).sum::<f64>() / n;
    let var = xs
        .iter()
        .map(|&x| (f64::from(x) - mean).powi(2))
        .sum::<f64>()
        / (n - 1.0).max(1.0);
    (mean, 1.96 * (var / n).sqrt())
}

fn main() {
    let cli = Cli::parse();
    let dir = cli
        .keep
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join(format!("bg-ladder-{}", std::process::id())));
    std::fs::create_dir_all(&dir).expect("a working directory");
    println!(
        "| level | plays | gnubg error rate (mp) | doubtful | bad | very bad | ours (mp) \
         | close cube decisions | cube error rate (mp) | missed doubles | wrong doubles \
         | wrong takes | wrong passes |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for name in &cli.levels {
        let lv = level(name);
        let started = Instant::now();
        let records: Vec<GameRecord> = (cli.seed..cli.seed + cli.games)
            .map(|s| {
                let config = MatchConfig {
                    length: cli.length,
                    ..MatchConfig::default()
                };
                sample_games::backgammon_match(
                    s,
                    [lv, lv],
                    Duration::from_millis(cli.budget_ms),
                    config,
                )
            })
            .collect();
        let verdicts = gnubg_judge::judge(&records, &dir);
        let plays = || verdicts.iter().flat_map(|m| &m.games).flatten();
        let losses: Vec<f32> = plays()
            .filter(|j| j.choices >= 2)
            .filter_map(|j| j.loss_mp)
            .collect();
        let count = |skill: &str| {
            plays()
                .filter(|j| j.skill.as_deref() == Some(skill))
                .count()
        };
        let mut cube = gnubg_judge::CubeStats::default();
        for side in verdicts.iter().flat_map(|m| &m.cube) {
            cube.add(side);
        }
        let ours: Vec<f32> = records
            .iter()
            .filter_map(
                |r| match analysis::analyse(r, GOMOKU_NODES, &mut |_, _| {}) {
                    Ok(GameAnalysis::Backgammon(a)) => Some(a),
                    _ => None,
                },
            )
            .flat_map(|a| a.players)
            .map(|p| p.error_rate_mp)
            .collect();
        let (mean, half) = mean_ci(&losses);
        let (our_mean, _) = mean_ci(&ours);
        println!(
            "| {name} | {} | {mean:.1} ± {half:.1} | {} | {} | {} | {our_mean:.1} | {} | {:.1} | {} | {} | {} | {} |",
            losses.len(),
            count("doubtful"),
            count("bad"),
            count("very bad"),
            cube.close,
            1000.0 * cube.error / cube.close.max(1) as f32,
            cube.missed_doubles,
            cube.wrong_doubles,
            cube.wrong_takes,
            cube.wrong_drops,
        );
        eprintln!("{name}: {:.0} s", started.elapsed().as_secs_f64());
    }
    if cli.keep.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
