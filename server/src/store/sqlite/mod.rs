//! The SQLite backend: one embedded file, `tabula.db` in the data
//! directory. Every use of `rusqlite` in the server is in this module.
//!
//! Three threads, each with its own connection: the writer (group commit of
//! every write, in order), the checkpointer beside it, and the reader
//! (history and leaderboards). A lock file keeps a second server off the
//! same directory.

mod action_log;
mod apply;
mod checkpoint;
#[cfg(test)]
mod fixtures;
mod inspect;
mod load;
mod puzzles;
mod reader;
mod schema;
mod writer;

use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::thread;

use rusqlite::Connection;
use tokio::sync::mpsc;

use self::action_log::ActionLog;
use self::reader::ReadJob;
use super::StoreError;
use super::database::{Answer, Database};
use super::request::Request;
use super::rows::{Loaded, PlayerRow, PuzzleListing};
use super::write::Write;
use tabula_shared::protocol::{
    DiceStatsReport, FinishedGame as GameView, GameKind, GameSummary, LeaderboardEntry,
    LeaderboardPeriod, RatingChange,
};

pub use self::inspect::{read_finished_games, read_saved_room};

/// A handle to the SQLite backend's threads; cheap to clone.
#[derive(Clone)]
pub(super) struct Sqlite {
    /// The writer thread's queue.
    writes: mpsc::UnboundedSender<Request>,
    /// Reads (history, leaderboards) go to a connection and thread of their
    /// own, so that a slow or flooded read never holds up a commit of moves.
    /// `None` stops the reader ([`Sqlite::close`]).
    reads: mpsc::UnboundedSender<Option<ReadJob>>,
    /// How long a caller waits for a write or read to be answered before it
    /// gets [`StoreError::TimedOut`]: a frozen disk must not hold a player's
    /// request for ever.
    answer_within: std::time::Duration,
}

impl Sqlite {
    /// Opens (creating when needed) `tabula.db` in `dir`, reads what it
    /// holds, and starts the writer, checkpointer and reader threads. Waits
    /// up to `wait` for a server still shutting down on `dir` to release it.
    pub(super) fn open(
        dir: &Path,
        wait: std::time::Duration,
    ) -> Result<(Sqlite, Loaded), StoreError> {
        std::fs::create_dir_all(dir)?;
        let lock = lock_dir(dir, wait)?;
        keep_freed_c_heap();
        let path = dir.join("tabula.db");
        let conn = schema::open(&path)?;
        let cutoff = crate::wall_clock::now_ms() - load::GUEST_TTL_MS;
        let forgotten = load::forget_old_guests(&conn, cutoff)?;
        if forgotten > 0 {
            tracing::info!(forgotten, "forgot guests gone for 30 days with no game");
        }
        let loaded = load::load(&conn)?;
        let log = ActionLog::read(&conn)?;
        // The writer never checkpoints; the checkpointer thread does, beside it.
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        conn.pragma_update(None, "journal_size_limit", checkpoint::WAL_KEEP_BYTES)?;
        let checkpoints = Connection::open(&path)?;
        checkpoints.busy_timeout(std::time::Duration::from_secs(5))?;
        let (writer_alive, writer_gone) = std::sync::mpsc::channel::<()>();
        let checkpointer = thread::Builder::new()
            .name("tabula-checkpoint".into())
            .spawn(move || checkpoint::checkpointer(checkpoints, writer_gone))?;
        let reader = Connection::open(&path)?;
        reader.busy_timeout(std::time::Duration::from_secs(5))?;
        reader.pragma_update(None, "query_only", true)?;
        let reads = reader::spawn(reader)?;
        let (writes, rx) = mpsc::unbounded_channel();
        thread::Builder::new()
            .name("tabula-store".into())
            .spawn(move || {
                let close = writer::writer(conn, rx, log);
                drop(writer_alive);
                let _ = checkpointer.join();
                drop(lock);
                if let Some(done) = close {
                    let _ = done.send(Ok(Vec::new()));
                }
            })?;
        let answer_within = super::ANSWER_WITHIN;
        Ok((
            Sqlite {
                writes,
                reads,
                answer_within,
            },
            loaded,
        ))
    }

    /// Sets how long callers wait for an answer (see [`Sqlite::answer_within`]).
    pub(super) fn set_answer_within(&mut self, limit: std::time::Duration) {
        self.answer_within = limit;
    }

