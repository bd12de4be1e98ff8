//! The game-over dialog: who won and how, the final score, the rating
//! changes, the client's own check of the dice (Backgammon), and what to do next (replay, save, rematch, back to the lobby).

use egui::{Align2, RichText, Ui};
use rust_i18n::t;
use tabula_shared::backgammon::GameResultKind;
use tabula_shared::game::LiveGame;
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
        // Esc closes it, as it closes other windows.
        if ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
            out.push(Command::DismissResult);
        }
        // In the lower right corner, over the side panel's chat (below the
        // board on a phone), where it hides none of the position (a winning
        // line can be anywhere on the board); never wider than the screen.
        let screen = ctx.content_rect();
        let corner = screen.right_bottom() + egui::vec2(-12.0, -12.0);
        egui::Window::new(t!("result.title"))
            .id(egui::Id::unique("game-over"))
            .collapsible(false)
            .resizable(false)
            .pivot(Align2::RIGHT_BOTTOM)
            .default_pos(corner)
            .max_width((screen.width() - 24.0).clamp(200.0, 420.0))
            .show(ctx, |ui| {
                outcome(ui, room, result);
                if let Some(GameRecord::Backgammon { actions, dice, .. }) = room.record() {
                    ui.separator();
                    dice_check(ui, &DiceCheck::of(actions, dice.as_ref()));
                }
                if !room.ratings.is_empty() {
                    ui.separator();
                    ratings(ui, room);
                }
                ui.horizontal_wrapped(|ui| {
                    if let Some(id) = &room.game_id {
                        if ui.button(t!("result.replay")).clicked() {
                            out.push(Command::OpenGame(id.clone()));
                        }
                        if ui
                            .button(t!("analysis.analyse"))
                            .on_hover_text(t!("analysis.analyse_hint"))
                            .clicked()
                        {
                            out.push(Command::AnalyseGame(id.clone()));
                        }
                        if ui.button(t!("result.save")).clicked() {
                            out.push(Command::ExportGame(id.clone()));
                        }
                    }
                    if room.is_player() && ui.button(t!("result.rematch")).clicked() {
                        out.push(Command::Rematch);
                        out.push(Command::DismissResult);
                    }
                    if ui.button(t!("result.back")).clicked() {
                        out.push(Command::Leave);
                    }
                    if ui.button(t!("result.close")).clicked() {
                        out.push(Command::DismissResult);
                    }
                });
            });
        out
    }
}

/// The winner, how the game ended, and the match score.
fn outcome(ui: &mut Ui, room: &Room, result: &GameResult) {
    ui.heading(winner_text(room, result));
    ui.label(reason_text(result, room.live()));
    if let Some(score) = result.score {
        ui.label(t!("result.score", white = score[0], black = score[1]));
    }
}

/// "You win!", "Ada wins" or "Draw".
pub(super) fn winner_text(room: &Room, result: &GameResult) -> String {
    match result.winner {
        None => t!("result.draw").into(),
        Some(seat) if room.is_player() && room.seat == Some(seat) => t!("result.you_win").into(),
        Some(seat) => t!("result.wins", name = room.player_name(seat)).into(),
    }
}

/// How the game ended, in the game's own words: "five in a row", "a
/// gammon (2 points)", "on time".
pub(super) fn reason_text(result: &GameResult, live: Option<&LiveGame>) -> String {
    match result.reason {
        EndReason::Rules => match live {
            Some(LiveGame::Gomoku(_)) if !result.line.is_empty() => t!("reason.five").into(),
            Some(LiveGame::Gomoku(_)) => t!("reason.forbidden").into(),
            Some(LiveGame::Backgammon(game)) => match game.last_result() {
                Some(last) => {
                    let kind = match last.kind {
                        GameResultKind::Single => t!("reason.single"),
                        GameResultKind::Gammon => t!("reason.gammon"),
                        GameResultKind::Backgammon => t!("reason.backgammon"),
                    };
                    if last.points == 1 {
                        t!("reason.borne_off_kind_one", kind = kind).into()
                    } else {
                        t!("reason.borne_off_kind", kind = kind, points = last.points).into()
                    }
                }
                None => t!("reason.borne_off").into(),
            },
            None => t!("reason.rules").into(),
        },
        EndReason::BoardFull => t!("reason.board_full").into(),
        EndReason::Resigned => t!("reason.resigned").into(),
        EndReason::Dropped => t!("reason.dropped").into(),
        EndReason::DrawAgreed => t!("reason.draw_agreed").into(),
        EndReason::Timeout => t!("reason.timeout").into(),
        EndReason::Abandoned => t!("reason.abandoned").into(),
    }
}

/// Each player's rating before and after the game.
fn ratings(ui: &mut Ui, room: &Room) {
    ui.label(RichText::new(t!("result.ratings")).strong());
    egui::Grid::new("rating_changes")
        .num_columns(3)
        .spacing([12.0, 4.0])
        .show(ui, |ui| {
            for change in &room.ratings {
                ui.label(room.player_name(change.seat));
                ui.label(t!(
                    "result.rating_change",
                    before = change.before,
                    after = change.after
                ));
                let delta = change.after - change.before;
                let text = RichText::new(format!("{delta:+}"))
                    .strong()
                    .color(if delta >= 0 { GOOD } else { BAD });
                ui.horizontal(|ui| {
                    ui.label(text);
                    if change.provisional {
                        ui.label(RichText::new(t!("result.provisional")).italics())
                            .on_hover_text(t!("result.provisional_hint"));
                    }
                });
                ui.end_row();
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_shared::gomoku::{Gomoku, Point};

    /// Issue 26 #5: every win by the rules read "by the rules of the game".
    #[test]
    fn the_reason_says_how_the_game_was_won() {
        let gomoku = LiveGame::Gomoku(Gomoku::new(Default::default()).expect("default config"));
        let five = GameResult {
            winner: None,
            reason: EndReason::Rules,
            line: (0..5).map(|x| Point::new(x, 0)).collect(),
            score: None,
        };
        assert_eq!(reason_text(&five, Some(&gomoku)), "five in a row");
        let timeout = GameResult {
            reason: EndReason::Timeout,
            ..five
        };
        assert_eq!(reason_text(&timeout, Some(&gomoku)), "on time");
    }
}
