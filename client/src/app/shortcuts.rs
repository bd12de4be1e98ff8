//! Keyboard shortcuts in a game, and the help window that lists them (F1
//! or `?`). The replay viewer's own keys (arrows, Home, End) are listed
//! too. Keys act only while no text field has the focus, so typing in the
//! chat never rolls the dice.

use egui::{Key, RichText};
use rust_i18n::t;
use tabula_shared::backgammon::GamePhase;

use super::{Command, TabulaApp};

/// The keys and what they do, as the help window lists them.
const KEYS: &[(&str, &str)] = &[
    ("R", "keys.roll"),
    ("D", "keys.double"),
    ("Enter", "keys.confirm"),
    ("Backspace / U", "keys.undo"),
    ("F", "keys.flip"),
    ("← → Home End", "keys.replay"),
    ("Esc", "keys.close"),
    ("F1 / ?", "keys.help"),
];

impl TabulaApp {
    /// The commands the keys pressed this frame ask for.
    pub(super) fn shortcuts(&self, ctx: &egui::Context) -> Vec<Command> {
        let mut out = Vec::new();
        if ctx.memory(|m| m.focused().is_some()) {
            return out;
        }
        let pressed = |key| ctx.input(|i| i.key_pressed(key));
        if pressed(Key::F1)
            || ctx.input(|i| i.events.iter().any(|e| *e == egui::Event::Text("?".into())))
        {
            out.push(Command::ShowHelp(!self.help_open));
        }
        if self.help_open && pressed(Key::Escape) {
            out.push(Command::ShowHelp(false));
        }
        let Some(room) = &self.room.room else {
            return out;
        };
        if pressed(Key::F) {
            out.push(Command::Flip);
        }
        let (Some(me), Some(game)) = (self.room.my_side(), room.backgammon()) else {
            return out;
        };
        if room.result.is_some() || !self.room.anims.is_empty() {
            return out;
        }
        if *game.phase() == (GamePhase::AwaitingRoll { side: me }) {
            if pressed(Key::R) {
                out.push(Command::Roll);
            }
            if pressed(Key::D) && game.can_double(me) {
                out.push(Command::Double);
            }
        }
        if self.room.bg.is_some() && (pressed(Key::Backspace) || pressed(Key::U)) {
            out.push(Command::UndoHop);
        }
        out
    }
}

/// The help window listing the keys.
pub(super) fn help_window(ctx: &egui::Context) -> Vec<Command> {
    let mut out = Vec::new();
    let mut open = true;
    egui::Window::new(t!("keys.title"))
        .id(egui::Id::unique("keys-help"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::LEFT_TOP, [16.0, 48.0])
        .show(ctx, |ui| {
            egui::Grid::new("keys")
                .num_columns(2)
                .spacing([16.0, 6.0])
                .show(ui, |ui| {
                    for (key, what) in KEYS {
                        ui.label(RichText::new(*key).monospace().strong());
                        ui.label(t!(*what));
                        ui.end_row();
                    }
                });
        });
    if !open {
        out.push(Command::ShowHelp(false));
    }
    out
}
