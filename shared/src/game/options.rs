//! Which game is played, and with which rules: [`GameOptions`] and
//! [`GameKind`].

use serde::{Deserialize, Serialize};

use crate::backgammon::MatchConfig;
use crate::gomoku::GomokuConfig;

/// The game a room plays and its options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum GameOptions {
    /// Gomoku: board size, rule set and opening.
    Gomoku(GomokuConfig),
    /// Backgammon: match length (0 = money game), cube, Jacoby, Crawford.
    Backgammon(MatchConfig),
}

impl GameOptions {
    /// Which game.
    pub fn kind(&self) -> GameKind {
        match self {
            GameOptions::Gomoku(_) => GameKind::Gomoku,
            GameOptions::Backgammon(_) => GameKind::Backgammon,
        }
    }
}

/// The two games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    /// Five in a row.
    Gomoku,
    /// Backgammon.
    Backgammon,
}
