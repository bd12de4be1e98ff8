//! One entry of a Backgammon match record, as stored and sent.

use serde::{Deserialize, Serialize};

use super::{Play, ResignKind, Side};

/// One entry of a Backgammon match record. Dice are always in the record, so
/// a match replays exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BgAction {
    /// The opening roll: one die each (a tie is recorded and rolled again).
    OpeningRoll {
        /// White's die.
        white: u8,
        /// Black's die.
        black: u8,
    },
    /// A side rolled.
    Roll {
        /// Who.
        side: Side,
        /// The two dice.
        dice: [u8; 2],
    },
    /// A side played its roll.
    Play {
        /// Who.
        side: Side,
        /// The play, in notation from that side's view.
        play: Play,
    },
    /// A side offered a double.
    Double {
        /// Who.
        side: Side,
    },
    /// The other side took.
    Take {
        /// Who took.
        side: Side,
    },
    /// The other side dropped, losing the game at the current cube.
    Drop {
        /// Who dropped.
        side: Side,
    },
    /// A side resigned the game.
    Resign {
        /// Who.
        side: Side,
        /// Single, gammon or backgammon.
        value: ResignKind,
    },
    /// The next game of the match began.
    NextGame,
}

impl BgAction {
    /// The dice of a roll: both dice of a side's roll, or White's and Black's
    /// die of an opening roll; `None` for any other action.
    pub fn rolled(&self) -> Option<[u8; 2]> {
        match self {
            BgAction::Roll { dice, .. } => Some(*dice),
            BgAction::OpeningRoll { white, black } => Some([*white, *black]),
            _ => None,
        }
    }
}
