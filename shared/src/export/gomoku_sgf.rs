//! Gomoku SGF (`GM[4]`, the SGF game number for Gomoku and Renju).
//!
//! ```text
//! (;FF[4]GM[4]CA[UTF-8]AP[Tabula:0.1.0]SZ[15]RU[renju swap2]PB[Bob]PW[Alice]
//! DT[2026-01-31]EV[Room 12]RE[W+]
//! ;B[hh]
//! ;W[ih]
//! ;B[gi]
//! ;SC[place_two]C[The second player places two more stones.]
//! ;W[ii]
//! ;B[gg]
//! ;SC[play_white]C[The first player chooses white.]
//! ;W[jj]
//! ...)
//! ```
//!
//! * `SZ` is the board side (boards are square). `RU` holds the rule set
//!   (`freestyle`, `standard` or `renju`, as [`Rule`](crate::gomoku::Rule)
//!   names them) followed by ` swap2` when the game opened with swap2.
//! * Points are two letters, column then row, counted from the **top left**
//!   corner as in every SGF game: `aa` is the top-left point. So Tabula's
//!   `h8` (`x = 7, y = 7`) on 15x15 is `hh`, and `a1` (bottom left) is
//!   `ao`.
//! * `B` and `W` nodes are the stones, by colour, in the order they were
//!   placed, including the swap2 opening stones (black, white, black, and
//!   after `place_two` white, black).
//! * Swap2 choices have no standard SGF form. Each one is a node of its
//!   own with a private `SC` property (`play_black`, `play_white` or
//!   `place_two`, as in [`Swap2Choice`](crate::gomoku::Swap2Choice)) and a
//!   readable comment `C`. Who chooses is not stored: the rules say who
//!   must choose (the second seat, then after `place_two` the first seat).
//!   Other SGF readers ignore `SC` and show the stones.
//! * `PB` is the player who ended up with black, `PW` with white (while
//!   swap2 has not decided the colours: `PB` is the first seat).
//! * `RE` is `B+` or `W+` for a five, `0` for a full board; for a game the
//!   rules did not end, what [`ExportMeta::result`] says (`B+R`/`W+R` for a
//!   resignation, `+T` for time, `0` for an agreed draw), else absent.
//!
//! [`import`](super::import) reads this back (main line only), checks every move with the
//! rules, and refuses passes, setup stones (`AB`, `AW`) and unknown `RU`
//! words.

use std::fmt::Write;

use crate::gomoku::{GomokuAction, GomokuConfig, Opening, Point, Stone};

use super::gomoku_io::{self, Item, Names};
use super::sgf::{self, escape};
use super::{ExportError, ExportMeta, ImportError, ImportedGame, clean_name};

fn point_text(p: Point, size: u8) -> String {
    let col = char::from(b'a' + p.x);
    let row = char::from(b'a' + (size - 1 - p.y));
    format!("{col}{row}")
}

/// Writes the game.
pub(crate) fn write(
    config: &GomokuConfig,
    actions: &[GomokuAction],
    meta: &ExportMeta,
) -> Result<String, ExportError> {
    let game = gomoku_io::replay(config, actions)?;
    let black = gomoku_io::black_seat(&game);
    let mut out = String::new();
    let _ = write!(
        out,
        "(;FF[4]GM[4]CA[UTF-8]AP[Tabula:{}]SZ[{}]RU[{}{}]",
        env!("CARGO_PKG_VERSION"),
        config.size,
        gomoku_io::rule_name(config.rule),
        gomoku_io::opening_name(config.opening)
            .map(|o| format!(" {o}"))
            .unwrap_or_default()
    );
    let _ = write!(
        out,
        "PB[{}]PW[{}]",
        escape(&clean_name(meta.name(black), "Black")),
        escape(&clean_name(meta.name(black.other()), "White"))
    );
    if let Some((y, m, d)) = meta.ymd() {
        let _ = write!(out, "DT[{y:04}-{m:02}-{d:02}]");
    }
    if let Some(event) = meta.event.as_deref() {
        let event = clean_name(event, "");
        if !event.is_empty() {
            let _ = write!(out, "EV[{}]", escape(&event));
        }
    }
    match gomoku_io::result(&game) {
        Some(Some(Stone::Black)) => out.push_str("RE[B+]"),
        Some(Some(Stone::White)) => out.push_str("RE[W+]"),
        Some(None) => out.push_str("RE[0]"),
        // Not decided on the board: a resignation, a timeout or a draw
        // agreed, when the caller knows it.
        None => {
            use crate::game::EndReason;
            if let Some(result) = &meta.result {
                let suffix = match result.reason {
                    EndReason::Resigned => "R",
                    EndReason::Timeout => "T",
                    _ => "",
                };
                match result.winner {
                    Some(seat) if seat == black => {
                        let _ = write!(out, "RE[B+{suffix}]");
                    }
                    Some(_) => {
                        let _ = write!(out, "RE[W+{suffix}]");
                    }
                    None => out.push_str("RE[0]"),
                }
            }
        }
    }
    let mut placed = 0usize;
    for action in actions {
        match action {
            GomokuAction::Place { point, .. } => {
                let colour = if placed.is_multiple_of(2) { 'B' } else { 'W' };
                placed += 1;
                let _ = write!(out, "\n;{colour}[{}]", point_text(*point, config.size));
            }
            GomokuAction::Choose { seat, choice } => {
                let _ = write!(
                    out,
                    "\n;SC[{}]C[{}]",
                    gomoku_io::choice_name(*choice),
                    escape(&gomoku_io::choice_sentence(*choice, *seat))
                );
            }
        }
    }
    out.push_str(")\n");
    Ok(out)
}

