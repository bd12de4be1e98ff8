//! Server settings, with the embedded defaults a newcomer gets.

use std::path::PathBuf;
use std::time::Duration;

use crate::engines::EngineSpec;

/// Everything the server can be told at start. `Config::default()` is what
/// `cargo run -p tabula-server` uses.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where `tabula.db` lives; created when first needed.
    pub data_dir: PathBuf,
    /// A PostgreSQL database to keep everything in instead of `tabula.db`
    /// (`postgres://user@host:port/dbname`); `None` = the embedded SQLite file.
    pub database: Option<String>,
    /// Joins a cluster of nodes through this Redis (`redis://host:port`);
    /// needs `database` (the nodes share one PostgreSQL). `None` = one
    /// server on its own.
    pub redis: Option<String>,
    /// How long a cluster node's lease on a room lasts unless renewed: a
    /// dead node's rooms move to another node within about this long.
    pub lease: Duration,
    /// Load balancers in front of the server: a connection from one of
    /// these counts as coming from the address it puts last in
    /// `X-Forwarded-For` (for the per-address limits).
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// When set, `hello` must carry this password.
    pub password: Option<String>,
    /// How long a dropped player's seat is held before the opponent may claim the win.
    pub grace: Duration,
    /// Most connections held at once; more are refused at the socket.
    pub max_connections: usize,
    /// Most rooms open at once.
    pub max_rooms: usize,
    /// How often the server pings each connection.
    pub ping_interval: Duration,
    /// A connection silent for this long is dropped.
    pub idle_timeout: Duration,
    /// Requests a connection may burst before the rate limit bites.
    pub rate_burst: u32,
    /// Requests per second a connection may sustain.
    pub rate_per_sec: u32,
    /// Rate-limit refusals in a row after which the connection is closed.
    pub rate_strikes: u32,
    /// Time budget for one AI move.
    pub ai_budget: Duration,
    /// Fixes the dice (and AI seeds) so games can be reproduced; `None` uses
    /// the OS's randomness. A fixed seed's Backgammon matches say so in their
    /// record (`test_seed`).
    pub dice_seed: Option<u64>,
    /// How long a Backgammon match's opening roll waits for the human
    /// players' dice seeds (`dice_seed`) before it is rolled without the
    /// missing ones (see `docs/DICE.md`).
    pub dice_seed_wait: Duration,
    /// Finished rooms with nobody in them are closed after this long.
    pub finished_room_ttl: Duration,
    /// A running game with nobody in it is closed (and forgotten) after
    /// this long; until then its players can come back to it. Restarts do
    /// not reset the count.
    pub deserted_game_ttl: Duration,
    /// How long a starting server waits for one still shutting down on the
    /// same data directory (saving its rooms, telling its clients) to let go
    /// of it.
    pub lock_wait: Duration,
    /// How long a request waits for the store to answer (a frozen or
    /// stalled disk) before it is refused with `internal`.
    pub store_timeout: Duration,
    /// New guest identities (`hello` without a token) one client address
    /// may make in ten minutes.
    pub new_players_per_address: u32,
    /// Rooms one client address may have open when creating another.
    pub rooms_per_address: usize,
    /// Connections one client address may hold at once, handshakes not yet
    /// finished included (see [`crate::address_slots`]).
    pub connections_per_address: usize,
    /// Most bytes that may wait, over all connections, for clients that
    /// read slowly or not at all; past it the slowest are dropped first.
    pub max_outbound_bytes: usize,
    /// The host's external engines, offered to players as opponents
    /// (`--engine GAME:NAME=COMMAND`); each room against one runs its own
    /// process, with `ai_budget` per move.
    pub engines: Vec<EngineSpec>,
    /// Most engine processes running at once, over all rooms; a room whose
    /// engine finds none free has the built-in Expert play for it.
    pub max_engine_processes: usize,
    /// Game analyses under way at once (see the `analyses` module); their
    /// steps, like hints, run only on cores the AI seats leave idle.
    pub analysis_workers: usize,
    /// Game analyses that may wait for a worker; past that, `busy`.
    pub analysis_queue: usize,
    /// Nodes per position of the Gomoku Expert's searches in analyses and
    /// hints.
    pub analysis_gomoku_nodes: u64,
    /// Hints one player may ask for in a minute.
    pub hints_per_minute: u32,
    /// Whether the built-in puzzle set is added to the store at start,
    /// beside the puzzles found in this server's own games.
    pub built_in_puzzles: bool,
}

/// One fewer than the machine's cores (at least one): analyses leave a core
/// to the AI seats.
pub fn default_analysis_workers() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .saturating_sub(1)
        .max(1)
}

impl Default for Config {
    fn default() -> Self {
        Config {
            data_dir: PathBuf::from("tabula-data"),
            database: None,
            redis: None,
            lease: Duration::from_secs(10),
            trusted_proxies: Vec::new(),
            password: None,
            grace: Duration::from_secs(60),
            max_connections: 20_000,
            max_rooms: 10_000,
            ping_interval: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            rate_burst: 60,
            rate_per_sec: 30,
            rate_strikes: 50,
            ai_budget: Duration::from_secs(1),
            dice_seed: None,
            dice_seed_wait: Duration::from_secs(3),
            finished_room_ttl: Duration::from_secs(600),
            deserted_game_ttl: Duration::from_secs(24 * 3600),
            lock_wait: Duration::from_secs(10),
            store_timeout: Duration::from_secs(10),
            new_players_per_address: 100,
            rooms_per_address: 100,
            connections_per_address: 200,
            max_outbound_bytes: 64 * 1024 * 1024,
            engines: Vec::new(),
            max_engine_processes: 16,
            analysis_workers: default_analysis_workers(),
            analysis_queue: 8,
            analysis_gomoku_nodes: tabula_ai::analysis::GOMOKU_NODES,
            hints_per_minute: 20,
            built_in_puzzles: true,
        }
    }
}
