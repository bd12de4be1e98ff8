//! The lobby: every open room with its summary, handle and private code, who
//! is seated where, and the live feed of changes to the public rooms.
//!
//! Rooms tell the lobby when what it shows of them changes; connections
//! watching the lobby get each change, encoded once for all of them.
//!
//! On a node of a cluster the lobby also lists the rooms other nodes run
//! (their handles lead to a proxy that passes commands on), and tells the
//! cluster of every change to a room of its own ([`Lobby::tell_cluster`]).
//!
//! The lock here guards small maps and is held only for a lookup or an
//! insert, never across an `.await`.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use tabula_shared::protocol::{RoomId, RoomStatus, RoomSummary, ServerFrame, ServerMessage};
use tokio::sync::broadcast;
use tokio_tungstenite::tungstenite::Utf8Bytes;

use crate::handle::RoomHandle;

/// What the lobby knows of one room.
struct RoomEntry {
    /// Where to send commands.
    handle: RoomHandle,
    /// The latest lobby view, kept here so listing rooms asks no actor.
    summary: RoomSummary,
    /// The private room's join code.
    code: Option<String>,
    /// The cluster node that runs it; `None`: this server.
    owner: Option<String>,
}

/// A change to a room this server runs, for the other nodes of a cluster.
pub enum Change {
    /// New, or shows something new.
    Room(RoomSummary, Option<String>),
    /// Closed.
    Removed(RoomId),
}

/// Where [`Change`]s go.
type Teller = Arc<dyn Fn(Change) + Send + Sync>;

/// The rooms, and an index of the rooms where each player holds a seat in a
/// game that is not over (so that `hello` does not scan every room).
#[derive(Default)]
struct Rooms {
    by_id: HashMap<RoomId, RoomEntry>,
    seated: HashMap<String, BTreeSet<RoomId>>,
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

    /// Forgets the seats `summary` showed.
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

    /// Records the seats `summary` shows.
    fn index(&mut self, summary: &RoomSummary) {
        for player in Rooms::seated_in(summary) {
            self.seated
                .entry(player.to_string())
                .or_default()
                .insert(summary.room_id.clone());
        }
    }
}

/// The room list and its live updates.
pub struct Lobby {
    /// Rooms by id, and who is seated where.
    rooms: Mutex<Rooms>,
    /// Live updates of the public rooms, pre-encoded once for every watcher.
    feed: broadcast::Sender<Utf8Bytes>,
    /// The cluster, told of every change to a room of this server's.
    teller: OnceLock<Teller>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby::new()
    }
}

impl Lobby {
    /// An empty lobby.
    pub fn new() -> Lobby {
        let (feed, _) = broadcast::channel(1024);
        Lobby {
            rooms: Mutex::new(Rooms::default()),
            feed,
            teller: OnceLock::new(),
        }
    }

    /// Tells `teller` of every change to a room of this server's from now on.
    pub fn tell_cluster(&self, teller: impl Fn(Change) + Send + Sync + 'static) {
        let _ = self.teller.set(Arc::new(teller));
    }

    fn tell(&self, change: Change) {
        if let Some(teller) = self.teller.get() {
            teller(change);
        }
    }

    /// Locks the rooms, recovering from a poisoned lock (a panic elsewhere
    /// must not take the whole server down).
    fn rooms(&self) -> MutexGuard<'_, Rooms> {
        self.rooms
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Subscribes to live lobby updates.
    pub fn watch(&self) -> broadcast::Receiver<Utf8Bytes> {
        self.feed.subscribe()
    }

