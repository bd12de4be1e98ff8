//! [`Danger`]: an action that cannot be undone (resigning, leaving a game
//! that is still running), and the question asked before it is done.
//!
//! The question is a modal window in the middle of the window, away from the
//! room panel and the top bar where the buttons that ask it sit, so that a
//! double click (on Rematch, say) never answers it.

use egui::{Id, RichText};
use rust_i18n::t;
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
    fn question(self) -> String {
        match self {
            Danger::Resign(None) => t!("confirm.resign"),
            Danger::Resign(Some(ResignKind::Single)) => t!("confirm.resign_single"),
            Danger::Resign(Some(ResignKind::Gammon)) => t!("confirm.resign_gammon"),
            Danger::Resign(Some(ResignKind::Backgammon)) => t!("confirm.resign_backgammon"),
            Danger::LeaveGame => t!("confirm.leave"),
        }
        .into()
    }

    /// What follows from it, in a line under the question.
    fn consequence(self) -> String {
        match self {
            Danger::Resign(None) => t!("confirm.resign_why"),
            Danger::Resign(Some(_)) => t!("confirm.resign_offer_why"),
            Danger::LeaveGame => t!("confirm.leave_why"),
        }
        .into()
    }

    /// The label of the button that does it.
    fn confirm_label(self) -> String {
        match self {
            Danger::Resign(_) => t!("confirm.yes_resign"),
            Danger::LeaveGame => t!("confirm.yes_leave"),
        }
        .into()
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
            if ui.button(t!("confirm.cancel")).clicked() {
                out.push(Command::Ask(None));
            }
            ui.add_space(24.0);
            let confirm = ui.button(RichText::new(danger.confirm_label()).strong());
            crate::probe::mark("confirm-yes", confirm.rect);
            if confirm.clicked() {
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
