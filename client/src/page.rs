//! The browser page the client runs in: its origin is the server to join,
//! and its fragment may be an invite link.

use crate::invite::Invite;

/// The page's origin (`http://host:port`), which is the game server's address.
pub fn origin() -> Option<String> {
    web_sys::window()?.location().origin().ok()
}

/// The invite in the page's fragment (`#/room/ID`), if any.
pub fn invite() -> Option<Invite> {
    let hash = web_sys::window()?.location().hash().ok()?;
    Invite::parse(&hash)
}