    /// The public rooms, newest ids last.
    pub fn public_rooms(&self) -> Vec<RoomSummary> {
        let mut rooms: Vec<RoomSummary> = self
            .rooms()
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
        self.rooms()
            .seated
            .get(player_id)
            .map(|rooms| rooms.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// How many rooms are open.
    pub fn room_count(&self) -> usize {
        self.rooms().by_id.len()
    }

    /// Where to reach a room.
    pub fn room(&self, id: &str) -> Option<RoomHandle> {
        self.rooms().by_id.get(id).map(|e| e.handle.clone())
    }

    /// Every room's handle, for shutdown.
    pub fn all_rooms(&self) -> Vec<RoomHandle> {
        self.rooms()
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
        self.rooms()
            .by_id
            .values()
            .find(|e| e.code.as_deref() == Some(code.as_str()))
            .map(|e| e.summary.room_id.clone())
    }

    /// Whether a private code is already used.
    pub fn code_taken(&self, code: &str) -> bool {
        self.rooms()
            .by_id
            .values()
            .any(|e| e.code.as_deref() == Some(code))
    }

    /// Adds a room this server runs (in place of another node's, when it
    /// took the room over).
    pub fn insert_room(&self, summary: RoomSummary, code: Option<String>, handle: RoomHandle) {
        self.put(summary.clone(), code.clone(), handle, None);
        self.tell(Change::Room(summary, code));
    }

    /// Adds or updates a room another node runs, reached through `handle`,
    /// unless this server runs it (the news is older than its takeover).
    /// Returns whether the lobby took it.
    pub fn put_remote(
        &self,
        owner: &str,
        summary: RoomSummary,
        code: Option<String>,
        handle: RoomHandle,
    ) -> bool {
        if self
            .rooms()
            .by_id
            .get(&summary.room_id)
            .is_some_and(|e| e.owner.is_none())
        {
            return false;
        }
        self.put(summary, code, handle, Some(owner.to_string()));
        true
    }

    fn put(
        &self,
        summary: RoomSummary,
        code: Option<String>,
        handle: RoomHandle,
        owner: Option<String>,
    ) {
        let id = summary.room_id.clone();
        let public = !summary.options.private;
        let mut rooms = self.rooms();
        let old = rooms.by_id.remove(&id);
        if let Some(old) = &old {
            rooms.unindex(&old.summary);
        }
        let changed = old.is_none_or(|old| old.summary != summary);
        let update = (public && changed).then(|| summary.clone());
        rooms.index(&summary);
        rooms.by_id.insert(
            id,
            RoomEntry {
                handle,
                summary,
                code,
                owner,
            },
        );
        drop(rooms);
        if let Some(room) = update {
            self.announce(ServerMessage::RoomUpdated { room });
        }
    }

    /// The lobby view of a room this server runs changed.
    pub fn update_summary(&self, summary: RoomSummary) {
        let public = !summary.options.private;
        let code = {
            let mut rooms = self.rooms();
            let Some(entry) = rooms.by_id.get_mut(&summary.room_id) else {
                return;
            };
            if entry.summary == summary || entry.owner.is_some() {
                return;
            }
            let old = std::mem::replace(&mut entry.summary, summary.clone());
            let code = entry.code.clone();
            rooms.unindex(&old);
            rooms.index(&summary);
            code
        };
        self.tell(Change::Room(summary.clone(), code));
        if public {
            self.announce(ServerMessage::RoomUpdated { room: summary });
        }
    }

    /// A room this server ran closed.
    pub fn remove_room(&self, id: &str) {
        if self.remove(id, None) {
            self.tell(Change::Removed(id.to_string()));
        }
    }

    /// A room `owner` ran closed.
    pub fn remove_remote(&self, id: &str, owner: &str) {
        self.remove(id, Some(owner));
    }

    /// Takes out a room this server no longer runs because another node
    /// took it over (it stays listed through that node's news).
    pub fn release(&self, id: &str) {
        let mut rooms = self.rooms();
        if rooms.by_id.get(id).is_some_and(|e| e.owner.is_none())
            && let Some(entry) = rooms.by_id.remove(id)
        {
            rooms.unindex(&entry.summary);
        }
    }

    /// Removes a room run by `owner` (`None`: this server); whether it was there.
    fn remove(&self, id: &str, owner: Option<&str>) -> bool {
        let removed = {
            let mut rooms = self.rooms();
            if rooms
                .by_id
                .get(id)
                .is_none_or(|e| e.owner.as_deref() != owner)
            {
                return false;
            }
            let removed = rooms.by_id.remove(id);
            if let Some(entry) = &removed {
                rooms.unindex(&entry.summary);
            }
            removed
        };
        if let Some(entry) = &removed
            && !entry.summary.options.private
        {
            self.announce(ServerMessage::RoomRemoved {
                room_id: id.to_string(),
            });
        }
        removed.is_some()
    }

    /// The rooms this server runs, with their codes (for a cluster node
    /// that asks).
    pub fn local_rooms(&self) -> Vec<(RoomSummary, Option<String>)> {
        self.rooms()
            .by_id
            .values()
            .filter(|e| e.owner.is_none())
            .map(|e| (e.summary.clone(), e.code.clone()))
            .collect()
    }

    /// Where to reach a room this server runs.
    pub fn local_room(&self, id: &str) -> Option<RoomHandle> {
        self.rooms()
            .by_id
            .get(id)
            .filter(|e| e.owner.is_none())
            .map(|e| e.handle.clone())
    }

    /// Sends a change to every watcher.
    fn announce(&self, message: ServerMessage) {
        // No watcher is not an error.
        let _ = self
            .feed
            .send(Utf8Bytes::from(ServerFrame::push(message).encode()));
    }
}

#[cfg(test)]
mod tests {
    use tabula_shared::gomoku::GomokuConfig;
    use tabula_shared::protocol::{
        ColourChoice, GameOptions, Opponent, PlayerInfo, RoomOptions, SeatInfo,
    };
    use tabula_shared::seat::Seat;

    use super::*;

    fn summary(
        id: &str,
        private: bool,
        players: [Option<&str>; 2],
        status: RoomStatus,
    ) -> RoomSummary {
        let seat = |seat, player: Option<&str>| SeatInfo {
            seat,
            player: player.map(|id| PlayerInfo {
                id: id.into(),
                name: id.into(),
                ai: None,
                bot: false,
            }),
            connected: true,
            grace_ms: None,
        };
        RoomSummary {
            room_id: id.into(),
            options: RoomOptions {
                game: GameOptions::Gomoku(GomokuConfig::default()),
                opponent: Opponent::Human,
                colour: ColourChoice::Random,
                time_control: None,
                private,
                takebacks: true,
                rated: false,
                hints: false,
            },
            seats: vec![
                seat(Seat::First, players[0]),
                seat(Seat::Second, players[1]),
            ],
            status,
            spectators: 0,
        }
    }

    fn handle() -> RoomHandle {
        RoomHandle::channel(1).0
    }

    #[test]
    fn private_rooms_are_found_by_code_but_not_listed_or_announced() {
        let lobby = Lobby::new();
        let mut feed = lobby.watch();
        let room = summary("r-1", true, [Some("p-a"), None], RoomStatus::Waiting);
        lobby.insert_room(room, Some("ABCD2345".into()), handle());
        assert!(lobby.public_rooms().is_empty());
        assert!(feed.try_recv().is_err());
        assert_eq!(lobby.room_by_code("abcd-2345").as_deref(), Some("r-1"));
        assert!(lobby.code_taken("ABCD2345"));
        assert!(lobby.room("r-1").is_some());
        assert_eq!(lobby.room_count(), 1);
    }

    #[test]
    fn public_changes_are_announced_and_the_seated_index_follows_them() {
        let lobby = Lobby::new();
        let mut feed = lobby.watch();
        lobby.insert_room(
            summary("r-1", false, [Some("p-a"), None], RoomStatus::Waiting),
            None,
            handle(),
        );
        assert!(feed.try_recv().unwrap().contains("room_updated"));
        assert_eq!(lobby.seated_rooms("p-a"), vec!["r-1".to_string()]);

        let playing = summary(
            "r-1",
            false,
            [Some("p-a"), Some("p-b")],
            RoomStatus::Playing,
        );
        lobby.update_summary(playing.clone());
        assert!(feed.try_recv().unwrap().contains("room_updated"));
        assert_eq!(lobby.seated_rooms("p-b"), vec!["r-1".to_string()]);
        // An unchanged summary is not announced again.
        lobby.update_summary(playing);
        assert!(feed.try_recv().is_err());

        // A finished game holds nobody's seat.
        lobby.update_summary(summary(
            "r-1",
            false,
            [Some("p-a"), Some("p-b")],
            RoomStatus::Finished,
        ));
        assert!(feed.try_recv().is_ok());
        assert!(lobby.seated_rooms("p-a").is_empty());

        lobby.remove_room("r-1");
        assert!(feed.try_recv().unwrap().contains("room_removed"));
        assert!(lobby.public_rooms().is_empty());
        assert!(lobby.room("r-1").is_none());
    }
}
