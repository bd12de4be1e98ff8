//! [`LeaderboardScreen`]: the ratings of registered players for one game,
//! all time or over the last 7 days, and the AI levels' ratings beside them.

use egui::{Color32, RichText, Ui};
use rust_i18n::t;
use tabula_shared::protocol::{AiRating, GameKind, LeaderboardEntry, LeaderboardPeriod};

use super::Command;
use super::labels::{BAD, GOOD, game_name, level_name};

/// The leaderboard on screen.
#[derive(Debug, Clone, PartialEq)]
pub struct Leaderboard {
    /// Which game.
    pub game: GameKind,
    /// All time or the last 7 days.
    pub period: LeaderboardPeriod,
    /// Best first.
    pub entries: Vec<LeaderboardEntry>,
    /// The AI levels' published ratings.
    pub ai: Vec<AiRating>,
}

/// The leaderboard screen's state.
pub(super) struct LeaderboardScreen {
    /// The game and period asked for last.
    pub(super) choice: (GameKind, LeaderboardPeriod),
    /// The leaderboard last received.
    pub(super) board: Option<Leaderboard>,
}

impl Default for LeaderboardScreen {
    fn default() -> LeaderboardScreen {
        LeaderboardScreen {
            choice: (GameKind::Gomoku, LeaderboardPeriod::AllTime),
            board: None,
        }
    }
}

impl LeaderboardScreen {
    /// Draws the screen; `me` is our player id, underlined in the table.
    pub(super) fn ui(&self, ui: &mut Ui, me: &str) -> Vec<Command> {
        let (game, period) = self.choice;
        ui.heading(t!("ui.ratings"));
        let out = choice_bar(ui, game, period);
        ui.separator();
        let Some(board) = self
            .board
            .as_ref()
            .filter(|b| b.game == game && b.period == period)
        else {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(t!("ui.loading"));
            });
            return out;
        };
        let week = period == LeaderboardPeriod::Week;
        if board.entries.is_empty() {
            ui.label(if week {
                t!("board.nobody_this_week")
            } else {
                t!("board.no_ratings_yet")
            });
        } else {
            egui::ScrollArea::vertical()
                .max_height((ui.available_height() - 160.0).max(120.0))
                .show(ui, |ui| table(ui, &board.entries, week, me));
            ui.label(
                RichText::new(t!("board.provisional_note"))
                    .small()
                    .color(Color32::GRAY),
            );
        }
        ui.add_space(12.0);
        ui.label(RichText::new(t!("board.ai_levels")).strong());
        egui::Grid::new("ai_ratings")
            .num_columns(2)
            .spacing([24.0, 4.0])
            .show(ui, |ui| {
                for a in &board.ai {
                    ui.label(t!("board.ai_level", level = level_name(a.level)));
                    ui.label(a.rating.to_string());
                    ui.end_row();
                }
            });
        out
    }
}

/// The game and period tabs, and "Refresh".
fn choice_bar(ui: &mut Ui, game: GameKind, period: LeaderboardPeriod) -> Vec<Command> {
    let mut out = Vec::new();
    ui.horizontal(|ui| {
        for kind in [GameKind::Gomoku, GameKind::Backgammon] {
            if ui.selectable_label(game == kind, game_name(kind)).clicked() {
                out.push(Command::ShowLeaderboard(kind, period));
            }
        }
        ui.separator();
        for (p, label) in [
            (LeaderboardPeriod::AllTime, t!("board.all_time")),
            (LeaderboardPeriod::Week, t!("board.week")),
        ] {
            if ui.selectable_label(period == p, label).clicked() {
                out.push(Command::ShowLeaderboard(game, p));
            }
        }
        ui.separator();
        if ui.button(t!("ui.refresh")).clicked() {
            out.push(Command::ShowLeaderboard(game, period));
        }
    });
    out
}

/// The players' table.
fn table(ui: &mut Ui, entries: &[LeaderboardEntry], week: bool, me: &str) {
    egui::Grid::new("leaderboard")
        .striped(true)
        .num_columns(5)
        .spacing([24.0, 6.0])
        .show(ui, |ui| {
            let heads: &[&str] = if week {
                &[
                    "board.rank",
                    "board.name",
                    "board.rating",
                    "board.games_week",
                    "board.change_week",
                ]
            } else {
                &[
                    "board.rank",
                    "board.name",
                    "board.rating",
                    "board.games",
                    "",
                ]
            };
            for h in heads {
                let text = if h.is_empty() { "".into() } else { t!(*h) };
                ui.label(RichText::new(text).strong());
            }
            ui.end_row();
            for e in entries {
                ui.label(e.rank.to_string());
                let name = RichText::new(&e.name);
                ui.label(if e.player_id == me {
                    name.strong().underline()
                } else {
                    name
                });
                if e.provisional {
                    ui.label(RichText::new(format!("{}?", e.rating)).italics())
                        .on_hover_text(t!("board.provisional", deviation = e.deviation));
                } else {
                    ui.label(e.rating.to_string())
                        .on_hover_text(t!("board.deviation", deviation = e.deviation));
                }
                ui.label(e.games.to_string());
                match e.change {
                    Some(c) => {
                        ui.label(RichText::new(format!("{c:+}")).color(if c >= 0 {
                            GOOD
                        } else {
                            BAD
                        }));
                    }
                    None => {
                        ui.label("");
                    }
                }
                ui.end_row();
            }
        });
}
