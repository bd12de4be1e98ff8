//! Saving a finished game to a file: the export window's state. The text
//! comes from the shared crate's exporters ([`tabula_shared::export`]);
//! this module picks the format, proposes a path and writes the file.

use std::path::PathBuf;

use tabula_shared::export::{ExportFormat, ExportMeta, export};
use tabula_shared::protocol::FinishedGame;

use crate::replay::date_text;

/// The export window: which game, which format, where to.
#[derive(Debug, Clone)]
pub struct ExportForm {
    /// The game to save.
    pub game: FinishedGame,
    /// The chosen format (None when no format can hold this game).
    pub format: Option<ExportFormat>,
    /// Where to write, as typed.
    pub path: String,
    /// The outcome of the last save: the path written, or why not.
    pub outcome: Option<Result<String, String>>,
}

impl ExportForm {
    /// A form for `game` with its best format and a path in the home directory.
    pub fn new(game: FinishedGame) -> ExportForm {
        let format = ExportFormat::for_record(&game.record).first().copied();
        let path = format.map_or_else(String::new, |f| {
            default_path(&file_stem(&game), f).display().to_string()
        });
        ExportForm {
            game,
            format,
            path,
            outcome: None,
        }
    }

    /// The formats this game can be saved in, best first.
    pub fn formats(&self) -> &'static [ExportFormat] {
        ExportFormat::for_record(&self.game.record)
    }

    /// Chooses a format; a path that still ends in the old format's
    /// extension gets the new one.
    pub fn set_format(&mut self, format: ExportFormat) {
        if let Some(old) = self.format
            && let Some(stem) = self.path.strip_suffix(&format!(".{}", old.extension()))
        {
            self.path = format!("{stem}.{}", format.extension());
        }
        self.format = Some(format);
        self.outcome = None;
    }

    /// The names, date and event written into the file.
    pub fn meta(&self) -> ExportMeta {
        let summary = &self.game.summary;
        let name = |seat| summary.player_name(seat).unwrap_or("?").to_string();
        use tabula_shared::seat::Seat;
        ExportMeta {
            players: [name(Seat::First), name(Seat::Second)],
            date: Some(date_text(summary.started_at)),
            event: Some(if summary.options.rated {
                "Tabula (rated)".to_string()
            } else {
                "Tabula".to_string()
            }),
            result: Some(summary.result.clone()),
        }
    }

    /// Writes the file and records the outcome.
    pub fn save(&mut self) {
        self.outcome = Some(self.try_save());
    }

    fn try_save(&self) -> Result<String, String> {
        let format = self
            .format
            .ok_or_else(|| rust_i18n::t!("export.no_format").into_owned())?;
        let path = self.path.trim();
        if path.is_empty() {
            return Err(rust_i18n::t!("export.no_name").into_owned());
        }
        let text = export(&self.game.record, &self.meta(), format).map_err(|e| e.to_string())?;
        write_file(path, &text)?;
        Ok(path.to_string())
    }
}

/// Writes the exported text to `path`.
#[cfg(not(target_arch = "wasm32"))]
fn write_file(path: &str, text: &str) -> Result<(), String> {
    std::fs::write(path, text)
        .map_err(|e| rust_i18n::t!("export.write_failed", path = path, error = e).into_owned())
}

/// Hands the exported text to the browser as a download named `path`.
#[cfg(target_arch = "wasm32")]
fn write_file(path: &str, text: &str) -> Result<(), String> {
    crate::download::offer(path, text)
}

/// A file name a player recognises: the date and the players,
/// "2000-02-29 Ada vs Bob".
fn file_stem(game: &FinishedGame) -> String {
    use tabula_shared::seat::Seat;
    let summary = &game.summary;
    let name = |seat| summary.player_name(seat).unwrap_or("?").to_string();
    format!(
        "{} {} vs {}",
        date_text(summary.started_at),
        name(Seat::First),
        name(Seat::Second)
    )
}

/// `<home>/tabula <stem>.<extension>` (the current directory when there is
/// no home; in a browser, just the download's name); characters a file
/// system may refuse become `_`. When that file is there already (another
/// game against the same opponent that day), ` (2)`, ` (3)`, ... is added.
pub fn default_path(stem: &str, format: ExportFormat) -> PathBuf {
    let home = if cfg!(target_arch = "wasm32") {
        PathBuf::new()
    } else {
        std::env::var_os("HOME")
            .or_else(|| std::env::var_os("USERPROFILE"))
            .map_or_else(|| PathBuf::from("."), PathBuf::from)
    };
    default_path_in(&home, stem, format)
}

