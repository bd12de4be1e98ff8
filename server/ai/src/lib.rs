//! `tabula-ai`: Tabula's AI players. The server's rooms call [`choose`] on
//! the blocking pool; the answer goes through the same path as a human's
//! action.
//!
//! - [`gomoku`]: Beginner (the seed's scoring table), Intermediate (shallow
//!   alpha-beta), Expert (threat search).
//! - [`backgammon`]: Beginner (the seed's tuned heuristic), Intermediate (the
//!   same with a 1-ply look-ahead), Expert (a TD-trained network whose
//!   weights are compiled in from `data/bg-expert-v1.bin`).
//! - [`analysis`]: the review of a finished game and hints, by the Experts.
//! - [`sample_games`]: whole recorded games between levels (benches, tests).
//! - [`rng`]: the one seeded generator every level, tool and test draws from.
//!
//! The crate depends on the game rules (`tabula-shared`) only. Its tools are
//! binaries here: `pbrain-tabula` (Gomocup engine), `gomoku-arena`,
//! `bg-engine` (bgharness engine), `bg-arena`, and `bg-train`, which holds
//! the training code itself (TD(λ) self-play, the heuristic's tuner) so that
//! the library does not.

pub mod analysis;
pub mod backgammon;
pub mod gomoku;
pub mod rng;
pub mod sample_games;

use std::time::Duration;

use tabula_shared::game::LiveGame;
use tabula_shared::protocol::{AiLevel, PlayerAction};
use tabula_shared::seat::Seat;

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

/// Whether the AI playing `side` accepts the opponent's Backgammon
/// resignation of `value` (see [`backgammon::accepts_resignation`]; every
/// level judges the same way). Quick enough for the room's task: one
/// network evaluation.
pub fn accepts_resignation(
    game: &tabula_shared::backgammon::BgMatch,
    side: tabula_shared::backgammon::Side,
    value: tabula_shared::backgammon::ResignKind,
) -> bool {
    backgammon::accepts_resignation(game, side, value.result_kind().points())
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
            let side = tabula_shared::seat::side_of(seat);
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

/// The AI levels' fixed, published ratings, on the players' Glicko-2 scale
/// (new players start at 1500), so players can see how they compare.
///
/// They come from our own arena figures (README), not from rated play:
/// - Gomoku: Beginner anchored at 1100; Intermediate +400 (Expert scored
///   91.5% against Intermediate, +413 Elo, and 99-100% against Beginner,
///   about +800); Expert +800.
/// - Backgammon: a match is one result, and the levels are closer: against
///   pubeval, Expert wins 69% of games (+0.58 points per game), Intermediate
///   scores -0.05 and Beginner -0.17; with pubeval near 1500 that gives
///   1650 / 1475 / 1450.
pub fn published_rating(game: tabula_shared::protocol::GameKind, level: AiLevel) -> i32 {
    use tabula_shared::protocol::GameKind;
    match (game, level) {
        (GameKind::Gomoku, AiLevel::Beginner) => 1100,
        (GameKind::Gomoku, AiLevel::Intermediate) => 1500,
        (GameKind::Gomoku, AiLevel::Expert) => 1900,
        (GameKind::Backgammon, AiLevel::Beginner) => 1450,
        (GameKind::Backgammon, AiLevel::Intermediate) => 1475,
        (GameKind::Backgammon, AiLevel::Expert) => 1650,
    }
}
