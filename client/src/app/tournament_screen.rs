//! [`TournamentScreen`]: the tournament list, the page of the tournament we
//! follow (see `tournament_page`), the create dialog's fields, and what the
//! server tells about them.

use egui::{RichText, Ui};
use rust_i18n::t;
use tabula_shared::protocol::{
    ClientMessage, HostAction, TournamentFormat, TournamentId, TournamentStatus, TournamentSummary,
    TournamentView,
};

use super::Command;
use super::labels::game_name;
use super::requests::Requests;
use super::tournament_dialog::TournamentForm;
use crate::probe;

/// What the player asks of the tournament screens.
#[derive(Debug, Clone, PartialEq)]
pub enum TournamentAsk {
    /// Ask for the list again.
    Refresh,
    /// Open a tournament's page and follow it.
    Open(TournamentId),
    /// Back from a page to the list.
    Close,
    /// Open or close the create dialog.
    ShowCreate(bool),
    /// Create a tournament from the dialog's fields.
    Create,
    /// Enter the tournament on the page.
    Join,
    /// Enter the private tournament whose id and code were typed.
    JoinByCode,
    /// Leave the tournament on the page.
    Withdraw,
    /// The host: start, pause, add an entrant...
    Manage(HostAction),
}

/// The tournament screens' state.
#[derive(Default)]
pub(super) struct TournamentScreen {
    /// The list last received, newest first.
    pub(super) list: Vec<TournamentSummary>,
    /// The tournament whose page is open (we follow it).
    pub(super) open: Option<TournamentId>,
    /// The open tournament as last told (`None` until its first message).
    pub(super) view: Option<TournamentView>,
    /// A private tournament's code, as its creator was given it.
    pub(super) codes: Vec<(TournamentId, String)>,
    /// The create dialog is open.
    pub(super) create_open: bool,
    /// The create dialog's fields.
    pub(super) form: TournamentForm,
    /// The "join a private tournament" fields: its id and code.
    pub(super) private_id: String,
    pub(super) private_code: String,
}

impl TournamentScreen {
    /// Applies what the player asked; `game` is the game and rules chosen
    /// in the create dialog.
    pub(super) fn apply(
        &mut self,
        ask: TournamentAsk,
        game: tabula_shared::protocol::GameOptions,
        requests: &mut Requests,
    ) {
        match ask {
            TournamentAsk::Refresh => {
                requests.send(ClientMessage::ListTournaments);
            }
            TournamentAsk::Open(id) => self.follow(Some(id), requests),
            TournamentAsk::Close => {
                self.follow(None, requests);
                requests.send(ClientMessage::ListTournaments);
            }
            TournamentAsk::ShowCreate(open) => self.create_open = open,
            TournamentAsk::Create => {
                let spec = self.form.spec(game);
                requests.send(ClientMessage::CreateTournament { spec });
                self.create_open = false;
            }
            TournamentAsk::Join => {
                if let Some(tournament_id) = self.open.clone() {
                    let code = self.code_of(&tournament_id);
                    requests.send(ClientMessage::JoinTournament {
                        tournament_id,
                        code,
                    });
                }
            }
            TournamentAsk::JoinByCode => {
                let tournament_id = self.private_id.trim().to_string();
                let code = self.private_code.trim().to_string();
                if tournament_id.is_empty() {
                    return;
                }
                self.codes.push((tournament_id.clone(), code.clone()));
                requests.send(ClientMessage::JoinTournament {
                    tournament_id: tournament_id.clone(),
                    code: (!code.is_empty()).then_some(code),
                });
                self.follow(Some(tournament_id), requests);
            }
            TournamentAsk::Withdraw => {
                if let Some(tournament_id) = self.open.clone() {
                    requests.send(ClientMessage::WithdrawTournament { tournament_id });
                }
            }
            TournamentAsk::Manage(action) => {
                if let Some(tournament_id) = self.open.clone() {
                    requests.send(ClientMessage::ManageTournament {
                        tournament_id,
                        action,
                    });
                }
            }
        }
    }

    /// Follows `id` (or nothing), no longer following the one before.
    fn follow(&mut self, id: Option<TournamentId>, requests: &mut Requests) {
        if self.open == id {
            return;
        }
        if let Some(tournament_id) = self.open.take() {
            requests.send(ClientMessage::UnwatchTournament { tournament_id });
        }
        self.view = None;
        if let Some(tournament_id) = id {
            requests.send(ClientMessage::WatchTournament {
                tournament_id: tournament_id.clone(),
            });
            self.open = Some(tournament_id);
        }
    }

    /// After `tournament_created`: its page opens, and a private one's code
    /// is kept to show its host.
    pub(super) fn created(
        &mut self,
        id: TournamentId,
        code: Option<String>,
        requests: &mut Requests,
    ) {
        if let Some(code) = code {
            self.codes.push((id.clone(), code));
        }
        self.follow(Some(id), requests);
    }

    /// A `tournament` message: the page's, if it is the one we follow.
    pub(super) fn told(&mut self, view: TournamentView) {
        if self.open.as_deref() != Some(view.id.as_str()) {
            return;
        }
        // Each message has the next number; an older one arriving late
        // (after a reconnect) never replaces a newer.
        if self.view.as_ref().is_some_and(|v| v.seq > view.seq) {
            return;
        }
        self.view = Some(view);
    }

