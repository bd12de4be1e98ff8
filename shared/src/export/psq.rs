//! Piskvork / Gomocup `.psq`.
//!
//! ```text
//! Piskvorky 15x15, 11:11, 0
//! 8,8,0
//! 9,8,0
//! 7,9,0
//! Alice
//! Bob
//! rule renju
//! opening swap2
//! choice 3 play_white
//! ```
//!
//! * The header is `Piskvorky WxH, 11:11, 0` as Piskvork writes it (the
//!   `11:11, 0` part is kept for Piskvork and ignored on reading).
//! * One line per stone, in order: `x,y,time`, 1-based, `x` the column from
//!   the left and `y` the row **from the top** (Piskvork's screen
//!   coordinates; Tabula's `a1` is at the bottom left, so `y = size - row`).
//!   The record has no thinking times, so `time` is written as `0`; it is
//!   optional on reading.
//! * After the stones, as in Gomocup files, the players' names: the first
//!   seat's line, then the second seat's (by seat, not by colour; with no
//!   opening rule the first seat is black). A name that would read as a move
//!   line has its commas replaced by spaces.
//! * Then Tabula's own lines, which Piskvork ignores: `rule freestyle`,
//!   `rule standard` or `rule renju`; `opening swap2` when the game opened
//!   with swap2; and one `choice N what` per swap2 choice, `N` being the
//!   number of stones on the board when it was made and `what` one of
//!   `play_black`, `play_white`, `place_two`. Who chose is not stored: the
//!   rules say who must choose.
//!
//! [`import`](super::import) reads this back; without the Tabula lines a file is read as
//! freestyle with no opening rule, and unknown trailing lines (such as
//! Gomocup's `-1`) are ignored.

use std::fmt::Write;

use crate::gomoku::{GomokuAction, GomokuConfig, Opening, Point};

use super::gomoku_io::{self, Item, Names};
use super::{ExportError, ExportMeta, ImportError, ImportedGame, clean_name};

/// The stone of a move line `x,y` or `x,y,time`, 1-based, unchecked.
fn move_line(line: &str) -> Option<(u32, u32)> {
    let mut parts = line.trim().split(',');
    let x = parts.next()?.trim();
    let y = parts.next()?.trim();
    let t = parts.next();
    if parts.next().is_some() {
        return None;
    }
    let int = |s: &str| -> Option<u32> {
        if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
            None
        } else {
            s.parse().ok()
        }
    };
    if let Some(t) = t {
        let t = t.trim();
        let t = t.strip_prefix('-').unwrap_or(t);
        int(t)?;
    }
    Some((int(x)?, int(y)?))
}

fn name_line(name: &str, fallback: &str) -> String {
    let n = clean_name(name, fallback);
    if move_line(&n).is_some() {
        n.replace(',', " ")
    } else {
        n
    }
}

/// Writes the game.
pub(crate) fn write(
    config: &GomokuConfig,
    actions: &[GomokuAction],
    meta: &ExportMeta,
) -> Result<String, ExportError> {
    gomoku_io::replay(config, actions)?;
    let size = config.size;
    let mut out = format!("Piskvorky {size}x{size}, 11:11, 0\n");
    let mut placed = 0usize;
    let mut choices = Vec::new();
    for action in actions {
        match action {
            GomokuAction::Place { point, .. } => {
                placed += 1;
                let _ = writeln!(
                    out,
                    "{},{},0",
                    u32::from(point.x) + 1,
                    u32::from(size) - u32::from(point.y)
                );
            }
            GomokuAction::Choose { choice, .. } => choices.push((placed, *choice)),
        }
    }
    let _ = writeln!(out, "{}", name_line(&meta.players[0], "Player 1"));
    let _ = writeln!(out, "{}", name_line(&meta.players[1], "Player 2"));
    let _ = writeln!(out, "rule {}", gomoku_io::rule_name(config.rule));
    if let Some(o) = gomoku_io::opening_name(config.opening) {
        let _ = writeln!(out, "opening {o}");
    }
    for (n, choice) in choices {
        let _ = writeln!(out, "choice {n} {}", gomoku_io::choice_name(choice));
    }
    Ok(out)
}

fn syntax(line: usize, message: impl Into<String>) -> ImportError {
    ImportError::Syntax {
        line,
        message: message.into(),
    }
}

