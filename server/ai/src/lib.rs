//! `tabula-ai`: Tabula's AI players. The server's rooms call [`choose`] on
//! the blocking pool; the answer goes through the same path as a human's
//! action.
//!
//! - [`gomoku`]: Beginner (the seed's scoring table), Casual and
//!   Intermediate (shallow alpha-beta), Advanced and Expert (threat search,
//!   the Advanced on a node budget).
//! - [`backgammon`]: two networks compiled in: the Expert's
//!   (`data/bg-expert-v3.bin`, trained on look-ahead labels) looks 2-ply
//!   ahead and is the Advanced at 0-ply; the first, TD-trained one
//!   (`data/bg-expert-v1.bin`) is the Intermediate at 0-ply and, with
//!   evaluation noise, the two levels below.
//! - [`analysis`]: the review of a finished game and hints, by the Experts.
//! - [`rng`]: the one seeded generator every level, tool and test draws from.
//!
//! The crate depends on the game rules (`tabula-shared`) only, and holds
//! what plays and analyses. The tools that measure, train and tune it are
//! the `tabula-ai-tools` crate (`server/ai-tools/`); the evaluation fit
//! (`gomoku::tune`, feature `tuning`) and the test suites
//! (`gomoku::tactics`, `gomoku::puzzles`, feature `suites`) are compiled
//! only for them (and for this crate's own tests).

pub mod analysis;
pub mod backgammon;
pub mod gomoku;
pub mod harvest;
pub mod rng;
pub mod study;

use std::time::Duration;

use tabula_shared::game::LiveGame;
use tabula_shared::protocol::{AiLevel, PlayerAction};
use tabula_shared::seat::Seat;

/// AI strength, as the game AIs know it (the levels players choose, see
/// [`AiLevel`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// The weakest.
    Beginner,
    /// Between the Beginner and the Intermediate.
    Casual,
    /// The middle level.
    Intermediate,
    /// Between the Intermediate and the Expert.
    Advanced,
    /// Full strength.
    Expert,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 5] = [
        Level::Beginner,
        Level::Casual,
        Level::Intermediate,
        Level::Advanced,
        Level::Expert,
    ];

    /// The level's name, as players and the tools' flags write it.
    pub fn name(self) -> &'static str {
        AiLevel::from(self).name()
    }

    /// The level named `name` (`"beginner"` ... `"expert"`).
    pub fn from_name(name: &str) -> Option<Level> {
        AiLevel::from_name(name).map(Level::from)
    }
}

impl From<AiLevel> for Level {
    fn from(level: AiLevel) -> Level {
        match level {
            AiLevel::Beginner => Level::Beginner,
            AiLevel::Casual => Level::Casual,
            AiLevel::Intermediate => Level::Intermediate,
            AiLevel::Advanced => Level::Advanced,
            AiLevel::Expert => Level::Expert,
        }
    }
}

impl From<Level> for AiLevel {
    fn from(level: Level) -> AiLevel {
        match level {
            Level::Beginner => AiLevel::Beginner,
            Level::Casual => AiLevel::Casual,
            Level::Intermediate => AiLevel::Intermediate,
            Level::Advanced => AiLevel::Advanced,
            Level::Expert => AiLevel::Expert,
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
/// They come from our own arena figures (README, docs/AI.md), not from
/// rated play:
/// - Gomoku: the Beginner anchored at 1100, each level above it placed by
///   its measured Elo gap to the level below (+436, +407, +436, +330).
/// - Backgammon: pubeval taken as 1500, each level placed by the Elo of
///   its share of games won against pubeval (duplicate dice, 4,000 games:
///   45.9%, 62.5%, 65.7%, 69.0%); the Expert, whose 1 s moves make such a
///   match take hours, one step of 25 above the Advanced (it errs less
///   than half as often by gnubg's judgement). A single game is one
///   result, so the gaps are smaller than Gomoku's.
pub fn published_rating(game: tabula_shared::protocol::GameKind, level: AiLevel) -> i32 {
    use tabula_shared::protocol::GameKind;
    match (game, level) {
        (GameKind::Gomoku, AiLevel::Beginner) => 1100,
        (GameKind::Gomoku, AiLevel::Casual) => 1536,
        (GameKind::Gomoku, AiLevel::Intermediate) => 1943,
        (GameKind::Gomoku, AiLevel::Advanced) => 2379,
        (GameKind::Gomoku, AiLevel::Expert) => 2709,
        (GameKind::Backgammon, AiLevel::Beginner) => 1470,
        (GameKind::Backgammon, AiLevel::Casual) => 1590,
        (GameKind::Backgammon, AiLevel::Intermediate) => 1615,
        (GameKind::Backgammon, AiLevel::Advanced) => 1640,
        (GameKind::Backgammon, AiLevel::Expert) => 1665,
    }
}
