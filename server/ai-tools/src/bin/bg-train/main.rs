//! Trainers for the Backgammon AI.
//!
//! * `bg-train td --checkpoint CKPT --best BEST [--resume] ...`: TD(λ)
//!   self-play for the Expert network, seeded and resumable; prints games,
//!   games/s and a periodic duplicate benchmark vs pubeval.
//! * `bg-train distill --data DATA --out OUT --positions N --ply 2 ...`:
//!   supervised training of the Expert network on its own 1-ply or 2-ply
//!   look-ahead (labels appended to DATA as they are made, so a run resumes).
//! * `bg-train heuristic --seed S --games 3000 --iters N`: the seed article's
//!   trainer for the Beginner heuristic's constants.

mod adam;
mod distill;
mod heuristic;
mod td;

use std::path::PathBuf;
use std::time::Instant;

use clap::{Parser, Subcommand};
use tabula_ai::backgammon::expert::Expert;
use tabula_ai::backgammon::nn::Network;
use tabula_ai::backgammon::play::{Pubeval, duplicate_match};
use tabula_ai::rng::mix_seed;

use crate::td::{NetChooser, TdTrainer};

#[derive(Parser)]
#[command(about = "Tabula backgammon trainers")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// TD(λ) self-play training of the Expert network.
    Td {
        /// Checkpoint written every `--every` games (atomically).
        #[arg(long, default_value = "bg-td.ckpt")]
        checkpoint: PathBuf,
        /// Best network so far (by the benchmark vs pubeval).
        #[arg(long, default_value = "bg-td-best.bin")]
        best: PathBuf,
        /// Resume from the checkpoint if it exists.
        #[arg(long)]
        resume: bool,
        /// Seed (game g uses mix(seed, g), so a resume continues the same stream).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Hidden units (fresh networks only).
        #[arg(long, default_value_t = 80)]
        hidden: usize,
        /// Start from these weights instead of a random network (when not
        /// resuming), widened to `--hidden` units and every input.
        #[arg(long)]
        start: Option<PathBuf>,
        /// Learning rate.
        #[arg(long, default_value_t = 0.1)]
        alpha: f32,
        /// Trace decay λ.
        #[arg(long, default_value_t = 0.7)]
        lambda: f32,
        /// Open each game with up to this many random plies, not learned
        /// from (0: every game from the starting position).
        #[arg(long, default_value_t = 0)]
        explore_plies: u32,
        /// Stop after this many games in total.
        #[arg(long, default_value_t = 1_000_000)]
        games: u64,
        /// Stop after this many seconds.
        #[arg(long, default_value_t = 3600)]
        seconds: u64,
        /// Checkpoint and benchmark every this many games.
        #[arg(long, default_value_t = 10_000)]
        every: u64,
        /// Benchmark dice pairs vs pubeval (games = 2 x pairs).
        #[arg(long, default_value_t = 250)]
        bench_pairs: u64,
    },
    /// Supervised training on the teacher's look-ahead.
    Distill {
        /// Teacher weights (default: the embedded Expert network).
        #[arg(long)]
        teacher: Option<PathBuf>,
        /// Labelled samples, appended as they are made and reused.
        #[arg(long, default_value = "bg-distill.txt")]
        data: PathBuf,
        /// The trained student.
        #[arg(long, default_value = "bg-distill.bin")]
        out: PathBuf,
        /// Self-play positions to label.
        #[arg(long, default_value_t = 100_000)]
        positions: usize,
        /// Look-ahead of the labels (1 or 2).
        #[arg(long, default_value_t = 2)]
        ply: u8,
        /// Label by rollouts instead: this many games for every 36 first
        /// rolls (0: use `--ply`).
        #[arg(long, default_value_t = 0)]
        rollouts: u32,
        /// Labelling threads.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Hidden units of the student (at least the teacher's).
        #[arg(long, default_value_t = 128)]
        hidden: usize,
        /// Passes over the training samples.
        #[arg(long, default_value_t = 20)]
        epochs: usize,
        /// Starting learning rate.
        #[arg(long, default_value_t = 0.02)]
        alpha: f32,
        /// Fit with Adam in minibatches on the cross-entropy of each
        /// output (`--alpha` is then Adam's rate, 0.001 a usual start)
        /// instead of one squared-error step per sample.
        #[arg(long)]
        adam: bool,
        /// Samples per Adam batch.
        #[arg(long, default_value_t = 64)]
        batch: usize,
        /// Start the student from random weights instead of the teacher's.
        #[arg(long)]
        fresh: bool,
        /// Seed of the self-play, the new units and the shuffles.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// The seed article's hill-climbing trainer for the heuristic constants.
    Heuristic {
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games per trial (played as duplicate pairs).
        #[arg(long, default_value_t = 3000)]
        games: u64,
        /// Number of trials.
        #[arg(long, default_value_t = 40)]
        iters: u64,
    },
}

