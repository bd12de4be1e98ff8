//! The store: the only code that speaks SQL.
//!
//! One embedded SQLite file (`tabula.db` in the data directory) holds the
//! players, every running room (saved after each change, before the change is
//! broadcast) and every finished game with its full record.
//!
//! Registered accounts (argon2id hashes only), Glicko-2 ratings per game and
//! the rating history behind the weekly leaderboard live here too.
//!
//! All writes go through one writer thread. It takes whatever requests are
//! queued, runs them in one transaction and then answers them all (group
//! commit), so thousands of moves per second cost a handful of commits.

use std::path::Path;
use std::thread;

use rusqlite::{Connection, OptionalExtension, params};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use tabula_shared::gomoku::Seat;
use tabula_shared::protocol::{
    FinishedGame as GameView, GameKind, GameResult, GameSummary, LeaderboardEntry,
    LeaderboardPeriod, RatingChange, RoomOptions, SeatInfo,
};
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

/// A registered account: a player id, its reserved name and its password hash.
#[derive(Debug, Clone)]
pub struct AccountRow {
    /// The player it belongs to.
    pub player_id: String,
    /// The reserved name, as registered.
    pub name: String,
    /// The argon2id PHC string.
    pub hash: String,
}

/// A deviation above this marks a rating as provisional (as on lichess).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

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
    /// The human players' ids by seat (`None` for an AI or empty seat).
    pub humans: [Option<String>; 2],
    /// Update both players' ratings with this result.
    pub rated: bool,
    /// The winner, for the rating update (`None` = draw).
    pub winner: Option<Seat>,
    /// The room's own state at the game's end, saved in the same
    /// transaction: a restart never finds the game stored but the room
    /// still running it (which would end it, and store it, again).
    pub room_state: Option<String>,
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
    Account(AccountRow),
    /// Commit what was queued before, then stop the writer and release the
    /// data directory; answered once it is released.
    Close,
}

type ReadJob = Box<dyn FnOnce(&Connection) + Send>;

struct Request {
    write: Write,
    done: oneshot::Sender<Result<Vec<RatingChange>, String>>,
}

/// A handle to the store; cheap to clone.
#[derive(Clone)]
pub struct Store {
    tx: mpsc::UnboundedSender<Request>,
    /// Reads (history, leaderboards) go to a connection and thread of their
    /// own, so that a slow or flooded read never holds up a commit of moves.
    /// `None` stops the reader ([`Store::close`]).
    reads: mpsc::UnboundedSender<Option<ReadJob>>,
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
    updated_at INTEGER NOT NULL,
    log_from INTEGER NOT NULL DEFAULT 0
);
-- The moves of running rooms, as one append-only log: a row goes on the
-- end of one b-tree, so a commit of many moves in many rooms writes a page or
-- two instead of one page per room (a (room, idx) key scattered them).
-- A room's rows are those after its full state's log_from; older ones are
-- garbage, deleted from the front of the log (see log_maintenance).
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
-- Games stored before game_players existed: index their human seats once.
INSERT OR IGNORE INTO game_players (game_id, player_id, ended_at)
    SELECT g.id, json_extract(s.value, '$.player.id'), g.ended_at
    FROM games g, json_each(g.players) s
    WHERE json_extract(s.value, '$.player.id') IS NOT NULL
      AND json_extract(s.value, '$.player.ai') IS NULL
      AND NOT EXISTS (SELECT 1 FROM game_players p WHERE p.game_id = g.id);
";

/// The case-insensitive key under which a name is reserved.
pub fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// The key of what a name looks like: names with the same look key could
/// pass for each other ("Ada" with a Cyrillic "А", "ℬob" and "Bob", "paypaI"
/// and "paypal"). The skeleton of Unicode's confusable detection (UTS #39),
/// taken before and after lower-casing, so that case does not tell names
/// apart either.
pub fn look_key(name: &str) -> String {
    use unicode_security::confusable_detection::skeleton;
    let skeleton_of = |s: &str| skeleton(s).collect::<String>();
    skeleton_of(&skeleton_of(name.trim()).to_lowercase())
}

/// SQLite allocates with the C library's malloc, not the Rust allocator.
/// glibc hands a thread heap's free top back to the kernel (`madvise`) once
/// it passes 128 KiB, and the writer's commits freed and grew that much
/// again all the time: at 36k moves/s, perf put a quarter to a third of the
/// writer thread's time in `madvise` and the TLB shoot-down interrupts it
/// sends to every other core, and more in page faults getting the memory
/// back. Kept up to 64 MiB instead (SQLite's page caches are 2 MiB a
/// connection), the writer thread used about 40% less CPU at that rate.
fn keep_freed_c_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator tunable; it takes any value.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
    }
}

fn open(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.execute_batch(SCHEMA)?;
    migrate(&conn)?;
    Ok(conn)
}

