//! A tournament's page: what it is, the buttons to enter, leave or (the
//! host) run it, the standings, the games of the round in play with their
//! rooms to watch or play in, and the crosstable.

use egui::{Color32, RichText, Ui};
use rust_i18n::t;
use tabula_shared::protocol::{
    AiLevel, Entrant, EntrantRequest, HostAction, Role, TournamentFormat, TournamentGame,
    TournamentStatus, TournamentView,
};

use super::Command;
use super::labels::{BAD, GOOD, level_name, rules_text};
use super::tournament_screen::{
    TournamentAsk, TournamentScreen, clock_text, format_name, points, status_text,
};
use crate::probe;

/// Draws the page of the tournament `s` follows; `me` is our player id.
pub(super) fn page(ui: &mut Ui, s: &TournamentScreen, me: &str) -> Vec<Command> {
    let mut out = Vec::new();
    let back = ui.button(t!("tour.back"));
    probe::mark("tour-back", back.rect);
    if back.clicked() {
        out.push(ask(TournamentAsk::Close));
    }
    let Some(v) = &s.view else {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(t!("ui.loading"));
        });
        return out;
    };
    ui.heading(&v.spec.name);
    ui.horizontal_wrapped(|ui| {
        ui.label(format_name(v.spec.format));
        ui.label(rules_text(&v.spec.game));
        ui.label(clock_text(&v.spec.time_control));
        if v.spec.rated {
            ui.label(RichText::new(t!("ui.rated")).color(super::labels::RATED));
        }
        ui.label(RichText::new(status_text(v.status, v.round)).strong());
        if let (TournamentStatus::Open, Some(at)) = (v.status, v.spec.starts_at) {
            let left = (at - super::tournament_dialog::now_ms()).max(0) as u64;
            let minutes = left.div_ceil(60_000);
            ui.label(t!("tour.starts_in_minutes", n = minutes));
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs(15));
        }
        ui.label(t!("tour.host", name = v.host.name));
    });
    let host = v.host.id == me;
    if host && let Some(code) = s.code_of(&v.id) {
        ui.label(
            RichText::new(t!("tour.private_code", id = v.id, code = code))
                .color(super::labels::WARN),
        );
    }
    out.extend(entry_buttons(ui, v, me));
    if host {
        out.extend(host_buttons(ui, v));
    }
    ui.separator();
    // Both ways: on a phone the tables may be wider than the screen.
    egui::ScrollArea::both()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            out.extend(round_games(ui, v, me));
            ui.add_space(8.0);
            out.extend(standings(ui, v, host));
            if !v.games.is_empty() && !matches!(v.spec.format, TournamentFormat::Arena { .. }) {
                ui.add_space(8.0);
                crosstable(ui, v);
            }
        });
    out
}

fn ask(a: TournamentAsk) -> Command {
    Command::Tournament(a)
}

/// Our entrant, if we entered.
fn my_entry<'a>(v: &'a TournamentView, me: &str) -> Option<&'a Entrant> {
    v.entrants.iter().find(|e| e.player.id == me)
}

/// Join (before the start) or Withdraw.
fn entry_buttons(ui: &mut Ui, v: &TournamentView, me: &str) -> Vec<Command> {
    let mut out = Vec::new();
    let mine = my_entry(v, me);
    ui.horizontal_wrapped(|ui| match mine {
        None if v.status == TournamentStatus::Open => {
            let full = v.entrants.len() as u32 >= v.spec.max_entrants;
            let join = ui
                .add_enabled(!full, egui::Button::new(t!("tour.join")))
                .on_disabled_hover_text(t!("error.tournament_full"));
            probe::mark("tour-join", join.rect);
            if join.clicked() {
                out.push(ask(TournamentAsk::Join));
            }
        }
        Some(e) if !e.withdrawn && v.status != TournamentStatus::Finished => {
            ui.label(RichText::new(t!("tour.entered", no = e.no)).color(GOOD));
            if ui.button(t!("tour.withdraw")).clicked() {
                out.push(ask(TournamentAsk::Withdraw));
            }
        }
        Some(_) if v.status != TournamentStatus::Finished => {
            ui.label(RichText::new(t!("tour.withdrawn")).color(BAD));
        }
        _ => {}
    });
    out
}

