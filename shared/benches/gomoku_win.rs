//! Benchmarks for the Gomoku hot paths: the incremental win check and the
//! renju forbidden-point scan, on deterministic mid-game 15x15 boards.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tabula_shared::gomoku::{Board, Point, Rule, Stone, five_at, renju};

/// A deterministic mid-game board: `n` stones, alternating colours, dropped
/// near the centre by a small LCG, skipping moves that would win (and, for
/// renju, black's forbidden points). Returns the board and the last move.
fn mid_game(n: usize, rule: Rule, seed: u64) -> (Board, Point, Stone) {
    let mut b = Board::new(15).expect("15 is a valid size");
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as u8
    };
    let mut stone = Stone::Black;
    let mut last = (Point::new(7, 7), Stone::Black);
    let mut placed = 0;
    while placed < n {
        let p = Point::new(3 + next() % 9, 3 + next() % 9);
        if !b.is_empty_at(p) {
            continue;
        }
        if rule == Rule::Renju && stone == Stone::Black && renju::is_forbidden(&b, p) {
            continue;
        }
        b.place(p, stone).expect("empty on-board point");
        if five_at(&b, p, stone, Rule::Freestyle).is_some() {
            b.remove(p);
            continue;
        }
        last = (p, stone);
        stone = stone.opponent();
        placed += 1;
    }
    (b, last.0, last.1)
}

fn bench(c: &mut Criterion) {
    let (board, last, stone) = mid_game(60, Rule::Freestyle, 7);

    c.bench_function("five_at/last_move_mid_game", |b| {
        b.iter(|| five_at(black_box(&board), black_box(last), stone, Rule::Freestyle))
    });

    // A winning check (allocates the returned line).
    let mut won = Board::from_diagram(15, &["", "", "", "", "", "", "", ". . . X X X X X"])
        .expect("valid diagram");
    won.place(Point::new(0, 0), Stone::White).expect("empty");
    c.bench_function("five_at/winning_move", |b| {
        b.iter(|| {
            five_at(
                black_box(&won),
                black_box(Point::new(5, 7)),
                Stone::Black,
                Rule::Standard,
            )
        })
    });

    // Search-style make/check/unmake over every empty point (one iteration
    // = one sweep of the board).
    let empties: Vec<Point> = board.points().filter(|p| board.is_empty_at(*p)).collect();
    println!(
        "make/check/unmake sweep covers {} empty points",
        empties.len()
    );
    let mut scratch = board.clone();
    c.bench_function("five_at/make_check_unmake_sweep", |b| {
        b.iter(|| {
            let mut wins = 0u32;
            for &p in &empties {
                if scratch.place(p, stone).is_ok() {
                    wins += u32::from(five_at(&scratch, p, stone, Rule::Freestyle).is_some());
                    scratch.remove(p);
                }
            }
            wins
        })
    });

    let (renju_board, _, _) = mid_game(60, Rule::Renju, 11);
    println!(
        "renju board has {} forbidden points:\n{renju_board:?}",
        renju::forbidden_points(&renju_board).len()
    );
    c.bench_function("renju/forbidden_points_mid_game", |b| {
        b.iter(|| renju::forbidden_points(black_box(&renju_board)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
