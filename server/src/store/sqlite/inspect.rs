//! Reads of a data directory from outside a running server, for tests and
//! tools: each opens the database file on its own connection.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};

use crate::store::StoreError;

/// Reads finished games for tests and tools: (id, record JSON, result JSON), oldest first.
///
/// # Errors
/// When the database cannot be read.
pub fn read_finished_games(dir: &Path) -> Result<Vec<(String, String, String)>, StoreError> {
    let conn = Connection::open(dir.join("tabula.db"))?;
    let mut stmt = conn.prepare("SELECT id, record, result FROM games ORDER BY ended_at, id")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    let mut out = Vec::new();
    for row in rows {
        out.push(row?);
    }
    Ok(out)
}

/// Reads one saved room for tests and tools: its saved state (JSON) and how
/// many actions the log holds for it after that state.
///
/// # Errors
/// When the database cannot be read.
pub fn read_saved_room(dir: &Path, room_id: &str) -> Result<Option<(String, i64)>, StoreError> {
    let conn = Connection::open(dir.join("tabula.db"))?;
    let row = conn
        .query_row(
            "SELECT r.state, (SELECT COUNT(*) FROM action_log l
                              WHERE l.room_id = r.id AND l.id > r.log_from)
             FROM rooms r WHERE r.id = ?1",
            params![room_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    Ok(row)
}
