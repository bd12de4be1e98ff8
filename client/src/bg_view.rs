//! The Backgammon board, painted with egui shapes: 24 points, the bar, the
//! bear-off trays, stacked checkers, dice and cube.
//!
//! The board is always drawn from one side's view (its home board at the
//! lower right). Locations are given in that viewer's numbering, which is
//! the mover's numbering when the viewer is the one moving. Drawing returns
//! what the pointer did; it never changes game state.

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Shape, Stroke, Ui, pos2, vec2};
use tabula_shared::backgammon::{Board, Cube, Side};

use crate::settings::BgStyle;

/// A place on the board in the viewer's numbering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loc {
    /// A point, 1..=24.
    Point(u8),
    /// The bar.
    Bar,
    /// The bear-off tray.
    Off,
}

impl Loc {
    /// The mover's number for this place: 25 for the bar, 0 for off.
    pub fn number(self) -> u8 {
        match self {
            Loc::Point(n) => n,
            Loc::Bar => 25,
            Loc::Off => 0,
        }
    }

    /// The place for a mover's number.
    pub fn from_number(n: u8) -> Loc {
        match n {
            25 => Loc::Bar,
            0 => Loc::Off,
            n => Loc::Point(n),
        }
    }
}

/// Index into [`Board::points`] of `side`'s point `n` (1..=24).
pub fn abs_index(side: Side, n: u8) -> usize {
    match side {
        Side::White => usize::from(n) - 1,
        Side::Black => 24 - usize::from(n),
    }
}

/// Layout: 15 columns of width `unit` (six points, the bar, six points, the
/// tray; half a unit of frame on each side of the tray) and 12 rows: five
/// checkers per half, a middle gap of two.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BgGeometry {
    /// The whole board.
    pub rect: Rect,
    /// Checker diameter and column width.
    pub unit: f32,
}

const COLUMNS: f32 = 14.0;
const ROWS: f32 = 12.0;

impl BgGeometry {
    /// The largest board that fits `available`.
    pub fn fit(available: Rect) -> BgGeometry {
        // Half a unit of frame all round, where the point numbers go.
        let unit = (available.width() / (COLUMNS + 1.0))
            .min(available.height() / (ROWS + 1.0))
            .max(4.0);
        let rect = Rect::from_center_size(available.center(), vec2(unit * COLUMNS, unit * ROWS));
        BgGeometry { rect, unit }
    }

    fn column_left(&self, col: u8) -> f32 {
        self.rect.left() + f32::from(col) * self.unit
    }

    /// The column (0..=12, 6 = bar) and half (top = true) of viewer point `n`.
    pub fn column_of(n: u8) -> (u8, bool) {
        match n {
            1..=6 => (13 - n, false),
            7..=12 => (12 - n, false),
            13..=18 => (n - 13, true),
            _ => (n - 12, true),
        }
    }

    /// The centre of the `k`-th checker (0 at the board's edge) on viewer
    /// point `n`; stacks above five overlap the last slot.
    pub fn checker_center(&self, n: u8, k: usize) -> Pos2 {
        let (col, top) = Self::column_of(n);
        let x = self.column_left(col) + self.unit / 2.0;
        let slot = (k.min(4)) as f32 + 0.5;
        let y = if top {
            self.rect.top() + slot * self.unit
        } else {
            self.rect.bottom() - slot * self.unit
        };
        pos2(x, y)
    }

    /// The centre of the `k`-th checker on the bar; the viewer's own
    /// checkers sit in the lower half, near the middle.
    pub fn bar_center(&self, own: bool, k: usize) -> Pos2 {
        let x = self.column_left(6) + self.unit / 2.0;
        let off = (k.min(3)) as f32 + 1.5;
        let mid = self.rect.center().y;
        pos2(
            x,
            if own {
                mid + off * self.unit
            } else {
                mid - off * self.unit
            },
        )
    }

    /// The tray rectangle; the viewer's checkers go to the lower tray.
    pub fn tray(&self, own: bool) -> Rect {
        let x = self.column_left(13);
        let h = self.unit * 5.0;
        if own {
            Rect::from_min_size(pos2(x, self.rect.bottom() - h), vec2(self.unit, h))
        } else {
            Rect::from_min_size(pos2(x, self.rect.top()), vec2(self.unit, h))
        }
    }

