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
        ui.label(
            RichText::new(t!("dice.explanation"))
                .small()
                .color(Color32::GRAY),
        );
        ui.separator();
        let Some(report) = &self.report else {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(t!("ui.loading"));
            });
            return out;
        };
        ui.label(if report.games == 1 {
            t!("dice.games_one")
        } else {
            t!("dice.games", n = report.games)
        });
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.columns(2, |cols| {
                stats_section(&mut cols[0], "all", &t!("dice.all_rolls"), &report.all);
                stats_section(&mut cols[1], "yours", &t!("dice.your_rolls"), &report.yours);
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
    ui.label(if stats.roll_count() == 1 {
        t!("dice.counts_one", dice = stats.dice())
    } else {
        t!(
            "dice.counts",
            dice = stats.dice(),
            rolls = stats.roll_count()
        )
    });
    ui.add_space(4.0);
    ui.label(RichText::new(t!("dice.faces")).strong());
    let expected = stats.expected_per_face();
    egui::Grid::new(format!("faces_{id}"))
        .striped(true)
        .num_columns(3)
        .spacing([16.0, 2.0])
        .show(ui, |ui| {
            for h in ["dice.face", "dice.seen", "dice.expected"] {
                ui.label(RichText::new(t!(h)).strong());
            }
            ui.end_row();
            for (face, seen) in stats.faces.iter().enumerate() {
                ui.label((face + 1).to_string());
                ui.label(seen.to_string());
                ui.label(format!("{expected:.1}"));
                ui.end_row();
            }
        });
    test_line(ui, &t!("dice.faces_test"), stats.face_test());
    ui.add_space(4.0);
    ui.label(RichText::new(t!("dice.doubles")).strong());
    ui.label(t!(
        "dice.doubles_count",
        doubles = stats.doubles(),
        rolls = stats.roll_count(),
        expected = format!("{:.1}", stats.expected_doubles())
    ));
    test_line(ui, &t!("dice.doubles_test"), stats.doubles_test());
    ui.add_space(4.0);
    ui.label(RichText::new(t!("dice.the_21_rolls")).strong());
    let expected = stats.expected_rolls();
    egui::Grid::new(format!("rolls_{id}"))
        .striped(true)
        .num_columns(3)
        .spacing([16.0, 2.0])
        .show(ui, |ui| {
            for h in ["dice.roll", "dice.seen", "dice.expected"] {
                ui.label(RichText::new(t!(h)).strong());
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
    test_line(ui, &t!("dice.rolls_test"), stats.roll_test());
}

/// "Chi-square test (faces): p = 0.532", in the warning colour when low.
fn test_line(ui: &mut Ui, what: &str, test: Option<ChiSquare>) {
    let Some(test) = test else {
        ui.label(t!("dice.test_nothing", what = what));
        return;
    };
    let text = RichText::new(t!("dice.test_p", what = what, p = p_text(test.p_value)));
    ui.label(if test.p_value < LOW_P {
        text.color(WARN)
    } else {
        text
    })
    .on_hover_text(t!(
        "dice.chi_square",
        statistic = format!("{:.2}", test.statistic),
        df = test.degrees_of_freedom
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
