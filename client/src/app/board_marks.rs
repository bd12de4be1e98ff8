//! What the engines add on top of a painted Gomoku board: the analysis's
//! better point next to the stone played and, for a mistake, the forced
//! line behind it drawn faintly; and in a room, the first hint's point.
//! Painted after the board, with the board's own geometry.

use egui::{Align2, Color32, FontId, Stroke, Ui};
use tabula_shared::gomoku::{Point, Stone};
use tabula_shared::protocol::{GomokuMistake, GomokuMoveReview};

use crate::gomoku_view::GomokuGeometry;

/// The ring around the engine's choice.
const BEST: Color32 = Color32::from_rgb(40, 200, 90);
/// The ring around a hinted point.
const HINT: Color32 = Color32::from_rgb(60, 140, 240);

/// The engine's choice for the move shown (unless it is the stone played)
/// and, for a mistake, the winning line the move overlooked or allowed, as
/// faint numbered stones.
pub(super) fn review_marks(ui: &Ui, geo: &GomokuGeometry, review: &GomokuMoveReview) {
    let painter = ui.painter();
    if let Some(best) = review.best.filter(|b| *b != review.played) {
        let at = geo.to_screen(best);
        painter.circle_stroke(at, geo.cell * 0.42, Stroke::new(3.0, BEST));
        painter.circle_filled(at, geo.cell * 0.12, BEST);
    }
    let Some(mistake) = review.mistake else {
        return;
    };
    // The line alternates attacker and defender, attacker first: the mover
    // attacks in a missed win, the opponent otherwise.
    let attacker = match mistake {
        // The line is the Expert's better stone, of the mover's colour.
        GomokuMistake::MissedWin | GomokuMistake::Mistake => review.stone,
        GomokuMistake::MissedBlock | GomokuMistake::AllowedWin => review.stone.opponent(),
    };
    let font = FontId::proportional((geo.cell * 0.38).clamp(7.0, 14.0));
    for (n, p) in review.line.iter().enumerate() {
        let stone = if n % 2 == 0 {
            attacker
        } else {
            attacker.opponent()
        };
        let (fill, text) = match stone {
            Stone::Black => (Color32::from_black_alpha(90), Color32::WHITE),
            Stone::White => (Color32::from_white_alpha(150), Color32::BLACK),
        };
        let at = geo.to_screen(*p);
        painter.circle_filled(at, geo.cell * 0.4, fill);
        painter.text(
            at,
            Align2::CENTER_CENTER,
            (n + 1).to_string(),
            font.clone(),
            text,
        );
    }
}

/// The first hint's point: a blue ring around a blue dot.
pub(super) fn hint_mark(ui: &Ui, geo: &GomokuGeometry, point: Point) {
    let painter = ui.painter();
    let at = geo.to_screen(point);
    painter.circle_stroke(at, geo.cell * 0.42, Stroke::new(3.0, HINT));
    painter.circle_filled(at, geo.cell * 0.14, HINT);
}
