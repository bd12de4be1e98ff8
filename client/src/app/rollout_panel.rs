//! [`RolloutPanel`]: the analysis board's Backgammon rollout: how many
//! trials, Roll out and Stop, the progress, and each candidate's
//! rolled-out equity with its 95% interval.

use egui::{RichText, Ui};
use rust_i18n::t;
use tabula_shared::protocol::{BgRollout, ClientMessage, RolloutState};
use tabula_shared::study::StudyPosition;

use super::requests::Requests;

/// The trial counts offered: 1296 is gnubg's default (every pair of first
/// rolls once).
const TRIAL_CHOICES: [u32; 3] = [324, 1296, 5184];

/// What the player asked for, sent with the next frame's requests.
enum Wanted {
    Start(StudyPosition),
    Stop,
}

/// The rollout's state on the board.
pub(super) struct RolloutPanel {
    trials: u32,
    /// The rollout in work: its request and position.
    running: Option<(u64, StudyPosition)>,
    /// The latest report and the position it is of.
    report: Option<(StudyPosition, BgRollout)>,
    wanted: Option<Wanted>,
    /// Why the last rollout was refused.
    error: Option<String>,
}

impl Default for RolloutPanel {
    fn default() -> RolloutPanel {
        RolloutPanel {
            trials: TRIAL_CHOICES[1],
            running: None,
            report: None,
            wanted: None,
            error: None,
        }
    }
}

impl RolloutPanel {
    /// The latest report of `position`, when there is one.
    pub(super) fn report_of(&self, position: &StudyPosition) -> Option<&BgRollout> {
        self.report
            .as_ref()
            .filter(|(p, _)| p == position)
            .map(|(_, r)| r)
    }

    /// Sends what the player asked for.
    pub(super) fn send_wanted(&mut self, requests: &mut Requests) {
        match self.wanted.take() {
            Some(Wanted::Start(position)) => {
                let id = requests.send(ClientMessage::Rollout {
                    position: position.clone(),
                    trials: Some(self.trials),
                });
                self.running = Some((id, position));
                self.error = None;
            }
            Some(Wanted::Stop) => {
                requests.send(ClientMessage::StopRollout);
            }
            None => {}
        }
    }

    /// A report from the server: kept when it is of our latest rollout.
    pub(super) fn reported(
        &mut self,
        request_id: Option<u64>,
        position: StudyPosition,
        rollout: BgRollout,
    ) {
        let Some((id, _)) = &self.running else {
            return;
        };
        if request_id != Some(*id) {
            return; // an older rollout's last words
        }
        if rollout.state != RolloutState::Running {
            self.running = None;
        }
        self.report = Some((position, rollout));
    }

    /// A refusal of our rollout: `true` when it was ours.
    pub(super) fn refused(&mut self, request_id: Option<u64>, text: String) -> bool {
        match &self.running {
            Some((id, _)) if request_id == Some(*id) => {
                self.running = None;
                self.error = Some(text);
                true
            }
            _ => false,
        }
    }

    /// The controls and the figures for `position`.
    pub(super) fn ui(&mut self, ui: &mut Ui, position: &StudyPosition) {
        let running_here = self.running.as_ref().is_some_and(|(_, p)| p == position);
        if self.running.is_some() || self.wanted.is_some() {
            // The progress moves while it runs, whatever wakes the page.
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(250));
        }
        ui.horizontal_wrapped(|ui| {
            ui.label(t!("study.rollout_trials"));
            for n in TRIAL_CHOICES {
                let choice = ui.selectable_value(&mut self.trials, n, n.to_string());
                crate::probe::mark(&format!("rollout-{n}"), choice.rect);
            }
            if running_here {
                let stop = ui.button(t!("study.rollout_stop"));
                crate::probe::mark("rollout-stop", stop.rect);
                if stop.clicked() {
                    self.wanted = Some(Wanted::Stop);
                }
            } else {
                let start = ui.button(t!("study.rollout_start"));
                crate::probe::mark("rollout-start", start.rect);
                if start.clicked() {
                    self.wanted = Some(Wanted::Start(position.clone()));
                }
            }
        });
        if let Some(error) = &self.error {
            ui.label(RichText::new(error).color(super::labels::WARN));
        }
        let Some(report) = self.report_of(position) else {
            if running_here {
                ui.label(t!("study.rollout_waiting"));
            }
            return;
        };
        let done = report.trials_done as f32 / report.trials.max(1) as f32;
        let state = match report.state {
            RolloutState::Running => t!("study.rollout_running"),
            RolloutState::Finished => t!("study.rollout_finished"),
            RolloutState::Stopped => t!("study.rollout_stopped"),
        };
        ui.add(egui::ProgressBar::new(done).text(format!(
            "{state}: {} / {}",
            report.trials_done, report.trials
        )));
        let table = egui::Grid::new("study-rollout")
            .striped(true)
            .show(ui, |ui| {
                ui.label("");
                ui.label(RichText::new(t!("study.rollout_equity")).small());
                ui.label(RichText::new(t!("study.rollout_cubeless")).small());
                ui.label(RichText::new(t!("study.rollout_win")).small());
                ui.end_row();
                for line in &report.lines {
                    let name = if line.notation.is_empty() {
                        t!("study.rollout_position").to_string()
                    } else {
                        line.notation.clone()
                    };
                    ui.monospace(name);
                    ui.monospace(format!("{:+.3}", line.equity));
                    ui.monospace(format!("{:+.3} ± {:.3}", line.cubeless, line.cubeless_ci));
                    ui.label(format!("{:.1}%", line.chances.win * 100.0));
                    ui.end_row();
                }
            });
        if report.state == RolloutState::Finished {
            crate::probe::mark("rollout-done", table.response.rect);
        }
        if let Some(cube) = &report.cube {
            let action = match cube.action {
                tabula_shared::protocol::CubeAction::NoDouble => t!("study.no_double"),
                tabula_shared::protocol::CubeAction::DoubleTake => t!("study.double_take"),
                tabula_shared::protocol::CubeAction::DoublePass => t!("study.double_pass"),
                tabula_shared::protocol::CubeAction::TooGood => t!("study.too_good"),
            };
            ui.label(RichText::new(t!("study.rollout_cube", action = action)).strong());
        }
    }
}
