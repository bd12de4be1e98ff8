//! Move generation speed: full expansions (position × all 21 rolls) over a
//! fixed set of mid-game positions from seeded random play.
//!
//! `cargo bench -p tabula-shared --bench bg_movegen`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tabula_shared::backgammon::{Dice, Position};

/// 64 mid-game positions (10..40 turns into random games, deterministic).
fn positions() -> Vec<Position> {
    let mut state = 0x1234_5678_9ABC_DEF0u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::new();
    while out.len() < 64 {
        let mut pos = Position::START;
        let turns = 10 + next() % 30;
        let mut ok = true;
        for _ in 0..turns {
            let dice = Dice {
                a: (next() % 6) as u8 + 1,
                b: (next() % 6) as u8 + 1,
            };
            let legal = pos.legal_positions(dice);
            let pick = legal[(next() % legal.len() as u64) as usize];
            if pick.game_result().is_some() {
                ok = false;
                break;
            }
            pos = pick.switch_sides();
        }
        if ok {
            out.push(pos);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let set = positions();
    let mut buf = Vec::with_capacity(256);
    let mut total_results = 0u64;
    for p in &set {
        for (dice, _) in Dice::ALL_21 {
            p.legal_positions_into(dice, false, &mut buf);
            total_results += buf.len() as u64;
        }
    }
    let expansions = set.len() as u64 * 21;
    eprintln!(
        "bg_movegen: {} positions, {expansions} (position, roll) expansions, {total_results} distinct results",
        set.len()
    );

    let mut g = c.benchmark_group("movegen");
    g.throughput(Throughput::Elements(expansions));
    g.bench_function("legal_positions/expansions", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for p in &set {
                for (dice, _) in Dice::ALL_21 {
                    black_box(p).legal_positions_into(dice, false, &mut buf);
                    n += buf.len();
                }
            }
            black_box(n)
        })
    });
    g.throughput(Throughput::Elements(total_results));
    g.bench_function("legal_positions/results", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for p in &set {
                for (dice, _) in Dice::ALL_21 {
                    black_box(p).legal_positions_into(dice, false, &mut buf);
                    n += buf.len();
                }
            }
            black_box(n)
        })
    });
    g.bench_function("legal_plays/results", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for p in &set {
                for (dice, _) in Dice::ALL_21 {
                    n += black_box(p).legal_plays(dice).len();
                }
            }
            black_box(n)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
