//! [`DicePanel`]: the dice statistics screen. The server counts the dice of
//! its finished Backgammon games (`dice_stats`); the client works out the
//! expected counts and the chi-square p-values with `DiceStats`'s own
//! methods, for every roll on the server and for the player's own.

use egui::{Color32, RichText, Ui};
use rust_i18n::t;
use tabula_shared::backgammon::Dice;
use tabula_shared::fair_dice::ChiSquare;
use tabula_shared::protocol::{DiceStats, DiceStatsReport};

use super::Command;
use super::Screen;
use super::labels::WARN;

/// Below this p-value a test is shown in the warning colour: fair dice give
/// one that low about once in a hundred tests.
pub(super) const LOW_P: f64 = 0.01;

/// The one-line explanation of what the p-values mean.
pub(super) const EXPLANATION: &str = "Each p-value is the chance that fair dice look at least this \
     uneven: a p-value above 0.01 is what fair dice give almost always.";

/// The dice statistics screen's state.
#[derive(Default)]
pub(super) struct DicePanel {
    /// The report last received.
    pub(super) report: Option<DiceStatsReport>,
}

impl DicePanel {
    /// Draws the screen.
    pub(super) fn ui(&self, ui: &mut Ui) -> Vec<Command> {
        let mut out = Vec::new();
        ui.horizontal(|ui| {
            ui.heading(t!("ui.dice_statistics"));
            if ui.button(t!("ui.refresh")).clicked() {
                out.push(Command::ShowScreen(Screen::Dice));
            }
        });
        ui.label(RichText::new(EXPLANATION).small().color(Color32::GRAY));
        ui.separator();
        let Some(report) = &self.report else {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(t!("ui.loading"));
            });
            return out;
        };
        ui.label(format!(
            "{} finished Backgammon game{} on this server.",
            report.games,
            if report.games == 1 { "" } else { "s" }
        ));
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.columns(2, |cols| {
                stats_section(&mut cols[0], "all", "All rolls on this server", &report.all);
                stats_section(&mut cols[1], "yours", "Your rolls", &report.yours);
            });
        });
        out
    }
}

/// One set of counts: the faces, the doubles and the 21 rolls, each with
/// its expected counts and its test.
fn stats_section(ui: &mut Ui, id: &str, title: &str, stats: &DiceStats) {
    ui.label(RichText::new(title).strong().size(16.0));
    if stats.dice() == 0 {
        ui.label(t!("ui.no_dice_yet"));
        return;
    }
    ui.label(format!(
        "{} dice, {} rolls of two dice",
        stats.dice(),
        stats.roll_count()
    ));
    ui.add_space(4.0);
    ui.label(RichText::new("Faces").strong());
    let expected = stats.expected_per_face();
    egui::Grid::new(format!("faces_{id}"))
        .striped(true)
        .num_columns(3)
        .spacing([16.0, 2.0])
        .show(ui, |ui| {
            for h in ["Face", "Seen", "Expected"] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for (face, seen) in stats.faces.iter().enumerate() {
                ui.label((face + 1).to_string());
                ui.label(seen.to_string());
                ui.label(format!("{expected:.1}"));
                ui.end_row();
            }
        });
    test_line(ui, "faces", stats.face_test());
    ui.add_space(4.0);
    ui.label(RichText::new("Doubles").strong());
    ui.label(format!(
        "{} of {} rolls (expected {:.1})",
        stats.doubles(),
        stats.roll_count(),
        stats.expected_doubles()
    ));
    test_line(ui, "doubles", stats.doubles_test());
    ui.add_space(4.0);
    ui.label(RichText::new("The 21 rolls").strong());
    let expected = stats.expected_rolls();
    egui::Grid::new(format!("rolls_{id}"))
        .striped(true)
        .num_columns(3)
        .spacing([16.0, 2.0])
        .show(ui, |ui| {
            for h in ["Roll", "Seen", "Expected"] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for (((dice, _), seen), expected) in Dice::ALL_21.iter().zip(stats.rolls).zip(expected)
            {
                ui.label(format!("{}-{}", dice.a, dice.b));
                ui.label(seen.to_string());
                ui.label(format!("{expected:.1}"));
                ui.end_row();
            }
        });
    test_line(ui, "rolls", stats.roll_test());
}

/// "Chi-square test (faces): p = 0.532", in the warning colour when low.
fn test_line(ui: &mut Ui, what: &str, test: Option<ChiSquare>) {
    let Some(test) = test else {
        ui.label(format!("Chi-square test ({what}): nothing to test yet"));
        return;
    };
    let text = RichText::new(format!(
        "Chi-square test ({what}): p = {}",
        p_text(test.p_value)
    ));
    ui.label(if test.p_value < LOW_P {
        text.color(WARN)
    } else {
        text
    })
    .on_hover_text(format!(
        "χ² = {:.2} with {} degrees of freedom",
        test.statistic, test.degrees_of_freedom
    ));
}

/// A p-value with three decimals, or "< 0.001".
pub(super) fn p_text(p: f64) -> String {
    if p < 0.001 {
        "< 0.001".into()
    } else {
        format!("{p:.3}")
    }
}
