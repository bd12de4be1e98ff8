//! [`StudyScreen`]: the analysis board. A position pasted (gnubg IDs, an
//! XGID, a Gomoku move list, PSQ, SGF or a board link), set up by hand
//! ([`SetupEditor`]) or a new board,
//! played on from there, with the server engine's answer for the position
//! shown; the positions so far form a line to step through and branch
//! from.

use egui::{RichText, Ui};
use rust_i18n::t;
use tabula_shared::backgammon::{BgMatch, Cube, Dice, GamePhase, Play, Side};
use tabula_shared::gomoku::{Gomoku, GomokuConfig, Opening, Point, Rule, Stone};
use tabula_shared::protocol::{
    BgStudyAnswer, ClientMessage, CubeAction, GomokuStudyAnswer, MAX_STUDY_DEPTH, StudyAnswer,
    StudyIds,
};
use tabula_shared::study::{BgSetup, GomokuSetup, StudyPosition};

use super::requests::Requests;
use super::rollout_panel::RolloutPanel;
use super::setup_editor::SetupEditor;
use super::{Command, Screen};
use crate::bg_view::{self, BgGeometry, BgView};
use crate::error_text::setup_error_text;
use crate::gomoku_view::{self, GomokuGeometry, GomokuView};
use crate::settings::{BgStyle, GomokuStyle};

/// The analysis board's state.
pub(super) struct StudyScreen {
    /// The text in the paste box.
    pub(super) text: String,
    /// The size and rule a pasted move list is read with.
    pub(super) gomoku: GomokuConfig,
    /// Backgammon plies.
    pub(super) depth: u8,
    /// The positions so far, first to last.
    line: Vec<StudyPosition>,
    /// Which of them is shown.
    at: usize,
    /// The request in work, and for which position at which depth.
    asking: Option<(u64, StudyPosition, u8)>,
    /// The last position asked about (answered or refused).
    asked: Option<(StudyPosition, u8)>,
    /// The answer for `asked`, when it came.
    answer: Option<(StudyIds, StudyAnswer)>,
    /// Why the paste or the last request was refused.
    pub(super) error: Option<String>,
    /// The screen the board was opened from ("Back" goes there).
    pub(super) return_to: Option<Screen>,
    /// The dice to set on a Backgammon board not yet rolled.
    dice: [u8; 2],
    /// The Backgammon rollout.
    pub(super) rollout: RolloutPanel,
    /// The boards' colours (the settings).
    pub(super) gomoku_style: GomokuStyle,
    /// The boards' colours (the settings).
    pub(super) bg_style: BgStyle,
    /// The position being set up by hand, while it is.
    pub(super) editor: Option<SetupEditor>,
}

impl Default for StudyScreen {
    fn default() -> StudyScreen {
        StudyScreen {
            text: String::new(),
            gomoku: GomokuConfig::default(),
            depth: 1,
            line: vec![StudyPosition::Backgammon(BgSetup::start())],
            at: 0,
            asking: None,
            asked: None,
            answer: None,
            error: None,
            dice: [3, 1],
            return_to: None,
            rollout: RolloutPanel::default(),
            gomoku_style: GomokuStyle::default(),
            bg_style: BgStyle::default(),
            editor: None,
        }
    }
}

impl StudyScreen {
    /// The position shown.
    pub(super) fn current(&self) -> &StudyPosition {
        &self.line[self.at.min(self.line.len() - 1)]
    }

    /// The answer for the position shown, when it has come.
    pub(super) fn answer(&self) -> Option<&StudyAnswer> {
        match (&self.asked, &self.answer) {
            (Some((p, _)), Some((_, a))) if p == self.current() => Some(a),
            _ => None,
        }
    }

    /// Opens `line` (from a paste or a link) at its last position.
    pub(super) fn open_line(&mut self, line: Vec<StudyPosition>) {
        if line.is_empty() {
            return;
        }
        self.at = line.len() - 1;
        self.line = line;
        self.error = None;
    }