fn main() {
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::Td {
            checkpoint,
            best,
            resume,
            seed,
            hidden,
            start,
            alpha,
            lambda,
            explore_plies,
            games,
            seconds,
            every,
            bench_pairs,
        } => td(TdArgs {
            checkpoint,
            best,
            resume,
            seed,
            hidden,
            start,
            alpha,
            lambda,
            explore_plies,
            games,
            seconds,
            every: every.max(1),
            bench_pairs,
        }),
        Cmd::Heuristic { seed, games, iters } => heuristic(seed, games, iters),
        Cmd::Distill {
            teacher,
            data,
            out,
            positions,
            ply,
            rollouts,
            threads,
            hidden,
            epochs,
            alpha,
            adam,
            batch,
            fresh,
            seed,
        } => distill(DistillArgs {
            teacher,
            data,
            out,
            positions,
            labels: if rollouts > 0 {
                distill::Labels::Rollout {
                    per36: rollouts,
                    seed,
                }
            } else {
                distill::Labels::Ply(ply.clamp(1, 2))
            },
            threads: threads.max(1),
            hidden,
            epochs,
            alpha,
            adam: adam.then_some(batch),
            fresh,
            seed,
        }),
    }
}

struct DistillArgs {
    teacher: Option<PathBuf>,
    data: PathBuf,
    out: PathBuf,
    positions: usize,
    labels: distill::Labels,
    threads: usize,
    hidden: usize,
    epochs: usize,
    alpha: f32,
    /// Adam's batch size, or none for plain gradient steps.
    adam: Option<usize>,
    fresh: bool,
    seed: u64,
}

fn distill(a: DistillArgs) {
    let fail = |what: String| -> ! {
        eprintln!("error: {what}");
        std::process::exit(1);
    };
    let loaded;
    let teacher_net: &Network = match &a.teacher {
        Some(p) => {
            loaded = Network::load(p).unwrap_or_else(|e| fail(e.to_string()));
            &loaded
        }
        None => tabula_ai::backgammon::expert_network().unwrap_or_else(|e| fail(e.to_string())),
    };
    let teacher = Expert::new(teacher_net);
    let start = Instant::now();
    let positions = distill::positions(&teacher, a.positions, a.seed);
    eprintln!(
        "{} self-play positions ({:.0} s)",
        positions.len(),
        start.elapsed().as_secs_f64()
    );
    let samples = distill::label_all(&teacher, &positions, a.labels, a.threads, &a.data)
        .unwrap_or_else(|e| fail(format!("{}: {e}", a.data.display())));
    let encoded: Vec<_> = samples
        .iter()
        .map(|(p, v)| (tabula_ai::backgammon::nn::encode(p), *v))
        .collect();
    // Every twentieth sample is held out to choose the epoch.
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for (i, s) in encoded.into_iter().enumerate() {
        if i % 20 == 19 {
            valid.push(s);
        } else {
            train.push(s);
        }
    }
    let student = if a.fresh {
        Network::random(a.hidden, a.seed)
    } else {
        teacher_net.widened(a.hidden, a.seed)
    };
    let mut report = |epoch, t: distill::Fit, v: distill::Fit| {
        println!(
            "epoch {epoch}: equity MSE train {:.5} valid {:.5} | outputs train {:.5} valid {:.5} ({:.0} s)",
            t.equity,
            v.equity,
            t.outputs,
            v.outputs,
            start.elapsed().as_secs_f64()
        );
    };
    let net = match a.adam {
        Some(batch) => {
            let schedule = adam::Schedule {
                epochs: a.epochs,
                rate: a.alpha,
                batch,
                seed: a.seed,
            };
            adam::train(student, &train, &valid, schedule, &mut report)
        }
        None => distill::train(
            student,
            &train,
            &valid,
            a.epochs,
            a.alpha,
            a.seed,
            &mut report,
        ),
    };
    if let Err(e) = net.save(&a.out) {
        fail(format!("{}: {e}", a.out.display()));
    }
    println!("saved {} ({} hidden units)", a.out.display(), net.hidden());
}

