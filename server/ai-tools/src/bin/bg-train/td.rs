//! TD(λ) self-play training of the Expert's network (Tesauro's TD-Gammon),
//! and the raw network as a player for the trainer's benchmark.

// Index loops mirror the maths of back-propagation.
#![allow(clippy::needless_range_loop)]

use tabula_ai::backgammon::nn::{
    Activations, Inputs, N_OUT, Network, Probs, encode, equity, flip, terminal, value_after,
};
use tabula_ai::backgammon::play::Chooser;
use tabula_ai::rng::Rng;
use tabula_shared::backgammon::{Dice, Position};

/// TD(λ) self-play trainer.
///
/// Values are tracked in the fixed perspective of the side that moved
/// first. With λ = 0 the weights are updated online after every ply. With
/// λ > 0 the game is played with fixed weights and the updates are applied
/// at its end in the equivalent forward view: the gradient of ply `s` is
/// weighted by `G_s = Σ_{t ≥ s} λ^{t-s} δ_t`, which equals offline TD(λ)
/// with accumulating traces at the cost of TD(0).
pub struct TdTrainer {
    /// Learning rate.
    pub alpha: f32,
    /// Trace decay λ.
    pub lambda: f32,
    /// Each game opens with a random number of plies, up to this many, of
    /// uniformly random legal moves that are not learned from, so that
    /// training also sees the positions (blots hit, checkers sent back,
    /// back games) that greedy self-play rarely reaches.
    pub explore_plies: u32,
    history: Vec<(Inputs, Activations, bool, Probs)>,
}

/// For component `k` of the fixed-perspective value, the net output it
/// comes from and its sign when the *other* side is on roll.
const SWAP: [usize; N_OUT] = [0, 3, 4, 1, 2];

impl TdTrainer {
    /// A trainer for `net`.
    pub fn new(net: &Network, alpha: f32, lambda: f32) -> TdTrainer {
        let _ = net;
        TdTrainer {
            alpha,
            lambda,
            explore_plies: 0,
            history: Vec::with_capacity(128),
        }
    }

    /// The value of the position with `a_on_roll` telling whether the
    /// reference side is on roll.
    fn fixed(out: &Probs, a_on_roll: bool) -> Probs {
        if a_on_roll { *out } else { flip(out) }
    }

    /// Plays one self-play game with greedy 0-ply moves, learning online.
    /// Returns the number of plies.
    pub fn self_play_game(&mut self, net: &mut Network, seed: u64) -> u32 {
        let mut rng = Rng::new(seed);
        self.history.clear();
        let mut pos = Position::START;
        let mut a_on_roll = true;
        let mut cands = Vec::with_capacity(64);
        let mut plies = 0;
        let explore = if self.explore_plies > 0 {
            rng.below(u64::from(self.explore_plies) + 1) as u32
        } else {
            0
        };
        for ply in 0..5000u32 {
            plies = ply + 1;
            if ply < explore {
                let dice = if ply == 0 {
                    rng.opening_dice()
                } else {
                    rng.dice()
                };
                pos.legal_positions_into(dice, false, &mut cands);
                let next = cands[rng.below(cands.len() as u64) as usize];
                if terminal(&next).is_some() {
                    break;
                }
                pos = next.switch_sides();
                a_on_roll = !a_on_roll;
                continue;
            }
            let inp = encode(&pos);
            let act = net.forward(&inp);
            let v_t = Self::fixed(&act.out, a_on_roll);
            let dice = if ply == 0 {
                rng.opening_dice()
            } else {
                rng.dice()
            };
            pos.legal_positions_into(dice, false, &mut cands);
            let mut best = pos;
            let mut best_eq = f32::NEG_INFINITY;
            for c in &cands {
                let e = equity(&value_after(net, c));
                if e > best_eq {
                    best_eq = e;
                    best = *c;
                }
            }
            let (v_next, done) = match terminal(&best) {
                Some(t) => (Self::fixed(&t, a_on_roll), true),
                None => {
                    let next = best.switch_sides();
                    let out = net.eval(&next);
                    (Self::fixed(&out, !a_on_roll), false)
                }
            };
            let mut delta = [0f32; N_OUT];
            for k in 0..N_OUT {
                delta[k] = v_next[k] - v_t[k];
            }
            if self.lambda > 0.0 {
                self.history.push((inp, act, a_on_roll, delta));
            } else {
                Self::backprop(net, &inp, &act, &delta, a_on_roll, self.alpha);
            }
            if done {
                break;
            }
            pos = best.switch_sides();
            a_on_roll = !a_on_roll;
        }
        if self.lambda > 0.0 {
            let mut g = [0f32; N_OUT];
            for (inp, act, a_on_roll, delta) in self.history.iter().rev() {
                for k in 0..N_OUT {
                    g[k] = delta[k] + self.lambda * g[k];
                }
                Self::backprop(net, inp, act, &g, *a_on_roll, self.alpha);
            }
        }
        net.games += 1;
        plies
    }