    /// Shows the `at`-th position of the line.
    pub(super) fn go_to(&mut self, at: usize) {
        self.at = at.min(self.line.len() - 1);
    }

    /// Reads the paste box.
    fn open_text(&mut self) {
        match StudyPosition::parse(&self.text, self.gomoku) {
            Ok(line) => self.open_line(line),
            Err(e) => self.error = Some(setup_error_text(&e)),
        }
    }

    /// Goes on from the position shown to `next`, dropping the positions
    /// after it (a new branch).
    fn push(&mut self, next: StudyPosition) {
        self.line.truncate(self.at + 1);
        self.line.push(next);
        self.at = self.line.len() - 1;
    }

    /// Asks the server about the position shown, unless it has been asked
    /// (or a request is in work: the next waits for its answer).
    pub(super) fn ask_if_needed(&mut self, requests: &mut Requests) {
        self.rollout.send_wanted(requests);
        let want = (self.current().clone(), self.depth);
        if self.asking.is_some() || self.asked.as_ref() == Some(&want) {
            return;
        }
        let id = requests.send(ClientMessage::Study {
            text: None,
            position: Some(want.0.clone()),
            gomoku: None,
            depth: Some(want.1),
        });
        self.asking = Some((id, want.0, want.1));
    }

    /// The server's answer.
    pub(super) fn answered(&mut self, ids: StudyIds, answer: StudyAnswer) {
        if let Some((_, position, depth)) = self.asking.take() {
            self.asked = Some((position, depth));
            self.answer = Some((ids, answer));
            self.error = None;
        }
    }

    /// A refusal of our request: `true` when it was ours.
    pub(super) fn refused(&mut self, request_id: Option<u64>, text: String) -> bool {
        match &self.asking {
            Some((id, ..)) if request_id == Some(*id) => {
                let (_, position, depth) = self.asking.take().expect("asking");
                self.asked = Some((position, depth));
                self.answer = None;
                self.error = Some(text);
                true
            }
            _ => false,
        }
    }

