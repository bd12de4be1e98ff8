//! The "Create room" dialog: the game, its rules, the opponent, the colour
//! and the clock, kept in the saved [`CreateForm`] so the next room starts
//! from the same choices.

use egui::{Align2, Ui};
use rust_i18n::t;
use tabula_shared::gomoku::{Opening, Rule};
use tabula_shared::protocol::{AiLevel, ColourChoice, EngineInfo, GameKind};

use super::Command;
use super::labels::level_name;
use crate::probe;
use crate::settings::CreateForm;

/// Draws the dialog; `registered` enables the "Rated" box; `engines` are
/// the server's, offered next to the AI levels.
pub(super) fn create_dialog(
    ctx: &egui::Context,
    f: &mut CreateForm,
    registered: bool,
    engines: &[EngineInfo],
) -> Vec<Command> {
    let mut out = Vec::new();
    egui::Window::new(t!("ui.create_room"))
        .collapsible(false)
        .resizable(false)
        // Held by its top edge: rows appearing or going below (the rules of
        // the other game) never move the rows above under the pointer.
        .anchor(Align2::CENTER_TOP, [0.0, 48.0])
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label(t!("ui.game"));
                let gomoku = ui.radio_value(&mut f.game, GameKind::Gomoku, t!("ui.gomoku"));
                probe::mark("game-gomoku", gomoku.rect);
                let backgammon =
                    ui.radio_value(&mut f.game, GameKind::Backgammon, t!("ui.backgammon"));
                probe::mark("game-backgammon", backgammon.rect);
            });
            ui.separator();
            match f.game {
                GameKind::Gomoku => gomoku_rules(ui, f),
                GameKind::Backgammon => backgammon_rules(ui, f),
            }
            ui.separator();
            let engines: Vec<&str> = engines
                .iter()
                .filter(|e| e.game == f.game)
                .map(|e| e.name.as_str())
                .collect();
            seating(ui, f, &engines);
            clock(ui, f);
            ui.checkbox(&mut f.private, t!("ui.private_join_by_code"));
            // Always there (greyed for guests), so that the rows do not
            // move when the opponent changes.
            let mut rated = f.rated && registered;
            let response = ui
                .add_enabled(registered, egui::Checkbox::new(&mut rated, t!("ui.rated")))
                .on_hover_text(if f.vs_ai {
                    t!("create.rated_against_the_ai")
                } else {
                    t!("ui.the_result_changes_both_players_ratings")
                })
                .on_disabled_hover_text(t!("create.rated_needs_account"));
            if response.changed() {
                f.rated = rated;
            }
            // Hints: a choice against a person in an unrated room; the AI's
            // rooms always allow them, a rated room never does. Always
            // shown (greyed out where it is no choice), so that picking the
            // opponent does not move the buttons below.
            let mut hints = if f.vs_ai { !rated } else { f.hints && !rated };
            let response = ui
                .add_enabled(
                    !rated && !f.vs_ai,
                    egui::Checkbox::new(&mut hints, t!("create.allow_hints")),
                )
                .on_hover_text(t!("create.allow_hints_hint"))
                .on_disabled_hover_text(if f.vs_ai {
                    t!("create.hints_against_the_ai")
                } else {
                    t!("create.hints_not_rated")
                });
            if response.changed() && !f.vs_ai {
                f.hints = hints;
            }
            ui.separator();
            ui.horizontal(|ui| {
                let create = ui.button(t!("ui.create"));
                probe::mark("create", create.rect);
                if create.clicked() {
                    out.push(Command::CreateRoom);
                }
                if ui.button(t!("ui.cancel")).clicked() {
                    out.push(Command::ShowCreate(false));
                }
            });
        });
    out
}

/// Board size, rule and opening.
pub(super) fn gomoku_rules(ui: &mut Ui, f: &mut CreateForm) {
    ui.horizontal(|ui| {
        ui.label(t!("ui.board"));
        ui.radio_value(&mut f.size, 15, "15×15");
        ui.radio_value(&mut f.size, 19, "19×19");
    });
    ui.horizontal(|ui| {
        ui.label(t!("ui.rules"));
        ui.radio_value(&mut f.rule, Rule::Freestyle, t!("ui.freestyle"));
        ui.radio_value(&mut f.rule, Rule::Standard, t!("ui.standard"));
        ui.radio_value(&mut f.rule, Rule::Renju, t!("ui.renju"));
    });
    ui.horizontal(|ui| {
        ui.label(t!("ui.opening"));
        ui.radio_value(&mut f.opening, Opening::None, t!("ui.none"));
        ui.radio_value(&mut f.opening, Opening::Swap2, t!("ui.swap2"));
    });
}