    /// The triangle (or its column) of viewer point `n`.
    pub fn point_rect(&self, n: u8) -> Rect {
        let (col, top) = Self::column_of(n);
        let x = self.column_left(col);
        let h = self.unit * 5.0;
        if top {
            Rect::from_min_size(pos2(x, self.rect.top()), vec2(self.unit, h))
        } else {
            Rect::from_min_size(pos2(x, self.rect.bottom() - h), vec2(self.unit, h))
        }
    }

    /// The place under `pos`: a point's whole half-column, the bar column,
    /// or the tray column.
    pub fn loc_at(&self, pos: Pos2) -> Option<Loc> {
        if !self.rect.contains(pos) {
            return None;
        }
        let col = ((pos.x - self.rect.left()) / self.unit).floor() as i32;
        let top = pos.y < self.rect.center().y;
        match col {
            6 => Some(Loc::Bar),
            13 => Some(Loc::Off),
            0..=5 => Some(Loc::Point(if top {
                13 + col as u8
            } else {
                12 - col as u8
            })),
            7..=12 => Some(Loc::Point(if top {
                12 + col as u8
            } else {
                13 - col as u8
            })),
            _ => None,
        }
    }

    /// Where a checker moving to `loc` lands (approximately), for
    /// animation and highlights.
    pub fn loc_center(&self, loc: Loc, count: usize, own: bool) -> Pos2 {
        match loc {
            Loc::Point(n) => self.checker_center(n, count),
            Loc::Bar => self.bar_center(own, count),
            Loc::Off => self.tray(own).center(),
        }
    }
}

/// Everything besides the checkers that the board shows.
#[derive(Debug, Clone, Default)]
pub struct BgView {
    /// Whose view (home board lower right).
    pub viewer: Option<Side>,
    /// The dice to show, and whose they are.
    pub dice: Option<(Side, [u8; 2])>,
    /// Dice already used (greyed), in the order of `dice`.
    pub dice_left: Option<Vec<u8>>,
    /// The cube.
    pub cube: Option<Cube>,
    /// Viewer points (and bar/off) with a checker that may move.
    pub movable: Vec<Loc>,
    /// The selected checker.
    pub selected: Option<Loc>,
    /// Legal destinations of the selected checker.
    pub targets: Vec<Loc>,
    /// A checker in flight: from, to (viewer places), side and progress 0..1.
    pub flying: Option<(Loc, Loc, Side, f32)>,
    /// Whether the pointer may interact.
    pub interactive: bool,
    /// The hops of the last play (viewer places), marked on the board.
    pub last_move: Vec<(Loc, Loc)>,
    /// The board's colours.
    pub style: BgStyle,
}

/// The colours of one board style.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BgPalette {
    /// The playing surface.
    pub felt: Color32,
    /// The frame and the bar.
    pub frame: Color32,
    /// The inside of the bear-off trays.
    pub tray: Color32,
    /// The even points.
    pub light_point: Color32,
    /// The odd points.
    pub dark_point: Color32,
    /// The point numbers on the frame.
    pub label: Color32,
}

/// The colours of `style`.
pub fn palette(style: BgStyle) -> BgPalette {
    match style {
        BgStyle::Classic => BgPalette {
            felt: Color32::from_rgb(32, 92, 60),
            frame: Color32::from_rgb(92, 58, 32),
            tray: Color32::from_rgb(60, 38, 22),
            light_point: Color32::from_rgb(226, 204, 160),
            dark_point: Color32::from_rgb(160, 52, 40),
            label: Color32::from_rgb(235, 220, 190),
        },
        BgStyle::Ocean => BgPalette {
            felt: Color32::from_rgb(38, 92, 138),
            frame: Color32::from_rgb(64, 72, 84),
            tray: Color32::from_rgb(44, 50, 60),
            light_point: Color32::from_rgb(222, 206, 170),
            dark_point: Color32::from_rgb(20, 34, 70),
            label: Color32::from_rgb(220, 226, 235),
        },
    }
}

/// The colour that marks the last play's checkers and the places they left.
pub const LAST_MOVE: Color32 = Color32::from_rgb(255, 150, 40);