    /// The side panel: paste, new boards, the line, the answer; "Back"
    /// when the board was opened from another screen.
    pub(super) fn panel(&mut self, ui: &mut Ui) -> Vec<Command> {
        let mut out = Vec::new();
        ui.horizontal(|ui| {
            ui.heading(t!("study.title"));
            if let Some(screen) = self.return_to
                && ui.button(t!("study.back")).clicked()
            {
                self.return_to = None;
                out.push(Command::ShowScreen(screen));
            }
        });
        let label = ui.label(t!("study.paste"));
        ui.add(
            egui::TextEdit::multiline(&mut self.text)
                .desired_rows(2)
                .desired_width(f32::INFINITY)
                .id_salt("study-text"),
        )
        .labelled_by(label.id);
        ui.horizontal_wrapped(|ui| {
            if ui.button(t!("study.open")).clicked() {
                self.open_text();
            }
            if ui.button(t!("study.new_backgammon")).clicked() {
                self.open_line(vec![StudyPosition::Backgammon(BgSetup::start())]);
            }
            if ui.button(t!("study.new_gomoku")).clicked() {
                let g = self.gomoku;
                self.open_line(vec![StudyPosition::Gomoku(GomokuSetup::empty(
                    g.size, g.rule,
                ))]);
            }
            if self.editor.is_none() {
                let set_up = ui.button(t!("study.set_up"));
                crate::probe::mark("study-set-up", set_up.rect);
                if set_up.clicked() {
                    self.editor = Some(SetupEditor::new(self.current().clone()));
                }
            }
        });
        ui.horizontal(|ui| {
            ui.label(t!("study.gomoku_rule"));
            for (rule, label) in [
                (Rule::Freestyle, t!("rules.freestyle")),
                (Rule::Standard, t!("rules.standard")),
                (Rule::Renju, t!("rules.renju")),
            ] {
                ui.selectable_value(&mut self.gomoku.rule, rule, label);
            }
            ui.add(egui::DragValue::new(&mut self.gomoku.size).range(9..=25));
        });
        if let Some(error) = &self.error {
            ui.label(RichText::new(error).color(super::labels::WARN));
        }
        ui.separator();
        if let Some(editor) = &mut self.editor {
            match editor.panel(ui) {
                Some(Ok(position)) => {
                    self.editor = None;
                    self.open_line(vec![position]);
                }
                Some(Err(())) => self.editor = None,
                None => {}
            }
            return out;
        }
        ui.horizontal(|ui| {
            ui.add_enabled_ui(self.at > 0, |ui| {
                if ui.button(t!("replay.first")).clicked() {
                    self.at = 0;
                }
                if ui.button(t!("replay.back")).clicked() {
                    self.at -= 1;
                }
            });
            ui.label(format!("{} / {}", self.at + 1, self.line.len()));
            ui.add_enabled_ui(self.at + 1 < self.line.len(), |ui| {
                if ui.button(t!("replay.forward")).clicked() {
                    self.at += 1;
                }
                if ui.button(t!("replay.last")).clicked() {
                    self.at = self.line.len() - 1;
                }
            });
        });
        let link = self.current().link();
        ui.horizontal_wrapped(|ui| {
            if ui.button(t!("study.copy_link")).clicked() {
                ui.ctx().copy_text(link.clone());
            }
            ui.label(RichText::new(&link).small().monospace());
        });
        if let StudyPosition::Backgammon(setup) = self.current().clone() {
            self.bg_controls(ui, &setup);
        }
        ui.separator();
        let top = ui.cursor().min;
        match (self.answer().cloned(), &self.asking) {
            (Some(StudyAnswer::Backgammon(a)), _) => self.bg_answer(ui, &a),
            (Some(StudyAnswer::Gomoku(a)), _) => self.gomoku_answer(ui, &a),
            (None, Some(_)) => {
                ui.label(t!("study.thinking"));
            }
            (None, None) => {}
        }
        if self.answer().is_some() {
            let rect = egui::Rect::from_min_max(top, ui.cursor().min.max(top));
            crate::probe::mark("study-answer", rect);
        }
        if let StudyPosition::Backgammon(_) = self.current() {
            ui.separator();
            let position = self.current().clone();
            self.rollout.ui(ui, &position);
        }
        out
    }

    /// Depth, the dice of a board not rolled, the cube.
    fn bg_controls(&mut self, ui: &mut Ui, setup: &BgSetup) {
        ui.horizontal(|ui| {
            ui.label(t!("study.depth"));
            for d in 0..=MAX_STUDY_DEPTH {
                ui.selectable_value(&mut self.depth, d, format!("{d}-ply"));
            }
        });
        if setup.dice.is_none() && !setup.double_offered {
            ui.horizontal(|ui| {
                ui.label(t!("study.dice"));
                for die in &mut self.dice {
                    ui.add(egui::DragValue::new(die).range(1..=6));
                }
                if ui.button(t!("study.set_dice")).clicked() {
                    let mut next = *setup;
                    next.dice = Some(self.dice);
                    // A roll with no play passes to the other side.
                    if let Ok(m) = next.to_match() {
                        let after = BgSetup::of_match(&m).unwrap_or(next);
                        self.push(StudyPosition::Backgammon(after));
                    }
                }
            });
        }
    }

