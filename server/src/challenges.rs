//! [`Challenges`]: who is online (to challenge a player by name, and to list
//! the bots), and the challenges waiting for an answer. Challenges live in
//! memory only: one not answered within [`CHALLENGE_TTL`], or whose
//! challenger has gone, is void.
//!
//! On a node of a cluster, the players online on the other nodes are here
//! too (from the cluster's news), and a challenge to one of them is kept
//! by their node, where they answer it.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use tabula_shared::protocol::{PlayerInfo, RoomOptions, ServerFrame, ServerMessage};

use crate::identity::Identity;
use crate::outlet::Outlet;
use crate::store::name_key;

/// How long a challenge waits for its answer.
pub const CHALLENGE_TTL: Duration = Duration::from_secs(60);

/// A connection of a player who said hello.
struct Online {
    conn: u64,
    outlet: Outlet,
    player: PlayerInfo,
}

/// A challenge waiting for its answer.
#[derive(Clone)]
pub struct Challenge {
    /// Who challenges (the room's creator once accepted).
    pub from: Identity,
    /// Who is challenged.
    pub to: String,
    /// The game asked for.
    pub options: RoomOptions,
    made: Instant,
}

impl Challenge {
    /// A challenge made now.
    pub fn new(from: Identity, to: String, options: RoomOptions) -> Challenge {
        Challenge {
            from,
            to,
            options,
            made: Instant::now(),
        }
    }
}

/// Who is online, and the open challenges.
#[derive(Default)]
pub struct Challenges {
    online: Vec<Online>,
    /// Players online on other nodes of a cluster, by (node, player id).
    elsewhere: HashMap<(String, String), PlayerInfo>,
    open: HashMap<String, Challenge>,
}

impl Challenges {
    /// A connection said hello as `identity`; returns the player as others
    /// see them online.
    pub fn connect(&mut self, conn: u64, outlet: Outlet, identity: &Identity) -> PlayerInfo {
        self.online.retain(|o| o.conn != conn);
        let player = PlayerInfo {
            id: identity.id.clone(),
            name: identity.name.clone(),
            ai: None,
            bot: identity.bot,
        };
        self.online.push(Online {
            conn,
            outlet,
            player: player.clone(),
        });
        player
    }

    /// A connection closed; returns its player's id when it was their last
    /// connection here.
    pub fn disconnect(&mut self, conn: u64) -> Option<String> {
        let gone = self
            .online
            .iter()
            .find(|o| o.conn == conn)
            .map(|o| o.player.id.clone());
        self.online.retain(|o| o.conn != conn);
        self.drop_orphans();
        gone.filter(|id| !self.online.iter().any(|o| o.player.id == *id))
    }

    /// Forgets the challenges whose challenger is online nowhere.
    fn drop_orphans(&mut self) {
        let (online, elsewhere) = (&self.online, &self.elsewhere);
        self.open.retain(|_, c| {
            online.iter().any(|o| o.player.id == c.from.id)
                || elsewhere.keys().any(|(_, id)| *id == c.from.id)
        });
    }

    /// The players online here, each once (for another node that asks).
    pub fn online_here(&self) -> Vec<PlayerInfo> {
        let mut players: Vec<PlayerInfo> = self.online.iter().map(|o| o.player.clone()).collect();
        players.sort_by(|a, b| a.id.cmp(&b.id));
        players.dedup_by(|a, b| a.id == b.id);
        players
    }

    /// `player` is online on `node`.
    pub fn online_elsewhere(&mut self, node: &str, player: PlayerInfo) {
        self.elsewhere
            .insert((node.to_string(), player.id.clone()), player);
    }

    /// `player_id` left `node`.
    pub fn offline_elsewhere(&mut self, node: &str, player_id: &str) {
        self.elsewhere
            .remove(&(node.to_string(), player_id.to_string()));
        self.drop_orphans();
    }

    /// `node` is gone (or every node, with `None`: the link to them was lost).
    pub fn forget_nodes(&mut self, node: Option<&str>) {
        self.elsewhere
            .retain(|(n, _), _| node.is_some_and(|gone| gone != n));
        self.drop_orphans();
    }

    /// The player online under this name (any case), if any, and the other
    /// nodes they are on (none: only here).
    pub fn online_by_name(&self, name: &str) -> Option<(PlayerInfo, Vec<String>)> {
        let key = name_key(name);
        let here = self
            .online
            .iter()
            .find(|o| name_key(&o.player.name) == key)
            .map(|o| o.player.clone());
        let there: Vec<(&String, &PlayerInfo)> = self
            .elsewhere
            .iter()
            .filter(|(_, p)| name_key(&p.name) == key)
            .map(|((node, _), p)| (node, p))
            .collect();
        let player = here.or_else(|| there.first().map(|(_, p)| (*p).clone()))?;
        let nodes = there
            .iter()
            .filter(|(_, p)| p.id == player.id)
            .map(|(node, _)| (*node).clone())
            .collect();
        Some((player, nodes))
    }

    /// The bot accounts online, each once, by name.
    pub fn bots_online(&self) -> Vec<PlayerInfo> {
        let mut bots: Vec<PlayerInfo> = self
            .online
            .iter()
            .map(|o| &o.player)
            .chain(self.elsewhere.values())
            .filter(|p| p.bot)
            .cloned()
            .collect();
        bots.sort_by(|a, b| a.name.cmp(&b.name));
        bots.dedup_by(|a, b| a.id == b.id);
        bots
    }

    /// Opens a challenge; returns its id.
    pub fn open(&mut self, challenge: Challenge) -> String {
        let id = format!("c-{}", &uuid::Uuid::new_v4().simple().to_string()[..10]);
        self.keep(id.clone(), challenge);
        id
    }

    /// Keeps challenge `id` (made here, or on another node for a player here).
    pub fn keep(&mut self, id: String, challenge: Challenge) {
        self.open.retain(|_, c| c.made.elapsed() < CHALLENGE_TTL);
        self.open.insert(id, challenge);
    }

    /// Takes the challenge `id` addressed to `player_id`, if it is still open.
    pub fn take(&mut self, id: &str, player_id: &str) -> Option<Challenge> {
        let open = self
            .open
            .get(id)
            .is_some_and(|c| c.to == player_id && c.made.elapsed() < CHALLENGE_TTL);
        if open { self.open.remove(id) } else { None }
    }

    /// Sends `message` to every connection of `player_id` here; returns
    /// the frame and the other nodes the player is on, for the caller to
    /// pass it on to.
    pub fn tell(&self, player_id: &str, message: ServerMessage) -> (String, Vec<String>) {
        let text = ServerFrame::push(message).encode();
        self.tell_here(player_id, &text);
        let nodes = self
            .elsewhere
            .keys()
            .filter(|(_, id)| id == player_id)
            .map(|(node, _)| node.clone())
            .collect();
        (text, nodes)
    }

    /// Sends the frame `text` to every connection of `player_id` here.
    pub fn tell_here(&self, player_id: &str, text: &str) {
        for o in self.online.iter().filter(|o| o.player.id == player_id) {
            let _ = o.outlet.send_text(text);
        }
    }
}
