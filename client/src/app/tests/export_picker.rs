//! The export window's "Choose…" button and the "Save as" dialog's answer,
//! on the drawn app (`egui_kittest`). The dialog itself is the system's
//! (no portal runs here), so its answer is handed in through the picker.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use super::app;
use super::defects::finished_gomoku;
use crate::app::{Command, TabulaApp};
use crate::file_picker::FilePicker;

#[test]
fn the_chosen_file_becomes_the_export_path() {
    let (mut app, _rx) = app();
    app.replay.replay = Some(crate::replay::Replay::new(finished_gomoku(), None));
    app.apply(Command::ExportReplay);
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_accessibility_check(false)
        .build_ui_state(|ui, app: &mut TabulaApp| app.draw(ui), app);
    h.run_steps(3);
    assert!(h.query_by_label("Choose…").is_some(), "no Choose… button");
    let before = h.state().export_form().expect("export window").path.clone();
    assert!(
        before.ends_with("tabula 1970-01-01 Ada vs Bob.sgf"),
        "{before}"
    );

    // A cancelled dialog leaves the path as it was.
    h.state_mut().file_picker = FilePicker::answered(None);
    h.run_steps(2);
    assert_eq!(h.state().export_form().expect("open").path, before);
    assert!(!h.state().file_picker.is_open());

    let chosen = std::env::temp_dir().join("ada-vs-bob.sgf");
    h.state_mut().file_picker = FilePicker::answered(Some(chosen.clone()));
    h.run_steps(2);
    let form = h.state().export_form().expect("still open");
    assert_eq!(form.path, chosen.display().to_string());
    assert!(!h.state().file_picker.is_open());
}
