//! The PostgreSQL database's tables, made (or brought up to date) when a
//! server connects. The same tables as the SQLite file, with PostgreSQL's
//! types; the moves of running rooms are kept per room, keyed by their index.

use tokio_postgres::Client;

/// The schema's version: what [`migrate`] brings a database up to.
pub(super) const VERSION: i32 = 5;

/// Every table and index of version 1.
const VERSION_1: &str = "
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    -- When the player last said hello (Unix ms): guests long gone are forgotten.
    seen_at BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
-- The actions of each running room since its last full save (which deletes
-- the room's rows: the state holds them).
CREATE TABLE IF NOT EXISTS room_actions (
    room_id TEXT NOT NULL,
    idx BIGINT NOT NULL,
    action TEXT NOT NULL,
    seq BIGINT NOT NULL,
    clock TEXT NOT NULL,
    PRIMARY KEY (room_id, idx)
);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    room_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    options TEXT NOT NULL,
    players TEXT NOT NULL,
    record TEXT NOT NULL,
    result TEXT NOT NULL,
    started_at BIGINT NOT NULL,
    ended_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_ended ON games(ended_at);
CREATE INDEX IF NOT EXISTS games_kind ON games(kind);
CREATE TABLE IF NOT EXISTS game_players (
    game_id TEXT NOT NULL,
    player_id TEXT NOT NULL,
    ended_at BIGINT NOT NULL,
    PRIMARY KEY (player_id, game_id)
);
CREATE INDEX IF NOT EXISTS game_players_recent ON game_players(player_id, ended_at);
CREATE TABLE IF NOT EXISTS accounts (
    player_id TEXT PRIMARY KEY,
    name_key TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    hash TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS analyses (
    game_id TEXT PRIMARY KEY,
    analysis TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
-- API tokens of bot accounts: only a SHA-256 hash of each secret.
CREATE TABLE IF NOT EXISTS api_tokens (
    id TEXT PRIMARY KEY,
    player_id TEXT NOT NULL,
    label TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    revoked BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE TABLE IF NOT EXISTS ratings (
    player_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (player_id, kind)
);
CREATE TABLE IF NOT EXISTS rating_history (
    game_id TEXT NOT NULL,
    player_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    before DOUBLE PRECISION NOT NULL,
    after DOUBLE PRECISION NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX IF NOT EXISTS rating_history_at ON rating_history(kind, at);
";

/// Version 2: which cluster node owns each running room, and until when
/// (see `leases.rs`). The expiry is the database's clock, so the nodes'
/// clocks need not agree.
const VERSION_2: &str = "
CREATE TABLE IF NOT EXISTS room_leases (
    room_id TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS room_leases_node ON room_leases (node);
";

/// Version 3: the fence. A cluster node's writer names itself in the
/// session setting `tabula.node`; a write to a room (its saved state or its
/// actions) from a node whose lease on it another node took is refused, so
/// that a node that stalled past its lease cannot overwrite, or tell its
/// players of, a room another node runs now. A server alone sets nothing
/// and is not checked.
const VERSION_3: &str = "
CREATE OR REPLACE FUNCTION tabula_fence() RETURNS trigger AS $$
DECLARE
    me TEXT := current_setting('tabula.node', true);
    room TEXT;
BEGIN
    IF me IS NOT NULL AND me <> '' THEN
        IF TG_TABLE_NAME = 'rooms' THEN
            room := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
        ELSE
            room := CASE WHEN TG_OP = 'DELETE' THEN OLD.room_id ELSE NEW.room_id END;
        END IF;
        IF EXISTS (SELECT 1 FROM room_leases WHERE room_id = room AND node <> me) THEN
            RAISE EXCEPTION 'room % is run by another node now', room;
        END IF;
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS rooms_fence ON rooms;
CREATE TRIGGER rooms_fence BEFORE INSERT OR UPDATE OR DELETE ON rooms
    FOR EACH ROW EXECUTE FUNCTION tabula_fence();
DROP TRIGGER IF EXISTS room_actions_fence ON room_actions;
CREATE TRIGGER room_actions_fence BEFORE INSERT OR UPDATE OR DELETE ON room_actions
    FOR EACH ROW EXECUTE FUNCTION tabula_fence();
";

/// Version 4: tournaments, each saved whole.
const VERSION_4: &str = "
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
";

/// Version 5: puzzles and the players' answers to them.
const VERSION_5: &str = "
CREATE TABLE IF NOT EXISTS puzzles (
    id TEXT PRIMARY KEY,
    theme TEXT NOT NULL,
    body TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    plays INTEGER NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS puzzle_answers (
    player_id TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    correct BOOLEAN NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (player_id, puzzle_id)
);
";

/// The advisory lock key that serialises migrations between servers
/// starting at once on one database.
const MIGRATION_LOCK: i64 = 0x7461_6275_6c61_0001;

/// Brings the database up to [`VERSION`]: each step not yet applied, in
/// order, in one transaction, while holding the migration lock. A database
/// written by a newer Tabula is refused.
pub(super) async fn migrate(client: &mut Client) -> Result<(), tokio_postgres::Error> {
    let tx = client.transaction().await?;
    // "relation ... already exists, skipping" on every start says nothing.
    tx.batch_execute("SET LOCAL client_min_messages = warning")
        .await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        .await?;
    let current: Option<i32> = tx
        .query_opt("SELECT version FROM schema_version", &[])
        .await?
        .map(|r| r.get(0));
    let current = current.unwrap_or(0);
    if current > VERSION {
        tracing::error!(
            database = current,
            this_server = VERSION,
            "the database was written by a newer Tabula; carrying on may fail"
        );
    }
    if current < 1 {
        tx.batch_execute(VERSION_1).await?;
    }
    if current < 2 {
        tx.batch_execute(VERSION_2).await?;
    }
    if current < 3 {
        tx.batch_execute(VERSION_3).await?;
    }
    if current < 4 {
        tx.batch_execute(VERSION_4).await?;
    }
    if current < 5 {
        tx.batch_execute(VERSION_5).await?;
    }
    if current < VERSION {
        tx.execute("DELETE FROM schema_version", &[]).await?;
        tx.execute(
            "INSERT INTO schema_version (version) VALUES ($1)",
            &[&VERSION],
        )
        .await?;
    }
    tx.commit().await
}
