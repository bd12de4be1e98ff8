//! `tabula-client`: opens the Tabula window.

fn main() -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Tabula")
            .with_inner_size([1180.0, 760.0])
            .with_min_inner_size([720.0, 480.0]),
        ..eframe::NativeOptions::default()
    };
    eframe::run_native(
        "tabula",
        options,
        Box::new(|cc| Ok(Box::new(tabula_client::TabulaApp::from_creation(cc)))),
    )
}
