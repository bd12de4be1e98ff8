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

/// The AI's decision for `seat` in `game`, within `budget`, reproducible for a
/// given `seed`. `None` when the seat has nothing to do.
pub fn choose(
    level: AiLevel,
    game: &LiveGame,
    seat: Seat,
    budget: Duration,
    seed: u64,
) -> Option<PlayerAction> {
    match game {
        LiveGame::Gomoku(g) => gomoku::choose(level, g, seat, budget, seed),
        LiveGame::Backgammon(m) => backgammon::choose(level, m, seat, budget, seed),
    }
}
