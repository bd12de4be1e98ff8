//! Move ordering by pattern code: how promising a candidate cell is, read
//! from its code for the side to move (the *attack* value) and its code
//! for the other side (the *defence* value), summed. The search tries the
//! candidates in that order (after the hash move, the killers and the
//! history), and late-move reductions and pruning trust it: a good move
//! ordered late is searched shallower or not at all.
//!
//! - [`hand_set`]: the first Expert's ordering, a bonus per threat class
//!   plus a value per line pattern, four fifths of it for defence (the
//!   levels below the Expert).
//! - [`fitted`]: the Expert's, the same table fitted to the moves the
//!   self-play search chose ([`fit`], `gomoku-tune --order-out`): a
//!   softmax over each quiet position's candidates, each value pulled
//!   towards the hand-set one, so that the search's choice comes first.
//!
//! Both tables are in the hand-set units: the fit finds the scale that
//! reads them as logits and keeps it, so the history and killer bonuses
//! weigh as much against them as before.

use std::sync::OnceLock;

use super::pcode::{self, N, Weights};
use super::pos::{PAT_VALUE, class_of};

/// The hand-set bonus per threat class ([`super::pos::class`]).
const CLASS_VALUE: [i32; 9] = [0, 0, 0, 300, 1500, 400, 4000, 20000, 100000];

/// Which ordering a search uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum MoveOrder {
    /// [`hand_set`].
    HandSet,
    /// [`fitted`].
    Fitted,
}

impl MoveOrder {
    /// The table.
    pub fn table(self) -> &'static Weights {
        match self {
            MoveOrder::HandSet => hand_set(),
            MoveOrder::Fitted => fitted(),
        }
    }
}

/// The hand-set ordering: a cell's attack value is its threat class's
/// bonus plus its four patterns' values; its defence value is four fifths
/// of the same for the other side's code.
pub fn hand_set() -> &'static Weights {
    static W: OnceLock<Box<Weights>> = OnceLock::new();
    W.get_or_init(|| {
        let mut w = Box::new([[0i32; N]; 2]);
        for code in 0..N {
            let pats = pcode::pats(code as u16);
            let v = CLASS_VALUE[usize::from(class_of(&pats))]
                + pats.iter().map(|&p| PAT_VALUE[usize::from(p)]).sum::<i32>();
            w[0][code] = v;
            w[1][code] = v * 4 / 5;
        }
        w
    })
}

/// The Expert's ordering (`data/gomoku-order-v1.txt`, written by
/// `gomoku-tune --order-out`: the attack values, then the defence values).
pub fn fitted() -> &'static Weights {
    static W: OnceLock<Box<Weights>> = OnceLock::new();
    W.get_or_init(|| {
        pcode::parse(include_str!("../../data/gomoku-order-v1.txt"))
            .expect("the embedded ordering table")
    })
}

/// A quiet position's candidates, as (code for the side to move, code for
/// the other side), and the one the search chose.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// Every candidate's two codes.
    pub cands: Vec<[u16; 2]>,
    /// The index in `cands` of the move played.
    pub chosen: usize,
}

/// Values per code as logits, the attack values first: `table` times
/// `scale`.
fn logits_of(table: &Weights, scale: f64) -> Vec<f64> {
    table
        .iter()
        .flat_map(|side| side.iter().map(move |&v| f64::from(v) * scale))
        .collect()
}

/// The softmax over `c`'s candidates of logits `u`: each candidate's
/// probability, and the log-probability of the chosen one.
fn softmax(c: &Choice, u: &[f64], probs: &mut Vec<f64>) -> f64 {
    probs.clear();
    probs.extend(
        c.cands
            .iter()
            .map(|&[a, d]| u[usize::from(a)] + u[N + usize::from(d)]),
    );
    let top = probs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut total = 0.0;
    for p in probs.iter_mut() {
        *p = (*p - top).exp();
        total += *p;
    }
    let chosen = probs[c.chosen];
    for p in probs.iter_mut() {
        *p /= total;
    }
    (chosen / total).max(1e-300).ln()
}

/// Mean cross-entropy of the choices under logits `u`.
fn loss(choices: &[Choice], u: &[f64]) -> f64 {
    let mut probs = Vec::new();
    let total: f64 = choices.iter().map(|c| -softmax(c, u, &mut probs)).sum();
    total / choices.len().max(1) as f64
}

/// How `table` (in its own units) predicts the choices: the mean
/// cross-entropy of the softmax at the best scale (logits per unit), the
/// share of choices ranked first, and that scale.
pub fn judge(choices: &[Choice], table: &Weights) -> (f64, f64, f64) {
    let scale = best_scale(choices, table);
    let u = logits_of(table, scale);
    let mut probs = Vec::new();
    let first = choices
        .iter()
        .filter(|c| {
            softmax(c, &u, &mut probs);
            let p = probs[c.chosen];
            probs
                .iter()
                .enumerate()
                .all(|(k, &q)| k == c.chosen || q < p)
        })
        .count();
    (
        loss(choices, &u),
        first as f64 / choices.len().max(1) as f64,
        scale,
    )
}

