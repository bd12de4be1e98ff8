//! The screens around the game: the account window, the history of our
//! finished games, the leaderboards and the replay viewer. Like the other
//! panels they only read state and return [`Command`]s.

use egui::{Color32, Key, RichText, Ui};
use tabula_shared::backgammon::{GamePhase, Side};
use tabula_shared::gomoku::Seat;
use tabula_shared::protocol::{
    EndReason, ErrorCode, GameKind, GameSummary, LeaderboardPeriod, LiveGame,
};

use super::{AccountNote, Command, HISTORY_PAGE, RATED, TabulaApp, level_name, rules_text};
use crate::bg_view::{self, BgView};
use crate::gomoku_view::{self, GomokuGeometry, GomokuView};
use crate::replay::{date_text, date_time_text};
use crate::room::side_name;

const GOOD: Color32 = Color32::from_rgb(80, 200, 80);
const BAD: Color32 = Color32::from_rgb(230, 80, 60);

/// A readable reason for a refused `register`.
pub(super) fn register_error(code: ErrorCode, message: &str) -> String {
    match code {
        ErrorCode::NameTaken => {
            "This name is already registered by someone else. Connect with another name to register it.".into()
        }
        ErrorCode::WeakPassword => "Weak password: a password has 8 to 128 characters.".into(),
        ErrorCode::AlreadyRegistered => "You are already registered.".into(),
        _ => format!("Registration failed: {message}"),
    }
}

fn game_name(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Gomoku => "Gomoku",
        GameKind::Backgammon => "Backgammon",
    }
}

fn reason_text(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Rules => "",
        EndReason::BoardFull => "board full",
        EndReason::Resigned => "resigned",
        EndReason::Dropped => "double dropped",
        EndReason::DrawAgreed => "agreed",
        EndReason::Timeout => "on time",
        EndReason::Abandoned => "abandoned",
    }
}

fn seat_name(summary: &GameSummary, seat: Seat) -> String {
    summary.player_name(seat).unwrap_or("?").to_string()
}

/// "Won", "Lost" or "Draw" from `me`'s side (or "Ada won" when `me` did
/// not play), with how it ended and the Backgammon score.
pub(super) fn result_text(summary: &GameSummary, me: &str) -> String {
    let my_seat = summary
        .seats
        .iter()
        .find(|s| s.player.as_ref().is_some_and(|p| p.id == me))
        .map(|s| s.seat);
    let result = &summary.result;
    let mut text = match (result.winner, my_seat) {
        (None, _) => "Draw".to_string(),
        (Some(w), Some(m)) if w == m => "Won".to_string(),
        (Some(_), Some(_)) => "Lost".to_string(),
        (Some(w), None) => format!("{} won", seat_name(summary, w)),
    };
    let reason = reason_text(result.reason);
    if !reason.is_empty() {
        text.push_str(&format!(" ({reason})"));
    }
    if let Some([w, b]) = result.score {
        text.push_str(&format!(" {w}–{b}"));
    }
    text
}

