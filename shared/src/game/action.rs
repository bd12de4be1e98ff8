//! The actions of both games: what a seated player asks for
//! ([`PlayerAction`]), and what enters a record ([`ActionRecord`], with
//! [`BgAction`] for Backgammon and [`GomokuAction`] for Gomoku), each applied
//! to the rules by [`apply_gomoku`] and [`apply_bg`].

use serde::{Deserialize, Serialize};

pub use crate::backgammon::BgAction;
use crate::backgammon::{BgError, BgMatch, Dice, Play};
use crate::gomoku::{Gomoku, GomokuAction, GomokuError, Point, Swap2Choice};

/// One game action a seated player asks for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlayerAction {
    /// Gomoku: place a stone.
    Place {
        /// Where.
        point: Point,
    },
    /// Gomoku swap2: the colour choice or "place two more".
    Choose {
        /// The choice.
        choice: Swap2Choice,
    },
    /// Backgammon: roll the dice (the server rolls them).
    Roll,
    /// Backgammon: a whole play, in standard notation from the mover's side
    /// (`"24/18 13/11"`, `"bar/22*"`, `"6/off"`, `"8/5(2)"`); an empty string
    /// when no move is possible.
    Play {
        /// The play.
        play: Play,
    },
    /// Backgammon: offer a double.
    Double,
    /// Backgammon: take the offered cube.
    Take,
    /// Backgammon: drop (pass) the offered cube.
    Drop,
}

/// One recorded action of either game, as sent in events.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ActionRecord {
    /// A Gomoku action.
    Gomoku(GomokuAction),
    /// A Backgammon action.
    Backgammon(BgAction),
}

/// Applies one Gomoku action to the rules.
///
/// # Errors
/// The rules' [`GomokuError`].
pub fn apply_gomoku(game: &mut Gomoku, action: &GomokuAction) -> Result<(), GomokuError> {
    game.apply(*action)
}

/// Applies one Backgammon action to the rules.
///
/// # Errors
/// The rules' [`BgError`].
pub fn apply_bg(game: &mut BgMatch, action: &BgAction) -> Result<(), BgError> {
    match action {
        BgAction::OpeningRoll { white, black } => game.opening_roll(*white, *black).map(|_| ()),
        BgAction::Roll { side, dice } => game.roll(*side, Dice::new(dice[0], dice[1])?).map(|_| ()),
        BgAction::Play { side, play } => game.play(*side, play),
        BgAction::Double { side } => game.double(*side),
        BgAction::Take { side } => game.take(*side),
        BgAction::Drop { side } => game.drop_cube(*side),
        BgAction::Resign { side, value } => game.resign(*side, *value),
        BgAction::NextGame => game.start_next_game(),
    }
}

impl From<GomokuAction> for ActionRecord {
    fn from(action: GomokuAction) -> ActionRecord {
        ActionRecord::Gomoku(action)
    }
}

impl From<BgAction> for ActionRecord {
    fn from(action: BgAction) -> ActionRecord {
        ActionRecord::Backgammon(action)
    }
}