    /// Net-output errors from fixed-perspective errors.
    fn output_errors(delta: &Probs, a_on_roll: bool) -> Probs {
        if a_on_roll {
            *delta
        } else {
            let mut e = [0f32; N_OUT];
            for k in 0..N_OUT {
                let s = if k == 0 { -1.0 } else { 1.0 };
                e[SWAP[k]] = s * delta[k];
            }
            e
        }
    }

    /// One gradient step towards `delta` (fixed perspective) for the
    /// position encoded as `inp`, whose forward pass was `act`.
    fn backprop(
        net: &mut Network,
        inp: &Inputs,
        act: &Activations,
        delta: &Probs,
        a_on_roll: bool,
        alpha: f32,
    ) {
        net.step(inp, act, &Self::output_errors(delta, a_on_roll), alpha);
    }
}

/// The raw network as a greedy 0-ply [`Chooser`] (the trainer's benchmark
/// player).
pub struct NetChooser<'a>(pub &'a Network);

impl Chooser for NetChooser<'_> {
    fn choose(&mut self, _before: &Position, _dice: Dice, candidates: &[Position]) -> usize {
        let mut best = (0, f32::NEG_INFINITY);
        for (i, c) in candidates.iter().enumerate() {
            let e = equity(&value_after(self.0, c));
            if e > best.1 {
                best = (i, e);
            }
        }
        best.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn td_training_is_reproducible_and_changes_the_weights() {
        let run = || {
            let mut net = Network::random(8, 3);
            let mut tr = TdTrainer::new(&net, 0.1, 0.7);
            for g in 0..2 {
                tr.self_play_game(&mut net, 1000 + g);
            }
            net
        };
        let a = run();
        let b = run();
        assert_eq!(a.games, 2);
        assert_eq!(a.to_bytes(), b.to_bytes());
        assert_ne!(a.to_bytes(), Network::random(8, 3).to_bytes());
        // TD(0) path too.
        let mut net = Network::random(8, 3);
        let mut tr = TdTrainer::new(&net, 0.1, 0.0);
        tr.self_play_game(&mut net, 5);
        assert_ne!(net.to_bytes(), Network::random(8, 3).to_bytes());
    }

    #[test]
    fn exploring_openings_are_not_learned_from_and_change_the_games() {
        // A game opened by more random plies than it can last learns
        // nothing: every position it reached was an exploration.
        let mut net = Network::random(8, 3);
        let mut tr = TdTrainer::new(&net, 0.1, 0.7);
        tr.explore_plies = 100_000;
        let mut untouched = 0;
        for g in 0..20 {
            let mut before = net.clone();
            let plies = tr.self_play_game(&mut net, 2000 + g);
            assert!(plies >= 1);
            before.games = net.games; // the file also records the game count
            if net.to_bytes() == before.to_bytes() {
                untouched += 1;
            }
        }
        assert!(untouched >= 18, "nearly every game is explored to its end");
        assert_eq!(net.games, 20);
        // A short exploration still learns, and plays another game than
        // the greedy one from the same dice.
        let mut greedy = Network::random(8, 3);
        let mut tr = TdTrainer::new(&greedy, 0.1, 0.7);
        let greedy_plies = tr.self_play_game(&mut greedy, 7);
        let mut explored = Network::random(8, 3);
        let mut tr = TdTrainer::new(&explored, 0.1, 0.7);
        tr.explore_plies = 12;
        let explored_plies = tr.self_play_game(&mut explored, 7);
        assert_ne!(explored.to_bytes(), Network::random(8, 3).to_bytes());
        assert_ne!(
            (explored.to_bytes(), explored_plies),
            (greedy.to_bytes(), greedy_plies)
        );
    }
}
