//! The live move list beside the board: every action of the game in
//! progress in the replay's notation, the last one marked; a click shows
//! the position after that move on the board without leaving the game.

use egui::{RichText, Ui};
use rust_i18n::t;

use super::Command;

/// The list's height in points.
const LIST_HEIGHT: f32 = 120.0;

/// Draws the list; `looking` is the number of actions of the position
/// looked back at, if any.
pub(super) fn move_list(ui: &mut Ui, lines: &[String], looking: Option<usize>) -> Vec<Command> {
    let mut out = Vec::new();
    egui::CollapsingHeader::new(RichText::new(t!("moves.title")).strong())
        .id_salt("move-list")
        .default_open(true)
        .show(ui, |ui| {
            // A fixed height, so the chat below does not move as moves come.
            egui::ScrollArea::vertical()
                .id_salt("move-list-scroll")
                .min_scrolled_height(LIST_HEIGHT)
                .max_height(LIST_HEIGHT)
                .auto_shrink([false, false])
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    if lines.is_empty() {
                        ui.label(t!("moves.none"));
                    }
                    for (i, line) in lines.iter().enumerate() {
                        let n = i + 1;
                        let last = n == lines.len();
                        let text = if last {
                            RichText::new(line).strong()
                        } else {
                            RichText::new(line)
                        };
                        let chosen = looking == Some(n) || (looking.is_none() && last);
                        if ui.selectable_label(chosen, text).clicked() {
                            out.push(Command::LookBack((!last).then_some(n)));
                        }
                    }
                });
            if let Some(n) = looking {
                ui.horizontal(|ui| {
                    ui.label(t!("moves.looking", n = n));
                    if ui.button(t!("moves.back_to_game")).clicked() {
                        out.push(Command::LookBack(None));
                    }
                });
            }
        });
    out
}
