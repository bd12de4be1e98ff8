//! [`ReplayScreen`]: a finished game in the replay viewer: the panel with
//! the players, the result, the move list (with the analysis's marks) and
//! the controls to step through it, and the board at the chosen position.
//! The analysis itself is drawn by `analysis_panel` and `analysis_graph`.

use egui::{Key, RichText, Ui};
use rust_i18n::t;
use tabula_shared::backgammon::{BgMatch, GamePhase, Side};
use tabula_shared::game::LiveGame;
use tabula_shared::gomoku::Outcome;
use tabula_shared::protocol::{FinishedGame, GameAnalysis};

use super::history_screen::result_text;
use super::labels::{RATED, WARN, dice_check, game_name, rules_text};
use super::{Command, Screen};
use crate::analysis::{AnalysisState, move_mark};
use crate::bg_view::{self, BgGeometry, BgView};
use crate::gomoku_view::{self, GomokuGeometry, GomokuView};
use crate::replay::{Replay, date_text};
use crate::room::side_name;
use crate::settings::{BgStyle, GomokuStyle};

/// The replay viewer's state.
pub(super) struct ReplayScreen {
    /// The game open in the viewer.
    pub(super) replay: Option<Replay>,
    /// Where "Close" goes back to.
    pub(super) return_to: Screen,
    /// The position the move list last scrolled to.
    scrolled: Option<usize>,
    /// The Gomoku board's colours (the setting).
    pub(super) gomoku_style: GomokuStyle,
    /// The Backgammon board's colours (the setting).
    pub(super) bg_style: BgStyle,
    /// The analysis of the open game: asked for, running, refused or there.
    pub(super) analysis: AnalysisState,
    /// Where the evaluation graph was drawn in the last frame.
    pub(super) graph: Option<egui_plot::PlotTransform>,
}

impl Default for ReplayScreen {
    fn default() -> ReplayScreen {
        ReplayScreen {
            replay: None,
            return_to: Screen::Lobby,
            scrolled: None,
            gomoku_style: GomokuStyle::default(),
            bg_style: BgStyle::default(),
            analysis: AnalysisState::default(),
            graph: None,
        }
    }
}

impl ReplayScreen {
    /// Opens a game, seen from `me`'s side when `me` played it, with its
    /// analysis when the server had one; `from` is the screen to go back
    /// to.
    pub(super) fn open(
        &mut self,
        game: FinishedGame,
        analysis: Option<Box<GameAnalysis>>,
        me: &str,
        from: Screen,
    ) {
        if from != Screen::Replay {
            self.return_to = from;
        }
        self.replay = Some(Replay::new(game, Some(me)));
        self.scrolled = None;
        self.analysis = analysis.map_or(AnalysisState::NotAsked, AnalysisState::Done);
    }

    /// The id of the game open in the viewer.
    pub(super) fn game_id(&self) -> Option<&str> {
        self.replay
            .as_ref()
            .map(|r| r.game.summary.game_id.as_str())
    }

    /// Draws the side panel; `me` is our player id.
    pub(super) fn panel(&mut self, ui: &mut Ui, show_numbers: &mut bool, me: &str) -> Vec<Command> {
        let mut out = Vec::new();
        let Some(replay) = &self.replay else {
            return out;
        };
        header(ui, replay, me);
        ui.separator();
        out.extend(navigation(ui, replay));
        if ui.button(t!("study.open_on_board")).clicked() {
            out.push(Command::OpenOnBoard);
        }
        match replay.current() {
            LiveGame::Backgammon(game) => out.extend(bg_info(ui, replay, game)),
            LiveGame::Gomoku(_) => {
                ui.horizontal(|ui| {
                    ui.label(if replay.gomoku_turned() {
                        t!("replay.turned")
                    } else {
                        t!("replay.upright")
                    });
                    if ui.button(t!("ui.flip_board")).clicked() {
                        out.push(Command::ReplayFlip);
                    }
                });
                ui.checkbox(show_numbers, t!("ui.move_numbers"));
            }
        }
        ui.separator();
        out.extend(super::analysis_panel::analysis_panel(
            ui,
            replay,
            &self.analysis,
        ));
        ui.separator();
        let pos = replay.position();
        let scroll_to = (self.scrolled != Some(pos)).then_some(pos);
        self.scrolled = Some(pos);
        out.extend(move_list(ui, replay, self.analysis.analysis(), scroll_to));
        ui.separator();
        ui.horizontal(|ui| {
            if ui.button(t!("ui.close")).clicked() {
                out.push(Command::CloseReplay);
            }
            if ui.button(t!("ui.save_export")).clicked() {
                out.push(Command::ExportReplay);
            }
        });
        out
    }

    /// Draws the board at the current position; the geometries are kept for
    /// tests and tools.
    pub(super) fn board(
        &self,
        ui: &mut Ui,
        show_numbers: bool,
        gomoku_geometry: &mut Option<GomokuGeometry>,
        bg_geometry: &mut Option<BgGeometry>,
    ) {
        let Some(replay) = &self.replay else { return };
        match replay.current() {
            LiveGame::Gomoku(game) => {
                let at_end = replay.position() == replay.len();
                let line = match &replay.game.summary.result.line {
                    l if at_end && !l.is_empty() => l.clone(),
                    _ => match game.outcome() {
                        Some(Outcome::Win { line, .. }) => line.clone(),
                        _ => Vec::new(),
                    },
                };
                let flipped = replay.gomoku_turned();
                let view = GomokuView {
                    clicker: None,
                    show_numbers,
                    line,
                    forbidden: Vec::new(),
                    flipped,
                    style: self.gomoku_style,
                };
                let rect = ui.available_rect_before_wrap();
                let geometry = GomokuGeometry::fit(rect, game.size()).with_flip(flipped);
                *gomoku_geometry = Some(geometry);
                gomoku_view::show(ui, game, &view);
                if let Some(review) = self
                    .analysis
                    .analysis()
                    .and_then(|a| crate::analysis::gomoku_review(a, replay.position()))
                {
                    super::board_marks::review_marks(ui, &geometry, review);
                }
            }
            LiveGame::Backgammon(game) => {
                let view = BgView {
                    viewer: Some(replay.viewer()),
                    dice: replay.dice(),
                    cube: (game.config().cube && game.config().length != 1).then_some(game.cube()),
                    style: self.bg_style,
                    ..BgView::default()
                };
                let rect = ui.available_rect_before_wrap();
                *bg_geometry = Some(BgGeometry::fit(rect));
                bg_view::show(ui, &game.board(), &view);
            }
        }
    }
}

