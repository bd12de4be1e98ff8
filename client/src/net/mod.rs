//! The connection to a server: the UI gives [`NetCommand`]s and polls
//! [`NetEvent`]s; the worker says `hello`, keeps the resume token and
//! reconnects with a growing back-off when the connection drops.
//!
//! Two workers share these types and the [`handshake`] rules: the desktop one
//! runs tokio-tungstenite on its own thread ([`native`]), the browser one
//! drives the page's WebSocket from the UI's frame loop ([`web`]). The UI
//! thread never waits on the network.

use std::time::Duration;

use rust_i18n::t;
use tabula_shared::protocol::{ClientFrame, ErrorCode, ServerFrame};

use crate::error_text::error_text;

mod handshake;
#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(target_arch = "wasm32")]
mod web;

#[cfg(not(target_arch = "wasm32"))]
pub use native::Network;
#[cfg(target_arch = "wasm32")]
pub use web::Network;

/// Where to connect and who to be.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// `host:port` of the server.
    pub address: String,
    /// Display name for `hello`.
    pub name: String,
    /// Server password, if the server has one.
    pub password: Option<String>,
    /// A resume token from an earlier run, to get the same identity back.
    pub token: Option<String>,
    /// Sign in to the registered account named `name` with this password.
    /// Kept in memory only, and dropped once the server has welcomed us:
    /// reconnects use the account's resume token instead.
    pub account_password: Option<String>,
}

/// A request from the UI to the worker.
#[derive(Debug, Clone)]
pub enum NetCommand {
    /// Connect to a server (dropping any current connection and identity).
    Connect(Target),
    /// Send one frame; dropped with a notice when not connected.
    Send(ClientFrame),
    /// Close the connection and stop reconnecting.
    Disconnect,
}

/// The connection as the UI shows it.
#[derive(Debug, Clone, PartialEq)]
pub enum ConnState {
    /// Not connected and not trying.
    Disconnected,
    /// Opening the socket (attempt number, from 1).
    Connecting(u32),
    /// Connected and welcomed.
    Connected,
    /// Lost; the next attempt starts after the given delay.
    Retrying {
        /// Attempt count so far.
        attempt: u32,
        /// Why the last attempt failed.
        reason: String,
        /// Seconds until the next attempt.
        in_secs: u64,
    },
    /// The server refused us for good (bad password, bad name...).
    Refused(String),
}

/// Something the worker reports to the UI.
#[derive(Debug, Clone)]
pub enum NetEvent {
    /// The connection state changed.
    State(ConnState),
    /// A server frame arrived.
    Frame(ServerFrame),
    /// A short message for a toast.
    Notice(String),
}

/// The back-off before reconnect attempt `attempt` (from 1): 1, 2, 4, 8 s, then 8 s.
pub fn backoff(attempt: u32) -> Duration {
    Duration::from_secs(1 << attempt.saturating_sub(1).min(3))
}

/// The WebSocket URL for what a player typed as the server: `host:port`, a
/// `ws://` or `wss://` URL, or the `http(s)://` link of the host's web page.
pub fn ws_url(address: &str) -> String {
    let address = address.trim();
    let (scheme, rest) = if let Some(rest) = address.strip_prefix("https://") {
        ("wss", rest)
    } else if let Some(rest) = address.strip_prefix("http://") {
        ("ws", rest)
    } else if let Some(rest) = address.strip_prefix("wss://") {
        ("wss", rest)
    } else if let Some(rest) = address.strip_prefix("ws://") {
        ("ws", rest)
    } else {
        ("ws", address)
    };
    let host = rest.split(['/', '#', '?']).next().unwrap_or(rest);
    format!("{scheme}://{host}/")
}

/// A clear sentence for an error that refused our `hello`.
pub fn refusal_text(code: ErrorCode, message: &str, name: &str) -> String {
    match code {
        ErrorCode::SignInFailed => t!("refusal.sign_in_failed").into_owned(),
        ErrorCode::NameTaken => t!("refusal.name_taken", name = name).into_owned(),
        ErrorCode::RateLimited => t!("refusal.rate_limited").into_owned(),
        ErrorCode::AuthFailed => {
            t!("refusal.auth_failed", message = error_text(code, message)).into_owned()
        }
        ErrorCode::InvalidName => {
            t!("refusal.invalid_name", message = error_text(code, message)).into_owned()
        }
        _ => error_text(code, message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_address_or_a_pasted_link_becomes_a_websocket_url() {
        assert_eq!(ws_url("10.0.0.2:7878"), "ws://10.0.0.2:7878/");
        assert_eq!(ws_url(" ws://h:1/ "), "ws://h:1/");
        assert_eq!(ws_url("http://h:7878/#/room/abc"), "ws://h:7878/");
        assert_eq!(
            ws_url("https://games.example.org/"),
            "wss://games.example.org/"
        );
    }

    #[test]
    fn backoff_grows_then_caps() {
        assert_eq!(backoff(1), Duration::from_secs(1));
        assert_eq!(backoff(2), Duration::from_secs(2));
        assert_eq!(backoff(4), Duration::from_secs(8));
        assert_eq!(backoff(40), Duration::from_secs(8));
    }
}
