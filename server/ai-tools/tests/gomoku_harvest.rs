//! "Win by fours" puzzles harvested from engine games: every puzzle kept
//! replays to the attacker's five with each defence forced, and no other
//! first four wins by fours, checked by the public solver with a larger
//! budget; the same puzzle twice on one board is refused as not unique.

use tabula_ai::Level;
use tabula_ai::gomoku::find_vcf;
use tabula_ai::gomoku::harvest::{Rejected, VcfPuzzle, vcf_puzzle};
use tabula_ai::gomoku::study::five_points;
use tabula_ai::gomoku::tactics::near_points;
use tabula_ai_tools::sample_games;
use tabula_shared::gomoku::{Board, GomokuAction, Point, Rule, Stone, five_at};
use tabula_shared::protocol::GameRecord;

const NODES: u64 = 200_000;
/// Games between two Casual players (their noise varies the games).
const GAMES: u64 = 24;

/// Every position of a Gomoku record with the colour to move.
fn positions(record: &GameRecord) -> Vec<(Board, Stone)> {
    let GameRecord::Gomoku { config, actions } = record else {
        panic!("a gomoku record");
    };
    let mut board = Board::new(config.size).unwrap();
    let mut mover = Stone::Black;
    let mut out = Vec::new();
    for action in actions {
        if let GomokuAction::Place { point, .. } = action {
            out.push((board.clone(), mover));
            board.place(*point, mover).unwrap();
            mover = mover.opponent();
        }
    }
    out
}

/// The solution played out: each defence the only block, the last stone
/// the attacker's five.
fn replays_with_forced_defences(p: &VcfPuzzle) -> bool {
    let mut board = p.board.clone();
    let mut mover = p.attacker;
    for (i, &q) in p.solution.iter().enumerate() {
        if mover != p.attacker {
            let threats = five_points(&board, p.attacker, p.rule);
            // Forced: the attacker threatens one five (or more, when the
            // last four is unstoppable and any block loses).
            if threats.is_empty() {
                return false;
            }
        }
        if board.place(q, mover).is_err() {
            return false;
        }
        if five_at(&board, q, mover, p.rule).is_some() {
            return mover == p.attacker && i + 1 == p.solution.len();
        }
        mover = mover.opponent();
    }
    // The line may stop at the unstoppable four: the attacker has two fives.
    five_points(&board, p.attacker, p.rule).len() >= 2
}

/// No first four but the solution's leaves a VCF after its block.
fn unique_by_the_solver(p: &VcfPuzzle) -> bool {
    near_points(&p.board).into_iter().all(|q| {
        if q == p.solution[0] {
            return true;
        }
        let mut after = p.board.clone();
        after.place(q, p.attacker).unwrap();
        match five_points(&after, p.attacker, p.rule).as_slice() {
            [] => true,
            [block] => {
                after.place(*block, p.attacker.opponent()).unwrap();
                find_vcf(&after, p.attacker, p.rule, 4 * NODES).is_none()
            }
            _ => false,
        }
    })
}

/// `p`'s stones twice on a 25×25 board, side by side: two first fours win.
fn doubled(p: &VcfPuzzle) -> Option<Board> {
    let stones: Vec<(Point, Stone)> = p.board.stones().collect();
    let (lo, hi) = stones
        .iter()
        .fold((u8::MAX, 0), |(lo, hi), (q, _)| (lo.min(q.x), hi.max(q.x)));
    if hi - lo > 10 {
        return None;
    }
    let mut board = Board::new(25).unwrap();
    for (q, s) in &stones {
        board.place(Point::new(q.x - lo, q.y), *s).ok()?;
        board.place(Point::new(q.x - lo + 13, q.y), *s).ok()?;
    }
    Some(board)
}

#[test]
fn harvested_puzzles_are_unique_and_replay_to_a_five() {
    let (mut puzzles, mut refused) = (Vec::new(), 0);
    for seed in 1..=GAMES {
        let record = sample_games::gomoku(seed, [Level::Casual, Level::Casual], 20_000);
        for (board, mover) in positions(&record) {
            match vcf_puzzle(&board, mover, Rule::Freestyle, NODES) {
                Ok(p) => puzzles.push(p),
                Err(Rejected::NotUnique(_) | Rejected::Unproven) => refused += 1,
                Err(_) => {}
            }
        }
    }
    println!(
        "{} puzzles kept of {} candidates",
        puzzles.len(),
        puzzles.len() + refused
    );
    assert!(!puzzles.is_empty(), "the games give at least one puzzle");
    let mut doubled_checked = 0;
    for p in &puzzles {
        assert!(p.fours >= 2, "{p:?}");
        assert!(replays_with_forced_defences(p), "{p:?}");
        assert!(unique_by_the_solver(p), "{p:?}");
        if let Some(board) = doubled(p) {
            let twice = vcf_puzzle(&board, p.attacker, p.rule, NODES);
            assert!(matches!(twice, Err(Rejected::NotUnique(_))), "{twice:?}");
            doubled_checked += 1;
        }
    }
    assert!(doubled_checked > 0, "a puzzle narrow enough to double");
}
