//! [`PuzzleScreen`]: rated puzzles from real games. The server sends a
//! position without its answer; the player answers on the board (a Gomoku
//! stone) or in the panel (a Backgammon play from the legal ones, a cube
//! action); the server checks it and says whether it was right, with the
//! line and how the puzzle rating moved.

use egui::{RichText, Ui};
use rust_i18n::t;
use tabula_shared::backgammon::{BgMatch, GamePhase, Play, Side};
use tabula_shared::gomoku::Stone;
use tabula_shared::protocol::{
    ClientMessage, CubeAction, Puzzle, PuzzleAnswer, PuzzleRatingChange, PuzzleSolution,
    PuzzleTheme,
};
use tabula_shared::study::StudyPosition;

use super::Command;
use super::requests::Requests;
use super::study_screen::PositionBoard;
use crate::bg_view::BgGeometry;
use crate::gomoku_view::GomokuGeometry;
use crate::settings::{BgStyle, GomokuStyle};

/// What the server said of an answer.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Outcome {
    /// Whether it was right.
    pub(super) correct: bool,
    /// The right answer and its line.
    pub(super) solution: PuzzleSolution,
    /// How the puzzle rating moved (none for a puzzle tried before).
    pub(super) rating: Option<PuzzleRatingChange>,
}

/// The puzzle screen's state.
#[derive(Default)]
pub(super) struct PuzzleScreen {
    /// The puzzle shown.
    pub(super) puzzle: Option<Puzzle>,
    /// Whether it is the day's.
    pub(super) daily: bool,
    /// The player's puzzle rating, and whether it is provisional.
    pub(super) rating: Option<(i32, bool)>,
    /// The theme asked for (any when `None`).
    pub(super) theme: Option<PuzzleTheme>,
    /// The `puzzle` request in work.
    asking: Option<u64>,
    /// A `puzzle` request to send (`daily` or not).
    wanted: Option<bool>,
    /// The answer to send.
    answer_wanted: Option<PuzzleAnswer>,
    /// The `solve_puzzle` request in work.
    solving: Option<u64>,
    /// The answer given.
    pub(super) answered: Option<PuzzleAnswer>,
    /// What the server said of it.
    pub(super) outcome: Option<Outcome>,
    /// Why the last request was refused.
    pub(super) error: Option<String>,
    /// The Backgammon play picked from the list.
    picked: Option<usize>,
    /// The boards' colours (the settings).
    pub(super) gomoku_style: GomokuStyle,
    /// The boards' colours (the settings).
    pub(super) bg_style: BgStyle,
}

impl PuzzleScreen {
    /// Asks for a puzzle when none is shown or asked for (opening the screen).
    pub(super) fn want_one(&mut self) {
        if self.puzzle.is_none() && self.asking.is_none() {
            self.wanted = Some(false);
        }
    }

    /// Sends what the screen wants to send.
    pub(super) fn send_wanted(&mut self, requests: &mut Requests) {
        if let Some(daily) = self.wanted.take() {
            self.error = None;
            self.asking = Some(requests.send(ClientMessage::Puzzle {
                theme: if daily { None } else { self.theme },
                daily,
            }));
        }
        if let (Some(answer), Some(puzzle)) = (self.answer_wanted.take(), &self.puzzle)
            && self.solving.is_none()
            && self.outcome.is_none()
        {
            self.answered = Some(answer.clone());
            self.solving = Some(requests.send(ClientMessage::SolvePuzzle {
                puzzle_id: puzzle.id.clone(),
                answer,
            }));
        }
    }

    /// The server's `puzzle`.
    pub(super) fn received(
        &mut self,
        request_id: Option<u64>,
        puzzle: Puzzle,
        daily: bool,
        rating: i32,
        provisional: bool,
    ) {
        if request_id.is_some() && request_id != self.asking {
            return;
        }
        self.asking = None;
        self.puzzle = Some(puzzle);
        self.daily = daily;
        self.rating = Some((rating, provisional));
        self.answered = None;
        self.outcome = None;
        self.picked = None;
        self.error = None;
    }

    /// The server's `puzzle_solved`.
    pub(super) fn solved(
        &mut self,
        request_id: Option<u64>,
        correct: bool,
        solution: PuzzleSolution,
        rating: Option<PuzzleRatingChange>,
    ) {
        if request_id.is_some() && request_id != self.solving {
            return;
        }
        self.solving = None;
        if let Some(change) = rating {
            self.rating = Some((change.after, change.provisional));
            // A first answer is one more try of the puzzle.
            if let Some(puzzle) = &mut self.puzzle {
                puzzle.plays += 1;
            }
        }
        self.outcome = Some(Outcome {
            correct,
            solution,
            rating,
        });
    }

