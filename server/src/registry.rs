//! State shared by every connection: who the players are and where the rooms
//! are. Game state is not here: each room's actor owns its own.
//!
//! The locks here guard small maps and are held only for a lookup or an
//! insert, never across an `.await`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tabula_shared::protocol::{RoomId, RoomStatus, RoomSummary, ServerFrame, ServerMessage};
use tokio::sync::{broadcast, mpsc};
use tokio_tungstenite::tungstenite::Utf8Bytes;

use crate::config::Config;
use crate::room::RoomCommand;
use crate::store::{AccountRow, PlayerRow, Store, look_key, name_key};

/// A player identity: public id, secret token and display name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// Public id, shown to others.
    pub id: String,
    /// Secret resume token, shown only to its owner.
    pub token: String,
    /// Display name (for a registered player, the account's name).
    pub name: String,
    /// Whether this identity is a registered account.
    pub registered: bool,
}

/// A registered account, as the registry keeps it for sign-in.
#[derive(Debug, Clone)]
pub struct Account {
    /// The player id it belongs to.
    pub player_id: String,
    /// The reserved name, as registered.
    pub name: String,
    /// The argon2id PHC string.
    pub hash: String,
}

/// Sign-in failures allowed per minute, per connection and per name (and
/// wrong private-room codes, per connection).
pub const SIGN_IN_FAILURES: u32 = 5;
/// The window those failures are counted in.
pub const SIGN_IN_WINDOW: Duration = Duration::from_secs(60);

/// Failures counted in a fixed window.
#[derive(Debug, Clone, Copy)]
pub struct Failures {
    count: u32,
    since: Instant,
}

impl Failures {
    /// No failure yet.
    pub fn new() -> Failures {
        Failures {
            count: 0,
            since: Instant::now(),
        }
    }

    fn roll(&mut self) {
        if self.since.elapsed() >= SIGN_IN_WINDOW {
            *self = Failures::new();
        }
    }

    /// Whether another attempt is allowed now.
    pub fn allowed(&mut self) -> bool {
        self.roll();
        self.count < SIGN_IN_FAILURES
    }

    /// Counts one failure.
    pub fn fail(&mut self) {
        self.roll();
        self.count += 1;
    }
}

impl Default for Failures {
    fn default() -> Failures {
        Failures::new()
    }
}

/// What the registry knows of one room.
struct RoomEntry {
    /// Where to send commands.
    handle: mpsc::Sender<RoomCommand>,
    /// The latest lobby view, kept here so listing rooms asks no actor.
    summary: RoomSummary,
    /// The private room's join code.
    code: Option<String>,
}

/// The rooms, and an index of the rooms where each player holds a seat in a
/// game that is not over (so that `hello` does not scan every room).
#[derive(Default)]
struct Rooms {
    by_id: HashMap<RoomId, RoomEntry>,
    seated: HashMap<String, std::collections::BTreeSet<RoomId>>,
}

impl Rooms {
    /// The human players seated in a room whose game is not over.
    fn seated_in(summary: &RoomSummary) -> impl Iterator<Item = &str> {
        summary
            .seats
            .iter()
            .filter(|_| summary.status != RoomStatus::Finished)
            .filter_map(|s| s.player.as_ref())
            .filter(|p| p.ai.is_none())
            .map(|p| p.id.as_str())
    }

    fn unindex(&mut self, summary: &RoomSummary) {
        for player in Rooms::seated_in(summary) {
            if let Some(rooms) = self.seated.get_mut(player) {
                rooms.remove(&summary.room_id);
                if rooms.is_empty() {
                    self.seated.remove(player);
                }
            }
        }
    }

    fn index(&mut self, summary: &RoomSummary) {
        for player in Rooms::seated_in(summary) {
            self.seated
                .entry(player.to_string())
                .or_default()
                .insert(summary.room_id.clone());
        }
    }
}

/// Registered accounts, by name and by look.
#[derive(Default)]
struct Accounts {
    /// By name key (lower case): sign-in finds an account here.
    by_name: HashMap<String, Account>,
    /// Name keys by look key: a name that could pass for a registered one
    /// is taken too. (Accounts registered before look keys existed may
    /// share one; the first keeps it, and each still signs in by its name.)
    by_look: HashMap<String, String>,
}

impl Accounts {
    fn insert(&mut self, account: Account) {
        let key = name_key(&account.name);
        self.by_look
            .entry(look_key(&account.name))
            .or_insert_with(|| key.clone());
        self.by_name.insert(key, account);
    }
}

