//! What a player's account sees: the history of finished games, the
//! leaderboards and the rating changes after a rated game.

use serde::{Deserialize, Serialize};

use super::{AiLevel, GameRecord, GameResult, PlayerId, RoomOptions, SeatInfo};
use crate::seat::Seat;

/// Which part of the rating history a leaderboard covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeaderboardPeriod {
    /// Everyone with a rating, by rating.
    #[default]
    AllTime,
    /// The weekly list: players with a rated result in the last 7 days, by
    /// the rating points they gained in those days.
    Week,
}

/// One line of a leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeaderboardEntry {
    /// 1 for the top.
    pub rank: u32,
    /// The player.
    pub player_id: PlayerId,
    /// The registered name.
    pub name: String,
    /// The current Glicko-2 rating, rounded.
    pub rating: i32,
    /// The rating deviation, rounded.
    pub deviation: i32,
    /// True while the deviation is high: the rating is still a guess.
    pub provisional: bool,
    /// Rated results counted (in the period).
    pub games: u32,
    /// Weekly list only: rating points gained in the last 7 days.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change: Option<i32>,
}

/// One of a bot account's API tokens, as listed (never the secret).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiTokenInfo {
    /// The token's id.
    pub id: String,
    /// Its label.
    pub label: String,
    /// When it was created (Unix ms).
    pub created_at: i64,
    /// Whether it was revoked (a revoked token no longer signs in).
    #[serde(default)]
    pub revoked: bool,
}

/// An AI level's fixed, published rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiRating {
    /// The level.
    pub level: AiLevel,
    /// Its rating on the same scale as players'.
    pub rating: i32,
}

/// How one player's rating moved after a rated game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingChange {
    /// The player's seat in that game.
    pub seat: Seat,
    /// The player.
    pub player_id: PlayerId,
    /// Rating before, rounded.
    pub before: i32,
    /// Rating after, rounded.
    pub after: i32,
    /// Whether the new rating is still provisional.
    pub provisional: bool,
}

/// A finished game as listed in a player's history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The game's id; open it with `get_game`.
    pub game_id: String,
    /// The room's options (game, rules, clock, rated).
    pub options: RoomOptions,
    /// Both seats and who sat there.
    pub seats: Vec<SeatInfo>,
    /// How it ended.
    pub result: GameResult,
    /// How many actions the record holds.
    pub actions: u32,
    /// Unix milliseconds.
    pub started_at: i64,
    /// Unix milliseconds.
    pub ended_at: i64,
}

impl GameSummary {
    /// The name of whoever sat in `seat`, if anyone did.
    pub fn player_name(&self, seat: Seat) -> Option<&str> {
        self.seats
            .iter()
            .find(|s| s.seat == seat)
            .and_then(|s| s.player.as_ref())
            .map(|p| p.name.as_str())
    }
}

/// A finished game with its whole record, for the replay viewer and export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FinishedGame {
    /// Who, what and how it ended.
    pub summary: GameSummary,
    /// Every move, roll and cube action.
    pub record: GameRecord,
}
