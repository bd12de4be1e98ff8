//! The "Create room" dialog: the game, its rules, the opponent, the colour
//! and the clock, kept in the saved [`CreateForm`] so the next room starts
//! from the same choices.

use egui::{Align2, Ui};
use tabula_shared::gomoku::{Opening, Rule};
use tabula_shared::protocol::{AiLevel, ColourChoice, GameKind};

use super::Command;
use super::labels::level_name;
use crate::settings::CreateForm;

/// Draws the dialog; `registered` enables the "Rated" box.
pub(super) fn create_dialog(
    ctx: &egui::Context,
    f: &mut CreateForm,
    registered: bool,
) -> Vec<Command> {
    let mut out = Vec::new();
    egui::Window::new("Create room")
        .collapsible(false)
        .resizable(false)
        // Held by its top edge: rows appearing or going below (the rules of
        // the other game) never move the rows above under the pointer.
        .anchor(Align2::CENTER_TOP, [0.0, 48.0])
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label("Game");
                ui.radio_value(&mut f.game, GameKind::Gomoku, "Gomoku");
                ui.radio_value(&mut f.game, GameKind::Backgammon, "Backgammon");
            });
            ui.separator();
            match f.game {
                GameKind::Gomoku => gomoku_rules(ui, f),
                GameKind::Backgammon => backgammon_rules(ui, f),
            }
            ui.separator();
            seating(ui, f);
            clock(ui, f);
            ui.checkbox(&mut f.private, "Private (join by code)");
            // Always there (greyed against the AI), so that the rows do not
            // move when the opponent changes.
            let mut rated = f.rated && registered && !f.vs_ai;
            let response = ui
                .add_enabled(
                    registered && !f.vs_ai,
                    egui::Checkbox::new(&mut rated, "Rated"),
                )
                .on_hover_text("The result changes both players' ratings")
                .on_disabled_hover_text(if f.vs_ai {
                    "Games against the AI are not rated"
                } else {
                    "Rated games are for registered names: register yours under Account…"
                });
            if response.changed() {
                f.rated = rated;
            }
            ui.separator();
            ui.horizontal(|ui| {
                if ui.button("Create").clicked() {
                    out.push(Command::CreateRoom);
                }
                if ui.button("Cancel").clicked() {
                    out.push(Command::ShowCreate(false));
                }
            });
        });
    out
}

/// Board size, rule and opening.
fn gomoku_rules(ui: &mut Ui, f: &mut CreateForm) {
    ui.horizontal(|ui| {
        ui.label("Board");
        ui.radio_value(&mut f.size, 15, "15×15");
        ui.radio_value(&mut f.size, 19, "19×19");
    });
    ui.horizontal(|ui| {
        ui.label("Rules");
        ui.radio_value(&mut f.rule, Rule::Freestyle, "Freestyle");
        ui.radio_value(&mut f.rule, Rule::Standard, "Standard");
        ui.radio_value(&mut f.rule, Rule::Renju, "Renju");
    });
    ui.horizontal(|ui| {
        ui.label("Opening");
        ui.radio_value(&mut f.opening, Opening::None, "None");
        ui.radio_value(&mut f.opening, Opening::Swap2, "Swap2");
    });
}

/// Match length, cube and its rules.
fn backgammon_rules(ui: &mut Ui, f: &mut CreateForm) {
    ui.horizontal(|ui| {
        ui.label("Match to");
        ui.add(egui::DragValue::new(&mut f.length).range(0..=25));
        ui.label(if f.length == 0 {
            "(money game)"
        } else {
            "points"
        });
    });
    ui.horizontal(|ui| {
        ui.checkbox(&mut f.cube, "Cube");
        ui.checkbox(&mut f.crawford, "Crawford");
        ui.checkbox(&mut f.jacoby, "Jacoby");
    });
}

/// The opponent (a person or an AI level) and our colour.
fn seating(ui: &mut Ui, f: &mut CreateForm) {
    ui.horizontal(|ui| {
        ui.label("Opponent");
        ui.radio_value(&mut f.vs_ai, false, "Human");
        ui.radio_value(&mut f.vs_ai, true, "AI");
        if f.vs_ai {
            egui::ComboBox::from_id_salt("level")
                .selected_text(level_name(f.level))
                .show_ui(ui, |ui| {
                    for l in AiLevel::ALL {
                        ui.selectable_value(&mut f.level, l, level_name(l));
                    }
                });
        }
    });
    ui.horizontal(|ui| {
        ui.label("Colour");
        // The first seat's colour comes first: black in Gomoku, white in Backgammon.
        let choices = match f.game {
            GameKind::Gomoku => [
                (ColourChoice::Black, "Black (first)"),
                (ColourChoice::White, "White"),
            ],
            GameKind::Backgammon => [
                (ColourChoice::White, "White"),
                (ColourChoice::Black, "Black"),
            ],
        };
        for (colour, label) in choices {
            ui.radio_value(&mut f.colour, colour, label);
        }
        ui.radio_value(&mut f.colour, ColourChoice::Random, "Random");
    });
}

/// The clock: minutes per player and the increment per move.
fn clock(ui: &mut Ui, f: &mut CreateForm) {
    ui.horizontal(|ui| {
        ui.checkbox(&mut f.timed, "Clock");
        if f.timed {
            ui.add(
                egui::DragValue::new(&mut f.minutes)
                    .range(1..=180)
                    .suffix(" min"),
            );
            ui.label("+");
            ui.add(
                egui::DragValue::new(&mut f.increment)
                    .range(0..=60)
                    .suffix(" s"),
            );
        }
    });
}
