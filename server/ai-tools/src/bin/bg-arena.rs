//! Arena: cubeless money games between two players with mirrored dice
//! (each dice stream is played twice, seats swapped); reports the first
//! player's points per game with a 95% confidence interval.
//!
//! `bg-arena --a expert --b pubeval --games 2000 --seed 1`
//! `bg-arena --speed 500` times the Expert's decisions.
//! Players: the levels `beginner`, `casual`, `intermediate`, `advanced`
//! (0-ply, also `expert0`) and `expert` (with `--budget-ms`, 1-ply from
//! 20 ms, 2-ply from 250 ms); `heuristic` and `heuristic1ply` (the seed article's evaluator,
//! the first version's Beginner and Intermediate); `pubeval`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Parser;
use tabula_ai::Level;
use tabula_ai::backgammon::expert::{Expert, ExpertChooser, NoisyChooser};
use tabula_ai::backgammon::heuristic::{HeuristicChooser, TUNED};
use tabula_ai::backgammon::nn::Network;
use tabula_ai::backgammon::play::{Chooser, Pubeval, duplicate_match};
use tabula_ai::backgammon::{self};
use tabula_ai::rng::Rng;
use tabula_shared::backgammon::Position;

#[derive(Parser)]
#[command(about = "Tabula backgammon arena (cubeless money, duplicate dice)")]
struct Cli {
    /// First player.
    #[arg(long, default_value = "expert")]
    a: String,
    /// Second player.
    #[arg(long, default_value = "pubeval")]
    b: String,
    /// Games (rounded up to an even number).
    #[arg(long, default_value_t = 2000)]
    games: u64,
    /// Dice seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Expert budget per move in milliseconds.
    #[arg(long, default_value_t = 1000)]
    budget_ms: u64,
    /// Expert weights file instead of the compiled-in ones (applies to both sides).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Instead of a match: time the Expert's decisions on this many random
    /// positions (0-ply, and with `--budget-ms`).
    #[arg(long)]
    speed: Option<usize>,
}

/// Times the Expert's move choice on `n` random positions.
fn speed(net: &Network, n: usize, budget: Duration) {
    let mut rng = Rng::new(42);
    let mut pos = Position::START;
    let mut samples = Vec::new();
    while samples.len() < n {
        let dice = rng.dice();
        let c = pos.legal_positions(dice);
        if c.len() > 1 {
            samples.push((pos, dice));
        }
        let next = c[rng.below(c.len() as u64) as usize];
        pos = if next.game_result().is_some() {
            Position::START
        } else {
            next.switch_sides()
        };
    }
    let x = Expert::new(net);
    // Build the bear-off database outside the timings.
    let t = Instant::now();
    let _ = tabula_ai::backgammon::bearoff::BearoffDb::global();
    println!(
        "bear-off database built in {:.0} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    for (label, b) in [("0-ply", Duration::ZERO), ("full", budget)] {
        let mut total = 0f64;
        let mut worst = 0f64;
        for (p, d) in &samples {
            let t = Instant::now();
            let c = p.legal_positions(*d);
            let _ = x.best(&c, b);
            let ms = t.elapsed().as_secs_f64() * 1e3;
            total += ms;
            worst = worst.max(ms);
        }
        println!(
            "Expert {label} (budget {} ms): mean {:.3} ms, max {:.3} ms over {} positions",
            b.as_millis(),
            total / samples.len() as f64,
            worst,
            samples.len()
        );
    }
}

fn main() {
    let cli = Cli::parse();
    let net: &'static Network = match &cli.weights {
        Some(p) => match Network::load(p) {
            Ok(n) => Box::leak(Box::new(n)),
            Err(e) => {
                eprintln!("bg-arena: {e}");
                std::process::exit(2);
            }
        },
        None => match backgammon::expert_network() {
            Ok(n) => n,
            Err(e) => {
                eprintln!("bg-arena: embedded weights: {e}");
                std::process::exit(2);
            }
        },
    };
    let budget = Duration::from_millis(cli.budget_ms);
    if let Some(n) = cli.speed {
        speed(net, n.max(1), budget);
        return;
    }
    let make = |name: &str| -> Box<dyn Chooser> {
        match name {
            "heuristic" => Box::new(HeuristicChooser {
                params: TUNED,
                one_ply: false,
            }),
            "heuristic1ply" => Box::new(HeuristicChooser {
                params: TUNED,
                one_ply: true,
            }),
            "beginner" | "casual" | "intermediate" => Box::new(NoisyChooser {
                expert: Expert::new(net),
                noise: backgammon::level_noise(Level::from_name(name).expect("a level")),
                seed: cli.seed ^ name.len() as u64,
            }),
            "expert" => Box::new(ExpertChooser {
                expert: Expert::new(net),
                budget,
            }),
            "advanced" | "expert0" => Box::new(ExpertChooser {
                expert: Expert::new(net),
                budget: Duration::ZERO,
            }),
            "pubeval" => Box::new(Pubeval),
            other => {
                eprintln!("bg-arena: unknown player {other}");
                std::process::exit(2);
            }
        }
    };
    let mut a = make(&cli.a);
    let mut b = make(&cli.b);
    let start = Instant::now();
    let s = duplicate_match(a.as_mut(), b.as_mut(), cli.games.div_ceil(2), cli.seed);
    println!(
        "{} vs {}: {:+.3} ± {:.3} ppg over {} games (duplicate dice, seed {}), {} wins {:.1}%, {:.1}s",
        cli.a,
        cli.b,
        s.ppg,
        s.ci95,
        s.games,
        cli.seed,
        cli.a,
        100.0 * s.win_rate,
        start.elapsed().as_secs_f64()
    );
}
