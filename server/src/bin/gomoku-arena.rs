//! `gomoku-arena`: plays one Gomoku AI level against another over a set of
//! balanced openings (both colours per opening) and prints W/L/D and an Elo
//! difference with a 95% interval; `--vcf-bench` times the VCF puzzles and
//! measures Expert nodes per second instead.
//!
//! ```text
//! cargo run --release --bin gomoku-arena -- --a expert --b beginner \
//!     --openings 50 --budget-ms 200 --rule freestyle --size 15
//! cargo run --release --bin gomoku-arena -- --vcf-bench
//! ```

use std::process::ExitCode;
use std::time::{Duration, Instant};

use tabula_server::ai::Level;
use tabula_server::ai::gomoku::{Decision, Limits, choose_with, expert_search, find_vcf, puzzles};
use tabula_shared::gomoku::{
    Board, Gomoku, GomokuConfig, Opening, Outcome, Point, Rule, Seat, Stone,
};

struct Args {
    a: Level,
    b: Level,
    openings: usize,
    budget: Duration,
    nodes: Option<u64>,
    rule: Rule,
    size: u8,
    vcf_bench: bool,
    find_vcf: bool,
    verbose: bool,
}

fn level(s: &str) -> Option<Level> {
    match s.to_ascii_lowercase().as_str() {
        "beginner" => Some(Level::Beginner),
        "intermediate" => Some(Level::Intermediate),
        "expert" => Some(Level::Expert),
        _ => None,
    }
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        a: Level::Expert,
        b: Level::Beginner,
        openings: 20,
        budget: Duration::from_millis(200),
        nodes: None,
        rule: Rule::Freestyle,
        size: 15,
        vcf_bench: false,
        find_vcf: false,
        verbose: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--a" => args.a = level(&value()?).ok_or("unknown level")?,
            "--b" => args.b = level(&value()?).ok_or("unknown level")?,
            "--openings" => args.openings = value()?.parse().map_err(|e| format!("{e}"))?,
            "--budget-ms" => {
                args.budget = Duration::from_millis(value()?.parse().map_err(|e| format!("{e}"))?)
            }
            "--nodes" => args.nodes = Some(value()?.parse().map_err(|e| format!("{e}"))?),
            "--size" => args.size = value()?.parse().map_err(|e| format!("{e}"))?,
            "--rule" => {
                args.rule = match value()?.as_str() {
                    "freestyle" => Rule::Freestyle,
                    "standard" => Rule::Standard,
                    "renju" => Rule::Renju,
                    other => return Err(format!("unknown rule {other}")),
                }
            }
            "--vcf-bench" => args.vcf_bench = true,
            "--find-vcf" => args.find_vcf = true,
            "--verbose" | "-v" => args.verbose = true,
            "--help" | "-h" => {
                return Err(
                    "usage: gomoku-arena [--a LEVEL] [--b LEVEL] [--openings N] \
                     [--budget-ms MS] [--nodes N] [--rule freestyle|standard|renju] \
                     [--size N] [--vcf-bench] [-v]"
                        .into(),
                );
            }
            other => return Err(format!("unknown flag {other}")),
        }
    }
    Ok(args)
}

/// SplitMix64 for the opening generator.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `n` openings of 2 to 4 stones within two points of the centre, kept
/// when a short Expert search finds them roughly balanced.
fn openings(n: usize, size: u8, rule: Rule) -> Vec<Vec<Point>> {
    let c = i32::from(size / 2);
    let mut out = Vec::new();
    let mut k = 0u64;
    while out.len() < n && k < 100_000 {
        k += 1;
        let mut r = mix(k);
        let stones = 2 + (r % 3) as usize;
        let mut moves: Vec<Point> = Vec::new();
        while moves.len() < stones {
            r = mix(r);
            let p = Point::new(
                (c + (r % 5) as i32 - 2) as u8,
                (c + ((r >> 8) % 5) as i32 - 2) as u8,
            );
            if !moves.contains(&p) {
                moves.push(p);
            }
        }
        let mut board = Board::new(size).expect("valid size");
        for (j, &p) in moves.iter().enumerate() {
            let s = if j % 2 == 0 {
                Stone::Black
            } else {
                Stone::White
            };
            let _ = board.place(p, s);
        }
        let to_play = if stones.is_multiple_of(2) {
            Stone::Black
        } else {
            Stone::White
        };
        let r = expert_search(&board, to_play, rule, Limits::nodes(3_000), 0);
        if r.score.abs() < 60 {
            out.push(moves);
        }
    }
    out
}

