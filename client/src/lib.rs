//! Tabula's client, for the desktop and the browser: an eframe/egui app that talks to a Tabula server
//! (or starts one inside itself) and shows the lobby, the Gomoku and
//! Backgammon boards, and the room around them.
//!
//! * [`app`] owns the runtime state, the panels and the command loop.
//! * [`net`] runs the WebSocket (a tokio thread on the desktop, the page's
//!   socket in a browser) and reconnects.
//! * [`embedded`] starts a server in-process for "Play on this computer"
//!   (desktop only); [`download`] saves a file from the browser.
//! * [`room`] keeps one room's state from snapshots and events.
//! * [`gomoku_view`], [`bg_view`] paint the boards; [`bg_moves`] builds a
//!   Backgammon play hop by hop from the rules' legal plays.
//! * [`dice_check`] checks a Backgammon record's dice against its proof.
//! * [`replay`] steps through a finished game for the replay viewer, and
//!   [`analysis`] keeps what the server's engines said about it;
//!   [`export`] saves one to a file (SGF, .mat, .psq).
//! * [`settings`] is what is remembered between runs; [`invite`] reads and
//!   writes the links that open a room; [`page`] reads the browser page's
//!   origin and fragment; [`probe`] tells a browser test where the
//!   controls are.

#![warn(missing_docs)]

// The interface's translations (client/locales/*.yml), compiled in; a key
// missing in a language falls back to English.
rust_i18n::i18n!("locales", fallback = "en");

#[cfg(all(not(target_arch = "wasm32"), target_os = "linux"))]
pub mod alsa;
pub mod analysis;
pub mod app;
pub mod bg_moves;
pub mod bg_view;
pub mod dice_check;
#[cfg(target_arch = "wasm32")]
pub mod download;
#[cfg(all(not(target_arch = "wasm32"), feature = "embedded"))]
pub mod embedded;
pub mod error_text;
pub mod export;
#[cfg(not(target_arch = "wasm32"))]
pub mod file_picker;
pub mod fonts;
pub mod gomoku_view;
pub mod invite;
pub mod net;
#[cfg(target_arch = "wasm32")]
pub mod page;
pub mod probe;
pub mod replay;
pub mod room;
pub mod settings;
pub mod sound;
pub mod speaker;
mod translations;

pub use app::{Command, TabulaApp};
pub use settings::Settings;
