//! Hints: the Expert's view of the decision in front of a side, as at most
//! three actions with their equities, best first.
//!
//! * To play a roll: the three best plays (0-ply over all, 1-ply over the
//!   best few, as the Expert decides).
//! * Before a roll with the cube available: double or roll, with the
//!   cubeful equities of both (the doubled one at the opponent's best
//!   answer).
//! * Facing a double: take or drop.
//! * Otherwise (a roll without a cube decision): roll, with the cubeless
//!   equity.

use tabula_shared::backgammon::{BgMatch, GamePhase, Play, Side};

use super::expert::{self, Expert};
use super::nn;
use super::review::{cube_equities, play_equity};

/// A hinted action.
#[derive(Debug, Clone, PartialEq)]
pub enum HintAction {
    /// Roll the dice.
    Roll,
    /// Double.
    Double,
    /// Take the double.
    Take,
    /// Drop it.
    Drop,
    /// Play this.
    Play(Play),
}

/// At most three actions for `side` in `m`, best first, with `side`'s
/// equity after each; empty when `side` has nothing to decide (or the
/// Expert's weights fail their check).
pub fn hints(m: &BgMatch, side: Side) -> Vec<(HintAction, f32)> {
    let Ok(net) = super::expert_network() else {
        return Vec::new();
    };
    let judge = Expert::new(net);
    match *m.phase() {
        GamePhase::Moving { side: s, dice } if s == side => {
            let pos = m.position_for(side);
            let plays = pos.legal_plays_with(dice, m.config().doubles_twice);
            let mut ranked: Vec<(usize, f32)> = plays
                .iter()
                .enumerate()
                .map(|(i, (_, after))| (i, nn::equity(&judge.value_after(after))))
                .collect();
            ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
            let mut buf = Vec::with_capacity(64);
            let mut deep: Vec<(usize, f32)> = ranked
                .iter()
                .take(expert::ONE_PLY_CANDIDATES)
                .map(|&(i, _)| {
                    (
                        i,
                        play_equity(m, side, &judge.value_after_1ply(&plays[i].1, &mut buf)),
                    )
                })
                .collect();
            deep.sort_by(|a, b| b.1.total_cmp(&a.1));
            deep.into_iter()
                .take(3)
                .map(|(i, e)| (HintAction::Play(plays[i].0.clone()), e))
                .collect()
        }
        GamePhase::AwaitingRoll { side: s } if s == side => {
            let p = judge.probs_before_roll(&m.position_for(side));
            match cube_equities(m, side, &p).filter(|_| m.can_double(side)) {
                Some([no_double, take, pass]) => {
                    let mut both = vec![
                        (HintAction::Roll, no_double),
                        (HintAction::Double, take.min(pass)),
                    ];
                    both.sort_by(|a, b| b.1.total_cmp(&a.1));
                    both
                }
                None => vec![(HintAction::Roll, nn::equity(&p))],
            }
        }
        GamePhase::CubeOffered { by } if by != side => {
            let p = judge.probs_before_roll(&m.position_for(by));
            match cube_equities(m, by, &p) {
                Some([_, take, pass]) => {
                    let mut both = vec![(HintAction::Take, -take), (HintAction::Drop, -pass)];
                    both.sort_by(|a, b| b.1.total_cmp(&a.1));
                    both
                }
                None => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}
