//! The top bar: the connection's status, the server we host, and the
//! buttons that change screen, open the account window or leave.

use egui::{Color32, RichText, Ui};
use rust_i18n::t;

use super::labels::{GOOD, WARN, dot};
use super::{Command, Danger, Screen, TabulaApp};
use crate::net::ConnState;

/// Below this width the top bar wraps onto rows: one line would leave the
/// status no room beside the six tabs and the buttons.
const ONE_LINE_BAR: f32 = 900.0;

impl TabulaApp {
    /// Draws the top bar.
    pub(super) fn status_bar(&self, ui: &mut Ui) -> Vec<Command> {
        let mut out = Vec::new();
        if ui.available_width() < ONE_LINE_BAR {
            // A phone held upright, or a small window: the status on its
            // own line, the buttons wrapped below it.
            ui.horizontal(|ui| {
                ui.heading("Tabula");
                ui.separator();
                let (text, colour) = self.status_text();
                dot(ui, colour, 10.0);
                // Wrapped, not cut: the name and whether we are a guest are
                // at its end.
                ui.add(egui::Label::new(&text).wrap());
            });
            // Right to left as on a wide screen: Disconnect is the last
            // button a thumb meets, not the first. The tabs get a row of
            // their own below (a separator in a wrapped row would stand as
            // tall as the window). Aligned to the top: centred, the rows sat
            // in the middle of the window's height and the bar took it all.
            ui.with_layout(
                egui::Layout::right_to_left(egui::Align::Min).with_main_wrap(true),
                |ui| out.extend(self.status_buttons(ui, false)),
            );
            ui.horizontal_wrapped(|ui| out.extend(self.screen_tabs(ui, false)));
        } else {
            out.extend(self.status_line(ui));
        }
        // Where friends join: a line of its own, wrapped on a narrow window.
        if let Some(note) = &self.session.host_note() {
            ui.add(egui::Label::new(RichText::new(note).strong()).wrap());
        }
        out
    }

    /// The top bar on one line: the status, and the buttons on the right.
    fn status_line(&self, ui: &mut Ui) -> Vec<Command> {
        let mut out = Vec::new();
        ui.horizontal(|ui| {
            ui.heading("Tabula");
            ui.separator();
            // The buttons take their room on the right first; the status
            // line gets what is left, cut short rather than drawn under them.
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                out.extend(self.status_buttons(ui, true));
                ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                    let (text, colour) = self.status_text();
                    dot(ui, colour, 10.0);
                    ui.add(egui::Label::new(&text).truncate())
                        .on_hover_text(text);
                });
            });
        });
        out
    }

    /// What the status line says, and the colour of its dot.
    fn status_text(&self) -> (String, Color32) {
        let address = &self.settings.address;
        match &self.session.conn {
            ConnState::Disconnected => (t!("status.disconnected").into(), Color32::GRAY),
            ConnState::Connecting(n) if *n <= 1 => (
                t!("status.connecting", address = address).into(),
                Color32::YELLOW,
            ),
            ConnState::Connecting(n) => (t!("status.reconnecting", n = n).into(), Color32::YELLOW),
            ConnState::Connected => (
                t!(
                    "status.connected",
                    address = address,
                    name = self.session.my_name,
                    kind = if self.session.registered {
                        t!("status.registered")
                    } else {
                        t!("status.guest")
                    }
                )
                .into(),
                GOOD,
            ),
            ConnState::Retrying {
                reason, in_secs, ..
            } => (
                t!("status.retrying", reason = reason, secs = in_secs).into(),
                WARN,
            ),
            ConnState::Refused(reason) => {
                (t!("status.refused", reason = reason).into(), Color32::RED)
            }
        }
    }

    /// The buttons on the right, laid out right to left, and the screen
    /// tabs after them when `with_tabs`.
    fn status_buttons(&self, ui: &mut Ui, with_tabs: bool) -> Vec<Command> {
        let mut out = Vec::new();
        if self.session.online() && ui.button(t!("status.disconnect")).clicked() {
            out.push(Command::Disconnect);
        }
        if ui.button("?").on_hover_text(t!("keys.title")).clicked() {
            out.push(Command::ShowHelp(!self.help_open));
        }
        if ui.button(t!("settings.title")).clicked() {
            out.push(Command::ShowSettings(!self.settings_open));
        }
        let in_room = self.room.room.is_some();
        let leave = in_room.then(|| ui.button(t!("status.leave_room")));
        if let Some(leave) = &leave {
            crate::probe::mark("leave-room", leave.rect);
        }
        if leave.is_some_and(|b| b.clicked()) {
            out.push(if self.playing() {
                Command::Ask(Some(Danger::LeaveGame))
            } else {
                Command::Leave
            });
        }
        if !self.session.welcomed {
            return out;
        }
        if ui
            .button(t!("status.account"))
            .on_hover_text(t!("status.account_hint"))
            .clicked()
        {
            out.push(Command::ShowAccount(!self.account.open));
        }
        if with_tabs && !in_room {
            ui.separator();
            // Right to left: the last tab first.
            out.extend(self.screen_tabs(ui, true));
        }
        out
    }

    /// The tabs that change screen (none in a room), in order or, for a
    /// right-to-left layout, `reversed`.
    fn screen_tabs(&self, ui: &mut Ui, reversed: bool) -> Vec<Command> {
        let mut out = Vec::new();
        if self.room.room.is_some() || !self.session.welcomed {
            return out;
        }
        let mut tabs = [
            (Screen::Lobby, t!("status.lobby")),
            (Screen::Tournaments, t!("status.tournaments")),
            (Screen::History, t!("status.history")),
            (Screen::Leaderboard, t!("status.leaderboard")),
            (Screen::Dice, t!("status.dice")),
            (Screen::Study, t!("status.study")),
            (Screen::Puzzles, t!("status.puzzles")),
        ];
        if reversed {
            tabs.reverse();
        }
        for (screen, label) in tabs {
            let tab = ui.selectable_label(self.screen == screen, label);
            crate::probe::mark(&format!("tab-{}", screen.name()), tab.rect);
            if tab.clicked() {
                out.push(Command::ShowScreen(screen));
            }
        }
        out
    }
}
