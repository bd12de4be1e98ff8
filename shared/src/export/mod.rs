//! Export of game records to the file formats other programs read, and
//! import of the Gomoku formats back into records.
//!
//! [`export`] turns a [`GameRecord`] plus some [`ExportMeta`] (names, date,
//! event) into the text of one file. [`ExportFormat::for_record`] lists the
//! formats that fit a record. [`import`] reads the two Gomoku formats back
//! into a record (the Backgammon formats are meant for GNU Backgammon and
//! eXtreme Gammon, which read them; Tabula does not read them back).
//!
//! Every exporter replays the record through the rules first, so a record
//! the rules refuse is reported as [`ExportError::Replay`] instead of being
//! written out. Nothing here panics on any input.
//!
//! # Seats, colours and names
//! [`ExportMeta::players`] is indexed by seat: `players[0]` is
//! [`Seat::First`], `players[1]` is [`Seat::Second`]. In Backgammon the first
//! seat plays White, which is GNU Backgammon's player 0 (see
//! [`side_of`](crate::seat::side_of)). In Gomoku the colours follow from
//! the opening: with no opening rule the first seat is black; with swap2 the
//! colours are whatever the swap2 choices made them.
//!
//! # Backgammon: Jellyfish `.mat` ([`ExportFormat::Mat`])
//! The plain-text match format of Jellyfish, written by GNU Backgammon's
//! `export match mat` and read by its `import mat` and by eXtreme Gammon.
//! See [`mat`] for the layout. In short: a ` N point match` header (a money
//! game is written as a ` 0 point match`), then per game a ` Game n` line,
//! a line with both names and the scores before the game, and numbered lines
//! with White (first seat) in the left column and Black in the right column.
//! Each move is written from its mover's own side (`24` is the mover's
//! 24-point, `25` the bar, `0` off), one single-die hop per token
//! (`64: 24/18 18/14`, hits marked `*`), as GNU Backgammon writes it. Cube
//! actions are ` Doubles => 2`, ` Takes`, ` Drops`; each finished game ends
//! with ` Wins N point(s)` in the winner's column, which GNU Backgammon reads
//! as a resignation when the game did not end on the board. The format has
//! no Crawford or Jacoby setting that GNU Backgammon honours (it assumes
//! Crawford in matches); the SGF export carries both.
//!
//! # Backgammon: GNU Backgammon SGF ([`ExportFormat::GnubgSgf`])
//! `GM[6]`, one game tree per game of the match, as `save match` writes it:
//! `MI` with match length, game number and score, `PW` White / `PB` Black,
//! `RU` for the Crawford game and the Jacoby rule, `RE` with the points won
//! (`R` for a resignation), and one node per action, with gnubg's absolute
//! point letters (`a` = White's 1-point, `y` bar, `z` off). See
//! [`gnubg_sgf`].
//!
//! Both Backgammon exports were checked by importing them into GNU
//! Backgammon 1.07 (`shared/tests/export_gnubg/`): it reads the same
//! games, the same actions by the same players with the same dice and
//! positions, and the same results and match score. The opening roll's tie
//! re-rolls are not written (neither format has them); the dice of the
//! opening roll go with the first play, high die first like every roll.
//!
//! # Gomoku: SGF ([`ExportFormat::GomokuSgf`])
//! `GM[4]` SGF with the rule set and opening in `RU`, swap2 choices in a
//! private `SC` property. See [`gomoku_sgf`]; [`import`] reads it back.
//!
//! # Gomoku: Piskvork PSQ ([`ExportFormat::Psq`])
//! The Gomocup/Piskvork move list, with Tabula's rule set, opening and swap2
//! choices in trailing lines. See [`psq`]; [`import`] reads it back.

use serde::{Deserialize, Serialize};

use crate::backgammon::BgError;
use crate::game::{GameKind, GameRecord, ReplayError};
use crate::gomoku::GomokuError;
use crate::seat::Seat;

mod bg;
pub mod gnubg_sgf;
mod gomoku_io;
pub mod gomoku_sgf;
pub mod mat;
pub mod psq;
mod sgf;

