//! Harvesting Gomoku puzzles from played positions, each kept only when
//! the solvers find its answer the only one:
//! - "win by fours" (here): the side to move wins by continuous fours
//!   (VCF) and no other first four does;
//! - "find the only defence" ([`defence`]): the other side threatens a VCF
//!   and exactly one stone stops it;
//! - "win by threats" ([`threats`]): the side to move has no VCF but wins
//!   by fours and open threes (VCT), and no other first threat does.
//!
//! A "win by fours" candidate is a position where the side to move has a
//! shortest VCF of at least [`MIN_FOURS`] fours before the winning one
//! (proven shortest by iterative deepening, [`super::shortest_vcf`]) and
//! the other side has no four on the board. It survives when, for every
//! other point that makes a four, the defender's forced block leaves the
//! attacker no VCF, each proven by a search that did not run out of nodes.
//! A four that is already unstoppable (an open four, a double four, or a
//! block the rule forbids) counts as a second answer.
//!
//! Only the first move is proven unique: later attacking moves may have
//! equivalents (a transposed order of the same fours), as in the
//! published VCF collections.

pub mod defence;
pub mod threats;

use tabula_shared::gomoku::{Board, Point, Rule, Stone, five_at};

use super::pos::{Pos, color_of};
use super::search::{Searcher, Settings};
use super::shortest_vcf;
use super::study::five_points;

/// Fewest attacking fours (before the winning one) a puzzle asks for:
/// one four and a five is no puzzle.
pub const MIN_FOURS: usize = 2;
/// Most fours the shortest solution may take.
pub const MAX_FOURS: i32 = 12;

/// A "win by fours" puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct VcfPuzzle {
    /// The position.
    pub board: Board,
    /// The colour to move, which wins.
    pub attacker: Stone,
    /// The rule.
    pub rule: Rule,
    /// The shortest solution: attacker and defender alternating, from the
    /// attacker's only winning first four (the solver's line).
    pub solution: Vec<Point>,
    /// Attacking fours before the winning one.
    pub fours: usize,
}

/// Threats a VCT search looks ahead (the winning one and each other
/// first threat of a "win by threats" check).
pub const VCT_DEPTH: i32 = 10;

/// Why a position is not a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejected {
    /// The side to move has no VCF (within the budget), or only a short
    /// one; for a defence, the other side has no such threat, or no stone
    /// stops it; for threats, no VCT.
    NoVcf,
    /// The other side has a four on the board: the move is forced.
    DefenderFour,
    /// A defence: the side to move has a win by fours of its own.
    OwnWin,
    /// A defence: the only stone that stops the fours still loses to
    /// threats.
    LostAnyway,
    /// Threats: the side to move already wins by fours (a "win by fours"
    /// puzzle, or none).
    Fours,
    /// Another first four also wins.
    NotUnique(Point),
    /// A search ran out of nodes: uniqueness is not proven.
    Unproven,
}

/// Does `attacker` (to move) win by fours on `board`? `None` when the
/// search ran out of `nodes` before it could say.
fn has_vcf(board: &Board, attacker: Stone, rule: Rule, nodes: u64) -> Option<bool> {
    let mut s = Searcher::new(Pos::from_board(board, rule), Settings::EXPERT, 0);
    let found = s.vcf_root(color_of(attacker), MAX_FOURS + 1, nodes);
    if found {
        Some(true)
    } else if s.vcf_aborted() {
        None
    } else {
        Some(false)
    }
}

/// The puzzle in `board` with `attacker` to move, searching with at most
/// `nodes` nodes a proof.
///
/// # Errors
/// See [`Rejected`].
pub fn vcf_puzzle(
    board: &Board,
    attacker: Stone,
    rule: Rule,
    nodes: u64,
) -> Result<VcfPuzzle, Rejected> {
    let defender = attacker.opponent();
    if !five_points(board, defender, rule).is_empty() {
        return Err(Rejected::DefenderFour);
    }
    let solution = shortest_vcf(board, attacker, rule, MAX_FOURS, nodes).ok_or(Rejected::NoVcf)?;
    let fours = solution.len().div_ceil(2) - 1;
    if fours < MIN_FOURS {
        return Err(Rejected::NoVcf);
    }
    let first = solution[0];
    for p in near_points(board) {
        if p == first {
            continue;
        }
        let mut after = board.clone();
        if after.place(p, attacker).is_err() || five_at(&after, p, attacker, rule).is_some() {
            continue;
        }
        let threats = five_points(&after, attacker, rule);
        match threats.as_slice() {
            [] => continue, // not a four
            [block] => {
                let blocked = after.place(*block, defender).is_ok()
                    && five_at(&after, *block, defender, rule).is_none();
                if !blocked {
                    return Err(Rejected::NotUnique(p));
                }
                match has_vcf(&after, attacker, rule, nodes) {
                    Some(false) => {}
                    Some(true) => return Err(Rejected::NotUnique(p)),
                    None => return Err(Rejected::Unproven),
                }
            }
            _ => return Err(Rejected::NotUnique(p)),
        }
    }
    Ok(VcfPuzzle {
        board: board.clone(),
        attacker,
        rule,
        solution,
        fours,
    })
}

/// The empty points within two of a stone: the first fours a uniqueness
/// check tries (and the replies the tactics suites try).
pub fn near_points(board: &Board) -> Vec<Point> {
    let n = board.size();
    let mut out = Vec::new();
    for y in 0..n {
        for x in 0..n {
            let p = Point::new(x, y);
            if !board.is_empty_at(p) {
                continue;
            }
            let near = board.stones().any(|(q, _)| {
                i32::from(q.x).abs_diff(i32::from(x)) <= 2
                    && i32::from(q.y).abs_diff(i32::from(y)) <= 2
            });
            if near {
                out.push(p);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const NODES: u64 = 200_000;

    fn board(rows: &[&str]) -> Board {
        Board::from_diagram(15, rows).unwrap()
    }

    /// Black's three fours, each from the last, the third a double four:
    /// one chain, and nothing else on the board makes a four.
    const ONE_WAY: [&str; 15] = [
        "...............",
        "...............",
        "...............",
        "...............",
        "......o........",
        ".......x.......",
        "........x......",
        ".........x.....",
        "...............",
        ".....o.........",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
    ];

    #[test]
    fn a_position_with_no_long_vcf_is_no_puzzle() {
        // Three in a row open at one end only: one four and a five at most.
        let b = board(&ONE_WAY);
        assert_eq!(
            vcf_puzzle(&b, Stone::Black, Rule::Freestyle, NODES),
            Err(Rejected::NoVcf)
        );
    }

    #[test]
    fn a_defenders_four_makes_the_move_forced() {
        let mut b = board(&ONE_WAY);
        for x in 0..4 {
            b.place(Point::new(x, 14), Stone::White).unwrap();
        }
        assert_eq!(
            vcf_puzzle(&b, Stone::Black, Rule::Freestyle, NODES),
            Err(Rejected::DefenderFour)
        );
    }
}
