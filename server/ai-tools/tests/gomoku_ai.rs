//! Tactics and legality tests for the Gomoku AI. Correctness only: every
//! search runs under a node limit, so results are reproducible and no test
//! depends on the clock.

use tabula_ai::Level;
use tabula_ai::gomoku::{
    Decision, Limits, best_move, choose_with, expert_search, find_vcf, puzzles, shortest_vcf,
    vcf_min_fours,
};
use tabula_shared::gomoku::{
    Board, Gomoku, GomokuConfig, Opening, Phase, Point, Rule, Stone, five_at, renju,
};
use tabula_shared::seat::Seat;

const LEVELS: [Level; 5] = Level::ALL;

fn nodes(n: u64) -> Limits {
    Limits::nodes(n)
}

/// Empty points where `stone` would make five.
fn five_points(board: &Board, stone: Stone, rule: Rule) -> Vec<Point> {
    let mut b = board.clone();
    board
        .points()
        .filter(|&p| {
            if b.place(p, stone).is_err() {
                return false;
            }
            let five = five_at(&b, p, stone, rule).is_some();
            b.remove(p);
            five
        })
        .collect()
}

/// Does `stone` have a move that makes an open four (two five-points)?
fn has_open_four_move(board: &Board, stone: Stone, rule: Rule) -> bool {
    let mut b = board.clone();
    let empties: Vec<Point> = board.points().filter(|&p| board.is_empty_at(p)).collect();
    empties.into_iter().any(|p| {
        b.place(p, stone).ok();
        let n = five_points(&b, stone, rule).len();
        b.remove(p);
        n >= 2
    })
}

/// Plays the attacker's Expert moves against a defender that always blocks
/// the four (and otherwise answers with its own Expert move); returns the
/// number of attacker moves to the five, or `None` if no five within 40.
fn play_out(board: &Board, attacker: Stone, rule: Rule) -> Option<usize> {
    let mut b = board.clone();
    let defender = attacker.opponent();
    for n in 1..=40 {
        let p = best_move(Level::Expert, &b, attacker, rule, nodes(20_000), 1)?;
        b.place(p, attacker).ok()?;
        if five_at(&b, p, attacker, rule).is_some() {
            return Some(n);
        }
        let blocks = five_points(&b, attacker, rule);
        let q = match blocks.first() {
            Some(&q) => q,
            None => best_move(Level::Expert, &b, defender, rule, nodes(5_000), 1)?,
        };
        b.place(q, defender).ok()?;
        if five_at(&b, q, defender, rule).is_some() {
            return None;
        }
    }
    None
}

/// Replays a VCF line (attacker and defender moves alternating) and checks
/// it is genuine: every attacker move but the last makes a four whose
/// block is the defender's only move (and the next defender move is that
/// block), a defender block that makes a four of its own is answered by
/// an attacker four on its five-point, and the last attacker move leaves
/// two five-points, so the five follows. Returns the attacker's moves.
fn check_vcf_line(board: &Board, attacker: Stone, rule: Rule, line: &[Point]) -> usize {
    let defender = attacker.opponent();
    let mut b = board.clone();
    assert!(five_points(&b, attacker, rule).is_empty(), "five in one");
    let attacks = line.len().div_ceil(2);
    for (k, pair) in line.chunks(2).enumerate() {
        let a = pair[0];
        let threats = five_points(&b, defender, rule);
        assert!(
            threats.is_empty() || threats == [a],
            "move {k}: ignores {threats:?}"
        );
        b.place(a, attacker).unwrap();
        assert!(
            five_at(&b, a, attacker, rule).is_none(),
            "move {k} is a five"
        );
        let fives = five_points(&b, attacker, rule);
        if k + 1 == attacks {
            assert!(fives.len() >= 2, "last move {a} does not win: {fives:?}");
            // Whatever the defender blocks, the five follows.
            b.place(fives[0], defender).unwrap();
            b.place(fives[1], attacker).unwrap();
            assert!(five_at(&b, fives[1], attacker, rule).is_some());
        } else {
            assert_eq!(fives.len(), 1, "move {k} ({a}) is not a single four");
            assert_eq!(pair.get(1), Some(&fives[0]), "move {k}: wrong block");
            b.place(fives[0], defender).unwrap();
            assert!(five_at(&b, fives[0], defender, rule).is_none());
        }
    }
    attacks
}

