//! [`Challenges`]: who is online (to challenge a player by name, and to list
//! the bots), and the challenges waiting for an answer. Challenges live in
//! memory only: one not answered within [`CHALLENGE_TTL`], or whose
//! challenger has gone, is void.

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

/// Who is online, and the open challenges.
#[derive(Default)]
pub struct Challenges {
    online: Vec<Online>,
    open: HashMap<String, Challenge>,
}

impl Challenges {
    /// A connection said hello as `identity`.
    pub fn connect(&mut self, conn: u64, outlet: Outlet, identity: &Identity) {
        self.online.retain(|o| o.conn != conn);
        self.online.push(Online {
            conn,
            outlet,
            player: PlayerInfo {
                id: identity.id.clone(),
                name: identity.name.clone(),
                ai: None,
                bot: identity.bot,
            },
        });
    }

    /// A connection closed.
    pub fn disconnect(&mut self, conn: u64) {
        self.online.retain(|o| o.conn != conn);
        let online = &self.online;
        self.open
            .retain(|_, c| online.iter().any(|o| o.player.id == c.from.id));
    }

    /// The player online under this name (any case), if any.
    pub fn online_by_name(&self, name: &str) -> Option<PlayerInfo> {
        let key = name_key(name);
        self.online
            .iter()
            .find(|o| name_key(&o.player.name) == key)
            .map(|o| o.player.clone())
    }

    /// The bot accounts online, each once, by name.
    pub fn bots_online(&self) -> Vec<PlayerInfo> {
        let mut bots: Vec<PlayerInfo> = self
            .online
            .iter()
            .filter(|o| o.player.bot)
            .map(|o| o.player.clone())
            .collect();
        bots.sort_by(|a, b| a.name.cmp(&b.name));
        bots.dedup_by(|a, b| a.id == b.id);
        bots
    }

    /// Opens a challenge; returns its id.
    pub fn open(&mut self, from: Identity, to: String, options: RoomOptions) -> String {
        self.open.retain(|_, c| c.made.elapsed() < CHALLENGE_TTL);
        let id = format!("c-{}", &uuid::Uuid::new_v4().simple().to_string()[..10]);
        let challenge = Challenge {
            from,
            to,
            options,
            made: Instant::now(),
        };
        self.open.insert(id.clone(), challenge);
        id
    }

    /// Takes the challenge `id` addressed to `player_id`, if it is still open.
    pub fn take(&mut self, id: &str, player_id: &str) -> Option<Challenge> {
        let open = self
            .open
            .get(id)
            .is_some_and(|c| c.to == player_id && c.made.elapsed() < CHALLENGE_TTL);
        if open { self.open.remove(id) } else { None }
    }

    /// Sends `message` to every connection of `player_id`.
    pub fn tell(&self, player_id: &str, message: ServerMessage) {
        let text = ServerFrame::push(message).encode();
        for o in self.online.iter().filter(|o| o.player.id == player_id) {
            let _ = o.outlet.send_text(&text);
        }
    }
}