/// The scale (logits per unit) at which `table` best predicts the
/// choices: a golden-section search over its logarithm.
fn best_scale(choices: &[Choice], table: &Weights) -> f64 {
    let at = |log_s: f64| loss(choices, &logits_of(table, log_s.exp()));
    let (mut lo, mut hi) = ((1e-6f64).ln(), (1.0f64).ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut x1, mut x2) = (hi - g * (hi - lo), lo + g * (hi - lo));
    let (mut f1, mut f2) = (at(x1), at(x2));
    for _ in 0..40 {
        if f1 < f2 {
            hi = x2;
            (x2, f2) = (x1, f1);
            x1 = hi - g * (hi - lo);
            f1 = at(x1);
        } else {
            lo = x1;
            (x1, f1) = (x2, f2);
            x2 = lo + g * (hi - lo);
            f2 = at(x2);
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Fits the ordering to the choices: the softmax of the candidates'
/// values should put the search's choice first. Starts from `prior` read
/// at its best scale, takes `steps` full-batch Adam steps on the mean
/// cross-entropy plus `ridge` times half the squared distance (in logits)
/// to the prior, and returns the table in the prior's units.
pub fn fit(choices: &[Choice], prior: &Weights, ridge: f64, steps: usize) -> Box<Weights> {
    let scale = best_scale(choices, prior);
    let u0 = logits_of(prior, scale);
    let mut u = u0.clone();
    let (mut m, mut v) = (vec![0.0f64; 2 * N], vec![0.0f64; 2 * N]);
    let (rate, b1, b2) = (0.05, 0.9, 0.999);
    let n = choices.len().max(1) as f64;
    let mut probs = Vec::new();
    for t in 1..=steps {
        let mut grad: Vec<f64> = u.iter().zip(&u0).map(|(a, b)| ridge * (a - b)).collect();
        for c in choices {
            softmax(c, &u, &mut probs);
            for (k, (&[a, d], &p)) in c.cands.iter().zip(probs.iter()).enumerate() {
                let g = (p - f64::from(u8::from(k == c.chosen))) / n;
                grad[usize::from(a)] += g;
                grad[N + usize::from(d)] += g;
            }
        }
        for i in 0..2 * N {
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            u[i] -= rate * mh / (vh.sqrt() + 1e-9);
        }
    }
    let mut out = Box::new([[0i32; N]; 2]);
    for (side, row) in out.iter_mut().enumerate() {
        for (code, x) in row.iter_mut().enumerate() {
            *x = (u[side * N + code] / scale).round() as i32;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The hand-set table orders as the first Expert's formula did: a
    /// double three before a lone open three, a four before both, and
    /// an all-dead cell at nothing.
    #[test]
    fn the_hand_set_table_ranks_threats_as_the_formula() {
        use super::super::pattern::{B4, DEAD, F2, F3};
        let w = hand_set();
        let at = |pats: [u8; 4]| w[0][usize::from(pcode::of(&pats))];
        assert_eq!(at([DEAD; 4]), 0);
        assert_eq!(at([F3, F2, DEAD, DEAD]), 300 + 40 + 12);
        assert!(at([F3, F3, DEAD, DEAD]) > at([F3, F2, DEAD, DEAD]));
        assert!(at([B4, F3, DEAD, DEAD]) > at([F3, F3, DEAD, DEAD]));
        let code = usize::from(pcode::of(&[F3, F2, DEAD, DEAD]));
        assert_eq!(w[1][code], (300 + 40 + 12) * 4 / 5);
        assert_eq!(
            pcode::parse(&pcode::format(fitted())).as_deref(),
            Some(fitted())
        );
    }

    /// Choices where the searcher always takes the candidate whose
    /// attack code is 5, which the prior values at nothing: the fit
    /// must raise that code above the others and predict the choices
    /// better than the prior.
    #[test]
    fn the_fit_learns_which_codes_the_search_chooses() {
        let mut rng = Rng::from_state(3);
        let choices: Vec<Choice> = (0..400)
            .map(|_| {
                let len = 5 + rng.below(10) as usize;
                let mut cands: Vec<[u16; 2]> = (0..len)
                    .map(|_| [6 + rng.below(20) as u16, rng.below(20) as u16])
                    .collect();
                let chosen = rng.below(len as u64) as usize;
                cands[chosen][0] = 5;
                Choice { cands, chosen }
            })
            .collect();
        let mut prior = Box::new([[0i32; N]; 2]);
        for (code, v) in prior[0].iter_mut().enumerate() {
            *v = (code as i32 % 7) * 10;
        }
        let fitted = fit(&choices, &prior, 1e-3, 200);
        assert!(
            (6..26).all(|c| fitted[0][5] > fitted[0][c]),
            "{:?}",
            &fitted[0][..30]
        );
        let (before, first_before, _) = judge(&choices, &prior);
        let (after, first_after, _) = judge(&choices, &fitted);
        assert!(after < before - 0.5, "{before} -> {after}");
        assert!(
            first_after > 0.95 && first_before < 0.5,
            "{first_before} -> {first_after}"
        );
        // Codes never seen keep the prior's value.
        assert_eq!(fitted[0][600], prior[0][600]);
    }
}