#[test]
fn vcf_puzzles_are_genuine_and_shortest() {
    let set = puzzles::vcf_puzzles();
    let lengths: Vec<usize> = set.iter().map(|p| p.fours).collect();
    for want in [5, 8, 10, 12, 15] {
        assert!(lengths.contains(&want), "no puzzle of {want} fours");
    }
    for pz in &set {
        let (b, att) = (&pz.board, pz.attacker);
        // The built chains are real positions with black to move: equal
        // stone counts (the random ones have one black stone more).
        let blacks = b.stones().filter(|s| s.1 == Stone::Black).count();
        if pz.name.starts_with("chain") {
            assert_eq!(2 * blacks, b.stone_count(), "{}", pz.name);
        }
        // Iterative deepening proves no VCF is shorter (a shallower depth
        // that ran out of nodes would give None)...
        let line = shortest_vcf(b, att, Rule::Freestyle, pz.fours as i32 - 1, 5_000_000)
            .unwrap_or_else(|| panic!("{}: no VCF of {} fours", pz.name, pz.fours));
        assert_eq!(
            vcf_min_fours(b, att, Rule::Freestyle, 20, 5_000_000),
            Some(pz.fours - 1)
        );
        // ...and the line it finds is a real VCF of exactly that length.
        assert_eq!(
            check_vcf_line(b, att, Rule::Freestyle, &line),
            pz.fours,
            "{}",
            pz.name
        );
        // The default solver (first line found, not the shortest) also wins.
        let any = find_vcf(b, att, Rule::Freestyle, 1_000_000)
            .unwrap_or_else(|| panic!("{}: no VCF found", pz.name));
        assert!(check_vcf_line(b, att, Rule::Freestyle, &any) >= pz.fours);
        // The defender has no five-point to start with.
        assert!(five_points(b, att.opponent(), Rule::Freestyle).is_empty());
    }
}

#[test]
fn expert_solves_vcf_puzzles() {
    let set = puzzles::vcf_puzzles();
    assert!(set.len() >= 14);
    for pz in set {
        // The Expert's first move keeps a forced win (checked by the
        // solver after the forced block)...
        let first = best_move(
            Level::Expert,
            &pz.board,
            pz.attacker,
            Rule::Freestyle,
            nodes(20_000),
            0,
        )
        .unwrap();
        let mut b = pz.board.clone();
        b.place(first, pz.attacker).unwrap();
        let blocks = five_points(&b, pz.attacker, Rule::Freestyle);
        assert!(
            !blocks.is_empty(),
            "{}: first move {first} is not a four",
            pz.name
        );
        if blocks.len() == 1 {
            b.place(blocks[0], pz.attacker.opponent()).unwrap();
            assert!(
                find_vcf(&b, pz.attacker, Rule::Freestyle, 1_000_000).is_some(),
                "{}: no VCF left after {first}",
                pz.name
            );
        }
        // ...and playing it out against a blocking defender wins.
        let n = play_out(&pz.board, pz.attacker, Rule::Freestyle)
            .unwrap_or_else(|| panic!("{}: the play-out did not win", pz.name));
        assert!(n <= pz.fours + 6, "{}: took {n} moves", pz.name);
    }
}

#[test]
fn every_level_takes_a_five_in_one() {
    // Black can win at (6,7); white threatens five at (10,9) too.
    let board = Board::from_diagram(
        15,
        &[
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "..OXXXX........",
            "...............",
            "......OOOO.....",
        ],
    )
    .unwrap();
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        for level in LEVELS {
            for seed in 0..3 {
                let p = best_move(level, &board, Stone::Black, rule, nodes(5_000), seed).unwrap();
                let mut b = board.clone();
                b.place(p, Stone::Black).unwrap();
                assert!(
                    five_at(&b, p, Stone::Black, rule).is_some(),
                    "{level:?} {rule:?} missed the five, played {p}"
                );
            }
        }
    }
}

