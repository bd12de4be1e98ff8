//! The "New tournament" dialog: the name, the format with its rounds or
//! minutes, the game (its rules are the create dialog's, shared), the
//! clock, the number of entrants and whether it is rated or private; for a
//! Gomoku round robin, the fixed openings (one move list a line).

use egui::{Align2, Ui};
use rust_i18n::t;
use tabula_shared::gomoku::{Opening, Point};
use tabula_shared::protocol::{
    GameKind, GameOptions, TimeControl, TournamentFormat, TournamentSpec,
};
use tabula_shared::study::GomokuSetup;

use super::Command;
use super::tournament_screen::TournamentAsk;
use crate::probe;
use crate::settings::CreateForm;

/// Which format the dialog has chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FormatChoice {
    Swiss,
    RoundRobin,
    Knockout,
    Arena,
}

impl FormatChoice {
    /// The most entrants the server takes for the format.
    fn most_entrants(self) -> u32 {
        match self {
            FormatChoice::Swiss | FormatChoice::Arena => 10_000,
            FormatChoice::RoundRobin | FormatChoice::Knockout => 256,
        }
    }
}

/// The dialog's fields.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct TournamentForm {
    pub(super) name: String,
    pub(super) format: FormatChoice,
    /// Swiss rounds.
    pub(super) rounds: u32,
    /// A round robin played twice, colours reversed.
    pub(super) double: bool,
    /// An arena's length.
    pub(super) arena_minutes: u32,
    /// Each player's clock: minutes and seconds added per move.
    pub(super) minutes: u32,
    pub(super) increment: u32,
    pub(super) max_entrants: u32,
    /// How long a paired player has to come to their game.
    pub(super) forfeit_secs: u32,
    pub(super) rated: bool,
    pub(super) private: bool,
    /// Starts by itself this many minutes after creation (0: when the host
    /// presses Start).
    pub(super) starts_in_minutes: u32,
    /// A Gomoku round robin's openings: one move list a line (`h8 i9 j10`).
    pub(super) openings: String,
}

impl Default for TournamentForm {
    fn default() -> TournamentForm {
        TournamentForm {
            name: String::new(),
            format: FormatChoice::Swiss,
            rounds: 5,
            double: false,
            arena_minutes: 60,
            minutes: 5,
            increment: 3,
            max_entrants: 32,
            forfeit_secs: 60,
            rated: false,
            private: false,
            starts_in_minutes: 0,
            openings: String::new(),
        }
    }
}

impl TournamentForm {
    /// The openings typed, each read as a move list on `game`'s board; the
    /// first line that does not read, with its number, is the error. None
    /// unless `game` is Gomoku and the format a round robin.
    pub(super) fn openings(&self, game: &GameOptions) -> Result<Vec<Vec<Point>>, String> {
        let GameOptions::Gomoku(config) = game else {
            return Ok(Vec::new());
        };
        if self.format != FormatChoice::RoundRobin {
            return Ok(Vec::new());
        }
        self.openings
            .lines()
            .map(str::trim)
            .enumerate()
            .filter(|(_, line)| !line.is_empty())
            .map(|(i, line)| {
                GomokuSetup::parse_moves(line, config.size, config.rule)
                    .map_err(|e| t!("tour.opening_line", line = i + 1, error = e).to_string())
            })
            .collect()
    }

    /// The spec these fields describe, for `game`.
    pub(super) fn spec(&self, game: GameOptions) -> TournamentSpec {
        let format = match self.format {
            FormatChoice::Swiss => TournamentFormat::Swiss {
                rounds: self.rounds.max(1),
            },
            FormatChoice::RoundRobin => TournamentFormat::RoundRobin {
                double: self.double,
            },
            FormatChoice::Knockout => TournamentFormat::Knockout,
            FormatChoice::Arena => TournamentFormat::Arena {
                minutes: self.arena_minutes.max(1),
            },
        };
        let name = self.name.trim();
        let openings = self.openings(&game).unwrap_or_default();
        TournamentSpec {
            name: if name.is_empty() {
                t!("tour.default_name").into()
            } else {
                name.to_string()
            },
            format,
            game,
            time_control: TimeControl {
                initial_secs: self.minutes.max(1) * 60,
                increment_secs: self.increment,
            },
            rated: self.rated,
            private: self.private,
            max_entrants: self.max_entrants.clamp(2, self.format.most_entrants()),
            forfeit_secs: self.forfeit_secs.clamp(10, 600),
            starts_at: (self.starts_in_minutes > 0)
                .then(|| now_ms() + i64::from(self.starts_in_minutes) * 60_000),
            openings,
        }
    }
}