/// The host's buttons: add an AI level, start, pause or resume, end.
fn host_buttons(ui: &mut Ui, v: &TournamentView) -> Vec<Command> {
    let mut out = Vec::new();
    ui.horizontal_wrapped(|ui| {
        let mut manage = |ui: &mut Ui, label: String, name: &str, action: HostAction| {
            let button = ui.button(label);
            probe::mark(name, button.rect);
            if button.clicked() {
                out.push(ask(TournamentAsk::Manage(action)));
            }
        };
        match v.status {
            TournamentStatus::Open => {
                ui.label(t!("tour.add"));
                for level in AiLevel::ALL {
                    let action = HostAction::Add {
                        entrant: EntrantRequest::Ai(level),
                    };
                    manage(
                        ui,
                        level_name(level),
                        &format!("tour-add-{}", level.name()),
                        action,
                    );
                }
                ui.separator();
                manage(ui, t!("tour.start").into(), "tour-start", HostAction::Start);
            }
            TournamentStatus::Running => {
                manage(ui, t!("tour.pause").into(), "tour-pause", HostAction::Pause);
                manage(ui, t!("tour.end").into(), "tour-end", HostAction::End);
            }
            TournamentStatus::Paused => {
                manage(
                    ui,
                    t!("tour.resume").into(),
                    "tour-resume",
                    HostAction::Resume,
                );
                manage(ui, t!("tour.end").into(), "tour-end", HostAction::End);
            }
            TournamentStatus::Finished => {}
        }
    });
    out
}

/// An entrant's name by pairing number, marked as a bot or an AI.
fn name_of(v: &TournamentView, no: u32) -> String {
    v.entrants
        .iter()
        .find(|e| e.no == no)
        .map(|e| e.player.name.clone())
        .unwrap_or_else(|| format!("#{no}"))
}

/// The round in play (an arena: the games in play), each with its room.
fn round_games(ui: &mut Ui, v: &TournamentView, me: &str) -> Vec<Command> {
    let mut out = Vec::new();
    let arena = matches!(v.spec.format, TournamentFormat::Arena { .. });
    let games: Vec<&TournamentGame> = v
        .games
        .iter()
        .filter(|g| {
            if arena {
                g.first_score.is_none()
            } else {
                g.round == v.round
            }
        })
        .collect();
    if games.is_empty() {
        return out;
    }
    ui.label(RichText::new(t!("tour.round_games", n = v.round)).strong());
    let my_no = my_entry(v, me).map(|e| e.no);
    egui::Grid::new("tour-games")
        .striped(true)
        .num_columns(3)
        .spacing([16.0, 4.0])
        .show(ui, |ui| {
            for g in games {
                let Some(second) = g.second else {
                    ui.label(name_of(v, g.first));
                    ui.label(t!("tour.bye"));
                    ui.label("");
                    ui.end_row();
                    continue;
                };
                ui.label(format!("{} – {}", name_of(v, g.first), name_of(v, second)));
                ui.label(result_text(g));
                match (&g.room_id, g.first_score) {
                    (Some(room_id), None) => {
                        let mine = my_no == Some(g.first) || my_no == Some(second);
                        let (label, role) = if mine {
                            (t!("tour.play"), Role::Player)
                        } else {
                            (t!("tour.watch"), Role::Spectator)
                        };
                        let button = ui.button(label);
                        probe::mark(&format!("tour-room-{}-{}", g.first, second), button.rect);
                        if button.clicked() {
                            out.push(Command::JoinRoom {
                                room_id: room_id.clone(),
                                role,
                            });
                        }
                    }
                    (_, Some(_)) if g.game_id.is_some() => {
                        let id = g.game_id.clone().unwrap_or_default();
                        let button = ui.button(t!("tour.replay"));
                        probe::mark(&format!("tour-replay-{}-{}", g.first, second), button.rect);
                        if button.clicked() {
                            out.push(Command::OpenGame(id));
                        }
                    }
                    _ => {
                        ui.label("");
                    }
                }
                ui.end_row();
            }
        });
    out
}

/// A game's result: "1–0", "½–½", "0–1", with "(forfeit)"; "…" in play.
fn result_text(g: &TournamentGame) -> String {
    match (g.first_score, g.second_score) {
        (Some(a), b) => {
            let b = b.unwrap_or(2u32.saturating_sub(a));
            let text = format!("{}–{}", points(a), points(b));
            if g.forfeit {
                format!("{text} ({})", t!("tour.forfeit"))
            } else {
                text
            }
        }
        (None, _) => "…".to_string(),
    }
}

