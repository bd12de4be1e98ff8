//! Gomoku rules: board, coordinates, win detection, renju forbidden points
//! and the swap2 opening.
//!
//! This module owns everything about a Gomoku game that does not involve a
//! clock or a network: the [`Gomoku`] state machine (turn order, opening
//! phases, legality, outcome, undo), the bare [`Board`] used by search, the
//! incremental win check [`five_at`], the brute-force reference scan
//! [`scan_fives`], and the renju forbidden-move test in [`renju`]. Resigning,
//! draw offers and time loss are the server's business.
//!
//! # Coordinates
//! A [`Point`] is zero-based `(x, y)`; its text form is the standard notation
//! with consecutive column letters `a..=y` (no letter skipped) and rows from
//! 1: `x = 7, y = 7` is `h8`, the centre of the 15x15 board.
//!
//! # Rules
//! * [`Rule::Freestyle`]: five or more in a row wins.
//! * [`Rule::Standard`]: exactly five wins, for both colours; an overline is
//!   just a line.
//! * [`Rule::Renju`]: white wins with five or more, black only with exactly
//!   five, and some points are forbidden for black (below).
//!
//! The board is full with no winner: draw. (Under renju, a position where
//! black's only empty points are all forbidden is not treated specially.)
//!
//! # Renju forbidden points (RIF definition)
//! A black move at `p` is judged with the stone on `p`:
//! 1. If it makes **exactly five** in some line it is legal, whatever else it
//!    makes (five takes precedence).
//! 2. Otherwise an **overline** (six or more in a row through `p`) is
//!    forbidden.
//! 3. A **four** is a line through `p` where one more black stone makes
//!    exactly five. A contiguous `.XXXX.` with both ends completing exactly
//!    five is a *straight four* and counts as one four; two different
//!    completion points that are not the two ends of one contiguous four are
//!    two fours, even on the same line (`X.XXX.X`, `XX.XX.XX`,
//!    `XXX.X.XXX`). Two or more fours: **double-four**, forbidden.
//! 4. A **three** is a line through `p` (not already a four) where one more
//!    black stone `q` makes a straight four, and `q` is itself not forbidden
//!    for black (judged recursively with `p` on the board, to a depth of
//!    [`renju::MAX_DEPTH`], beyond which the three is taken as real). Two or
//!    more lines with a three: **double-three**, forbidden. A four-three is
//!    legal.
//!
//! Forbidden points apply to every black stone, including the opening
//! stones of swap2 (which can never form such shapes in practice).
//!
//! # Openings
//! * [`Opening::None`]: [`Seat::First`] is black and moves first.
//! * [`Opening::Swap2`] (Gomocup): the first seat places three stones
//!   (black, white, black); the second seat then chooses to play white, to
//!   play black, or to place two more stones (white, black) and let the first
//!   seat choose black or white. Then play continues with white's move.
//!
//! # Undo
//! [`Gomoku::undo`] takes back the last stone *and any swap2 choice made
//! after it*. So undo right after a colour choice (no stone placed since)
//! removes the choice together with the stone before it: the opening goes
//! back to the placing phase, with the colours undecided again. An outcome
//! is always cleared by undo (it was made by the last stone).

#![warn(missing_docs)]

mod board;
mod game;
mod point;
pub mod renju;

pub use board::{Board, DIRECTIONS, MAX_SIZE, MIN_SIZE, five_at, scan_fives};
pub use game::{Gomoku, GomokuAction, GomokuRecord};
pub use point::{NOTATION_MAX, Point};

use crate::seat::Seat;

use serde::{Deserialize, Serialize};

/// Which lines win, and whether black has forbidden points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// Five or more in a row wins.
    #[default]
    Freestyle,
    /// Exactly five in a row wins; overlines do not, for either colour.
    Standard,
    /// White wins with five or more, black with exactly five; black may not
    /// play overline, double-four or double-three points.
    Renju,
}

impl Rule {
    /// Does a run of `len` stones of colour `stone` win under this rule?
    pub const fn is_win_length(self, stone: Stone, len: usize) -> bool {
        match (self, stone) {
            (Rule::Freestyle, _) | (Rule::Renju, Stone::White) => len >= 5,
            (Rule::Standard, _) | (Rule::Renju, Stone::Black) => len == 5,
        }
    }
}

/// How the colours are assigned at the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Opening {
    /// No opening rule: the first seat is black and moves first.
    #[default]
    None,
    /// Gomocup swap2.
    Swap2,
}

/// A stone colour. Black moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stone {
    /// Black, the first colour to move.
    Black,
    /// White.
    White,
}

impl Stone {
    /// The other colour.
    pub const fn opponent(self) -> Stone {
        match self {
            Stone::Black => Stone::White,
            Stone::White => Stone::Black,
        }
    }
}

/// Game settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct GomokuConfig {
    /// Board side, `9..=25` (15 by default; 19 is the other common size).
    pub size: u8,
    /// Winning and forbidden-point rule.
    pub rule: Rule,
    /// Opening rule.
    pub opening: Opening,
}

impl Default for GomokuConfig {
    fn default() -> Self {
        GomokuConfig {
            size: 15,
            rule: Rule::Freestyle,
            opening: Opening::None,
        }
    }
}

/// A decision in the swap2 opening.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Swap2Choice {
    /// The choosing seat takes black.
    PlayBlack,
    /// The choosing seat takes white.
    PlayWhite,
    /// The second seat places a white and a black stone and hands the colour
    /// choice back (only allowed at the first choice).
    PlaceTwo,
}

/// Where the game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Swap2: the first seat places black, white, black.
    Swap2PlaceThree,
    /// Swap2: the second seat chooses white, black or to place two more.
    Swap2Choose,
    /// Swap2: the second seat places white, black.
    Swap2PlaceTwo,
    /// Swap2: the first seat chooses black or white.
    Swap2FinalChoose,
    /// Normal alternating play.
    Main,
    /// The game has an [`Outcome`].
    Over,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A five (or a winning overline) was made.
    Win {
        /// Winning colour.
        stone: Stone,
        /// Winning seat.
        seat: Seat,
        /// The winning run, five or more points in line order, for
        /// highlighting.
        line: Vec<Point>,
    },
    /// The board filled up without a winner.
    Draw,
}

/// Everything that can go wrong; no function in this module panics instead.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GomokuError {
    /// Board size outside `9..=25`.
    #[error("board size {0} is not supported (must be {MIN_SIZE} to {MAX_SIZE})")]
    InvalidSize(u8),
    /// Text that is neither `h8` notation nor `x,y` coordinates.
    #[error("cannot read {0:?} as a point (expected e.g. \"h8\" or \"7,7\")")]
    BadNotation(String),
    /// The point is outside the board.
    #[error("point {0} is off the board")]
    OffBoard(Point),
    /// The point already holds a stone.
    #[error("point {0} is occupied")]
    Occupied(Point),
    /// Renju: the point is forbidden for black.
    #[error("point {0} is forbidden for black (renju)")]
    Forbidden(Point),
    /// The seat tried to act when the other seat must.
    #[error("it is not {0:?}'s turn")]
    NotYourTurn(Seat),
    /// The action does not fit the current phase (e.g. choosing when no
    /// choice is pending, or placing while a choice is pending).
    #[error("not allowed in phase {0:?}")]
    WrongPhase(Phase),
    /// A swap2 choice that is not offered now (`PlaceTwo` at the final
    /// choice).
    #[error("choice {0:?} is not available now")]
    InvalidChoice(Swap2Choice),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}
