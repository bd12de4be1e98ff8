//! The analysis board's positions: any Backgammon or Gomoku position a
//! player sets up or pastes, checked by the rules before an engine sees it.
//!
//! - Backgammon ([`BgSetup`]): a gnubg Position ID with or without its
//!   Match ID (`4HPwATDgc/ABMA:cAkAAAAAAAAA`, or gnubg's own lines
//!   `Position ID: …` / `Match ID: …`), an XGID, or by hand.
//! - Gomoku ([`GomokuSetup`]): a move list (`h8 i9 j10`, `h8i9j10`), a
//!   Piskvork PSQ file, an SGF record, or stones by hand.
//! - A link (`#/board/…`, [`StudyPosition::link`]) carries a position in
//!   a URL's fragment.

mod bg_setup;
mod error;
mod gomoku_setup;
#[cfg(test)]
mod tests;
mod xgid;

pub use bg_setup::{BgSetup, MAX_STUDY_LENGTH};
pub use error::SetupError;
pub use gomoku_setup::GomokuSetup;
pub use xgid::is_xgid;

use serde::{Deserialize, Serialize};

use crate::export::ExportFormat;
use crate::gomoku::{GomokuConfig, Point, Rule, Stone};

/// A position on the analysis board.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum StudyPosition {
    /// A Backgammon position.
    Backgammon(BgSetup),
    /// A Gomoku position.
    Gomoku(GomokuSetup),
}

/// The prefix of a board link's fragment.
pub const LINK_PREFIX: &str = "#/board/";

impl StudyPosition {
    /// Checks the position against the rules.
    ///
    /// # Errors
    /// What is wrong, as a [`SetupError`].
    pub fn check(&self) -> Result<(), SetupError> {
        match self {
            StudyPosition::Backgammon(setup) => setup.to_match().map(|_| ()),
            StudyPosition::Gomoku(setup) => setup.board().map(|_| ()),
        }
    }