    /// Follows the open tournament again on a new connection.
    pub(super) fn rewatch(&mut self, requests: &mut Requests) {
        if let Some(tournament_id) = self.open.clone() {
            requests.send(ClientMessage::WatchTournament { tournament_id });
        }
    }

    /// The code we know for a private tournament.
    pub(super) fn code_of(&self, id: &str) -> Option<String> {
        self.codes
            .iter()
            .rev()
            .find(|(t, _)| t == id)
            .map(|(_, c)| c.clone())
    }

    /// Draws the list, or the open tournament's page; `me` is our id.
    pub(super) fn ui(&mut self, ui: &mut Ui, me: &str, registered: bool) -> Vec<Command> {
        if self.open.is_some() {
            return super::tournament_page::page(ui, self, me);
        }
        self.list_ui(ui, registered)
    }

    /// The list, "New tournament" and the private tournament's fields.
    fn list_ui(&mut self, ui: &mut Ui, registered: bool) -> Vec<Command> {
        let mut out = Vec::new();
        ui.heading(t!("tour.title"));
        ui.horizontal_wrapped(|ui| {
            let create = ui
                .add_enabled(registered, egui::Button::new(t!("tour.new")))
                .on_disabled_hover_text(t!("tour.new_needs_account"));
            probe::mark("tour-new", create.rect);
            if create.clicked() {
                out.push(Command::Tournament(TournamentAsk::ShowCreate(true)));
            }
            if ui.button(t!("ui.refresh")).clicked() {
                out.push(Command::Tournament(TournamentAsk::Refresh));
            }
        });
        ui.separator();
        if self.list.is_empty() {
            ui.label(t!("tour.none_yet"));
        } else {
            egui::ScrollArea::vertical()
                .max_height((ui.available_height() - 120.0).max(120.0))
                .show(ui, |ui| {
                    for s in &self.list {
                        if summary_row(ui, s) {
                            out.push(Command::Tournament(TournamentAsk::Open(s.id.clone())));
                        }
                        ui.separator();
                    }
                });
        }
        ui.add_space(8.0);
        ui.label(RichText::new(t!("tour.private")).strong());
        ui.horizontal_wrapped(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut self.private_id)
                    .hint_text(t!("tour.id"))
                    .desired_width(120.0),
            )
            .labelled_by(ui.label(t!("tour.id")).id);
            ui.add(
                egui::TextEdit::singleline(&mut self.private_code)
                    .hint_text(t!("tour.code"))
                    .desired_width(80.0),
            )
            .labelled_by(ui.label(t!("tour.code")).id);
            if ui.button(t!("tour.join")).clicked() {
                out.push(Command::Tournament(TournamentAsk::JoinByCode));
            }
        });
        out
    }
}

/// One line of the list; true when its "Open" was clicked.
fn summary_row(ui: &mut Ui, s: &TournamentSummary) -> bool {
    let mut open = false;
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(&s.name).strong());
        ui.label(format_name(s.format));
        ui.label(game_name(s.game.kind()));
        ui.label(super::labels::rules_text(&s.game));
        ui.label(clock_text(&s.time_control));
        ui.label(t!("tour.entrants_of", n = s.entrants, max = s.max_entrants));
        ui.label(status_text(s.status, s.round));
        ui.label(t!("tour.host", name = s.host));
        let button = ui.button(t!("tour.open"));
        probe::mark(&format!("tour-open-{}", s.name), button.rect);
        open = button.clicked();
    });
    open
}

/// A format's name, with its rounds or minutes.
pub(super) fn format_name(format: TournamentFormat) -> String {
    match format {
        TournamentFormat::Swiss { rounds } => t!("tour.swiss_rounds", n = rounds),
        TournamentFormat::RoundRobin { double: false } => t!("tour.round_robin"),
        TournamentFormat::RoundRobin { double: true } => t!("tour.double_round_robin"),
        TournamentFormat::Knockout => t!("tour.knockout"),
        TournamentFormat::Arena { minutes } => t!("tour.arena_minutes", n = minutes),
    }
    .into()
}

/// Where it stands, in words.
pub(super) fn status_text(status: TournamentStatus, round: u32) -> String {
    match status {
        TournamentStatus::Open => t!("tour.status_open"),
        TournamentStatus::Running => t!("tour.status_round", n = round),
        TournamentStatus::Paused => t!("tour.status_paused", n = round),
        TournamentStatus::Finished => t!("tour.status_finished"),
    }
    .into()
}

/// The clock: "5+3".
pub(super) fn clock_text(tc: &tabula_shared::protocol::TimeControl) -> String {
    let minutes = tc.initial_secs / 60;
    let seconds = tc.initial_secs % 60;
    if seconds == 0 {
        format!("{minutes}+{}", tc.increment_secs)
    } else {
        format!("{minutes}:{seconds:02}+{}", tc.increment_secs)
    }
}

/// Half points as a score: "2½".
pub(super) fn points(half: u32) -> String {
    match (half / 2, half % 2) {
        (0, 1) => "½".to_string(),
        (n, 1) => format!("{n}½"),
        (n, _) => n.to_string(),
    }
}
