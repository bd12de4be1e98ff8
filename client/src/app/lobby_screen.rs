//! [`LobbyScreen`]: the list of rooms, its filters, joining by code, and
//! challenging a player or one of the bots online.

use rust_i18n::t;
use std::collections::BTreeMap;

use egui::{RichText, Ui};
use tabula_shared::protocol::{GameKind, PlayerInfo, Role, RoomStatus, RoomSummary};
use web_time::{Duration, Instant};

use super::Command;
use super::labels::{RATED, game_name, rules_text};
use crate::probe;
use crate::settings::Settings;

/// The lobby's state.
#[derive(Default)]
pub(super) struct LobbyScreen {
    /// The rooms the server lists, by id.
    pub(super) rooms: BTreeMap<String, RoomSummary>,
    /// The private code typed.
    pub(super) join_code: String,
    /// The create dialog is open.
    pub(super) create_open: bool,
    /// The bot accounts online, as last listed.
    pub(super) bots: Vec<PlayerInfo>,
    /// When the bots were last asked for (asked again every half minute).
    bots_asked: Option<Instant>,
    /// The name typed to challenge.
    pub(super) challenge_name: String,
}

/// How often the lobby asks again which bots are online.
const BOTS_REFRESH: Duration = Duration::from_secs(30);

impl LobbyScreen {
    /// The code typed, cleaned up, if any.
    pub(super) fn code(&self) -> Option<String> {
        Some(self.join_code.trim().to_uppercase()).filter(|c| !c.is_empty())
    }

    /// Draws the screen; `me` is our player id.
    pub(super) fn ui(&mut self, ui: &mut Ui, settings: &mut Settings, me: &str) -> Vec<Command> {
        let mut out = self.toolbar(ui, settings);
        out.extend(self.challenges_row(ui));
        out.extend(self.own_games(ui, me));
        ui.separator();
        let rooms: Vec<&RoomSummary> = self
            .rooms
            .values()
            .filter(|r| {
                settings
                    .filter_game
                    .is_none_or(|g| r.options.game.kind() == g)
            })
            .filter(|r| !settings.waiting_only || r.status == RoomStatus::Waiting)
            .collect();
        if rooms.is_empty() {
            ui.label(t!("lobby.empty"));
            return out;
        }
        if super::layout::is_narrow(ui) {
            // A phone: one card per room, its buttons in reach (eight
            // columns do not fit, and the buttons were the last of them).
            egui::ScrollArea::vertical().show(ui, |ui| {
                for r in rooms {
                    out.extend(room_card(ui, r, me));
                    ui.separator();
                }
            });
            return out;
        }
        egui::ScrollArea::vertical().show(ui, |ui| {
            egui::Grid::new("rooms")
                .striped(true)
                .num_columns(8)
                .spacing([16.0, 6.0])
                .show(ui, |ui| {
                    for h in [
                        t!("lobby.game"),
                        t!("lobby.rules"),
                        t!("lobby.rated"),
                        t!("lobby.players"),
                        t!("lobby.clock"),
                        t!("lobby.status"),
                        t!("lobby.watching"),
                        "".into(),
                    ] {
                        ui.label(RichText::new(h).strong());
                    }
                    ui.end_row();
                    for r in rooms {
                        out.extend(room_row(ui, r, me));
                        ui.end_row();
                    }
                });
        });
        out
    }

    /// Games still running in which we hold a seat (we left, or lost the
    /// connection): each stays ours until it ends, as on lichess, and one
    /// click seats us again.
    fn own_games(&self, ui: &mut Ui, me: &str) -> Vec<Command> {
        let mut out = Vec::new();
        for r in self.rooms.values().filter(|r| holds_seat(r, me)) {
            ui.horizontal_wrapped(|ui| {
                ui.label(
                    RichText::new(t!(
                        "lobby.your_game_on",
                        game = game_name(r.options.game.kind())
                    ))
                    .strong(),
                );
                let back = ui.button(RichText::new(t!("lobby.return")).strong());
                probe::mark("return-to-game", back.rect);
                if back.clicked() {
                    out.push(Command::JoinRoom {
                        room_id: r.room_id.clone(),
                        role: Role::Player,
                    });
                }
            });
        }
        out
    }

    /// Challenging: a name typed, or one of the bots online (with the game
    /// set in the create dialog).
    fn challenges_row(&mut self, ui: &mut Ui) -> Vec<Command> {
        let mut out = Vec::new();
        if self.bots_asked.is_none_or(|t| t.elapsed() >= BOTS_REFRESH) {
            self.bots_asked = Some(Instant::now());
            out.push(Command::ListBots);
        }
        ui.horizontal_wrapped(|ui| {
            let l = ui.label(t!("lobby.challenge_player"));
            ui.add(egui::TextEdit::singleline(&mut self.challenge_name).desired_width(120.0))
                .labelled_by(l.id);
            let name = self.challenge_name.trim().to_string();
            if ui
                .add_enabled(!name.is_empty(), egui::Button::new(t!("lobby.challenge")))
                .on_hover_text(t!("lobby.challenge_hint"))
                .clicked()
            {
                out.push(Command::Challenge { to: name });
            }
            ui.separator();
            ui.label(t!("lobby.bots_online"));
            if self.bots.is_empty() {
                ui.label("—");
            }
            for bot in &self.bots {
                ui.label(crate::room::display_name(bot));
                if ui
                    .small_button(t!("lobby.challenge"))
                    .on_hover_text(t!("lobby.challenge_hint"))
                    .clicked()
                {
                    out.push(Command::Challenge {
                        to: bot.name.clone(),
                    });
                }
            }
        });
        out
    }