    /// Reads pasted text: the positions along what it holds, first to last
    /// (a Gomoku record or move list gives every position from the empty
    /// board on; an ID gives one). `gomoku` is the size and rule a bare
    /// move list (and a PSQ file, which has no rule) is read with.
    ///
    /// # Errors
    /// A [`SetupError`] naming what does not read.
    pub fn parse(text: &str, gomoku: GomokuConfig) -> Result<Vec<StudyPosition>, SetupError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(SetupError::Unrecognised);
        }
        if let Some(rest) = t.strip_prefix(LINK_PREFIX).or_else(|| {
            t.find(LINK_PREFIX)
                .map(|i| &t[i + LINK_PREFIX.len()..])
                .filter(|_| t.starts_with("http"))
        }) {
            return StudyPosition::from_link(rest).map(|p| vec![p]);
        }
        if is_xgid(t) {
            return BgSetup::from_xgid(t).map(|s| vec![StudyPosition::Backgammon(s)]);
        }
        if t.starts_with("(;") {
            let (config, moves) = GomokuSetup::parse_record(t, ExportFormat::GomokuSgf)?;
            return gomoku_line(config.size, config.rule, &moves);
        }
        if t.starts_with("Piskvorky") {
            let (config, moves) = GomokuSetup::parse_record(t, ExportFormat::Psq)?;
            return gomoku_line(config.size, gomoku.rule, &moves);
        }
        if let Some((position_id, match_id)) = gnubg_ids(t) {
            let bg = BgSetup::from_gnubg(position_id, match_id);
            return match bg {
                Ok(setup) => Ok(vec![StudyPosition::Backgammon(setup)]),
                // A 14-letter run of moves ("h8i9j10k11l12m") reads as
                // Gomoku when it is not a Position ID.
                Err(e) => GomokuSetup::parse_moves(t, gomoku.size, gomoku.rule)
                    .and_then(|moves| gomoku_line(gomoku.size, gomoku.rule, &moves))
                    .map_err(|_| e),
            };
        }
        let moves = GomokuSetup::parse_moves(t, gomoku.size, gomoku.rule).map_err(|e| {
            if t.chars().any(|c| c.is_ascii_digit()) {
                e
            } else {
                SetupError::Unrecognised
            }
        })?;
        gomoku_line(gomoku.size, gomoku.rule, &moves)
    }

    /// The fragment that opens this position on the board in a browser:
    /// [`LINK_PREFIX`] then `bg/<XGID fields>` or
    /// `gomoku/<rule>/<size>/<b|w to move>/<black>/<white>` (points comma
    /// separated).
    pub fn link(&self) -> String {
        match self {
            StudyPosition::Backgammon(setup) => {
                let xgid = setup.xgid();
                format!("{LINK_PREFIX}bg/{}", xgid.trim_start_matches("XGID="))
            }
            StudyPosition::Gomoku(s) => {
                let list = |ps: &[Point]| {
                    ps.iter()
                        .map(Point::to_string)
                        .collect::<Vec<_>>()
                        .join(",")
                };
                let rule = match s.rule {
                    Rule::Freestyle => "freestyle",
                    Rule::Standard => "standard",
                    Rule::Renju => "renju",
                };
                let to_move = if s.to_move == Stone::Black { "b" } else { "w" };
                format!(
                    "{LINK_PREFIX}gomoku/{rule}/{}/{to_move}/{}/{}",
                    s.size,
                    list(&s.black),
                    list(&s.white)
                )
            }
        }
    }

    /// Reads what follows [`LINK_PREFIX`] in a board link.
    ///
    /// # Errors
    /// [`SetupError::Unrecognised`] for a link of neither game, else what
    /// is wrong with the position.
    pub fn from_link(rest: &str) -> Result<StudyPosition, SetupError> {
        let rest = rest.trim().trim_start_matches(LINK_PREFIX);
        if let Some(xgid) = rest.strip_prefix("bg/") {
            return BgSetup::from_xgid(xgid).map(StudyPosition::Backgammon);
        }
        let Some(g) = rest.strip_prefix("gomoku/") else {
            return Err(SetupError::Unrecognised);
        };
        let parts: Vec<&str> = g.split('/').collect();
        let [rule, size, to_move, black, white] = parts[..] else {
            return Err(SetupError::Unrecognised);
        };
        let rule = match rule {
            "freestyle" => Rule::Freestyle,
            "standard" => Rule::Standard,
            "renju" => Rule::Renju,
            _ => return Err(SetupError::Unrecognised),
        };
        let size: u8 = size.parse().map_err(|_| SetupError::Unrecognised)?;
        let to_move = match to_move {
            "b" => Stone::Black,
            "w" => Stone::White,
            _ => return Err(SetupError::Unrecognised),
        };
        let points = |list: &str| -> Result<Vec<Point>, SetupError> {
            list.split(',')
                .filter(|t| !t.is_empty())
                .map(|t| {
                    Point::parse_on(t, size).map_err(|e| SetupError::Point {
                        text: t.into(),
                        reason: e.to_string(),
                    })
                })
                .collect()
        };
        let setup = GomokuSetup {
            size,
            rule,
            black: points(black)?,
            white: points(white)?,
            to_move,
        };
        setup.board()?;
        Ok(StudyPosition::Gomoku(setup))
    }
}

/// Every position along `moves` from the empty board.
fn gomoku_line(size: u8, rule: Rule, moves: &[Point]) -> Result<Vec<StudyPosition>, SetupError> {
    let mut setup = GomokuSetup::empty(size, rule);
    setup.board()?;
    let mut line = vec![StudyPosition::Gomoku(setup.clone())];
    for &p in moves {
        setup = setup.play(p)?;
        line.push(StudyPosition::Gomoku(setup.clone()));
    }
    Ok(line)
}

/// The Position ID and Match ID in gnubg's ways of writing them
/// (`PID:MID`, `PID MID`, `Position ID: PID` / `Match ID: MID`,
/// `GNUbg ID: PID:MID`); `None` when the text has no 14-character token.
fn gnubg_ids(text: &str) -> Option<(&str, Option<&str>)> {
    let labels = ["gnubg", "id", "position", "match", "gnu", "backgammon"];
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ':')
        .filter(|t| !t.is_empty() && !labels.contains(&t.to_ascii_lowercase().as_str()))
        .collect();
    let base64 = |t: &str| {
        t.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '+' || c == '/')
    };
    match tokens[..] {
        // One ID: a Position ID, maybe mistyped (mixed case, no spaces).
        [p] if (12..=16).contains(&p.len())
            && base64(p)
            && p.chars().any(|c| c.is_ascii_uppercase()) =>
        {
            Some((p, None))
        }
        [m, p] if m.len() == 12 && p.len() == 14 && base64(m) && base64(p) => Some((p, Some(m))),
        [p, m] if base64(p) && base64(m) && (p.len() == 14 || m.len() == 12) => Some((p, Some(m))),
        _ => None,
    }
}
