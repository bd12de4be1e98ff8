//! Who a connection speaks for: a player's identity.

/// A player identity: public id, secret token and display name.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Identity {
    /// Public id, shown to others.
    pub id: String,
    /// Secret resume token, shown only to its owner.
    pub token: String,
    /// Display name (for a registered player, the account's name).
    pub name: String,
    /// Whether this identity is a registered account.
    pub registered: bool,
    /// Whether the account is a bot account (it has had an API token).
    pub bot: bool,
}
