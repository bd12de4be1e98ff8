//! [`ReplayError`]: why a record, or one action, does not replay.

use crate::backgammon::BgError;
use crate::gomoku::GomokuError;

/// Why a record does not replay.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// A Gomoku action was refused by the rules.
    #[error("gomoku action {index}: {error}")]
    Gomoku {
        /// Which action (0-based).
        index: usize,
        /// Why.
        error: GomokuError,
    },
    /// A Backgammon action was refused by the rules.
    #[error("backgammon action {index}: {error}")]
    Backgammon {
        /// Which action (0-based).
        index: usize,
        /// Why.
        error: BgError,
    },
    /// The record's game does not match the live game.
    #[error("action is for the other game")]
    WrongGame,
}