    /// A refusal of one of our requests; `true` when it was ours.
    pub(super) fn refused(&mut self, request_id: Option<u64>, text: String) -> bool {
        if request_id.is_none() {
            return false;
        }
        if request_id == self.asking {
            self.asking = None;
        } else if request_id == self.solving {
            self.solving = None;
            self.answered = None;
        } else {
            return false;
        }
        self.error = Some(text);
        true
    }

    /// The side panel: rating, the buttons, the question and the outcome.
    pub(super) fn panel(&mut self, ui: &mut Ui) -> Vec<Command> {
        let mut out = Vec::new();
        ui.heading(t!("puzzle.title"));
        if let Some((rating, provisional)) = self.rating {
            let mut text = t!("puzzle.rating", rating = rating).to_string();
            if provisional {
                text = format!("{text} {}", t!("puzzle.provisional"));
            }
            ui.label(RichText::new(text).strong());
        }
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut self.theme, None, t!("puzzle.any_theme"));
            for theme in PuzzleTheme::ALL {
                let chip = ui.selectable_value(&mut self.theme, Some(theme), theme_label(theme));
                crate::probe::mark(&format!("puzzle-theme-{}", theme.name()), chip.rect);
            }
        });
        ui.horizontal_wrapped(|ui| {
            let next = ui.button(t!("puzzle.next"));
            crate::probe::mark("puzzle-next", next.rect);
            if next.clicked() {
                self.wanted = Some(false);
            }
            if ui.button(t!("puzzle.daily")).clicked() {
                self.wanted = Some(true);
            }
        });
        if let Some(error) = &self.error {
            ui.label(RichText::new(error).color(super::labels::WARN));
        }
        ui.separator();
        if self.asking.is_some() {
            ui.label(t!("puzzle.loading"));
            return out;
        }
        let Some(puzzle) = self.puzzle.clone() else {
            return out;
        };
        let top = ui.cursor().min;
        if self.daily {
            ui.label(RichText::new(t!("puzzle.daily_heading")).strong());
        }
        ui.label(RichText::new(question(&puzzle.position, puzzle.theme)).strong());
        ui.label(
            RichText::new(t!(
                "puzzle.puzzle_rating",
                rating = puzzle.rating,
                plays = puzzle.plays
            ))
            .small(),
        );
        if self.outcome.is_none() && self.solving.is_none() {
            self.answer_controls(ui, &puzzle);
        }
        if self.solving.is_some() {
            ui.label(t!("puzzle.checking"));
        }
        let rect = egui::Rect::from_min_max(top, ui.cursor().min.max(top));
        crate::probe::mark("puzzle-question", rect);
        if let Some(outcome) = self.outcome.clone() {
            ui.separator();
            self.outcome_ui(ui, &puzzle, &outcome);
            if ui.button(t!("study.open_on_board")).clicked() {
                out.push(Command::StudyPosition(puzzle.position.clone()));
            }
        }
        out
    }

    /// The panel's way to answer: a Backgammon play from the legal ones,
    /// or a cube action (a Gomoku stone is answered on the board).
    fn answer_controls(&mut self, ui: &mut Ui, puzzle: &Puzzle) {
        let StudyPosition::Backgammon(setup) = &puzzle.position else {
            return;
        };
        let Ok(m) = setup.to_match() else {
            return;
        };
        match puzzle.theme {
            PuzzleTheme::BestPlay => {
                let plays = sorted_plays(&m);
                // Every legal play at once, side by side (a roll has a few
                // dozen at most): none hidden behind a scroll.
                ui.horizontal_wrapped(|ui| {
                    for (i, play) in plays.iter().enumerate() {
                        let label = RichText::new(play.to_string()).monospace();
                        if ui.selectable_label(self.picked == Some(i), label).clicked() {
                            self.picked = Some(i);
                        }
                    }
                });
                let chosen = self.picked.and_then(|i| plays.get(i)).cloned();
                if ui
                    .add_enabled(chosen.is_some(), egui::Button::new(t!("puzzle.answer")))
                    .clicked()
                    && let Some(play) = chosen
                {
                    self.answer_wanted = Some(PuzzleAnswer::Play { play });
                }
            }
            PuzzleTheme::CubeAction => {
                ui.horizontal_wrapped(|ui| {
                    for action in [
                        CubeAction::NoDouble,
                        CubeAction::DoubleTake,
                        CubeAction::DoublePass,
                        CubeAction::TooGood,
                    ] {
                        if ui.button(cube_label(action)).clicked() {
                            self.answer_wanted = Some(PuzzleAnswer::Cube { action });
                        }
                    }
                });
            }
            PuzzleTheme::WinByFours | PuzzleTheme::WinByThreats | PuzzleTheme::OnlyDefence => {}
        }
    }

    /// Right or not, the answer, the line, the margin and the rating's move.
    fn outcome_ui(&self, ui: &mut Ui, puzzle: &Puzzle, outcome: &Outcome) {
        let (text, colour) = if outcome.correct {
            (t!("puzzle.right"), super::labels::GOOD)
        } else {
            (t!("puzzle.wrong"), super::labels::WARN)
        };
        let said = ui.label(RichText::new(text).strong().color(colour));
        crate::probe::mark(
            if outcome.correct {
                "puzzle-right"
            } else {
                "puzzle-wrong"
            },
            said.rect,
        );
        ui.label(t!(
            "puzzle.solution",
            answer = answer_text(&outcome.solution.answer)
        ));
        if outcome.solution.line.len() > 1 {
            ui.label(t!("puzzle.line", line = outcome.solution.line.join(" ")));
        }
        if let (Some(margin), Some(depth)) = (outcome.solution.margin, outcome.solution.depth) {
            ui.label(t!(
                "puzzle.margin",
                margin = format!("{margin:.3}"),
                depth = depth
            ));
        }
        match outcome.rating {
            Some(change) => {
                ui.label(t!(
                    "puzzle.rating_change",
                    before = change.before,
                    after = change.after
                ));
            }
            None => {
                ui.label(t!("puzzle.unrated"));
            }
        }
        if let Some(game) = &puzzle.game_id {
            ui.label(RichText::new(t!("puzzle.from_game", game = game)).small());
        }
    }

    /// The puzzle's board; a click on a Gomoku point answers with it.
    pub(super) fn board(
        &mut self,
        ui: &mut Ui,
        gomoku_geometry: &mut Option<GomokuGeometry>,
        bg_geometry: &mut Option<BgGeometry>,
    ) {
        let Some(puzzle) = &self.puzzle else {
            return;
        };
        let line = match (&self.outcome, &self.answered) {
            (Some(_), Some(PuzzleAnswer::Point { point })) => vec![*point],
            _ => Vec::new(),
        };
        let board = PositionBoard {
            mark: "puzzle-board",
            clickable: self.outcome.is_none() && self.solving.is_none(),
            line,
            gomoku_style: self.gomoku_style,
            bg_style: self.bg_style,
        };
        if let Some(point) = board.show(ui, &puzzle.position, gomoku_geometry, bg_geometry) {
            self.answer_wanted = Some(PuzzleAnswer::Point { point });
        }
    }
}

