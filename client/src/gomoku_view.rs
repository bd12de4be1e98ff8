//! The Gomoku board, painted with egui shapes: wood, grid, star points,
//! coordinates, shaded stones, last-move marker, move numbers, a preview
//! stone where a move is legal, the winning line and renju forbidden points.
//!
//! Drawing reads the game and returns the point the player clicked; it never
//! changes any state itself.

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, Ui, Vec2, pos2, vec2};
use tabula_shared::gomoku::{Board, Gomoku, Point, Stone};
use tabula_shared::seat::Seat;

use crate::settings::GomokuStyle;

/// Where the intersections of a board of `size` lie on the screen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GomokuGeometry {
    /// The whole board, margins included.
    pub rect: Rect,
    /// Screen position of `a1` (x = 0, y = 0), the lower-left intersection.
    pub origin: Pos2,
    /// Distance between neighbouring lines.
    pub cell: f32,
    /// Lines per side.
    pub size: u8,
    /// Turned half a circle: `a1` at the top right.
    pub flipped: bool,
}

impl GomokuGeometry {
    /// The largest square board that fits `available`, with one cell of
    /// margin on every side for the coordinates.
    pub fn fit(available: Rect, size: u8) -> GomokuGeometry {
        let side = available.width().min(available.height()).max(50.0);
        let cell = side / (f32::from(size.max(2)) + 1.0);
        let rect = Rect::from_center_size(available.center(), Vec2::splat(side));
        let origin = pos2(rect.left() + cell, rect.bottom() - cell);
        GomokuGeometry {
            rect,
            origin,
            cell,
            size,
            flipped: false,
        }
    }

    /// The same board, turned half a circle or not.
    pub fn with_flip(self, flipped: bool) -> GomokuGeometry {
        GomokuGeometry { flipped, ..self }
    }

    /// A point as (column, row) counted on the screen from the lower left;
    /// the same map takes screen cells back to points.
    fn screen_cell(&self, x: u8, y: u8) -> (u8, u8) {
        if self.flipped {
            (self.size - 1 - x, self.size - 1 - y)
        } else {
            (x, y)
        }
    }

    /// The screen position of an intersection.
    pub fn to_screen(&self, p: Point) -> Pos2 {
        let (cx, cy) = self.screen_cell(p.x, p.y);
        pos2(
            self.origin.x + f32::from(cx) * self.cell,
            self.origin.y - f32::from(cy) * self.cell,
        )
    }

    /// The intersection under `pos`, if `pos` is within 0.45 cells of one.
    pub fn point_at(&self, pos: Pos2) -> Option<Point> {
        let fx = (pos.x - self.origin.x) / self.cell;
        let fy = (self.origin.y - pos.y) / self.cell;
        let (rx, ry) = (fx.round(), fy.round());
        let max = f32::from(self.size) - 1.0;
        if rx < 0.0 || ry < 0.0 || rx > max || ry > max {
            return None;
        }
        if (fx - rx).abs() > 0.45 || (fy - ry).abs() > 0.45 {
            return None;
        }
        let (x, y) = self.screen_cell(rx as u8, ry as u8);
        Some(Point::new(x, y))
    }
}

/// What the board should show besides the stones.
#[derive(Debug, Clone, Default)]
pub struct GomokuView {
    /// The seat that may click (None for spectators or when not our turn).
    pub clicker: Option<Seat>,
    /// Draw the move number on each stone.
    pub show_numbers: bool,
    /// The winning line to highlight.
    pub line: Vec<Point>,
    /// Renju points forbidden to black, when black is to move.
    pub forbidden: Vec<Point>,
    /// Turn the board half a circle (the coordinates follow).
    pub flipped: bool,
    /// The board's colours.
    pub style: GomokuStyle,
}

/// The colours of one board style.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GomokuPalette {
    /// The board.
    pub board: Color32,
    /// The streaks of grain over it, if any.
    pub grain: Option<Color32>,
    /// The grid lines and star points.
    pub line: Color32,
    /// The coordinates.
    pub label: Color32,
}

/// The colours of `style`.
pub fn palette(style: GomokuStyle) -> GomokuPalette {
    match style {
        GomokuStyle::Wood => GomokuPalette {
            board: WOOD,
            grain: Some(Color32::from_rgba_unmultiplied(160, 110, 60, 18)),
            line: Color32::from_rgb(70, 45, 20),
            label: Color32::from_rgb(60, 40, 20),
        },
        GomokuStyle::Plain => GomokuPalette {
            board: Color32::from_rgb(238, 238, 232),
            grain: None,
            line: Color32::from_rgb(40, 40, 40),
            label: Color32::from_rgb(70, 70, 70),
        },
        GomokuStyle::Dark => GomokuPalette {
            board: Color32::from_rgb(78, 86, 98),
            grain: None,
            line: Color32::from_rgb(170, 178, 190),
            label: Color32::from_rgb(205, 212, 222),
        },
    }
}

