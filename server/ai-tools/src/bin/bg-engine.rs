//! Backgammon engine for the `ext:` protocol of bgharness, the benchmark
//! harness that plays engines against GNU Backgammon: reads
//! `move <POSID> <D1> <D2>` lines and answers the gnubg Position ID after the
//! chosen play (mover's side, not switched); exits on EOF.
//!
//! `bg-engine --level beginner|intermediate|expert [--budget-ms 1000]
//! [--weights FILE]` (default weights: the ones compiled into the server;
//! other weights are played by the Expert only, at 0-ply with
//! `--budget-ms 0`).

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use tabula_ai::Level;
use tabula_ai::backgammon::{self, expert::Expert, nn::Network};
use tabula_shared::backgammon::{Dice, Position};

#[derive(Clone, Copy, ValueEnum)]
enum Lvl {
    Beginner,
    Casual,
    Intermediate,
    Advanced,
    Expert,
}

#[derive(Parser)]
#[command(about = "Tabula backgammon engine (bgharness ext: protocol)")]
struct Cli {
    /// Strength.
    #[arg(long, value_enum, default_value = "expert")]
    level: Lvl,
    /// Time budget per move in milliseconds (Expert: 1-ply from 20 ms,
    /// 2-ply from 250 ms).
    #[arg(long, default_value_t = 1000)]
    budget_ms: u64,
    /// Expert weights file instead of the compiled-in ones.
    #[arg(long)]
    weights: Option<PathBuf>,
}

fn main() {
    let cli = Cli::parse();
    let budget = Duration::from_millis(cli.budget_ms);
    let net = match &cli.weights {
        Some(p) => match Network::load(p) {
            Ok(n) => Some(n),
            Err(e) => {
                eprintln!("bg-engine: {e}");
                std::process::exit(2);
            }
        },
        None => None,
    };
    if net.is_none()
        && let Err(e) = backgammon::expert_network()
    {
        eprintln!("bg-engine: embedded weights: {e}");
        std::process::exit(2);
    }
    let level = match cli.level {
        Lvl::Beginner => Level::Beginner,
        Lvl::Casual => Level::Casual,
        Lvl::Intermediate => Level::Intermediate,
        Lvl::Advanced => Level::Advanced,
        Lvl::Expert => Level::Expert,
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for (request, line) in stdin.lock().lines().enumerate() {
        let Ok(line) = line else { break };
        let f: Vec<&str> = line.split_whitespace().collect();
        let parsed = match f.as_slice() {
            ["move", id, a, b] => Position::from_position_id(id).ok().zip(
                a.parse::<u8>()
                    .ok()
                    .zip(b.parse::<u8>().ok())
                    .and_then(|(a, b)| Dice::new(a, b).ok()),
            ),
            _ => None,
        };
        let Some((pos, dice)) = parsed else {
            eprintln!("bg-engine: cannot parse request: {line}");
            let _ = writeln!(out, "error");
            let _ = out.flush();
            continue;
        };
        let cands = pos.legal_positions(dice);
        let chosen = match &net {
            Some(n) if matches!(level, Level::Expert) => {
                (!cands.is_empty()).then(|| cands[Expert::new(n).best(&cands, budget)])
            }
            _ => backgammon::choose_index(level, &pos, dice, &cands, budget, request as u64)
                .map(|i| cands[i]),
        };
        let answer = chosen.unwrap_or(pos);
        let _ = writeln!(out, "{}", answer.position_id());
        let _ = out.flush();
    }
}
