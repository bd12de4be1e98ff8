//! [`HistoryScreen`]: our finished games, a page at a time, each with a
//! button that opens it in the replay viewer.

use egui::{Color32, RichText, Ui};
use rust_i18n::t;
use tabula_shared::protocol::{EndReason, GameSummary};
use tabula_shared::seat::Seat;

use super::Command;
use super::labels::{BAD, GOOD, RATED, game_name, rules_text};
use crate::replay::date_time_text;

/// How many games a page of the history holds.
pub const HISTORY_PAGE: u32 = 20;

/// The page of our history on screen.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryPage {
    /// How many newer games come before this page.
    pub offset: u32,
    /// How many games we have in all.
    pub total: u32,
    /// This page, newest first.
    pub games: Vec<GameSummary>,
}

/// The history screen's state.
#[derive(Default)]
pub(super) struct HistoryScreen {
    /// The page last received.
    pub(super) page: Option<HistoryPage>,
    /// The offset of the page asked for last.
    pub(super) offset: u32,
}

impl HistoryScreen {
    /// Draws the screen; `me` is our player id.
    pub(super) fn ui(&self, ui: &mut Ui, me: &str) -> Vec<Command> {
        let mut out = Vec::new();
        ui.horizontal(|ui| {
            ui.heading(t!("ui.my_games"));
            if ui.button(t!("ui.refresh")).clicked() {
                out.push(Command::HistoryPage(self.offset));
            }
        });
        ui.label(
            RichText::new(t!("history.newest_first"))
                .small()
                .color(Color32::GRAY),
        );
        ui.separator();
        let Some(page) = &self.page else {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(t!("ui.loading"));
            });
            return out;
        };
        if page.games.is_empty() {
            ui.label(t!("ui.no_finished_games_yet_play_one_then_come"));
            return out;
        }
        out.extend(pager(ui, page));
        egui::ScrollArea::vertical().show(ui, |ui| {
            egui::Grid::new("history")
                .striped(true)
                .num_columns(6)
                .spacing([16.0, 6.0])
                .show(ui, |ui| {
                    for h in [
                        "history.date",
                        "lobby.game",
                        "history.opponent",
                        "history.result",
                        "lobby.rated",
                        "",
                    ] {
                        let text = if h.is_empty() { "".into() } else { t!(h) };
                        ui.label(RichText::new(text).strong());
                    }
                    ui.end_row();
                    for g in &page.games {
                        out.extend(game_row(ui, g, me));
                        ui.end_row();
                    }
                });
        });
        out
    }
}

/// "Newer", "Games 1–20 of 45", "Older".
fn pager(ui: &mut Ui, page: &HistoryPage) -> Vec<Command> {
    let mut out = Vec::new();
    let first = page.offset + 1;
    let last = page.offset + page.games.len() as u32;
    ui.horizontal(|ui| {
        if ui
            .add_enabled(page.offset > 0, egui::Button::new(t!("ui.newer")))
            .clicked()
        {
            out.push(Command::HistoryPage(
                page.offset.saturating_sub(HISTORY_PAGE),
            ));
        }
        ui.label(t!(
            "history.page",
            first = first,
            last = last,
            total = page.total
        ));
        if ui
            .add_enabled(last < page.total, egui::Button::new(t!("ui.older")))
            .clicked()
        {
            out.push(Command::HistoryPage(last));
        }
    });
    out
}

/// One game's row.
fn game_row(ui: &mut Ui, g: &GameSummary, me: &str) -> Vec<Command> {
    let mut out = Vec::new();
    ui.label(date_time_text(g.ended_at));
    ui.label(game_name(g.options.game.kind()))
        .on_hover_text(rules_text(&g.options.game));
    let opponent = g
        .seats
        .iter()
        .filter_map(|s| s.player.as_ref())
        .find(|p| p.id != me)
        .map_or_else(|| "?".to_string(), crate::room::display_name);
    ui.label(opponent);
    let result = result_text(g, me);
    let colour = match my_outcome(g, me) {
        Some(true) => GOOD,
        Some(false) => BAD,
        None => ui.visuals().text_color(),
    };
    ui.label(RichText::new(result).color(colour));
    if g.options.rated {
        ui.label(RichText::new(t!("history.rated")).strong().color(RATED));
    } else {
        ui.label("—");
    }
    let replay = ui.button(t!("ui.replay"));
    crate::probe::mark(&format!("replay-{}", g.game_id), replay.rect);
    if replay.clicked() {
        out.push(Command::OpenGame(g.game_id.clone()));
    }
    out
}