/// The standings table; the host may remove an entrant from it.
fn standings(ui: &mut Ui, v: &TournamentView, host: bool) -> Vec<Command> {
    let mut out = Vec::new();
    let arena = matches!(v.spec.format, TournamentFormat::Arena { .. });
    ui.label(RichText::new(t!("tour.standings")).strong());
    egui::Grid::new("tour-standings")
        .striped(true)
        .num_columns(7)
        .spacing([16.0, 4.0])
        .show(ui, |ui| {
            // The tie-breaks by their short names, as crosstables print
            // them; the full name on hover.
            let heads = if arena {
                vec![
                    (t!("board.rank"), None),
                    (t!("board.name"), None),
                    (t!("tour.points"), None),
                    (t!("board.games"), None),
                ]
            } else {
                vec![
                    (t!("board.rank"), None),
                    (t!("board.name"), None),
                    (t!("tour.score"), None),
                    (t!("tour.bh"), Some(t!("tour.buchholz"))),
                    (t!("tour.sb"), Some(t!("tour.sonneborn_berger"))),
                    (t!("board.games"), None),
                ]
            };
            for (h, full) in heads {
                let head = ui.label(RichText::new(h).strong());
                if let Some(full) = full {
                    head.on_hover_text(full);
                }
            }
            ui.end_row();
            for (rank, row) in v.standings.iter().enumerate() {
                let entrant = v.entrants.iter().find(|e| e.no == row.id);
                ui.label((rank + 1).to_string());
                let name = RichText::new(name_of(v, row.id));
                let withdrawn = entrant.is_some_and(|e| e.withdrawn);
                ui.label(if withdrawn {
                    name.strikethrough().color(Color32::GRAY)
                } else {
                    name
                });
                if arena {
                    ui.label((row.score / 2).to_string());
                } else {
                    ui.label(points(row.score));
                    ui.label(points(row.buchholz));
                    // Quarter points: a half-point score times a half-point result.
                    ui.label(format!("{:.2}", f64::from(row.sonneborn_berger) / 4.0));
                }
                ui.label(row.games.to_string());
                if host && !withdrawn && v.status != TournamentStatus::Finished {
                    if ui.small_button(t!("tour.remove")).clicked() {
                        out.push(ask(TournamentAsk::Manage(HostAction::Remove {
                            no: row.id,
                        })));
                    }
                } else {
                    ui.label("");
                }
                ui.end_row();
            }
        });
    out
}

/// Each entrant's games by round: "W3" won against number 3, "D5", "L2",
/// "+" a bye, "F" forfeit marks.
fn crosstable(ui: &mut Ui, v: &TournamentView) {
    let rounds = v.games.iter().map(|g| g.round).max().unwrap_or(0);
    egui::CollapsingHeader::new(RichText::new(t!("tour.crosstable")).strong())
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("tour-crosstable")
                .striped(true)
                .spacing([12.0, 4.0])
                .show(ui, |ui| {
                    ui.label(RichText::new("#").strong());
                    ui.label(RichText::new(t!("board.name")).strong());
                    for r in 1..=rounds {
                        ui.label(RichText::new(r.to_string()).strong());
                    }
                    ui.end_row();
                    for e in &v.entrants {
                        ui.label(e.no.to_string());
                        ui.label(&e.player.name);
                        for r in 1..=rounds {
                            ui.label(cell(v, e.no, r));
                        }
                        ui.end_row();
                    }
                });
        });
}

/// One crosstable cell: entrant `no`'s games in round `round`.
fn cell(v: &TournamentView, no: u32, round: u32) -> String {
    v.games
        .iter()
        .filter(|g| g.round == round && (g.first == no || g.second == Some(no)))
        .map(|g| {
            let Some(second) = g.second else {
                return "+".to_string();
            };
            let (opponent, mine, theirs) = if g.first == no {
                (second, g.first_score, g.second_score)
            } else {
                (g.first, g.second_score, g.first_score)
            };
            let letter = match mine {
                None => "…",
                Some(a) => {
                    let b = theirs.unwrap_or(2u32.saturating_sub(a));
                    if a > b {
                        "W"
                    } else if a < b || a == 0 {
                        "L"
                    } else {
                        "D"
                    }
                }
            };
            let forfeit = if g.forfeit { "F" } else { "" };
            format!("{letter}{opponent}{forfeit}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}
