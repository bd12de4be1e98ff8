//! Helpers for the SQLite backend's unit tests: a fresh database, writes
//! applied the way the writer applies them, and what a load gives back.

use rusqlite::Connection;

use super::action_log::ActionLog;
use super::apply::apply;
use super::exec;
use super::schema::open;
use crate::store::rows::{AppendedAction, Loaded};
use crate::store::write::Write;

/// Appends action `index` to `room`.
pub(super) fn action(room: &str, index: u64) -> Write {
    Write::Action(Box::new(AppendedAction {
        room_id: room.into(),
        index,
        action: format!("\"a{index}\""),
        seq: index + 1,
        clock: "null".into(),
    }))
}

/// Saves the whole state of room `id`.
pub(super) fn room(id: &str) -> Write {
    Write::Room {
        id: id.into(),
        state: format!("state of {id}"),
    }
}

/// Applies writes the way the writer does, one transaction.
pub(super) fn write_all(conn: &Connection, log: &mut ActionLog, writes: &[Write]) {
    exec(conn, "BEGIN").unwrap();
    for w in writes {
        apply(conn, log, w).unwrap();
    }
    exec(conn, "COMMIT").unwrap();
}

/// A new database in a temporary directory (kept alive by the first
/// value), and its action log.
pub(super) fn fresh() -> (tempfile::TempDir, Connection, ActionLog) {
    let dir = tempfile::tempdir().unwrap();
    let conn = open(&dir.path().join("tabula.db")).unwrap();
    let log = ActionLog::read(&conn).unwrap();
    (dir, conn, log)
}

/// The indices of the actions a load gives back for room `id`.
pub(super) fn indices(loaded: &Loaded, id: &str) -> Vec<u64> {
    let (_, _, rows) = loaded.rooms.iter().find(|(r, _, _)| r == id).unwrap();
    rows.iter().map(|a| a.index).collect()
}