/// Plays one game; returns the winner's seat (None for a draw).
fn play(args: &Args, opening: &[Point], a_seat: Seat, seed: u64) -> Option<Seat> {
    let cfg = GomokuConfig {
        size: args.size,
        rule: args.rule,
        opening: Opening::None,
    };
    let mut g = Gomoku::new(cfg).expect("valid config");
    for &p in opening {
        let seat = g.to_act()?;
        if g.play(seat, p).is_err() {
            return None;
        }
    }
    let limits = Limits {
        time: Some(args.budget),
        nodes: args.nodes,
    };
    let mut ply = 0u64;
    while let Some(seat) = g.to_act() {
        let lvl = if seat == a_seat { args.a } else { args.b };
        let d = choose_with(lvl, &g, seat, limits, seed ^ ply);
        ply += 1;
        let ok = match d {
            Some(Decision::Place(p)) => g.play(seat, p).is_ok(),
            Some(Decision::Choose(c)) => g.choose(seat, c).is_ok(),
            None => false,
        };
        if !ok {
            eprintln!("illegal or missing decision by {lvl:?}: {d:?}");
            return Some(seat.other());
        }
    }
    if args.verbose {
        let moves: Vec<String> = g.moves().iter().map(|p| p.to_string()).collect();
        println!("moves: {}", moves.join(" "));
        println!("{:?}", g.board());
    }
    match g.outcome() {
        Some(Outcome::Win { seat, .. }) => Some(*seat),
        _ => None,
    }
}

fn elo(p: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -400.0 * (1.0 / p - 1.0).log10()
}

fn arena(args: &Args) {
    let ops = openings(args.openings, args.size, args.rule);
    println!(
        "{:?} vs {:?}: {} openings x 2 colours, budget {} ms{}, rule {:?}, size {}",
        args.a,
        args.b,
        ops.len(),
        args.budget.as_millis(),
        args.nodes
            .map(|n| format!(" / {n} nodes"))
            .unwrap_or_default(),
        args.rule,
        args.size
    );
    let (mut w, mut l, mut d) = (0u32, 0u32, 0u32);
    let start = Instant::now();
    for (k, op) in ops.iter().enumerate() {
        for a_seat in [Seat::First, Seat::Second] {
            let r = play(args, op, a_seat, k as u64);
            match r {
                Some(s) if s == a_seat => w += 1,
                Some(_) => l += 1,
                None => d += 1,
            }
            if args.verbose {
                println!("opening {k} A as {a_seat:?}: {r:?}");
            }
        }
    }
    let n = f64::from(w + l + d);
    let p = (f64::from(w) + 0.5 * f64::from(d)) / n;
    let se = (p * (1.0 - p) / n).sqrt();
    let (lo, hi) = ((p - 1.96 * se).max(0.0), (p + 1.96 * se).min(1.0));
    // With a perfect score the normal interval collapses; use the rule of
    // three for the lower bound instead.
    let lo = if w + d == 0 || l + d == 0 {
        if p > 0.5 { 1.0 - 3.0 / n } else { lo }
    } else {
        lo
    };
    let hi = if w + d == 0 { 3.0 / n } else { hi };
    let show = |p: f64| {
        if p >= 1.0 {
            "+inf".to_string()
        } else if p <= 0.0 {
            "-inf".to_string()
        } else {
            format!("{:+.0}", elo(p))
        }
    };
    println!(
        "A={:?} W/L/D = {w}/{l}/{d} of {n} games, score {:.1}%, Elo {} (95%: {} .. {}), {:.0} s",
        args.a,
        100.0 * p,
        show(p),
        show(lo),
        show(hi),
        start.elapsed().as_secs_f64()
    );
}

