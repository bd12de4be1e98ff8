//! The words and marks several screens share: game and level names, a
//! room's rules in one line, the "Rated" colour and the status dot.

use egui::{Color32, Ui};
use rust_i18n::t;
use tabula_shared::gomoku::{Opening, Rule};
use tabula_shared::protocol::{AiLevel, GameKind, GameOptions};

/// The colour of the "Rated" marks.
pub(super) const RATED: Color32 = Color32::from_rgb(230, 180, 60);
/// The colour of good news: a win, a rating gained, a file saved.
pub(super) const GOOD: Color32 = Color32::from_rgb(80, 200, 80);
/// The colour of bad news: a loss, a rating lost, an error.
pub(super) const BAD: Color32 = Color32::from_rgb(230, 80, 60);
/// The colour of a warning: a player disconnected, a record that stops.
pub(super) const WARN: Color32 = Color32::from_rgb(240, 140, 40);

/// A filled circle the size of a glyph (the default fonts have no "●").
pub(super) fn dot(ui: &mut Ui, colour: Color32, size: f32) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::hover());
    ui.painter()
        .circle_filled(rect.center(), size / 2.0, colour);
    ui.painter().circle_stroke(
        rect.center(),
        size / 2.0,
        egui::Stroke::new(1.0, Color32::GRAY),
    );
    response
}

/// An AI level's name.
pub(super) fn level_name(level: AiLevel) -> String {
    match level {
        AiLevel::Beginner => t!("level.beginner"),
        AiLevel::Casual => t!("level.casual"),
        AiLevel::Intermediate => t!("level.intermediate"),
        AiLevel::Advanced => t!("level.advanced"),
        AiLevel::Expert => t!("level.expert"),
    }
    .into()
}

/// A game's name.
pub(super) fn game_name(kind: GameKind) -> String {
    match kind {
        GameKind::Gomoku => t!("game.gomoku"),
        GameKind::Backgammon => t!("game.backgammon"),
    }
    .into()
}

/// A one-line description of a room's rules.
pub fn rules_text(game: &GameOptions) -> String {
    match game {
        GameOptions::Gomoku(c) => {
            let rule = match c.rule {
                Rule::Freestyle => t!("rules.freestyle"),
                Rule::Standard => t!("rules.standard"),
                Rule::Renju => t!("rules.renju"),
            };
            let opening = match c.opening {
                Opening::None => "".into(),
                Opening::Swap2 => t!("rules.swap2"),
            };
            format!("{0}×{0} {rule}{opening}", c.size)
        }
        GameOptions::Backgammon(c) => {
            let mut parts = vec![if c.length == 0 {
                t!("rules.money_game").to_string()
            } else {
                t!("rules.match", length = c.length).to_string()
            }];
            if c.cube {
                parts.push(t!("rules.cube").into());
            }
            if c.crawford && c.length > 0 {
                parts.push(t!("rules.crawford").into());
            }
            if c.jacoby && c.length == 0 {
                parts.push(t!("rules.jacoby").into());
            }
            parts.join(&t!("list.separator"))
        }
    }
}

/// A dice check's line (green when verified, red when it failed) and, for a
/// game the test seed dealt, the note that says so.
pub(super) fn dice_check(ui: &mut Ui, check: &crate::dice_check::DiceCheck) {
    use crate::dice_check::Verdict;
    let text = egui::RichText::new(check.text());
    ui.label(match check.verdict() {
        Verdict::Good => text.color(GOOD).strong(),
        Verdict::Bad => text.color(BAD).strong(),
        Verdict::Neutral => text,
    });
    if let Some(note) = check.note() {
        ui.label(egui::RichText::new(note).italics().color(WARN));
    }
}