struct TdArgs {
    checkpoint: PathBuf,
    best: PathBuf,
    resume: bool,
    seed: u64,
    hidden: usize,
    start: Option<PathBuf>,
    alpha: f32,
    lambda: f32,
    explore_plies: u32,
    games: u64,
    seconds: u64,
    every: u64,
    bench_pairs: u64,
}

fn td(a: TdArgs) {
    let mut net = if a.resume && a.checkpoint.exists() {
        match Network::load(&a.checkpoint) {
            Ok(n) => {
                eprintln!("resumed {} at {} games", a.checkpoint.display(), n.games);
                n
            }
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        }
    } else if let Some(start) = &a.start {
        match Network::load(start) {
            Ok(n) => n.widened(a.hidden, a.seed),
            Err(e) => {
                eprintln!("error: {}: {e}", start.display());
                std::process::exit(1);
            }
        }
    } else {
        Network::random(a.hidden, a.seed)
    };
    let mut best_ppg = f64::NEG_INFINITY;
    if a.best.exists()
        && let Ok(b) = Network::load(&a.best)
    {
        let s = duplicate_match(&mut NetChooser(&b), &mut Pubeval, a.bench_pairs, 777);
        best_ppg = s.ppg;
        eprintln!(
            "existing best {}: {:+.3} ppg vs pubeval",
            a.best.display(),
            s.ppg
        );
    }
    let mut tr = TdTrainer::new(&net, a.alpha, a.lambda);
    tr.explore_plies = a.explore_plies;
    let start = Instant::now();
    let mut last = Instant::now();
    let mut last_games = net.games;
    let mut plies = 0u64;
    while net.games < a.games && start.elapsed().as_secs() < a.seconds {
        let game_seed = mix_seed(a.seed, net.games);
        plies += u64::from(tr.self_play_game(&mut net, game_seed));
        if net.games % a.every == 0 {
            let dt = last.elapsed().as_secs_f64();
            let gps = (net.games - last_games) as f64 / dt.max(1e-9);
            if let Err(e) = net.save(&a.checkpoint) {
                eprintln!("error: cannot write checkpoint: {e}");
                std::process::exit(1);
            }
            let s = duplicate_match(&mut NetChooser(&net), &mut Pubeval, a.bench_pairs, 777);
            let mark = if s.ppg > best_ppg {
                best_ppg = s.ppg;
                if let Err(e) = net.save(&a.best) {
                    eprintln!("error: cannot write best: {e}");
                }
                " *best*"
            } else {
                ""
            };
            println!(
                "games {} | {:.0} games/s | {:.1} plies/game | elapsed {:.0}s | vs pubeval {:+.3} ± {:.3} ppg ({} games, win {:.1}%){}",
                net.games,
                gps,
                plies as f64 / (net.games - last_games).max(1) as f64,
                start.elapsed().as_secs_f64(),
                s.ppg,
                s.ci95,
                s.games,
                100.0 * s.win_rate,
                mark
            );
            plies = 0;
            last = Instant::now();
            last_games = net.games;
        }
    }
    if let Err(e) = net.save(&a.checkpoint) {
        eprintln!("error: cannot write checkpoint: {e}");
        std::process::exit(1);
    }
    println!(
        "stopped at {} games after {:.0}s",
        net.games,
        start.elapsed().as_secs_f64()
    );
}

fn heuristic(seed: u64, games: u64, iters: u64) {
    let start = Instant::now();
    let k = heuristic::train(seed, games, iters, &mut |line| {
        println!("[{:.0}s] {line}", start.elapsed().as_secs_f64());
    });
    println!("final: {k:?}");
}