fn vcf_bench() {
    println!("VCF puzzles (black to move):");
    for pz in puzzles::vcf_puzzles() {
        let t = Instant::now();
        let line = find_vcf(&pz.board, pz.attacker, Rule::Freestyle, 5_000_000);
        let solve = t.elapsed();
        let t = Instant::now();
        let r = expert_search(
            &pz.board,
            pz.attacker,
            Rule::Freestyle,
            Limits::time(Duration::from_secs(1)),
            0,
        );
        let search = t.elapsed();
        println!(
            "  {:<22} fours {:>2}: VCF {} in {:>8.2} ms; Expert plays {:?} (score {}) in {:.2} ms",
            pz.name,
            pz.fours,
            line.as_ref()
                .map(|l| format!("found, {} attacker moves", l.len().div_ceil(2)))
                .unwrap_or_else(|| "NOT found".into()),
            solve.as_secs_f64() * 1e3,
            r.best.map(|p| p.to_string()),
            r.score,
            search.as_secs_f64() * 1e3
        );
    }
    // Nodes per second on quiet middle-game positions from Expert self-play.
    let mut g = Gomoku::new(GomokuConfig::default()).expect("default config");
    let (mut nodes, mut secs, mut depths, mut worst) = (0u64, 0f64, Vec::new(), 0f64);
    for ply in 0..24u64 {
        let Some(seat) = g.to_act() else { break };
        let t = Instant::now();
        let r = expert_search(
            g.board(),
            g.stone_to_play(),
            Rule::Freestyle,
            Limits::time(Duration::from_millis(300)),
            ply,
        );
        worst = worst.max(t.elapsed().as_secs_f64());
        if ply >= 6 {
            depths.push(r.depth);
            nodes += r.nodes;
            secs += t.elapsed().as_secs_f64();
        }
        match r.best {
            Some(p) if g.play(seat, p).is_ok() => {}
            _ => break,
        }
    }
    println!(
        "Expert speed: {:.0} nodes/s ({nodes} nodes in {secs:.2} s, 300 ms/move self-play, plies 6-23); depths {depths:?}; slowest move {:.0} ms",
        nodes as f64 / secs.max(1e-9),
        worst * 1e3
    );
}

/// Puzzle generator: random dense positions (black to move, white without
/// fours) whose shortest VCF for black has at least five fours; prints
/// them as diagrams for `puzzles.rs`.
fn find_puzzles(args: &Args) {
    let mut r = 12345u64;
    for _ in 0..args.openings * 1000 {
        r = mix(r);
        let mut board = Board::new(15).expect("valid size");
        let stones = 16 + (r % 16) as usize;
        let mut k = 0;
        while board.stone_count() < stones {
            r = mix(r);
            let p = Point::new(3 + (r % 9) as u8, 3 + ((r >> 8) % 9) as u8);
            let s = if k % 2 == 0 {
                Stone::Black
            } else {
                Stone::White
            };
            if board.place(p, s).is_ok() {
                k += 1;
            }
        }
        if find_vcf(&board, Stone::White, Rule::Freestyle, 2_000).is_some()
            || find_vcf(&board, Stone::Black, Rule::Freestyle, 200_000).is_none()
        {
            continue;
        }
        if let Some(f) = tabula_server::ai::gomoku::vcf_min_fours(
            &board,
            Stone::Black,
            Rule::Freestyle,
            16,
            200_000,
        ) && f >= 4
        {
            let rows: Vec<String> = (0..15u8)
                .map(|y| {
                    (0..15u8)
                        .map(|x| match board.get(Point::new(x, y)) {
                            Some(Stone::Black) => 'X',
                            Some(Stone::White) => 'O',
                            None => '.',
                        })
                        .collect()
                })
                .collect();
            println!("fours {}: {:?}", f + 1, rows);
        }
    }
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if args.find_vcf {
        find_puzzles(&args);
    } else if args.vcf_bench {
        vcf_bench();
    } else {
        arena(&args);
    }
    ExitCode::SUCCESS
}