    /// The buttons and filters above the list.
    fn toolbar(&mut self, ui: &mut Ui, settings: &mut Settings) -> Vec<Command> {
        let mut out = Vec::new();
        ui.horizontal_wrapped(|ui| {
            let create = ui.button(t!("lobby.create"));
            probe::mark("create-room", create.rect);
            if create.clicked() {
                out.push(Command::ShowCreate(true));
            }
            ui.separator();
            ui.label(t!("lobby.game"));
            egui::ComboBox::from_id_salt("filter_game")
                .selected_text(
                    settings
                        .filter_game
                        .map_or_else(|| t!("lobby.all").into(), game_name),
                )
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut settings.filter_game, None, t!("lobby.all"));
                    for kind in [GameKind::Gomoku, GameKind::Backgammon] {
                        ui.selectable_value(&mut settings.filter_game, Some(kind), game_name(kind));
                    }
                });
            ui.checkbox(&mut settings.waiting_only, t!("lobby.waiting_only"));
            ui.separator();
            let l = ui.label(t!("lobby.private_code"));
            ui.add(egui::TextEdit::singleline(&mut self.join_code).desired_width(80.0))
                .labelled_by(l.id);
            if ui.button(t!("lobby.join_by_code")).clicked() {
                out.push(Command::JoinByCode);
            }
        });
        out
    }
}

/// Whether player `me` holds a seat in `r`'s game, which is not over.
fn holds_seat(r: &RoomSummary, me: &str) -> bool {
    r.status != RoomStatus::Finished
        && !me.is_empty()
        && r.seats.iter().any(|s| {
            s.player
                .as_ref()
                .is_some_and(|p| p.id == me && p.ai.is_none())
        })
}

/// One room's row in the list; `me` is our player id.
fn room_row(ui: &mut Ui, r: &RoomSummary, me: &str) -> Vec<Command> {
    ui.label(game_name(r.options.game.kind()));
    ui.label(rules_text(&r.options.game));
    if r.options.rated {
        ui.label(RichText::new(t!("lobby.rated")).strong().color(RATED));
    } else {
        ui.label("—");
    }
    ui.label(players_text(r));
    ui.label(clock_text(r));
    ui.label(status_text(r));
    ui.label(r.spectators.to_string());
    ui.horizontal(|ui| room_buttons(ui, r, me)).inner
}

/// A room on a phone: the game and its rules, then who plays, the clock
/// and the status, then its buttons.
fn room_card(ui: &mut Ui, r: &RoomSummary, me: &str) -> Vec<Command> {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(game_name(r.options.game.kind())).strong());
        ui.label(rules_text(&r.options.game));
        if r.options.rated {
            ui.label(RichText::new(t!("lobby.rated")).strong().color(RATED));
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label(players_text(r));
        ui.label(format!(
            "· {} · {} · {}",
            clock_text(r),
            status_text(r),
            t!("room.watching_count", n = r.spectators)
        ));
    });
    ui.horizontal(|ui| room_buttons(ui, r, me)).inner
}

fn players_text(r: &RoomSummary) -> String {
    let names: Vec<String> = r
        .seats
        .iter()
        .map(|s| {
            s.player
                .as_ref()
                .map_or_else(|| "—".to_string(), crate::room::display_name)
        })
        .collect();
    names.join(&t!("lobby.vs"))
}

fn clock_text(r: &RoomSummary) -> String {
    r.options.time_control.map_or_else(
        || "—".into(),
        |t| format!("{}+{}", t.initial_secs / 60, t.increment_secs),
    )
}

fn status_text(r: &RoomSummary) -> String {
    match r.status {
        RoomStatus::Waiting => t!("lobby.waiting"),
        RoomStatus::Playing => t!("lobby.playing"),
        RoomStatus::Finished => t!("lobby.finished"),
    }
    .into()
}

/// Return to our own seat, or join a free one, and watch.
fn room_buttons(ui: &mut Ui, r: &RoomSummary, me: &str) -> Vec<Command> {
    let mut out = Vec::new();
    if holds_seat(r, me) {
        // Our own game: back to the seat, not to the spectators.
        if ui
            .button(RichText::new(t!("lobby.return_short")).strong())
            .clicked()
        {
            out.push(Command::JoinRoom {
                room_id: r.room_id.clone(),
                role: Role::Player,
            });
        }
        return out;
    }
    if r.status == RoomStatus::Waiting && ui.button(t!("lobby.join")).clicked() {
        out.push(Command::JoinRoom {
            room_id: r.room_id.clone(),
            role: Role::Player,
        });
    }
    let watch = ui.button(t!("lobby.watch"));
    probe::mark(&format!("watch-{}", r.room_id), watch.rect);
    if watch.clicked() {
        out.push(Command::JoinRoom {
            room_id: r.room_id.clone(),
            role: Role::Spectator,
        });
    }
    out
}