/// [`default_path`] in the folder `home`.
fn default_path_in(home: &std::path::Path, stem: &str, format: ExportFormat) -> PathBuf {
    let safe: String = stem
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | ' ' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let extension = format.extension();
    let first = home.join(format!("tabula {safe}.{extension}"));
    if cfg!(target_arch = "wasm32") || !first.exists() {
        return first;
    }
    (2..1000)
        .map(|n| home.join(format!("tabula {safe} ({n}).{extension}")))
        .find(|p| !p.exists())
        .unwrap_or(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_shared::gomoku::{GomokuAction, GomokuConfig, Point};
    use tabula_shared::protocol::{
        ColourChoice, EndReason, GameOptions, GameRecord, GameResult, GameSummary, Opponent,
        PlayerInfo, RoomOptions, SeatInfo,
    };
    use tabula_shared::seat::Seat;

    fn game() -> FinishedGame {
        let seat = |seat, name: &str| SeatInfo {
            seat,
            player: Some(PlayerInfo {
                id: format!("p-{name}"),
                name: name.into(),
                ai: None,
                bot: false,
            }),
            connected: true,
            grace_ms: None,
        };
        FinishedGame {
            summary: GameSummary {
                game_id: "g-42".into(),
                options: RoomOptions {
                    game: GameOptions::Gomoku(GomokuConfig::default()),
                    opponent: Opponent::Human,
                    colour: ColourChoice::Black,
                    time_control: None,
                    private: false,
                    takebacks: true,
                    rated: true,
                    hints: false,
                },
                seats: vec![seat(Seat::First, "Ada"), seat(Seat::Second, "Bob")],
                result: GameResult {
                    winner: Some(Seat::Second),
                    reason: EndReason::Resigned,
                    line: vec![],
                    score: None,
                },
                actions: 2,
                started_at: 951_782_400_000,
                ended_at: 951_782_460_000,
            },
            record: GameRecord::Gomoku {
                config: GomokuConfig::default(),
                actions: vec![
                    GomokuAction::Place {
                        seat: Seat::First,
                        point: Point::new(7, 7),
                    },
                    GomokuAction::Place {
                        seat: Seat::Second,
                        point: Point::new(8, 8),
                    },
                ],
            },
        }
    }

    #[test]
    fn formats_paths_and_meta() {
        let mut form = ExportForm::new(game());
        assert_eq!(form.format, Some(ExportFormat::GomokuSgf));
        // The date and the players, not the game's id (issue 26 #13).
        assert!(
            form.path.ends_with("tabula 2000-02-29 Ada vs Bob.sgf"),
            "{}",
            form.path
        );
        form.set_format(ExportFormat::Psq);
        assert!(
            form.path.ends_with("tabula 2000-02-29 Ada vs Bob.psq"),
            "{}",
            form.path
        );
        form.path = "/somewhere/mine.txt".into();
        form.set_format(ExportFormat::GomokuSgf);
        assert_eq!(form.path, "/somewhere/mine.txt", "a typed name stays");
        let meta = form.meta();
        assert_eq!(meta.players, ["Ada".to_string(), "Bob".to_string()]);
        assert_eq!(meta.date.as_deref(), Some("2000-02-29"));
    }

    #[test]
    fn saves_the_file_or_says_why_not() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut form = ExportForm::new(game());
        let path = dir.path().join("game.sgf");
        form.path = path.display().to_string();
        form.save();
        assert_eq!(form.outcome, Some(Ok(form.path.clone())));
        let text = std::fs::read_to_string(&path).expect("written");
        assert!(text.contains("Ada") && text.contains("Bob"), "{text}");

        form.path = dir.path().join("no/such/dir/x.sgf").display().to_string();
        form.save();
        assert!(matches!(&form.outcome, Some(Err(e)) if e.contains("could not write")));
    }

    /// A second export of a game against the same opponent on the same day
    /// does not offer the first one's name again.
    #[test]
    fn a_name_taken_gets_a_number() {
        let dir = tempfile::tempdir().expect("dir");
        let first = default_path_in(dir.path(), "2000-02-29 Ada vs Bob", ExportFormat::GomokuSgf);
        std::fs::write(&first, "x").expect("write");
        let second = default_path_in(dir.path(), "2000-02-29 Ada vs Bob", ExportFormat::GomokuSgf);
        assert!(
            first.ends_with("tabula 2000-02-29 Ada vs Bob.sgf"),
            "{first:?}"
        );
        assert!(
            second.ends_with("tabula 2000-02-29 Ada vs Bob (2).sgf"),
            "{second:?}"
        );
    }
}
