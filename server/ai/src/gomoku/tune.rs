//! Fitting the evaluation's weights to game results (Texel's method):
//! self-play games record the features of every quiet position (the side
//! to move faces no five, four or open three) with the game's result for
//! that side, and a logistic regression fits weights that predict the
//! result from the features. `gomoku-tune` runs both and prints the table
//! for [`super::eval::FITTED`].

use tabula_shared::gomoku::{Board, Point, Rule, Stone};

use super::eval::{NFEATURES, SCALE};
use super::pos::{Pos, color_of};
use super::search::{Budget, Node, Searcher, Settings};
use crate::rng::{Rng, mix_seed};

/// One recorded position.
#[derive(Debug, Clone)]
pub struct Sample {
    /// The features for the side to move.
    pub features: [u32; NFEATURES],
    /// That side's result: 1 won, 0 lost, 0.5 drawn.
    pub result: f64,
}

/// Plays `games` Expert self-play games of `nodes` nodes per move from
/// random openings (three to six stones near the centre) and returns the
/// quiet positions.
pub fn self_play(games: usize, nodes: u64, seed: u64) -> Vec<Sample> {
    let mut out = Vec::new();
    for g in 0..games {
        out.extend(one_game(nodes, mix_seed(seed, g as u64)));
    }
    out
}

fn one_game(nodes: u64, seed: u64) -> Vec<Sample> {
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
    let mut seen: Vec<([u32; NFEATURES], Stone)> = Vec::new();
    let winner = loop {
        let pos = Pos::from_board(&board, Rule::Freestyle);
        let me = color_of(to_move);
        let mut s = Searcher::new(pos, Settings::EXPERT, rng.next_u64());
        if let Node::Moves(_, false) = s.generate(me) {
            seen.push((s.pos.features(me), to_move));
        }
        let t = s.think(
            me,
            Budget {
                nodes,
                time: None,
                memory: None,
            },
        );
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
    seen.into_iter()
        .map(|(features, side)| Sample {
            features,
            result: match winner {
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
        })
        .collect()
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
        let mut grad = [0.0f64; N];
        let mut hess = vec![[0.0f64; N]; N];
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
                        hess[i][j] += q * x[i] * x[j];
                    }
                }
            }
        }
        for i in 0..N {
            grad[i] += ridge * w[i];
            hess[i][i] += ridge;
        }
        let step = solve(hess, grad);
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

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve<const N: usize>(mut a: Vec<[f64; N]>, mut b: [f64; N]) -> [f64; N] {
    for col in 0..N {
        let pivot = (col..N)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let d = a[col][col];
        if d.abs() < 1e-12 {
            continue;
        }
        let pivot_row = a[col];
        let pivot_b = b[col];
        for (row, (r, rb)) in a.iter_mut().zip(b.iter_mut()).enumerate() {
            let f = r[col] / d;
            if row != col && f != 0.0 {
                for (x, p) in r[col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= f * p;
                }
                *rb -= f * pivot_b;
            }
        }
    }
    let mut x = [0.0; N];
    for i in 0..N {
        if a[i][i].abs() >= 1e-12 {
            x[i] = b[i] / a[i][i];
        }
    }
    x
}

/// The weights the evaluation uses now.
pub fn current_weights() -> [i32; NFEATURES] {
    super::eval::FITTED
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::eval::{WAITER, combo, combo_feature, value};

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
                Sample { features, result }
            })
            .collect();
        let w = fit(&samples);
        assert!(w[mover] > 0 && w[waiter] < 0, "{w:?}");
        let won = samples.iter().find(|s| s.result == 1.0).expect("a win");
        assert!(value(&won.features, &w) > 0);
        assert!(log_loss(&samples, &w) < 0.5);
    }
}
