//! `gomoku-arena`: plays one Gomoku player against another over a set of
//! balanced openings (both colours per opening) and prints W/L/D and an Elo
//! difference with a 95% interval; `--vcf-bench` times the VCF puzzles and
//! measures Expert nodes per second instead.
//!
//! A player is a level (`beginner` ... `expert`, in this process) or a
//! Gomocup engine (`pbrain:COMMAND`, e.g. `pbrain-tabula` built from an
//! older commit as a fixed reference; see [`engine`]). `--jobs N` plays N
//! games at once.
//!
//! ```text
//! cargo run --release -p tabula-ai-tools --bin gomoku-arena -- --a expert --b beginner \
//!     --openings 50 --budget-ms 200 --rule freestyle --size 15
//! cargo run --release -p tabula-ai-tools --bin gomoku-arena -- \
//!     --a pbrain:target/release/pbrain-tabula --b pbrain:/tmp/v1/pbrain-tabula \
//!     --openings 50 --budget-ms 1000 --jobs 2
//! cargo run --release -p tabula-ai-tools --bin gomoku-arena -- --vcf-bench
//! ```

mod audit;
mod engine;
mod harvest;
mod opening_set;
mod puzzle_maker;
mod screen;
mod vct_bench;

use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use engine::Engine;
use opening_set::openings;

use tabula_ai::Level;
use tabula_ai::gomoku::{Decision, Limits, choose_with, expert_search, find_vcf, puzzles};
use tabula_shared::gomoku::{Board, Gomoku, GomokuConfig, Opening, Outcome, Point, Rule, Stone};
use tabula_shared::seat::Seat;

/// One side of the arena.
#[derive(Debug, Clone)]
enum Player {
    /// A Tabula level, played in this process.
    Level(Level),
    /// A Gomocup engine: the command that starts it.
    Engine(String),
}

impl Player {
    fn parse(s: &str) -> Option<Player> {
        match s.strip_prefix("pbrain:") {
            Some(command) => Some(Player::Engine(command.to_string())),
            None => Level::from_name(&s.to_ascii_lowercase()).map(Player::Level),
        }
    }
}

struct Args {
    a: Player,
    b: Player,
    jobs: usize,
    openings: usize,
    budget: Duration,
    nodes: Option<u64>,
    rule: Rule,
    size: u8,
    vcf_bench: bool,
    find_vcf: bool,
    harvest: bool,
    print_openings: bool,
    tactics: bool,
    chain_vcf: Option<usize>,
    replay: Option<String>,
    audit: Option<String>,
    screen: Option<String>,
    vct_bench: Option<String>,
    seed: u64,
    verbose: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        a: Player::Level(Level::Expert),
        b: Player::Level(Level::Beginner),
        jobs: 1,
        openings: 20,
        budget: Duration::from_millis(200),
        nodes: None,
        rule: Rule::Freestyle,
        size: 15,
        vcf_bench: false,
        find_vcf: false,
        harvest: false,
        print_openings: false,
        tactics: false,
        chain_vcf: None,
        replay: None,
        audit: None,
        screen: None,
        vct_bench: None,
        seed: 1,
        verbose: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--a" => args.a = Player::parse(&value()?).ok_or("unknown level")?,
            "--b" => args.b = Player::parse(&value()?).ok_or("unknown level")?,
            "--jobs" => args.jobs = value()?.parse().map_err(|e| format!("{e}"))?,
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
            "--harvest" => args.harvest = true,
            "--print-openings" => args.print_openings = true,
            "--tactics" => args.tactics = true,
            "--chain-vcf" => args.chain_vcf = Some(value()?.parse().map_err(|e| format!("{e}"))?),
            "--replay" => args.replay = Some(value()?),
            "--audit" => args.audit = Some(value()?),
            "--screen" => args.screen = Some(value()?),
            "--vct-bench" => args.vct_bench = Some(value()?),
            "--seed" => args.seed = value()?.parse().map_err(|e| format!("{e}"))?,
            "--verbose" | "-v" => args.verbose = true,
            "--help" | "-h" => {
                return Err(
                    "usage: gomoku-arena [--a LEVEL|pbrain:CMD] [--b LEVEL|pbrain:CMD] \
                     [--jobs N] [--openings N] \
                     [--budget-ms MS] [--nodes N] [--rule freestyle|standard|renju] \
                     [--size N] [--vcf-bench] [--tactics] [--harvest] [--print-openings] [--find-vcf] [--chain-vcf FOURS [--seed S]] \
                     [--replay \"h8 i9 ...\" [--budget-ms MS | --nodes N]] [--audit LOG] [--screen AUDIT --a pbrain:CMD] [--vct-bench LOG] [-v]"
                        .into(),
                );
            }
            other => return Err(format!("unknown flag {other}")),
        }
    }
    Ok(args)
}

