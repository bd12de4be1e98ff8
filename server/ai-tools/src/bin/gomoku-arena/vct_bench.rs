//! `--vct-bench LOG`: what the VCT solver costs on the positions of real
//! games.
//!
//! Reads the game records of an arena run (`-v`: the `moves:` lines) and,
//! at every other position from the tenth move on, asks whether the side
//! to move wins by a VCT of six threats within 400,000 nodes (the size of
//! the Expert's safety check). Prints the wins found, the nodes and the
//! time; with `-v` one line per position, so two builds' answers can be
//! compared position by position.

use std::time::Instant;

use tabula_ai::gomoku::find_vct_counted;
use tabula_shared::gomoku::{Board, Point, Rule, Stone};

/// The searched depth (threats) and nodes: the safety check's VCT.
const VCT: (i32, u64) = (6, 400_000);

/// Runs the benchmark over the first `games` games of the log at `path`.
pub fn vct_bench(path: &str, games: usize, verbose: bool) {
    let Ok(log) = std::fs::read_to_string(path) else {
        eprintln!("cannot read {path}");
        return;
    };
    let records: Vec<Vec<Point>> = log
        .lines()
        .filter_map(|l| l.strip_prefix("moves: "))
        .filter_map(|ms| {
            ms.split_whitespace()
                .map(|m| Point::parse_on(m, 15).ok())
                .collect()
        })
        .take(games)
        .collect();
    let (mut positions, mut wins, mut nodes) = (0u64, 0u64, 0u64);
    let mut times = Vec::new();
    let start = Instant::now();
    for (g, moves) in records.iter().enumerate() {
        let mut board = Board::new(15).expect("15x15");
        for (ply, &m) in moves.iter().enumerate() {
            let stone = if ply % 2 == 0 {
                Stone::Black
            } else {
                Stone::White
            };
            if board.place(m, stone).is_err() {
                break;
            }
            let to_move = stone.opponent();
            if ply < 9 || ply % 2 == 0 || ply + 1 == moves.len() {
                continue;
            }
            let t = Instant::now();
            let (found, n) = find_vct_counted(&board, to_move, Rule::Freestyle, VCT.0, VCT.1);
            let ms = t.elapsed().as_secs_f64() * 1e3;
            positions += 1;
            wins += u64::from(found.is_some());
            nodes += n;
            times.push(ms);
            if verbose {
                println!(
                    "game {g} ply {} {:?}: {} in {n} nodes, {ms:.2} ms",
                    ply + 1,
                    to_move,
                    found.map_or("-".to_string(), |p| p.to_string())
                );
            }
        }
    }
    times.sort_by(f64::total_cmp);
    let pct = |q: f64| {
        times
            .get(((times.len() as f64 - 1.0) * q) as usize)
            .copied()
            .unwrap_or(0.0)
    };
    println!(
        "{positions} positions of {} games: {wins} VCT wins; {nodes} nodes; {:.1} s in all; \
         per position median {:.2} ms, 90th percentile {:.2} ms, slowest {:.2} ms",
        records.len(),
        start.elapsed().as_secs_f64(),
        pct(0.5),
        pct(0.9),
        pct(1.0)
    );
}
