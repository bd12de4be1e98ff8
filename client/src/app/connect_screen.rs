//! [`ConnectScreen`]: the first screen, where the player gives a name, a
//! server and the passwords, then connects or hosts a game here.

use egui::{Key, RichText, Ui};
use rust_i18n::t;

use super::Command;
use super::labels::BAD;
use crate::net::ConnState;
use crate::probe;
use crate::settings::Settings;

/// What the connect screen keeps besides the saved settings.
#[derive(Default)]
pub(super) struct ConnectScreen {
    /// The account password typed: kept in memory only, and cleared once the
    /// server has welcomed us.
    pub(super) account_password: String,
    /// The server of the last Connect has welcomed us at least once: a lost
    /// connection is then retried, as the server may be restarting.
    pub(super) reached: bool,
    /// Why the name typed was refused, shown under the name field.
    pub(super) name_error: Option<String>,
    /// Why the last Connect found no server (the address and the
    /// system's reason), put into words with what to check when drawn, in
    /// the language shown then.
    pub(super) unreachable: Option<(String, String)>,
}

impl ConnectScreen {
    /// The password to sign in with, if one was typed.
    pub(super) fn account_password(&self) -> Option<String> {
        Some(self.account_password.clone()).filter(|p| !p.is_empty())
    }

    /// A connection attempt failed. Before the server has ever answered,
    /// trying again and again helps nobody: the attempt stops and the
    /// screen says what to check. Returns whether to stop.
    pub(super) fn attempt_failed(&mut self, address: &str, reason: &str) -> bool {
        if self.reached {
            return false;
        }
        self.unreachable = Some((address.to_string(), reason.to_string()));
        true
    }

    /// What the screen says when no server answered, if none did.
    pub(super) fn unreachable_text(&self) -> Option<String> {
        self.unreachable.as_ref().map(|(address, reason)| {
            t!("connect.unreachable", address = address, reason = reason).into_owned()
        })
    }

    /// Draws the screen.
    pub(super) fn ui(
        &mut self,
        ui: &mut Ui,
        settings: &mut Settings,
        conn: &ConnState,
        invited: Option<&str>,
    ) -> Vec<Command> {
        let mut out = Vec::new();
        ui.vertical_centered(|ui| {
            ui.add_space(40.0);
            ui.heading(t!("connect.heading"));
            // Someone sent a link to a room: say so before anything else.
            if let Some(room) = invited {
                ui.add_space(8.0);
                ui.label(
                    RichText::new(t!("connect.invited", host = settings.address.trim()))
                        .strong()
                        .size(18.0),
                );
                ui.label(t!("connect.invited_how", room = room));
            }
            ui.add_space(20.0);
        });
        egui::Grid::new("connect")
            .num_columns(2)
            .spacing([12.0, 10.0])
            .show(ui, |ui| {
                let l = ui.label(t!("connect.name"));
                let field = ui
                    .text_edit_singleline(&mut settings.name)
                    .labelled_by(l.id);
                probe::mark("name", field.rect);
                // The complaint was about the name as it was: editing it
                // takes the complaint away.
                if field.changed() {
                    self.name_error = None;
                }
                ui.end_row();
                if let Some(reason) = &self.name_error {
                    ui.label("");
                    ui.label(RichText::new(t!("connect.name_error", reason = reason)).color(BAD));
                    ui.end_row();
                }
                let l = ui.label(t!("connect.address"));
                ui.text_edit_singleline(&mut settings.address)
                    .labelled_by(l.id);
                ui.end_row();
                let l = ui.label(t!("connect.server_password"));
                ui.add(
                    egui::TextEdit::singleline(&mut settings.password)
                        .password(true)
                        .hint_text(t!("connect.optional")),
                )
                .labelled_by(l.id);
                ui.end_row();
                let l = ui.label(t!("connect.account_password"));
                ui.add(
                    egui::TextEdit::singleline(&mut self.account_password)
                        .password(true)
                        .hint_text(t!("connect.account_password_hint")),
                )
                .labelled_by(l.id)
                .on_hover_text(t!("connect.account_password_tip"));
                ui.end_row();
            });
        if let ConnState::Refused(reason) = conn {
            ui.add_space(8.0);
            ui.label(RichText::new(reason).color(BAD));
        }
        if let Some(reason) = self.unreachable_text() {
            ui.add_space(8.0);
            ui.add(egui::Label::new(RichText::new(reason).color(BAD)).wrap());
        }
        ui.add_space(12.0);
        ui.horizontal(|ui| {
            let connect = ui.button(t!("connect.connect"));
            probe::mark("connect", connect.rect);
            if connect.clicked() {
                out.push(Command::Connect);
            }
            // A page in a browser cannot host a server.
            if cfg!(not(target_arch = "wasm32"))
                && ui
                    .button(t!("connect.play_here"))
                    .on_hover_text(t!("connect.play_here_hint"))
                    .clicked()
            {
                out.push(Command::PlayHere);
            }
        });
        if ui.input(|i| i.key_pressed(Key::Enter)) {
            out.push(Command::Connect);
        }
        out
    }
}