impl TabulaApp {
    pub(super) fn account_window(&mut self, ctx: &egui::Context) -> Vec<Command> {
        let mut out = Vec::new();
        let mut open = true;
        egui::Window::new("Account")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::RIGHT_TOP, [-12.0, 48.0])
            .show(ctx, |ui| {
                if self.registered {
                    ui.label(
                        RichText::new(format!("Signed in as {}", self.my_name))
                            .strong()
                            .color(GOOD),
                    );
                    ui.label("A registered account: your name is reserved, your rated games count on the leaderboard.");
                } else {
                    ui.label(RichText::new(format!("Playing as a guest: {}", self.my_name)).strong());
                    ui.label("Register this name to keep it, sign in from any computer and play rated games.");
                    ui.add_space(6.0);
                    egui::Grid::new("register")
                        .num_columns(2)
                        .spacing([10.0, 6.0])
                        .show(ui, |ui| {
                            let l = ui.label("New password");
                            ui.add(
                                egui::TextEdit::singleline(&mut self.register_password)
                                    .password(true)
                                    .hint_text("8 to 128 characters"),
                            )
                            .labelled_by(l.id);
                            ui.end_row();
                            let l = ui.label("Confirm password");
                            ui.add(
                                egui::TextEdit::singleline(&mut self.register_confirm)
                                    .password(true),
                            )
                            .labelled_by(l.id);
                            ui.end_row();
                        });
                    let pending = self.account_note == Some(AccountNote::Pending);
                    if ui
                        .add_enabled(
                            !pending && !self.register_password.is_empty(),
                            egui::Button::new("Register this name"),
                        )
                        .clicked()
                    {
                        out.push(Command::Register);
                    }
                }
                match &self.account_note {
                    None => {}
                    Some(AccountNote::Pending) => {
                        ui.horizontal(|ui| {
                            ui.spinner();
                            ui.label("Registering…");
                        });
                    }
                    Some(AccountNote::Done(text)) => {
                        ui.label(RichText::new(text).color(GOOD));
                    }
                    Some(AccountNote::Failed(text)) => {
                        ui.label(RichText::new(text).color(BAD));
                    }
                }
            });
        if !open {
            out.push(Command::ShowAccount(false));
        }
        out
    }

    pub(super) fn history_panel(&mut self, ui: &mut Ui) -> Vec<Command> {
        let mut out = Vec::new();
        ui.horizontal(|ui| {
            ui.heading("My games");
            if ui.button("Refresh").clicked() {
                out.push(Command::HistoryPage(self.history_offset));
            }
        });
        ui.label(
            RichText::new("Newest first; times in UTC.")
                .small()
                .color(Color32::GRAY),
        );
        ui.separator();
        let Some(page) = &self.history else {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Loading…");
            });
            return out;
        };
        if page.games.is_empty() {
            ui.label("No finished games yet. Play one, then come back to replay it.");
            return out;
        }
        let first = page.offset + 1;
        let last = page.offset + page.games.len() as u32;
        ui.horizontal(|ui| {
            if ui
                .add_enabled(page.offset > 0, egui::Button::new("Newer"))
                .clicked()
            {
                out.push(Command::HistoryPage(
                    page.offset.saturating_sub(HISTORY_PAGE),
                ));
            }
            ui.label(format!("Games {first}–{last} of {}", page.total));
            if ui
                .add_enabled(last < page.total, egui::Button::new("Older"))
                .clicked()
            {
                out.push(Command::HistoryPage(last));
            }
        });
        egui::ScrollArea::vertical().show(ui, |ui| {
            egui::Grid::new("history")
                .striped(true)
                .num_columns(6)
                .spacing([16.0, 6.0])
                .show(ui, |ui| {
                    for h in ["Date", "Game", "Opponent", "Result", "Rated", ""] {
                        ui.label(RichText::new(h).strong());
                    }
                    ui.end_row();
                    for g in &page.games {
                        ui.label(date_time_text(g.ended_at));
                        ui.label(game_name(g.options.game.kind()))
                            .on_hover_text(rules_text(&g.options.game));
                        let opponent = g
                            .seats
                            .iter()
                            .filter_map(|s| s.player.as_ref())
                            .find(|p| p.id != self.my_id)
                            .map_or_else(|| "?".to_string(), |p| p.name.clone());
                        ui.label(opponent);
                        let result = result_text(g, &self.my_id);
                        let colour = if result.starts_with("Won") {
                            GOOD
                        } else if result.starts_with("Lost") {
                            BAD
                        } else {
                            ui.visuals().text_color()
                        };
                        ui.label(RichText::new(result).color(colour));
                        if g.options.rated {
                            ui.label(RichText::new("Rated").strong().color(RATED));
                        } else {
                            ui.label("—");
                        }
                        if ui.button("Replay").clicked() {
                            out.push(Command::OpenGame(g.game_id.clone()));
                        }
                        ui.end_row();
                    }
                });
        });
        out
    }

    pub(super) fn leaderboard_panel(&mut self, ui: &mut Ui) -> Vec<Command> {
        let mut out = Vec::new();
        let (game, period) = self.leaderboard_choice;
        ui.heading("Ratings");
        ui.horizontal(|ui| {
            for kind in [GameKind::Gomoku, GameKind::Backgammon] {
                if ui.selectable_label(game == kind, game_name(kind)).clicked() {
                    out.push(Command::ShowLeaderboard(kind, period));
                }
            }
            ui.separator();
            for (p, label) in [
                (LeaderboardPeriod::AllTime, "All time"),
                (LeaderboardPeriod::Week, "Last 7 days"),
            ] {
                if ui.selectable_label(period == p, label).clicked() {
                    out.push(Command::ShowLeaderboard(game, p));
                }
            }
            ui.separator();
            if ui.button("Refresh").clicked() {
                out.push(Command::ShowLeaderboard(game, period));
            }
        });
        ui.separator();
        let Some(board) = self
            .leaderboard
            .as_ref()
            .filter(|b| b.game == game && b.period == period)
        else {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Loading…");
            });
            return out;
        };
        let week = period == LeaderboardPeriod::Week;
        if board.entries.is_empty() {
            ui.label(if week {
                "Nobody played a rated game in the last 7 days."
            } else {
                "No ratings yet: registered players get one from their first rated game."
            });
        } else {
            egui::ScrollArea::vertical()
                .max_height((ui.available_height() - 160.0).max(120.0))
                .show(ui, |ui| {
                    egui::Grid::new("leaderboard")
                        .striped(true)
                        .num_columns(5)
                        .spacing([24.0, 6.0])
                        .show(ui, |ui| {
                            let heads: &[&str] = if week {
                                &[
                                    "Rank",
                                    "Name",
                                    "Rating",
                                    "Games (7 days)",
                                    "Change (7 days)",
                                ]
                            } else {
                                &["Rank", "Name", "Rating", "Games", ""]
                            };
                            for h in heads {
                                ui.label(RichText::new(*h).strong());
                            }
                            ui.end_row();
                            for e in &board.entries {
                                ui.label(e.rank.to_string());
                                let name = RichText::new(&e.name);
                                ui.label(if e.player_id == self.my_id {
                                    name.strong().underline()
                                } else {
                                    name
                                });
                                if e.provisional {
                                    ui.label(RichText::new(format!("{}?", e.rating)).italics())
                                        .on_hover_text(format!(
                                            "Provisional (deviation {}): few rated games yet",
                                            e.deviation
                                        ));
                                } else {
                                    ui.label(e.rating.to_string())
                                        .on_hover_text(format!("Deviation {}", e.deviation));
                                }
                                ui.label(e.games.to_string());
                                match e.change {
                                    Some(c) => {
                                        ui.label(
                                            RichText::new(format!("{c:+}")).color(if c >= 0 {
                                                GOOD
                                            } else {
                                                BAD
                                            }),
                                        );
                                    }
                                    None => {
                                        ui.label("");
                                    }
                                }
                                ui.end_row();
                            }
                        });
                });
            ui.label(
                RichText::new(
                    "? = provisional: few rated games yet, the rating is still a rough guess.",
                )
                .small()
                .color(Color32::GRAY),
            );
        }
        ui.add_space(12.0);
        ui.label(RichText::new("The AI levels, for comparison").strong());
        egui::Grid::new("ai_ratings")
            .num_columns(2)
            .spacing([24.0, 4.0])
            .show(ui, |ui| {
                for a in &board.ai {
                    ui.label(format!("{} AI", level_name(a.level)));
                    ui.label(a.rating.to_string());
                    ui.end_row();
                }
            });
        out
    }

    pub(super) fn replay_panel(&mut self, ui: &mut Ui) -> Vec<Command> {
        let mut out = Vec::new();
        let Some(replay) = &self.replay else {
            return out;
        };
        let summary = &replay.game.summary;
        let [first, second] = replay.players();
        ui.heading(format!("{first} vs {second}"));
        ui.label(format!(
            "{} · {}",
            game_name(summary.options.game.kind()),
            rules_text(&summary.options.game)
        ));
        ui.horizontal(|ui| {
            ui.label(date_text(summary.started_at));
            if summary.options.rated {
                ui.label(RichText::new("Rated").strong().color(RATED));
            }
        });
        ui.label(RichText::new(result_text(summary, &self.my_id)).strong());
        if let Some(error) = &replay.error {
            ui.label(
                RichText::new(format!("The record stops replaying: {error}"))
                    .color(Color32::from_rgb(240, 140, 40)),
            );
        }
        ui.separator();

        let pos = replay.position();
        let len = replay.len();
        ui.label(
            RichText::new(format!("Move {pos} of {len}"))
                .strong()
                .size(16.0),
        );
        ui.horizontal(|ui| {
            for (label, target, enabled) in [
                ("First", 0, pos > 0),
                ("Back", pos.saturating_sub(1), pos > 0),
                ("Forward", (pos + 1).min(len), pos < len),
                ("Last", len, pos < len),
            ] {
                if ui.add_enabled(enabled, egui::Button::new(label)).clicked() {
                    out.push(Command::ReplayGo(target));
                }
            }
        });
        let mut slider = pos;
        if ui
            .add(egui::Slider::new(&mut slider, 0..=len).text("move"))
            .changed()
        {
            out.push(Command::ReplayGo(slider));
        }
        if ui.ctx().memory(|m| m.focused().is_none()) {
            ui.input(|i| {
                if i.key_pressed(Key::ArrowRight) {
                    out.push(Command::ReplayGo((pos + 1).min(len)));
                }
                if i.key_pressed(Key::ArrowLeft) {
                    out.push(Command::ReplayGo(pos.saturating_sub(1)));
                }
                if i.key_pressed(Key::Home) {
                    out.push(Command::ReplayGo(0));
                }
                if i.key_pressed(Key::End) {
                    out.push(Command::ReplayGo(len));
                }
            });
        }
        match replay.current() {
            LiveGame::Backgammon(game) => {
                ui.horizontal(|ui| {
                    ui.label(format!("Seen from {}", side_name(replay.viewer())));
                    if ui.button("Flip board").clicked() {
                        out.push(Command::ReplayFlip);
                    }
                });
                let score = game.score();
                let length = game.config().length;
                ui.label(if length == 0 {
                    format!("Money game — White {} · Black {}", score[0], score[1])
                } else {
                    format!(
                        "Game {} of a match to {length} — White {} · Black {}",
                        game.game_number(),
                        score[0],
                        score[1]
                    )
                });
                if game.config().cube {
                    let cube = game.cube();
                    let mut text = format!(
                        "Cube: {}{}",
                        cube.value,
                        cube.owner.map_or(" (centred)".into(), |s| format!(
                            ", owned by {}",
                            side_name(s)
                        ))
                    );
                    if let GamePhase::CubeOffered { by } = game.phase() {
                        text.push_str(&format!(" — {} doubles", side_name(*by)));
                    }
                    ui.label(text);
                }
                let (w, b) = game.position_for(Side::White).pip_count();
                ui.label(format!("Pips: White {w} · Black {b}"));
            }
            LiveGame::Gomoku(_) => {
                ui.horizontal(|ui| {
                    ui.label(if replay.viewer() == Side::Black {
                        "Board turned around"
                    } else {
                        "Board upright (a1 lower left)"
                    });
                    if ui.button("Flip board").clicked() {
                        out.push(Command::ReplayFlip);
                    }
                });
                ui.checkbox(&mut self.settings.show_numbers, "Move numbers");
            }
        }
        ui.separator();
        let scroll_to = (self.replay_scrolled != Some(pos)).then_some(pos);
        self.replay_scrolled = Some(pos);
        egui::ScrollArea::vertical()
            .max_height((ui.available_height() - 40.0).max(80.0))
            .auto_shrink([false, false])
            .show(ui, |ui| {
                let r = ui.selectable_label(pos == 0, "Start");
                if r.clicked() {
                    out.push(Command::ReplayGo(0));
                }
                if scroll_to == Some(0) {
                    r.scroll_to_me(None);
                }
                for (i, line) in replay.lines().iter().enumerate() {
                    let r = ui.selectable_label(pos == i + 1, line);
                    if r.clicked() {
                        out.push(Command::ReplayGo(i + 1));
                    }
                    if scroll_to == Some(i + 1) {
                        r.scroll_to_me(None);
                    }
                }
            });
        ui.separator();
        ui.horizontal(|ui| {
            if ui.button("Close").clicked() {
                out.push(Command::CloseReplay);
            }
            if ui.button("Save export…").clicked() {
                out.push(Command::ExportReplay);
            }
        });
        out
    }

    pub(super) fn export_window(&mut self, ctx: &egui::Context) -> Vec<Command> {
        let mut out = Vec::new();
        let Some(form) = &mut self.export else {
            return out;
        };
        let mut open = true;
        egui::Window::new("Save game")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                let summary = &form.game.summary;
                let meta = form.meta();
                ui.label(format!(
                    "{} · {} vs {} · {}",
                    game_name(summary.options.game.kind()),
                    meta.players[0],
                    meta.players[1],
                    meta.date.unwrap_or_default()
                ));
                let formats = form.formats();
                if formats.is_empty() {
                    ui.label(
                        "This game cannot be saved: no other program knows its \"doubles played twice\" rule.",
                    );
                    return;
                }
                ui.horizontal(|ui| {
                    ui.label("Format");
                    for f in formats {
                        if ui.radio(form.format == Some(*f), f.label()).clicked() {
                            out.push(Command::ExportFormat(*f));
                        }
                    }
                });
                ui.horizontal(|ui| {
                    let l = ui.label("File");
                    ui.add(egui::TextEdit::singleline(&mut form.path).desired_width(420.0))
                        .labelled_by(l.id);
                });
                if ui.button("Save").clicked() {
                    out.push(Command::SaveExport);
                }
                match &form.outcome {
                    Some(Ok(path)) => {
                        ui.label(RichText::new(format!("Saved to {path}")).color(GOOD));
                    }
                    Some(Err(e)) => {
                        ui.label(RichText::new(format!("Not saved: {e}")).color(BAD));
                    }
                    None => {}
                }
            });
        if !open {
            out.push(Command::CloseExport);
        }
        out
    }

    pub(super) fn replay_board(&mut self, ui: &mut Ui) -> Vec<Command> {
        let out = Vec::new();
        let Some(replay) = &self.replay else {
            return out;
        };
        match replay.current() {
            LiveGame::Gomoku(game) => {
                let at_end = replay.position() == replay.len();
                let line = match &replay.game.summary.result.line {
                    l if at_end && !l.is_empty() => l.clone(),
                    _ => match game.outcome() {
                        Some(tabula_shared::gomoku::Outcome::Win { line, .. }) => line.clone(),
                        _ => Vec::new(),
                    },
                };
                let flipped = replay.viewer() == Side::Black;
                let view = GomokuView {
                    clicker: None,
                    show_numbers: self.settings.show_numbers,
                    line,
                    forbidden: Vec::new(),
                    flipped,
                };
                let rect = ui.available_rect_before_wrap();
                self.gomoku_geometry =
                    Some(GomokuGeometry::fit(rect, game.size()).with_flip(flipped));
                gomoku_view::show(ui, game, &view);
            }
            LiveGame::Backgammon(game) => {
                let view = BgView {
                    viewer: Some(replay.viewer()),
                    dice: replay.dice(),
                    cube: game.config().cube.then_some(game.cube()),
                    ..BgView::default()
                };
                let rect = ui.available_rect_before_wrap();
                self.bg_geometry = Some(bg_view::BgGeometry::fit(rect));
                bg_view::show(ui, &game.board(), &view);
            }
        }
        out
    }
}
