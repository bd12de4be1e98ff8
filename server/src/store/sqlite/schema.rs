//! The database's tables, how a connection to it is opened, and the
//! migrations that bring a file written by an older Tabula up to date.

use std::path::Path;

use rusqlite::Connection;

use crate::store::StoreError;

/// Every table and index, created where missing.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    -- When the player last said hello (Unix ms): guests long gone are forgotten.
    seen_at INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    log_from INTEGER NOT NULL DEFAULT 0
);
-- The moves of running rooms, as one append-only log: a row goes on the
-- end of one b-tree, so a commit of many moves in many rooms writes a page or
-- two instead of one page per room (a (room, idx) key would scatter them).
-- A room's rows are those after its full state's log_from; older ones are
-- garbage, deleted from the front of the log (see ActionLog::clean).
CREATE TABLE IF NOT EXISTS action_log (
    id INTEGER PRIMARY KEY,
    room_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    seq INTEGER NOT NULL,
    clock TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    room_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    options TEXT NOT NULL,
    players TEXT NOT NULL,
    record TEXT NOT NULL,
    result TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    ended_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS games_ended ON games(ended_at);
CREATE TABLE IF NOT EXISTS game_players (
    game_id TEXT NOT NULL,
    player_id TEXT NOT NULL,
    ended_at INTEGER NOT NULL,
    PRIMARY KEY (player_id, game_id)
);
CREATE INDEX IF NOT EXISTS game_players_recent ON game_players(player_id, ended_at);
CREATE TABLE IF NOT EXISTS accounts (
    player_id TEXT PRIMARY KEY,
    name_key TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    hash TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
-- API tokens of bot accounts: only a SHA-256 hash of each secret is kept
-- (the secrets are 256 random bits, so a fast hash is enough). An account
-- with a token, revoked or not, is a bot account.
-- The engines' analysis of a finished game (JSON), computed once on
-- request and then shown to anyone who opens the game.
CREATE TABLE IF NOT EXISTS analyses (
    game_id TEXT PRIMARY KEY,
    analysis TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS api_tokens (
    id TEXT PRIMARY KEY,
    player_id TEXT NOT NULL,
    label TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS ratings (
    player_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (player_id, kind)
);
CREATE TABLE IF NOT EXISTS rating_history (
    game_id TEXT NOT NULL,
    player_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    before REAL NOT NULL,
    after REAL NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX IF NOT EXISTS rating_history_at ON rating_history(kind, at);
CREATE TABLE IF NOT EXISTS puzzles (
    id TEXT PRIMARY KEY,
    theme TEXT NOT NULL,
    body TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    plays INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS puzzle_answers (
    player_id TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    correct INTEGER NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (player_id, puzzle_id)
);
-- Games stored before game_players existed: index their human seats once.
INSERT OR IGNORE INTO game_players (game_id, player_id, ended_at)
    SELECT g.id, json_extract(s.value, '$.player.id'), g.ended_at
    FROM games g, json_each(g.players) s
    WHERE json_extract(s.value, '$.player.id') IS NOT NULL
      AND json_extract(s.value, '$.player.ai') IS NULL
      AND NOT EXISTS (SELECT 1 FROM game_players p WHERE p.game_id = g.id);
";

/// Opens the database at `path` (creating it when needed) as the writer
/// does: write-ahead log, full syncing (a commit is on disk before it is
/// acknowledged, so an acknowledged move survives a power cut or a file
/// system gone read-only; the group commit keeps the cost to one flush per
/// batch), every table present and migrated.
pub(super) fn open(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.execute_batch(SCHEMA)?;
    migrate(&conn)?;
    Ok(conn)
}

/// Brings a database written by an older Tabula up to date: rooms get
/// `log_from`, players `seen_at` (now, for those already there), and the
/// old per-room `room_actions` rows move to the log.
fn migrate(conn: &Connection) -> rusqlite::Result<()> {
    let has_seen_at: bool = conn.query_row(
        "SELECT COUNT(*) FROM pragma_table_info('players') WHERE name = 'seen_at'",
        [],
        |r| r.get::<_, i64>(0).map(|n| n > 0),
    )?;
    if !has_seen_at {
        conn.execute_batch(
            "ALTER TABLE players ADD COLUMN seen_at INTEGER NOT NULL DEFAULT 0;
             UPDATE players SET seen_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000;",
        )?;
    }
    let has_log_from: bool = conn.query_row(
        "SELECT COUNT(*) FROM pragma_table_info('rooms') WHERE name = 'log_from'",
        [],
        |r| r.get::<_, i64>(0).map(|n| n > 0),
    )?;
    if !has_log_from {
        conn.execute_batch("ALTER TABLE rooms ADD COLUMN log_from INTEGER NOT NULL DEFAULT 0")?;
    }
    let has_old_actions: bool = conn.query_row(
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'room_actions'",
        [],
        |r| r.get::<_, i64>(0).map(|n| n > 0),
    )?;
    if has_old_actions {
        // Every old row is still needed (they were deleted at each full save).
        conn.execute_batch(
            "BEGIN;
             INSERT INTO action_log (room_id, idx, action, seq, clock)
                 SELECT room_id, idx, action, seq, clock FROM room_actions ORDER BY room_id, idx;
             UPDATE rooms SET log_from = 0;
             DROP TABLE room_actions;
             COMMIT;",
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    use super::open;
    use crate::store::sqlite::fixtures::indices;
    use crate::store::sqlite::load::load;

    #[test]
    fn an_older_database_moves_its_per_room_actions_to_the_log() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tabula.db");
        {
            let old = Connection::open(&path).unwrap();
            old.execute_batch(
                "CREATE TABLE rooms (id TEXT PRIMARY KEY, state TEXT NOT NULL, updated_at INTEGER NOT NULL);
                 CREATE TABLE room_actions (room_id TEXT NOT NULL, idx INTEGER NOT NULL,
                     action TEXT NOT NULL, seq INTEGER NOT NULL, clock TEXT NOT NULL,
                     PRIMARY KEY (room_id, idx));
                 INSERT INTO rooms VALUES ('r', 'state', 1);
                 INSERT INTO room_actions VALUES ('r', 4, '\"x\"', 9, 'null'), ('r', 3, '\"w\"', 8, 'null');",
            )
            .unwrap();
        }
        let conn = open(&path).unwrap();
        let loaded = load(&conn).unwrap();
        assert_eq!(indices(&loaded, "r"), vec![3, 4]);
        // Opening again changes nothing.
        drop(conn);
        let conn = open(&path).unwrap();
        assert_eq!(indices(&load(&conn).unwrap(), "r"), vec![3, 4]);
    }
}