/// The shared state: config, store, identities, rooms and the lobby feed.
pub struct Shared {
    /// Settings.
    pub config: Config,
    /// Persistence.
    pub store: Store,
    /// Identities by token.
    players: Mutex<HashMap<String, Arc<Identity>>>,
    /// Registered accounts.
    accounts: Mutex<Accounts>,
    /// Recent sign-in failures by name key.
    sign_in_failures: Mutex<HashMap<String, Failures>>,
    /// Rooms by id, and who is seated where.
    rooms: Mutex<Rooms>,
    /// Live lobby updates, pre-encoded once for every watcher.
    lobby: broadcast::Sender<Utf8Bytes>,
    /// Source of connection ids.
    next_conn: AtomicU64,
    /// How many rooms were created since start (seeds test dice per room).
    rooms_created: AtomicU64,
}

/// Locks a mutex, recovering from a poisoned lock (a panic elsewhere must not
/// take the whole server down).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Shared {
    /// Builds the shared state from the players the store held.
    pub fn new(
        config: Config,
        store: Store,
        players: Vec<PlayerRow>,
        accounts: Vec<AccountRow>,
    ) -> Shared {
        let (lobby, _) = broadcast::channel(1024);
        let registered: std::collections::HashSet<&str> =
            accounts.iter().map(|a| a.player_id.as_str()).collect();
        let players = players
            .into_iter()
            .map(|p| {
                (
                    p.token.clone(),
                    Arc::new(Identity {
                        registered: registered.contains(p.id.as_str()),
                        id: p.id,
                        token: p.token,
                        name: p.name,
                    }),
                )
            })
            .collect();
        let mut reserved = Accounts::default();
        for a in accounts {
            reserved.insert(Account {
                player_id: a.player_id,
                name: a.name,
                hash: a.hash,
            });
        }
        Shared {
            config,
            store,
            players: Mutex::new(players),
            accounts: Mutex::new(reserved),
            sign_in_failures: Mutex::new(HashMap::new()),
            rooms: Mutex::new(Rooms::default()),
            lobby,
            next_conn: AtomicU64::new(1),
            rooms_created: AtomicU64::new(0),
        }
    }

    /// A fresh connection id.
    pub fn next_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// Numbers rooms in creation order.
    pub fn next_room_number(&self) -> u64 {
        self.rooms_created.fetch_add(1, Ordering::Relaxed)
    }

    /// The identity behind a token.
    pub fn identity_by_token(&self, token: &str) -> Option<Arc<Identity>> {
        lock(&self.players).get(token).cloned()
    }

    /// The identity of a player id (a linear scan; used at sign-in only).
    pub fn identity_by_id(&self, id: &str) -> Option<Arc<Identity>> {
        lock(&self.players).values().find(|i| i.id == id).cloned()
    }

    /// The account registered under exactly this name (any case), if any.
    pub fn account(&self, name: &str) -> Option<Account> {
        lock(&self.accounts).by_name.get(&name_key(name)).cloned()
    }

    /// The account whose name this one is or could pass for (any case, or
    /// look-alike letters from other scripts), if any.
    pub fn account_like(&self, name: &str) -> Option<Account> {
        let accounts = lock(&self.accounts);
        accounts
            .by_name
            .get(&name_key(name))
            .or_else(|| {
                let key = accounts.by_look.get(&look_key(name))?;
                accounts.by_name.get(key)
            })
            .cloned()
    }

    /// Reserves a name for an account, unless it or a look-alike is taken.
    /// The caller then saves it; [`Shared::unreserve`] undoes this when
    /// saving fails.
    pub fn reserve(&self, account: Account) -> bool {
        let mut accounts = lock(&self.accounts);
        if accounts.by_name.contains_key(&name_key(&account.name))
            || accounts.by_look.contains_key(&look_key(&account.name))
        {
            return false;
        }
        accounts.insert(account);
        true
    }

    /// Forgets a reservation whose save failed.
    pub fn unreserve(&self, name: &str) {
        let mut accounts = lock(&self.accounts);
        let key = name_key(name);
        accounts.by_name.remove(&key);
        let look = look_key(name);
        if accounts.by_look.get(&look) == Some(&key) {
            accounts.by_look.remove(&look);
        }
    }

    /// Whether a sign-in for this name may be tried now.
    pub fn sign_in_allowed(&self, name: &str) -> bool {
        lock(&self.sign_in_failures)
            .entry(name_key(name))
            .or_default()
            .allowed()
    }

    /// Counts a failed sign-in for this name.
    pub fn sign_in_failed(&self, name: &str) {
        let mut failures = lock(&self.sign_in_failures);
        // Keep the map small: drop names whose window is over.
        if failures.len() > 10_000 {
            failures.retain(|_, f| f.since.elapsed() < SIGN_IN_WINDOW);
        }
        failures.entry(name_key(name)).or_default().fail();
    }

    /// Records an identity (new, or renamed).
    pub fn put_identity(&self, identity: Arc<Identity>) {
        lock(&self.players).insert(identity.token.clone(), identity);
    }

    /// Subscribes to live lobby updates.
    pub fn watch_lobby(&self) -> broadcast::Receiver<Utf8Bytes> {
        self.lobby.subscribe()
    }

    /// The public rooms, newest ids last.
    pub fn public_rooms(&self) -> Vec<RoomSummary> {
        let mut rooms: Vec<RoomSummary> = lock(&self.rooms)
            .by_id
            .values()
            .filter(|e| !e.summary.options.private)
            .map(|e| e.summary.clone())
            .collect();
        rooms.sort_by(|a, b| a.room_id.cmp(&b.room_id));
        rooms
    }

    /// Rooms where this player holds a seat in a game that is not over.
    pub fn seated_rooms(&self, player_id: &str) -> Vec<RoomId> {
        lock(&self.rooms)
            .seated
            .get(player_id)
            .map(|rooms| rooms.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// How many rooms are open.
    pub fn room_count(&self) -> usize {
        lock(&self.rooms).by_id.len()
    }

    /// Where to reach a room.
    pub fn room(&self, id: &str) -> Option<mpsc::Sender<RoomCommand>> {
        lock(&self.rooms).by_id.get(id).map(|e| e.handle.clone())
    }

    /// Every room's handle, for shutdown.
    pub fn all_rooms(&self) -> Vec<mpsc::Sender<RoomCommand>> {
        lock(&self.rooms)
            .by_id
            .values()
            .map(|e| e.handle.clone())
            .collect()
    }

    /// The room behind a private code.
    pub fn room_by_code(&self, code: &str) -> Option<RoomId> {
        // As typed: any case, with spaces or dashes to group it.
        let code: String = code
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .collect::<String>()
            .to_ascii_uppercase();
        lock(&self.rooms)
            .by_id
            .values()
            .find(|e| e.code.as_deref() == Some(code.as_str()))
            .map(|e| e.summary.room_id.clone())
    }

    /// Whether a private code is already used.
    pub fn code_taken(&self, code: &str) -> bool {
        lock(&self.rooms)
            .by_id
            .values()
            .any(|e| e.code.as_deref() == Some(code))
    }

    /// Adds a room.
    pub fn insert_room(
        &self,
        summary: RoomSummary,
        code: Option<String>,
        handle: mpsc::Sender<RoomCommand>,
    ) {
        let id = summary.room_id.clone();
        let public = !summary.options.private;
        let update = public.then(|| summary.clone());
        let mut rooms = lock(&self.rooms);
        if let Some(old) = rooms.by_id.remove(&id) {
            rooms.unindex(&old.summary);
        }
        rooms.index(&summary);
        rooms.by_id.insert(
            id,
            RoomEntry {
                handle,
                summary,
                code,
            },
        );
        drop(rooms);
        if let Some(room) = update {
            self.announce(ServerMessage::RoomUpdated { room });
        }
    }

    /// A room's lobby view changed.
    pub fn update_summary(&self, summary: RoomSummary) {
        let public = !summary.options.private;
        {
            let mut rooms = lock(&self.rooms);
            let Some(entry) = rooms.by_id.get_mut(&summary.room_id) else {
                return;
            };
            if entry.summary == summary {
                return;
            }
            let old = std::mem::replace(&mut entry.summary, summary.clone());
            rooms.unindex(&old);
            rooms.index(&summary);
        }
        if public {
            self.announce(ServerMessage::RoomUpdated { room: summary });
        }
    }

    /// A room closed.
    pub fn remove_room(&self, id: &str) {
        let removed = {
            let mut rooms = lock(&self.rooms);
            let removed = rooms.by_id.remove(id);
            if let Some(entry) = &removed {
                rooms.unindex(&entry.summary);
            }
            removed
        };
        if let Some(entry) = removed
            && !entry.summary.options.private
        {
            self.announce(ServerMessage::RoomRemoved {
                room_id: id.to_string(),
            });
        }
    }

    fn announce(&self, message: ServerMessage) {
        // No watcher is not an error.
        let _ = self
            .lobby
            .send(Utf8Bytes::from(ServerFrame::push(message).encode()));
    }
}