/// Match length, cube and its rules.
pub(super) fn backgammon_rules(ui: &mut Ui, f: &mut CreateForm) {
    ui.horizontal(|ui| {
        ui.label(t!("ui.match_to"));
        ui.add(egui::DragValue::new(&mut f.length).range(0..=25));
        ui.label(if f.length == 0 {
            t!("create.money_game")
        } else {
            t!("create.points")
        });
    });
    // A 1-point match has no doubling; Crawford is for matches, Jacoby for
    // money games: what does not apply is greyed out (and not sent).
    ui.horizontal(|ui| {
        ui.add_enabled(
            f.length != 1,
            egui::Checkbox::new(&mut f.cube, t!("ui.cube")),
        );
        ui.add_enabled(
            f.length > 1 && f.cube,
            egui::Checkbox::new(&mut f.crawford, t!("ui.crawford")),
        );
        ui.add_enabled(
            f.length == 0 && f.cube,
            egui::Checkbox::new(&mut f.jacoby, t!("ui.jacoby")),
        );
    });
}

/// The opponent (a person, an AI level or one of the server's `engines`
/// for this game) and our colour.
fn seating(ui: &mut Ui, f: &mut CreateForm, engines: &[&str]) {
    // A saved choice of an engine this server does not offer for this game.
    if f.engine.as_deref().is_some_and(|e| !engines.contains(&e)) {
        f.engine = None;
    }
    ui.horizontal(|ui| {
        ui.label(t!("ui.opponent"));
        ui.radio_value(&mut f.vs_ai, false, t!("ui.human"));
        let ai = ui.radio_value(&mut f.vs_ai, true, t!("ui.ai"));
        probe::mark("opponent-ai", ai.rect);
        if f.vs_ai {
            let selected = f.engine.clone().unwrap_or_else(|| level_name(f.level));
            egui::ComboBox::from_id_salt("level")
                .selected_text(selected)
                .show_ui(ui, |ui| {
                    for l in AiLevel::ALL {
                        let chosen = f.engine.is_none() && f.level == l;
                        if ui.selectable_label(chosen, level_name(l)).clicked() {
                            f.level = l;
                            f.engine = None;
                        }
                    }
                    for &name in engines {
                        let chosen = f.engine.as_deref() == Some(name);
                        if ui.selectable_label(chosen, name).clicked() {
                            f.engine = Some(name.to_string());
                        }
                    }
                });
        }
    });
    ui.horizontal(|ui| {
        ui.label(t!("ui.colour"));
        // The first seat's colour comes first: black in Gomoku, white in Backgammon.
        let choices = match f.game {
            GameKind::Gomoku => [
                (ColourChoice::Black, t!("create.black_first")),
                (ColourChoice::White, t!("create.white")),
            ],
            GameKind::Backgammon => [
                (ColourChoice::White, t!("create.white")),
                (ColourChoice::Black, t!("create.black")),
            ],
        };
        let chosen = match f.game {
            GameKind::Gomoku => &mut f.colour,
            GameKind::Backgammon => &mut f.bg_colour,
        };
        for (colour, label) in choices {
            ui.radio_value(chosen, colour, label);
        }
        ui.radio_value(chosen, ColourChoice::Random, t!("ui.random"));
    });
}

/// The clock: minutes per player and the increment per move.
fn clock(ui: &mut Ui, f: &mut CreateForm) {
    ui.horizontal(|ui| {
        ui.checkbox(&mut f.timed, t!("ui.clock"));
        if f.timed {
            clock_fields(ui, &mut f.minutes, &mut f.increment);
        }
    });
}

/// Minutes per player (1 to 180) "+" seconds added per move (0 to 60).
pub(super) fn clock_fields(ui: &mut Ui, minutes: &mut u32, increment: &mut u32) {
    ui.add(
        egui::DragValue::new(minutes)
            .range(1..=180)
            .suffix(t!("ui.min")),
    );
    ui.label("+");
    ui.add(
        egui::DragValue::new(increment)
            .range(0..=60)
            .suffix(t!("ui.s")),
    );
}
