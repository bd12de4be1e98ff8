//! The PostgreSQL backend, for a club or association that runs PostgreSQL
//! already (its backups, its replicas): chosen with `--database
//! postgres://...`. Every use of `tokio-postgres` in the server is in this
//! module.
//!
//! Two connections: the writer's (group commit of every write, in order, on
//! a task of its own; it also holds the lock that keeps a second server off
//! the database) and the readers' (history and leaderboards; queries on it
//! are pipelined). Both reconnect when their connection breaks.

mod apply;
mod leases;
mod load;
mod puzzles;
mod reader;
mod schema;
mod statements;
mod writer;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tabula_shared::protocol::{
    DiceStatsReport, FinishedGame as GameView, GameKind, GameSummary, LeaderboardEntry,
    LeaderboardPeriod, RatingChange,
};
use tokio::sync::mpsc;
use tokio_postgres::{Client, NoTls};

use self::reader::Reader;
use super::StoreError;
use super::database::{Answer, Database};
use super::request::{Request, queue};
use super::rows::{AppendedAction, Loaded, PlayerRow, PuzzleListing};
use super::write::Write;

/// A handle to the PostgreSQL backend; cheap to clone.
#[derive(Clone)]
pub(super) struct Postgres {
    /// The writer task's queue.
    writes: mpsc::UnboundedSender<Request>,
    /// The readers' connection.
    reader: Arc<Reader>,
    /// How long a caller waits for a write or read to be answered before it
    /// gets [`StoreError::TimedOut`].
    answer_within: Duration,
}

/// The advisory lock a server holds on its writer's connection while it
/// uses the database: one server per database (PostgreSQL drops the lock
/// with the connection, so a killed server's goes at once). The nodes of a
/// cluster hold it shared: any number of them, but no lone server beside
/// them.
const SERVER_LOCK: i64 = 0x7461_6275_6c61_0002;

impl Postgres {
    /// Connects to the database at `url`, makes or migrates its tables,
    /// takes the server lock (waiting up to `wait` for a server still
    /// shutting down on it; shared with the other nodes for a cluster
    /// `node`), reads what it holds and starts the writer. A cluster node
    /// reads no rooms here: it claims them through their leases.
    pub(super) async fn open(
        url: &str,
        wait: Duration,
        node: Option<&str>,
    ) -> Result<(Postgres, Loaded), StoreError> {
        let cluster = node.is_some();
        let mut client = connect(url).await?;
        schema::migrate(&mut client).await?;
        take_server_lock(&client, wait, cluster).await?;
        let cutoff = crate::wall_clock::now_ms() - load::GUEST_TTL_MS;
        let forgotten = load::forget_old_guests(&client, cutoff).await?;
        if forgotten > 0 {
            tracing::info!(forgotten, "forgot guests gone for 30 days with no game");
        }
        let mut loaded = load::load(&client).await?;
        if cluster {
            loaded.rooms.clear();
        }
        let session = writer::Session::new(client, node).await?;
        let (writes, rx) = mpsc::unbounded_channel();
        let node = node.map(str::to_string);
        tokio::spawn(writer::writer(session, url.to_string(), node, rx));
        let reader = Arc::new(Reader::new(url.to_string()));
        Ok((
            Postgres {
                writes,
                reader,
                answer_within: super::ANSWER_WITHIN,
            },
            loaded,
        ))
    }

    /// Sets how long callers wait for an answer.
    pub(super) fn set_answer_within(&mut self, limit: Duration) {
        self.answer_within = limit;
    }

    /// Queues `write` (see [`super::Store`]'s writes).
    pub(super) fn queue(
        &self,
        write: Write,
        abandonable: bool,
    ) -> impl Future<Output = Result<Vec<RatingChange>, StoreError>> + Send + 'static {
        queue(&self.writes, write, abandonable, self.answer_within)
    }

    /// Commits everything queued so far, then closes the writer's
    /// connection (releasing the database for the next server).
    pub(super) async fn close(&self) {
        let (done, wait) = tokio::sync::oneshot::channel();
        let request = Request {
            write: Write::Close,
            done,
            abandonable: false,
        };
        if self.writes.send(request).is_ok() {
            let _ = wait.await;
        }
        self.reader.close().await;
    }
}

/// Opens a connection to `url` and runs it on a task of its own.
async fn connect(url: &str) -> Result<Client, tokio_postgres::Error> {
    let (client, connection) = tokio_postgres::connect(url, NoTls).await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::warn!(error = %reason(&e), "a PostgreSQL connection ended");
        }
    });
    Ok(client)
}

