//! The analysis section of the replay viewer's panel: the "Analyse" button,
//! the progress while the server works, why it was refused, and once the
//! analysis is there each player's totals and the review of the move shown
//! (what was played, the engine's choice, Backgammon's candidates with
//! their equities).

use egui::{Color32, RichText, Ui};
use rust_i18n::t;
use tabula_shared::protocol::{BgAnalysis, BgDecisionKind, GameAnalysis};

use super::Command;
use super::labels::WARN;
use crate::analysis::{
    AnalysisState, Severity, bg_reviews, busy_text, gomoku_review, gomoku_tally, mark_name,
    mistake_name,
};
use crate::replay::Replay;

/// The colour of a mark: yellow `?!`, orange `?`, red `??`.
pub(super) fn severity_colour(severity: Severity) -> Color32 {
    match severity {
        Severity::Inaccuracy => Color32::from_rgb(214, 180, 40),
        Severity::Error => Color32::from_rgb(235, 125, 30),
        Severity::Blunder => Color32::from_rgb(225, 55, 50),
    }
}

/// Draws the section; "Analyse" returns [`Command::Analyse`].
pub(super) fn analysis_panel(ui: &mut Ui, replay: &Replay, state: &AnalysisState) -> Vec<Command> {
    let mut out = Vec::new();
    ui.label(RichText::new(t!("analysis.title")).strong());
    match state {
        AnalysisState::Running { done, total, .. } => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(t!("analysis.running"));
            });
            let fraction = if *total == 0 {
                0.0
            } else {
                *done as f32 / *total as f32
            };
            ui.add(egui::ProgressBar::new(fraction).text(t!(
                "analysis.progress",
                done = done,
                total = total
            )));
        }
        AnalysisState::Done(analysis) => {
            crate::probe::note("analysed", 1.0);
            summary(ui, replay, analysis);
            ui.separator();
            current_review(ui, replay, analysis);
        }
        AnalysisState::NotAsked | AnalysisState::Busy { .. } | AnalysisState::Failed(_) => {
            if let AnalysisState::Busy { retry_after_ms } = state {
                ui.label(RichText::new(busy_text(*retry_after_ms)).color(WARN));
            }
            if let AnalysisState::Failed(why) = state {
                ui.label(RichText::new(why).color(WARN));
            }
            let analyse = ui
                .button(t!("analysis.analyse"))
                .on_hover_text(t!("analysis.analyse_hint"));
            crate::probe::mark("analyse", analyse.rect);
            if analyse.clicked() {
                out.push(Command::Analyse);
            }
        }
    }
    out
}

/// Each player's totals: Backgammon's error rate, marks and luck; Gomoku's
/// mistakes by kind.
fn summary(ui: &mut Ui, replay: &Replay, analysis: &GameAnalysis) {
    match analysis {
        GameAnalysis::Backgammon(bg) => bg_summary(ui, replay, bg),
        GameAnalysis::Gomoku(_) => {
            let tally = gomoku_tally(analysis);
            for (colour, tally) in [t!("analysis.black"), t!("analysis.white")]
                .iter()
                .zip(tally)
            {
                let text = if tally.total() == 0 {
                    t!("analysis.no_mistakes", colour = colour)
                } else {
                    t!(
                        "analysis.gomoku_tally",
                        colour = colour,
                        n = tally.total(),
                        wins = tally.missed_wins,
                        blocks = tally.missed_blocks,
                        allowed = tally.allowed_wins,
                        others = tally.mistakes
                    )
                };
                ui.label(text);
            }
        }
    }
    let engine = match analysis {
        GameAnalysis::Backgammon(bg) => &bg.engine,
        GameAnalysis::Gomoku(g) => &g.engine,
    };
    ui.label(
        RichText::new(t!("analysis.engine", engine = engine))
            .small()
            .weak(),
    );
}