#[test]
fn every_level_blocks_a_four() {
    // White (to move) has nothing; black threatens five at (7,7) only.
    let board = Board::from_diagram(
        15,
        &[
            "...............",
            "...............",
            "...X...........",
            "...X...........",
            "...X...........",
            "...X...........",
            "...O...........",
            ".......O.......",
            "......X........",
        ],
    )
    .unwrap();
    for level in LEVELS {
        let p = best_move(
            level,
            &board,
            Stone::White,
            Rule::Freestyle,
            nodes(5_000),
            0,
        )
        .unwrap();
        assert_eq!(p, Point::new(3, 1), "{level:?} did not block the four");
    }
}

#[test]
fn intermediate_and_expert_block_open_threes() {
    let threes: [&[&str]; 3] = [
        &[
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "......O........",
            ".....XXX.......",
            "........O......",
        ],
        &[
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            ".....X.........",
            "......X...O....",
            ".......X.......",
            "..O............",
        ],
        &[
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...........O...",
            "....X.XX.......",
            "...........O...",
        ],
    ];
    for rows in threes {
        let board = Board::from_diagram(15, rows).unwrap();
        assert!(has_open_four_move(&board, Stone::Black, Rule::Freestyle));
        for level in [Level::Intermediate, Level::Expert] {
            let p = best_move(
                level,
                &board,
                Stone::White,
                Rule::Freestyle,
                nodes(20_000),
                0,
            )
            .unwrap();
            let mut b = board.clone();
            b.place(p, Stone::White).unwrap();
            assert!(
                !has_open_four_move(&b, Stone::Black, Rule::Freestyle),
                "{level:?} played {p} and left the open three"
            );
        }
    }
}

/// A position with a black double-three point at (7,7): open twos through
/// it horizontally and vertically.
fn double_three_board() -> Board {
    Board::from_diagram(
        15,
        &[
            "...............",
            "...............",
            "...............",
            "..O............",
            "...............",
            ".......X.......",
            ".......X.......",
            ".....XX........",
            "...............",
            "...........O...",
            "..........O....",
        ],
    )
    .unwrap()
}

#[test]
fn renju_black_never_plays_a_forbidden_point() {
    let board = double_three_board();
    assert!(renju::is_forbidden(&board, Point::new(7, 7)));
    for level in LEVELS {
        for seed in 0..3 {
            let p =
                best_move(level, &board, Stone::Black, Rule::Renju, nodes(5_000), seed).unwrap();
            assert!(
                !renju::is_forbidden(&board, p),
                "{level:?} played forbidden {p}"
            );
        }
    }
    // Random renju positions with black to move.
    let mut r = 7u64;
    for game in 0..12 {
        let mut b = Board::new(15).unwrap();
        let stones = 10 + game;
        let mut k = 0;
        while b.stone_count() < stones {
            r = r
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let p = Point::new(4 + ((r >> 33) % 7) as u8, 4 + ((r >> 45) % 7) as u8);
            let s = if k % 2 == 0 {
                Stone::Black
            } else {
                Stone::White
            };
            if b.is_empty_at(p) && !(s == Stone::Black && renju::is_forbidden(&b, p)) {
                b.place(p, s).unwrap();
                if five_at(&b, p, s, Rule::Renju).is_some() {
                    b.remove(p);
                    continue;
                }
                k += 1;
            }
        }
        for level in LEVELS {
            let p = best_move(
                level,
                &b,
                Stone::Black,
                Rule::Renju,
                nodes(3_000),
                game as u64,
            )
            .unwrap();
            assert!(b.is_empty_at(p));
            assert!(
                !renju::is_forbidden(&b, p),
                "{level:?} played forbidden {p}\n{b:?}"
            );
        }
    }
}