/// Takes [`SERVER_LOCK`] on `client`'s session (shared, for a cluster
/// node), trying for up to `wait`.
async fn take_server_lock(
    client: &Client,
    wait: Duration,
    cluster: bool,
) -> Result<(), StoreError> {
    let deadline = Instant::now() + wait;
    let try_lock = if cluster {
        "SELECT pg_try_advisory_lock_shared($1)"
    } else {
        "SELECT pg_try_advisory_lock($1)"
    };
    loop {
        let taken: bool = client.query_one(try_lock, &[&SERVER_LOCK]).await?.get(0);
        if taken {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(StoreError::InUse(if cluster {
                "a Tabula server that is not a cluster node (no --redis) is using this PostgreSQL database".into()
            } else {
                "another Tabula server is using this PostgreSQL database (cluster nodes are started with --redis)".into()
            }));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A PostgreSQL error as a person reads it: the server's own message and
/// detail when it sent one ("duplicate key value violates unique constraint
/// ..."), else the driver's.
pub(super) fn reason(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => match db.detail() {
            Some(detail) => format!("{}: {} ({detail})", db.code().code(), db.message()),
            None => format!("{}: {}", db.code().code(), db.message()),
        },
        None => e.to_string(),
    }
}

impl Database for Postgres {
    fn set_answer_within(&mut self, limit: Duration) {
        Postgres::set_answer_within(self, limit);
    }

    fn queue(&self, write: Write, abandonable: bool) -> Answer<'static, Vec<RatingChange>> {
        Box::pin(Postgres::queue(self, write, abandonable))
    }

    fn close(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(Postgres::close(self))
    }

    fn list_games(
        &self,
        player_id: String,
        offset: u32,
        limit: u32,
    ) -> Answer<'_, (u32, Vec<GameSummary>)> {
        Box::pin(Postgres::list_games(self, player_id, offset, limit))
    }

    fn player_by_token(&self, token: String) -> Answer<'_, Option<PlayerRow>> {
        Box::pin(Postgres::player_by_token(self, token))
    }

    fn game(&self, game_id: String) -> Answer<'_, Option<GameView>> {
        Box::pin(Postgres::game(self, game_id))
    }

    fn analysis(&self, game_id: String) -> Answer<'_, Option<String>> {
        Box::pin(Postgres::analysis(self, game_id))
    }

    fn dice_stats(&self, player_id: String) -> Answer<'_, DiceStatsReport> {
        Box::pin(Postgres::dice_stats(self, player_id))
    }

    fn rating(&self, player_id: String, kind: GameKind, bot: bool) -> Answer<'_, Option<f64>> {
        Box::pin(Postgres::rating(self, player_id, kind, bot))
    }

    fn next_puzzle(
        &self,
        player_id: String,
        theme: Option<String>,
    ) -> Answer<'_, Option<PuzzleListing>> {
        Box::pin(Postgres::next_puzzle(self, player_id, theme))
    }

    fn daily_puzzle(&self, day: i64, day_start_ms: i64) -> Answer<'_, Option<PuzzleListing>> {
        Box::pin(Postgres::daily_puzzle(self, day, day_start_ms))
    }

    fn puzzle(&self, id: String) -> Answer<'_, Option<PuzzleListing>> {
        Box::pin(Postgres::puzzle(self, id))
    }

    fn puzzle_rating(&self, player_id: String) -> Answer<'_, Option<(f64, f64)>> {
        Box::pin(Postgres::puzzle_rating(self, player_id))
    }

    fn leaderboard(
        &self,
        kind: GameKind,
        period: LeaderboardPeriod,
        bots: bool,
        now_ms: i64,
    ) -> Answer<'_, Vec<LeaderboardEntry>> {
        Box::pin(Postgres::leaderboard(self, kind, period, bots, now_ms))
    }

    fn renew_leases(
        &self,
        node: String,
        rooms: Vec<String>,
        ttl: Duration,
    ) -> Answer<'_, Vec<String>> {
        Box::pin(Postgres::renew_leases(self, node, rooms, ttl))
    }

    fn claim_rooms(
        &self,
        node: String,
        ttl: Duration,
    ) -> Answer<'_, Vec<(String, String, Vec<AppendedAction>)>> {
        Box::pin(Postgres::claim_rooms(self, node, ttl))
    }

    fn release_leases(&self, node: String) -> Answer<'_, ()> {
        Box::pin(Postgres::release_leases(self, node))
    }
}
