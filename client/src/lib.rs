//! Tabula's desktop client: an eframe/egui app that talks to a Tabula server
//! (or starts one inside itself) and shows the lobby, the Gomoku and
//! Backgammon boards, and the room around them.
//!
//! * [`app`] owns the runtime state, the panels and the command loop.
//! * [`net`] runs the WebSocket on a tokio thread and reconnects.
//! * [`embedded`] starts a server in-process for "Play on this computer".
//! * [`room`] keeps one room's state from snapshots and events.
//! * [`gomoku_view`], [`bg_view`] paint the boards; [`bg_moves`] builds a
//!   Backgammon play hop by hop from the rules' legal plays.
//! * [`dice_check`] checks a Backgammon record's dice against its proof.
//! * [`replay`] steps through a finished game for the replay viewer;
//!   [`export`] saves one to a file (SGF, .mat, .psq).
//! * [`settings`] is what is remembered between runs.

#![warn(missing_docs)]

// The interface's translations (client/locales/*.yml), compiled in; a key
// missing in a language falls back to English.
rust_i18n::i18n!("locales", fallback = "en");

pub mod app;
pub mod bg_moves;
pub mod bg_view;
pub mod dice_check;
pub mod embedded;
pub mod export;
pub mod fonts;
pub mod gomoku_view;
pub mod net;
pub mod replay;
pub mod room;
pub mod settings;
mod translations;

pub use app::{Command, TabulaApp};
pub use settings::Settings;
