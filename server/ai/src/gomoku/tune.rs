//! Fitting the evaluation to self-play. Expert self-play games record
//! every quiet position (the side to move faces no five, four or open
//! three) with the game's result for that side and the search's own
//! score there, and a logistic regression fits:
//!
//! - the linear model's 36 weights ([`fit`]) to the results (Texel's
//!   method): the table for [`super::eval::FITTED`];
//! - a value per pattern code and side ([`fit_codes`], the Expert's
//!   evaluation, [`super::pcode`]), starting from and pulled towards the
//!   linear model's values, to the search's scores: the static value
//!   learns what a 4,000-node search concludes from the position, which
//!   plays better than learning the (noisier) results.
//!
//! The same games record, in every quiet position the main search
//! decided, the candidates and the move chosen: the move ordering's fit
//! ([`super::ordering::fit`]).
//!
//! `gomoku-tune` runs all three.

use tabula_shared::gomoku::{Board, Point, Rule, Stone};

use super::eval::{NFEATURES, SCALE};
use super::ordering::Choice;
use super::pcode;
use super::pos::{Pos, color_of};
use super::search::{Budget, Node, Searcher, Settings};
use crate::rng::{Rng, mix_seed};

/// One recorded position.
#[derive(Debug, Clone)]
pub struct Sample {
    /// The features for the side to move.
    pub features: [u32; NFEATURES],
    /// The pattern-code counts for the side to move, as (feature, count)
    /// pairs ([`Pos::code_counts`]).
    pub codes: Vec<(u16, u16)>,
    /// That side's result: 1 won, 0 lost, 0.5 drawn.
    pub result: f64,
    /// The self-play search's winning chance for that side: its score
    /// read as 200 units per logit.
    pub score: f64,
}

/// Plays `games` Expert self-play games of `nodes` nodes per move from
/// random openings (three to six stones near the centre) and returns the
/// quiet positions, and the search's choice in each of them that the
/// main search decided (for the move ordering's fit,
/// [`super::ordering::fit`]).
pub fn self_play(games: usize, nodes: u64, seed: u64) -> (Vec<Sample>, Vec<Choice>) {
    let (mut samples, mut choices) = (Vec::new(), Vec::new());
    for g in 0..games {
        let (s, c) = one_game(nodes, mix_seed(seed, g as u64));
        samples.extend(s);
        choices.extend(c);
    }
    (samples, choices)
}