/// Brings a database written by an older Tabula up to date: rooms get
/// `log_from`, and the old per-room `room_actions` rows move to the log.
fn migrate(conn: &Connection) -> rusqlite::Result<()> {
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

/// What the store held at start-up.
pub struct Loaded {
    /// Every known player.
    pub players: Vec<PlayerRow>,
    /// Every registered account.
    pub accounts: Vec<AccountRow>,
    /// Every saved room: (id, state JSON, actions appended since, in order).
    pub rooms: Vec<(String, String, Vec<AppendedAction>)>,
}

impl Store {
    /// Opens (creating when needed) `tabula.db` in `dir`, reads what it holds,
    /// and starts the writer thread.
    ///
    /// A server still shutting down on the directory gets up to `wait` to
    /// finish and release it (a restart); blocks meanwhile.
    ///
    /// # Errors
    /// When the directory or database cannot be created or read, or another
    /// server still uses the directory after `wait`.
    pub fn open(dir: &Path, wait: std::time::Duration) -> Result<(Store, Loaded), StoreError> {
        std::fs::create_dir_all(dir)?;
        // A second server started on the same directory fails instead of
        // sharing it. (Not SQLite's exclusive locking mode: that would shut
        // out the checkpointer's connection.) The lock goes when the writer
        // stops ([`Store::close`]) or the process ends.
        let lock = std::fs::File::create(dir.join("tabula.lock"))?;
        let deadline = std::time::Instant::now() + wait;
        loop {
            match lock.try_lock() {
                Ok(()) => break,
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
        keep_freed_c_heap();
        let path = dir.join("tabula.db");
        let conn = open(&path)?;
        let loaded = load(&conn)?;
        let log = ActionLog::read(&conn)?;
        // The writer never checkpoints; the checkpointer thread does, beside it.
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        conn.pragma_update(None, "journal_size_limit", WAL_KEEP_BYTES)?;
        let checkpoints = Connection::open(&path)?;
        checkpoints.busy_timeout(std::time::Duration::from_secs(5))?;
        let (writer_alive, writer_gone) = std::sync::mpsc::channel::<()>();
        let checkpointer = thread::Builder::new()
            .name("tabula-checkpoint".into())
            .spawn(move || checkpointer(checkpoints, writer_gone))?;
        let reader = Connection::open(&path)?;
        reader.busy_timeout(std::time::Duration::from_secs(5))?;
        reader.pragma_update(None, "query_only", true)?;
        let (reads, mut jobs) = mpsc::unbounded_channel::<Option<ReadJob>>();
        thread::Builder::new()
            .name("tabula-reader".into())
            .spawn(move || {
                while let Some(Some(job)) = jobs.blocking_recv() {
                    job(&reader);
                }
            })?;
        let (tx, rx) = mpsc::unbounded_channel();
        thread::Builder::new()
            .name("tabula-store".into())
            .spawn(move || {
                let close = writer(conn, rx, log);
                drop(writer_alive);
                let _ = checkpointer.join();
                drop(lock);
                if let Some(done) = close {
                    let _ = done.send(Ok(Vec::new()));
                }
            })?;
        Ok((Store { tx, reads }, loaded))
    }

    /// Commits everything queued so far, stops the writer and releases the
    /// data directory (a server started next on it may open it at once).
    /// Writes and reads queued after this fail with [`StoreError::Closed`].
    pub async fn close(&self) {
        let _ = self.reads.send(None);
        let _ = self.queue(Write::Close).await;
    }

    /// Queues `write` now, when called (not when the future is first
    /// polled), and returns its outcome once it has been committed. Writes
    /// are committed in the order they are queued, so anything queued later
    /// is durable only once this is: a player's save, queued before the
    /// welcome goes out, is never behind the room that player creates next.
    fn queue(
        &self,
        write: Write,
    ) -> impl Future<Output = Result<Vec<RatingChange>, StoreError>> + Send + 'static {
        let (done, wait) = oneshot::channel();
        let sent = self.tx.send(Request { write, done });
        async move {
            sent.map_err(|_| StoreError::Closed)?;
            match wait.await {
                Ok(Ok(changes)) => Ok(changes),
                Ok(Err(message)) => Err(StoreError::Sqlite(rusqlite::Error::InvalidParameterName(
                    message,
                ))),
                Err(_) => Err(StoreError::Closed),
            }
        }
    }

    /// [`Store::queue`] for a write that returns nothing.
    fn write(&self, write: Write) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        let done = self.queue(write);
        async move { done.await.map(|_| ()) }
    }

    /// Saves a player identity.
    pub fn save_player(
        &self,
        row: PlayerRow,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        self.write(Write::Player(row))
    }

    /// Saves a room's whole state.
    pub fn save_room(
        &self,
        id: String,
        state: String,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        self.write(Write::Room { id, state })
    }

    /// Saves one action of a running room (cheaper than [`Store::save_room`]).
    pub fn append_action(
        &self,
        action: AppendedAction,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        self.write(Write::Action(Box::new(action)))
    }

    /// Forgets a closed room.
    pub fn delete_room(
        &self,
        id: String,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        self.write(Write::DeleteRoom { id })
    }

    /// Keeps a finished game forever and, for a rated game, updates both
    /// ratings in the same transaction; returns how they moved.
    pub fn save_game(
        &self,
        game: FinishedGame,
    ) -> impl Future<Output = Result<Vec<RatingChange>, StoreError>> + Send + 'static {
        self.queue(Write::Game(Box::new(game)))
    }

    /// Saves a new account. Fails if the name or the player is already registered.
    pub fn save_account(
        &self,
        account: AccountRow,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        self.write(Write::Account(account))
    }

    /// Runs a read on the reader thread; it sees every write committed
    /// before it is queued.
    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = oneshot::channel();
        let job: ReadJob = Box::new(move |conn| {
            let _ = tx.send(f(conn));
        });
        self.reads.send(Some(job)).map_err(|_| StoreError::Closed)?;
        rx.await
            .map_err(|_| StoreError::Closed)?
            .map_err(StoreError::Sqlite)
    }

    /// One page of a player's finished games, newest first, and how many there are.
    pub async fn list_games(
        &self,
        player_id: String,
        offset: u32,
        limit: u32,
    ) -> Result<(u32, Vec<GameSummary>), StoreError> {
        self.read(move |conn| {
            let total: u32 = conn.query_row(
                "SELECT COUNT(*) FROM game_players WHERE player_id = ?1",
                params![player_id],
                |r| r.get(0),
            )?;
            let mut stmt = conn.prepare_cached(
                "SELECT g.id, g.options, g.players, g.result, g.record, g.started_at, g.ended_at
                 FROM game_players p JOIN games g ON g.id = p.game_id
                 WHERE p.player_id = ?1
                 ORDER BY p.ended_at DESC, g.id DESC LIMIT ?2 OFFSET ?3",
            )?;
            let rows = stmt.query_map(params![player_id, limit, offset], game_row)?;
            let games = rows
                .filter_map(|row| row.map(|o| o.map(|(summary, _)| summary)).transpose())
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok((total, games))
        })
        .await
    }

    /// One finished game with its record, if the id is known.
    pub async fn game(&self, game_id: String) -> Result<Option<GameView>, StoreError> {
        self.read(move |conn| {
            let row = conn
                .query_row(
                    "SELECT id, options, players, result, record, started_at, ended_at
                     FROM games WHERE id = ?1",
                    params![game_id],
                    game_row,
                )
                .optional()?;
            Ok(row
                .flatten()
                .map(|(summary, record)| GameView { summary, record }))
        })
        .await
    }

    /// The top 50 of a game's leaderboard.
    pub async fn leaderboard(
        &self,
        kind: GameKind,
        period: LeaderboardPeriod,
        now_ms: i64,
    ) -> Result<Vec<LeaderboardEntry>, StoreError> {
        self.read(move |conn| {
            let kind = kind_name(kind);
            let entry = |rank: usize,
                         r: &rusqlite::Row<'_>,
                         change: Option<f64>|
             -> rusqlite::Result<LeaderboardEntry> {
                let deviation: f64 = r.get(3)?;
                Ok(LeaderboardEntry {
                    rank: rank as u32 + 1,
                    player_id: r.get(0)?,
                    name: r.get(1)?,
                    rating: r.get::<_, f64>(2)?.round() as i32,
                    deviation: deviation.round() as i32,
                    provisional: deviation > PROVISIONAL_DEVIATION,
                    games: r.get(4)?,
                    change: change.map(|c| c.round() as i32),
                })
            };
            let mut out = Vec::new();
            match period {
                LeaderboardPeriod::AllTime => {
                    let mut stmt = conn.prepare_cached(
                        "SELECT r.player_id, a.name, r.rating, r.deviation, r.games
                         FROM ratings r JOIN accounts a ON a.player_id = r.player_id
                         WHERE r.kind = ?1 ORDER BY r.rating DESC, a.name LIMIT 50",
                    )?;
                    let mut rows = stmt.query(params![kind])?;
                    while let Some(r) = rows.next()? {
                        out.push(entry(out.len(), r, None)?);
                    }
                }
                LeaderboardPeriod::Week => {
                    let since = now_ms - 7 * 24 * 3600 * 1000;
                    let mut stmt = conn.prepare_cached(
                        "SELECT h.player_id, a.name, r.rating, r.deviation, COUNT(*),
                                SUM(h.after - h.before) AS gain
                         FROM rating_history h
                         JOIN accounts a ON a.player_id = h.player_id
                         JOIN ratings r ON r.player_id = h.player_id AND r.kind = h.kind
                         WHERE h.kind = ?1 AND h.at >= ?2
                         GROUP BY h.player_id ORDER BY gain DESC, r.rating DESC LIMIT 50",
                    )?;
                    let mut rows = stmt.query(params![kind, since])?;
                    while let Some(r) = rows.next()? {
                        let gain: f64 = r.get(5)?;
                        out.push(entry(out.len(), r, Some(gain))?);
                    }
                }
            }
            Ok(out)
        })
        .await
    }
}

