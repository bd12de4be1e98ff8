//! Where the side panel goes: beside the board on a wide window, below it
//! on a narrow one (a phone held upright), so that the board keeps the
//! full width and nothing overlaps.

use egui::Ui;

/// Below this width the panel moves under the board.
pub const NARROW: f32 = 640.0;

/// Whether the window is narrow enough to stack the panel under the board.
pub fn is_narrow(ui: &Ui) -> bool {
    ui.available_width() < NARROW
}

/// Shows the panel `id`: on the right, `width` wide, or below the board,
/// in the lower part of a narrow window. The panel scrolls what it must
/// itself (the room keeps the turn's controls in view above what scrolls).
pub fn side_panel<R>(ui: &mut Ui, id: &str, width: f32, add: impl FnOnce(&mut Ui) -> R) -> R {
    if is_narrow(ui) {
        let height = (ui.available_height() * 0.42).max(160.0);
        // Its own id: a panel remembers its size, and the right panel's
        // height would be far too tall for a panel below the board.
        egui::Panel::bottom(format!("{id}-below"))
            .resizable(true)
            .default_size(height)
            .show(ui, add)
            .inner
    } else {
        egui::Panel::right(id.to_string())
            .default_size(width)
            .show(ui, add)
            .inner
    }
}
