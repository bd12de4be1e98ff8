//! The checkpointer: a thread with its own connection that copies the
//! write-ahead log into the database beside the writer, and starts the log
//! over when it grows too long.

use rusqlite::Connection;

/// How often the checkpointer copies the write-ahead log into the database.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(200);
/// A log longer than this many pages (256 MiB at SQLite's 4 KiB pages) is
/// started over, with the writer held back for a moment. A log restarts by
/// itself in a quiet moment; the limit is for writes that never pause.
const WAL_LIMIT_PAGES: i64 = 65_536;
/// A log started over is cut back to this many bytes (the limit's size).
/// Not less: below it, a busy server reuses the file's pages already in
/// memory instead of having the kernel allocate and zero new ones.
pub(super) const WAL_KEEP_BYTES: i64 = WAL_LIMIT_PAGES * 4096;

/// The checkpointer thread: copies the write-ahead log into the database
/// beside the writer (a passive checkpoint waits for nobody), until the
/// writer is gone.
///
/// The writer never checkpoints itself: a checkpoint there would stall every
/// move queued behind it, and frequent small ones would copy the same hot
/// pages again and again. Here, a few times a second, it holds up nobody.
pub(super) fn checkpointer(conn: Connection, writer_gone: std::sync::mpsc::Receiver<()>) {
    use std::sync::mpsc::RecvTimeoutError;
    while let Err(RecvTimeoutError::Timeout) = writer_gone.recv_timeout(CHECKPOINT_EVERY) {
        if let Err(e) = checkpoint(&conn, WAL_LIMIT_PAGES) {
            tracing::warn!(error = %e, "checkpoint failed");
        }
    }
}

/// One checkpoint: copies the log into the database without waiting for the
/// writer, and when the log is over `limit` pages, also has it started over.
/// Returns the log's length in pages and whether it was restarted.
///
/// SQLite starts the log over only at a write that finds every frame of it
/// copied. Under steady writes that never happens: each passive checkpoint
/// copies the frames there were when it began, and the writer adds more
/// meanwhile, so the log grows without bound. A restart checkpoint holds the
/// writer back while it copies the frames left, which are few right after
/// the passive one.
fn checkpoint(conn: &Connection, limit: i64) -> rusqlite::Result<(i64, bool)> {
    let log: i64 = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get(1))?;
    if log <= limit {
        return Ok((log, false));
    }
    let busy: i64 = conn.query_row("PRAGMA wal_checkpoint(RESTART)", [], |r| r.get(0))?;
    Ok((log, busy == 0))
}

#[cfg(test)]
mod tests {
    use rusqlite::{Connection, params};

    use super::checkpoint;
    use crate::store::sqlite::schema::open;

    #[test]
    fn a_log_over_the_limit_is_started_over() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("t.db");
        let writer = open(&path).expect("writer");
        writer
            .pragma_update(None, "wal_autocheckpoint", 0)
            .expect("no autocheckpoint");
        let checkpoints = Connection::open(&path).expect("checkpointer");
        let written = std::cell::Cell::new(0);
        let write = |n: usize| {
            for _ in 0..n {
                written.set(written.get() + 1);
                writer
                    .execute(
                        "INSERT INTO players (id, token, name) VALUES (?1, ?1, 'x')",
                        params![format!("p{}", written.get())],
                    )
                    .expect("insert");
            }
        };
        write(50);
        let (log, restarted) = checkpoint(&checkpoints, 1_000).expect("passive");
        assert!(log > 50 && !restarted, "{log} pages, restarted {restarted}");
        write(50);
        let (log, restarted) = checkpoint(&checkpoints, 100).expect("restart");
        assert!(log > 100 && restarted, "{log} pages, restarted {restarted}");
        // The next write begins at the start of the log.
        write(1);
        let (log, _) = checkpoint(&checkpoints, 1_000).expect("passive");
        assert!(log < 10, "{log} pages");
    }
}