fn one_game(nodes: u64, seed: u64) -> (Vec<Sample>, Vec<Choice>) {
    let mut rng = Rng::from_state(seed);
    let mut board = Board::new(15).expect("valid size");
    let stones = 3 + rng.below(4) as usize;
    let mut placed = 0;
    while placed < stones {
        let p = Point::new(5 + rng.below(5) as u8, 5 + rng.below(5) as u8);
        let s = if placed.is_multiple_of(2) {
            Stone::Black
        } else {
            Stone::White
        };
        if board.place(p, s).is_ok() {
            placed += 1;
        }
    }
    let mut to_move = if stones.is_multiple_of(2) {
        Stone::Black
    } else {
        Stone::White
    };
    // Positions with the colour that was to move in each.
    let mut seen: Vec<(Sample, Stone)> = Vec::new();
    let mut choices = Vec::new();
    let winner = loop {
        let pos = Pos::from_board(&board, Rule::Freestyle);
        let me = color_of(to_move);
        let mut s = Searcher::new(pos, Settings::EXPERT, rng.next_u64());
        let candidates = match s.generate(me) {
            Node::Moves(moves, false) => Some(moves),
            _ => None,
        };
        let quiet = candidates.is_some();
        let (features, codes) = (s.pos.features(me), s.pos.code_counts(me));
        let t = s.think(
            me,
            Budget {
                nodes,
                time: None,
                memory: None,
            },
        );
        if quiet {
            let score = 1.0 / (1.0 + (-f64::from(t.score.clamp(-2000, 2000)) / 200.0).exp());
            let sample = Sample {
                features,
                codes,
                result: 0.5,
                score,
            };
            seen.push((sample, to_move));
        }
        // A choice of the main search (not a threat win found at the root).
        if t.depth > 0
            && let (Some(moves), Some(best)) = (&candidates, t.best)
            && let Some(chosen) = moves.iter().position(|&(m, _)| m == best)
        {
            let cands = moves
                .iter()
                .map(|&(m, _)| [s.pos.code(me, m), s.pos.code(1 - me, m)])
                .collect();
            choices.push(Choice { cands, chosen });
        }
        let Some(p) = t.best.map(|i| s.pos.point(i)) else {
            break None;
        };
        if board.place(p, to_move).is_err() {
            break None;
        }
        if tabula_shared::gomoku::five_at(&board, p, to_move, Rule::Freestyle).is_some() {
            break Some(to_move);
        }
        if board.stones().count() >= 225 {
            break None;
        }
        to_move = to_move.opponent();
    };
    let samples = seen
        .into_iter()
        .map(|(sample, side)| Sample {
            result: match winner {
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
            ..sample
        })
        .collect();
    (samples, choices)
}

/// Logistic regression of the results on the features (Newton's method
/// with a small ridge, features scaled to unit spread), returned as
/// weights in the evaluation's units: [`SCALE`] × 200 per logit.
pub fn fit(samples: &[Sample]) -> [i32; NFEATURES] {
    const N: usize = NFEATURES;
    let n = samples.len().max(1) as f64;
    // Per-feature spread (root mean square), so the ridge treats all alike.
    let mut spread = [0.0f64; N];
    for s in samples {
        for (acc, &x) in spread.iter_mut().zip(&s.features) {
            *acc += f64::from(x) * f64::from(x);
        }
    }
    for v in spread.iter_mut() {
        *v = (*v / n).sqrt().max(1e-9);
    }
    let ridge = 1e-3 * n;
    let mut w = [0.0f64; N];
    for _ in 0..25 {
        let mut grad = vec![0.0f64; N];
        let mut hess = vec![0.0f64; N * N];
        for s in samples {
            let x: Vec<f64> = s
                .features
                .iter()
                .zip(&spread)
                .map(|(&x, sd)| f64::from(x) / sd)
                .collect();
            let z: f64 = x.iter().zip(&w).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            let q = p * (1.0 - p);
            for i in 0..N {
                grad[i] += (p - s.result) * x[i];
                if x[i] != 0.0 {
                    for j in 0..N {
                        hess[i * N + j] += q * x[i] * x[j];
                    }
                }
            }
        }
        for i in 0..N {
            grad[i] += ridge * w[i];
            hess[i * N + i] += ridge;
        }
        let step = solve_dense(hess, grad, N);
        for (wi, d) in w.iter_mut().zip(step) {
            *wi -= d;
        }
    }
    let mut out = [0i32; N];
    for i in 0..N {
        out[i] = (w[i] / spread[i] * 200.0 * f64::from(SCALE)).round() as i32;
    }
    out
}

/// Mean log-loss of `weights` (in evaluation units) on `samples`.
pub fn log_loss(samples: &[Sample], weights: &[i32; NFEATURES]) -> f64 {
    let mut total = 0.0;
    for s in samples {
        let v = super::eval::value(&s.features, weights);
        let p = (1.0 / (1.0 + (-f64::from(v) / 200.0).exp())).clamp(1e-9, 1.0 - 1e-9);
        total -= s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln();
    }
    total / samples.len().max(1) as f64
}

/// The linear model's value of every code ([`pcode::weights_of`]) in
/// logits, the mover's codes first: where [`fit_codes`] starts.
pub fn codes_prior(weights: &[i32; NFEATURES]) -> Vec<f64> {
    let per_logit = 200.0 * f64::from(SCALE);
    pcode::weights_of(weights)
        .iter()
        .flat_map(|side| side.iter().map(|&v| f64::from(v) / per_logit))
        .collect()
}

/// What [`fit_codes`] predicts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Target {
    /// The game's result.
    Result,
    /// The self-play search's winning chance.
    Search,
}

impl Target {
    fn of(self, s: &Sample) -> f64 {
        match self {
            Target::Result => s.result,
            Target::Search => s.score,
        }
    }
}

/// Logistic regression of `target` on the pattern-code counts (Newton's
/// method, each step halved until it helps), each weight pulled towards
/// `prior` by a ridge of `ridge` per position, so codes seldom seen keep
/// the prior's value. Weights in logits.
pub fn fit_codes(
    samples: &[Sample],
    prior: &[f64],
    ridge: f64,
    rounds: usize,
    target: Target,
) -> Vec<f64> {
    let n = prior.len();
    let lambda = ridge * samples.len() as f64;
    let mut w = prior.to_vec();
    for _ in 0..rounds {
        let mut grad: Vec<f64> = w.iter().zip(prior).map(|(a, b)| lambda * (a - b)).collect();
        let mut hess = vec![0.0f64; n * n];
        for i in 0..n {
            hess[i * n + i] = lambda;
        }
        for s in samples {
            let p = 1.0 / (1.0 + (-codes_logit(s, &w)).exp());
            let q = p * (1.0 - p);
            for &(f, c) in &s.codes {
                let (f, c) = (usize::from(f), f64::from(c));
                grad[f] += (p - target.of(s)) * c;
                let row = &mut hess[f * n..f * n + n];
                for &(g, d) in &s.codes {
                    row[usize::from(g)] += q * c * f64::from(d);
                }
            }
        }
        let step = solve_dense(hess, grad, n);
        // Damped: halve the step until the penalised loss goes down.
        let objective = |w: &[f64]| {
            let penalty: f64 = w.iter().zip(prior).map(|(a, b)| (a - b) * (a - b)).sum();
            log_loss_codes(samples, w, target) * samples.len() as f64 + 0.5 * lambda * penalty
        };
        let now = objective(&w);
        let mut scale = 1.0;
        for _ in 0..12 {
            let tried: Vec<f64> = w.iter().zip(&step).map(|(a, d)| a - scale * d).collect();
            if objective(&tried) < now {
                w = tried;
                break;
            }
            scale /= 2.0;
        }
    }
    w
}