#[test]
fn renju_white_wins_where_black_block_is_forbidden() {
    // Black's double-three point (7,7) lies on white's diagonal O O O:
    // white completes an open four, or a four whose block is forbidden.
    let mut b = Board::new(15).unwrap();
    for (x, y, s) in [
        (7, 5, Stone::Black),
        (7, 6, Stone::Black),
        (5, 7, Stone::Black),
        (6, 7, Stone::Black),
        (4, 4, Stone::White),
        (5, 5, Stone::White),
        (6, 6, Stone::White),
        (2, 12, Stone::White),
    ] {
        b.place(Point::new(x, y), s).unwrap();
    }
    assert!(renju::is_forbidden(&b, Point::new(7, 7)));
    let p = best_move(
        Level::Expert,
        &b,
        Stone::White,
        Rule::Renju,
        nodes(20_000),
        0,
    )
    .unwrap();
    let mut after = b.clone();
    after.place(p, Stone::White).unwrap();
    let fives = five_points(&after, Stone::White, Rule::Renju);
    let blockable = fives
        .iter()
        .filter(|&&q| !renju::is_forbidden(&after, q))
        .count();
    assert!(
        !fives.is_empty() && (fives.len() >= 2 || blockable == 0),
        "white {p} does not win"
    );
}

/// Plays a whole game with the AIs on both seats, checking every decision
/// is legal; returns the final game.
fn self_play(cfg: GomokuConfig, seed: u64, max_actions: usize, levels: [Level; 2]) -> Gomoku {
    let mut g = Gomoku::new(cfg).unwrap();
    for k in 0..max_actions {
        let Some(seat) = g.to_act() else { break };
        let level = levels[if seat == Seat::First { 0 } else { 1 }];
        assert!(choose_with(level, &g, seat.other(), nodes(1_000), seed).is_none());
        let d = choose_with(level, &g, seat, nodes(1_500), seed + k as u64)
            .unwrap_or_else(|| panic!("{level:?} gave no decision in {:?}", g.phase()));
        let r = match d {
            Decision::Place(p) => g.play(seat, p),
            Decision::Choose(c) => g.choose(seat, c),
        };
        assert!(
            r.is_ok(),
            "{level:?} {d:?} illegal in {:?}: {r:?}",
            g.phase()
        );
    }
    g
}

/// Self-play under `rule` with both openings and mixed levels; returns the
/// phases met.
fn legal_under(rule: Rule) -> std::collections::HashSet<String> {
    let mut phases = std::collections::HashSet::new();
    for opening in [Opening::None, Opening::Swap2] {
        for (i, levels) in [
            [Level::Beginner, Level::Beginner],
            [Level::Beginner, Level::Expert],
            [Level::Intermediate, Level::Beginner],
            [Level::Expert, Level::Intermediate],
        ]
        .into_iter()
        .enumerate()
        {
            let cfg = GomokuConfig {
                size: if i == 3 { 9 } else { 15 },
                rule,
                opening,
            };
            let mut g = Gomoku::new(cfg).unwrap();
            let played = self_play(cfg, 7 + i as u64, 20, levels);
            for a in played.actions() {
                let _ = g.apply(*a);
                phases.insert(format!("{:?}", g.phase()));
            }
        }
    }
    phases
}

#[test]
fn every_level_is_legal_freestyle_all_phases() {
    let phases = legal_under(Rule::Freestyle);
    for ph in [
        Phase::Swap2Choose,
        Phase::Swap2PlaceTwo,
        Phase::Swap2FinalChoose,
        Phase::Main,
    ] {
        assert!(phases.contains(&format!("{ph:?}")), "never reached {ph:?}");
    }
}

#[test]
fn every_level_is_legal_standard() {
    legal_under(Rule::Standard);
}

#[test]
fn every_level_is_legal_renju() {
    legal_under(Rule::Renju);
}

#[test]
fn decisions_are_deterministic_for_a_seed() {
    let g = self_play(
        GomokuConfig::default(),
        3,
        12,
        [Level::Beginner, Level::Beginner],
    );
    let seat = g.to_act().unwrap();
    for level in LEVELS {
        let a = choose_with(level, &g, seat, nodes(3_000), 42);
        let b = choose_with(level, &g, seat, nodes(3_000), 42);
        assert_eq!(a, b, "{level:?}");
    }
}

