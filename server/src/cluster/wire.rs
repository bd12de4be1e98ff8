//! What the nodes of a cluster say to each other through Redis: messages
//! to one node (on its own channel) and news for every node (on the
//! cluster's channel). Both are JSON.

use serde::{Deserialize, Serialize};
use tabula_shared::protocol::{ClientMessage, PlayerInfo, RoomId, RoomOptions, RoomSummary};

use crate::accounts::Account;
use crate::handle::ConnId;
use crate::identity::Identity;
use crate::store::ApiTokenRow;

/// A node's name in the cluster: made fresh each time a node starts.
pub type NodeId = String;

/// The channel every node listens to.
pub const NEWS: &str = "tabula:news";

/// The channel of one node.
pub fn node_channel(node: &str) -> String {
    format!("tabula:node:{node}")
}

/// A message for one node.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ToNode {
    /// For the room's owner: a client of node `from` asks the room this.
    Request {
        /// The node that holds the client's socket.
        from: NodeId,
        /// The connection there.
        conn: ConnId,
        /// Who the client is.
        identity: Identity,
        /// Echoed in the answer.
        request_id: Option<u64>,
        /// The room asked.
        room_id: RoomId,
        /// The request.
        message: Box<ClientMessage>,
    },
    /// For the room's owner: that client's connection closed.
    Disconnected {
        /// The node that held it.
        from: NodeId,
        /// The connection.
        conn: ConnId,
        /// A room it was in.
        room_id: RoomId,
    },
    /// For the node holding the socket: a frame for a client of it.
    Frame {
        /// The connection.
        conn: ConnId,
        /// The frame's text, exactly as the room encoded it.
        text: String,
    },
    /// For a node where `player_id` is online: a frame for each of their
    /// connections (a challenge's answer, say).
    Tell {
        /// The player.
        player_id: String,
        /// The frame.
        text: String,
    },
    /// For a node where the challenged player is online: keep this
    /// challenge (they answer it there) and show it to them.
    Challenge {
        /// Its id.
        challenge_id: String,
        /// The challenger.
        from: Identity,
        /// The challenged player's id.
        to: String,
        /// The game asked for.
        options: RoomOptions,
    },
    /// For the node holding the socket: close this client's connection.
    Close {
        /// The connection.
        conn: ConnId,
        /// The WebSocket close code.
        code: u16,
        /// Why, for the client.
        reason: String,
    },
}

/// News for every node.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum News {
    /// A room `owner` runs is new or shows something new.
    Room {
        /// The node that runs it.
        owner: NodeId,
        /// What the lobby shows of it.
        summary: RoomSummary,
        /// Its private code, for joining by code on any node.
        code: Option<String>,
    },
    /// A room `owner` ran closed.
    Removed {
        /// The node that ran it.
        owner: NodeId,
        /// Which room.
        room_id: RoomId,
    },
    /// `player` connected to `node` (for challenges and the bots list).
    Online {
        /// The node.
        node: NodeId,
        /// The player.
        player: PlayerInfo,
    },
    /// `player_id`'s last connection to `node` closed.
    Offline {
        /// The node.
        node: NodeId,
        /// The player.
        player_id: String,
    },
    /// `node` is alive (sent every lease tick).
    Beat {
        /// Which node.
        node: NodeId,
    },
    /// `node` (re)joined: every node announces its rooms again.
    Hello {
        /// Which node.
        node: NodeId,
    },
    /// A player registered an account (saved): it signs in on any node.
    Registered {
        /// The account, with its password's hash.
        account: Account,
        /// The player's identity, now registered.
        identity: Identity,
    },
    /// A bot account got an API token (saved).
    ApiToken {
        /// The token as stored (its hash).
        row: ApiTokenRow,
        /// The bot's identity.
        identity: Identity,
    },
    /// An API token was revoked (saved).
    ApiTokenRevoked {
        /// The bot account.
        player_id: String,
        /// The token's id.
        id: String,
    },
    /// `node` stopped and let go of its leases: claim its rooms now.
    Leaving {
        /// Which node.
        node: NodeId,
    },
}
