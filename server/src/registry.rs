//! State shared by every connection: the settings, the store, who the
//! players are, and the [`Lobby`] that finds the rooms. Game state is not
//! here: each room's actor owns its own.
//!
//! The locks here guard small maps and are held only for a lookup or an
//! insert, never across an `.await`.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

pub use crate::accounts::Account;
use crate::address_limits::AddressLimits;
use crate::address_slots::AddressSlots;
use crate::analyses::Analyses;
use crate::api_tokens::ApiTokens;
use crate::backlogs::Backlogs;
use crate::challenges::Challenges;
use crate::config::Config;
use crate::identity::Identity;
use crate::lobby::Lobby;
use crate::nodes::{Nodes, PlayerNews};
use crate::puzzles::Puzzles;
use crate::rollouts::Rollouts;
use crate::store::{AccountRow, ApiTokenRow, PlayerRow, Store, look_key, name_key};
use crate::studies::Studies;
use crate::thinking::Thinking;

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

/// The shared state: config, store, identities and accounts, and the lobby.
pub struct Shared {
    /// Settings.
    pub config: Config,
    /// Persistence.
    pub store: Store,
    /// Identities by token.
    players: Mutex<HashMap<String, Arc<Identity>>>,
    /// Registered accounts.
    accounts: Mutex<Accounts>,
    /// Bot accounts' API tokens.
    api_tokens: Mutex<ApiTokens>,
    /// Who is online, and the challenges waiting for an answer.
    challenges: Mutex<Challenges>,
    /// Recent sign-in failures by address and name key: wrong passwords
    /// from elsewhere do not lock the owner of a name out.
    sign_in_failures: Mutex<HashMap<(IpAddr, String), Failures>>,
    /// Limits per client address.
    pub addresses: AddressLimits,
    /// The connections each client address holds.
    pub connection_slots: Arc<AddressSlots>,
    /// Every connection's unsent bytes added up, and their cap.
    pub backlogs: Arc<Backlogs>,
    /// The open rooms and the live feed of their changes.
    pub lobby: Lobby,
    /// Source of connection ids.
    next_conn: AtomicU64,
    /// How many rooms were created since start (seeds test dice per room).
    rooms_created: AtomicU64,
    /// One permit per engine process that may run (`max_engine_processes`).
    pub engine_slots: Arc<tokio::sync::Semaphore>,
    /// Game analyses and hints.
    pub analyses: Arc<Analyses>,
    /// The analysis board's answers.
    pub studies: Arc<Studies>,
    /// The analysis board's rollouts.
    pub rollouts: Arc<Rollouts>,
    /// Rated puzzles, and their harvest from finished games.
    pub puzzles: Arc<Puzzles>,
    /// The cores the AI seats, hints and analyses share.
    pub thinking: Arc<Thinking>,
    /// The other nodes of a cluster (`--redis`); `None` on a server alone.
    pub nodes: Option<Arc<dyn Nodes>>,
    /// The tournaments' mailboxes and list.
    pub tournament_desk: crate::tournament_desk::TournamentDesk,
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
        nodes: Option<Arc<dyn Nodes>>,
        players: Vec<PlayerRow>,
        accounts: Vec<AccountRow>,
        api_tokens: Vec<ApiTokenRow>,
    ) -> Shared {
        let api_tokens = ApiTokens::new(api_tokens);
        let registered: std::collections::HashSet<&str> =
            accounts.iter().map(|a| a.player_id.as_str()).collect();
        let players = players
            .into_iter()
            .map(|p| {
                (
                    p.token.clone(),
                    Arc::new(Identity {
                        registered: registered.contains(p.id.as_str()),
                        bot: api_tokens.is_bot(&p.id),
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
        let addresses =
            AddressLimits::new(config.new_players_per_address, config.rooms_per_address);
        let connection_slots = AddressSlots::new(config.connections_per_address);
        let backlogs = Arc::new(Backlogs::new(config.max_outbound_bytes));
        let engine_slots = Arc::new(tokio::sync::Semaphore::new(config.max_engine_processes));
        let thinking = Thinking::new(
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
        );
        let analyses = Arc::new(Analyses::new(&config, thinking.clone()));
        let studies = Arc::new(Studies::new(&config, thinking.clone()));
        let rollouts = Rollouts::new(&config, thinking.clone());
        let puzzles = Arc::new(Puzzles::new(store.clone(), thinking.clone()));
        Shared {
            puzzles,
            analyses,
            studies,
            rollouts,
            thinking,
            config,
            store,
            players: Mutex::new(players),
            accounts: Mutex::new(reserved),
            api_tokens: Mutex::new(api_tokens),
            challenges: Mutex::new(Challenges::default()),
            sign_in_failures: Mutex::new(HashMap::new()),
            addresses,
            connection_slots,
            backlogs,
            lobby: Lobby::new(),
            next_conn: AtomicU64::new(1),
            rooms_created: AtomicU64::new(0),
            engine_slots,
            nodes,
            tournament_desk: Default::default(),
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

    /// Whether a sign-in for this name may be tried now from `ip`.
    pub fn sign_in_allowed(&self, ip: IpAddr, name: &str) -> bool {
        lock(&self.sign_in_failures)
            .entry((ip, name_key(name)))
            .or_default()
            .allowed()
    }

    /// Counts a failed sign-in for this name.
    pub fn sign_in_failed(&self, ip: IpAddr, name: &str) {
        let mut failures = lock(&self.sign_in_failures);
        // Keep the map small: drop names whose window is over.
        if failures.len() > 10_000 {
            failures.retain(|_, f| f.since.elapsed() < SIGN_IN_WINDOW);
        }
        failures.entry((ip, name_key(name))).or_default().fail();
    }

    /// Lets a guest's identity go from memory once its connection ends; its
    /// token is looked up in the store when it comes back.
    pub fn forget_guest(&self, token: &str) {
        let mut players = lock(&self.players);
        if players.get(token).is_some_and(|i| !i.registered) {
            players.remove(token);
        }
    }

    /// The API tokens, locked: held only for a look-up or a change.
    pub fn api_tokens(&self) -> MutexGuard<'_, ApiTokens> {
        lock(&self.api_tokens)
    }

    /// Who is online and the open challenges, locked: held only for a
    /// look-up or a change.
    pub fn challenges(&self) -> MutexGuard<'_, Challenges> {
        lock(&self.challenges)
    }

    /// Tells the other nodes of a cluster of a saved change to the players
    /// (nothing on a server alone).
    pub fn tell_nodes(&self, news: PlayerNews) {
        if let Some(cluster) = &self.nodes {
            cluster.players_changed(news);
        }
    }

    /// A connection said hello as `identity`: the player is online, on
    /// every node of a cluster.
    pub fn player_online(&self, conn: u64, outlet: crate::outlet::Outlet, identity: &Identity) {
        let player = self.challenges().connect(conn, outlet, identity);
        if let Some(cluster) = &self.nodes {
            cluster.online(player);
        }
    }

    /// A connection closed: its player is offline once it was their last.
    pub fn player_offline(&self, conn: u64) {
        let gone = self.challenges().disconnect(conn);
        if let (Some(cluster), Some(player_id)) = (&self.nodes, gone) {
            cluster.offline(player_id);
        }
    }

    /// Sends `message` to every connection of `player_id`, on any node.
    pub fn tell_player(&self, player_id: &str, message: tabula_shared::protocol::ServerMessage) {
        let (text, nodes) = self.challenges().tell(player_id, message);
        if let Some(cluster) = &self.nodes {
            for node in nodes {
                cluster.tell(&node, player_id, text.clone());
            }
        }
    }

    /// Records an identity (new, or renamed).
    pub fn put_identity(&self, identity: Arc<Identity>) {
        lock(&self.players).insert(identity.token.clone(), identity);
    }
}
