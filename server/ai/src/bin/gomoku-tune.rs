//! `gomoku-tune`: fits the Gomoku evaluation's weights to self-play
//! results (see `tabula_ai::gomoku::tune`) and prints the table for
//! `eval::FITTED`, with the log-loss of the old and new weights on
//! positions held out of the fit.
//!
//! ```text
//! cargo run --release -p tabula-ai --bin gomoku-tune -- --games 2000 --nodes 4000 --jobs 2
//! ```

use std::process::ExitCode;
use std::time::Instant;

use tabula_ai::gomoku::tune::{Sample, current_weights, fit, log_loss, self_play};

fn main() -> ExitCode {
    let (mut games, mut nodes, mut jobs, mut seed) = (1000usize, 4000u64, 2usize, 1u64);
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().and_then(|v| v.parse::<u64>().ok());
        let Some(v) = value else {
            eprintln!("usage: gomoku-tune [--games N] [--nodes N] [--jobs N] [--seed S]");
            return ExitCode::from(2);
        };
        match flag.as_str() {
            "--games" => games = v as usize,
            "--nodes" => nodes = v,
            "--jobs" => jobs = v.max(1) as usize,
            "--seed" => seed = v,
            other => {
                eprintln!("unknown flag {other}");
                return ExitCode::from(2);
            }
        }
    }
    let start = Instant::now();
    let per_job = games.div_ceil(jobs);
    let mut samples: Vec<Sample> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| scope.spawn(move || self_play(per_job, nodes, seed * 1000 + j as u64)))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("self-play thread"))
            .collect()
    });
    println!(
        "{} games, {} quiet positions, {:.0} s",
        per_job * jobs,
        samples.len(),
        start.elapsed().as_secs_f64()
    );
    // Every fifth position is held out to check the fit.
    let held: Vec<Sample> = samples
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 5 == 0)
        .map(|(_, s)| s.clone())
        .collect();
    let mut k = 0;
    samples.retain(|_| {
        k += 1;
        (k - 1) % 5 != 0
    });
    let weights = fit(&samples);
    println!(
        "held-out log-loss: current weights {:.4}, fitted {:.4}",
        log_loss(&held, &current_weights()),
        log_loss(&held, &weights)
    );
    println!("{weights:?}");
    ExitCode::SUCCESS
}