/// Reads one `games` row into a summary and its record; `None` when the
/// stored JSON no longer parses (an older format), so one bad row does not
/// hide a player's whole history.
#[allow(clippy::type_complexity)]
fn game_row(
    r: &rusqlite::Row<'_>,
) -> rusqlite::Result<Option<(GameSummary, tabula_shared::protocol::GameRecord)>> {
    let id: String = r.get(0)?;
    let options: String = r.get(1)?;
    let players: String = r.get(2)?;
    let result: String = r.get(3)?;
    let record: String = r.get(4)?;
    let parsed = (|| -> serde_json::Result<_> {
        let options: RoomOptions = serde_json::from_str(&options)?;
        let seats: Vec<SeatInfo> = serde_json::from_str(&players)?;
        let result: GameResult = serde_json::from_str(&result)?;
        let record: tabula_shared::protocol::GameRecord = serde_json::from_str(&record)?;
        Ok((options, seats, result, record))
    })();
    let Ok((options, seats, result, record)) = parsed else {
        tracing::warn!(game = %id, "a stored game does not parse; skipped");
        return Ok(None);
    };
    Ok(Some((
        GameSummary {
            game_id: id,
            options,
            seats,
            result,
            actions: record.len() as u32,
            started_at: r.get(5)?,
            ended_at: r.get(6)?,
        },
        record,
    )))
}

