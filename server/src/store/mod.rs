//! The store: players, accounts, running rooms, finished games and ratings,
//! kept durable.
//!
//! One embedded SQLite file (`tabula.db` in the data directory) holds the
//! players, every running room (saved after each change, before the change is
//! broadcast) and every finished game with its full record.
//!
//! Registered accounts (argon2id hashes only), Glicko-2 ratings per game and
//! the rating history behind the weekly leaderboard live here too.
//!
//! With `--database postgres://...` a PostgreSQL database holds the same
//! tables instead (the `postgres` module), for a host that runs PostgreSQL
//! already and wants its backups and replicas.
//!
//! All writes go through one writer. It takes whatever requests are
//! queued, runs them in one transaction and then answers them all (group
//! commit), so thousands of moves per second cost a handful of commits.
//!
//! The rest of the server sees the [`Store`] handle, plain row types
//! ([`PlayerRow`], [`AccountRow`], [`AppendedAction`], [`FinishedGame`],
//! [`Loaded`]) and [`StoreError`]. Everything that speaks SQL is in the
//! `sqlite` and `postgres` modules, the two backends; the rating maths, the
//! name keys, the rows and their views know no database.

mod database;
mod error;
mod keys;
mod postgres;
mod ratings;
mod request;
mod rows;
mod sqlite;
#[cfg(test)]
mod suite;
mod views;
mod write;

use std::path::Path;
use std::sync::Arc;

use tabula_shared::protocol::{
    DiceStatsReport, FinishedGame as GameView, GameAnalysis, GameKind, GameSummary,
    LeaderboardEntry, LeaderboardPeriod, RatingChange,
};

use self::database::Database;
pub use self::error::StoreError;
pub use self::keys::{look_key, name_key};
use self::postgres::Postgres;
pub use self::ratings::PROVISIONAL_DEVIATION;
pub use self::rows::{
    AccountRow, ApiTokenRow, AppendedAction, FinishedGame, Loaded, PlayerRow, PuzzleListing,
    PuzzleRow,
};
use self::sqlite::Sqlite;
pub use self::sqlite::{read_finished_games, read_saved_room};
use self::write::Write;

/// A handle to the store; cheap to clone.
///
/// A write is queued when its method is called, not when its future is
/// first polled, and writes are committed in the order they are queued: a
/// player's save, queued before the welcome goes out, is never behind the
/// room that player creates next. Each future resolves once its write is
/// committed (or has failed).
#[derive(Clone)]
pub struct Store {
    /// The database behind the handle.
    db: Arc<dyn Database>,
}

/// How long the store's callers wait for an answer unless told otherwise.
const ANSWER_WITHIN: std::time::Duration = std::time::Duration::from_secs(10);

impl Store {
    /// Opens (creating when needed) `tabula.db` in `dir`, reads what it holds,
    /// and starts the writer thread.
    ///
    /// A server still shutting down on the directory gets up to `wait` to
    /// finish and release it (a restart); blocks meanwhile.
    ///
    /// # Errors
    /// When the directory or database cannot be created or read, or another
    /// server still uses the directory after `wait`.
    pub fn open(dir: &Path, wait: std::time::Duration) -> Result<(Store, Loaded), StoreError> {
        let (db, loaded) = Sqlite::open(dir, wait)?;
        Ok((Store { db: Arc::new(db) }, loaded))
    }

    /// Connects to the PostgreSQL database at `url` (`postgres://user@host/db`),
    /// makes or migrates its tables, reads what it holds and starts the
    /// writer. A server still shutting down on the same database gets up
    /// to `wait` to let go of it.
    ///
    /// # Errors
    /// When the database cannot be reached or migrated, or another server
    /// still uses it after `wait`.
    ///
    /// A cluster node (`node`, its name) shares the database with the other
    /// nodes and loads no rooms: it claims them with [`Store::claim_rooms`].
    pub async fn connect(
        url: &str,
        wait: std::time::Duration,
        node: Option<&str>,
    ) -> Result<(Store, Loaded), StoreError> {
        let (db, loaded) = Postgres::open(url, wait, node).await?;
        Ok((Store { db: Arc::new(db) }, loaded))
    }

    /// Sets how long a caller waits for the store's answer before it gets
    /// [`StoreError::TimedOut`] (10 s unless set). Only before the handle
    /// is cloned: a shared store keeps its limit.
    pub fn set_answer_within(&mut self, limit: std::time::Duration) {
        if let Some(db) = Arc::get_mut(&mut self.db) {
            db.set_answer_within(limit);
        } else {
            tracing::warn!("the store's answer limit was set after it was shared; unchanged");
        }
    }

