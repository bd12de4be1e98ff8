//! PLACEHOLDER until the Backgammon AI lands: takes, rolls, plays the first legal play.
use std::time::Duration;

use tabula_shared::backgammon::{BgMatch, GamePhase, Play, Side};

use crate::ai::Level;

/// A Backgammon AI decision.
pub enum Decision {
    /// Roll the dice.
    Roll,
    /// Offer a double.
    Double,
    /// Take.
    Take,
    /// Drop.
    Drop,
    /// Play the roll.
    Play(Play),
}

/// The AI's decision for `side`.
pub fn choose(
    _level: Level,
    m: &BgMatch,
    side: Side,
    _budget: Duration,
    _seed: u64,
) -> Option<Decision> {
    match m.phase() {
        GamePhase::AwaitingRoll { side: s } if *s == side => Some(Decision::Roll),
        GamePhase::CubeOffered { by } if *by != side => Some(Decision::Take),
        GamePhase::Moving { side: s, .. } if *s == side => {
            m.legal_plays().into_iter().next().map(Decision::Play)
        }
        _ => None,
    }
}
