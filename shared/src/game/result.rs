//! How a finished game ended: [`GameResult`] and its [`EndReason`].

use serde::{Deserialize, Serialize};

use crate::gomoku::Point;
use crate::seat::Seat;

/// How a finished game ended, beyond what the rules decide on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Five in a row, or the last checker borne off.
    Rules,
    /// The board filled up.
    BoardFull,
    /// A player resigned.
    Resigned,
    /// A Backgammon cube was dropped.
    Dropped,
    /// Both players agreed to a draw.
    DrawAgreed,
    /// A clock ran out.
    Timeout,
    /// A player stayed away past the reconnect grace period and the other claimed the win.
    Abandoned,
}

/// The result of a finished game (or Backgammon match).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// The winning seat, or none for a draw.
    pub winner: Option<Seat>,
    /// Why it ended.
    pub reason: EndReason,
    /// Gomoku: the winning line to highlight.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub line: Vec<Point>,
    /// Backgammon: the final match score, first seat (white) then second (black).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<[u32; 2]>,
}
