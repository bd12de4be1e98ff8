//! The writer: one thread with the database's only writing connection. It
//! takes whatever requests are queued, runs them in one transaction and then
//! answers them all (group commit).

use std::thread;

use rusqlite::Connection;
use tabula_shared::protocol::RatingChange;
use tokio::sync::{mpsc, oneshot};

use crate::store::request::{
    MAX_BATCH, Request, answer, batch_from, closes, queue, take_queued, warn_if_slow,
};

use super::Sqlite;
use super::action_log::{APPEND, ActionLog};
use super::apply::apply;
use super::exec;
use crate::store::StoreError;
use crate::store::write::Write;

/// A commit within this long of the previous one means the store is busy.
const BUSY: std::time::Duration = std::time::Duration::from_millis(2);
/// A batch this large means requests are piling up.
const BUSY_BATCH: usize = 2;
/// How long a busy writer waits for more requests before committing: at
/// least `LINGER`, `LINGER_PER_REQUEST` for each request the last batch
/// carried, at most `MAX_LINGER`. Each commit writes whole pages to the log,
/// so under heavy load a commit that carries tens of moves instead of a few
/// writes a fraction of the bytes per move.
const LINGER: std::time::Duration = std::time::Duration::from_micros(500);
const LINGER_PER_REQUEST: std::time::Duration = std::time::Duration::from_micros(100);
const MAX_LINGER: std::time::Duration = std::time::Duration::from_millis(2);

impl Sqlite {
    /// Queues `write` now, when called (not when the future is first
    /// polled), and returns its outcome once it has been committed. Writes
    /// are committed in the order they are queued, so anything queued later
    /// is durable only once this is: a player's save, queued before the
    /// welcome goes out, is never behind the room that player creates next.
    ///
    /// A caller that stops waiting (the store did not answer in time) has
    /// its write dropped if the writer has not begun it yet.
    pub(in crate::store) fn queue(
        &self,
        write: Write,
    ) -> impl Future<Output = Result<Vec<RatingChange>, StoreError>> + Send + 'static {
        self.queue_with(write, true)
    }

    /// Queues `write` like [`Sqlite::queue`], but it is written even when
    /// nobody waits for it any more: for a write that supersedes one whose
    /// outcome is unknown.
    pub(in crate::store) fn queue_unconditionally(
        &self,
        write: Write,
    ) -> impl Future<Output = Result<Vec<RatingChange>, StoreError>> + Send + 'static {
        self.queue_with(write, false)
    }

    fn queue_with(
        &self,
        write: Write,
        abandonable: bool,
    ) -> impl Future<Output = Result<Vec<RatingChange>, StoreError>> + Send + 'static {
        queue(&self.writes, write, abandonable, self.answer_within)
    }
}

/// The writer thread: group commit of everything queued.
pub(super) fn writer(
    conn: Connection,
    mut rx: mpsc::UnboundedReceiver<Request>,
    mut log: ActionLog,
) -> Option<oneshot::Sender<Result<Vec<RatingChange>, String>>> {
    let mut last_commit = std::time::Instant::now();
    let mut last_batch = 0;
    while let Some(first) = rx.blocking_recv() {
        let mut batch = batch_from(first, &mut rx);
        if batch.is_empty() {
            continue;
        }
        // Busy (the last commit was moments ago and carried several
        // requests): wait a little for more, so that one commit carries many
        // moves. Otherwise commit at once.
        if batch.len() < MAX_BATCH && last_batch >= BUSY_BATCH && last_commit.elapsed() < BUSY {
            let linger = (LINGER_PER_REQUEST * last_batch as u32).clamp(LINGER, MAX_LINGER);
            thread::sleep(linger);
            take_queued(&mut rx, &mut batch);
        }
        let close = if closes(&batch) { batch.pop() } else { None };
        let started = std::time::Instant::now();
        let outcome = (|| -> rusqlite::Result<Vec<Result<Vec<RatingChange>, String>>> {
            // BEGIN and COMMIT as cached statements: parsing them for every
            // batch would be a visible share of a move's cost.
            exec(&conn, "BEGIN")?;
            // Moves are most of a batch: one statement for all of them, not
            // a cache look-up (hashing the SQL) and return for each.
            let mut insert = conn.prepare_cached(APPEND)?;
            let mut results = Vec::with_capacity(batch.len());
            for request in &batch {
                if let Write::Action(a) = &request.write {
                    let result = log.append(&mut insert, a);
                    results.push(result.map(|()| Vec::new()).map_err(|e| e.to_string()));
                    continue;
                }
                let result = match request.write {
                    // Several statements that may fail halfway: a savepoint
                    // keeps a failed one from leaving half a write.
                    Write::Game(_) | Write::Account(_) => {
                        exec(&conn, "SAVEPOINT one")?;
                        let result = apply(&conn, &mut log, &request.write);
                        if result.is_err() {
                            exec(&conn, "ROLLBACK TO one")?;
                        }
                        exec(&conn, "RELEASE one")?;
                        result
                    }
                    _ => apply(&conn, &mut log, &request.write),
                };
                results.push(result.map_err(|e| e.to_string()));
            }
            exec(&conn, "COMMIT")?;
            Ok(results)
        })();
        warn_if_slow(started.elapsed(), batch.len());
        let committed = outcome.is_ok();
        if !committed {
            roll_back(&conn, &mut log);
        }
        last_commit = std::time::Instant::now();
        last_batch = batch.len();
        answer(batch, outcome.map_err(|e| e.to_string()));
        // Cleaned after the batch is answered, so its moves do not wait.
        if committed
            && log.due()
            && let Err(e) = log.clean(&conn)
        {
            tracing::error!(error = %e, "cleaning the action log failed");
            roll_back(&conn, &mut log);
        }
        if let Some(close) = close {
            return Some(close.done);
        }
    }
    None
}

/// Ends a failed transaction and forgets what the log noted during it
/// (those rows and copies did not happen).
fn roll_back(conn: &Connection, log: &mut ActionLog) {
    if !conn.is_autocommit() {
        let _ = exec(conn, "ROLLBACK");
    }
    match ActionLog::read(conn) {
        Ok(fresh) => *log = fresh,
        Err(e) => tracing::error!(error = %e, "reading the action log failed"),
    }
}