fn reason_text(reason: EndReason) -> String {
    match reason {
        EndReason::Rules => return String::new(),
        EndReason::BoardFull => t!("history.board_full"),
        EndReason::Resigned => t!("history.resigned"),
        EndReason::Dropped => t!("history.dropped"),
        EndReason::DrawAgreed => t!("history.agreed"),
        EndReason::Timeout => t!("history.on_time"),
        EndReason::Abandoned => t!("history.abandoned"),
    }
    .into_owned()
}

/// Whether `me` won (`Some(true)`) or lost (`Some(false)`) the game; `None`
/// for a draw or a game `me` did not play.
fn my_outcome(summary: &GameSummary, me: &str) -> Option<bool> {
    let mine = summary
        .seats
        .iter()
        .find(|s| s.player.as_ref().is_some_and(|p| p.id == me))?
        .seat;
    summary.result.winner.map(|w| w == mine)
}

fn seat_name(summary: &GameSummary, seat: Seat) -> String {
    summary
        .seats
        .iter()
        .find(|s| s.seat == seat)
        .and_then(|s| s.player.as_ref())
        .map_or_else(|| "?".to_string(), crate::room::display_name)
}

/// "Won", "Lost" or "Draw" from `me`'s side (or "Ada won" when `me` did
/// not play), with how it ended and the Backgammon score: ours first when we
/// played ("Lost 0–4"), else White's.
pub(super) fn result_text(summary: &GameSummary, me: &str) -> String {
    let my_seat = summary
        .seats
        .iter()
        .find(|s| s.player.as_ref().is_some_and(|p| p.id == me))
        .map(|s| s.seat);
    let result = &summary.result;
    let mut text = match (result.winner, my_seat) {
        (None, _) => t!("history.draw").into_owned(),
        (Some(w), Some(m)) if w == m => t!("history.won").into_owned(),
        (Some(_), Some(_)) => t!("history.lost").into_owned(),
        (Some(w), None) => t!("history.someone_won", name = seat_name(summary, w)).into_owned(),
    };
    let reason = reason_text(result.reason);
    if !reason.is_empty() {
        text.push_str(&t!("history.how", reason = reason));
    }
    if let Some(score) = result.score {
        let mine = my_seat.map_or(0, |m| tabula_shared::seat::side_of(m).index());
        text.push_str(&format!(" {}–{}", score[mine], score[1 - mine]));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_shared::backgammon::MatchConfig;
    use tabula_shared::protocol::{
        ColourChoice, GameOptions, GameResult, Opponent, PlayerInfo, RoomOptions, SeatInfo,
    };

    fn summary(winner: Seat, score: [u32; 2]) -> GameSummary {
        let seat = |seat, id: &str| SeatInfo {
            seat,
            player: Some(PlayerInfo {
                id: id.into(),
                name: id.to_uppercase(),
                ai: None,
                bot: false,
            }),
            connected: true,
            grace_ms: None,
        };
        GameSummary {
            game_id: "g".into(),
            options: RoomOptions {
                game: GameOptions::Backgammon(MatchConfig::default()),
                opponent: Opponent::Human,
                colour: ColourChoice::Black,
                time_control: None,
                private: false,
                takebacks: true,
                rated: false,
                hints: false,
            },
            seats: vec![seat(Seat::First, "w"), seat(Seat::Second, "b")],
            result: GameResult {
                winner: Some(winner),
                reason: EndReason::Rules,
                line: vec![],
                score: Some(score),
            },
            actions: 0,
            started_at: 0,
            ended_at: 0,
        }
    }

    /// Issue 26 #7: a match Black lost 0–4 read "Lost 4–0".
    #[test]
    fn the_score_puts_our_points_first() {
        let s = summary(Seat::First, [4, 0]);
        assert_eq!(result_text(&s, "b"), "Lost 0–4");
        assert_eq!(result_text(&s, "w"), "Won 4–0");
        assert_eq!(result_text(&s, "someone"), "W won 4–0");
    }
}
