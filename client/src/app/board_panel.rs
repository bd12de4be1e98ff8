//! The board in the room view: the Gomoku board with its forbidden points
//! and winning line, or the Backgammon board with the opponent's play
//! animated and our own play built by clicks and drags.

use web_time::Instant;

use egui::{Key, Ui};
use tabula_shared::backgammon::{Board, GamePhase, Side};
use tabula_shared::game::LiveGame;
use tabula_shared::gomoku::{Gomoku, Outcome, Phase, Point, Rule, Stone};

use super::Command;
use super::bg_turn::{Anim, BgTurn};
use super::room_screen::RoomScreen;
use crate::bg_view::{self, BgGeometry, BgView, Loc, abs_index};
use crate::gomoku_view::{self, GomokuGeometry, GomokuView};
use crate::room::Room;
use crate::settings::{BgStyle, GomokuStyle};

/// Seconds per animated checker hop.
const HOP_SECS: f32 = 0.25;

impl RoomScreen {
    /// Draws the board; the geometries are kept for tests and tools.
    pub(super) fn board(
        &mut self,
        ui: &mut Ui,
        show_numbers: bool,
        gomoku_geometry: &mut Option<GomokuGeometry>,
        bg_geometry: &mut Option<BgGeometry>,
    ) -> Vec<Command> {
        let viewer = self.bg_viewer();
        let my_side = self.my_side();
        let styles = (self.gomoku_style, self.bg_style);
        if let Some((_, game)) = &self.look_back {
            let geometries = (gomoku_geometry, bg_geometry);
            looked_back(ui, game, viewer, show_numbers, styles, geometries);
            return Vec::new();
        }
        let Some(room) = &self.room else {
            return Vec::new();
        };
        match room.live() {
            Some(LiveGame::Gomoku(game)) => {
                let hint = self.first_hint_point();
                let forbidden = &mut self.forbidden;
                let look = (show_numbers, styles.0);
                let out = gomoku_board(ui, room, game, look, forbidden, gomoku_geometry);
                if let (Some(point), Some(geo)) = (hint, gomoku_geometry.as_ref()) {
                    super::board_marks::hint_mark(ui, geo, point);
                }
                out
            }
            Some(LiveGame::Backgammon(game)) => {
                let mut view = BgView {
                    viewer: Some(viewer),
                    cube: (game.config().cube && game.config().length != 1).then_some(game.cube()),
                    last_move: last_hops(room, viewer),
                    style: styles.1,
                    ..BgView::default()
                };
                let mut out = Vec::new();
                let mut board = game.board();
                let hop_secs = HOP_SECS / self.animation_speed.max(0.5);
                if let Some(anim) = self.anims.front_mut() {
                    match anim_frame(anim, viewer, hop_secs, &mut view) {
                        Some(b) => board = b,
                        None => {
                            self.anims.pop_front();
                            ui.ctx().request_repaint();
                        }
                    }
                } else {
                    view.dice = match *game.phase() {
                        GamePhase::Moving { side, dice } => Some((side, [dice.a, dice.b])),
                        // The roll just played stays in sight until the
                        // next one (the opponent's dice no longer vanish
                        // when its animation ends).
                        GamePhase::AwaitingRoll { .. } | GamePhase::CubeOffered { .. } => {
                            last_roll(room)
                        }
                        _ => None,
                    };
                    if let Some(turn) = &self.bg {
                        board = turn_view(turn, my_side.unwrap_or(Side::White), &mut view);
                        if turn.builder.is_complete()
                            && !turn.sent
                            && ui.input(|i| i.key_pressed(Key::Enter))
                            && ui.ctx().memory(|m| m.focused().is_none())
                        {
                            out.push(Command::ConfirmPlay);
                        }
                    }
                }
                let rect = ui.available_rect_before_wrap();
                *bg_geometry = Some(BgGeometry::fit(rect));
                if let Some(input) = bg_view::show(ui, &board, &view) {
                    out.push(Command::Board(input));
                }
                out
            }
            None => {
                ui.centered_and_justified(|ui| ui.label(rust_i18n::t!("room.waiting_for_game")));
                Vec::new()
            }
        }
    }
}

