//! Jellyfish `.mat` text, as GNU Backgammon's `export match mat` writes it
//! and its `import mat` reads it.
//!
//! ```text
//! ; [Event "Room 12"]
//! ; [Player 1 "Alice"]
//! ; [Player 2 "Bob"]
//! ; [EventDate "2026.01.31"]
//! ; [Variation "Backgammon"]
//! ; [Crawford "On"]
//! ; [Jacoby "Off"]
//!
//!  5 point match
//!
//!  Game 1
//!  Alice : 0                      Bob : 0
//!   1)                             31: 8/5 6/5
//!   2) 64: 24/18 18/14             Doubles => 2
//!   3)  Takes                      55: 13/8 13/8 8/3 8/3
//!   ...
//!       Wins 2 points
//!
//!  Game 2
//!  ...
//! ```
//!
//! * Comment lines (`;`) before the ` N point match` line carry the
//!   XG-style tags for event, players (Player 1 is the left column), date,
//!   Crawford and Jacoby. A money game is written as a `0 point match`.
//!   A match with verifiable dice adds its proof (`docs/DICE.md`):
//!   `; [Dice Scheme "tabula-dice-v1"]`, `; [Dice Commitment "…"]`,
//!   `; [Dice Server Seed "…"]` once revealed, `; [Dice White Seed "…"]`,
//!   `; [Dice Black Seed "…"]` and `; [Dice Test Seed "Yes"]` for a test seed.
//! * Each game has a ` Game n` line, then both names with the scores before
//!   the game: White (the first seat, GNU Backgammon's player 0) on the
//!   left, Black on the right. Names lose `:` (the reader splits on it) and
//!   are cut to 31 bytes; GNU Backgammon turns their spaces into `_`.
//! * Numbered lines hold White's action in the left column (28 characters
//!   after the `nnn) ` prefix) and Black's in the right column. When Black
//!   starts a game the first left cell is empty; a White action after a
//!   Black one starts a new line.
//! * A move is `hl: hops`: the dice, high die first, then one single-die hop
//!   per token, from the mover's own side: `24/18 18/14`, `25/20*` for bar
//!   to 20 with a hit, `3/0` for bearing off; `66:` alone when no checker
//!   can move. Hops are written in an order in which they can be played.
//! * Cube actions: ` Doubles => v` (the offered value), ` Takes`, ` Drops`.
//! * A finished game ends with ` Wins N point(s)` on a line of its own, in
//!   the winner's column. GNU Backgammon reads this as a resignation when
//!   the game is still going (neither borne off nor dropped), which is how
//!   resigned games come across. A game the record leaves unfinished has no
//!   `Wins` line.
//! * A blank line ends each game. Lines keep the left cell's padding even
//!   when the right cell is empty (see `push_line` in the source for why).
//!
//! What the format cannot say: GNU Backgammon 1.07 ignores the `Crawford`
//! and `Jacoby` tags. It assumes the Crawford rule in every match (a match
//! played without it imports with the same moves, doubles and scores, but
//! gnubg marks a Crawford game that was not one), and applies its own Jacoby
//! setting to money games. The SGF export carries both rules.

use std::fmt::Write;

use crate::backgammon::Side;
use crate::fair_dice::{DiceProof, SCHEME};

use super::bg::{Event, Walk, points_text};
use super::{ExportError, ExportMeta, clean_name};

/// Width of the left column.
const LEFT: usize = 28;

/// A name as the `.mat` reader can take it: no `:`, at most 31 bytes.
fn mat_name(name: &str, fallback: &str) -> String {
    let s = clean_name(name, fallback).replace([':', '"'], "_");
    let mut out = String::new();
    for c in s.chars() {
        if out.len() + c.len_utf8() > 31 {
            break;
        }
        out.push(c);
    }
    let out = out.trim().to_string();
    if out.is_empty() {
        fallback.to_string()
    } else {
        out
    }
}

/// The match's dice proof as comment lines (`docs/DICE.md`), so that the
/// file keeps what a check needs: the scheme, the commitment, both players'
/// seeds and, once revealed, the server seed. A value is everything between
/// the first `"` and the `"]` that ends the line (a player seed may itself
/// hold `"`); readers that do not know these tags skip them.
fn write_dice(out: &mut String, proof: &DiceProof) {
    let _ = writeln!(out, "; [Dice Scheme \"{SCHEME}\"]");
    let _ = writeln!(out, "; [Dice Commitment \"{}\"]", proof.commitment);
    if let Some(seed) = &proof.server_seed {
        let _ = writeln!(out, "; [Dice Server Seed \"{seed}\"]");
    }
    let _ = writeln!(out, "; [Dice White Seed \"{}\"]", proof.player_seeds[0]);
    let _ = writeln!(out, "; [Dice Black Seed \"{}\"]", proof.player_seeds[1]);
    if proof.test_seed {
        let _ = writeln!(out, "; [Dice Test Seed \"Yes\"]");
    }
}

