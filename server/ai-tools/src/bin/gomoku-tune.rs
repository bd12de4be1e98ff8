//! `gomoku-tune`: fits the Gomoku evaluation to self-play (see
//! `tabula_ai::gomoku::tune`). It prints the linear model's weights fitted
//! to the results (the table for `eval::FITTED`), with the log-loss of the
//! old and new weights on positions held out of the fit; with
//! `--codes-out FILE` it also fits the Expert's pattern-code table, by
//! default to the self-play search's scores (`--target result`: to the
//! results), and writes it to FILE (the format of
//! `data/gomoku-codes-v1.txt`); with `--order-out FILE`, the Expert's move
//! ordering, fitted to the moves the self-play search chose
//! (`data/gomoku-order-v1.txt`, see `tabula_ai::gomoku::ordering`).
//!
//! `--save FILE` writes the positions played (one per line: the features,
//! the result, `s:` the search's winning chance, then `code:count`
//! pairs); `--load FILE` (repeatable) adds saved positions to the fit, so
//! rounds can be pooled. `--save-choices FILE` and `--load-choices FILE`
//! do the same for the choices (one per line: the index of the move
//! chosen, then each candidate's `attack:defence` codes). `--games 0`
//! only fits what was loaded.
//!
//! ```text
//! cargo run --release -p tabula-ai-tools --bin gomoku-tune -- --games 3000 --nodes 4000 --jobs 2 \
//!     --seed 6 --codes-out codes.txt
//! ```

use std::io::{BufRead, BufReader, Write};
use std::process::ExitCode;
use std::time::Instant;

use tabula_ai::gomoku::eval::NFEATURES;
use tabula_ai::gomoku::ordering::{self, Choice};
use tabula_ai::gomoku::pcode::N;
use tabula_ai::gomoku::tune::{
    Sample, Target, codes_prior, codes_table, current_weights, fit, fit_codes, log_loss,
    log_loss_codes, self_play,
};

const USAGE: &str = "usage: gomoku-tune [--games N] [--nodes N] [--jobs N] [--seed S] \
                     [--save FILE] [--load FILE]... \
                     [--codes-out FILE [--ridge R] [--target search|result]] \
                     [--save-choices FILE] [--load-choices FILE]... \
                     [--order-out FILE [--order-ridge R]]";