/// A position of the game in progress looked back at from the move list:
/// drawn as it was, with nothing to click.
fn looked_back(
    ui: &mut Ui,
    game: &LiveGame,
    viewer: Side,
    show_numbers: bool,
    (gomoku_style, bg_style): (GomokuStyle, BgStyle),
    (gomoku_geometry, bg_geometry): (&mut Option<GomokuGeometry>, &mut Option<BgGeometry>),
) {
    let rect = ui.available_rect_before_wrap();
    match game {
        LiveGame::Gomoku(game) => {
            let view = GomokuView {
                clicker: None,
                show_numbers,
                line: Vec::new(),
                forbidden: Vec::new(),
                flipped: false,
                style: gomoku_style,
            };
            *gomoku_geometry = Some(GomokuGeometry::fit(rect, game.size()));
            gomoku_view::show(ui, game, &view);
        }
        LiveGame::Backgammon(game) => {
            let view = BgView {
                viewer: Some(viewer),
                cube: (game.config().cube && game.config().length != 1).then_some(game.cube()),
                style: bg_style,
                ..BgView::default()
            };
            *bg_geometry = Some(BgGeometry::fit(rect));
            bg_view::show(ui, &game.board(), &view);
        }
    }
}

/// The hops of the last play of the game in progress, as places on the
/// board seen by `viewer` (the play is in its mover's numbering).
pub(super) fn last_hops(room: &Room, viewer: Side) -> Vec<(Loc, Loc)> {
    use tabula_shared::protocol::{BgAction, GameRecord};
    let Some(GameRecord::Backgammon { actions, .. }) = room.record() else {
        return Vec::new();
    };
    let Some((side, play)) = actions
        .iter()
        .rev()
        .find_map(|a| match a {
            BgAction::NextGame => Some(None),
            BgAction::Play { side, play } => Some(Some((*side, play))),
            _ => None,
        })
        .flatten()
    else {
        return Vec::new();
    };
    let place = |n: u8| match n {
        25 => Loc::Bar,
        0 => Loc::Off,
        n if side == viewer => Loc::Point(n),
        n => Loc::Point(25 - n),
    };
    play.moves
        .iter()
        .map(|m| (place(m.from), place(m.to)))
        .collect()
}

/// The last roll of the game in progress and whose it was (the opening
/// roll's two dice count as White's, as the replay shows them).
pub(super) fn last_roll(room: &Room) -> Option<(Side, [u8; 2])> {
    use tabula_shared::protocol::{BgAction, GameRecord};
    let Some(GameRecord::Backgammon { actions, .. }) = room.record() else {
        return None;
    };
    actions.iter().rev().find_map(|a| match a {
        BgAction::NextGame => Some(None),
        BgAction::Roll { side, dice } => Some(Some((*side, *dice))),
        BgAction::OpeningRoll { white, black } => Some(Some((Side::White, [*white, *black]))),
        _ => None,
    })?
}