    /// Commits everything queued so far, stops the writer and reader and
    /// releases the data directory (no time-out: shutting down waits for it).
    pub(super) async fn close(&self) {
        let _ = self.reads.send(None);
        let (done, wait) = tokio::sync::oneshot::channel();
        if self
            .writes
            .send(Request {
                write: Write::Close,
                done,
                abandonable: false,
            })
            .is_ok()
        {
            let _ = wait.await;
        }
    }
}

/// Locks the data directory for this server: a second server started on
/// the same directory fails instead of sharing it. (Not SQLite's exclusive
/// locking mode: that would shut out the checkpointer's connection.) The
/// lock goes when the returned file is dropped (the writer stops,
/// [`Sqlite::close`]) or the process ends. A server still shutting down on
/// it gets up to `wait` to let go.
fn lock_dir(dir: &Path, wait: std::time::Duration) -> Result<std::fs::File, StoreError> {
    let lock = std::fs::File::create(dir.join("tabula.lock"))?;
    let deadline = std::time::Instant::now() + wait;
    loop {
        match lock.try_lock() {
            Ok(()) => return Ok(lock),
            Err(std::fs::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(StoreError::Io(std::io::Error::other(format!(
                    "another Tabula server is using {}",
                    dir.display()
                ))));
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(StoreError::Io(e)),
        }
    }
}

/// Has glibc keep up to 64 MiB of freed C heap instead of 128 KiB.
///
/// SQLite allocates with the C library's malloc, not the Rust allocator.
/// glibc hands a thread heap's free top back to the kernel (`madvise`) once
/// it passes the trim threshold, and a busy writer's commits free and grow
/// that much again all the time: its thread then spends much of its time in
/// `madvise`, in the TLB shoot-downs that sends to every other core, and in
/// page faults getting the memory back. 64 MiB covers SQLite's page caches
/// (2 MiB a connection) with room to spare.
fn keep_freed_c_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator tunable; it takes any value.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
    }
}

/// Runs one SQL statement with no parameters, prepared once per connection.
fn exec(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(sql)?.execute([]).map(|_| ())
}

impl Database for Sqlite {
    fn set_answer_within(&mut self, limit: std::time::Duration) {
        Sqlite::set_answer_within(self, limit);
    }

    fn queue(&self, write: Write, abandonable: bool) -> Answer<'static, Vec<RatingChange>> {
        if abandonable {
            Box::pin(Sqlite::queue(self, write))
        } else {
            Box::pin(Sqlite::queue_unconditionally(self, write))
        }
    }

    fn close(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(Sqlite::close(self))
    }

    fn list_games(
        &self,
        player_id: String,
        offset: u32,
        limit: u32,
    ) -> Answer<'_, (u32, Vec<GameSummary>)> {
        Box::pin(Sqlite::list_games(self, player_id, offset, limit))
    }

    fn player_by_token(&self, token: String) -> Answer<'_, Option<PlayerRow>> {
        Box::pin(Sqlite::player_by_token(self, token))
    }

    fn game(&self, game_id: String) -> Answer<'_, Option<GameView>> {
        Box::pin(Sqlite::game(self, game_id))
    }

    fn analysis(&self, game_id: String) -> Answer<'_, Option<String>> {
        Box::pin(Sqlite::analysis(self, game_id))
    }

    fn dice_stats(&self, player_id: String) -> Answer<'_, DiceStatsReport> {
        Box::pin(Sqlite::dice_stats(self, player_id))
    }

    fn rating(&self, player_id: String, kind: GameKind, bot: bool) -> Answer<'_, Option<f64>> {
        Box::pin(Sqlite::rating(self, player_id, kind, bot))
    }

    fn next_puzzle(
        &self,
        player_id: String,
        theme: Option<String>,
    ) -> Answer<'_, Option<PuzzleListing>> {
        Box::pin(Sqlite::next_puzzle(self, player_id, theme))
    }

    fn daily_puzzle(&self, day: i64, day_start_ms: i64) -> Answer<'_, Option<PuzzleListing>> {
        Box::pin(Sqlite::daily_puzzle(self, day, day_start_ms))
    }

    fn puzzle(&self, id: String) -> Answer<'_, Option<PuzzleListing>> {
        Box::pin(Sqlite::puzzle(self, id))
    }

    fn puzzle_rating(&self, player_id: String) -> Answer<'_, Option<(f64, f64)>> {
        Box::pin(Sqlite::puzzle_rating(self, player_id))
    }

    fn leaderboard(
        &self,
        kind: GameKind,
        period: LeaderboardPeriod,
        bots: bool,
        now_ms: i64,
    ) -> Answer<'_, Vec<LeaderboardEntry>> {
        Box::pin(Sqlite::leaderboard(self, kind, period, bots, now_ms))
    }
}
