//! The browser page the client runs in: its origin is the server to join,
//! and its fragment may be an invite link or a board link.

/// The page's origin (`http://host:port`), which is the game server's address.
pub fn origin() -> Option<String> {
    web_sys::window()?.location().origin().ok()
}

/// The page's fragment (`#/room/ID`, `#/board/…`), noted as read.
pub fn fragment() -> Option<String> {
    let hash = web_sys::window()?.location().hash().ok()?;
    seen(&hash);
    Some(hash)
}

thread_local! {
    /// The fragment last read, to notice a new invite link in the same tab.
    static SEEN: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Notes `hash` as read; true when it differs from the one read before.
fn seen(hash: &str) -> bool {
    SEEN.with(|s| {
        let mut s = s.borrow_mut();
        let new = *s != hash;
        if new {
            *s = hash.to_string();
        }
        new
    })
}

/// The fragment of a link opened in this tab since the last look (only
/// the part after `#` changed, so the page did not load again), if any.
pub fn new_fragment() -> Option<String> {
    let hash = web_sys::window()?.location().hash().ok()?;
    seen(&hash).then_some(hash)
}
