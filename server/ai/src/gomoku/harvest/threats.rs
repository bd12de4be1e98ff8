//! "Win by threats" puzzles: the side to move has no win by fours but wins
//! by continuous threats (fours and open threes, VCT), and no other first
//! threat wins.
//!
//! The win is the threat search's ([`Searcher::vct_root`]), played out
//! threat by threat against the Expert's defence to a five. Every other
//! point where the side to move makes a four or a three is searched again
//! as a first move, to the same depth; each must come back "no win" from
//! a search that did not run out of nodes. That search is bounded (the
//! depth, and the dozen best threats at each attacker node), so the
//! answer is unique as far as the threat search sees, not proven against
//! every line; the defences it tries are a superset of the real ones
//! (docs/STUDY.md).

use tabula_shared::gomoku::{Board, Point, Rule, Stone};

use super::super::pos::{Pos, color_of};
use super::super::search::{Searcher, Settings};
use super::super::study::{five_points, play_out_vct};
use super::{MAX_FOURS, Rejected, VCT_DEPTH};

/// A "win by threats" puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct VctPuzzle {
    /// The position.
    pub board: Board,
    /// The colour to move, which wins.
    pub attacker: Stone,
    /// The rule.
    pub rule: Rule,
    /// The win played out to the five: attacker and defender alternating,
    /// the defender's replies the Expert's.
    pub solution: Vec<Point>,
}

/// The puzzle in `board` with `attacker` to move, each search within
/// `nodes` nodes.
///
/// # Errors
/// See [`Rejected`].
pub fn vct_puzzle(
    board: &Board,
    attacker: Stone,
    rule: Rule,
    nodes: u64,
) -> Result<VctPuzzle, Rejected> {
    if !five_points(board, attacker.opponent(), rule).is_empty() {
        return Err(Rejected::DefenderFour);
    }
    if !five_points(board, attacker, rule).is_empty() {
        return Err(Rejected::Fours);
    }
    let att = color_of(attacker);
    let mut s = Searcher::new(Pos::from_board(board, rule), Settings::EXPERT, 0);
    if s.vcf_root(att, MAX_FOURS + 1, nodes) {
        return Err(Rejected::Fours);
    }
    if s.vcf_aborted() {
        return Err(Rejected::Unproven);
    }
    let first = s.vct_root(att, VCT_DEPTH, nodes).ok_or(Rejected::NoVcf)?;
    let solution = play_out_vct(board, attacker, rule, nodes).ok_or(Rejected::Unproven)?;
    if solution.first() != Some(&s.pos.point(first)) {
        return Err(Rejected::Unproven);
    }
    for t in s.threat_points(att) {
        if t == first {
            continue;
        }
        match s.vct_after(att, t, VCT_DEPTH - 1, nodes) {
            Some(false) => {}
            Some(true) => return Err(Rejected::NotUnique(s.pos.point(t))),
            None => return Err(Rejected::Unproven),
        }
    }
    Ok(VctPuzzle {
        board: board.clone(),
        attacker,
        rule,
        solution,
    })
}

#[cfg(test)]
mod tests {
    use tabula_shared::gomoku::five_at;

    use super::*;

    const NODES: u64 = 200_000;

    /// From a Casual-against-Casual game (the study bench's first seeds):
    /// White to move wins by threats from l4.
    const THREATS: [&str; 11] = [
        "...............",
        "...............",
        "...............",
        "...............",
        ".......xo.o....",
        ".........ox....",
        "..........xo...",
        ".......xoxx....",
        "..........o.x..",
        "........x.xo...",
        "..........o....",
    ];

    #[test]
    fn the_only_winning_first_threat_is_the_answer_and_its_line_wins() {
        let b = Board::from_diagram(15, &THREATS).unwrap();
        let p = vct_puzzle(&b, Stone::White, Rule::Freestyle, NODES).unwrap();
        assert_eq!(p.solution[0].to_string(), "l4");
        // The line replays to White's five.
        let mut board = b.clone();
        let mut mover = Stone::White;
        for &m in &p.solution {
            board.place(m, mover).unwrap();
            mover = mover.opponent();
        }
        let last = *p.solution.last().unwrap();
        assert!(five_at(&board, last, Stone::White, Rule::Freestyle).is_some());
        // Black, to move instead, has no such win.
        assert!(vct_puzzle(&b, Stone::Black, Rule::Freestyle, NODES).is_err());
    }

    #[test]
    fn a_win_by_fours_is_not_a_threats_puzzle() {
        let b = Board::from_diagram(
            15,
            &[
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "......xxx......",
                "...............",
                "...............",
                "o.............o",
            ],
        )
        .unwrap();
        // An open three is one move from an open four: that is fours.
        assert_eq!(
            vct_puzzle(&b, Stone::Black, Rule::Freestyle, NODES),
            Err(Rejected::Fours)
        );
    }
}
