//! The store: the only code that speaks SQL.
//!
//! One embedded SQLite file (`tabula.db` in the data directory) holds the
//! players, every running room (saved after each change, before the change is
//! broadcast) and every finished game with its full record.
//!
//! All writes go through one writer thread. It takes whatever requests are
//! queued, runs them in one transaction and then answers them all (group
//! commit), so thousands of moves per second cost a handful of commits.

use std::path::Path;
use std::thread;

use rusqlite::{Connection, params};
use tokio::sync::{mpsc, oneshot};

/// A store error, with SQLite's reason.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused.
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The data directory could not be created.
    #[error("data directory: {0}")]
    Io(#[from] std::io::Error),
    /// The writer thread is gone (the server is shutting down).
    #[error("store closed")]
    Closed,
}

/// A saved player identity.
#[derive(Debug, Clone)]
pub struct PlayerRow {
    /// Public id.
    pub id: String,
    /// Secret resume token.
    pub token: String,
    /// Display name.
    pub name: String,
}

/// One game action of a running room, saved on its own so that a move costs
/// a small insert instead of rewriting the room.
#[derive(Debug, Clone)]
pub struct AppendedAction {
    /// The room.
    pub room_id: String,
    /// The action's index in the room's record.
    pub index: u64,
    /// The action, JSON.
    pub action: String,
    /// The room's event number after this action.
    pub seq: u64,
    /// The clock after this action, JSON (`null` without a clock).
    pub clock: String,
}

/// A finished game, as kept for history and export.
#[derive(Debug, Clone)]
pub struct FinishedGame {
    /// Unique id of this game.
    pub id: String,
    /// The room it was played in.
    pub room_id: String,
    /// `gomoku` or `backgammon`.
    pub kind: String,
    /// Room options, JSON.
    pub options: String,
    /// Seats with players, JSON.
    pub players: String,
    /// The whole record (every move and roll), JSON.
    pub record: String,
    /// The result, JSON.
    pub result: String,
    /// Unix milliseconds.
    pub started_at: i64,
    /// Unix milliseconds.
    pub ended_at: i64,
}

enum Write {
    Player(PlayerRow),
    Room {
        id: String,
        state: String,
    },
    /// One action appended to a running room since its last full save.
    Action(Box<AppendedAction>),
    DeleteRoom {
        id: String,
    },
    Game(Box<FinishedGame>),
}

struct Request {
    write: Write,
    done: oneshot::Sender<Result<(), String>>,
}

/// A handle to the store; cheap to clone.
#[derive(Clone)]
pub struct Store {
    tx: mpsc::UnboundedSender<Request>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS room_actions (
    room_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    seq INTEGER NOT NULL,
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
    started_at INTEGER NOT NULL,
    ended_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS games_ended ON games(ended_at);
";

fn open(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.execute_batch(SCHEMA)?;
    Ok(conn)
}

/// What the store held at start-up.
pub struct Loaded {
    /// Every known player.
    pub players: Vec<PlayerRow>,
    /// Every saved room: (id, state JSON, actions appended since, in order).
    pub rooms: Vec<(String, String, Vec<AppendedAction>)>,
}

impl Store {
    /// Opens (creating when needed) `tabula.db` in `dir`, reads what it holds,
    /// and starts the writer thread.
    ///
    /// # Errors
    /// When the directory or database cannot be created or read.
    pub fn open(dir: &Path) -> Result<(Store, Loaded), StoreError> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join("tabula.db");
        let conn = open(&path)?;
        let loaded = load(&conn)?;
        let (tx, rx) = mpsc::unbounded_channel();
        thread::Builder::new()
            .name("tabula-store".into())
            .spawn(move || writer(conn, rx))?;
        Ok((Store { tx }, loaded))
    }

    async fn write(&self, write: Write) -> Result<(), StoreError> {
        let (done, wait) = oneshot::channel();
        self.tx
            .send(Request { write, done })
            .map_err(|_| StoreError::Closed)?;
        match wait.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(message)) => Err(StoreError::Sqlite(rusqlite::Error::InvalidParameterName(
                message,
            ))),
            Err(_) => Err(StoreError::Closed),
        }
    }

    /// Saves a player identity.
    pub async fn save_player(&self, row: PlayerRow) -> Result<(), StoreError> {
        self.write(Write::Player(row)).await
    }

    /// Saves a room's whole state.
    pub async fn save_room(&self, id: String, state: String) -> Result<(), StoreError> {
        self.write(Write::Room { id, state }).await
    }

    /// Saves one action of a running room (cheaper than [`Store::save_room`]).
    pub async fn append_action(&self, action: AppendedAction) -> Result<(), StoreError> {
        self.write(Write::Action(Box::new(action))).await
    }

    /// Forgets a closed room.
    pub async fn delete_room(&self, id: String) -> Result<(), StoreError> {
        self.write(Write::DeleteRoom { id }).await
    }

    /// Keeps a finished game forever.
    pub async fn save_game(&self, game: FinishedGame) -> Result<(), StoreError> {
        self.write(Write::Game(Box::new(game))).await
    }
}