/// The star points for a board size (the standard handicap points).
pub fn star_points(size: u8) -> Vec<Point> {
    let s = size;
    if s < 9 {
        return Vec::new();
    }
    let edge = if s >= 13 { 3 } else { 2 };
    let far = s - 1 - edge;
    let mid = s / 2;
    let mut v = vec![
        Point::new(edge, edge),
        Point::new(edge, far),
        Point::new(far, edge),
        Point::new(far, far),
    ];
    if s % 2 == 1 {
        v.push(Point::new(mid, mid));
    }
    v
}

/// The column letter of x (`a`, `b`, ...), as in the rules' notation.
pub fn column_letter(x: u8) -> char {
    char::from(b'a' + x.min(25))
}

/// Wood colour of the board.
pub const WOOD: Color32 = Color32::from_rgb(222, 184, 125);

/// How far the coordinates sit outside the edge lines, in cells: past an
/// edge stone (radius 0.46) and inside the one-cell margin.
const LABEL_OFFSET: f32 = 0.76;

/// The colour that marks the last move.
const LAST_MARK: Color32 = Color32::from_rgb(220, 40, 40);

/// Paints the board and returns the point clicked, if the click is legal.
pub fn show(ui: &mut Ui, game: &Gomoku, view: &GomokuView) -> Option<Point> {
    let available = ui.available_rect_before_wrap();
    let (response, painter) = ui.allocate_painter(available.size(), Sense::click());
    let geo = GomokuGeometry::fit(response.rect, game.size()).with_flip(view.flipped);
    draw_grid(&painter, &geo, view.style);

    // Stones.
    let radius = geo.cell * 0.46;
    for (n, p) in game.moves().iter().enumerate() {
        let Some(stone) = game.get(*p) else { continue };
        let c = geo.to_screen(*p);
        draw_stone(&painter, c, radius, stone, 255);
        if view.show_numbers {
            let text = if stone == Stone::Black {
                Color32::WHITE
            } else {
                Color32::BLACK
            };
            painter.text(
                c,
                Align2::CENTER_CENTER,
                (n + 1).to_string(),
                FontId::proportional((geo.cell * 0.38).clamp(7.0, 15.0)),
                text,
            );
        }
    }
    // The last move: a dot on the stone, or a ring round it when the stone
    // carries its number.
    if let Some(p) = game.moves().last() {
        if view.show_numbers {
            painter.circle_stroke(geo.to_screen(*p), radius + 1.0, Stroke::new(2.5, LAST_MARK));
        } else {
            painter.circle_filled(geo.to_screen(*p), radius * 0.25, LAST_MARK);
        }
    }
    for p in &view.line {
        painter.circle_stroke(
            geo.to_screen(*p),
            radius + 2.0,
            Stroke::new(3.0, Color32::from_rgb(230, 40, 40)),
        );
    }
    for p in &view.forbidden {
        let c = geo.to_screen(*p);
        let d = geo.cell * 0.18;
        let s = Stroke::new(2.0, Color32::from_rgb(200, 30, 30));
        painter.line_segment([c - vec2(d, d), c + vec2(d, d)], s);
        painter.line_segment([c + vec2(-d, d), c + vec2(d, -d)], s);
    }

    // Preview and click, only where the rules allow the move.
    let seat = view.clicker?;
    let hover = response.hover_pos().and_then(|pos| geo.point_at(pos));
    if let Some(p) = hover
        && game.is_legal(seat, p).is_ok()
    {
        draw_stone(
            &painter,
            geo.to_screen(p),
            radius,
            game.stone_to_play(),
            110,
        );
    }
    if response.clicked() {
        let p = response
            .interact_pointer_pos()
            .and_then(|pos| geo.point_at(pos))?;
        if game.is_legal(seat, p).is_ok() {
            return Some(p);
        }
    }
    None
}

