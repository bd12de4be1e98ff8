//! `--harvest`: plays the Expert against the Advanced (the first Expert's
//! search) from the arena's openings and prints, as entries for
//! `tabula_ai::gomoku::tactics`, the positions where the side to move had
//! a VCT but no VCF, or had to stop the opponent's threat win with one of
//! at most three moves: the first of each kind in each game (the later
//! ones of a game are mostly the same attack, a move further on).

use std::time::Duration;

use tabula_ai::Level;
use tabula_ai::gomoku::tactics::{Tactic, Task, near_points, solves, solves_within, threat_win};
use tabula_ai::gomoku::{Decision, Limits, choose_with, find_vcf, find_vct};
use tabula_shared::gomoku::{Board, Gomoku, GomokuConfig, Opening, Point, Rule, Stone};
use tabula_shared::seat::Seat;

/// Nodes per threat search while looking for the defences.
const SCAN_NODES: u64 = 20_000;

/// Plays the games and prints what it finds.
pub fn harvest(openings: &[Vec<Point>], budget: Duration) {
    let rule = Rule::Freestyle;
    for (k, opening) in openings.iter().enumerate() {
        for expert_seat in [Seat::First, Seat::Second] {
            let cfg = GomokuConfig {
                size: 15,
                rule,
                opening: Opening::None,
            };
            let mut g = Gomoku::new(cfg).expect("valid config");
            for &p in opening {
                if let Some(seat) = g.to_act() {
                    let _ = g.play(seat, p);
                }
            }
            let mut ply = 0u64;
            let mut found: Vec<Task> = Vec::new();
            while let Some(seat) = g.to_act() {
                let to_move = if g.moves().len().is_multiple_of(2) {
                    Stone::Black
                } else {
                    Stone::White
                };
                let from = format!(
                    "opening {k}, Expert as {expert_seat:?}, ply {}",
                    g.moves().len() + 1
                );
                if found.len() < 2
                    && let Some(t) = examine(g.board(), to_move, rule, &from)
                    && !found.contains(&t.task)
                {
                    found.push(t.task);
                    print_entry(&t);
                }
                let level = if seat == expert_seat {
                    Level::Expert
                } else {
                    Level::Advanced
                };
                let d = choose_with(level, &g, seat, Limits::time(budget), k as u64 ^ ply);
                ply += 1;
                let ok = match d {
                    Some(Decision::Place(p)) => g.play(seat, p).is_ok(),
                    _ => false,
                };
                if !ok {
                    break;
                }
            }
        }
    }
}

/// A tactic in this position, if there is one.
fn examine(board: &Board, to_move: Stone, rule: Rule, from: &str) -> Option<Tactic> {
    if find_vcf(board, to_move, rule, 50_000).is_some() {
        return None;
    }
    if let Some(first) = find_vct(board, to_move, rule, 8, 200_000) {
        let t = Tactic {
            name: from.to_string(),
            board: board.clone(),
            to_move,
            task: Task::Win,
        };
        return solves(&t, first, rule).then_some(t);
    }
    if !threat_win(board, to_move.opponent(), rule, SCAN_NODES) {
        return None;
    }
    let t = Tactic {
        name: from.to_string(),
        board: board.clone(),
        to_move,
        task: Task::Defend,
    };
    let defences: Vec<Point> = near_points(board)
        .into_iter()
        .filter(|&p| solves_within(&t, p, rule, SCAN_NODES))
        .collect();
    let real = !defences.is_empty() && defences.len() <= 3;
    (real && defences.iter().all(|&p| solves(&t, p, rule))).then_some(t)
}

fn print_entry(t: &Tactic) {
    println!("    (");
    println!("        Task::{:?},", t.task);
    println!("        Stone::{:?},", t.to_move);
    println!("        \"{}\",", t.name);
    println!("        &[");
    for row in super::board_rows(&t.board) {
        println!("            \"{row}\",");
    }
    println!("        ],");
    println!("    ),");
}
