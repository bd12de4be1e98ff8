//! Supervised training of the Expert's network on its own look-ahead: the
//! teacher (a network with the Expert's bear-off database) plays itself to
//! collect positions, labels each with its 1-ply or 2-ply value or with the
//! mean result of a rollout (whole games played on from the position by
//! the teacher at 0-ply), and a student (the teacher widened, or itself) is
//! fitted to those values. The look-ahead and the rollouts know more than
//! the network alone, so the student learns what they know; labelled on its
//! own self-play, it never sees the positions it is judged on elsewhere.

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::time::Instant;

use tabula_ai::backgammon::bearoff;
use tabula_ai::backgammon::expert::Expert;
use tabula_ai::backgammon::nn::{self, Inputs, N_OUT, Network, Probs};
use tabula_ai::rng::{Rng, mix_seed};
use tabula_shared::backgammon::{Dice, Position};

/// Chance that a self-play move is one of the next best few instead of the
/// best, so the positions cover more than the teacher's own lines.
const EXPLORE: f64 = 0.15;
/// How many of the best plays an exploring move chooses among.
const EXPLORE_AMONG: u64 = 4;

/// Positions on roll from the teacher's self-play at 0-ply, without
/// repeats, leaving out those the bear-off database values (both sides
/// home) and finished games. Reproducible for `seed`.
pub fn positions(teacher: &Expert, count: usize, seed: u64) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(count);
    let mut cands = Vec::with_capacity(64);
    let mut game = 0u64;
    while out.len() < count {
        let mut rng = Rng::new(mix_seed(seed, game));
        game += 1;
        let mut pos = Position::START;
        for ply in 0..2000 {
            if bearoff::homes(&pos).is_none() && seen.insert(pos) {
                out.push(pos);
                if out.len() == count {
                    break;
                }
            }
            let dice = if ply == 0 {
                rng.opening_dice()
            } else {
                rng.dice()
            };
            pos.legal_positions_into(dice, false, &mut cands);
            let after = if cands.is_empty() {
                pos
            } else {
                let mut ranked: Vec<(f32, Position)> = cands
                    .iter()
                    .map(|c| (nn::equity(&teacher.value_after(c)), *c))
                    .collect();
                ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
                let k = if rng.unit() < EXPLORE {
                    rng.below(EXPLORE_AMONG.min(ranked.len() as u64)) as usize
                } else {
                    0
                };
                ranked[k].1
            };
            if nn::terminal(&after).is_some() {
                break;
            }
            pos = after.switch_sides();
        }
    }
    out
}

/// The teacher's value of `pos` for its side on roll, before the roll,
/// looked ahead `ply` (1 or 2) plies: over the 21 rolls, the best 0-ply play
/// valued at `ply - 1` (a roll with no play leaves the position as it is).
pub fn label(teacher: &Expert, pos: &Position, ply: u8, bufs: &mut [Vec<Position>; 2]) -> Probs {
    let [plays, deeper] = bufs;
    let mut acc = [0f32; N_OUT];
    for (dice, w) in Dice::ALL_21 {
        pos.legal_positions_into(dice, false, plays);
        let after = teacher.best_0ply_play(plays).unwrap_or(*pos);
        let v = if ply >= 2 {
            teacher.value_after_1ply(&after, deeper)
        } else {
            teacher.value_after(&after)
        };
        for k in 0..N_OUT {
            acc[k] += f32::from(w) * v[k];
        }
    }
    nn::sanitize(&acc.map(|a| a / 36.0))
}

/// How a position is labelled.
#[derive(Clone, Copy, Debug)]
pub enum Labels {
    /// The teacher's 1-ply or 2-ply value ([`label`]).
    Ply(u8),
    /// A rollout of this many games for every 36 first rolls ([`rollout`]),
    /// its dice from this seed and the position's index.
    Rollout { per36: u32, seed: u64 },
}

/// The mean result for the side on roll of `pos`, before its roll, of
/// `36 * per36` games played on by the teacher at 0-ply for both sides. The
/// first roll is stratified (each of the 21 rolls exactly as often as its
/// chance says), the later dice come from `seed`. A game is scored at its
/// end, or as soon as both sides are home, where the bear-off database
/// values it.
pub fn rollout(
    teacher: &Expert,
    pos: &Position,
    per36: u32,
    seed: u64,
    buf: &mut Vec<Position>,
) -> Probs {
    let mut rng = Rng::new(seed);
    let mut acc = [0f64; N_OUT];
    let mut games = 0u32;
    for (first, weight) in Dice::ALL_21 {
        for _ in 0..u32::from(weight) * per36 {
            let v = rollout_game(teacher, pos, first, &mut rng, buf);
            for k in 0..N_OUT {
                acc[k] += f64::from(v[k]);
            }
            games += 1;
        }
    }
    nn::sanitize(&acc.map(|a| (a / f64::from(games.max(1))) as f32))
}

