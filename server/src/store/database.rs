//! [`Database`]: the contract the store's two backends keep (the embedded
//! SQLite file and PostgreSQL). [`super::Store`] holds one as a `dyn
//! Database` and adds what is not SQL once, above it: the typed writes, the
//! analysis's parsing. A backend speaks SQL and nothing else; the rating
//! maths, the leaderboard's rows and the dice tallies it uses are written
//! once too (`ratings`, `views`).

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use tabula_shared::protocol::{
    DiceStatsReport, FinishedGame as GameView, GameKind, GameSummary, LeaderboardEntry,
    LeaderboardPeriod, RatingChange,
};

use super::error::StoreError;
use super::rows::{AppendedAction, PlayerRow, PuzzleListing};
use super::write::Write;

/// A backend's answer, once it has one.
pub(super) type Answer<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// What each backend does for the store.
pub(super) trait Database: Send + Sync {
    /// Sets how long callers wait for an answer before
    /// [`StoreError::TimedOut`].
    fn set_answer_within(&mut self, limit: Duration);

    /// Queues `write` now; the answer comes once it is committed, with how
    /// ratings moved. An `abandonable` write may be dropped unwritten when
    /// its caller stopped waiting; one that is not is written regardless.
    fn queue(&self, write: Write, abandonable: bool) -> Answer<'static, Vec<RatingChange>>;

    /// Commits everything queued, stops the writer and lets the database go.
    fn close(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;

    /// A player's finished games, newest first: how many there are, and
    /// `limit` of them from `offset`.
    fn list_games(
        &self,
        player_id: String,
        offset: u32,
        limit: u32,
    ) -> Answer<'_, (u32, Vec<GameSummary>)>;

    /// The player whose resume token this is, if the store has one.
    fn player_by_token(&self, token: String) -> Answer<'_, Option<PlayerRow>>;

    /// One finished game with its record.
    fn game(&self, game_id: String) -> Answer<'_, Option<GameView>>;

    /// A finished game's saved analysis, as saved (JSON).
    fn analysis(&self, game_id: String) -> Answer<'_, Option<String>>;

    /// The dice of every finished Backgammon game, and `player_id`'s own.
    fn dice_stats(&self, player_id: String) -> Answer<'_, DiceStatsReport>;

    /// `player_id`'s rating in `kind` (the bots' pool for a bot), when it
    /// has played a rated game.
    fn rating(&self, player_id: String, kind: GameKind, bot: bool) -> Answer<'_, Option<f64>>;

    /// The top 50 of a game's leaderboard.
    fn leaderboard(
        &self,
        kind: GameKind,
        period: LeaderboardPeriod,
        bots: bool,
        now_ms: i64,
    ) -> Answer<'_, Vec<LeaderboardEntry>>;

    /// The next puzzle for `player_id`: one they have not tried, of
    /// `theme` when named, rated nearest their puzzle rating.
    fn next_puzzle(
        &self,
        player_id: String,
        theme: Option<String>,
    ) -> Answer<'_, Option<PuzzleListing>>;

    /// The day's puzzle: of the puzzles kept before `day_start_ms`, the
    /// `day`-th (modulo their number) in the order of their ids.
    fn daily_puzzle(&self, day: i64, day_start_ms: i64) -> Answer<'_, Option<PuzzleListing>>;

    /// One puzzle by id.
    fn puzzle(&self, id: String) -> Answer<'_, Option<PuzzleListing>>;

    /// `player_id`'s puzzle rating and deviation, once they have answered one.
    fn puzzle_rating(&self, player_id: String) -> Answer<'_, Option<(f64, f64)>>;

    /// Renews this node's leases on `rooms` (a cluster's shared database
    /// only); the rooms it still holds.
    fn renew_leases(
        &self,
        _node: String,
        _rooms: Vec<String>,
        _ttl: Duration,
    ) -> Answer<'_, Vec<String>> {
        Box::pin(async { Err(StoreError::NoCluster) })
    }

    /// Claims the rooms no live node holds (a cluster's shared database
    /// only), with their saved state and the actions appended since.
    fn claim_rooms(
        &self,
        _node: String,
        _ttl: Duration,
    ) -> Answer<'_, Vec<(String, String, Vec<AppendedAction>)>> {
        Box::pin(async { Err(StoreError::NoCluster) })
    }

    /// Lets go of this node's leases (a cluster's shared database only).
    fn release_leases(&self, _node: String) -> Answer<'_, ()> {
        Box::pin(async { Err(StoreError::NoCluster) })
    }
}
