//! [`LiveGame`]: the rules state of either game, as replayed from a record.

use crate::backgammon::BgMatch;
use crate::gomoku::Gomoku;

use super::{ActionRecord, ReplayError, apply_bg, apply_gomoku};

/// A replayed game: the live rules state rebuilt from a record.
#[derive(Debug, Clone, PartialEq)]
pub enum LiveGame {
    /// Gomoku.
    Gomoku(Gomoku),
    /// Backgammon.
    Backgammon(BgMatch),
}

impl LiveGame {
    /// Applies one recorded action to the live game.
    ///
    /// # Errors
    /// The rules' refusal, or [`ReplayError::WrongGame`].
    pub fn apply(&mut self, action: &ActionRecord, index: usize) -> Result<(), ReplayError> {
        match (self, action) {
            (LiveGame::Gomoku(game), ActionRecord::Gomoku(a)) => {
                apply_gomoku(game, a).map_err(|error| ReplayError::Gomoku { index, error })
            }
            (LiveGame::Backgammon(game), ActionRecord::Backgammon(a)) => {
                apply_bg(game, a).map_err(|error| ReplayError::Backgammon { index, error })
            }
            _ => Err(ReplayError::WrongGame),
        }
    }
}