fn syntax(line: usize, message: impl Into<String>) -> ImportError {
    ImportError::Syntax {
        line,
        message: message.into(),
    }
}

fn parse_point(s: &str, size: u8, line: usize) -> Result<Point, ImportError> {
    let b = s.trim().as_bytes();
    if b.is_empty() {
        return Err(syntax(line, "a pass; Gomoku has none"));
    }
    if b.len() != 2 || !b.iter().all(u8::is_ascii_lowercase) {
        return Err(syntax(line, format!("bad point {s:?}")));
    }
    let (x, row) = (b[0] - b'a', b[1] - b'a');
    if x >= size || row >= size {
        return Err(syntax(line, format!("point {s:?} is off the board")));
    }
    Ok(Point::new(x, size - 1 - row))
}

/// Reads a Gomoku SGF back into a record.
pub(crate) fn parse(text: &str) -> Result<ImportedGame, ImportError> {
    let nodes = sgf::parse_main_line(text)?;
    let Some(root) = nodes.first() else {
        return Err(syntax(1, "no node"));
    };
    if let Some(gm) = root.get("GM")
        && gm.trim() != "4"
    {
        return Err(ImportError::Unsupported(format!(
            "GM[{gm}] is not Gomoku (GM[4])"
        )));
    }
    let size = match root.get("SZ") {
        None => 15,
        Some(sz) => {
            let (w, h) = sz.split_once(':').unwrap_or((sz, sz));
            let (w, h) = (w.trim(), h.trim());
            let w: u8 = w
                .parse()
                .map_err(|_| syntax(root.line, format!("bad SZ[{sz}]")))?;
            if h.parse::<u8>().ok() != Some(w) {
                return Err(ImportError::Unsupported(format!(
                    "SZ[{sz}]: only square boards"
                )));
            }
            w
        }
    };
    let mut config = GomokuConfig {
        size,
        ..GomokuConfig::default()
    };
    if let Some(ru) = root.get("RU") {
        let mut rule_seen = false;
        for word in ru.split_whitespace() {
            if let Some(rule) = gomoku_io::rule_from_name(word)
                && !rule_seen
            {
                config.rule = rule;
                rule_seen = true;
            } else if word.eq_ignore_ascii_case("swap2") && config.opening == Opening::None {
                config.opening = Opening::Swap2;
            } else {
                return Err(ImportError::Unsupported(format!("RU[{ru}]: unknown rules")));
            }
        }
    }
    let mut items = Vec::new();
    for node in &nodes {
        let mut here = 0;
        for prop in &node.props {
            let value = prop.values.first().map(String::as_str).unwrap_or("");
            match prop.ident.as_str() {
                "B" | "W" => {
                    let colour = if prop.ident == "B" {
                        Stone::Black
                    } else {
                        Stone::White
                    };
                    items.push(Item::Stone {
                        point: parse_point(value, size, prop.line)?,
                        colour: Some(colour),
                        line: prop.line,
                    });
                    here += 1;
                }
                "SC" => {
                    let choice = gomoku_io::choice_from_name(value).ok_or_else(|| {
                        syntax(prop.line, format!("unknown swap2 choice {value:?}"))
                    })?;
                    items.push(Item::Choice { choice });
                    here += 1;
                }
                "AB" | "AW" | "AE" => {
                    return Err(ImportError::Unsupported(
                        "setup stones (AB/AW/AE) are not supported".into(),
                    ));
                }
                _ => {}
            }
        }
        if here > 1 {
            return Err(syntax(node.line, "more than one move in a node"));
        }
    }
    let names = Names::ByColour {
        black: root
            .get("PB")
            .map(|s| clean_name(s, ""))
            .unwrap_or_default(),
        white: root
            .get("PW")
            .map(|s| clean_name(s, ""))
            .unwrap_or_default(),
    };
    let date = root.get("DT").and_then(gomoku_io::date_prefix);
    let event = root
        .get("EV")
        .map(|s| clean_name(s, ""))
        .filter(|s| !s.is_empty());
    gomoku_io::rebuild(config, &items, names, date, event)
}