fn main() -> ExitCode {
    let (mut games, mut nodes, mut jobs, mut seed) = (1000usize, 4000u64, 2usize, 1u64);
    let (mut save, mut load, mut codes_out, mut ridge) = (None, Vec::new(), None, 3e-3f64);
    let mut target = Target::Search;
    let (mut save_choices, mut load_choices, mut order_out, mut order_ridge) =
        (None, Vec::new(), None, 1e-3f64);
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let Some(text) = it.next() else {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        };
        match flag.as_str() {
            "--save" => {
                save = Some(text);
                continue;
            }
            "--load" => {
                load.push(text);
                continue;
            }
            "--save-choices" => {
                save_choices = Some(text);
                continue;
            }
            "--load-choices" => {
                load_choices.push(text);
                continue;
            }
            "--order-out" => {
                order_out = Some(text);
                continue;
            }
            "--codes-out" => {
                codes_out = Some(text);
                continue;
            }
            "--target" => {
                target = match text.as_str() {
                    "search" => Target::Search,
                    "result" => Target::Result,
                    _ => {
                        eprintln!("{USAGE}");
                        return ExitCode::from(2);
                    }
                };
                continue;
            }
            "--ridge" | "--order-ridge" => {
                let Ok(r) = text.parse() else {
                    eprintln!("{USAGE}");
                    return ExitCode::from(2);
                };
                *(if flag == "--ridge" {
                    &mut ridge
                } else {
                    &mut order_ridge
                }) = r;
                continue;
            }
            _ => {}
        }
        let Ok(v) = text.parse::<u64>() else {
            eprintln!("{USAGE}");
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
    let (mut samples, mut choices): (Vec<Sample>, Vec<Choice>) = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| scope.spawn(move || self_play(per_job, nodes, seed * 1000 + j as u64)))
            .collect();
        let (mut samples, mut choices) = (Vec::new(), Vec::new());
        for h in handles {
            let (s, c) = h.join().expect("self-play thread");
            samples.extend(s);
            choices.extend(c);
        }
        (samples, choices)
    });
    println!(
        "{} games, {} quiet positions, {:.0} s",
        per_job * jobs,
        samples.len(),
        start.elapsed().as_secs_f64()
    );
    if let Some(path) = &save
        && let Err(e) = write_samples(path, &samples)
    {
        eprintln!("{path}: {e}");
        return ExitCode::FAILURE;
    }
    if let Some(path) = &save_choices
        && let Err(e) = write_choices(path, &choices)
    {
        eprintln!("{path}: {e}");
        return ExitCode::FAILURE;
    }
    for path in &load_choices {
        match read_choices(path) {
            Ok(more) => {
                println!("{path}: {} choices", more.len());
                choices.extend(more);
            }
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    if let Some(path) = &order_out {
        let held: Vec<Choice> = choices.iter().step_by(5).cloned().collect();
        let train: Vec<Choice> = choices
            .iter()
            .enumerate()
            .filter(|(i, _)| i % 5 != 0)
            .map(|(_, c)| c.clone())
            .collect();
        if train.is_empty() {
            eprintln!("no choices to fit the move ordering to");
            return ExitCode::FAILURE;
        }
        let prior = ordering::hand_set();
        let table = ordering::fit(&train, prior, order_ridge, 300);
        let (l0, f0, s0) = ordering::judge(&held, prior);
        let (l1, f1, _) = ordering::judge(&held, &table);
        println!(
            "ordering (ridge {order_ridge:e}, {} choices): held out, the hand-set table \
             {l0:.4} ({:.1}% first, {s0:.2e} logits a unit), fitted {l1:.4} ({:.1}% first)",
            train.len(),
            f0 * 100.0,
            f1 * 100.0
        );
        if let Err(e) = std::fs::write(path, tabula_ai::gomoku::pcode::format(&table)) {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
        println!("wrote {path}");
    }
    for path in &load {
        match read_samples(path) {
            Ok(more) => {
                println!("{path}: {} positions", more.len());
                samples.extend(more);
            }
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
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
    if let Some(path) = &codes_out {
        // Quiet positions have live codes (all dead only on a board
        // filled without a winner): none anywhere means a file saved
        // before the codes were recorded.
        if samples.iter().all(|s| s.codes.is_empty()) {
            eprintln!("no positions with code counts to fit the code table to");
            return ExitCode::FAILURE;
        }
        let prior = codes_prior(&current_weights());
        let w = fit_codes(&samples, &prior, ridge, 10, target);
        println!(
            "codes (ridge {ridge:e}, target {target:?}): held-out log-loss with the linear \
             weights {:.4}, fitted {:.4} (train {:.4})",
            log_loss_codes(&held, &prior, target),
            log_loss_codes(&held, &w, target),
            log_loss_codes(&samples, &w, target)
        );
        let table = codes_table(&w);
        if let Err(e) = std::fs::write(path, tabula_ai::gomoku::pcode::format(&table)) {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
        println!("wrote {path}");
    }
    ExitCode::SUCCESS
}

/// One position per line: the features, the result, the search's chance
/// (`s:`), then the code counts (`code:count`).
fn write_samples(path: &str, samples: &[Sample]) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    for s in samples {
        for x in s.features {
            write!(out, "{x} ")?;
        }
        write!(out, "{} s:{}", s.result, s.score)?;
        for (f, c) in &s.codes {
            write!(out, " {f}:{c}")?;
        }
        writeln!(out)?;
    }
    out.flush()
}

fn read_samples(path: &str) -> std::io::Result<Vec<Sample>> {
    let bad = |line: usize| std::io::Error::other(format!("line {line} is not a position"));
    let mut out = Vec::new();
    for (k, line) in BufReader::new(std::fs::File::open(path)?)
        .lines()
        .enumerate()
    {
        let line = line?;
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < NFEATURES + 1 {
            return Err(bad(k + 1));
        }
        let mut codes = Vec::new();
        let mut score = 0.5;
        for pair in &fields[NFEATURES + 1..] {
            if let Some(v) = pair.strip_prefix("s:") {
                score = v.parse().map_err(|_| bad(k + 1))?;
                continue;
            }
            let (f, c) = pair.split_once(':').ok_or_else(|| bad(k + 1))?;
            codes.push((
                f.parse().map_err(|_| bad(k + 1))?,
                c.parse().map_err(|_| bad(k + 1))?,
            ));
        }
        let mut features = [0u32; NFEATURES];
        for (f, text) in features.iter_mut().zip(&fields) {
            *f = text.parse().map_err(|_| bad(k + 1))?;
        }
        let result = fields[NFEATURES].parse().map_err(|_| bad(k + 1))?;
        out.push(Sample {
            features,
            codes,
            result,
            score,
        });
    }
    Ok(out)
}

/// One choice per line: the index chosen, then each candidate's two codes
/// (`attack:defence`).
fn write_choices(path: &str, choices: &[Choice]) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    for c in choices {
        write!(out, "{}", c.chosen)?;
        for [a, d] in &c.cands {
            write!(out, " {a}:{d}")?;
        }
        writeln!(out)?;
    }
    out.flush()
}

fn read_choices(path: &str) -> std::io::Result<Vec<Choice>> {
    let bad = |line: usize| std::io::Error::other(format!("line {line} is not a choice"));
    let mut out = Vec::new();
    for (k, line) in BufReader::new(std::fs::File::open(path)?)
        .lines()
        .enumerate()
    {
        let line = line?;
        let mut fields = line.split_whitespace();
        let chosen: usize = fields
            .next()
            .and_then(|f| f.parse().ok())
            .ok_or_else(|| bad(k + 1))?;
        let mut cands = Vec::new();
        for pair in fields {
            let (a, d) = pair.split_once(':').ok_or_else(|| bad(k + 1))?;
            let code = |t: &str| t.parse::<u16>().ok().filter(|&c| usize::from(c) < N);
            cands.push([
                code(a).ok_or_else(|| bad(k + 1))?,
                code(d).ok_or_else(|| bad(k + 1))?,
            ]);
        }
        if chosen >= cands.len() {
            return Err(bad(k + 1));
        }
        out.push(Choice { cands, chosen });
    }
    Ok(out)
}
