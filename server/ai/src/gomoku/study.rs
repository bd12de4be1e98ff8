//! The analysis board's Gomoku answer: the Expert's best stones with the
//! lines it expects, and the forced wins (VCF, then VCT) of the colour to
//! move and of the other colour, each played out to the five.
//!
//! - **Stones**: [`super::hints::hints_on`], each followed by the
//!   Expert's replies for [`LINE_PLIES`] more stones.
//! - **Forced wins**: the VCF solver's line, or a VCT found by the threat
//!   search and played out threat by threat against the Expert's best
//!   defence (re-solving after each reply); a line that does not reach a
//!   five is not reported.

use tabula_shared::gomoku::{Board, Point, Rule, Stone, five_at};
use tabula_shared::protocol::{ForcedWin, ForcedWinKind, GomokuMoveLine, GomokuStudyAnswer};
use tabula_shared::study::GomokuSetup;

use super::{Limits, expert_search, find_vcf, find_vct, legal};

/// Stones after each candidate in its line.
pub const LINE_PLIES: usize = 3;
/// Threats the VCT search looks ahead.
const VCT_DEPTH: i32 = 12;
/// Attacking stones a played-out VCT may take.
const VCT_STONES: usize = 25;

/// The board's answer for `setup` (which the caller has checked), `nodes`
/// bounding each search.
pub fn study(setup: &GomokuSetup, nodes: u64) -> GomokuStudyAnswer {
    let engine = format!("Tabula Gomoku Expert, {nodes} nodes a search");
    let mut answer = GomokuStudyAnswer {
        engine,
        to_move: setup.to_move,
        winner: setup.winner(),
        moves: Vec::new(),
        win: None,
        threat: None,
    };
    let Ok(board) = setup.board() else {
        return answer;
    };
    if answer.winner.is_some() || board.is_full() {
        return answer;
    }
    let (me, rule) = (setup.to_move, setup.rule);
    answer.moves = super::hints::hints_on(&board, me, rule, nodes)
        .into_iter()
        .map(|(point, value)| GomokuMoveLine {
            point,
            value,
            line: expected_line(&board, point, me, rule, nodes / 4),
        })
        .collect();
    answer.win = forced_win(&board, me, rule, nodes);
    answer.threat = forced_win(&board, me.opponent(), rule, nodes);
    answer
}

/// `first` for `me`, then the Expert's choices for both colours.
fn expected_line(board: &Board, first: Point, me: Stone, rule: Rule, nodes: u64) -> Vec<Point> {
    let mut board = board.clone();
    let mut line = vec![first];
    if board.place(first, me).is_err() || five_at(&board, first, me, rule).is_some() {
        return line;
    }
    let mut mover = me.opponent();
    for _ in 0..LINE_PLIES {
        if board.is_full() {
            break;
        }
        let Some(p) = expert_search(&board, mover, rule, Limits::nodes(nodes.max(1)), 0).best
        else {
            break;
        };
        if !legal(&board, p, mover, rule) || board.place(p, mover).is_err() {
            break;
        }
        line.push(p);
        if five_at(&board, p, mover, rule).is_some() {
            break;
        }
        mover = mover.opponent();
    }
    line
}

/// The points where `stone` would make a winning line now.
pub fn five_points(board: &Board, stone: Stone, rule: Rule) -> Vec<Point> {
    board
        .points()
        .filter(|&p| {
            legal(board, p, stone, rule) && {
                let mut b = board.clone();
                b.place(p, stone).is_ok() && five_at(&b, p, stone, rule).is_some()
            }
        })
        .collect()
}

/// A forced win for `attacker` as if it were to move, played out to the
/// five, or `None` when the solvers find none (or it does not play out).
pub fn forced_win(board: &Board, attacker: Stone, rule: Rule, nodes: u64) -> Option<ForcedWin> {
    if let Some(line) = find_vcf(board, attacker, rule, nodes) {
        let line = finish(board, attacker, rule, line)?;
        return Some(ForcedWin {
            attacker,
            kind: ForcedWinKind::Vcf,
            line,
        });
    }
    find_vct(board, attacker, rule, VCT_DEPTH, nodes)?;
    let line = play_out_vct(board, attacker, rule, nodes)?;
    Some(ForcedWin {
        attacker,
        kind: ForcedWinKind::Vct,
        line,
    })
}

/// `line` (attacker first, alternating) played on `board`, then carried
/// on to the five: after an open four the defender blocks one end and the
/// attacker takes the other. `None` when a stone of the line is refused or
/// no five comes.
fn finish(board: &Board, attacker: Stone, rule: Rule, line: Vec<Point>) -> Option<Vec<Point>> {
    let mut board = board.clone();
    let mut out = Vec::with_capacity(line.len() + 2);
    let mut mover = attacker;
    for p in line {
        board.place(p, mover).ok()?;
        out.push(p);
        if five_at(&board, p, mover, rule).is_some() {
            return (mover == attacker).then_some(out);
        }
        mover = mover.opponent();
    }
    // Two moves at most close an unstoppable four.
    for _ in 0..2 {
        let wins = five_points(&board, mover, rule);
        let p = if mover == attacker {
            *wins.first()?
        } else {
            // The defender blocks the attacker's first winning point.
            *five_points(&board, attacker, rule).first()?
        };
        board.place(p, mover).ok()?;
        out.push(p);
        if mover == attacker && five_at(&board, p, mover, rule).is_some() {
            return Some(out);
        }
        mover = mover.opponent();
    }
    None
}

/// A VCT played threat by threat: the attacker's threat from the search,
/// the defender's reply from the Expert, until a VCF or a five.
pub(crate) fn play_out_vct(
    board: &Board,
    attacker: Stone,
    rule: Rule,
    nodes: u64,
) -> Option<Vec<Point>> {
    let defender = attacker.opponent();
    let mut board = board.clone();
    let mut out = Vec::new();
    for _ in 0..VCT_STONES {
        // A four of the defender's must be blocked first.
        let theirs = five_points(&board, defender, rule);
        let ours = five_points(&board, attacker, rule);
        let p = if let Some(&p) = ours.first() {
            p
        } else if theirs.len() > 1 {
            return None;
        } else if let Some(&p) = theirs.first() {
            p
        } else if let Some(line) = find_vcf(&board, attacker, rule, nodes) {
            out.extend(finish(&board, attacker, rule, line)?);
            return Some(out);
        } else {
            find_vct(&board, attacker, rule, VCT_DEPTH, nodes)?
        };
        board.place(p, attacker).ok()?;
        out.push(p);
        if five_at(&board, p, attacker, rule).is_some() {
            return Some(out);
        }
        let reply = expert_search(&board, defender, rule, Limits::nodes(nodes), 0).best?;
        if !legal(&board, reply, defender, rule) {
            return None;
        }
        board.place(reply, defender).ok()?;
        out.push(reply);
        if five_at(&board, reply, defender, rule).is_some() {
            return None;
        }
    }
    None
}
