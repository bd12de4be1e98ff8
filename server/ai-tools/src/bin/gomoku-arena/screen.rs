//! `--screen AUDIT --a pbrain:CMD`: does an engine avoid the losing moves
//! an audit found?
//!
//! Reads the `position` lines of `--audit`'s output (the stones before a
//! lost game's losing move, that move, and the moves after which the
//! winner has no threat win), asks the engine for its move at each
//! position that had such a move, within the arena's time per move, and
//! counts the answers among them. A screen, not a match: the positions
//! are where one build went wrong, so a build that only avoids these
//! losses can still lose elsewhere (docs/history/AI-log.md, session 26).

use std::time::Duration;

use tabula_shared::gomoku::{Point, Rule, Stone};

use crate::engine::Engine;

/// One audited position: the stones so far in order, the move A played
/// there, and A's moves that leave the winner without a threat win.
struct Audited {
    moves: Vec<Point>,
    played: String,
    safe: Vec<Point>,
}

/// Parses a `position N: MOVES | played M | safe MOVES` line.
fn parse(line: &str, size: u8) -> Option<Audited> {
    let (_, rest) = line.strip_prefix("position ")?.split_once(':')?;
    let mut parts = rest.split('|');
    let points = |s: &str| -> Option<Vec<Point>> {
        s.split_whitespace()
            .map(|m| Point::parse_on(m, size).ok())
            .collect()
    };
    let moves = points(parts.next()?)?;
    let played = parts
        .next()?
        .trim()
        .strip_prefix("played")?
        .trim()
        .to_string();
    let safe = points(parts.next()?.trim().strip_prefix("safe")?)?;
    Some(Audited {
        moves,
        played,
        safe,
    })
}

/// Asks `command` at every audited position of `path` with a safe move,
/// and prints each answer and how many were safe.
pub fn screen(path: &str, command: &str, size: u8, rule: Rule, budget: Duration) {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            return;
        }
    };
    let positions: Vec<Audited> = text
        .lines()
        .filter_map(|l| parse(l, size))
        .filter(|p| !p.safe.is_empty())
        .collect();
    let mut safe_answers = 0;
    // The colour of the stone placed at ply `i` (from zero): black first.
    let colour = |i: usize| {
        if i.is_multiple_of(2) {
            Stone::Black
        } else {
            Stone::White
        }
    };
    for (k, p) in positions.iter().enumerate() {
        let me = colour(p.moves.len());
        let stones: Vec<(Point, Stone)> = p
            .moves
            .iter()
            .enumerate()
            .map(|(i, &m)| (m, colour(i)))
            .collect();
        let answer =
            Engine::start(command, size, rule, budget).and_then(|mut e| e.play(&stones, me));
        match answer {
            Ok((m, took)) => {
                let safe = p.safe.contains(&m);
                safe_answers += usize::from(safe);
                println!(
                    "position {k} (ply {}): played {} then, now {m} in {} ms: {}",
                    p.moves.len() + 1,
                    p.played,
                    took.as_millis(),
                    if safe { "safe" } else { "loses" }
                );
            }
            Err(e) => println!("position {k}: the engine failed: {e}"),
        }
    }
    println!(
        "{command}: {safe_answers} of {} positions answered with a move the audit finds safe",
        positions.len()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `position` line as `--audit` prints it reads back as its stones,
    /// the move played and the safe moves; one with no safe move keeps
    /// an empty list (the screen skips it).
    #[test]
    fn an_audit_position_line_reads_back() {
        let p = parse("position 3: h8 i9 j10 | played k11 | safe g7 l12", 15).unwrap();
        let names = |ps: &[Point]| ps.iter().map(|p| p.to_string()).collect::<Vec<_>>();
        assert_eq!(names(&p.moves), ["h8", "i9", "j10"]);
        assert_eq!(p.played, "k11");
        assert_eq!(names(&p.safe), ["g7", "l12"]);
        let none = parse("position 4: h8 i9 | played j10 | safe ", 15).unwrap();
        assert!(none.safe.is_empty());
        assert!(parse("game 3: 14 plies, lost after ply 9", 15).is_none());
    }
}