/// The name a game kind has in the database.
fn kind_name(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Gomoku => "gomoku",
        GameKind::Backgammon => "backgammon",
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
    Ok(Loaded {
        players,
        accounts,
        rooms,
    })
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Saves a room's whole state.
fn save_room(
    conn: &Connection,
    log: &mut ActionLog,
    id: &str,
    state: &str,
) -> rusqlite::Result<()> {
    // The full state holds every action so far: the log rows before this
    // point are no longer this room's.
    conn.prepare_cached(
        "INSERT INTO rooms (id, state, updated_at, log_from) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(id) DO UPDATE SET state = excluded.state,
            updated_at = excluded.updated_at, log_from = excluded.log_from",
    )?
    .execute(params![id, state, now_ms(), log.saved(id)])?;
    Ok(())
}

fn apply(
    conn: &Connection,
    log: &mut ActionLog,
    write: &Write,
) -> rusqlite::Result<Vec<RatingChange>> {
    match write {
        Write::Player(p) => {
            conn.prepare_cached(
                "INSERT INTO players (id, token, name) VALUES (?1, ?2, ?3)
                 ON CONFLICT(id) DO UPDATE SET name = excluded.name",
            )?
            .execute(params![p.id, p.token, p.name])?;
        }
        Write::Room { id, state } => save_room(conn, log, id, state)?,
        Write::Action(a) => log.append(&mut *conn.prepare_cached(APPEND)?, a)?,
        Write::DeleteRoom { id } => {
            // Its log rows become garbage, deleted with the front of the log.
            conn.prepare_cached("DELETE FROM rooms WHERE id = ?1")?
                .execute(params![id])?;
            log.forget(id);
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
            for id in g.humans.iter().flatten() {
                conn.prepare_cached(
                    "INSERT OR IGNORE INTO game_players (game_id, player_id, ended_at)
                     VALUES (?1, ?2, ?3)",
                )?
                .execute(params![g.id, id, g.ended_at])?;
            }
            let changes = match &g.humans {
                [Some(first), Some(second)] if g.rated => rate(conn, g, first, second)?,
                _ => Vec::new(),
            };
            if let Some(state) = &g.room_state {
                save_room(conn, log, &g.room_id, state)?;
            }
            return Ok(changes);
        }
        Write::Close => {}
        Write::Account(a) => {
            conn.prepare_cached(
                "INSERT INTO accounts (player_id, name_key, name, hash, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                a.player_id,
                name_key(&a.name),
                a.name,
                a.hash,
                now_ms()
            ])?;
        }
    }
    Ok(Vec::new())
}

