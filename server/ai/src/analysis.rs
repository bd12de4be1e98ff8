//! Analysis of finished games and hints during running ones, by the Expert
//! of each game: the entry points the server calls on its blocking pool.
//!
//! - [`analyse`]: a whole record, judged decision by decision
//!   ([`crate::backgammon::review`], [`crate::gomoku::review`]).
//! - [`hints`]: the best few actions for the player to act
//!   ([`crate::backgammon::hints`], [`crate::gomoku::hints`]).

use tabula_shared::backgammon::BgError;
use tabula_shared::game::{LiveGame, ReplayError};
use tabula_shared::gomoku::GomokuError;
use tabula_shared::protocol::{GameAnalysis, GameRecord, Hint, PlayerAction};
use tabula_shared::seat::{Seat, side_of};

use crate::backgammon::hints::HintAction;

/// Nodes per Gomoku position, for reviews and hints, when the caller has no
/// other figure: about a fifth of a second of the Expert's search in a
/// release build.
pub const GOMOKU_NODES: u64 = 100_000;

/// Why a game could not be analysed.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// The record's Gomoku action `index` is refused by the rules.
    #[error("gomoku action {index}: {error}")]
    Gomoku {
        /// Which action.
        index: usize,
        /// Why.
        error: GomokuError,
    },
    /// The record's Backgammon action `index` is refused by the rules.
    #[error("backgammon action {index}: {error}")]
    Backgammon {
        /// Which action.
        index: usize,
        /// Why.
        error: BgError,
    },
    /// The record mixes the games.
    #[error("an action is for the other game")]
    WrongGame,
    /// The Backgammon Expert's weights failed their check.
    #[error("the Expert's weights: {0}")]
    Weights(String),
}

impl From<ReplayError> for AnalysisError {
    fn from(e: ReplayError) -> AnalysisError {
        match e {
            ReplayError::Gomoku { index, error } => AnalysisError::Gomoku { index, error },
            ReplayError::Backgammon { index, error } => AnalysisError::Backgammon { index, error },
            ReplayError::WrongGame => AnalysisError::WrongGame,
        }
    }
}

/// Decisions (record actions) the analysis of `record` walks through: the
/// `total` of its progress reports.
pub fn steps(record: &GameRecord) -> u32 {
    record.len() as u32
}

/// Analyses a whole game; `gomoku_nodes` bounds each Gomoku search, and
/// `progress` hears `(done, total)` as the work goes on. Reproducible: the
/// same record gives the same analysis.
///
/// # Errors
/// See [`AnalysisError`].
pub fn analyse(
    record: &GameRecord,
    gomoku_nodes: u64,
    progress: &mut dyn FnMut(u32, u32),
) -> Result<GameAnalysis, AnalysisError> {
    match record {
        GameRecord::Gomoku { config, actions } => Ok(GameAnalysis::Gomoku(
            crate::gomoku::review::review_game(*config, actions, gomoku_nodes, progress)?,
        )),
        GameRecord::Backgammon {
            config, actions, ..
        } => Ok(GameAnalysis::Backgammon(
            crate::backgammon::review::review_match(*config, actions, progress)?,
        )),
    }
}

/// At most three suggestions for `seat` in `game`, best first; empty when
/// `seat` has nothing to decide. `gomoku_nodes` bounds each Gomoku search.
pub fn hints(game: &LiveGame, seat: Seat, gomoku_nodes: u64) -> Vec<Hint> {
    match game {
        LiveGame::Gomoku(g) => {
            if g.to_act() != Some(seat) {
                return Vec::new();
            }
            crate::gomoku::hints::hints(g, gomoku_nodes)
                .into_iter()
                .map(|(point, value)| Hint {
                    action: PlayerAction::Place { point },
                    label: point.to_string(),
                    value,
                })
                .collect()
        }
        LiveGame::Backgammon(m) => crate::backgammon::hints::hints(m, side_of(seat))
            .into_iter()
            .map(|(action, value)| {
                let (action, label) = match action {
                    HintAction::Roll => (PlayerAction::Roll, "roll".to_string()),
                    HintAction::Double => (PlayerAction::Double, "double".to_string()),
                    HintAction::Take => (PlayerAction::Take, "take".to_string()),
                    HintAction::Drop => (PlayerAction::Drop, "drop".to_string()),
                    HintAction::Play(play) => {
                        let label = play.to_string();
                        (PlayerAction::Play { play }, label)
                    }
                };
                Hint {
                    action,
                    label,
                    value,
                }
            })
            .collect(),
    }
}