fn tag(s: &str) -> String {
    clean_name(s, "").replace('"', "'")
}

fn event_text(event: &Event) -> Option<(Side, String)> {
    match event {
        Event::Move { side, dice, hops } => {
            let mut s = format!("{}{}:", dice.0, dice.1);
            for h in hops {
                let _ = write!(s, " {}/{}{}", h.from, h.to, if h.hit { "*" } else { "" });
            }
            Some((*side, s))
        }
        Event::Double { side, value } => Some((*side, format!(" Doubles => {value}"))),
        Event::Take { side } => Some((*side, " Takes".to_string())),
        Event::Drop { side } => Some((*side, " Drops".to_string())),
        // The `Wins` line says it.
        Event::Resign { .. } => None,
    }
}

/// One line: prefix, left cell padded to [`LEFT`], right cell. The padding
/// is kept even when the right cell is empty: GNU Backgammon 1.07 finds the
/// right cell at the first double space after column 15, and on a line where
/// it finds none it reuses the previous line's right-cell position, reading
/// stale text (a `Drops` line on its own after a `Doubles` line came back
/// as a second double). With the padding every line has its own split.
fn push_line(out: &mut String, number: Option<usize>, left: &str, right: &str) {
    let mut line = match number {
        Some(n) => format!("{n:>3}) "),
        None => "     ".to_string(),
    };
    line.push_str(left);
    let pad = LEFT.saturating_sub(left.len()).max(2);
    line.extend(std::iter::repeat_n(' ', pad));
    line.push_str(right);
    out.push_str(&line);
    out.push('\n');
}

/// Writes the match.
pub(crate) fn write(
    walk: &Walk,
    meta: &ExportMeta,
    dice: Option<&DiceProof>,
) -> Result<String, ExportError> {
    let names = [
        mat_name(&meta.players[0], "White"),
        mat_name(&meta.players[1], "Black"),
    ];
    let mut out = String::new();
    if let Some(event) = meta.event.as_deref().map(tag).filter(|e| !e.is_empty()) {
        let _ = writeln!(out, "; [Event \"{event}\"]");
    }
    let _ = writeln!(out, "; [Player 1 \"{}\"]", tag(&names[0]));
    let _ = writeln!(out, "; [Player 2 \"{}\"]", tag(&names[1]));
    if let Some((y, m, d)) = meta.ymd() {
        let _ = writeln!(out, "; [EventDate \"{y:04}.{m:02}.{d:02}\"]");
    }
    let on_off = |b: bool| if b { "On" } else { "Off" };
    let _ = writeln!(out, "; [Variation \"Backgammon\"]");
    let cfg = &walk.config;
    let _ = writeln!(
        out,
        "; [Crawford \"{}\"]",
        on_off(cfg.length > 0 && cfg.crawford)
    );
    let _ = writeln!(
        out,
        "; [Jacoby \"{}\"]",
        on_off(cfg.length == 0 && cfg.jacoby)
    );
    let _ = writeln!(out, "; [Exported by \"Tabula\"]");
    if let Some(proof) = dice {
        write_dice(&mut out, proof);
    }
    let _ = writeln!(out);
    let _ = writeln!(out, " {} point match", cfg.length);
    let _ = writeln!(out);
    for game in &walk.games {
        let _ = writeln!(out, " Game {}", game.index + 1);
        let _ = writeln!(
            out,
            " {:<30} {} : {}",
            format!("{} : {}", names[0], game.score[0]),
            names[1],
            game.score[1]
        );
        // One numbered line per White move; a Black move shares the line of
        // the White move before it, or opens a line of its own.
        let mut number = 0;
        let mut left: Option<String> = None;
        let mut right: Option<String> = None;
        let flush = |out: &mut String, number, left: &Option<String>, right: &Option<String>| {
            push_line(
                out,
                Some(number),
                left.as_deref().unwrap_or(""),
                right.as_deref().unwrap_or(""),
            );
        };
        for event in &game.events {
            let Some((side, text)) = event_text(event) else {
                continue;
            };
            if side == Side::White || number == 0 || right.is_some() {
                if number > 0 {
                    flush(&mut out, number, &left, &right);
                }
                number += 1;
                left = None;
                right = None;
            }
            match side {
                Side::White => left = Some(text),
                Side::Black => right = Some(text),
            }
        }
        if number > 0 {
            flush(&mut out, number, &left, &right);
        }
        if let Some(end) = game.end {
            let wins = format!(" Wins {}", points_text(end.points));
            match end.winner {
                Side::White => push_line(&mut out, None, &wins, ""),
                Side::Black => push_line(&mut out, None, "", &wins),
            }
        }
        let _ = writeln!(out);
    }
    Ok(out)
}