    fn bg_answer(&mut self, ui: &mut Ui, a: &BgStudyAnswer) {
        let StudyPosition::Backgammon(setup) = self.current().clone() else {
            return;
        };
        ui.label(RichText::new(&a.engine).small());
        ui.label(t!(
            "study.chances",
            win = format!("{:.1}", a.chances.win * 100.0),
            gammon = format!("{:.1}", a.chances.win_gammon * 100.0),
            lose_gammon = format!("{:.1}", a.chances.lose_gammon * 100.0)
        ));
        if let Some(cube) = &a.cube {
            let action = match cube.action {
                CubeAction::NoDouble => t!("study.no_double"),
                CubeAction::DoubleTake => t!("study.double_take"),
                CubeAction::DoublePass => t!("study.double_pass"),
                CubeAction::TooGood => t!("study.too_good"),
            };
            ui.label(RichText::new(action).strong());
            egui::Grid::new("study-cube").show(ui, |ui| {
                for (label, value) in [
                    (t!("study.no_double"), cube.no_double),
                    (t!("study.double_take"), cube.double_take),
                    (t!("study.double_pass"), cube.double_pass),
                ] {
                    ui.label(label);
                    ui.monospace(format!("{value:+.3}"));
                    ui.end_row();
                }
            });
            if !setup.double_offered && ui.button(t!("study.double")).clicked() {
                self.push(StudyPosition::Backgammon(BgSetup {
                    double_offered: true,
                    ..setup
                }));
            } else if setup.double_offered && ui.button(t!("study.take")).clicked() {
                self.push(StudyPosition::Backgammon(BgSetup {
                    double_offered: false,
                    cube: Cube {
                        value: setup.cube.value.saturating_mul(2),
                        owner: Some(setup.on_roll.opponent()),
                    },
                    ..setup
                }));
            }
        }
        let mut chosen: Option<Play> = None;
        egui::Grid::new("study-plays").striped(true).show(ui, |ui| {
            for (i, line) in a.plays.iter().enumerate() {
                ui.label(format!("{}.", i + 1));
                ui.monospace(&line.notation);
                ui.monospace(format!("{:+.3}", line.equity));
                ui.label(format!("{:.1}%", line.chances.win * 100.0));
                if ui.small_button(t!("study.play")).clicked() {
                    chosen = Some(line.play.clone());
                }
                ui.end_row();
            }
        });
        if let Some(play) = chosen
            && let Ok(mut m) = setup.to_match()
            && m.play(setup.on_roll, &play).is_ok()
            && let Some(next) = BgSetup::of_match(&m)
        {
            self.push(StudyPosition::Backgammon(next));
        }
    }