/// Updates both players' Glicko-2 ratings for one rated result (the
/// `skillratings` crate's formulas, one game as one rating period, tau 0.5).
fn rate(
    conn: &Connection,
    game: &FinishedGame,
    first: &str,
    second: &str,
) -> rusqlite::Result<Vec<RatingChange>> {
    let load = |player: &str| -> rusqlite::Result<Glicko2Rating> {
        Ok(conn
            .prepare_cached(
                "SELECT rating, deviation, volatility FROM ratings WHERE player_id = ?1 AND kind = ?2",
            )?
            .query_row(params![player, game.kind], |r| {
                Ok(Glicko2Rating {
                    rating: r.get(0)?,
                    deviation: r.get(1)?,
                    volatility: r.get(2)?,
                })
            })
            .optional()?
            .unwrap_or_default())
    };
    let before = [load(first)?, load(second)?];
    let outcome = match game.winner {
        Some(Seat::First) => Outcomes::WIN,
        Some(Seat::Second) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let (a, b) = glicko2(&before[0], &before[1], &outcome, &Glicko2Config::new());
    let mut changes = Vec::new();
    for (seat, player, old, new) in [
        (Seat::First, first, before[0], a),
        (Seat::Second, second, before[1], b),
    ] {
        conn.prepare_cached(
            "INSERT INTO ratings (player_id, kind, rating, deviation, volatility, games)
             VALUES (?1, ?2, ?3, ?4, ?5, 1)
             ON CONFLICT(player_id, kind) DO UPDATE SET rating = excluded.rating,
                deviation = excluded.deviation, volatility = excluded.volatility,
                games = games + 1",
        )?
        .execute(params![
            player,
            game.kind,
            new.rating,
            new.deviation,
            new.volatility
        ])?;
        conn.prepare_cached(
            "INSERT OR REPLACE INTO rating_history (game_id, player_id, kind, before, after, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?
        .execute(params![
            game.id,
            player,
            game.kind,
            old.rating,
            new.rating,
            game.ended_at
        ])?;
        changes.push(RatingChange {
            seat,
            player_id: player.to_string(),
            before: old.rating.round() as i32,
            after: new.rating.round() as i32,
            provisional: new.deviation > PROVISIONAL_DEVIATION,
        });
    }
    Ok(changes)
}

/// The most requests one transaction carries.
const MAX_BATCH: usize = 512;
/// A commit within this long of the previous one means the store is busy.
const BUSY: std::time::Duration = std::time::Duration::from_millis(2);
/// A batch this large means requests are piling up.
const BUSY_BATCH: usize = 2;
/// How long a busy writer waits for more requests before committing: at
/// least `LINGER`, `LINGER_PER_REQUEST` for each request the last batch
/// carried, at most `MAX_LINGER`. Each commit writes whole pages to the log,
/// so above ~10,000 moves/s a commit that carries tens of moves instead of a
/// few writes a fraction of the bytes per move (loadtest: the saturated move
/// rate rose by about 4%, and held steadier).
const LINGER: std::time::Duration = std::time::Duration::from_micros(500);
const LINGER_PER_REQUEST: std::time::Duration = std::time::Duration::from_micros(100);
const MAX_LINGER: std::time::Duration = std::time::Duration::from_millis(2);
/// A commit this slow (a stalled disk) is logged as a warning.
const SLOW_COMMIT: std::time::Duration = std::time::Duration::from_secs(1);

/// How often the checkpointer copies the write-ahead log into the database.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(200);
/// A log longer than this many pages (256 MiB at SQLite's 4 KiB pages) is
/// started over with the writer held back for a moment (5-50 ms measured at
/// 2,048 pages). Loadtest's 4 s peak steps stay under it (their log restarts
/// by itself in the quiet between steps).
const WAL_LIMIT_PAGES: i64 = 65_536;
/// A log started over is cut back to this many bytes (the limit's size).
/// Not less: below it, a busy server reuses the file's pages already in
/// memory instead of having the kernel allocate and zero new ones (perf at
/// 16,000 moves/s: page zeroing was 1.7% of the server's CPU while the log
/// grew into new space).
const WAL_KEEP_BYTES: i64 = WAL_LIMIT_PAGES * 4096;

/// The checkpointer thread: copies the write-ahead log into the database
/// beside the writer (a passive checkpoint waits for nobody), until the
/// writer is gone.
///
/// The writer used to checkpoint itself every 100 pages: each one stalled
/// every move queued behind it and copied the same hot pages again and
/// again. With checkpoints here, a few times a second, loadtest's 2,000-game
/// p99 fell from 3.4-4.9 ms to 1.6 ms, and its saturated move rate rose by
/// 1-16% in alternating runs (the machine's noise is of that size too).
fn checkpointer(conn: Connection, writer_gone: std::sync::mpsc::Receiver<()>) {
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
/// meanwhile (one 8 s loadtest step at 20 moves/s per game grew it to
/// 173 MB). A restart checkpoint holds the writer back while it copies the
/// frames left, which are few right after the passive one.
fn checkpoint(conn: &Connection, limit: i64) -> rusqlite::Result<(i64, bool)> {
    let log: i64 = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get(1))?;
    if log <= limit {
        return Ok((log, false));
    }
    let busy: i64 = conn.query_row("PRAGMA wal_checkpoint(RESTART)", [], |r| r.get(0))?;
    Ok((log, busy == 0))
}

/// Runs one SQL statement with no parameters, prepared once per connection.
fn exec(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(sql)?.execute([]).map(|_| ())
}

/// Log rows appended between two clean-ups of the log's front. Small and
/// often: a clean-up holds up the moves queued behind it, so each one is
/// kept to a few milliseconds.
const LOG_CLEAN_EVERY: u64 = 2_000;
/// A room whose live rows start this far behind the end of the log has them
/// copied to the end, so one quiet game does not keep the whole log alive.
const LOG_PIN_SPAN: i64 = 200_000;
/// At most about this many rows are copied by one clean-up (the oldest
/// pinned rooms first); the rest wait for the next one.
const LOG_COPY_BUDGET: usize = 400;
/// At most this many rows are deleted from the front by one clean-up (twice
/// what is appended between two, so the deletion keeps up).
const LOG_DELETE_BUDGET: i64 = 4_000;

/// The writer's view of the action log: the next row number, the numbers of
/// each room's live rows (so that the log's front, every row before the first
/// live one, can be deleted, and a pinned room's rows copied, without a
/// scan), and how many rows were appended since the last clean-up.
///
/// Rows are numbered here rather than by SQLite's AUTOINCREMENT, whose
/// counter row would be one more page written by every commit.
struct ActionLog {
    next_id: i64,
    /// No row is numbered below this (the deleted front's end).
    deleted_below: i64,
    live: std::collections::HashMap<String, Vec<i64>>,
    appended: u64,
}

impl ActionLog {
    /// Reads the log's state (at start-up, and after a failed transaction).
    /// The next number is above every row and every room's `log_from`, so a
    /// number is never used twice, even once the whole log has been deleted.
    fn read(conn: &Connection) -> rusqlite::Result<ActionLog> {
        let last: i64 = conn.query_row(
            "SELECT MAX(COALESCE((SELECT MAX(id) FROM action_log), 0),
                        COALESCE((SELECT MAX(log_from) FROM rooms), 0))",
            [],
            |r| r.get(0),
        )?;
        let mut stmt = conn.prepare(
            "SELECT l.room_id, l.id FROM action_log l JOIN rooms r ON r.id = l.room_id
             WHERE l.id > r.log_from ORDER BY l.id",
        )?;
        let mut live: std::collections::HashMap<String, Vec<i64>> = Default::default();
        for row in stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get(1)?)))? {
            let (room, id) = row?;
            live.entry(room).or_default().push(id);
        }
        let lowest: Option<i64> =
            conn.query_row("SELECT MIN(id) FROM action_log", [], |r| r.get(0))?;
        Ok(ActionLog {
            next_id: last + 1,
            deleted_below: lowest.unwrap_or(last + 1),
            live,
            appended: 0,
        })
    }

    /// Appends one action with `insert`, a statement of [`APPEND`].
    fn append(
        &mut self,
        insert: &mut rusqlite::Statement,
        a: &AppendedAction,
    ) -> rusqlite::Result<()> {
        insert.execute(params![
            self.next_id,
            a.room_id,
            a.index as i64,
            a.action,
            a.seq as i64,
            a.clock
        ])?;
        match self.live.get_mut(&a.room_id) {
            Some(ids) => ids.push(self.next_id),
            None => {
                self.live.insert(a.room_id.clone(), vec![self.next_id]);
            }
        }
        self.next_id += 1;
        self.appended += 1;
        Ok(())
    }

    /// The `log_from` of a room saved now: its rows so far are in the state.
    fn saved(&mut self, room: &str) -> i64 {
        self.live.remove(room);
        self.next_id - 1
    }

    fn forget(&mut self, room: &str) {
        self.live.remove(room);
    }

    fn due(&self) -> bool {
        self.appended >= LOG_CLEAN_EVERY
    }

    /// The first live row of any room: every row before it is garbage.
    fn front(&self) -> i64 {
        self.live
            .values()
            .filter_map(|ids| ids.first().copied())
            .min()
            .unwrap_or(self.next_id)
    }

    /// Copies long-pinned rooms' rows to the end, then deletes rows before
    /// the first live one, each within its budget, in one transaction.
    fn clean(&mut self, conn: &Connection) -> rusqlite::Result<()> {
        exec(conn, "BEGIN")?;
        let end = self.next_id - 1;
        let mut pinned: Vec<(i64, String)> = self
            .live
            .iter()
            .filter_map(|(room, ids)| Some((*ids.first()?, room)))
            .filter(|(first, _)| *first < end - LOG_PIN_SPAN)
            .map(|(first, room)| (first, room.clone()))
            .collect();
        pinned.sort_unstable();
        let mut budget = LOG_COPY_BUDGET;
        for (_, room) in pinned {
            let Some(ids) = self.live.get_mut(&room) else {
                continue;
            };
            if budget == 0 {
                break;
            }
            budget = budget.saturating_sub(ids.len());
            let log_from = self.next_id - 1;
            for id in ids.iter_mut() {
                conn.prepare_cached(
                    "INSERT INTO action_log (id, room_id, idx, action, seq, clock)
                     SELECT ?1, room_id, idx, action, seq, clock FROM action_log WHERE id = ?2",
                )?
                .execute(params![self.next_id, *id])?;
                *id = self.next_id;
                self.next_id += 1;
            }
            conn.prepare_cached("UPDATE rooms SET log_from = ?1 WHERE id = ?2")?
                .execute(params![log_from, room])?;
        }
        let below = self
            .front()
            .min(self.deleted_below + LOG_DELETE_BUDGET)
            .max(self.deleted_below);
        conn.prepare_cached("DELETE FROM action_log WHERE id < ?1")?
            .execute(params![below])?;
        exec(conn, "COMMIT")?;
        self.deleted_below = below;
        self.appended = 0;
        Ok(())
    }
}

