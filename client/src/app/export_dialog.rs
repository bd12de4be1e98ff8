//! The "Save game" window: a finished game's file format and path, and
//! whether it was saved. The form itself is [`ExportForm`].

use egui::RichText;
use rust_i18n::t;

use super::Command;
use super::labels::{BAD, GOOD, game_name};
use crate::export::ExportForm;

/// Draws the window.
pub(super) fn export_dialog(ctx: &egui::Context, form: &mut ExportForm) -> Vec<Command> {
    let mut out = Vec::new();
    let mut open = true;
    egui::Window::new(t!("ui.save_game"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            let summary = &form.game.summary;
            let meta = form.meta();
            ui.label(t!(
                "export.heading",
                game = game_name(summary.options.game.kind()),
                first = meta.players[0],
                second = meta.players[1],
                date = meta.date.unwrap_or_default()
            ));
            let formats = form.formats();
            if formats.is_empty() {
                ui.label(t!("export.cannot"));
                return;
            }
            ui.horizontal(|ui| {
                ui.label(t!("ui.format"));
                for f in formats {
                    if ui.radio(form.format == Some(*f), f.label()).clicked() {
                        out.push(Command::ExportFormat(*f));
                    }
                }
            });
            ui.horizontal(|ui| {
                let l = ui.label(t!("ui.file"));
                ui.add(egui::TextEdit::singleline(&mut form.path).desired_width(420.0))
                    .labelled_by(l.id);
                // The system's "Save as" dialog (a browser downloads instead).
                #[cfg(not(target_arch = "wasm32"))]
                if ui.button(t!("export.choose")).clicked() {
                    out.push(Command::ChooseExportPath);
                }
            });
            if ui.button(t!("ui.save")).clicked() {
                out.push(Command::SaveExport);
            }
            match &form.outcome {
                Some(Ok(path)) => {
                    ui.label(RichText::new(t!("export.saved", path = path)).color(GOOD));
                }
                Some(Err(e)) => {
                    ui.label(RichText::new(t!("export.not_saved", error = e)).color(BAD));
                }
                None => {}
            }
        });
    // Esc closes it, as the close button does.
    if !open || ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
        out.push(Command::CloseExport);
    }
    out
}