/// What the pointer did on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardInput {
    /// A click on a place.
    Click(Loc),
    /// A right click (secondary button) on a place.
    SecondaryClick(Loc),
    /// A drag began on a place (picks the checker up).
    DragStart(Loc),
    /// A drag was released on a place (puts the checker down).
    DragEnd(Loc),
}

/// The fill of a side's checkers.
pub fn checker_colour(side: Side) -> Color32 {
    match side {
        Side::White => Color32::from_rgb(240, 236, 222),
        Side::Black => Color32::from_rgb(40, 36, 36),
    }
}

/// Paints `board` and reports clicks and drags.
pub fn show(ui: &mut Ui, board: &Board, view: &BgView) -> Option<BoardInput> {
    let available = ui.available_rect_before_wrap();
    let sense = if view.interactive {
        Sense::click_and_drag()
    } else {
        Sense::hover()
    };
    let (response, painter) = ui.allocate_painter(available.size(), sense);
    let geo = BgGeometry::fit(response.rect);
    let viewer = view.viewer.unwrap_or(Side::White);
    let u = geo.unit;
    // The checker being dragged leaves its place and follows the pointer.
    let dragged = match (view.interactive && response.dragged(), view.selected) {
        (true, Some(loc)) => ui.input(|i| i.pointer.latest_pos()).map(|p| (loc, p)),
        _ => None,
    };
    let lifted = dragged.map(|(loc, _)| lift(board, viewer, loc));
    let board = lifted.as_ref().unwrap_or(board);

    let colours = palette(view.style);
    painter.rect_filled(geo.rect.expand(u * 0.5), 6.0, colours.frame);
    painter.rect_filled(geo.rect, 2.0, colours.felt);
    let bar = Rect::from_min_size(
        pos2(geo.column_left(6), geo.rect.top()),
        vec2(u, geo.rect.height()),
    );
    painter.rect_filled(bar, 0.0, colours.frame);
    let tray_col = Rect::from_min_size(
        pos2(geo.column_left(13), geo.rect.top()),
        vec2(u, geo.rect.height()),
    );
    painter.rect_filled(tray_col, 0.0, colours.frame);
    for own in [true, false] {
        painter.rect_filled(geo.tray(own).shrink(2.0), 2.0, colours.tray);
    }

    // Triangles, with highlights for movable checkers and targets.
    let font = FontId::proportional((u * 0.32).clamp(8.0, 14.0));
    for n in 1..=24u8 {
        let r = geo.point_rect(n);
        let (_, top) = BgGeometry::column_of(n);
        let (base_y, tip_y) = if top {
            (r.top(), r.top() + r.height() * 0.92)
        } else {
            (r.bottom(), r.bottom() - r.height() * 0.92)
        };
        let colour = if n % 2 == 0 {
            colours.light_point
        } else {
            colours.dark_point
        };
        painter.add(Shape::convex_polygon(
            vec![
                pos2(r.left() + 1.0, base_y),
                pos2(r.right() - 1.0, base_y),
                pos2(r.center().x, tip_y),
            ],
            colour,
            Stroke::NONE,
        ));
        let label_y = if top {
            r.top() - u * 0.25
        } else {
            r.bottom() + u * 0.25
        };
        painter.text(
            pos2(r.center().x, label_y),
            Align2::CENTER_CENTER,
            n.to_string(),
            font.clone(),
            colours.label,
        );
        if view.targets.contains(&Loc::Point(n)) {
            painter.rect_filled(r, 2.0, Color32::from_rgba_unmultiplied(255, 230, 80, 70));
        }
    }
    if view.targets.contains(&Loc::Off) {
        painter.rect_filled(
            geo.tray(true),
            2.0,
            Color32::from_rgba_unmultiplied(255, 230, 80, 90),
        );
    }

    // Checkers.
    let r = u * 0.46;
    for n in 1..=24u8 {
        let count = board.points[abs_index(viewer, n)];
        if count == 0 {
            continue;
        }
        let side = if count > 0 { Side::White } else { Side::Black };
        let count = count.unsigned_abs() as usize;
        for k in 0..count.min(5) {
            draw_checker(&painter, geo.checker_center(n, k), r, side);
        }
        if count > 5 {
            painter.text(
                geo.checker_center(n, 4),
                Align2::CENTER_CENTER,
                count.to_string(),
                FontId::proportional(r),
                if side == Side::White {
                    Color32::BLACK
                } else {
                    Color32::WHITE
                },
            );
        }
    }
    for side in [Side::White, Side::Black] {
        let own = side == viewer;
        let on_bar = usize::from(board.bar[side.index()]);
        for k in 0..on_bar.min(4) {
            draw_checker(&painter, geo.bar_center(own, k), r, side);
        }
        if on_bar > 1 {
            painter.text(
                geo.bar_center(own, 0),
                Align2::CENTER_CENTER,
                on_bar.to_string(),
                FontId::proportional(r),
                Color32::RED,
            );
        }
        let off = board.off[side.index()];
        let tray = geo.tray(own);
        let slab = (tray.height() - 4.0) / 15.0;
        for k in 0..off {
            let y = if own {
                tray.bottom() - 2.0 - slab * (f32::from(k) + 1.0)
            } else {
                tray.top() + 2.0 + slab * f32::from(k)
            };
            let slab_rect =
                Rect::from_min_size(pos2(tray.left() + 3.0, y), vec2(u - 6.0, slab - 1.0));
            painter.rect_filled(slab_rect, 1.0, checker_colour(side));
        }
    }

    // Highlights: movable checkers and the selection.
    for loc in &view.movable {
        if let Some(c) = top_checker(&geo, board, viewer, *loc) {
            painter.circle_stroke(
                c,
                r + 1.0,
                Stroke::new(2.0, Color32::from_rgb(120, 220, 120)),
            );
        }
    }
    if let Some(loc) = view.selected
        && let Some(c) = top_checker(&geo, board, viewer, loc)
    {
        painter.circle_stroke(c, r + 2.0, Stroke::new(3.5, Color32::from_rgb(255, 220, 0)));
    }

    // The last play: a ring on each checker it moved, a dot where it left.
    for (from, to) in &view.last_move {
        if let Some(c) = top_checker(&geo, board, viewer, *to) {
            painter.circle_stroke(c, r + 1.5, Stroke::new(2.5, LAST_MOVE));
        }
        if let Loc::Point(n) = from {
            let base = geo.checker_center(*n, 0);
            painter.circle_filled(base, r * 0.25, LAST_MOVE);
        }
    }

    // Dice in the middle of the mover's half (right half for the viewer).
    if let Some((side, dice)) = view.dice {
        let half_center_x = if side == viewer {
            geo.column_left(7) + 3.0 * u
        } else {
            geo.column_left(0) + 3.0 * u
        };
        let y = geo.rect.center().y;
        let left: Vec<u8> = view.dice_left.clone().unwrap_or_else(|| dice.to_vec());
        let mut remaining = left.clone();
        let shown: Vec<u8> = if dice[0] == dice[1] {
            vec![dice[0]; if left.len() > 2 { left.len() } else { 2 }]
        } else {
            dice.to_vec()
        };
        let n = shown.len() as f32;
        for (i, d) in shown.iter().enumerate() {
            let x = half_center_x + (i as f32 - (n - 1.0) / 2.0) * u * 1.1;
            let used = match remaining.iter().position(|x| x == d) {
                Some(j) => {
                    remaining.remove(j);
                    false
                }
                None => view.dice_left.is_some(),
            };
            draw_die(&painter, pos2(x, y), u * 0.8, *d, side, used);
        }
    }

    // The cube: centred in the tray column, or beside its owner's tray.
    if let Some(cube) = view.cube {
        let x = geo.column_left(13) + u / 2.0;
        let mid = geo.rect.center().y;
        let y = match cube.owner {
            None => mid,
            Some(s) if s == viewer => mid + u * 0.8,
            Some(_) => mid - u * 0.8,
        };
        let c = pos2(x, y);
        let rect = Rect::from_center_size(c, vec2(u * 0.8, u * 0.8));
        painter.rect_filled(rect, 3.0, Color32::from_rgb(250, 250, 245));
        let value = if cube.owner.is_none() && cube.value <= 1 {
            64
        } else {
            cube.value
        };
        painter.text(
            c,
            Align2::CENTER_CENTER,
            value.to_string(),
            FontId::proportional(u * 0.38),
            Color32::BLACK,
        );
    }

    // A checker in flight.
    if let Some((from, to, side, t)) = view.flying {
        let own = side == viewer;
        let a = geo.loc_center(from, count_at(board, viewer, from, side), own);
        let b = geo.loc_center(to, count_at(board, viewer, to, side), own);
        draw_checker(&painter, a + (b - a) * t.clamp(0.0, 1.0), r, side);
    }

    if let Some((_, at)) = dragged {
        draw_checker(&painter, at, r, viewer);
    }

    if !view.interactive {
        return None;
    }
    if response.drag_started() {
        let start = ui.input(|i| i.pointer.press_origin());
        if let Some(loc) = start.and_then(|p| geo.loc_at(p)) {
            return Some(BoardInput::DragStart(loc));
        }
    }
    if response.drag_stopped() {
        let end = response
            .interact_pointer_pos()
            .or_else(|| ui.input(|i| i.pointer.latest_pos()));
        if let Some(loc) = end.and_then(|p| geo.loc_at(p)) {
            return Some(BoardInput::DragEnd(loc));
        }
    }
    if response.clicked() {
        return response
            .interact_pointer_pos()
            .and_then(|p| geo.loc_at(p))
            .map(BoardInput::Click);
    }
    if response.secondary_clicked() {
        return response
            .interact_pointer_pos()
            .and_then(|p| geo.loc_at(p))
            .map(BoardInput::SecondaryClick);
    }
    None
}