/// The legal plays of the roll, one per resulting board, in notation order.
pub(super) fn sorted_plays(m: &BgMatch) -> Vec<Play> {
    let mut plays = m.legal_plays();
    plays.sort_by_cached_key(ToString::to_string);
    plays
}

fn theme_label(theme: PuzzleTheme) -> String {
    match theme {
        PuzzleTheme::WinByFours => t!("puzzle.win_by_fours"),
        PuzzleTheme::WinByThreats => t!("puzzle.win_by_threats"),
        PuzzleTheme::OnlyDefence => t!("puzzle.only_defence"),
        PuzzleTheme::BestPlay => t!("puzzle.best_play"),
        PuzzleTheme::CubeAction => t!("puzzle.cube_action"),
    }
    .to_string()
}

fn cube_label(action: CubeAction) -> String {
    match action {
        CubeAction::NoDouble => t!("study.no_double"),
        CubeAction::DoubleTake => t!("study.double_take"),
        CubeAction::DoublePass => t!("study.double_pass"),
        CubeAction::TooGood => t!("study.too_good"),
    }
    .to_string()
}

fn side_name(side: Side) -> String {
    match side {
        Side::White => t!("study.white"),
        Side::Black => t!("study.black"),
    }
    .to_string()
}

fn answer_text(answer: &PuzzleAnswer) -> String {
    match answer {
        PuzzleAnswer::Point { point } => point.to_string(),
        PuzzleAnswer::Play { play } => play.to_string(),
        PuzzleAnswer::Cube { action } => cube_label(*action),
    }
}

/// What the puzzle asks, in words.
fn question(position: &StudyPosition, theme: PuzzleTheme) -> String {
    match position {
        StudyPosition::Gomoku(setup) => {
            let colour = match setup.to_move {
                Stone::Black => t!("study.black"),
                Stone::White => t!("study.white"),
            };
            match theme {
                PuzzleTheme::WinByThreats => t!("puzzle.ask_win_by_threats", colour = colour),
                PuzzleTheme::OnlyDefence => t!("puzzle.ask_only_defence", colour = colour),
                _ => t!("puzzle.ask_win_by_fours", colour = colour),
            }
            .to_string()
        }
        StudyPosition::Backgammon(setup) => {
            let Ok(m) = setup.to_match() else {
                return String::new();
            };
            match *m.phase() {
                GamePhase::Moving { side, dice } => t!(
                    "puzzle.ask_best_play",
                    colour = side_name(side),
                    dice = format!("{}-{}", dice.a, dice.b)
                )
                .to_string(),
                GamePhase::CubeOffered { .. } => {
                    t!("puzzle.ask_cube_offered", colour = side_name(setup.on_roll)).to_string()
                }
                _ => t!("puzzle.ask_cube_action", colour = side_name(setup.on_roll)).to_string(),
            }
        }
    }
}
