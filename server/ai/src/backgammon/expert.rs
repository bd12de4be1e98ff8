//! The Expert player: the TD-trained network ([`super::nn`]) with the
//! bear-off database ([`super::bearoff`]) in races where both sides are
//! home, choosing plays by cubeless money equity.
//!
//! * **0-ply**: every legal result is evaluated by the network (from the
//!   opponent's side, then flipped) and the best equity is kept.
//! * **1-ply**: when the budget allows (at least [`ONE_PLY_MIN_BUDGET`]),
//!   the best [`ONE_PLY_CANDIDATES`] plays within [`ONE_PLY_WINDOW`] equity
//!   of the 0-ply best are re-scored by averaging, over the opponent's 21
//!   rolls, the value after the opponent's best 0-ply reply.
//! * **2-ply**: when the budget allows (at least [`TWO_PLY_MIN_BUDGET`],
//!   the server's default 1 s does), the best [`TWO_PLY_CANDIDATES`] plays
//!   at 1-ply within [`TWO_PLY_WINDOW`] of the 1-ply best are re-scored once
//!   more: for each of the opponent's 21 rolls its best reply is found at
//!   0-ply (as at 1-ply) and valued at 1-ply, our 21 rolls after it. This is
//!   gnubg's move filter and its 2-ply evaluation; the 2-ply value decides.
//!
//! The decision to look ahead depends on the budget only, so a decision is
//! reproducible; the clock is checked only as a safety stop.

use std::time::{Duration, Instant};

use tabula_shared::backgammon::{Dice, Position};

use super::bearoff::{self, BearoffDb};
use super::nn::{self, Network, Probs};
use super::noise::Noise;
use super::play::Chooser;

/// Plays re-scored at 1-ply.
pub const ONE_PLY_CANDIDATES: usize = 8;
/// Only plays within this much 0-ply equity of the best are re-scored.
pub const ONE_PLY_WINDOW: f32 = 0.2;
/// Smallest budget for which the 1-ply look-ahead is used.
pub const ONE_PLY_MIN_BUDGET: Duration = Duration::from_millis(20);
/// Plays re-scored at 2-ply.
pub const TWO_PLY_CANDIDATES: usize = 4;
/// Only plays within this much 1-ply equity of the 1-ply best are re-scored
/// at 2-ply.
pub const TWO_PLY_WINDOW: f32 = 0.1;
/// Smallest budget for which the 2-ply look-ahead is used.
pub const TWO_PLY_MIN_BUDGET: Duration = Duration::from_millis(250);

/// The Expert evaluator.
#[derive(Clone, Copy)]
pub struct Expert<'a> {
    /// The network.
    pub net: &'a Network,
    /// Use the bear-off database in home-board races.
    pub use_bearoff: bool,
}

