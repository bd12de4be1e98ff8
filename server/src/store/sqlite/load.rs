//! The restart load: everything the database holds that a starting server
//! needs (registered players, accounts, and each saved room with the actions
//! appended after its last full save). Guests are not loaded: a guest's
//! token is looked up when it comes back. Guests gone for
//! [`GUEST_TTL_MS`] with no finished game and no seat in a saved room are
//! forgotten first.

use rusqlite::Connection;

use crate::store::StoreError;
use crate::store::rows::{AccountRow, ApiTokenRow, AppendedAction, Loaded, PlayerRow};

/// How long a guest with no finished game and no seat is remembered after
/// its last hello: 30 days.
pub(super) const GUEST_TTL_MS: i64 = 30 * 24 * 3600 * 1000;

/// Forgets guests last seen before `cutoff_ms` (Unix ms) that have no
/// account, no finished game and no seat in a saved room; returns how many.
pub(super) fn forget_old_guests(conn: &Connection, cutoff_ms: i64) -> rusqlite::Result<usize> {
    conn.execute(
        "DELETE FROM players WHERE seen_at < ?1
           AND id NOT IN (SELECT player_id FROM accounts)
           AND id NOT IN (SELECT player_id FROM game_players)
           AND id NOT IN (SELECT json_extract(s.value, '$.id')
                          FROM rooms r, json_each(r.state, '$.seats') s
                          WHERE json_extract(s.value, '$.id') IS NOT NULL)",
        [cutoff_ms],
    )
}

/// Reads the registered players, the accounts and every saved room.
pub(super) fn load(conn: &Connection) -> Result<Loaded, StoreError> {
    let mut players = Vec::new();
    let mut stmt = conn.prepare(
        "SELECT id, token, name FROM players WHERE id IN (SELECT player_id FROM accounts)",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(PlayerRow {
            id: r.get(0)?,
            token: r.get(1)?,
            name: r.get(2)?,
        })
    })?;
    for row in rows {
        players.push(row?);
    }
    let mut stmt = conn.prepare("SELECT player_id, name, hash FROM accounts")?;
    let accounts = stmt
        .query_map([], |r| {
            Ok(AccountRow {
                player_id: r.get(0)?,
                name: r.get(1)?,
                hash: r.get(2)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut stmt = conn.prepare(
        "SELECT id, player_id, label, hash, created_at, revoked FROM api_tokens ORDER BY created_at",
    )?;
    let api_tokens = stmt
        .query_map([], |r| {
            Ok(ApiTokenRow {
                id: r.get(0)?,
                player_id: r.get(1)?,
                label: r.get(2)?,
                hash: r.get(3)?,
                created_at: r.get(4)?,
                revoked: r.get::<_, i64>(5)? != 0,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    // Each room's full state, then the log rows after its log_from, in order.
    let mut rooms = Vec::new();
    let mut index = std::collections::HashMap::new();
    let mut stmt = conn.prepare("SELECT id, state, log_from FROM rooms")?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, i64>(2)?,
        ))
    })?;
    for row in rows {
        let (id, state, log_from) = row?;
        index.insert(id.clone(), (rooms.len(), log_from));
        rooms.push((id, state, Vec::new()));
    }
    let mut stmt =
        conn.prepare("SELECT id, room_id, idx, action, seq, clock FROM action_log ORDER BY id")?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let room_id: String = r.get(1)?;
        let Some(&(at, log_from)) = index.get(&room_id) else {
            continue;
        };
        let id: i64 = r.get(0)?;
        if id <= log_from {
            continue;
        }
        rooms[at].2.push(AppendedAction {
            room_id,
            index: r.get::<_, i64>(2)? as u64,
            action: r.get(3)?,
            seq: r.get::<_, i64>(4)? as u64,
            clock: r.get(5)?,
        });
    }
    let mut stmt = conn.prepare("SELECT id, state FROM tournaments ORDER BY id")?;
    let tournaments = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Loaded {
        players,
        accounts,
        api_tokens,
        rooms,
        tournaments,
    })
}