/// Draws the dialog; the game and its rules are kept in `game` (the create
/// dialog's fields).
pub(super) fn tournament_dialog(
    ctx: &egui::Context,
    f: &mut TournamentForm,
    game: &mut CreateForm,
) -> Vec<Command> {
    let mut out = Vec::new();
    egui::Window::new(t!("tour.new"))
        .collapsible(false)
        .resizable(false)
        .anchor(Align2::CENTER_TOP, [0.0, 48.0])
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                let label = ui.label(t!("tour.name"));
                ui.add(
                    egui::TextEdit::singleline(&mut f.name)
                        .char_limit(48)
                        .hint_text(t!("tour.default_name")),
                )
                .labelled_by(label.id);
            });
            format_rows(ui, f);
            ui.separator();
            ui.horizontal(|ui| {
                ui.label(t!("ui.game"));
                ui.radio_value(&mut game.game, GameKind::Gomoku, t!("ui.gomoku"));
                ui.radio_value(&mut game.game, GameKind::Backgammon, t!("ui.backgammon"));
            });
            match game.game {
                GameKind::Gomoku => super::create_dialog::gomoku_rules(ui, game),
                GameKind::Backgammon => super::create_dialog::backgammon_rules(ui, game),
            }
            let options = game.options().game;
            let openings = f.openings(&options);
            if let GameOptions::Gomoku(config) = &options
                && f.format == FormatChoice::RoundRobin
            {
                openings_field(ui, f, config.opening);
                if let Err(e) = &openings {
                    ui.colored_label(super::labels::WARN, e);
                }
            }
            ui.separator();
            ui.horizontal(|ui| {
                ui.label(t!("ui.clock"));
                super::create_dialog::clock_fields(ui, &mut f.minutes, &mut f.increment);
            });
            ui.horizontal(|ui| {
                ui.label(t!("tour.max_entrants"));
                ui.add(
                    egui::DragValue::new(&mut f.max_entrants).range(2..=f.format.most_entrants()),
                );
            });
            ui.horizontal(|ui| {
                ui.label(t!("tour.forfeit_after"));
                ui.add(
                    egui::DragValue::new(&mut f.forfeit_secs)
                        .range(10..=600)
                        .suffix(t!("ui.s")),
                );
            })
            .response
            .on_hover_text(t!("tour.forfeit_hint"));
            ui.horizontal(|ui| {
                ui.label(t!("tour.starts_in"));
                ui.add(
                    egui::DragValue::new(&mut f.starts_in_minutes)
                        .range(0..=1440)
                        .suffix(t!("ui.min")),
                );
                if f.starts_in_minutes == 0 {
                    ui.label(t!("tour.when_host_starts"));
                }
            });
            ui.checkbox(&mut f.rated, t!("ui.rated"));
            ui.checkbox(&mut f.private, t!("tour.private_by_code"));
            ui.separator();
            ui.horizontal(|ui| {
                let create = ui.add_enabled(openings.is_ok(), egui::Button::new(t!("ui.create")));
                probe::mark("tour-create", create.rect);
                if create.clicked() {
                    out.push(Command::Tournament(TournamentAsk::Create));
                }
                if ui.button(t!("ui.cancel")).clicked() {
                    out.push(Command::Tournament(TournamentAsk::ShowCreate(false)));
                }
            });
        });
    out
}

/// The openings box of a Gomoku round robin: each opening is played
/// twice by every pairing, once with each colour, as the Gomocup plays
/// them. They replace Swap2.
fn openings_field(ui: &mut Ui, f: &mut TournamentForm, opening: Opening) {
    let label = ui.label(t!("tour.openings"));
    ui.add(
        egui::TextEdit::multiline(&mut f.openings)
            .desired_rows(2)
            .hint_text("h8 i9 j10")
            .id_salt("tour-openings"),
    )
    .labelled_by(label.id);
    if opening != Opening::None && !f.openings.trim().is_empty() {
        ui.colored_label(super::labels::WARN, t!("tour.openings_replace_swap2"));
    }
}

/// The format and its rounds, passes or minutes.
fn format_rows(ui: &mut Ui, f: &mut TournamentForm) {
    ui.horizontal_wrapped(|ui| {
        ui.label(t!("tour.format"));
        ui.radio_value(&mut f.format, FormatChoice::Swiss, t!("tour.swiss"));
        ui.radio_value(
            &mut f.format,
            FormatChoice::RoundRobin,
            t!("tour.round_robin"),
        );
        ui.radio_value(&mut f.format, FormatChoice::Knockout, t!("tour.knockout"));
        ui.radio_value(&mut f.format, FormatChoice::Arena, t!("tour.arena"));
    });
    ui.horizontal(|ui| match f.format {
        FormatChoice::Swiss => {
            ui.label(t!("tour.rounds"));
            ui.add(egui::DragValue::new(&mut f.rounds).range(1..=20));
        }
        FormatChoice::RoundRobin => {
            ui.checkbox(&mut f.double, t!("tour.double"));
        }
        FormatChoice::Knockout => {
            ui.label(t!("tour.knockout_hint"));
        }
        FormatChoice::Arena => {
            ui.label(t!("tour.duration"));
            ui.add(
                egui::DragValue::new(&mut f.arena_minutes)
                    .range(1..=720)
                    .suffix(t!("ui.min")),
            );
        }
    });
}

/// Now, in Unix milliseconds.
pub(super) fn now_ms() -> i64 {
    web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_shared::gomoku::GomokuConfig;

    #[test]
    fn openings_read_one_a_line_and_name_the_line_that_does_not() {
        let game = GameOptions::Gomoku(GomokuConfig::default());
        let mut f = TournamentForm {
            format: FormatChoice::RoundRobin,
            openings: "h8 i9 j10\n\n  1. h8 2. h9 3. h10 \n".into(),
            ..TournamentForm::default()
        };
        let openings = f.openings(&game).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(
            openings[0],
            vec![Point::new(7, 7), Point::new(8, 8), Point::new(9, 9)]
        );
        assert_eq!(f.spec(game.clone()).openings, openings);
        f.openings.push_str("h8 z99\n");
        let error = f.openings(&game).unwrap_err();
        assert!(error.contains("line 4"), "{error}");
        // Not a round robin: no openings.
        f.format = FormatChoice::Swiss;
        assert_eq!(f.openings(&game), Ok(Vec::new()));
    }
}