/// The Gomoku board; a click on it places a stone when it is our turn.
fn gomoku_board(
    ui: &mut Ui,
    room: &Room,
    game: &Gomoku,
    (show_numbers, style): (bool, GomokuStyle),
    forbidden: &mut Option<(usize, Vec<Point>)>,
    geometry: &mut Option<GomokuGeometry>,
) -> Vec<Command> {
    let mut out = Vec::new();
    let len = game.moves().len();
    let placing = matches!(
        game.phase(),
        Phase::Main | Phase::Swap2PlaceThree | Phase::Swap2PlaceTwo
    );
    let renju_black =
        game.config().rule == Rule::Renju && game.stone_to_play() == Stone::Black && placing;
    if !renju_black {
        *forbidden = None;
    } else if forbidden.as_ref().is_none_or(|f| f.0 != len) {
        *forbidden = Some((len, game.forbidden_points()));
    }
    let clicker =
        (room.is_player() && room.result.is_none() && placing && game.to_act() == room.seat)
            .then_some(room.seat)
            .flatten();
    let line = match (&room.result, game.outcome()) {
        (Some(r), _) if !r.line.is_empty() => r.line.clone(),
        (_, Some(Outcome::Win { line, .. })) => line.clone(),
        _ => Vec::new(),
    };
    let view = GomokuView {
        clicker,
        show_numbers,
        line,
        forbidden: forbidden.as_ref().map(|f| f.1.clone()).unwrap_or_default(),
        flipped: false,
        style,
    };
    let rect = ui.available_rect_before_wrap();
    *geometry = Some(GomokuGeometry::fit(rect, game.size()));
    let out_of_turn = clicker.is_none()
        && room.is_player()
        && room.result.is_none()
        && placing
        && game.to_act().is_some_and(|s| Some(s) != room.seat)
        && room
            .summary
            .as_ref()
            .is_some_and(|s| s.status == tabula_shared::protocol::RoomStatus::Playing)
        && ui.input(|i| i.pointer.primary_clicked())
        && ui
            .input(|i| i.pointer.interact_pos())
            .is_some_and(|at| rect.contains(at));
    if let Some(p) = gomoku_view::show(ui, game, &view) {
        out.push(Command::PlaceStone(p));
    } else if out_of_turn {
        // A click that can place nothing says why, not nothing at all.
        out.push(Command::Toast(
            rust_i18n::t!("room.wait_your_turn").into_owned(),
        ));
    }
    out
}

/// The board after the hops of the play being built, with the movable
/// checkers and the selected one's targets marked in `view`.
fn turn_view(turn: &BgTurn, side: Side, view: &mut BgView) -> Board {
    view.dice_left = Some(turn.builder.dice_left());
    view.interactive = !turn.sent;
    view.selected = turn.selected.map(Loc::from_number);
    view.movable = if turn.selected.is_none() {
        turn.builder
            .movable()
            .into_iter()
            .map(Loc::from_number)
            .collect()
    } else {
        Vec::new()
    };
    view.targets = turn
        .selected
        .map(|s| {
            turn.builder
                .reach(s)
                .into_iter()
                .map(Loc::from_number)
                .collect()
        })
        .unwrap_or_default();
    Board::from_position(&turn.builder.position(), side)
}

/// The board in the middle of an opponent's hop, with the flying checker
/// set in `view`; `None` once the last hop is done.
fn anim_frame(anim: &mut Anim, viewer: Side, hop_secs: f32, view: &mut BgView) -> Option<Board> {
    let to_viewer = |side: Side, n: u8| -> Loc {
        match n {
            25 => Loc::Bar,
            0 => Loc::Off,
            n if side == viewer => Loc::Point(n),
            n => Loc::Point(25 - n),
        }
    };
    let start = *anim.start.get_or_insert_with(Instant::now);
    let t = start.elapsed().as_secs_f32() / hop_secs;
    let k = t.floor() as usize;
    if k >= anim.hops.len() {
        return None;
    }
    let side = anim.side;
    let hop = anim.hops[k];
    let mut board = Board::from_position(&anim.steps[k], side);
    if hop.from == 25 {
        board.bar[side.index()] = board.bar[side.index()].saturating_sub(1);
    } else if (1..=24).contains(&hop.from) {
        let i = abs_index(side, hop.from);
        board.points[i] -= if side == Side::White { 1 } else { -1 };
    }
    view.flying = Some((
        to_viewer(side, hop.from),
        to_viewer(side, hop.to),
        side,
        t - k as f32,
    ));
    view.dice = anim.dice.map(|d| (side, d));
    Some(board)
}