/// The code weights' `w` value of a sample, in logits.
fn codes_logit(s: &Sample, w: &[f64]) -> f64 {
    s.codes
        .iter()
        .map(|&(f, c)| w[usize::from(f)] * f64::from(c))
        .sum()
}

/// Code weights in logits as the evaluation's table (its units, rounded).
pub fn codes_table(w: &[f64]) -> pcode::Weights {
    let mut out = [[0i32; pcode::N]; 2];
    for (side, row) in out.iter_mut().enumerate() {
        for (code, v) in row.iter_mut().enumerate() {
            *v = (w[side * pcode::N + code] * 200.0 * f64::from(SCALE)).round() as i32;
        }
    }
    out
}

/// Mean log-loss (cross-entropy) of code weights `w` (logits) against
/// `target` on `samples`.
pub fn log_loss_codes(samples: &[Sample], w: &[f64], target: Target) -> f64 {
    let mut total = 0.0;
    for s in samples {
        let p = (1.0 / (1.0 + (-codes_logit(s, w)).exp())).clamp(1e-9, 1.0 - 1e-9);
        let y = target.of(s);
        total -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
    }
    total / samples.len().max(1) as f64
}

/// Solves `a x = b` (`a` symmetric positive definite, `n` x `n`, row
/// major) by Cholesky's method.
fn solve_dense(mut a: Vec<f64>, mut b: Vec<f64>, n: usize) -> Vec<f64> {
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        let d = d.max(1e-12).sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut v = a[i * n + j];
            for k in 0..j {
                v -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = v / d;
        }
    }
    for i in 0..n {
        let mut v = b[i];
        for k in 0..i {
            v -= a[i * n + k] * b[k];
        }
        b[i] = v / a[i * n + i];
    }
    for i in (0..n).rev() {
        let mut v = b[i];
        for k in i + 1..n {
            v -= a[k * n + i] * b[k];
        }
        b[i] = v / a[i * n + i];
    }
    b
}

/// The weights the evaluation uses now.
pub fn current_weights() -> [i32; NFEATURES] {
    super::eval::FITTED
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::eval::{WAITER, combo, combo_feature, value};

    /// Positions where the search's score says the mover wins when it has
    /// a cell with one particular code, and the results are coin flips:
    /// fitted to the scores, that code's weight rises and the codes never
    /// seen keep the prior; fitted to the results, it stays near nothing.
    #[test]
    fn the_code_fit_learns_what_its_target_says() {
        let mut rng = Rng::from_state(11);
        // A small problem (eight features) keeps the test quick; the fit
        // takes any number of features.
        let decisive = 3u16;
        let samples: Vec<Sample> = (0..3000)
            .map(|_| {
                let has = rng.below(2) == 1;
                let mut codes = vec![(1u16, 20 + rng.below(5) as u16)];
                if has {
                    codes.push((decisive, 1));
                }
                Sample {
                    features: [0; NFEATURES],
                    codes,
                    result: f64::from(rng.below(2) as u32),
                    score: if has { 0.9 } else { 0.1 },
                }
            })
            .collect();
        let prior = vec![0.0; 8];
        let by_search = fit_codes(&samples, &prior, 1e-3, 10, Target::Search);
        let d = usize::from(decisive);
        assert!(by_search[d] > 2.0, "{}", by_search[d]);
        assert_eq!(by_search[5], 0.0);
        assert!(
            log_loss_codes(&samples, &by_search, Target::Search)
                < log_loss_codes(&samples, &prior, Target::Search) - 0.2
        );
        let by_result = fit_codes(&samples, &prior, 1e-3, 10, Target::Result);
        assert!(by_result[d].abs() < 0.5, "{}", by_result[d]);
        let mut logits = vec![0.0; 2 * pcode::N];
        logits[pcode::N + d] = by_search[d];
        let table = codes_table(&logits);
        assert_eq!(table[1][d], (by_search[d] * 1600.0).round() as i32);
    }

    /// Positions where the mover wins exactly when it has more
    /// double-three points than the waiter: the fit must weigh the
    /// mover's double threes up and the waiter's down.
    #[test]
    fn the_fit_finds_what_decides_the_results() {
        let mut rng = Rng::from_state(7);
        let mover = combo_feature(usize::from(combo::THREE_THREE));
        let waiter = WAITER + mover;
        let samples: Vec<Sample> = (0..2000)
            .map(|_| {
                let mut features = [0u32; NFEATURES];
                features[mover] = rng.below(4) as u32;
                features[waiter] = rng.below(4) as u32;
                features[0] = 50 + rng.below(10) as u32;
                let result = if features[mover] > features[waiter] {
                    1.0
                } else if features[mover] < features[waiter] {
                    0.0
                } else {
                    0.5
                };
                Sample {
                    features,
                    codes: Vec::new(),
                    result,
                    score: 0.5,
                }
            })
            .collect();
        let w = fit(&samples);
        assert!(w[mover] > 0 && w[waiter] < 0, "{w:?}");
        let won = samples.iter().find(|s| s.result == 1.0).expect("a win");
        assert!(value(&won.features, &w) > 0);
        assert!(log_loss(&samples, &w) < 0.5);
    }
}
