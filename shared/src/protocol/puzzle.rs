//! Puzzles on the wire: `puzzle` asks for one to solve (the next for you, or
//! the day's), `solve_puzzle` sends your answer, and `puzzle_solved` says
//! whether it was right, with the line and how your puzzle rating moved.
//!
//! A puzzle is a study position ([`StudyPosition`]) from a finished game
//! where one answer is proven right: a first four the solver proves the
//! only one that wins by fours, the only first threat that wins by
//! threats, or the only stone that stops the other side's fours (Gomoku),
//! or a play or cube action that the engine rates clearly above the rest
//! (Backgammon; the margin and the depth that decided it travel with the
//! solution). The answer is checked
//! by the server; the puzzle as sent does not hold it.

use serde::{Deserialize, Serialize};

use super::study::CubeAction;
use crate::backgammon::Play;
use crate::gomoku::Point;
use crate::study::StudyPosition;

/// What a puzzle asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PuzzleTheme {
    /// Gomoku: the side to move wins by continuous fours; find the first.
    WinByFours,
    /// Gomoku: the side to move wins by fours and open threes (and has no
    /// win by fours alone); find the first threat.
    WinByThreats,
    /// Gomoku: the other side threatens a win by fours; find the one stone
    /// that stops it.
    OnlyDefence,
    /// Backgammon: find the best play of the roll.
    BestPlay,
    /// Backgammon: find the cube action (double or not; take or pass).
    CubeAction,
}

impl PuzzleTheme {
    /// Every theme, in the order the client lists them.
    pub const ALL: [PuzzleTheme; 5] = [
        PuzzleTheme::WinByFours,
        PuzzleTheme::WinByThreats,
        PuzzleTheme::OnlyDefence,
        PuzzleTheme::BestPlay,
        PuzzleTheme::CubeAction,
    ];

    /// The theme's name on the wire (`win_by_fours`, ...).
    pub fn name(self) -> &'static str {
        match self {
            PuzzleTheme::WinByFours => "win_by_fours",
            PuzzleTheme::WinByThreats => "win_by_threats",
            PuzzleTheme::OnlyDefence => "only_defence",
            PuzzleTheme::BestPlay => "best_play",
            PuzzleTheme::CubeAction => "cube_action",
        }
    }
}

/// A puzzle to solve, without its answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// Its id (made from the position: the same position is one puzzle).
    pub id: String,
    /// What it asks.
    pub theme: PuzzleTheme,
    /// The position, with the side to answer to move (or to decide).
    pub position: StudyPosition,
    /// The puzzle's own Glicko-2 rating (it moves as players try it).
    pub rating: i32,
    /// How many players have tried it.
    pub plays: u32,
    /// The finished game it was found in, when it came from one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_id: Option<String>,
}

/// An answer to a puzzle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PuzzleAnswer {
    /// Gomoku: the first stone.
    Point {
        /// Where.
        point: Point,
    },
    /// Backgammon: the whole play of the roll (any order of the same
    /// checker moves that ends on the same board counts).
    Play {
        /// The play.
        play: Play,
    },
    /// Backgammon: the cube action.
    Cube {
        /// The action.
        action: CubeAction,
    },
}

/// A puzzle's solution, shown once it has been answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PuzzleSolution {
    /// The right answer.
    pub answer: PuzzleAnswer,
    /// The line after it, in notation (Gomoku: the winning fours and the
    /// forced blocks, ending on the five; Backgammon: the play itself).
    pub line: Vec<String>,
    /// Backgammon: how much better the answer is than the next best, in
    /// cubeful equity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<f32>,
    /// Backgammon: the plies of look-ahead that decided it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u8>,
}

/// How a player's puzzle rating moved with one answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleRatingChange {
    /// Before the answer.
    pub before: i32,
    /// After it.
    pub after: i32,
    /// Whether the rating is still provisional (few puzzles tried).
    pub provisional: bool,
}

/// A puzzle with its solution, as the harvest finds it and the server
/// keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SolvedPuzzle {
    /// What it asks.
    pub theme: PuzzleTheme,
    /// The position.
    pub position: StudyPosition,
    /// The answer and the line after it.
    pub solution: PuzzleSolution,
    /// The finished game it was found in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_id: Option<String>,
}

/// Why an answer cannot be checked against a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// A stone for a Backgammon puzzle, a cube action for a play, ...
    #[error("this puzzle is answered with {0}")]
    WrongKind(&'static str),
}

impl SolvedPuzzle {
    /// Its id: made from the position and the theme, so that the same
    /// puzzle found twice is one.
    pub fn id(&self) -> String {
        use sha2::{Digest, Sha256};
        let digest = Sha256::digest(format!("{}|{}", self.theme.name(), self.position.link()));
        let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        format!("z-{hex}")
    }

    /// The puzzle as a player gets it, without the answer.
    pub fn unsolved(&self, id: String, rating: i32, plays: u32) -> Puzzle {
        Puzzle {
            id,
            theme: self.theme,
            position: self.position.clone(),
            rating,
            plays,
            game_id: self.game_id.clone(),
        }
    }

    /// Whether `answer` is right. A Backgammon play counts when it ends on
    /// the same board as the solution's (the same checker moves in another
    /// order or notation).
    ///
    /// # Errors
    /// [`AnswerError::WrongKind`] for an answer of another kind than the
    /// puzzle's.
    pub fn check(&self, answer: &PuzzleAnswer) -> Result<bool, AnswerError> {
        match (&self.solution.answer, answer) {
            (PuzzleAnswer::Point { point: right }, PuzzleAnswer::Point { point }) => {
                Ok(right == point)
            }
            (PuzzleAnswer::Cube { action: right }, PuzzleAnswer::Cube { action }) => {
                Ok(right == action)
            }
            (PuzzleAnswer::Play { play: right }, PuzzleAnswer::Play { play }) => {
                let StudyPosition::Backgammon(setup) = &self.position else {
                    return Ok(false);
                };
                let after = |play: &Play| {
                    let mut m = setup.to_match().ok()?;
                    m.play(setup.on_roll, play).ok().map(|()| m.board())
                };
                Ok(after(play).is_some() && after(play) == after(right))
            }
            (PuzzleAnswer::Point { .. }, _) => Err(AnswerError::WrongKind("a point")),
            (PuzzleAnswer::Play { .. }, _) => Err(AnswerError::WrongKind("a play")),
            (PuzzleAnswer::Cube { .. }, _) => Err(AnswerError::WrongKind("a cube action")),
        }
    }
}