/// The players, the game, the date and the result.
fn header(ui: &mut Ui, replay: &Replay, me: &str) {
    let summary = &replay.game.summary;
    let [first, second] = replay.players();
    ui.heading(t!("replay.players", first = first, second = second));
    ui.label(format!(
        "{} · {}",
        game_name(summary.options.game.kind()),
        rules_text(&summary.options.game)
    ));
    ui.horizontal(|ui| {
        ui.label(date_text(summary.started_at));
        if summary.options.rated {
            ui.label(RichText::new(t!("history.rated")).strong().color(RATED));
        }
    });
    ui.label(RichText::new(result_text(summary, me)).strong());
    if let Some(check) = &replay.dice {
        dice_check(ui, check);
    }
    if let Some(error) = &replay.error {
        ui.label(RichText::new(t!("replay.stops", error = error)).color(WARN));
    }
}

/// "Move n of m", the step buttons, the slider and the arrow keys.
fn navigation(ui: &mut Ui, replay: &Replay) -> Vec<Command> {
    let mut out = Vec::new();
    let pos = replay.position();
    let len = replay.len();
    ui.label(
        RichText::new(t!("replay.move_of", pos = pos, len = len))
            .strong()
            .size(16.0),
    );
    ui.horizontal(|ui| {
        for (label, target, enabled) in [
            (t!("replay.first"), 0, pos > 0),
            (t!("replay.back"), pos.saturating_sub(1), pos > 0),
            (t!("replay.forward"), (pos + 1).min(len), pos < len),
            (t!("replay.last"), len, pos < len),
        ] {
            if ui.add_enabled(enabled, egui::Button::new(label)).clicked() {
                out.push(Command::ReplayGo(target));
            }
        }
    });
    let mut slider = pos;
    if ui
        .add(egui::Slider::new(&mut slider, 0..=len).text(t!("replay.move")))
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
    out
}

/// The side seen from, the match score, the cube and the pips.
fn bg_info(ui: &mut Ui, replay: &Replay, game: &BgMatch) -> Vec<Command> {
    let mut out = Vec::new();
    ui.horizontal(|ui| {
        ui.label(t!("replay.seen_from", side = side_name(replay.viewer())));
        if ui.button(t!("ui.flip_board")).clicked() {
            out.push(Command::ReplayFlip);
        }
    });
    let score = game.score();
    let length = game.config().length;
    ui.label(if length == 0 {
        t!("replay.money_score", white = score[0], black = score[1])
    } else {
        t!(
            "replay.match_score",
            n = game.game_number(),
            length = length,
            white = score[0],
            black = score[1]
        )
    });
    if game.config().cube {
        let cube = game.cube();
        let mut text = match cube.owner {
            None => t!("replay.cube_centred", value = cube.value),
            Some(s) => t!("replay.cube_owned", value = cube.value, side = side_name(s)),
        }
        .into_owned();
        if let GamePhase::CubeOffered { by } = game.phase() {
            text.push_str(&t!("replay.doubles", side = side_name(*by)));
        }
        ui.label(text);
    }
    let (w, b) = game.position_for(Side::White).pip_count();
    ui.label(t!("replay.pips", white = w, black = b));
    out
}

/// The moves, one line each, with the analysis's mark after a marked one
/// (its note on hover, and under the line when it is the current move);
/// the current one is selected and scrolled to when it changed.
fn move_list(
    ui: &mut Ui,
    replay: &Replay,
    analysis: Option<&GameAnalysis>,
    scroll_to: Option<usize>,
) -> Vec<Command> {
    let mut out = Vec::new();
    let pos = replay.position();
    egui::ScrollArea::vertical()
        .max_height((ui.available_height() - 40.0).max(80.0))
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let r = ui.selectable_label(pos == 0, t!("ui.start"));
            if r.clicked() {
                out.push(Command::ReplayGo(0));
            }
            if scroll_to == Some(0) {
                r.scroll_to_me(None);
            }
            for (i, line) in replay.lines().iter().enumerate() {
                let mark = analysis.and_then(|a| move_mark(a, i));
                let r = ui
                    .horizontal(|ui| {
                        let r = ui.selectable_label(pos == i + 1, line);
                        if let Some(mark) = &mark {
                            let symbol = RichText::new(mark.severity.symbol())
                                .strong()
                                .color(super::analysis_panel::severity_colour(mark.severity));
                            ui.label(symbol).on_hover_text(&mark.note);
                        }
                        r
                    })
                    .inner;
                if r.clicked() {
                    out.push(Command::ReplayGo(i + 1));
                }
                if let Some(mark) = mark.filter(|_| pos == i + 1) {
                    ui.label(RichText::new(mark.note).small().italics());
                }
                if scroll_to == Some(i + 1) {
                    r.scroll_to_me(None);
                }
            }
        });
    out
}
