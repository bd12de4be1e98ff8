//! [`Toasts`]: the short notices shown in the lower right corner for a few
//! seconds.

use std::time::Duration;
use web_time::Instant;

use egui::Align2;

/// How long a toast stays.
const TOAST_SECS: u64 = 5;
/// The widest a toast grows before its text wraps (between words).
const MAX_TOAST_WIDTH: f32 = 360.0;
/// How many toasts are shown at most; older ones make room.
const MAX_TOASTS: usize = 5;

/// The toasts on screen, oldest first, with the time each appeared.
#[derive(Default)]
pub(super) struct Toasts {
    shown: Vec<(String, Instant)>,
}

impl Toasts {
    /// Shows a notice.
    pub(super) fn push(&mut self, text: impl Into<String>) {
        self.shown.push((text.into(), Instant::now()));
        if self.shown.len() > MAX_TOASTS {
            self.shown.remove(0);
        }
    }

    /// Drops the toasts that have been shown long enough.
    pub(super) fn expire(&mut self) {
        self.shown
            .retain(|t| t.1.elapsed() < Duration::from_secs(TOAST_SECS));
    }

    /// Whether no toast is shown.
    pub(super) fn is_empty(&self) -> bool {
        self.shown.is_empty()
    }

    /// The texts, oldest first.
    pub(super) fn texts(&self) -> Vec<String> {
        self.shown.iter().map(|t| t.0.clone()).collect()
    }

    /// Draws the toasts.
    pub(super) fn ui(&self, ctx: &egui::Context) {
        if self.shown.is_empty() {
            return;
        }
        egui::Area::new(egui::Id::unique("toasts"))
            .anchor(Align2::RIGHT_BOTTOM, [-12.0, -12.0])
            .show(ctx, |ui| {
                for (text, _) in &self.shown {
                    egui::Frame::popup(ui.style()).show(ui, |ui| {
                        // As wide as the text on one line, up to a limit:
                        // an area sizes itself small, and would otherwise
                        // break the words themselves apart.
                        let one_line = egui::WidgetText::from(text.as_str())
                            .into_galley(
                                ui,
                                Some(egui::TextWrapMode::Extend),
                                f32::INFINITY,
                                egui::TextStyle::Body,
                            )
                            .size()
                            .x;
                        ui.set_width(one_line.min(MAX_TOAST_WIDTH));
                        ui.add(egui::Label::new(text).wrap());
                    });
                }
            });
    }
}
