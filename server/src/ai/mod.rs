//! The AI players. Rooms call [`choose`] on the blocking pool; the answer goes
//! through the same path as a human's action.
//!
//! - [`gomoku`]: Beginner (the seed's scoring table), Intermediate (shallow
//!   alpha-beta), Expert (threat search).
//! - [`backgammon`]: Beginner (the seed's tuned heuristic), Intermediate (the
//!   same with a 1-ply look-ahead), Expert (a TD-trained network).

pub mod backgammon;
pub mod gomoku;

use std::time::Duration;

use tabula_shared::gomoku::Seat;
use tabula_shared::protocol::{AiLevel, LiveGame, PlayerAction};

/// AI strength, as the game AIs know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// The seed's method.
    Beginner,
    /// A shallow search.
    Intermediate,
    /// Full strength.
    Expert,
}

impl From<AiLevel> for Level {
    fn from(level: AiLevel) -> Level {
        match level {
            AiLevel::Beginner => Level::Beginner,
            AiLevel::Intermediate => Level::Intermediate,
            AiLevel::Expert => Level::Expert,
        }
    }
}

/// The AI's decision for `seat` in `game`, within `budget`, reproducible for a
/// given `seed`. `None` when the seat has nothing to do.
pub fn choose(
    level: AiLevel,
    game: &LiveGame,
    seat: Seat,
    budget: Duration,
    seed: u64,
) -> Option<PlayerAction> {
    let level = Level::from(level);
    match game {
        LiveGame::Gomoku(g) => gomoku::choose(level, g, seat, budget, seed).map(|d| match d {
            gomoku::Decision::Place(point) => PlayerAction::Place { point },
            gomoku::Decision::Choose(choice) => PlayerAction::Choose { choice },
        }),
        LiveGame::Backgammon(m) => {
            let side = tabula_shared::protocol::side_of(seat);
            backgammon::choose(level, m, side, budget, seed).map(|d| match d {
                backgammon::Decision::Roll => PlayerAction::Roll,
                backgammon::Decision::Double => PlayerAction::Double,
                backgammon::Decision::Take => PlayerAction::Take,
                backgammon::Decision::Drop => PlayerAction::Drop,
                backgammon::Decision::Play(play) => PlayerAction::Play { play },
            })
        }
    }
}
