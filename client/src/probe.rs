//! Where the key controls were drawn in the last frame, for a browser test
//! to click them: egui paints everything on one canvas, so the page has no
//! elements to find. In a browser, `tabula_probe()` (exported to the page as
//! `window.tabulaProbe`) returns them as JSON, in CSS pixels; on the desktop
//! the marks cost nothing (kittest finds widgets by their labels instead).

use egui::Rect;

#[cfg(target_arch = "wasm32")]
mod marks {
    use std::cell::RefCell;
    use std::collections::BTreeMap;

    use wasm_bindgen::prelude::wasm_bindgen;

    thread_local! {
        pub(super) static MARKS: RefCell<BTreeMap<String, serde_json::Value>> =
            const { RefCell::new(BTreeMap::new()) };
    }

    /// The marks of the last frame as JSON: `{"name": {"x":..,"y":..,"w":..,"h":..}, ...}`.
    #[wasm_bindgen]
    pub fn tabula_probe() -> String {
        MARKS.with(|m| serde_json::to_string(&*m.borrow()).unwrap_or_default())
    }
}

/// Forgets the last frame's marks (called as a frame starts).
pub fn new_frame() {
    #[cfg(target_arch = "wasm32")]
    marks::MARKS.with(|m| m.borrow_mut().clear());
}

/// Records where the control `name` is.
pub fn mark(name: &str, rect: Rect) {
    #[cfg(target_arch = "wasm32")]
    marks::MARKS.with(|m| {
        m.borrow_mut().insert(
            name.to_string(),
            serde_json::json!({
                "x": rect.min.x, "y": rect.min.y, "w": rect.width(), "h": rect.height()
            }),
        );
    });
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (name, rect);
}

/// Records a value that is not a place (a board's size, say).
pub fn note(name: &str, value: f32) {
    #[cfg(target_arch = "wasm32")]
    marks::MARKS.with(|m| {
        m.borrow_mut()
            .insert(name.to_string(), serde_json::json!(value));
    });
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (name, value);
}