/// The wood, the grid, the star points and the coordinates.
fn draw_grid(painter: &egui::Painter, geo: &GomokuGeometry, style: GomokuStyle) {
    let size = geo.size;
    // The board, with its grain.
    let colours = palette(style);
    painter.rect_filled(geo.rect, 6.0, colours.board);
    for i in (0..8).filter(|_| colours.grain.is_some()) {
        let y = geo.rect.top() + geo.rect.height() * (i as f32 + 0.5) / 8.0;
        painter.line_segment(
            [
                pos2(geo.rect.left() + 4.0, y),
                pos2(geo.rect.right() - 4.0, y + 6.0),
            ],
            Stroke::new(
                geo.rect.height() / 30.0,
                colours.grain.unwrap_or(Color32::TRANSPARENT),
            ),
        );
    }
    let line = Stroke::new(1.0, colours.line);
    for i in 0..size {
        let a = geo.to_screen(Point::new(i, 0));
        let b = geo.to_screen(Point::new(i, size - 1));
        painter.line_segment([a, b], line);
        let a = geo.to_screen(Point::new(0, i));
        let b = geo.to_screen(Point::new(size - 1, i));
        painter.line_segment([a, b], line);
    }
    for p in star_points(size) {
        painter.circle_filled(geo.to_screen(p), geo.cell * 0.1, line.color);
    }
    let font = FontId::proportional((geo.cell * 0.4).clamp(8.0, 16.0));
    let label = colours.label;
    // Column letters along the bottom edge and row numbers along the left
    // one, whichever way the board is turned.
    let near = if geo.flipped { size - 1 } else { 0 };
    for i in 0..size {
        let bottom = geo.to_screen(Point::new(i, near)) + vec2(0.0, geo.cell * LABEL_OFFSET);
        painter.text(
            bottom,
            Align2::CENTER_CENTER,
            column_letter(i),
            font.clone(),
            label,
        );
        let left = geo.to_screen(Point::new(near, i)) - vec2(geo.cell * LABEL_OFFSET, 0.0);
        painter.text(
            left,
            Align2::CENTER_CENTER,
            (i + 1).to_string(),
            font.clone(),
            label,
        );
    }
}

/// Paints a set-up `board` (stones without numbers or a last move, any
/// count of each colour) and returns the point clicked, stone or not: the
/// analysis board's set-up by hand.
pub fn show_board(ui: &mut Ui, board: &Board, style: GomokuStyle) -> Option<Point> {
    let available = ui.available_rect_before_wrap();
    let (response, painter) = ui.allocate_painter(available.size(), Sense::click());
    let geo = GomokuGeometry::fit(response.rect, board.size());
    draw_grid(&painter, &geo, style);
    let radius = geo.cell * 0.46;
    for (p, stone) in board.stones() {
        draw_stone(&painter, geo.to_screen(p), radius, stone, 255);
    }
    if response.clicked() {
        return response
            .interact_pointer_pos()
            .and_then(|pos| geo.point_at(pos));
    }
    None
}