/// Plies after which a rollout game is scored by the teacher's value
/// instead of being played on (real games are far shorter).
const ROLLOUT_MAX_PLIES: u32 = 5000;

/// One rollout game from `pos` with `first` as its first roll: the result
/// for the side on roll of `pos`.
fn rollout_game(
    teacher: &Expert,
    pos: &Position,
    first: Dice,
    rng: &mut Rng,
    buf: &mut Vec<Position>,
) -> Probs {
    let mut cur = *pos;
    let mut ours = true;
    let mut dice = first;
    for _ in 0..ROLLOUT_MAX_PLIES {
        cur.legal_positions_into(dice, false, buf);
        let after = teacher.best_0ply_play(buf).unwrap_or(cur);
        let end = nn::terminal(&after)
            .or_else(|| bearoff::homes(&after).map(|_| teacher.value_after(&after)));
        if let Some(v) = end {
            return if ours { v } else { nn::flip(&v) };
        }
        cur = after.switch_sides();
        ours = !ours;
        dice = rng.dice();
    }
    let v = teacher.probs_before_roll(&cur);
    if ours { v } else { nn::flip(&v) }
}

/// Labels `positions` on `threads` threads, appending `POSID p0 .. p4`
/// lines to `data` in blocks; the lines already there are kept, so an
/// interrupted run resumes where it stopped. Returns every labelled sample.
pub fn label_all(
    teacher: &Expert,
    positions: &[Position],
    labels: Labels,
    threads: usize,
    data: &Path,
) -> std::io::Result<Vec<(Position, Probs)>> {
    let mut done = read_samples(data)?;
    let mut file = OpenOptions::new().create(true).append(true).open(data)?;
    let start = Instant::now();
    const BLOCK: usize = 2000;
    while done.len() < positions.len() {
        let from = done.len();
        let block = &positions[from..(from + BLOCK).min(positions.len())];
        let per = block.len().div_ceil(threads.max(1));
        let labelled: Vec<(Position, Probs)> = std::thread::scope(|s| {
            let handles: Vec<_> = block
                .chunks(per)
                .enumerate()
                .map(|(c, chunk)| {
                    s.spawn(move || {
                        let mut bufs = [Vec::with_capacity(64), Vec::with_capacity(64)];
                        chunk
                            .iter()
                            .enumerate()
                            .map(|(i, p)| {
                                let v = match labels {
                                    Labels::Ply(ply) => label(teacher, p, ply, &mut bufs),
                                    Labels::Rollout { per36, seed } => {
                                        let index = (from + c * per + i) as u64;
                                        rollout(
                                            teacher,
                                            p,
                                            per36,
                                            mix_seed(seed, index),
                                            &mut bufs[0],
                                        )
                                    }
                                };
                                (*p, v)
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("labelling thread"))
                .collect()
        });
        for (p, v) in &labelled {
            writeln!(
                file,
                "{} {} {} {} {} {}",
                p.position_id(),
                v[0],
                v[1],
                v[2],
                v[3],
                v[4]
            )?;
        }
        file.flush()?;
        done.extend(labelled);
        eprintln!(
            "labelled {}/{} ({labels:?}, {:.0} s)",
            done.len(),
            positions.len(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(done)
}

/// Samples from a data file (none if it does not exist).
pub fn read_samples(data: &Path) -> std::io::Result<Vec<(Position, Probs)>> {
    if !data.exists() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for line in BufReader::new(std::fs::File::open(data)?).lines() {
        let line = line?;
        let f: Vec<&str> = line.split_whitespace().collect();
        let bad = || std::io::Error::other(format!("bad sample line: {line}"));
        if f.len() != 1 + N_OUT {
            return Err(bad());
        }
        let pos = Position::from_position_id(f[0]).map_err(|_| bad())?;
        let mut v = [0f32; N_OUT];
        for k in 0..N_OUT {
            v[k] = f[1 + k].parse().map_err(|_| bad())?;
        }
        out.push((pos, v));
    }
    Ok(out)
}

/// Mean squared error of the outputs and of the cubeless equity.
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    /// Per output, averaged over the outputs.
    pub outputs: f64,
    /// Of the equity.
    pub equity: f64,
}

/// How well `net` fits `samples`.
pub fn fit(net: &Network, samples: &[(Inputs, Probs)]) -> Fit {
    let (mut so, mut se) = (0f64, 0f64);
    for (inp, t) in samples {
        let out = nn::sanitize(&net.forward(inp).out);
        for k in 0..N_OUT {
            so += f64::from(out[k] - t[k]).powi(2);
        }
        se += f64::from(nn::equity(&out) - nn::equity(t)).powi(2);
    }
    let n = samples.len().max(1) as f64;
    Fit {
        outputs: so / (n * N_OUT as f64),
        equity: se / n,
    }
}

/// Runs `epochs` passes of `pass` over `train`, each given the samples'
/// indices in a new shuffled order (from `seed`). After each epoch the fit
/// on `valid` is reported, and the network that fits it best is returned.
pub fn run_epochs(
    mut net: Network,
    train: &[(Inputs, Probs)],
    valid: &[(Inputs, Probs)],
    epochs: usize,
    seed: u64,
    report: &mut dyn FnMut(usize, Fit, Fit),
    pass: &mut dyn FnMut(&mut Network, &[usize]),
) -> Network {
    let mut rng = Rng::new(seed);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut best = (fit(&net, valid), net.clone());
    report(0, fit(&net, train), best.0);
    for epoch in 1..=epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        pass(&mut net, &order);
        let v = fit(&net, valid);
        report(epoch, fit(&net, train), v);
        if v.equity < best.0.equity {
            best = (v, net.clone());
        }
    }
    best.1
}

/// Stochastic gradient descent on `train` for `epochs` passes in a shuffled
/// order (from `seed`), the learning rate falling linearly from `alpha` to
/// a tenth of it. After each epoch the fit on `valid` is reported, and the
/// network that fits it best is returned.
pub fn train(
    net: Network,
    train: &[(Inputs, Probs)],
    valid: &[(Inputs, Probs)],
    epochs: usize,
    alpha: f32,
    seed: u64,
    report: &mut dyn FnMut(usize, Fit, Fit),
) -> Network {
    let steps = (epochs * train.len()).max(1) as f32;
    let mut step = 0usize;
    let mut pass = |net: &mut Network, order: &[usize]| {
        for &i in order {
            let (inp, target) = &train[i];
            let act = net.forward(inp);
            let mut err = [0f32; N_OUT];
            for k in 0..N_OUT {
                err[k] = target[k] - act.out[k];
            }
            let rate = alpha * (1.0 - 0.9 * step as f32 / steps);
            net.step(inp, &act, &err, rate);
            step += 1;
        }
    };
    run_epochs(net, train, valid, epochs, seed, report, &mut pass)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rollout_scores_the_games_it_plays() {
        let teacher =
            Expert::new(tabula_ai::backgammon::expert_network().expect("embedded weights"));
        let mut buf = Vec::new();
        // Our last checker comes off on any roll while the opponent has all
        // fifteen on its midpoint: a gammon, never a backgammon.
        let won = Position::from_points(&[(1, 1)], &[(12, 15)]).unwrap();
        assert_eq!(
            rollout(&teacher, &won, 1, 5, &mut buf),
            [1.0, 1.0, 0.0, 0.0, 0.0]
        );
        // A real game: reproducible for a seed, changed by another, and a
        // probability vector between the teacher's certainty and none.
        let start = Position::START;
        let a = rollout(&teacher, &start, 2, 5, &mut buf);
        assert_eq!(a, rollout(&teacher, &start, 2, 5, &mut buf));
        assert_ne!(a, rollout(&teacher, &start, 2, 6, &mut buf));
        assert!(a[0] > 0.3 && a[0] < 0.7, "{a:?}");
        assert!(a[1] <= a[0] && a[2] <= a[1] && a[4] <= a[3], "{a:?}");
    }

    #[test]
    fn the_student_learns_the_teachers_look_ahead() {
        let teacher_net = tabula_ai::backgammon::ladder_network().expect("embedded weights");
        let teacher = Expert::new(teacher_net);
        let pos = positions(&teacher, 300, 9);
        assert_eq!(pos.len(), 300);
        assert_eq!(pos, positions(&teacher, 300, 9), "reproducible");
        let mut bufs = [Vec::new(), Vec::new()];
        let samples: Vec<(Inputs, Probs)> = pos
            .iter()
            .map(|p| (nn::encode(p), label(&teacher, p, 1, &mut bufs)))
            .collect();
        let train_set = &samples[..250];
        let student = teacher_net.widened(96, 1);
        assert_eq!(student.hidden(), 96);
        let before = fit(&student, train_set);
        let same = fit(teacher_net, train_set);
        assert!(
            (before.equity - same.equity).abs() < 1e-9,
            "widening keeps the function"
        );
        let after = fit(
            &train(student, train_set, train_set, 5, 0.05, 1, &mut |_, _, _| {}),
            train_set,
        );
        assert!(
            after.equity < before.equity,
            "training fits the labels better: {before:?} -> {after:?}"
        );
    }
}
