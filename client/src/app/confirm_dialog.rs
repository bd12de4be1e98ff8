//! [`Danger`]: an action that cannot be undone (resigning, leaving a game
//! that is still running), and the question asked before it is done.
//!
//! The question is a modal window in the middle of the window, away from the
//! room panel and the top bar where the buttons that ask it sit, so that a
//! double click (on Rematch, say) never answers it.

use egui::{Id, RichText};
use tabula_shared::backgammon::ResignKind;

use super::Command;

/// An action that is asked about once before it is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Danger {
    /// Resign the game; Backgammon says how much is conceded.
    Resign(Option<ResignKind>),
    /// Leave the room while our game is running: the seat is given up.
    LeaveGame,
}

impl Danger {
    /// The question.
    fn question(self) -> &'static str {
        match self {
            Danger::Resign(None) => "Resign this game?",
            Danger::Resign(Some(ResignKind::Single)) => "Resign a single game?",
            Danger::Resign(Some(ResignKind::Gammon)) => "Resign a gammon?",
            Danger::Resign(Some(ResignKind::Backgammon)) => "Resign a backgammon?",
            Danger::LeaveGame => "Leave the game?",
        }
    }

    /// What follows from it, in a line under the question.
    fn consequence(self) -> &'static str {
        match self {
            Danger::Resign(None) => "Your opponent wins the game.",
            Danger::Resign(Some(_)) => "Your opponent may accept it and win these points.",
            Danger::LeaveGame => {
                "Your game is still running: leaving gives up your seat, \
                 and your opponent may claim the win."
            }
        }
    }

    /// The label of the button that does it.
    fn confirm_label(self) -> &'static str {
        match self {
            Danger::Resign(_) => "Yes, resign",
            Danger::LeaveGame => "Yes, leave",
        }
    }

    /// The command it stands for.
    pub fn command(self) -> Command {
        match self {
            Danger::Resign(kind) => Command::Resign(kind),
            Danger::LeaveGame => Command::Leave,
        }
    }
}

/// Draws the question; Cancel (or Esc, or a click beside it) drops it.
pub(super) fn confirm_dialog(ctx: &egui::Context, danger: Danger) -> Vec<Command> {
    let mut out = Vec::new();
    let response = egui::Modal::new(Id::unique("confirm_danger")).show(ctx, |ui| {
        ui.set_max_width(360.0);
        ui.heading(danger.question());
        ui.label(danger.consequence());
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            // Cancel first: it is the one a stray click should find.
            if ui.button("Cancel").clicked() {
                out.push(Command::Ask(None));
            }
            ui.add_space(24.0);
            if ui
                .button(RichText::new(danger.confirm_label()).strong())
                .clicked()
            {
                out.push(Command::Ask(None));
                out.push(danger.command());
            }
        });
    });
    if response.should_close() && out.is_empty() {
        out.push(Command::Ask(None));
    }
    out
}
