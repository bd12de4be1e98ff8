//! Tabula in a browser: starts the same egui app as the desktop client on
//! the page's `<canvas id="tabula">`, served by `tabula-server` (see
//! `server/web/`). The page's address is the server to join, and a
//! `#/room/ID` fragment (an invite link) opens that room.

#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::wasm_bindgen;

/// Runs when the module loads: finds the canvas and starts the app on it.
#[wasm_bindgen(start)]
pub fn start() {
    wasm_bindgen_futures::spawn_local(async {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Some(canvas) = document
            .get_element_by_id("tabula")
            .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            return;
        };
        let started = eframe::WebRunner::new()
            .start(
                canvas,
                eframe::WebOptions::default(),
                Box::new(|cc| Ok(Box::new(tabula_client::TabulaApp::from_creation(cc)))),
            )
            .await;
        if let Err(e) = started {
            let message = format!("Tabula could not start in this browser: {e:?}");
            if let Some(status) = document.get_element_by_id("status") {
                status.set_text_content(Some(&message));
            }
        } else if let Some(status) = document.get_element_by_id("status") {
            status.remove();
        }
    });
}