impl<'a> Expert<'a> {
    /// An Expert using `net` and the bear-off database.
    pub fn new(net: &'a Network) -> Expert<'a> {
        Expert {
            net,
            use_bearoff: true,
        }
    }

    /// Consistent probabilities for the side on roll of `pos`.
    pub fn probs_on_roll(&self, pos: &Position) -> Probs {
        if let Some(t) = nn::terminal(pos) {
            // Cannot normally happen for a side on roll; value it exactly.
            return t;
        }
        let p = nn::sanitize(&self.net.eval(pos));
        if self.use_bearoff
            && bearoff::homes(pos).is_some()
            && let Some(w) = BearoffDb::global().race_win(pos)
        {
            // Both sides home: exact race odds; no backgammons, and no
            // gammon for a side whose opponent has borne off.
            let gw = if pos.o_off() > 0 { 0.0 } else { p[1].min(w) };
            let gl = if pos.x_off() > 0 {
                0.0
            } else {
                p[3].min(1.0 - w)
            };
            return [w, gw, 0.0, gl, 0.0];
        }
        p
    }

    /// Probabilities for the side on roll of `pos` before it rolls, looked
    /// ahead one roll: the average over its 21 rolls of the value after its
    /// best 0-ply play (used for cube decisions).
    pub fn probs_before_roll(&self, pos: &Position) -> Probs {
        if let Some(t) = nn::terminal(pos) {
            return t;
        }
        let mut buf = Vec::with_capacity(64);
        let mut acc = [0f32; 5];
        for (dice, w) in Dice::ALL_21 {
            pos.legal_positions_into(dice, false, &mut buf);
            let mut best: Option<(f32, Probs)> = None;
            for r in &buf {
                let v = self.value_after(r);
                let e = nn::equity(&v);
                if best.is_none_or(|(b, _)| e > b) {
                    best = Some((e, v));
                }
            }
            let v = best.map_or_else(|| self.probs_on_roll(pos), |(_, v)| v);
            for k in 0..5 {
                acc[k] += f32::from(w) * v[k];
            }
        }
        nn::sanitize(&acc.map(|a| a / 36.0))
    }

    /// Probabilities for the mover of `after` (a result of its play).
    pub fn value_after(&self, after: &Position) -> Probs {
        match nn::terminal(after) {
            Some(t) => t,
            None => nn::flip(&self.probs_on_roll(&after.switch_sides())),
        }
    }

    /// 1-ply value of `after` for its mover.
    pub fn value_after_1ply(&self, after: &Position, buf: &mut Vec<Position>) -> Probs {
        if let Some(t) = nn::terminal(after) {
            return t;
        }
        let opp = after.switch_sides();
        let mut acc = [0f32; 5];
        for (dice, w) in Dice::ALL_21 {
            opp.legal_positions_into(dice, false, buf);
            let mut best: Option<(f32, Probs)> = None;
            for r in buf.iter() {
                let v = self.value_after(r);
                let e = nn::equity(&v);
                if best.is_none_or(|(b, _)| e > b) {
                    best = Some((e, v));
                }
            }
            let v = best.map_or_else(|| self.probs_on_roll(&opp), |(_, v)| v);
            let mine = nn::flip(&v);
            for k in 0..5 {
                acc[k] += f32::from(w) * mine[k];
            }
        }
        acc.map(|a| a / 36.0)
    }

    /// The play of `plays` (results of one roll) that is best for its
    /// mover at 0-ply, the last of equal ones; `None` when there is none.
    pub fn best_0ply_play(&self, plays: &[Position]) -> Option<Position> {
        plays
            .iter()
            .map(|p| (nn::equity(&self.value_after(p)), p))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, p)| *p)
    }

    /// 2-ply value of `after` for its mover: over the opponent's 21 rolls,
    /// its best 0-ply reply valued at 1-ply (our 21 rolls after it).
    pub fn value_after_2ply(&self, after: &Position, bufs: &mut [Vec<Position>; 2]) -> Probs {
        if let Some(t) = nn::terminal(after) {
            return t;
        }
        let opp = after.switch_sides();
        let [replies, deeper] = bufs;
        let mut acc = [0f32; 5];
        for (dice, w) in Dice::ALL_21 {
            opp.legal_positions_into(dice, false, replies);
            let mine = match self.best_0ply_play(replies) {
                Some(r) => nn::flip(&self.value_after_1ply(&r, deeper)),
                // The opponent cannot move: we roll again from `after`.
                None => self.probs_before_roll(after),
            };
            for k in 0..5 {
                acc[k] += f32::from(w) * mine[k];
            }
        }
        acc.map(|a| a / 36.0)
    }

    /// Index of the best of `candidates` (0-ply, then 1-ply and 2-ply on
    /// the best few as the budget allows).
    pub fn best(&self, candidates: &[Position], budget: Duration) -> usize {
        let start = Instant::now();
        if candidates.len() <= 1 {
            return 0;
        }
        let mut ranked: Vec<(usize, f32)> = candidates
            .iter()
            .enumerate()
            .map(|(i, c)| (i, nn::equity(&self.value_after(c))))
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        if budget < ONE_PLY_MIN_BUDGET {
            return ranked[0].0;
        }
        let top = ranked[0].1;
        let mut buf = Vec::with_capacity(64);
        let mut one_ply: Vec<(usize, f32)> = Vec::with_capacity(ONE_PLY_CANDIDATES);
        for &(i, e0) in ranked.iter().take(ONE_PLY_CANDIDATES) {
            if e0 < top - ONE_PLY_WINDOW {
                break;
            }
            if !one_ply.is_empty() && start.elapsed() > budget / 2 {
                break;
            }
            let e = nn::equity(&self.value_after_1ply(&candidates[i], &mut buf));
            one_ply.push((i, e));
        }
        one_ply.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        if budget < TWO_PLY_MIN_BUDGET || one_ply.len() == 1 {
            return one_ply[0].0;
        }
        let top = one_ply[0].1;
        let mut bufs = [Vec::with_capacity(64), Vec::with_capacity(64)];
        let mut best = (one_ply[0].0, f32::NEG_INFINITY);
        for &(i, e1) in one_ply.iter().take(TWO_PLY_CANDIDATES) {
            if e1 < top - TWO_PLY_WINDOW {
                break;
            }
            if best.1.is_finite() && start.elapsed() > budget / 2 {
                break;
            }
            let e = nn::equity(&self.value_after_2ply(&candidates[i], &mut bufs));
            if e > best.1 {
                best = (i, e);
            }
        }
        best.0
    }

    /// Index of the best of `candidates` at 0-ply after adding `noise` to
    /// each one's equity (the levels below the Advanced; see
    /// [`super::noise`]).
    pub fn best_0ply_noisy(&self, candidates: &[Position], noise: Noise, seed: u64) -> usize {
        candidates
            .iter()
            .enumerate()
            .map(|(i, c)| (i, nn::equity(&self.value_after(c)) + noise.on(seed, c)))
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
            .map_or(0, |(i, _)| i)
    }
}

/// The Expert as a [`Chooser`] with a per-move budget.
pub struct ExpertChooser<'a> {
    /// The evaluator.
    pub expert: Expert<'a>,
    /// Budget per move (0 = 0-ply only).
    pub budget: Duration,
}

impl Chooser for ExpertChooser<'_> {
    fn choose(&mut self, _before: &Position, _dice: Dice, candidates: &[Position]) -> usize {
        self.expert.best(candidates, self.budget)
    }
}

/// The network at 0-ply with evaluation noise, as a [`Chooser`] (the levels
/// below the Advanced); each decision draws its noise from the next seed.
pub struct NoisyChooser<'a> {
    /// The evaluator.
    pub expert: Expert<'a>,
    /// The noise.
    pub noise: Noise,
    /// The next decision's seed.
    pub seed: u64,
}

impl Chooser for NoisyChooser<'_> {
    fn choose(&mut self, _before: &Position, _dice: Dice, candidates: &[Position]) -> usize {
        self.seed = crate::rng::mix(self.seed);
        self.expert
            .best_0ply_noisy(candidates, self.noise, self.seed)
    }
}
