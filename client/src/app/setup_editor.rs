//! [`SetupEditor`]: setting up an analysis-board position by hand.
//!
//! Backgammon: checkers of either colour put on a point or the bar with a
//! click, taken off with the Remove tool or a right click (the rest of each
//! side's 15 are borne off), the side on roll, the cube, the match length,
//! the score and the Crawford game, the dice rolled or a double offered.
//! Gomoku: stones of either colour put or
//! taken off, any count of each, and the colour to move. "Done" checks the
//! position with the rules (the same checks as a paste) and puts it on the
//! board; what is wrong is named.

use egui::{RichText, Ui};
use rust_i18n::t;
use tabula_shared::backgammon::{Board, Side};
use tabula_shared::gomoku::{Point, Stone};
use tabula_shared::study::{BgSetup, GomokuSetup, StudyPosition};

use crate::bg_view::{self, BgGeometry, BgView, BoardInput, Loc, abs_index};
use crate::error_text::setup_error_text;
use crate::gomoku_view::{self, GomokuGeometry};
use crate::settings::{BgStyle, GomokuStyle};

/// Checkers a side has.
const CHECKERS: u8 = 15;

/// What a click on the board does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tool {
    /// Puts a White checker (Backgammon) or a white stone (Gomoku).
    White,
    /// Puts a Black checker or a black stone.
    Black,
    /// Takes one off.
    Remove,
}

/// The position being set up.
#[derive(Debug, Clone)]
pub(super) struct SetupEditor {
    /// The position so far (not yet checked).
    pub(super) draft: StudyPosition,
    /// What a click does.
    pub(super) tool: Tool,
    /// Why "Done" was refused.
    pub(super) error: Option<String>,
}

impl SetupEditor {
    /// Starts from `position`.
    pub(super) fn new(position: StudyPosition) -> SetupEditor {
        SetupEditor {
            draft: position,
            tool: Tool::White,
            error: None,
        }
    }

    /// The panel's controls. Returns the checked position on "Done", and
    /// `Err(())` on "Cancel".
    pub(super) fn panel(&mut self, ui: &mut Ui) -> Option<Result<StudyPosition, ()>> {
        ui.label(RichText::new(t!("setup.title")).strong());
        ui.horizontal_wrapped(|ui| {
            let (white, black) = match self.draft {
                StudyPosition::Backgammon(_) => {
                    (t!("setup.white_checker"), t!("setup.black_checker"))
                }
                StudyPosition::Gomoku(_) => (t!("setup.white_stone"), t!("setup.black_stone")),
            };
            for (tool, label, mark) in [
                (Tool::White, white, "setup-white"),
                (Tool::Black, black, "setup-black"),
                (Tool::Remove, t!("setup.remove"), "setup-remove"),
            ] {
                let chip = ui.selectable_value(&mut self.tool, tool, label);
                crate::probe::mark(mark, chip.rect);
            }
        });
        match &mut self.draft {
            StudyPosition::Backgammon(setup) => bg_controls(ui, setup),
            StudyPosition::Gomoku(setup) => gomoku_controls(ui, setup),
        }
        if let Some(error) = &self.error {
            ui.label(RichText::new(error).color(super::labels::WARN));
        }
        let mut out = None;
        ui.horizontal(|ui| {
            let done = ui.button(t!("setup.done"));
            crate::probe::mark("setup-done", done.rect);
            if done.clicked() {
                match self.checked() {
                    Ok(position) => out = Some(Ok(position)),
                    Err(e) => self.error = Some(e),
                }
            }
            if ui.button(t!("setup.cancel")).clicked() {
                out = Some(Err(()));
            }
        });
        out
    }

    /// The draft, checked by the rules.
    fn checked(&self) -> Result<StudyPosition, String> {
        match &self.draft {
            StudyPosition::Backgammon(setup) => {
                let m = setup.to_match().map_err(|e| setup_error_text(&e))?;
                // A roll with no play has passed to the other side.
                let after = BgSetup::of_match(&m).unwrap_or(*setup);
                Ok(StudyPosition::Backgammon(after))
            }
            StudyPosition::Gomoku(setup) => {
                let board = setup.board().map_err(|e| setup_error_text(&e))?;
                if setup.winner().is_some() {
                    return Err(t!("setup.gomoku_over").to_string());
                }
                if board.is_full() {
                    return Err(t!("setup.gomoku_full").to_string());
                }
                Ok(self.draft.clone())
            }
        }
    }

