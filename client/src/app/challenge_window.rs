//! [`IncomingChallenge`]: a challenge from another player or a bot, and the
//! window that asks to accept or decline it. Accepting seats us in the new
//! room (the server answers with `joined`).

use egui::{Id, RichText};
use rust_i18n::t;
use tabula_shared::protocol::{PlayerInfo, RoomOptions};

use super::Command;
use super::labels::{game_name, rules_text};
use crate::room::display_name;

/// A challenge waiting for our answer.
#[derive(Debug, Clone, PartialEq)]
pub struct IncomingChallenge {
    /// The server's id for it.
    pub id: String,
    /// Who challenges.
    pub from: PlayerInfo,
    /// The game offered.
    pub options: RoomOptions,
}

/// Draws the oldest challenge waiting (one at a time).
pub(super) fn challenge_window(
    ctx: &egui::Context,
    challenges: &[IncomingChallenge],
) -> Vec<Command> {
    let mut out = Vec::new();
    let Some(challenge) = challenges.first() else {
        return out;
    };
    egui::Window::new(t!("challenge.title"))
        .id(Id::unique("incoming_challenge"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 80.0))
        .show(ctx, |ui| {
            ui.label(
                RichText::new(t!(
                    "challenge.from",
                    name = display_name(&challenge.from),
                    game = game_name(challenge.options.game.kind())
                ))
                .strong(),
            );
            ui.label(rules_text(&challenge.options.game));
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                if ui.button(t!("challenge.decline")).clicked() {
                    out.push(Command::AnswerChallenge {
                        id: challenge.id.clone(),
                        accept: false,
                    });
                }
                ui.add_space(24.0);
                if ui
                    .button(RichText::new(t!("challenge.accept")).strong())
                    .clicked()
                {
                    out.push(Command::AnswerChallenge {
                        id: challenge.id.clone(),
                        accept: true,
                    });
                }
            });
        });
    out
}