/// The file formats a finished game can be exported to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    /// Backgammon: Jellyfish `.mat` text (GNU Backgammon, eXtreme Gammon).
    Mat,
    /// Backgammon: GNU Backgammon's SGF dialect (`GM[6]`).
    GnubgSgf,
    /// Gomoku: SGF (`GM[4]`).
    GomokuSgf,
    /// Gomoku: Piskvork / Gomocup `.psq`.
    Psq,
    /// Backgammon: Tabula's own record as JSON, with the dice proof; the one
    /// file from which every roll can be verified (`tabula-verify-dice`).
    TabulaJson,
}

const BG_FORMATS: &[ExportFormat] = &[
    ExportFormat::Mat,
    ExportFormat::GnubgSgf,
    ExportFormat::TabulaJson,
];
const GOMOKU_FORMATS: &[ExportFormat] = &[ExportFormat::GomokuSgf, ExportFormat::Psq];

impl ExportFormat {
    /// Every format.
    pub const ALL: [ExportFormat; 5] = [
        ExportFormat::Mat,
        ExportFormat::GnubgSgf,
        ExportFormat::GomokuSgf,
        ExportFormat::Psq,
        ExportFormat::TabulaJson,
    ];

    /// The file name extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Mat => "mat",
            ExportFormat::GnubgSgf | ExportFormat::GomokuSgf => "sgf",
            ExportFormat::Psq => "psq",
            ExportFormat::TabulaJson => "json",
        }
    }

    /// A short name to show to players.
    pub fn label(self) -> &'static str {
        match self {
            ExportFormat::Mat => "Jellyfish .mat (GNU Backgammon, XG)",
            ExportFormat::GnubgSgf => "GNU Backgammon SGF",
            ExportFormat::GomokuSgf => "SGF",
            ExportFormat::Psq => "Piskvork .psq",
            ExportFormat::TabulaJson => "Tabula record .json (dice verifiable)",
        }
    }

    /// The game this format is for.
    pub fn game(self) -> GameKind {
        match self {
            ExportFormat::Mat | ExportFormat::GnubgSgf | ExportFormat::TabulaJson => {
                GameKind::Backgammon
            }
            ExportFormat::GomokuSgf | ExportFormat::Psq => GameKind::Gomoku,
        }
    }

    /// The formats that can export `record`, best first. Empty for a
    /// Backgammon record with the "doubles played twice" option, which no
    /// other program knows.
    pub fn for_record(record: &GameRecord) -> &'static [ExportFormat] {
        match record {
            GameRecord::Gomoku { .. } => GOMOKU_FORMATS,
            GameRecord::Backgammon { config, .. } if config.doubles_twice => &[],
            GameRecord::Backgammon { .. } => BG_FORMATS,
        }
    }
}

/// What a record does not hold but a file should: names, date, event.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ExportMeta {
    /// Display names by seat: `players[0]` is the first seat (Backgammon
    /// White, Gomoku black unless swap2 changed it), `players[1]` the second.
    pub players: [String; 2],
    /// The date the game was played, `"YYYY-MM-DD"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// An event or room name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// How the game ended, when the record alone does not say (a Gomoku
    /// resignation, timeout or agreed draw); Gomoku SGF writes it as `RE`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<crate::game::GameResult>,
}

impl ExportMeta {
    /// The name of `seat`.
    pub fn name(&self, seat: Seat) -> &str {
        match seat {
            Seat::First => &self.players[0],
            Seat::Second => &self.players[1],
        }
    }

    /// The date split into year, month and day, if it is a valid
    /// `YYYY-MM-DD` date.
    pub(crate) fn ymd(&self) -> Option<(u32, u32, u32)> {
        let d = self.date.as_deref()?.trim();
        let mut parts = d.split('-');
        let y = parts.next()?;
        let m = parts.next()?;
        let day = parts.next()?;
        if parts.next().is_some()
            || y.len() != 4
            || m.len() != 2
            || day.len() != 2
            || ![y, m, day]
                .iter()
                .all(|s| s.bytes().all(|b| b.is_ascii_digit()))
        {
            return None;
        }
        let (y, m, day) = (y.parse().ok()?, m.parse().ok()?, day.parse().ok()?);
        if (1..=12).contains(&m) && (1..=31).contains(&day) {
            Some((y, m, day))
        } else {
            None
        }
    }
}

/// Why a record could not be exported.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExportError {
    /// The format is for the other game.
    #[error("{format:?} is a {expected:?} format, but the record is {got:?}")]
    WrongGame {
        /// The format asked for.
        format: ExportFormat,
        /// The game the format is for.
        expected: GameKind,
        /// The record's game.
        got: GameKind,
    },
    /// The rules refuse the record.
    #[error("the record does not replay: {0}")]
    Replay(#[from] ReplayError),
    /// The record uses something the format cannot express.
    #[error("not supported by this format: {0}")]
    Unsupported(String),
}