    /// The draft's board; a click edits it. The geometries are kept for
    /// tests and tools.
    pub(super) fn board(
        &mut self,
        ui: &mut Ui,
        styles: (GomokuStyle, BgStyle),
        gomoku_geometry: &mut Option<GomokuGeometry>,
        bg_geometry: &mut Option<BgGeometry>,
    ) {
        let (gomoku_style, bg_style) = styles;
        let rect = ui.available_rect_before_wrap();
        crate::probe::mark("setup-board", rect);
        match &self.draft {
            StudyPosition::Backgammon(_) => *bg_geometry = Some(BgGeometry::fit(rect)),
            StudyPosition::Gomoku(g) => *gomoku_geometry = Some(GomokuGeometry::fit(rect, g.size)),
        }
        match &mut self.draft {
            StudyPosition::Backgammon(setup) => {
                let view = BgView {
                    viewer: Some(setup.on_roll),
                    cube: setup.config.cube.then_some(setup.cube),
                    interactive: true,
                    style: bg_style,
                    ..BgView::default()
                };
                let viewer = setup.on_roll;
                match bg_view::show(ui, &setup.board, &view) {
                    Some(BoardInput::Click(loc)) => {
                        self.error = None;
                        match self.tool {
                            Tool::White => put(&mut setup.board, viewer, loc, Side::White),
                            Tool::Black => put(&mut setup.board, viewer, loc, Side::Black),
                            Tool::Remove => take(&mut setup.board, viewer, loc),
                        }
                    }
                    Some(BoardInput::SecondaryClick(loc)) => take(&mut setup.board, viewer, loc),
                    _ => {}
                }
            }
            StudyPosition::Gomoku(setup) => {
                // The editor keeps one stone a point on the board: the
                // set-up always reads.
                let Ok(board) = setup.board() else {
                    return;
                };
                if let Some(p) = gomoku_view::show_board(ui, &board, gomoku_style) {
                    self.error = None;
                    edit_stone(setup, p, self.tool);
                }
            }
        }
    }
}

/// Side on roll, cube, match length, score, Crawford; clear and start.
fn bg_controls(ui: &mut Ui, setup: &mut BgSetup) {
    ui.horizontal_wrapped(|ui| {
        ui.label(t!("setup.on_roll"));
        ui.selectable_value(&mut setup.on_roll, Side::White, t!("study.white"));
        ui.selectable_value(&mut setup.on_roll, Side::Black, t!("study.black"));
    });
    ui.horizontal_wrapped(|ui| {
        let mut rolled = setup.dice.is_some();
        if ui.checkbox(&mut rolled, t!("setup.rolled")).changed() {
            setup.dice = rolled.then_some([3, 1]);
            if rolled {
                setup.double_offered = false;
            }
        }
        if let Some(dice) = &mut setup.dice {
            for die in dice.iter_mut() {
                ui.add(egui::DragValue::new(die).range(1..=6));
            }
        }
    });
    if setup.config.cube && setup.dice.is_none() {
        ui.checkbox(&mut setup.double_offered, t!("setup.double_offered"));
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(t!("setup.length"));
        ui.add(egui::DragValue::new(&mut setup.config.length).range(0..=25));
        ui.label(if setup.config.length == 0 {
            t!("setup.money")
        } else {
            t!("setup.points")
        });
    });
    if setup.config.length > 0 {
        ui.horizontal_wrapped(|ui| {
            ui.label(t!("setup.score"));
            ui.label(t!("study.white"));
            ui.add(egui::DragValue::new(&mut setup.score[0]).range(0..=24));
            ui.label(t!("study.black"));
            ui.add(egui::DragValue::new(&mut setup.score[1]).range(0..=24));
            ui.checkbox(&mut setup.crawford_game, t!("setup.crawford"));
        });
    }
    ui.checkbox(&mut setup.config.cube, t!("setup.cube_used"));
    if setup.config.cube {
        ui.horizontal_wrapped(|ui| {
            ui.label(t!("setup.cube"));
            egui::ComboBox::from_id_salt("setup-cube-value")
                .selected_text(setup.cube.value.to_string())
                .show_ui(ui, |ui| {
                    for v in [1u8, 2, 4, 8, 16, 32, 64] {
                        ui.selectable_value(&mut setup.cube.value, v, v.to_string());
                    }
                });
            ui.selectable_value(&mut setup.cube.owner, None, t!("setup.centred"));
            ui.selectable_value(&mut setup.cube.owner, Some(Side::White), t!("study.white"));
            ui.selectable_value(&mut setup.cube.owner, Some(Side::Black), t!("study.black"));
        });
    }
    ui.horizontal_wrapped(|ui| {
        if ui.button(t!("setup.clear")).clicked() {
            setup.board = Board {
                points: [0; 24],
                bar: [0, 0],
                off: [CHECKERS, CHECKERS],
            };
        }
        if ui.button(t!("setup.start")).clicked() {
            setup.board = BgSetup::start().board;
        }
    });
    ui.label(
        RichText::new(t!(
            "setup.counts",
            white = on_board(&setup.board, Side::White),
            black = on_board(&setup.board, Side::Black)
        ))
        .small(),
    );
}