    fn gomoku_answer(&mut self, ui: &mut Ui, a: &GomokuStudyAnswer) {
        let StudyPosition::Gomoku(setup) = self.current().clone() else {
            return;
        };
        ui.label(RichText::new(&a.engine).small());
        let colour = |s: Stone| match s {
            Stone::Black => t!("study.black"),
            Stone::White => t!("study.white"),
        };
        let points = |line: &[Point]| {
            line.iter()
                .map(Point::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        if let Some(winner) = a.winner {
            ui.label(RichText::new(t!("study.has_five", colour = colour(winner))).strong());
        }
        for (win, key) in [(&a.win, "study.win"), (&a.threat, "study.threat")] {
            if let Some(w) = win {
                let kind = match w.kind {
                    tabula_shared::protocol::ForcedWinKind::Vcf => "VCF",
                    tabula_shared::protocol::ForcedWinKind::Vct => "VCT",
                };
                ui.label(RichText::new(t!(key, colour = colour(w.attacker), kind = kind)).strong());
                ui.monospace(points(&w.line));
            }
        }
        let mut chosen = None;
        egui::Grid::new("study-stones")
            .striped(true)
            .show(ui, |ui| {
                for (i, m) in a.moves.iter().enumerate() {
                    ui.label(format!("{}.", i + 1));
                    ui.monospace(m.point.to_string());
                    ui.monospace(format!("{:+.2}", m.value));
                    ui.monospace(points(&m.line));
                    if ui.small_button(t!("study.play")).clicked() {
                        chosen = Some(m.point);
                    }
                    ui.end_row();
                }
            });
        if let Some(p) = chosen
            && let Ok(next) = setup.play(p)
        {
            self.push(StudyPosition::Gomoku(next));
        }
    }

    /// The board of the position shown; a click on a Gomoku point plays
    /// there. The geometries are kept for tests and tools.
    pub(super) fn board(
        &mut self,
        ui: &mut Ui,
        gomoku_geometry: &mut Option<GomokuGeometry>,
        bg_geometry: &mut Option<BgGeometry>,
    ) {
        if let Some(editor) = &mut self.editor {
            let styles = (self.gomoku_style, self.bg_style);
            editor.board(ui, styles, gomoku_geometry, bg_geometry);
            return;
        }
        let position = self.current().clone();
        let board = PositionBoard {
            mark: "study-board",
            clickable: true,
            line: Vec::new(),
            gomoku_style: self.gomoku_style,
            bg_style: self.bg_style,
        };
        if let Some(p) = board.show(ui, &position, gomoku_geometry, bg_geometry)
            && let StudyPosition::Gomoku(setup) = &position
            && let Ok(next) = setup.play(p)
        {
            self.push(StudyPosition::Gomoku(next));
        }
    }
}

/// How a study position's board is drawn (the analysis board's, a
/// puzzle's).
pub(super) struct PositionBoard {
    /// The page mark of the board's rect.
    pub(super) mark: &'static str,
    /// Whether a Gomoku point may be clicked.
    pub(super) clickable: bool,
    /// Gomoku points to ring.
    pub(super) line: Vec<Point>,
    /// The colours (the settings).
    pub(super) gomoku_style: GomokuStyle,
    /// The colours (the settings).
    pub(super) bg_style: BgStyle,
}

impl PositionBoard {
    /// Draws `position` (the side on roll at the bottom, as gnubg and XG
    /// show it); the Gomoku point clicked, if any. The geometries are kept
    /// for tests and tools.
    pub(super) fn show(
        self,
        ui: &mut Ui,
        position: &StudyPosition,
        gomoku_geometry: &mut Option<GomokuGeometry>,
        bg_geometry: &mut Option<BgGeometry>,
    ) -> Option<Point> {
        match position {
            StudyPosition::Backgammon(setup) => {
                let m = setup.to_match().ok()?;
                let view = BgView {
                    viewer: Some(setup.on_roll),
                    dice: bg_dice(&m),
                    cube: (m.config().cube && m.config().length != 1).then_some(m.cube()),
                    style: self.bg_style,
                    ..BgView::default()
                };
                let rect = ui.available_rect_before_wrap();
                crate::probe::mark(self.mark, rect);
                *bg_geometry = Some(BgGeometry::fit(rect));
                bg_view::show(ui, &m.board(), &view);
                None
            }
            StudyPosition::Gomoku(setup) => {
                let Some(game) = gomoku_game(setup) else {
                    ui.label(t!("study.cannot_draw"));
                    return None;
                };
                let view = GomokuView {
                    clicker: if self.clickable { game.to_act() } else { None },
                    show_numbers: false,
                    line: self.line,
                    forbidden: game.forbidden_points(),
                    flipped: false,
                    style: self.gomoku_style,
                };
                let rect = ui.available_rect_before_wrap();
                crate::probe::mark(self.mark, rect);
                *gomoku_geometry = Some(GomokuGeometry::fit(rect, game.size()));
                gomoku_view::show(ui, &game, &view).filter(|_| self.clickable)
            }
        }
    }
}

/// The dice on the board: the roll to play, or none.
fn bg_dice(m: &BgMatch) -> Option<(Side, [u8; 2])> {
    match *m.phase() {
        GamePhase::Moving {
            side,
            dice: Dice { a, b },
        } => Some((side, [a, b])),
        _ => None,
    }
}

/// The position as a game the board view draws: the stones placed in turn
/// from black. `None` when the counts cannot alternate (a board set up
/// with more of one colour) or the rule refuses a stone on the way.
pub(super) fn gomoku_game(setup: &GomokuSetup) -> Option<Gomoku> {
    let (b, w) = (setup.black.len(), setup.white.len());
    let balanced = match setup.to_move {
        Stone::Black => b == w,
        Stone::White => b == w + 1,
    };
    if !balanced {
        return None;
    }
    let mut game = Gomoku::new(GomokuConfig {
        size: setup.size,
        rule: setup.rule,
        opening: Opening::None,
    })
    .ok()?;
    for i in 0..b {
        let seat = game.to_act()?;
        game.play(seat, setup.black[i]).ok()?;
        if let Some(&p) = setup.white.get(i) {
            let seat = game.to_act()?;
            game.play(seat, p).ok()?;
        }
    }
    Some(game)
}