/// `board` with one of `side`'s checkers taken up from `loc` (a viewer place).
fn lift(board: &Board, side: Side, loc: Loc) -> Board {
    let mut out = *board;
    match loc {
        Loc::Point(n) => {
            let count = &mut out.points[abs_index(side, n)];
            *count -= count.signum();
        }
        Loc::Bar => out.bar[side.index()] = out.bar[side.index()].saturating_sub(1),
        Loc::Off => {}
    }
    out
}

fn count_at(board: &Board, viewer: Side, loc: Loc, side: Side) -> usize {
    match loc {
        Loc::Point(n) => usize::from(board.points[abs_index(viewer, n)].unsigned_abs()),
        Loc::Bar => usize::from(board.bar[side.index()]),
        Loc::Off => 0,
    }
}

fn top_checker(geo: &BgGeometry, board: &Board, viewer: Side, loc: Loc) -> Option<Pos2> {
    match loc {
        Loc::Point(n) => {
            let count = usize::from(board.points[abs_index(viewer, n)].unsigned_abs());
            (count > 0).then(|| geo.checker_center(n, count - 1))
        }
        Loc::Bar => (board.bar[viewer.index()] > 0).then(|| geo.bar_center(true, 0)),
        Loc::Off => None,
    }
}

fn draw_checker(painter: &egui::Painter, c: Pos2, r: f32, side: Side) {
    painter.circle_filled(c + vec2(1.5, 2.0), r, Color32::from_black_alpha(80));
    let fill = checker_colour(side);
    let rim = match side {
        Side::White => Color32::from_rgb(170, 160, 140),
        Side::Black => Color32::from_rgb(10, 10, 10),
    };
    painter.circle_filled(c, r, fill);
    painter.circle_stroke(c, r, Stroke::new(1.5, rim));
    painter.circle_stroke(c, r * 0.65, Stroke::new(1.0, rim));
}