/// Reads a `.psq` back into a record.
pub(crate) fn parse(text: &str) -> Result<ImportedGame, ImportError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    let (_, header) = lines.next().ok_or_else(|| syntax(1, "empty file"))?;
    let rest = header
        .strip_prefix("Piskvorky")
        .ok_or_else(|| syntax(1, "the first line must start with \"Piskvorky\""))?;
    let dims = rest
        .split(',')
        .next()
        .map(str::trim)
        .ok_or_else(|| syntax(1, "no board size"))?;
    let (w, h) = dims
        .split_once(['x', 'X'])
        .ok_or_else(|| syntax(1, format!("bad board size {dims:?}")))?;
    let parse_dim = |s: &str| -> Result<u8, ImportError> {
        let s = s.trim();
        if s.is_empty() || s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(syntax(1, format!("bad board size {dims:?}")));
        }
        s.parse()
            .map_err(|_| syntax(1, format!("bad board size {dims:?}")))
    };
    let (w, h) = (parse_dim(w)?, parse_dim(h)?);
    if w != h {
        return Err(ImportError::Unsupported(format!(
            "{w}x{h}: only square boards"
        )));
    }
    let size = w;
    let mut config = GomokuConfig {
        size,
        ..GomokuConfig::default()
    };
    let mut stones: Vec<(Point, usize)> = Vec::new();
    let mut trailing = Vec::new();
    for (n, line) in lines.by_ref() {
        if !trailing.is_empty() {
            trailing.push((n, line));
            continue;
        }
        match move_line(line) {
            Some((x, y)) => {
                if !(1..=u32::from(size)).contains(&x) || !(1..=u32::from(size)).contains(&y) {
                    return Err(syntax(n, format!("{line:?} is off the board")));
                }
                // In range: both fit in u8.
                let p = Point::new((x - 1) as u8, (u32::from(size) - y) as u8);
                stones.push((p, n));
            }
            None => trailing.push((n, line)),
        }
    }
    let mut names: [String; 2] = Default::default();
    let mut choices: Vec<(usize, crate::gomoku::Swap2Choice, usize)> = Vec::new();
    for (i, &(n, line)) in trailing.iter().enumerate() {
        if i < 2 {
            names[i] = clean_name(line, "");
            continue;
        }
        let mut words = line.split_whitespace();
        match words.next() {
            Some("rule") => {
                let w = words.next().unwrap_or("");
                config.rule = gomoku_io::rule_from_name(w)
                    .ok_or_else(|| ImportError::Unsupported(format!("unknown rule {w:?}")))?;
            }
            Some("opening") => {
                config.opening = match words.next().unwrap_or("") {
                    "swap2" => Opening::Swap2,
                    "none" => Opening::None,
                    w => {
                        return Err(ImportError::Unsupported(format!("unknown opening {w:?}")));
                    }
                };
            }
            Some("choice") => {
                let at = words
                    .next()
                    .and_then(|s| s.parse::<usize>().ok())
                    .ok_or_else(|| syntax(n, "a choice needs a stone count"))?;
                let what = words.next().unwrap_or("");
                let choice = gomoku_io::choice_from_name(what)
                    .ok_or_else(|| syntax(n, format!("unknown swap2 choice {what:?}")))?;
                if at > stones.len() || choices.last().is_some_and(|&(prev, _, _)| prev > at) {
                    return Err(syntax(
                        n,
                        format!("choice after stone {at} is out of order"),
                    ));
                }
                choices.push((at, choice, n));
            }
            // Gomocup's own trailing lines and anything else.
            _ => continue,
        }
        if words.next().is_some() {
            return Err(syntax(n, format!("unexpected text in {line:?}")));
        }
    }
    let mut items = Vec::with_capacity(stones.len() + choices.len());
    let mut next_choice = choices.iter().peekable();
    for (k, &(point, line)) in stones.iter().enumerate() {
        while let Some(&&(at, choice, _)) = next_choice.peek() {
            if at != k {
                break;
            }
            items.push(Item::Choice { choice });
            next_choice.next();
        }
        items.push(Item::Stone {
            point,
            colour: None,
            line,
        });
    }
    for &(_, choice, _) in next_choice {
        items.push(Item::Choice { choice });
    }
    gomoku_io::rebuild(config, &items, Names::BySeat(names), None, None)
}
