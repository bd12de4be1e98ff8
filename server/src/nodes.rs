//! [`Nodes`]: what the registry, the rooms and the connections ask of the
//! other nodes of a cluster, as a trait that the cluster implements. They
//! hold a `dyn Nodes` (none on a server alone), so none of them needs the
//! cluster's module, which needs them.

use std::time::Duration;

use tabula_shared::protocol::PlayerInfo;

use crate::accounts::Account;
use crate::challenges::Challenge;
use crate::identity::Identity;
use crate::store::ApiTokenRow;

/// A saved change to the players every node keeps in memory.
pub enum PlayerNews {
    /// An account was registered.
    Registered(Account, Identity),
    /// A bot account got an API token.
    ApiToken(ApiTokenRow, Identity),
    /// An API token was revoked.
    ApiTokenRevoked {
        /// The bot account.
        player_id: String,
        /// The token.
        id: String,
    },
}

/// The other nodes of a cluster, as this node's parts reach them.
pub trait Nodes: Send + Sync {
    /// This node's name (the holder of its rooms' leases).
    fn node(&self) -> &str;
    /// How long a lease lasts unless renewed.
    fn lease(&self) -> Duration;
    /// Tells the other nodes of a saved change to the players.
    fn players_changed(&self, news: PlayerNews);
    /// A player connected here.
    fn online(&self, player: PlayerInfo);
    /// A player's last connection here closed.
    fn offline(&self, player_id: String);
    /// Passes the frame `text` on to `player_id`'s connections on `node`.
    fn tell(&self, node: &str, player_id: &str, text: String);
    /// Hands challenge `challenge_id` to `node`, where its target is online.
    fn challenge(&self, node: &str, challenge_id: &str, challenge: &Challenge);
}