/// How one game went.
struct Game {
    /// The winner (None for a draw).
    winner: Option<Seat>,
    /// Why the loser lost, when not by a five.
    fault: Option<String>,
    /// Thinking time per side (A, then B): total, slowest, moves.
    time: [(Duration, Duration, u32); 2],
}

/// A player during one game.
enum Seated {
    Level(Level),
    Engine(Engine),
}

/// Plays one game from `opening` with A in `a_seat`.
fn play(args: &Args, opening: &[Point], a_seat: Seat, seed: u64) -> Game {
    let cfg = GomokuConfig {
        size: args.size,
        rule: args.rule,
        opening: Opening::None,
    };
    let mut game = Game {
        winner: None,
        fault: None,
        time: [(Duration::ZERO, Duration::ZERO, 0); 2],
    };
    let mut g = Gomoku::new(cfg).expect("valid config");
    for &p in opening {
        let Some(seat) = g.to_act() else { return game };
        if g.play(seat, p).is_err() {
            return game;
        }
    }
    let limits = Limits {
        time: Some(args.budget),
        nodes: args.nodes,
        memory: None,
    };
    let mut players = Vec::new();
    for (k, player) in [&args.a, &args.b].into_iter().enumerate() {
        players.push(match player {
            Player::Level(l) => Seated::Level(*l),
            Player::Engine(command) => {
                match Engine::start(command, args.size, args.rule, args.budget) {
                    Ok(e) => Seated::Engine(e),
                    Err(e) => {
                        let seat = if k == 0 { a_seat } else { a_seat.other() };
                        game.winner = Some(seat.other());
                        game.fault = Some(format!("{player:?} did not start: {e}"));
                        return game;
                    }
                }
            }
        });
    }
    let mut ply = 0u64;
    while let Some(seat) = g.to_act() {
        let k = usize::from(seat != a_seat);
        let start = Instant::now();
        let decision = match &mut players[k] {
            Seated::Level(l) => choose_with(*l, &g, seat, limits, seed ^ ply)
                .ok_or_else(|| format!("{l:?} had no move")),
            Seated::Engine(e) => {
                let stones: Vec<(Point, Stone)> = g
                    .moves()
                    .iter()
                    .enumerate()
                    .map(|(j, &p)| {
                        let s = if j.is_multiple_of(2) {
                            Stone::Black
                        } else {
                            Stone::White
                        };
                        (p, s)
                    })
                    .collect();
                let me = if g.moves().len().is_multiple_of(2) {
                    Stone::Black
                } else {
                    Stone::White
                };
                e.play(&stones, me)
                    .map(|(p, _)| Decision::Place(p))
                    .map_err(|f| format!("{:?}: {f}", [&args.a, &args.b][k]))
            }
        };
        let took = start.elapsed();
        let t = &mut game.time[k];
        t.0 += took;
        t.1 = t.1.max(took);
        t.2 += 1;
        ply += 1;
        let ok = match &decision {
            Ok(Decision::Place(p)) => g.play(seat, *p).is_ok(),
            Ok(Decision::Choose(c)) => g.choose(seat, *c).is_ok(),
            Err(_) => false,
        };
        if !ok {
            game.winner = Some(seat.other());
            game.fault = Some(match decision {
                Err(e) => e,
                Ok(d) => format!("illegal decision {d:?}"),
            });
            return game;
        }
    }
    if args.verbose {
        let moves: Vec<String> = g.moves().iter().map(|p| p.to_string()).collect();
        println!("moves: {}", moves.join(" "));
        println!("{:?}", g.board());
    }
    game.winner = match g.outcome() {
        Some(Outcome::Win { seat, .. }) => Some(*seat),
        _ => None,
    };
    game
}