/// Backgammon: one row per player.
fn bg_summary(ui: &mut Ui, replay: &Replay, bg: &BgAnalysis) {
    let names = replay.players();
    egui::Grid::new("analysis-summary")
        .num_columns(4)
        .spacing([10.0, 2.0])
        .show(ui, |ui| {
            ui.label("");
            ui.label(RichText::new(t!("analysis.error_rate")).small())
                .on_hover_text(t!("analysis.error_rate_hint"));
            ui.label(RichText::new(t!("analysis.marks")).small())
                .on_hover_text(t!("analysis.marks_hint"));
            ui.label(RichText::new(t!("analysis.luck")).small())
                .on_hover_text(t!("analysis.luck_hint"));
            ui.end_row();
            for player in &bg.players {
                let name = &names[player.side.index()];
                ui.label(format!("{name} ({})", crate::room::side_name(player.side)));
                ui.label(format!("{:.1}", player.error_rate_mp));
                ui.label(format!(
                    "{} / {} / {}",
                    player.inaccuracies, player.errors, player.blunders
                ));
                ui.label(format!("{:+.3}", player.luck));
                ui.end_row();
            }
        });
}

/// What the engine said about the move that led to the position shown.
fn current_review(ui: &mut Ui, replay: &Replay, analysis: &GameAnalysis) {
    let pos = replay.position();
    match analysis {
        GameAnalysis::Gomoku(_) => {
            let Some(review) = gomoku_review(analysis, pos) else {
                ui.label(RichText::new(t!("analysis.no_review")).weak());
                return;
            };
            let best = review
                .best
                .map(|p| p.to_string())
                .unwrap_or_else(|| "–".into());
            ui.label(t!(
                "analysis.gomoku_move",
                played = review.played,
                best = best,
                eval = super::hint_panel::signed(review.eval)
            ));
            if let Some(mistake) = review.mistake {
                let colour = severity_colour(Severity::of_gomoku(mistake));
                ui.label(RichText::new(mistake_name(mistake)).strong().color(colour));
                if !review.line.is_empty() {
                    let line: Vec<String> = review.line.iter().map(|p| p.to_string()).collect();
                    ui.label(
                        RichText::new(t!("analysis.line", line = line.join(" ")))
                            .small()
                            .italics(),
                    );
                }
            }
        }
        GameAnalysis::Backgammon(_) => {
            let reviews = bg_reviews(analysis, pos);
            if reviews.is_empty() {
                ui.label(RichText::new(t!("analysis.no_review")).weak());
            }
            for review in reviews {
                let text = t!(
                    "analysis.bg_move",
                    played = review.played,
                    best = review.best
                );
                ui.label(RichText::new(text).strong());
                let mut detail = t!(
                    "analysis.equity",
                    played = format!("{:+.3}", review.equity_played),
                    best = format!("{:+.3}", review.equity_best)
                )
                .into_owned();
                if let Some(mark) = review.mark {
                    detail = format!("{detail} · {}", mark_name(mark));
                }
                let colour = review
                    .mark
                    .map(|m| severity_colour(Severity::of_mark(m)))
                    .unwrap_or(ui.visuals().text_color());
                ui.label(RichText::new(detail).color(colour));
                if review.kind == BgDecisionKind::Play && !review.candidates.is_empty() {
                    candidates(ui, review);
                }
            }
        }
    }
}

/// The engine's top plays with their equities and their distance from the
/// best; the one played is in bold.
fn candidates(ui: &mut Ui, review: &tabula_shared::protocol::BgDecisionReview) {
    let best = review.candidates[0].equity;
    egui::Grid::new(("candidates", review.index))
        .num_columns(3)
        .spacing([10.0, 1.0])
        .striped(true)
        .show(ui, |ui| {
            for (n, c) in review.candidates.iter().enumerate() {
                let text = format!("{}. {}", n + 1, c.play);
                let played = c.play == review.played;
                ui.label(if played {
                    RichText::new(text).monospace().strong()
                } else {
                    RichText::new(text).monospace()
                });
                ui.label(RichText::new(format!("{:+.3}", c.equity)).monospace());
                ui.label(if n == 0 {
                    String::new()
                } else {
                    format!("{:+.3}", c.equity - best)
                });
                ui.end_row();
            }
        });
}
