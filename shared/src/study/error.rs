//! [`SetupError`]: why a pasted or hand-made position is refused, naming
//! the part that is wrong.

use serde::{Deserialize, Serialize};

use crate::backgammon::Side;
use crate::gomoku::Point;

/// Why the analysis board refuses a position. Each variant names what is
/// wrong so that a player can mend the text they pasted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SetupError {
    /// The text is none of the notations the board reads.
    #[error(
        "not a position the board can read: paste a gnubg Position ID (with its Match ID), an XGID, a Gomoku move list, PSQ or SGF"
    )]
    Unrecognised,
    /// A gnubg Position ID that does not decode.
    #[error("the Position ID {id:?} is not valid: {reason}")]
    PositionId {
        /// The ID as pasted.
        id: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A gnubg Match ID that does not decode.
    #[error("the Match ID {id:?} is not valid: {reason}")]
    MatchId {
        /// The ID as pasted.
        id: String,
        /// What is wrong with it.
        reason: String,
    },
    /// An XGID field that does not read.
    #[error("XGID field {field} ({name}) is not valid: {reason}")]
    Xgid {
        /// The field's number, from 1 (the position).
        field: u8,
        /// The field's name.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A side with other than 15 checkers.
    #[error("{side:?} has {count} checkers; each side has 15")]
    CheckerCount {
        /// The side.
        side: Side,
        /// How many it has (on the board, the bar and off).
        count: u32,
    },
    /// Both colours on one point, or a bar count out of range.
    #[error("the board is not valid: {0}")]
    Board(String),
    /// A cube that cannot be: a value that is not a power of two up to 64, a
    /// turned cube in the middle, a cube in a game without one.
    #[error("the cube is not valid: {0}")]
    Cube(String),
    /// Dice outside 1 to 6, or dice rolled while a double is offered.
    #[error("the dice are not valid: {0}")]
    Dice(String),
    /// A score or match length that cannot be.
    #[error("the score is not valid: {0}")]
    Score(String),
    /// The game in the position is already over.
    #[error("the game in this position is over: {0}")]
    GameOver(String),
    /// A Gomoku board size outside 9 to 25.
    #[error("a Gomoku board is 9 to 25 points wide, not {0}")]
    Size(u8),
    /// A Gomoku point that does not read or is off the board.
    #[error("{text:?} is not a point on this board: {reason}")]
    Point {
        /// The text of the point.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Two stones on one point.
    #[error("there are two stones on {0}")]
    Occupied(Point),
    /// A Gomoku record (PSQ or SGF) that does not read.
    #[error("the {format} record does not read: {reason}")]
    Record {
        /// `PSQ` or `SGF`.
        format: String,
        /// What the reader said.
        reason: String,
    },
}