/// A stone with a soft shadow and a highlight; `alpha` below 255 for previews.
pub fn draw_stone(painter: &egui::Painter, c: Pos2, r: f32, stone: Stone, alpha: u8) {
    let a = |c: Color32| Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), alpha);
    if alpha == 255 {
        painter.circle_filled(
            c + vec2(r * 0.08, r * 0.1),
            r,
            Color32::from_black_alpha(70),
        );
    }
    let (base, mid, light) = match stone {
        Stone::Black => (
            Color32::from_rgb(15, 15, 18),
            Color32::from_rgb(45, 45, 50),
            Color32::from_rgb(110, 110, 120),
        ),
        Stone::White => (
            Color32::from_rgb(205, 205, 200),
            Color32::from_rgb(235, 235, 230),
            Color32::from_rgb(255, 255, 255),
        ),
    };
    painter.circle_filled(c, r, a(base));
    painter.circle_filled(c - vec2(r * 0.12, r * 0.12), r * 0.75, a(mid));
    painter.circle_filled(c - vec2(r * 0.35, r * 0.35), r * 0.25, a(light));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 26 #13: with move numbers on, the last move lost its mark.
    #[test]
    fn the_last_move_is_marked_with_numbers_on_too() {
        use tabula_shared::seat::Seat;
        let mut game = Gomoku::new(Default::default()).expect("default config");
        game.play(Seat::First, Point::new(7, 7)).expect("legal");
        game.play(Seat::Second, Point::new(8, 8)).expect("legal");
        for show_numbers in [false, true] {
            let view = GomokuView {
                clicker: None,
                show_numbers,
                line: Vec::new(),
                forbidden: Vec::new(),
                flipped: false,
                style: GomokuStyle::Wood,
            };
            let mut h = egui_kittest::Harness::builder()
                .with_size([400.0, 400.0])
                .build_ui(|ui| {
                    show(ui, &game, &view);
                });
            h.run();
            let marks = h
                .output()
                .shapes
                .iter()
                .filter(|s| match &s.shape {
                    egui::Shape::Circle(c) => c.fill == LAST_MARK || c.stroke.color == LAST_MARK,
                    _ => false,
                })
                .count();
            assert_eq!(marks, 1, "numbers {show_numbers}");
        }
    }

    /// Issue 26 #8: the edge coordinates overlapped the stones on the edge.
    #[test]
    fn coordinates_clear_the_edge_stones() {
        use tabula_shared::seat::Seat;
        let mut game = Gomoku::new(Default::default()).expect("default config");
        for (i, p) in [(0, 0), (14, 0), (0, 14), (7, 0), (0, 7)]
            .iter()
            .enumerate()
        {
            let seat = if i % 2 == 0 {
                Seat::First
            } else {
                Seat::Second
            };
            game.play(seat, Point::new(p.0, p.1)).expect("legal");
        }
        let view = GomokuView {
            clicker: None,
            show_numbers: false,
            line: Vec::new(),
            forbidden: Vec::new(),
            flipped: false,
            style: GomokuStyle::Wood,
        };
        let area = std::cell::Cell::new(Rect::NOTHING);
        let mut h = egui_kittest::Harness::builder()
            .with_size([420.0, 420.0])
            .build_ui(|ui| {
                area.set(ui.available_rect_before_wrap());
                show(ui, &game, &view);
            });
        h.run();
        let geo = GomokuGeometry::fit(area.get(), 15);
        let radius = geo.cell * 0.46;
        let labels: Vec<Rect> = h
            .output()
            .shapes
            .iter()
            .filter_map(|s| match &s.shape {
                egui::Shape::Text(t) => Some(t.visual_bounding_rect()),
                _ => None,
            })
            .collect();
        assert!(labels.len() >= 30, "{} labels", labels.len());
        for p in game.moves() {
            let c = geo.to_screen(*p);
            for r in &labels {
                assert!(
                    r.distance_to_pos(c) >= radius,
                    "label {r:?} over the stone at {p:?} ({c:?}, radius {radius})"
                );
            }
        }
    }

    fn geo() -> GomokuGeometry {
        GomokuGeometry::fit(Rect::from_min_size(pos2(0.0, 0.0), vec2(160.0, 200.0)), 15)
    }

    #[test]
    fn corners_and_centre_round_trip() {
        let g = geo();
        assert_eq!(g.cell, 10.0);
        for p in [
            Point::new(0, 0),
            Point::new(14, 14),
            Point::new(7, 7),
            Point::new(3, 11),
        ] {
            assert_eq!(g.point_at(g.to_screen(p)), Some(p));
        }
        // a1 is at the lower left.
        let a1 = g.to_screen(Point::new(0, 0));
        let o15 = g.to_screen(Point::new(14, 14));
        assert!(a1.x < o15.x && a1.y > o15.y);
    }

    #[test]
    fn a_flipped_board_turns_half_a_circle_and_still_round_trips() {
        let g = geo();
        let f = geo().with_flip(true);
        for p in [Point::new(0, 0), Point::new(14, 3), Point::new(7, 7)] {
            assert_eq!(f.point_at(f.to_screen(p)), Some(p));
        }
        // a1 sits where o15 sits on the unflipped board; the centre stays.
        assert_eq!(
            f.to_screen(Point::new(0, 0)),
            g.to_screen(Point::new(14, 14))
        );
        assert_eq!(f.to_screen(Point::new(7, 7)), g.to_screen(Point::new(7, 7)));
    }

    #[test]
    fn pixels_snap_to_the_nearest_point_or_nothing() {
        let g = geo();
        let c = g.to_screen(Point::new(7, 7));
        assert_eq!(g.point_at(c + vec2(4.0, -4.0)), Some(Point::new(7, 7)));
        assert_eq!(g.point_at(c + vec2(6.0, 0.0)), Some(Point::new(8, 7)));
        assert_eq!(g.point_at(c + vec2(5.0, 0.0)), None, "between two lines");
        assert_eq!(
            g.point_at(g.to_screen(Point::new(0, 0)) - vec2(8.0, 0.0)),
            None
        );
    }

    #[test]
    fn star_points_of_common_sizes() {
        assert_eq!(star_points(15).len(), 5);
        assert!(star_points(15).contains(&Point::new(7, 7)));
        assert!(star_points(19).contains(&Point::new(3, 15)));
        assert_eq!(column_letter(14), 'o');
    }
}