/// Appends one move to the action log.
const APPEND: &str = "INSERT INTO action_log (id, room_id, idx, action, seq, clock)
                      VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

/// The writer thread: group commit of everything queued.
fn writer(
    conn: Connection,
    mut rx: mpsc::UnboundedReceiver<Request>,
    mut log: ActionLog,
) -> Option<oneshot::Sender<Result<Vec<RatingChange>, String>>> {
    let closes =
        |batch: &[Request]| matches!(batch.last(), Some(r) if matches!(r.write, Write::Close));
    let drain = |rx: &mut mpsc::UnboundedReceiver<Request>, batch: &mut Vec<Request>| {
        while batch.len() < MAX_BATCH && !closes(batch) {
            match rx.try_recv() {
                Ok(request) => batch.push(request),
                Err(_) => break,
            }
        }
    };
    let mut last_commit = std::time::Instant::now();
    let mut last_batch = 0;
    while let Some(first) = rx.blocking_recv() {
        let mut batch = vec![first];
        drain(&mut rx, &mut batch);
        // Busy (the last commit was moments ago and carried several
        // requests): wait a little for more, so that one commit carries many
        // moves. Otherwise commit at once.
        if batch.len() < MAX_BATCH && last_batch >= BUSY_BATCH && last_commit.elapsed() < BUSY {
            let linger = (LINGER_PER_REQUEST * last_batch as u32).clamp(LINGER, MAX_LINGER);
            thread::sleep(linger);
            drain(&mut rx, &mut batch);
        }
        let close = if closes(&batch) { batch.pop() } else { None };
        let started = std::time::Instant::now();
        let outcome = (|| -> rusqlite::Result<Vec<Result<Vec<RatingChange>, String>>> {
            // BEGIN and COMMIT as cached statements: parsing them again for
            // every batch was a visible share of a move's cost.
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
        let took = started.elapsed();
        if took > SLOW_COMMIT {
            // Every room waiting on this batch was held up as long: say so.
            tracing::warn!(
                ms = took.as_millis() as u64,
                requests = batch.len(),
                "slow store commit"
            );
        }
        let committed = outcome.is_ok();
        if !committed {
            roll_back(&conn, &mut log);
        }
        last_commit = std::time::Instant::now();
        last_batch = batch.len();
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn action(room: &str, index: u64) -> Write {
        Write::Action(Box::new(AppendedAction {
            room_id: room.into(),
            index,
            action: format!("\"a{index}\""),
            seq: index + 1,
            clock: "null".into(),
        }))
    }

    #[test]
    fn look_keys_match_names_that_could_pass_for_each_other() {
        let same = [
            ("Ada", "\u{410}da"),       // Cyrillic A
            ("Ada", "ADA"),             // case
            ("Bob", "\u{212C}ob"),      // script B
            ("Bob", "B0b"),             // zero for o
            ("Eve", "\u{395}\u{3BD}e"), // Greek Epsilon and nu
            ("Iris", "lris"),           // capital i, small L
        ];
        for (a, b) in same {
            assert_eq!(look_key(a), look_key(b), "{a:?} and {b:?}");
        }
        for (a, b) in [("Ada", "Adam"), ("Bob", "Rob"), ("iris", "lris")] {
            assert_ne!(look_key(a), look_key(b), "{a:?} and {b:?}");
        }
    }

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

    #[tokio::test]
    async fn a_second_store_on_the_same_directory_waits_until_the_first_is_closed() {
        let dir = tempfile::tempdir().expect("dir");
        let (first, _) = Store::open(dir.path(), Duration::ZERO).expect("first");
        first
            .save_room("r-1".into(), "{}".into())
            .await
            .expect("saved");
        let refused = Store::open(dir.path(), Duration::from_millis(100))
            .err()
            .expect("second refused");
        assert!(
            refused.to_string().contains("another Tabula server"),
            "{refused}"
        );
        // The first closes (a server shutting down) while the next one
        // waits: it then opens, with what the first saved, and the first
        // refuses further writes.
        let closing = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            first.close().await;
            first
        });
        let path = dir.path().to_path_buf();
        let (second, loaded) =
            tokio::task::spawn_blocking(move || Store::open(&path, Duration::from_secs(10)))
                .await
                .expect("joined")
                .expect("opens once the first is closed");
        assert_eq!(loaded.rooms.len(), 1);
        let first = closing.await.expect("closed");
        assert!(matches!(
            first.save_room("r-2".into(), "{}".into()).await,
            Err(StoreError::Closed)
        ));
        second.close().await;
    }

    fn room(id: &str) -> Write {
        Write::Room {
            id: id.into(),
            state: format!("state of {id}"),
        }
    }

    /// Applies writes the way the writer does, one transaction.
    fn write_all(conn: &Connection, log: &mut ActionLog, writes: &[Write]) {
        exec(conn, "BEGIN").unwrap();
        for w in writes {
            apply(conn, log, w).unwrap();
        }
        exec(conn, "COMMIT").unwrap();
    }

    /// A new database in a temporary directory (kept alive by the first
    /// value), and its action log.
    fn fresh() -> (tempfile::TempDir, Connection, ActionLog) {
        let dir = tempfile::tempdir().unwrap();
        let conn = open(&dir.path().join("tabula.db")).unwrap();
        let log = ActionLog::read(&conn).unwrap();
        (dir, conn, log)
    }

    fn indices(loaded: &Loaded, id: &str) -> Vec<u64> {
        let (_, _, rows) = loaded.rooms.iter().find(|(r, _, _)| r == id).unwrap();
        rows.iter().map(|a| a.index).collect()
    }

    /// A player's save is queued when `save_player` is called, not when its
    /// future is first polled: a room saved after it is never durable
    /// without its player (a crash then lost the token, not the room).
    #[tokio::test]
    async fn a_player_is_queued_before_anything_saved_after_it() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::open(dir.path(), Duration::ZERO).unwrap();
        let row = PlayerRow {
            id: "p-1".into(),
            token: "t-1".into(),
            name: "Ada".into(),
        };
        let player = store.save_player(row);
        store.save_room("r-1".into(), "{}".into()).await.unwrap();
        let players = store
            .read(|conn| conn.query_row("SELECT COUNT(*) FROM players", [], |r| r.get::<_, i64>(0)))
            .await
            .unwrap();
        assert_eq!(players, 1);
        player.await.unwrap();
    }

    #[test]
    fn a_room_gets_back_exactly_the_actions_after_its_last_full_save() {
        let (_dir, conn, mut log) = fresh();
        write_all(&conn, &mut log, &[room("a"), action("a", 0), room("b")]);
        write_all(
            &conn,
            &mut log,
            &[action("b", 0), action("a", 1), action("b", 1)],
        );
        // A takeback: full save of a shorter record, then a different move 1.
        write_all(&conn, &mut log, &[room("a"), action("a", 1)]);
        let loaded = load(&conn).unwrap();
        assert_eq!(indices(&loaded, "a"), vec![1]);
        assert_eq!(indices(&loaded, "b"), vec![0, 1]);
        assert_eq!(ActionLog::read(&conn).unwrap().live, log.live);
    }

    #[test]
    fn a_finished_game_is_saved_with_its_room_in_one_write() {
        let (_dir, conn, mut log) = fresh();
        write_all(&conn, &mut log, &[room("a"), action("a", 0)]);
        let game = FinishedGame {
            id: "g-1".into(),
            room_id: "a".into(),
            kind: "gomoku".into(),
            options: "{}".into(),
            players: "[]".into(),
            record: "{}".into(),
            result: "{}".into(),
            started_at: 1,
            ended_at: 2,
            humans: [None, None],
            rated: false,
            winner: None,
            room_state: Some("a, over".into()),
        };
        write_all(&conn, &mut log, &[Write::Game(Box::new(game))]);
        let loaded = load(&conn).unwrap();
        let (_, state, rows) = loaded.rooms.iter().find(|(r, _, _)| r == "a").unwrap();
        assert_eq!(state, "a, over");
        assert!(rows.is_empty(), "the room's state holds its actions");
        let games: i64 = conn
            .query_row("SELECT COUNT(*) FROM games", [], |r| r.get(0))
            .unwrap();
        assert_eq!(games, 1);
    }

    #[test]
    fn cleaning_deletes_the_front_and_moves_a_long_pinned_room_to_the_end() {
        let (_dir, conn, mut log) = fresh();
        // "quiet" plays two moves and then waits for a long time.
        write_all(
            &conn,
            &mut log,
            &[room("quiet"), action("quiet", 0), action("quiet", 1)],
        );
        // "gone" played and closed; "busy" plays on.
        write_all(
            &conn,
            &mut log,
            &[room("gone"), action("gone", 0), room("busy")],
        );
        write_all(&conn, &mut log, &[Write::DeleteRoom { id: "gone".into() }]);
        let mut writes = Vec::new();
        for i in 0..(LOG_PIN_SPAN as u64 + 10) {
            writes.push(action("busy", i));
        }
        write_all(&conn, &mut log, &writes);
        write_all(&conn, &mut log, &[room("busy"), action("busy", 0)]);
        // The front goes a budget at a time.
        let cleanups = (LOG_PIN_SPAN / LOG_DELETE_BUDGET + 2) as usize;
        for _ in 0..cleanups {
            log.clean(&conn).unwrap();
        }
        assert_eq!(log.appended, 0);
        let count: i64 = conn
            .query_row("SELECT COUNT(*) FROM action_log", [], |r| r.get(0))
            .unwrap();
        // The quiet room's two rows, copied, and busy's one live row.
        assert_eq!(count, 3);
        let loaded = load(&conn).unwrap();
        assert_eq!(indices(&loaded, "quiet"), vec![0, 1]);
        assert_eq!(indices(&loaded, "busy"), vec![0]);
        assert!(!loaded.rooms.iter().any(|(id, _, _)| id == "gone"));
        let reread = ActionLog::read(&conn).unwrap();
        assert_eq!(reread.live, log.live);
        assert_eq!(reread.next_id, log.next_id);
        // New rows keep numbers above every old one, even after the front went.
        write_all(&conn, &mut log, &[action("quiet", 2)]);
        assert_eq!(indices(&load(&conn).unwrap(), "quiet"), vec![0, 1, 2]);
    }

    #[test]
    fn many_pinned_rooms_are_copied_a_budget_at_a_time_oldest_first() {
        let (_dir, conn, mut log) = fresh();
        let per_room = LOG_COPY_BUDGET / 4;
        let rooms = 2 * LOG_COPY_BUDGET / per_room + 1;
        let mut writes = Vec::new();
        for r in 0..rooms {
            writes.push(room(&format!("r{r}")));
            writes.extend((0..per_room as u64).map(|i| action(&format!("r{r}"), i)));
        }
        // Then a long busy game, saved in full at its end: its rows are garbage.
        writes.extend((0..LOG_PIN_SPAN as u64 + 10).map(|i| action("busy", i)));
        writes.push(room("busy"));
        write_all(&conn, &mut log, &writes);
        let count = || -> i64 {
            conn.query_row("SELECT COUNT(*) FROM action_log", [], |r| r.get(0))
                .unwrap()
        };
        let before = count();
        // One clean-up copies the budget's worth, oldest rooms first, and
        // deletes their old rows, up to the first room still pinning the front.
        log.clean(&conn).unwrap();
        assert_eq!(count(), before);
        let front: i64 = conn
            .query_row("SELECT MIN(id) FROM action_log", [], |r| r.get(0))
            .unwrap();
        assert_eq!(
            front,
            log.live[&format!("r{}", LOG_COPY_BUDGET / per_room)][0]
        );
        assert!(log.live["r0"][0] > LOG_PIN_SPAN);
        assert!(log.live[&format!("r{}", rooms - 1)][0] < (per_room * rooms) as i64);
        for _ in 0..(rooms + (LOG_PIN_SPAN / LOG_DELETE_BUDGET) as usize + 2) {
            log.clean(&conn).unwrap();
        }
        // Every room was copied and the front is gone, a budget at a time:
        // each room's rows once, and none of busy's.
        assert_eq!(count(), (per_room * rooms) as i64);
        let loaded = load(&conn).unwrap();
        for r in 0..rooms {
            assert_eq!(
                indices(&loaded, &format!("r{r}")),
                (0..per_room as u64).collect::<Vec<_>>()
            );
        }
        assert_eq!(ActionLog::read(&conn).unwrap().live, log.live);
    }

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