#[test]
fn expert_beats_beginner_in_a_short_game() {
    // Expert as black from the empty board wins against Beginner.
    let cfg = GomokuConfig::default();
    let mut g = Gomoku::new(cfg).unwrap();
    while let Some(seat) = g.to_act() {
        let level = if seat == Seat::First {
            Level::Expert
        } else {
            Level::Beginner
        };
        match choose_with(level, &g, seat, nodes(4_000), g.moves().len() as u64).unwrap() {
            Decision::Place(p) => g.play(seat, p).unwrap(),
            Decision::Choose(c) => g.choose(seat, c).unwrap(),
        }
        assert!(g.moves().len() < 120);
    }
    match g.outcome() {
        Some(tabula_shared::gomoku::Outcome::Win { seat, .. }) => assert_eq!(*seat, Seat::First),
        other => panic!("expected an Expert win, got {other:?}"),
    }
}

#[test]
fn expert_tables_fit_a_memory_limit() {
    let board = Board::from_diagram(
        15,
        &[
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "......X.O......",
            ".......XO......",
            "......OX.......",
        ],
    )
    .unwrap();
    let unlimited = expert_search(&board, Stone::White, Rule::Freestyle, nodes(300_000), 0);
    assert!(unlimited.table_bytes > 4 << 20, "{}", unlimited.table_bytes);
    for bytes in [100_000usize, 1 << 20] {
        let limits = Limits {
            memory: Some(bytes),
            ..nodes(300_000)
        };
        let r = expert_search(&board, Stone::White, Rule::Freestyle, limits, 0);
        assert!(r.table_bytes <= bytes, "{} > {bytes}", r.table_bytes);
        let p = r.best.unwrap();
        assert!(board.is_empty_at(p));
    }
}

/// Every defence position of the tactics suite can be defended: some
/// move near the stones leaves the opponent without a threat win (as the
/// suite's own check reads it); in the three taken out of it, none does.
#[test]
fn every_defence_in_the_tactics_suite_has_a_solution() {
    use tabula_ai::gomoku::tactics::{Tactic, Task, lost_defences, near_points, solves, tactics};
    let defended = |t: &Tactic| {
        near_points(&t.board)
            .into_iter()
            .any(|p| solves(t, p, Rule::Freestyle))
    };
    for t in tactics().iter().filter(|t| t.task == Task::Defend) {
        assert!(defended(t), "{}: every move loses", t.name);
    }
    // And the positions taken out of the suite have none.
    for t in lost_defences() {
        assert!(!defended(&t), "{}: some move defends", t.name);
    }
}

/// The tactics suite is what it says: in every win position the side to
/// move has a VCT and no VCF; in every defence position the opponent
/// would win by threats if the side to move passed. Each position has the
/// stone counts of a real game with that side to move.
#[test]
fn tactics_suite_positions_are_genuine() {
    use tabula_ai::gomoku::tactics::{Task, tactics, threat_win};
    let suite = tactics();
    assert!(suite.iter().filter(|t| t.task == Task::Win).count() >= 10);
    assert!(suite.iter().filter(|t| t.task == Task::Defend).count() >= 10);
    for t in &suite {
        let b = &t.board;
        let blacks = b.stones().filter(|s| s.1 == Stone::Black).count();
        let whites = b.stone_count() - blacks;
        let black_to_move = blacks == whites;
        assert!(blacks == whites || blacks == whites + 1, "{}", t.name);
        assert_eq!(black_to_move, t.to_move == Stone::Black, "{}", t.name);
        match t.task {
            Task::Win => {
                assert!(
                    find_vcf(b, t.to_move, Rule::Freestyle, 50_000).is_none(),
                    "{}",
                    t.name
                );
                assert!(
                    threat_win(b, t.to_move, Rule::Freestyle, 200_000),
                    "{}",
                    t.name
                );
            }
            Task::Defend => {
                assert!(
                    threat_win(b, t.to_move.opponent(), Rule::Freestyle, 200_000),
                    "{}",
                    t.name
                );
            }
        }
    }
}
