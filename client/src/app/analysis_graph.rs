//! The evaluation graph under the replay's board: Gomoku's outlook for
//! Black (−1 to +1) per stone, or White's equity per Backgammon decision,
//! with the marked moves as coloured dots and the position shown as a
//! vertical line. A click on the graph shows the move nearest to it.

use egui::{Color32, Ui};
use egui_plot::{Line, MarkerShape, Plot, PlotPoint, PlotTransform, Points, VLine};
use rust_i18n::t;
use tabula_shared::protocol::GameAnalysis;

use super::Command;
use super::analysis_panel::severity_colour;
use crate::analysis::{GraphPoint, Severity, graph_points};

/// Draws the graph; returns the command of a click on it, and where the
/// graph's points are on the screen (for tests and tools).
pub(super) fn evaluation_graph(
    ui: &mut Ui,
    analysis: &GameAnalysis,
    position: usize,
    moves: usize,
) -> (Option<Command>, PlotTransform) {
    let points = graph_points(analysis);
    let label = match analysis {
        GameAnalysis::Gomoku(_) => t!("analysis.graph_gomoku"),
        GameAnalysis::Backgammon(_) => t!("analysis.graph_backgammon"),
    };
    let line: Vec<[f64; 2]> = points
        .iter()
        .map(|p| [p.position as f64, f64::from(p.value)])
        .collect();
    ui.label(egui::RichText::new(t!("analysis.graph_caption", what = label)).small());
    let response = Plot::new("evaluation-graph")
        .height(150.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .include_y(-1.1)
        .include_y(1.1)
        .include_x(0.0)
        // The whole game, as the move counter above counts it ("Move n of
        // m"), not only up to its last judged decision.
        .include_x(moves as f64)
        .x_axis_label(t!("analysis.graph_moves"))
        .show(ui, |plot| {
            plot.hline(
                egui_plot::HLine::new("", 0.0)
                    .color(Color32::GRAY)
                    .width(0.5),
            );
            plot.line(
                Line::new(t!("analysis.graph_evaluation"), line)
                    .color(Color32::from_rgb(90, 150, 230))
                    .width(2.0),
            );
            for severity in [Severity::Inaccuracy, Severity::Error, Severity::Blunder] {
                let marked: Vec<[f64; 2]> = points
                    .iter()
                    .filter(|p| p.severity == Some(severity))
                    .map(|p| [p.position as f64, f64::from(p.value)])
                    .collect();
                if !marked.is_empty() {
                    plot.points(
                        Points::new(severity.symbol(), marked)
                            .shape(MarkerShape::Circle)
                            .filled(true)
                            .radius(4.5)
                            .color(severity_colour(severity)),
                    );
                }
            }
            plot.vline(
                VLine::new("", position as f64)
                    .color(Color32::from_rgb(240, 200, 80))
                    .width(1.5),
            );
            let clicked = plot.response().clicked();
            clicked
                .then(|| plot.pointer_coordinate())
                .flatten()
                .and_then(|at| nearest(&points, at))
        });
    let command = response.inner.map(Command::ReplayGo);
    (command, response.transform)
}

/// The position of the graph point nearest to `at` along the moves.
fn nearest(points: &[GraphPoint], at: PlotPoint) -> Option<usize> {
    points
        .iter()
        .min_by(|a, b| {
            let da = (a.position as f64 - at.x).abs();
            let db = (b.position as f64 - at.x).abs();
            da.total_cmp(&db)
        })
        .map(|p| p.position)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_click_goes_to_the_nearest_move() {
        let points = [3, 4, 9].map(|position| GraphPoint {
            position,
            value: 0.0,
            severity: None,
        });
        assert_eq!(nearest(&points, PlotPoint::new(3.4, 0.9)), Some(3));
        assert_eq!(nearest(&points, PlotPoint::new(7.0, -1.0)), Some(9));
        assert_eq!(nearest(&[], PlotPoint::new(7.0, -1.0)), None);
    }
}