fn draw_die(painter: &egui::Painter, c: Pos2, size: f32, value: u8, side: Side, used: bool) {
    let rect = Rect::from_center_size(c, vec2(size, size));
    let (fill, pip) = match side {
        Side::White => (Color32::from_rgb(245, 242, 230), Color32::BLACK),
        Side::Black => (Color32::from_rgb(40, 36, 36), Color32::WHITE),
    };
    let fill = if used { fill.gamma_multiply(0.4) } else { fill };
    painter.rect_filled(rect, size * 0.15, fill);
    let q = size * 0.27;
    let spots: &[(f32, f32)] = match value {
        1 => &[(0.0, 0.0)],
        2 => &[(-1.0, -1.0), (1.0, 1.0)],
        3 => &[(-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)],
        4 => &[(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)],
        5 => &[
            (-1.0, -1.0),
            (1.0, -1.0),
            (0.0, 0.0),
            (-1.0, 1.0),
            (1.0, 1.0),
        ],
        _ => &[
            (-1.0, -1.0),
            (1.0, -1.0),
            (-1.0, 0.0),
            (1.0, 0.0),
            (-1.0, 1.0),
            (1.0, 1.0),
        ],
    };
    for (dx, dy) in spots {
        painter.circle_filled(c + vec2(dx * q, dy * q), size * 0.08, pip);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geo() -> BgGeometry {
        BgGeometry::fit(Rect::from_min_size(pos2(-5.0, -5.0), vec2(150.0, 130.0)))
    }

    #[test]
    fn every_point_maps_back_from_its_checkers() {
        let g = geo();
        assert_eq!(g.unit, 10.0);
        for n in 1..=24 {
            for k in 0..5 {
                assert_eq!(
                    g.loc_at(g.checker_center(n, k)),
                    Some(Loc::Point(n)),
                    "point {n}"
                );
            }
        }
    }

    #[test]
    fn layout_is_the_usual_one() {
        let g = geo();
        // Home board lower right: the 1-point is the rightmost bottom column before the bar/tray.
        assert_eq!(g.loc_at(pos2(125.0, 115.0)), Some(Loc::Point(1)));
        assert_eq!(g.loc_at(pos2(75.0, 115.0)), Some(Loc::Point(6)));
        assert_eq!(g.loc_at(pos2(5.0, 115.0)), Some(Loc::Point(12)));
        assert_eq!(g.loc_at(pos2(5.0, 5.0)), Some(Loc::Point(13)));
        assert_eq!(g.loc_at(pos2(125.0, 5.0)), Some(Loc::Point(24)));
        assert_eq!(g.loc_at(pos2(65.0, 60.0)), Some(Loc::Bar));
        assert_eq!(g.loc_at(pos2(135.0, 100.0)), Some(Loc::Off));
        assert_eq!(g.loc_at(pos2(-5.0, 60.0)), None);
    }

    /// Issue 26 #13: the dragged checker was not drawn under the cursor.
    #[test]
    fn the_dragged_checker_follows_the_pointer() {
        use egui::{Event, Modifiers, PointerButton};
        use tabula_shared::backgammon::Position;
        let board = Board::from_position(&Position::START, Side::White);
        let view = BgView {
            viewer: Some(Side::White),
            selected: Some(Loc::Point(6)),
            movable: vec![Loc::Point(6)],
            interactive: true,
            ..BgView::default()
        };
        let mut h = egui_kittest::Harness::builder()
            .with_size([600.0, 500.0])
            .build_ui(|ui| {
                show(ui, &board, &view);
            });
        h.run();
        let g = BgGeometry::fit(Rect::from_min_size(pos2(0.0, 0.0), vec2(600.0, 500.0)));
        let from = g.checker_center(6, 0);
        let to = from + vec2(-90.0, -120.0);
        h.event(Event::PointerMoved(from));
        h.event(Event::PointerButton {
            pos: from,
            button: PointerButton::Primary,
            pressed: true,
            modifiers: Modifiers::NONE,
        });
        h.step();
        for k in 1..=4 {
            h.event(Event::PointerMoved(from + (to - from) * (k as f32 / 4.0)));
            h.step();
        }
        let white = checker_colour(Side::White);
        let under_pointer = h.output().shapes.iter().any(|s| match &s.shape {
            egui::Shape::Circle(c) => c.fill == white && c.center.distance(to) < 1.0,
            _ => false,
        });
        assert!(under_pointer, "no checker drawn at {to:?}");
    }

    #[test]
    fn abs_indices_mirror_for_black() {
        assert_eq!(abs_index(Side::White, 1), 0);
        assert_eq!(abs_index(Side::Black, 1), 23);
        assert_eq!(abs_index(Side::Black, 24), 0);
        assert_eq!(Loc::from_number(25), Loc::Bar);
        assert_eq!(Loc::from_number(0), Loc::Off);
        assert_eq!(Loc::Point(7).number(), 7);
    }
}