    /// Commits everything queued so far, stops the writer and releases the
    /// data directory (a server started next on it may open it at once).
    /// Writes and reads queued after this fail with [`StoreError::Closed`].
    pub async fn close(&self) {
        self.db.close().await
    }

    /// Queues `write` now and returns how ratings moved once it is committed.
    /// `abandonable`: dropped unwritten if its caller stopped waiting first.
    fn queue(
        &self,
        write: Write,
        abandonable: bool,
    ) -> std::pin::Pin<Box<dyn Future<Output = Result<Vec<RatingChange>, StoreError>> + Send>> {
        self.db.queue(write, abandonable)
    }

    /// Queues `write` now and returns its outcome once it is committed
    /// (for writes that move no rating).
    fn write(&self, write: Write) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        let done = self.queue(write, true);
        async move { done.await.map(|_| ()) }
    }

    /// Saves a player identity.
    pub fn save_player(
        &self,
        row: PlayerRow,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        self.write(Write::Player(row))
    }

    /// Saves a room's whole state.
    pub fn save_room(
        &self,
        id: String,
        state: String,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        self.write(Write::Room { id, state })
    }

    /// Saves a room's whole state even if nobody waits for the answer: after
    /// a save of the room timed out (its outcome unknown), this one, queued
    /// behind it, makes the store hold what the players were told.
    pub fn save_room_superseding(
        &self,
        id: String,
        state: String,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        let done = self.queue(Write::Room { id, state }, false);
        async move { done.await.map(|_| ()) }
    }

    /// Saves a tournament's whole state (kept after it ends: its
    /// crosstable stays in the history).
    pub fn save_tournament(
        &self,
        id: String,
        state: String,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        self.write(Write::Tournament { id, state })
    }

    /// Saves one action of a running room (cheaper than [`Store::save_room`]).
    pub fn append_action(
        &self,
        action: AppendedAction,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        self.write(Write::Action(Box::new(action)))
    }

    /// Forgets a closed room.
    pub fn delete_room(
        &self,
        id: String,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        self.write(Write::DeleteRoom { id })
    }

    /// Keeps a finished game forever and, for a rated game, updates both
    /// ratings in the same transaction; returns how they moved.
    pub fn save_game(
        &self,
        game: FinishedGame,
    ) -> impl Future<Output = Result<Vec<RatingChange>, StoreError>> + Send + 'static {
        self.queue(Write::Game(Box::new(game)), true)
    }

    /// Saves a new account. Fails if the name or the player is already registered.
    pub fn save_account(
        &self,
        account: AccountRow,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        self.write(Write::Account(account))
    }

    /// Saves a new API token (its hash).
    pub fn save_api_token(
        &self,
        token: ApiTokenRow,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        self.write(Write::ApiToken(token))
    }

    /// Marks an API token of `player_id` revoked.
    pub fn revoke_api_token(
        &self,
        id: String,
        player_id: String,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        self.write(Write::RevokeApiToken { id, player_id })
    }

    /// One page of a player's finished games, newest first, and how many there are.
    pub async fn list_games(
        &self,
        player_id: String,
        offset: u32,
        limit: u32,
    ) -> Result<(u32, Vec<GameSummary>), StoreError> {
        self.db.list_games(player_id, offset, limit).await
    }

    /// Renews this node's leases on `rooms`; returns the rooms it still
    /// holds (a cluster's store only: see `postgres/leases.rs`).
    pub async fn renew_leases(
        &self,
        node: String,
        rooms: Vec<String>,
        ttl: std::time::Duration,
    ) -> Result<Vec<String>, StoreError> {
        self.db.renew_leases(node, rooms, ttl).await
    }

    /// Claims the rooms whose lease ran out (or that have none) for this
    /// node, and reads their saved state, as at start-up.
    pub async fn claim_rooms(
        &self,
        node: String,
        ttl: std::time::Duration,
    ) -> Result<Vec<(String, String, Vec<AppendedAction>)>, StoreError> {
        self.db.claim_rooms(node, ttl).await
    }

    /// Lets go of this node's leases, for the other nodes to claim at once.
    pub async fn release_leases(&self, node: String) -> Result<(), StoreError> {
        self.db.release_leases(node).await
    }

    /// The player whose resume token this is (a guest, who is not kept in
    /// memory between visits), if the store has one.
    pub async fn player_by_token(&self, token: String) -> Result<Option<PlayerRow>, StoreError> {
        self.db.player_by_token(token).await
    }

    /// One finished game with its record, if the id is known.
    pub async fn game(&self, game_id: String) -> Result<Option<GameView>, StoreError> {
        self.db.game(game_id).await
    }

    /// A finished game's saved analysis, if it has one (one that no longer
    /// parses is logged and treated as missing, so it is made again).
    pub async fn analysis(&self, game_id: String) -> Result<Option<GameAnalysis>, StoreError> {
        let id = game_id.clone();
        let json = self.db.analysis(game_id).await?;
        Ok(json.and_then(|json| {
            serde_json::from_str(&json)
                .inspect_err(
                    |e| tracing::warn!(game = %id, error = %e, "a saved analysis does not parse"),
                )
                .ok()
        }))
    }

    /// Saves a finished game's analysis; done once it is durable.
    pub fn save_analysis(
        &self,
        game_id: String,
        analysis: &GameAnalysis,
        created_at: i64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        let analysis = serde_json::to_string(analysis).expect("an analysis serialises");
        self.write(Write::Analysis {
            game_id,
            analysis,
            created_at,
        })
    }

    /// The dice of every finished Backgammon game, and `player_id`'s own
    /// rolls in them (the `dice_stats` answer).
    pub async fn dice_stats(&self, player_id: String) -> Result<DiceStatsReport, StoreError> {
        self.db.dice_stats(player_id).await
    }

    /// `player_id`'s rating in `kind` (the bots' pool for a bot), when it
    /// has played a rated game.
    pub async fn rating(
        &self,
        player_id: String,
        kind: GameKind,
        bot: bool,
    ) -> Result<Option<f64>, StoreError> {
        self.db.rating(player_id, kind, bot).await
    }

    /// Keeps puzzles found (one already kept stays as it is).
    pub fn save_puzzles(
        &self,
        puzzles: Vec<PuzzleRow>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        self.write(Write::Puzzles(puzzles))
    }

    /// Records `player_id`'s answer to a puzzle and, for their first answer
    /// to it, moves their puzzle rating and the puzzle's; returns how the
    /// player's moved (empty for a puzzle tried before).
    pub fn answer_puzzle(
        &self,
        player_id: String,
        puzzle_id: String,
        correct: bool,
        at: i64,
    ) -> impl Future<Output = Result<Vec<RatingChange>, StoreError>> + Send + 'static {
        self.queue(
            Write::PuzzleAnswer {
                player_id,
                puzzle_id,
                correct,
                at,
            },
            true,
        )
    }

    /// The next puzzle for `player_id` (see [`Database::next_puzzle`]).
    pub async fn next_puzzle(
        &self,
        player_id: String,
        theme: Option<String>,
    ) -> Result<Option<PuzzleListing>, StoreError> {
        self.db.next_puzzle(player_id, theme).await
    }

    /// The puzzle of the day `now_ms` falls in (UTC): the same for everyone
    /// all day, whatever is found meanwhile.
    pub async fn daily_puzzle(&self, now_ms: i64) -> Result<Option<PuzzleListing>, StoreError> {
        const DAY_MS: i64 = 86_400_000;
        let day = now_ms.div_euclid(DAY_MS);
        self.db.daily_puzzle(day, day * DAY_MS).await
    }

    /// One puzzle by id.
    pub async fn puzzle(&self, id: String) -> Result<Option<PuzzleListing>, StoreError> {
        self.db.puzzle(id).await
    }

    /// `player_id`'s puzzle rating and deviation, once they have answered one.
    pub async fn puzzle_rating(&self, player_id: String) -> Result<Option<(f64, f64)>, StoreError> {
        self.db.puzzle_rating(player_id).await
    }

    /// The top 50 of a game's leaderboard.
    pub async fn leaderboard(
        &self,
        kind: GameKind,
        period: LeaderboardPeriod,
        bots: bool,
        now_ms: i64,
    ) -> Result<Vec<LeaderboardEntry>, StoreError> {
        self.db.leaderboard(kind, period, bots, now_ms).await
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn a_second_store_on_the_same_directory_waits_until_the_first_is_closed() {
        let dir = tempfile::tempdir().expect("dir");
        let (first, _) = Store::open(dir.path(), Duration::ZERO).expect("first");
        first
            .save_room("r-1".into(), "{}".into())
            .await
            .expect("saved");
        let refused = Store::open(dir.path(), Duration::from_millis(100))
            .err()
            .expect("second refused");
        assert!(
            refused.to_string().contains("another Tabula server"),
            "{refused}"
        );
        // The first closes (a server shutting down) while the next one
        // waits: it then opens, with what the first saved, and the first
        // refuses further writes.
        let closing = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            first.close().await;
            first
        });
        let path = dir.path().to_path_buf();
        let (second, loaded) =
            tokio::task::spawn_blocking(move || Store::open(&path, Duration::from_secs(10)))
                .await
                .expect("joined")
                .expect("opens once the first is closed");
        assert_eq!(loaded.rooms.len(), 1);
        let first = closing.await.expect("closed");
        assert!(matches!(
            first.save_room("r-2".into(), "{}".into()).await,
            Err(StoreError::Closed)
        ));
        second.close().await;
    }

    /// A player's save is queued when `save_player` is called, not when its
    /// future is first polled: a room saved after it is never durable
    /// without its player (a crash then lost the token, not the room).
    #[tokio::test]
    async fn a_player_is_queued_before_anything_saved_after_it() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::open(dir.path(), Duration::ZERO).unwrap();
        let row = PlayerRow {
            id: "p-1".into(),
            token: "t-1".into(),
            name: "Ada".into(),
        };
        let player = store.save_player(row);
        store.save_room("r-1".into(), "{}".into()).await.unwrap();
        // Committed by the time the room's save is: the reader finds it.
        let found = store.player_by_token("t-1".into()).await.unwrap();
        assert_eq!(found.map(|p| p.name).as_deref(), Some("Ada"));
        player.await.unwrap();
    }

    /// Guests are not loaded at start (their tokens are looked up when
    /// they come back); registered players are.
    #[tokio::test]
    async fn only_registered_players_are_loaded_and_a_guest_is_found_by_token() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::open(dir.path(), Duration::ZERO).unwrap();
        for (id, name) in [("p-1", "Ada"), ("p-2", "Bob")] {
            let row = PlayerRow {
                id: id.into(),
                token: format!("t-{id}"),
                name: name.into(),
            };
            store.save_player(row).await.unwrap();
        }
        let account = AccountRow {
            player_id: "p-1".into(),
            name: "Ada".into(),
            hash: "h".into(),
        };
        store.save_account(account).await.unwrap();
        store.close().await;
        // Reopened with a wait, as a restarting server does: a process that
        // another test forks at the moment of the close shares the lock
        // file's descriptor until it execs, and holds the lock till then.
        let (store, loaded) = Store::open(dir.path(), Duration::from_secs(5)).unwrap();
        let ids: Vec<&str> = loaded.players.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, vec!["p-1"]);
        let bob = store.player_by_token("t-p-2".into()).await.unwrap();
        assert_eq!(bob.map(|p| p.name), Some("Bob".into()));
        assert!(
            store
                .player_by_token("nope".into())
                .await
                .unwrap()
                .is_none()
        );
        store.close().await;
    }

    /// A write the store does not answer in time (here the writer waits on
    /// a lock another connection holds, as it would on a frozen disk)
    /// fails with a time-out instead of waiting for ever; once the stall
    /// ends, writes go through again.
    #[tokio::test]
    async fn a_stalled_write_times_out_with_a_typed_error() {
        let dir = tempfile::tempdir().unwrap();
        let (mut store, _) = Store::open(dir.path(), Duration::ZERO).unwrap();
        store.set_answer_within(Duration::from_millis(300));
        let blocker = rusqlite::Connection::open(dir.path().join("tabula.db")).unwrap();
        blocker.execute_batch("BEGIN EXCLUSIVE").unwrap();
        let stalled = store.save_room("r-1".into(), "{}".into()).await;
        assert!(
            matches!(stalled, Err(StoreError::TimedOut(_))),
            "{stalled:?}"
        );
        blocker.execute_batch("COMMIT").unwrap();
        drop(blocker);
        store.set_answer_within(Duration::from_secs(10));
        store.save_room("r-2".into(), "{}".into()).await.unwrap();
        store.close().await;
    }

    /// A write the writer could not make fails with SQLite's own reason,
    /// not dressed as another rusqlite error ("Invalid parameter name: ...").
    #[tokio::test]
    async fn a_failed_write_tells_sqlites_reason() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::open(dir.path(), Duration::ZERO).unwrap();
        let account = |player: &str| AccountRow {
            player_id: player.into(),
            name: "Ada".into(),
            hash: "h".into(),
        };
        store.save_account(account("p-1")).await.unwrap();
        let taken = store
            .save_account(account("p-2"))
            .await
            .expect_err("the name is taken")
            .to_string();
        assert!(taken.contains("UNIQUE constraint failed"), "{taken}");
        assert!(!taken.contains("Invalid parameter name"), "{taken}");
        store.close().await;
    }
}
