//! Backgammon rules: positions, dice, move generation, notation, gnubg IDs and
//! the match state machine (cube, Crawford, Jacoby, scoring).
//!
//! Two views of the board exist:
//!
//! * [`Position`] is seen from the side to move (wildbg style) and is what move
//!   generation and AIs work on. The mover moves from 24 down to 1.
//! * [`Board`] is absolute (White's numbering) and is what clients are shown.
//!
//! The rules never roll dice: every function that needs dice takes them as an
//! argument, so games can be replayed from their record. Nothing in this module
//! panics on bad input; errors are reported as [`BgError`].

mod action;
mod dice;
mod game;
mod ids;
mod movegen;
mod notation;
mod position;

pub use action::BgAction;
pub use dice::Dice;
pub use game::{
    BgMatch, Board, Cube, EndReason, GameOutcome, GamePhase, MAX_CUBE, MAX_MATCH_LENGTH,
    MatchConfig, ResignKind, RollOutcome,
};
pub use ids::{GameState, MatchId};
pub use notation::{Move, Play};
pub use position::{GameResult, GameResultKind, Position};

use serde::{Deserialize, Serialize};

/// One of the two players. White is gnubg's player 0, Black is player 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// White (gnubg player 0).
    White,
    /// Black (gnubg player 1).
    Black,
}

impl Side {
    /// The other side.
    pub const fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for White, 1 for Black (index into score, bar and off arrays).
    pub const fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }
}

/// Everything that can go wrong in the backgammon rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BgError {
    /// The action was made by the side that is not to act.
    #[error("not your turn")]
    NotYourTurn,
    /// The action does not fit the current phase of the game.
    #[error("action not allowed in this phase")]
    WrongPhase,
    /// The play is not one of the legal plays for the dice.
    #[error("illegal play")]
    IllegalPlay,
    /// Doubling (or taking/dropping) is not allowed now.
    #[error("cube action not allowed")]
    CubeNotAllowed,
    /// The move notation could not be parsed.
    #[error("bad notation: {0}")]
    BadNotation(String),
    /// The gnubg Position ID is malformed or describes an impossible position.
    #[error("bad position id")]
    BadPositionId,
    /// The gnubg Match ID is malformed.
    #[error("bad match id")]
    BadMatchId,
    /// A die value outside 1..=6.
    #[error("bad dice")]
    BadDice,
    /// The match configuration is invalid.
    #[error("bad match config: {0}")]
    BadConfig(String),
    /// The position is not valid (checker counts, overlapping points).
    #[error("bad position: {0}")]
    BadPosition(String),
    /// The match is over; no further games.
    #[error("match is over")]
    MatchOver,
}