impl ExportError {
    pub(crate) fn bg(index: usize, error: BgError) -> ExportError {
        ExportError::Replay(ReplayError::Backgammon { index, error })
    }

    pub(crate) fn gomoku(index: usize, error: GomokuError) -> ExportError {
        ExportError::Replay(ReplayError::Gomoku { index, error })
    }
}

/// Exports `record` as the text of one file in `format`.
///
/// # Errors
/// [`ExportError::WrongGame`] when the format is for the other game,
/// [`ExportError::Replay`] when the rules refuse the record, and
/// [`ExportError::Unsupported`] for a Backgammon record with the "doubles
/// played twice" option.
pub fn export(
    record: &GameRecord,
    meta: &ExportMeta,
    format: ExportFormat,
) -> Result<String, ExportError> {
    let got = match record {
        GameRecord::Gomoku { .. } => GameKind::Gomoku,
        GameRecord::Backgammon { .. } => GameKind::Backgammon,
    };
    if format.game() != got {
        return Err(ExportError::WrongGame {
            format,
            expected: format.game(),
            got,
        });
    }
    match (record, format) {
        (
            GameRecord::Backgammon {
                config,
                actions,
                dice,
            },
            ExportFormat::Mat,
        ) => mat::write(&bg::walk(config, actions)?, meta, dice.as_ref()),
        (
            GameRecord::Backgammon {
                config,
                actions,
                dice,
            },
            ExportFormat::GnubgSgf,
        ) => gnubg_sgf::write(&bg::walk(config, actions)?, meta, dice.as_ref()),
        (GameRecord::Backgammon { .. }, ExportFormat::TabulaJson) => {
            record.replay()?;
            serde_json::to_string_pretty(record)
                .map_err(|e| ExportError::Unsupported(e.to_string()))
        }
        (GameRecord::Gomoku { config, actions }, ExportFormat::GomokuSgf) => {
            gomoku_sgf::write(config, actions, meta)
        }
        (GameRecord::Gomoku { config, actions }, ExportFormat::Psq) => {
            psq::write(config, actions, meta)
        }
        // The game check above leaves only matching pairs.
        _ => Err(ExportError::WrongGame {
            format,
            expected: format.game(),
            got,
        }),
    }
}

/// A game read back from a file: the record and what the file says about
/// the players.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedGame {
    /// The record, checked by replaying it through the rules.
    pub record: GameRecord,
    /// Names by seat, date and event, as far as the file holds them.
    pub meta: ExportMeta,
}

/// Why a file could not be read back.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ImportError {
    /// Only the Gomoku formats are read back.
    #[error("{0:?} files are not read back")]
    NotSupported(ExportFormat),
    /// The text is not well-formed in the format.
    #[error("line {line}: {message}")]
    Syntax {
        /// 1-based line of the problem.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The file is well-formed but says something Tabula cannot play
    /// (a board that is not square, an unknown rule, ...).
    #[error("{0}")]
    Unsupported(String),
    /// A move or choice the rules refuse.
    #[error("move {index}: {error}")]
    Illegal {
        /// 0-based index of the refused action.
        index: usize,
        /// The rules' reason.
        error: GomokuError,
    },
}

/// Reads a file written in `format` back into a record. Only the Gomoku
/// formats ([`ExportFormat::GomokuSgf`], [`ExportFormat::Psq`]) are read.
///
/// # Errors
/// [`ImportError`] says what is wrong; malformed input never panics.
pub fn import(text: &str, format: ExportFormat) -> Result<ImportedGame, ImportError> {
    match format {
        ExportFormat::GomokuSgf => gomoku_sgf::parse(text),
        ExportFormat::Psq => psq::parse(text),
        ExportFormat::Mat | ExportFormat::GnubgSgf | ExportFormat::TabulaJson => {
            Err(ImportError::NotSupported(format))
        }
    }
}

/// A name cleaned for a one-line field: control characters become spaces,
/// surrounding space is trimmed, and an empty name becomes `fallback`.
pub(crate) fn clean_name(name: &str, fallback: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let s = s.trim();
    if s.is_empty() {
        fallback.to_string()
    } else {
        s.to_string()
    }
}
