//! GNU Backgammon's SGF dialect (`GM[6]`), as its `save match` writes it
//! and `load match` reads it.
//!
//! ```text
//! (;FF[4]GM[6]CA[UTF-8]AP[Tabula]MI[length:5][game:0][ws:0][bs:0]PW[Alice]PB[Bob]
//! DT[2026-01-31]RU[Crawford]RE[W+2]
//! ;W[31hefe]
//! ;B[double]
//! ;W[take]
//! ;B[64aggk]
//! ;W[55mhmhhchc]
//! ;B[21]
//! ;W[double]
//! ;B[drop])
//! (;FF[4]GM[6]...MI[length:5][game:1][ws:2][bs:0]...)
//! ```
//!
//! * One game tree per game of the match, one after the other. The root
//!   node holds `MI` (`length`, 0-based `game` number, scores before the
//!   game: `ws` White's, `bs` Black's), the names (`PW` is White, the first
//!   seat, GNU Backgammon's player 0; `PB` is Black), `DT` and `EV` from the
//!   [`ExportMeta`], `RU` (`Crawford`, or
//!   `Crawford:CrawfordGame` in the Crawford game, or `Jacoby` for a money
//!   game with the Jacoby rule) and, for a finished game, `RE`.
//! * `RE[W+n]` / `RE[B+n]`: the winner and the points won (cube included);
//!   an `R` suffix (`RE[B+4R]`) marks a resignation, from which GNU
//!   Backgammon rebuilds the resignation (points divided by the cube).
//! * A move node is `;W[` or `;B[` + the dice (high die first) + one pair of
//!   letters per single-die hop. Letters are absolute, in White's numbering:
//!   `a` is White's 1-point (Black's 24-point) ... `x` White's 24-point;
//!   `y` is the bar and `z` off, for both sides. So White's `8/5` is `he`
//!   and Black's `24/18` is `ag`. A roll with no possible move is just the
//!   dice (`;B[21]`).
//! * Cube actions are `;W[double]`, `;B[take]`, `;B[drop]`.
//! * A match with verifiable dice keeps its proof (`docs/DICE.md`) in each
//!   game's root comment, `C[Dice scheme: tabula-dice-v1\nDice commitment:
//!   …\nDice server seed: …\nDice white seed: …\nDice black seed: …]`.

use std::fmt::Write;

use crate::backgammon::{EndReason, Side};
use crate::fair_dice::{DiceProof, SCHEME};

use super::bg::{Event, Walk};
use super::sgf::escape;
use super::{ExportError, ExportMeta, clean_name};

/// The match's dice proof as the root comment of each game
/// (`docs/DICE.md`): one `name: value` per line.
fn dice_comment(proof: &DiceProof) -> String {
    let mut text = format!(
        "Dice scheme: {SCHEME}\nDice commitment: {}",
        proof.commitment
    );
    if let Some(seed) = &proof.server_seed {
        let _ = write!(text, "\nDice server seed: {seed}");
    }
    let _ = write!(
        text,
        "\nDice white seed: {}\nDice black seed: {}",
        proof.player_seeds[0], proof.player_seeds[1]
    );
    if proof.test_seed {
        text.push_str("\nDice test seed: yes");
    }
    text
}

fn colour(side: Side) -> char {
    match side {
        Side::White => 'W',
        Side::Black => 'B',
    }
}

/// The SGF letter of point `p` (25 = bar, 0 = off) in `side`'s numbering.
fn letter(side: Side, p: u8) -> char {
    let index = match (p, side) {
        (25, _) => 24,
        (0, _) => 25,
        (p, Side::White) => p - 1,
        (p, Side::Black) => 24 - p,
    };
    char::from(b'a' + index.min(25))
}

/// Writes the match.
pub(crate) fn write(
    walk: &Walk,
    meta: &ExportMeta,
    dice: Option<&DiceProof>,
) -> Result<String, ExportError> {
    let cfg = &walk.config;
    let white = escape(&clean_name(&meta.players[0], "White"));
    let black = escape(&clean_name(&meta.players[1], "Black"));
    let mut out = String::new();
    for game in &walk.games {
        let _ = write!(
            out,
            "(;FF[4]GM[6]CA[UTF-8]AP[Tabula:{}]MI[length:{}][game:{}][ws:{}][bs:{}]PW[{white}]PB[{black}]",
            env!("CARGO_PKG_VERSION"),
            cfg.length,
            game.index,
            game.score[0],
            game.score[1],
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
        if cfg.length > 0 && cfg.crawford {
            if game.crawford_game {
                out.push_str("RU[Crawford:CrawfordGame]");
            } else {
                out.push_str("RU[Crawford]");
            }
        } else if cfg.length == 0 && cfg.jacoby {
            out.push_str("RU[Jacoby]");
        }
        if let Some(proof) = dice {
            let _ = write!(out, "C[{}]", escape(&dice_comment(proof)));
        }
        if let Some(end) = game.end {
            let _ = write!(
                out,
                "RE[{}+{}{}]",
                colour(end.winner),
                end.points,
                if end.reason == EndReason::Resigned {
                    "R"
                } else {
                    ""
                }
            );
        }
        for event in &game.events {
            match event {
                Event::Move { side, dice, hops } => {
                    let _ = write!(out, "\n;{}[{}{}", colour(*side), dice.0, dice.1);
                    for h in hops {
                        out.push(letter(*side, h.from));
                        out.push(letter(*side, h.to));
                    }
                    out.push(']');
                }
                Event::Double { side, .. } => {
                    let _ = write!(out, "\n;{}[double]", colour(*side));
                }
                Event::Take { side } => {
                    let _ = write!(out, "\n;{}[take]", colour(*side));
                }
                Event::Drop { side } => {
                    let _ = write!(out, "\n;{}[drop]", colour(*side));
                }
                // Carried by the root's RE[...R].
                Event::Resign { .. } => {}
            }
        }
        out.push_str(")\n");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_match_gnubg() {
        // From a game saved by GNU Backgammon 1.07: White 31 8/5 6/5 is
        // "hefe", Black 64 24/18 18/14 is "aggk", Black 52 5/0 2/0 is "tzwz",
        // White 54 25/21 is "yu".
        assert_eq!(letter(Side::White, 8), 'h');
        assert_eq!(letter(Side::White, 5), 'e');
        assert_eq!(letter(Side::Black, 24), 'a');
        assert_eq!(letter(Side::Black, 18), 'g');
        assert_eq!(letter(Side::Black, 14), 'k');
        assert_eq!(letter(Side::Black, 5), 't');
        assert_eq!(letter(Side::Black, 0), 'z');
        assert_eq!(letter(Side::White, 25), 'y');
        assert_eq!(letter(Side::Black, 25), 'y');
        assert_eq!(letter(Side::White, 21), 'u');
    }
}