fn load(conn: &Connection) -> Result<Loaded, StoreError> {
    let mut players = Vec::new();
    let mut stmt = conn.prepare("SELECT id, token, name FROM players")?;
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
    let mut rooms = Vec::new();
    let mut stmt = conn.prepare("SELECT id, state FROM rooms")?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
    let mut actions = conn.prepare(
        "SELECT idx, action, seq, clock FROM room_actions WHERE room_id = ?1 ORDER BY idx",
    )?;
    for row in rows {
        let (id, state) = row?;
        let appended = actions
            .query_map(params![id], |r| {
                Ok(AppendedAction {
                    room_id: id.clone(),
                    index: r.get::<_, i64>(0)? as u64,
                    action: r.get(1)?,
                    seq: r.get::<_, i64>(2)? as u64,
                    clock: r.get(3)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rooms.push((id, state, appended));
    }
    Ok(Loaded { players, rooms })
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn apply(conn: &Connection, write: &Write) -> rusqlite::Result<()> {
    match write {
        Write::Player(p) => {
            conn.prepare_cached(
                "INSERT INTO players (id, token, name) VALUES (?1, ?2, ?3)
                 ON CONFLICT(id) DO UPDATE SET name = excluded.name",
            )?
            .execute(params![p.id, p.token, p.name])?;
        }
        Write::Room { id, state } => {
            conn.prepare_cached(
                "INSERT INTO rooms (id, state, updated_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT(id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at",
            )?
            .execute(params![id, state, now_ms()])?;
            // The full state holds every action so far.
            conn.prepare_cached("DELETE FROM room_actions WHERE room_id = ?1")?
                .execute(params![id])?;
        }
        Write::Action(a) => {
            conn.prepare_cached(
                "INSERT OR REPLACE INTO room_actions (room_id, idx, action, seq, clock)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                a.room_id,
                a.index as i64,
                a.action,
                a.seq as i64,
                a.clock
            ])?;
        }
        Write::DeleteRoom { id } => {
            conn.prepare_cached("DELETE FROM rooms WHERE id = ?1")?
                .execute(params![id])?;
            conn.prepare_cached("DELETE FROM room_actions WHERE room_id = ?1")?
                .execute(params![id])?;
        }
        Write::Game(g) => {
            conn.prepare_cached(
                "INSERT OR REPLACE INTO games
                 (id, room_id, kind, options, players, record, result, started_at, ended_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )?
            .execute(params![
                g.id,
                g.room_id,
                g.kind,
                g.options,
                g.players,
                g.record,
                g.result,
                g.started_at,
                g.ended_at
            ])?;
        }
    }
    Ok(())
}

/// The writer thread: group commit of everything queued.
fn writer(mut conn: Connection, mut rx: mpsc::UnboundedReceiver<Request>) {
    while let Some(first) = rx.blocking_recv() {
        let mut batch = vec![first];
        while batch.len() < 512 {
            match rx.try_recv() {
                Ok(request) => batch.push(request),
                Err(_) => break,
            }
        }
        let outcome = (|| -> rusqlite::Result<Vec<Result<(), String>>> {
            let tx = conn.transaction()?;
            let results = batch
                .iter()
                .map(|r| apply(&tx, &r.write).map_err(|e| e.to_string()))
                .collect();
            tx.commit()?;
            Ok(results)
        })();
        match outcome {
            Ok(results) => {
                for (request, result) in batch.into_iter().zip(results) {
                    if let Err(e) = &result {
                        tracing::error!(error = %e, "store write failed");
                    }
                    let _ = request.done.send(result);
                }
            }
            Err(e) => {
                tracing::error!(error = %e, "store commit failed");
                for request in batch {
                    let _ = request.done.send(Err(e.to_string()));
                }
            }
        }
    }
}

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