fn elo(p: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -400.0 * (1.0 / p - 1.0).log10()
}

fn arena(args: &Args) {
    let ops = openings(args.openings, args.size, args.rule);
    println!(
        "{:?} vs {:?}: {} openings x 2 colours, budget {} ms{}, rule {:?}, size {}, {} at once",
        args.a,
        args.b,
        ops.len(),
        args.budget.as_millis(),
        args.nodes
            .map(|n| format!(" / {n} nodes"))
            .unwrap_or_default(),
        args.rule,
        args.size,
        args.jobs,
    );
    let start = Instant::now();
    // Game k is opening k / 2 with A as black when k is even.
    let next = AtomicUsize::new(0);
    let games: Mutex<Vec<(usize, Game)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= 2 * ops.len() {
                        break;
                    }
                    let a_seat = if k.is_multiple_of(2) {
                        Seat::First
                    } else {
                        Seat::Second
                    };
                    let game = play(args, &ops[k / 2], a_seat, (k / 2) as u64);
                    if args.verbose || game.fault.is_some() {
                        println!(
                            "opening {} A as {a_seat:?}: {:?}{}",
                            k / 2,
                            game.winner,
                            game.fault
                                .as_deref()
                                .map(|f| format!(" ({f})"))
                                .unwrap_or_default()
                        );
                    }
                    games.lock().expect("no panics").push((k, game));
                }
            });
        }
    });
    let games = games.into_inner().expect("no panics");
    let (mut w, mut l, mut d, mut faults) = (0u32, 0u32, 0u32, 0u32);
    let mut time = [(Duration::ZERO, Duration::ZERO, 0u32); 2];
    for (k, game) in &games {
        let a_seat = if k.is_multiple_of(2) {
            Seat::First
        } else {
            Seat::Second
        };
        match game.winner {
            Some(s) if s == a_seat => w += 1,
            Some(_) => l += 1,
            None => d += 1,
        }
        faults += u32::from(game.fault.is_some());
        for (total, side) in time.iter_mut().zip(&game.time) {
            total.0 += side.0;
            total.1 = total.1.max(side.1);
            total.2 += side.2;
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
    for (name, t) in ["A", "B"].iter().zip(time) {
        println!(
            "{name}: {} moves, mean {:.0} ms, slowest {:.0} ms",
            t.2,
            t.0.as_secs_f64() * 1e3 / f64::from(t.2.max(1)),
            t.1.as_secs_f64() * 1e3
        );
    }
    println!("games lost by a fault (time, illegal move, crash): {faults}");
}

/// `--tactics`: the tactics suite, with the threat solvers' time and the
/// Expert's move, time and verdict on each position.
fn tactics_bench(args: &Args) {
    use tabula_ai::gomoku::tactics::{Task, solves, tactics};
    println!(
        "Tactics suite (Expert at {} ms a move):",
        args.budget.as_millis()
    );
    let limits = Limits {
        time: Some(args.budget),
        nodes: args.nodes,
        memory: None,
    };
    let (mut solved, mut total) = (0, 0);
    for t in tactics() {
        let start = Instant::now();
        let found = match t.task {
            Task::Win => tabula_ai::gomoku::find_vct(&t.board, t.to_move, args.rule, 8, 1_000_000),
            Task::Defend => None,
        };
        let solver_ms = start.elapsed().as_secs_f64() * 1e3;
        let start = Instant::now();
        let r = expert_search(&t.board, t.to_move, args.rule, limits, 0);
        let expert_ms = start.elapsed().as_secs_f64() * 1e3;
        let ok = r.best.is_some_and(|p| solves(&t, p, args.rule));
        total += 1;
        solved += usize::from(ok);
        let solver = match t.task {
            Task::Win => format!(
                "VCT solver {} in {solver_ms:.1} ms",
                found.map(|p| p.to_string()).unwrap_or("none".into())
            ),
            Task::Defend => String::new(),
        };
        println!(
            "{:<50} Expert {:<4} in {expert_ms:>6.1} ms: {}  {solver}",
            t.name,
            r.best.map(|p| p.to_string()).unwrap_or_default(),
            if ok { "solved" } else { "MISSED" },
        );
    }
    println!("solved {solved} of {total}");
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

/// `--replay "h8 i9 ..."`: replays a game record and shows, before every
/// move, what the Expert would play for the side to move (move, score,
/// depth, nodes, time) and what the Beginner would play.
fn replay(args: &Args, moves: &str) {
    let mut board = Board::new(args.size).expect("valid size");
    let limits = Limits {
        time: Some(args.budget),
        nodes: args.nodes,
        memory: None,
    };
    for (ply, m) in moves.split_whitespace().enumerate() {
        let Ok(p) = Point::parse_on(m, args.size) else {
            eprintln!("bad move {m}");
            return;
        };
        let stone = if ply % 2 == 0 {
            Stone::Black
        } else {
            Stone::White
        };
        let t = Instant::now();
        let r = expert_search(&board, stone, args.rule, limits, ply as u64);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let beg = tabula_ai::gomoku::beginner::choose(&board, stone, args.rule, ply as u64);
        println!(
            "{:>3} {stone:?} played {m:<4} expert {:<4} score {:>8} depth {:>2} nodes {:>8} {ms:>6.1} ms; beginner {}",
            ply + 1,
            r.best.map(|p| p.to_string()).unwrap_or_default(),
            r.score,
            r.depth,
            r.nodes,
            beg.map(|p| p.to_string()).unwrap_or_default(),
        );
        if board.place(p, stone).is_err() {
            eprintln!("illegal move {m}");
            return;
        }
    }
    println!("{board:?}");
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if let Some(moves) = &args.replay {
        replay(&args, moves);
    } else if let Some(log) = &args.vct_bench {
        vct_bench::vct_bench(log, args.openings * 2, args.verbose);
    } else if let Some(log) = &args.audit {
        audit::audit(
            log,
            &openings(args.openings, args.size, args.rule),
            args.size,
            args.rule,
        );
    } else if let Some(audited) = &args.screen {
        let Player::Engine(command) = &args.a else {
            eprintln!("--screen asks a Gomocup engine: give --a pbrain:CMD");
            return ExitCode::from(2);
        };
        screen::screen(audited, command, args.size, args.rule, args.budget);
    } else if let Some(n) = args.chain_vcf {
        puzzle_maker::chain_puzzles(n, args.seed, args.openings);
    } else if args.print_openings {
        for o in opening_set::generate(args.openings, args.size, args.rule) {
            let o: Vec<String> = o.iter().map(|p| p.to_string()).collect();
            println!("{}", o.join(" "));
        }
    } else if args.harvest {
        harvest::harvest(&openings(args.openings, args.size, args.rule), args.budget);
    } else if args.tactics {
        tactics_bench(&args);
    } else if args.find_vcf {
        puzzle_maker::find_puzzles(&args);
    } else if args.vcf_bench {
        vcf_bench();
    } else {
        arena(&args);
    }
    ExitCode::SUCCESS
}

/// A 15x15 board as text rows (`X` black, `O` white, `.` empty), as puzzles are written.
fn board_rows(board: &Board) -> Vec<String> {
    (0..15u8)
        .map(|y| {
            (0..15u8)
                .map(|x| match board.get(Point::new(x, y)) {
                    Some(Stone::Black) => 'X',
                    Some(Stone::White) => 'O',
                    None => '.',
                })
                .collect()
        })
        .collect()
}