/// The colour to move; clear.
fn gomoku_controls(ui: &mut Ui, setup: &mut GomokuSetup) {
    ui.horizontal_wrapped(|ui| {
        ui.label(t!("setup.to_move"));
        ui.selectable_value(&mut setup.to_move, Stone::Black, t!("study.black"));
        ui.selectable_value(&mut setup.to_move, Stone::White, t!("study.white"));
    });
    if ui.button(t!("setup.clear")).clicked() {
        setup.black.clear();
        setup.white.clear();
    }
    ui.label(
        RichText::new(t!(
            "setup.stones",
            black = setup.black.len(),
            white = setup.white.len()
        ))
        .small(),
    );
}

/// Checkers of `side` on the points and the bar.
fn on_board(board: &Board, side: Side) -> u8 {
    CHECKERS - board.off[side.index()].min(CHECKERS)
}

/// Puts a checker of `side` on `loc` (the viewer's numbering): on a point
/// held by the other side it replaces theirs (a point holds one colour). At most 15 of a side: the last one is taken from the
/// tray (borne off).
fn put(board: &mut Board, viewer: Side, loc: Loc, side: Side) {
    if board.off[side.index()] == 0 {
        return;
    }
    let sign: i8 = if side == Side::White { 1 } else { -1 };
    match loc {
        Loc::Point(n) => {
            let i = abs_index(viewer, n);
            while board.points[i].signum() == -sign {
                take_at(board, i);
            }
            board.points[i] += sign;
        }
        Loc::Bar => board.bar[side.index()] += 1,
        Loc::Off => return,
    }
    board.off[side.index()] -= 1;
}

/// Takes a checker off `loc` (back to its side's tray).
fn take(board: &mut Board, viewer: Side, loc: Loc) {
    match loc {
        Loc::Point(n) => take_at(board, abs_index(viewer, n)),
        Loc::Bar => {
            // The viewer's own bar checkers first.
            for side in [viewer, viewer.opponent()] {
                if board.bar[side.index()] > 0 {
                    board.bar[side.index()] -= 1;
                    board.off[side.index()] += 1;
                    return;
                }
            }
        }
        Loc::Off => {}
    }
}

fn take_at(board: &mut Board, i: usize) {
    let n = board.points[i];
    if n == 0 {
        return;
    }
    let side = if n > 0 { Side::White } else { Side::Black };
    board.points[i] -= n.signum();
    board.off[side.index()] += 1;
}

/// Puts a stone of the tool's colour on `p` (replacing one there), or
/// takes off the stone on `p`; a click with the colour already there takes
/// it off too.
fn edit_stone(setup: &mut GomokuSetup, p: Point, tool: Tool) {
    let was = if setup.black.contains(&p) {
        Some(Stone::Black)
    } else if setup.white.contains(&p) {
        Some(Stone::White)
    } else {
        None
    };
    setup.black.retain(|&q| q != p);
    setup.white.retain(|&q| q != p);
    let wanted = match tool {
        Tool::Black => Some(Stone::Black),
        Tool::White => Some(Stone::White),
        Tool::Remove => None,
    };
    match wanted {
        Some(stone) if was != Some(stone) => match stone {
            Stone::Black => setup.black.push(p),
            Stone::White => setup.white.push(p),
        },
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkers_come_from_the_tray_and_go_back_to_it() {
        let mut board = Board {
            points: [0; 24],
            bar: [0, 0],
            off: [CHECKERS, CHECKERS],
        };
        // White's 6-point seen by White is index 5.
        put(&mut board, Side::White, Loc::Point(6), Side::White);
        put(&mut board, Side::White, Loc::Point(6), Side::White);
        assert_eq!(board.points[5], 2);
        assert_eq!(board.off[0], 13);
        // A Black checker there replaces White's.
        put(&mut board, Side::White, Loc::Point(6), Side::Black);
        assert_eq!(board.points[5], -1);
        assert_eq!(board.off, [15, 14]);
        put(&mut board, Side::Black, Loc::Bar, Side::Black);
        assert_eq!(board.bar[1], 1);
        take(&mut board, Side::Black, Loc::Bar);
        take(&mut board, Side::White, Loc::Point(6));
        assert_eq!(board.points[5], 0);
        assert_eq!(board.bar, [0, 0]);
        assert_eq!(board.off, [CHECKERS, CHECKERS]);
        // No sixteenth checker.
        for _ in 0..20 {
            put(&mut board, Side::White, Loc::Point(1), Side::White);
        }
        assert_eq!(board.points[0], 15);
        assert_eq!(board.off[0], 0);
    }

    #[test]
    fn a_stone_is_put_replaced_and_taken_off() {
        let mut setup = GomokuSetup::empty(15, tabula_shared::gomoku::Rule::Freestyle);
        let p = Point::new(7, 7);
        edit_stone(&mut setup, p, Tool::Black);
        assert_eq!(setup.black, vec![p]);
        edit_stone(&mut setup, p, Tool::White);
        assert_eq!((setup.black.len(), setup.white.clone()), (0, vec![p]));
        edit_stone(&mut setup, p, Tool::White);
        assert!(setup.white.is_empty());
        edit_stone(&mut setup, p, Tool::Black);
        edit_stone(&mut setup, p, Tool::Remove);
        assert!(setup.black.is_empty());
    }
}
