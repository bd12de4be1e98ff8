//! The game-over dialog: who won and how, the final score, the rating
//! changes, the client's own check of the dice (Backgammon), and what to do next (replay, save, rematch, back to the lobby).

use egui::{Align2, RichText, Ui};
use tabula_shared::protocol::{EndReason, GameRecord, GameResult};

use super::Command;
use super::labels::{BAD, GOOD, dice_check};
use super::room_screen::RoomScreen;
use crate::dice_check::DiceCheck;
use crate::room::Room;

impl RoomScreen {
    /// Draws the dialog while the game is over and it was not dismissed.
    pub(super) fn result_dialog(&self, ctx: &egui::Context) -> Vec<Command> {
        let mut out = Vec::new();
        let Some(room) = &self.room else { return out };
        let Some(result) = &room.result else {
            return out;
        };
        if self.result_dismissed {
            return out;
        }
        egui::Window::new("Game over")
            .collapsible(false)
            .resizable(false)
            .anchor(Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                outcome(ui, room, result);
                if let Some(GameRecord::Backgammon { actions, dice, .. }) = &room.record {
                    ui.separator();
                    dice_check(ui, &DiceCheck::of(actions, dice.as_ref()));
                }
                if !room.ratings.is_empty() {
                    ui.separator();
                    ratings(ui, room);
                }
                ui.horizontal(|ui| {
                    if let Some(id) = &room.game_id {
                        if ui.button("Replay").clicked() {
                            out.push(Command::OpenGame(id.clone()));
                        }
                        if ui.button("Save export…").clicked() {
                            out.push(Command::ExportGame(id.clone()));
                        }
                    }
                    if room.is_player() && ui.button("Rematch").clicked() {
                        out.push(Command::Rematch);
                        out.push(Command::DismissResult);
                    }
                    if ui.button("Back to lobby").clicked() {
                        out.push(Command::Leave);
                    }
                    if ui.button("Close").clicked() {
                        out.push(Command::DismissResult);
                    }
                });
            });
        out
    }
}

/// The winner, how the game ended, and the match score.
fn outcome(ui: &mut Ui, room: &Room, result: &GameResult) {
    let who = match result.winner {
        None => "Draw".to_string(),
        Some(seat) if room.is_player() && room.seat == Some(seat) => "You win!".into(),
        Some(seat) => format!("{} wins", room.player_name(seat)),
    };
    ui.heading(who);
    ui.label(match result.reason {
        EndReason::Rules => "by the rules of the game",
        EndReason::BoardFull => "the board is full",
        EndReason::Resigned => "by resignation",
        EndReason::Dropped => "the double was dropped",
        EndReason::DrawAgreed => "draw agreed",
        EndReason::Timeout => "on time",
        EndReason::Abandoned => "the opponent left",
    });
    if let Some(score) = result.score {
        ui.label(format!(
            "Final score: White {} · Black {}",
            score[0], score[1]
        ));
    }
}

/// Each player's rating before and after the game.
fn ratings(ui: &mut Ui, room: &Room) {
    ui.label(RichText::new("Ratings").strong());
    egui::Grid::new("rating_changes")
        .num_columns(3)
        .spacing([12.0, 4.0])
        .show(ui, |ui| {
            for change in &room.ratings {
                ui.label(room.player_name(change.seat));
                ui.label(format!("{} to {}", change.before, change.after));
                let delta = change.after - change.before;
                let text = RichText::new(format!("{delta:+}"))
                    .strong()
                    .color(if delta >= 0 { GOOD } else { BAD });
                ui.horizontal(|ui| {
                    ui.label(text);
                    if change.provisional {
                        ui.label(RichText::new("provisional").italics())
                            .on_hover_text(
                                "Few rated games yet: the rating is still a rough guess",
                            );
                    }
                });
                ui.end_row();
            }
        });
}
