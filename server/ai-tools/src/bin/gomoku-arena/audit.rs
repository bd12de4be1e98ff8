//! `--audit LOG`: where were A's lost games lost to a threat sequence?
//!
//! Reads the records of an arena run (`-v`: a `moves:` line, then the
//! board, then `opening N A as SEAT: Some(WINNER)`), takes every game the
//! player A lost, and finds the first position after one of A's moves
//! where the winner has a threat win (a VCF, or a VCT of at most ten
//! threats, within 400,000 nodes). For that position it prints the
//! smallest threat search that finds the win: the budget A's safety check
//! would have needed to see that its move lost (`-` when the win is
//! deeper than the audit looks, i.e. the game was lost before in a way
//! no threat search shows). It then plays every other move A had there
//! (every empty point within two of a stone) and counts those after
//! which the winner has no such threat win: whether A's move was the
//! mistake, or the game was already lost to threats whatever A played.
//! A `position` line before each game's verdict gives the stones before
//! A's move, the move, and every such safe move, for `--screen`
//! ([`crate::screen`]).

use tabula_ai::gomoku::{find_vcf, find_vct};
use tabula_shared::gomoku::{Board, Point, Rule, Stone};

/// The audit's own search: VCF nodes, VCT nodes and threats deep.
const DEEP: (u64, u64, i32) = (200_000, 400_000, 10);
/// The searches tried in turn at the position found, smallest first.
const STEPS: [(i32, u64); 9] = [
    (6, 10_000),
    (6, 40_000),
    (6, 100_000),
    (6, 400_000),
    (8, 40_000),
    (8, 100_000),
    (8, 400_000),
    (10, 100_000),
    (10, 400_000),
];

/// A game A lost: its moves and where its opening ends.
struct LostGame {
    opening: usize,
    moves: Vec<Point>,
}

/// Does `attacker` (to move) win by a VCF or a VCT within these budgets?
fn threat_win(
    board: &Board,
    attacker: Stone,
    rule: Rule,
    (vcf, vct, depth): (u64, u64, i32),
) -> bool {
    find_vcf(board, attacker, rule, vcf).is_some()
        || find_vct(board, attacker, rule, depth, vct).is_some()
}

/// A's moves at `board` (every empty point within two steps of a stone)
/// after which `winner` has no threat win by the audit's own search.
fn safe_moves(board: &Board, loser: Stone, rule: Rule) -> (Vec<Point>, usize) {
    let n = board.size();
    let near = |p: Point| {
        board.stones().any(|(q, _)| {
            (i16::from(q.x) - i16::from(p.x)).abs() <= 2
                && (i16::from(q.y) - i16::from(p.y)).abs() <= 2
        })
    };
    let mut safe = Vec::new();
    let mut tried = 0;
    for y in 0..n {
        for x in 0..n {
            let p = Point::new(x, y);
            if board.get(p).is_some() || !near(p) {
                continue;
            }
            let mut after = board.clone();
            if after.place(p, loser).is_err() {
                continue;
            }
            tried += 1;
            if !threat_win(&after, loser.opponent(), rule, DEEP) {
                safe.push(p);
            }
        }
    }
    (safe, tried)
}

/// The games A lost in `log`, with the openings' lengths from `openings`.
fn lost_games(log: &str, openings: &[Vec<Point>], size: u8) -> Vec<LostGame> {
    let mut out = Vec::new();
    let mut moves: Option<Vec<Point>> = None;
    for line in log.lines() {
        if let Some(ms) = line.strip_prefix("moves: ") {
            moves = ms
                .split_whitespace()
                .map(|m| Point::parse_on(m, size).ok())
                .collect();
        } else if let Some(rest) = line.strip_prefix("opening ") {
            // "N A as First: Some(Second)"
            let mut words = rest.split_whitespace();
            let n: Option<usize> = words.next().and_then(|w| w.parse().ok());
            let a_first = rest.contains("A as First");
            let winner_first = rest.ends_with("Some(First)");
            let winner_second = rest.ends_with("Some(Second)");
            let lost = (a_first && winner_second) || (!a_first && winner_first);
            if let (true, Some(n), Some(ms)) = (lost, n, moves.take()) {
                let opening = openings.get(n).map_or(0, Vec::len);
                out.push(LostGame { opening, moves: ms });
            }
        }
    }
    out
}

/// Prints, for every game A lost in the log at `path`, where it was lost
/// (see the module docs), and a count per needed budget.
pub fn audit(path: &str, openings: &[Vec<Point>], size: u8, rule: Rule) {
    let log = match std::fs::read_to_string(path) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{path}: {e}");
            return;
        }
    };
    let games = lost_games(&log, openings, size);
    let mut tally: Vec<(String, usize)> = Vec::new();
    let mut without_safe_move = 0;
    for (g, game) in games.iter().enumerate() {
        let mut board = Board::new(size).expect("valid size");
        let loser = if game.moves.len() % 2 == 1 {
            Stone::White
        } else {
            Stone::Black
        };
        let winner = loser.opponent();
        let mut found = None;
        for (k, &p) in game.moves.iter().enumerate() {
            let stone = if k % 2 == 0 {
                Stone::Black
            } else {
                Stone::White
            };
            let before = board.clone();
            if board.place(p, stone).is_err() {
                eprintln!("game {g}: illegal move {p}");
                break;
            }
            if stone == loser && k >= game.opening && threat_win(&board, winner, rule, DEEP) {
                found = Some((k, before));
                break;
            }
        }
        let needed = found.as_ref().map_or_else(
            || "-".to_string(),
            |_| {
                STEPS
                    .iter()
                    .find(|&&(depth, nodes)| {
                        threat_win(&board, winner, rule, (nodes / 2, nodes, depth))
                    })
                    .map_or("-".to_string(), |(depth, nodes)| {
                        format!("depth {depth}, {}k nodes", nodes / 1000)
                    })
            },
        );
        match found {
            Some((k, before)) => {
                let (safe, tried) = safe_moves(&before, loser, rule);
                if safe.is_empty() {
                    without_safe_move += 1;
                }
                let all_safe: Vec<String> = safe.iter().map(|p| p.to_string()).collect();
                let shown = &all_safe[..all_safe.len().min(6)];
                let before_moves: Vec<String> =
                    game.moves[..k].iter().map(|p| p.to_string()).collect();
                println!(
                    "position {g}: {} | played {} | safe {}",
                    before_moves.join(" "),
                    game.moves[k],
                    all_safe.join(" ")
                );
                println!(
                    "game {g}: {} plies, lost after ply {} ({}), the winner's threat win needs {needed}; \
                     A's moves there without one: {} of {tried} [{}]",
                    game.moves.len(),
                    k + 1,
                    game.moves[k],
                    safe.len(),
                    shown.join(" ")
                )
            }
            None => println!(
                "game {g}: {} plies, no threat win after A's moves",
                game.moves.len()
            ),
        }
        match tally.iter_mut().find(|t| t.0 == needed) {
            Some(t) => t.1 += 1,
            None => tally.push((needed, 1)),
        }
    }
    println!("{} games lost by A:", games.len());
    for (needed, n) in tally {
        println!("  {n:>3}  {needed}");
    }
    println!(
        "  {without_safe_move:>3}  lost whatever A played at that point (no move leaves the winner without a threat win)"
    );
}
