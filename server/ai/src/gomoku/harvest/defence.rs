//! "Find the only defence" puzzles: the side to move faces a win by fours
//! of the other side (a VCF the other side would play if it were to move)
//! and exactly one stone stops it.
//!
//! Every empty point is tried, each answered by a VCF search that did not
//! run out of nodes:
//! - a stone after which the attacker still wins by fours loses;
//! - a stone after which it does not is a defence; a second one rejects
//!   the position;
//! - a four of the defender's own is played with the attacker's forced
//!   block: if the attacker's win by fours still stands it only delays
//!   (neither an answer nor a defence), if it does not it defends.
//!
//! The defence must also leave the attacker no win by threats (VCT) that
//! the threat search finds, so that it holds beyond the fours.

use tabula_shared::gomoku::{Board, Point, Rule, Stone};

use super::super::pos::{Color, EMPTY, Pos, color_of};
use super::super::search::{Searcher, Settings};
use super::super::shortest_vcf;
use super::super::study::five_points;
use super::{MAX_FOURS, Rejected, VCT_DEPTH};

/// Fewest fours (before the winning one) the threat must take: a threat
/// of one move (an open three, a double-four point) is in plain sight.
pub const MIN_THREAT_FOURS: usize = 1;

/// A "find the only defence" puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct DefencePuzzle {
    /// The position.
    pub board: Board,
    /// The colour to move, which must defend.
    pub defender: Stone,
    /// The rule.
    pub rule: Rule,
    /// The only stone that stops the threat.
    pub defence: Point,
    /// The threat: the attacker's shortest win by fours had it the move
    /// (attacker and defender alternating).
    pub threat: Vec<Point>,
}

/// The puzzle in `board` with `defender` to move, each search within
/// `nodes` nodes.
///
/// # Errors
/// See [`Rejected`].
pub fn defence_puzzle(
    board: &Board,
    defender: Stone,
    rule: Rule,
    nodes: u64,
) -> Result<DefencePuzzle, Rejected> {
    let attacker = defender.opponent();
    let (threat, found) = defences(board, defender, rule, nodes, 2)?;
    let d = match found.as_slice() {
        // With no defence at all the position is lost: no puzzle either.
        [] => return Err(Rejected::NoVcf),
        [d] => *d,
        [_, second, ..] => return Err(Rejected::NotUnique(*second)),
    };
    let mut after = board.clone();
    after.place(d, defender).map_err(|_| Rejected::Unproven)?;
    let mut s = Searcher::new(Pos::from_board(&after, rule), Settings::EXPERT, 0);
    if s.vct_root(color_of(attacker), VCT_DEPTH, nodes).is_some() {
        return Err(Rejected::LostAnyway);
    }
    Ok(DefencePuzzle {
        board: board.clone(),
        defender,
        rule,
        defence: d,
        threat,
    })
}

/// The other side's threat (its shortest win by fours, had it the move)
/// and the stones that stop it, the first `most` of them in board order.
///
/// # Errors
/// See [`Rejected`].
pub fn defences(
    board: &Board,
    defender: Stone,
    rule: Rule,
    nodes: u64,
    most: usize,
) -> Result<(Vec<Point>, Vec<Point>), Rejected> {
    let attacker = defender.opponent();
    if !five_points(board, attacker, rule).is_empty() {
        return Err(Rejected::DefenderFour);
    }
    if !five_points(board, defender, rule).is_empty() {
        return Err(Rejected::OwnWin);
    }
    let threat = shortest_vcf(board, attacker, rule, MAX_FOURS, nodes).ok_or(Rejected::NoVcf)?;
    if threat.len().div_ceil(2) - 1 < MIN_THREAT_FOURS {
        return Err(Rejected::NoVcf);
    }
    let (att, def) = (color_of(attacker), color_of(defender));
    let mut s = Searcher::new(Pos::from_board(board, rule), Settings::EXPERT, 0);
    if vcf(&mut s, def, nodes)? {
        return Err(Rejected::OwnWin);
    }
    let mut found = Vec::new();
    let cells: Vec<usize> = s.pos.on_board().collect();
    for k in cells {
        if s.pos.cells[k] != EMPTY || s.pos.forbidden(def, k) {
            continue;
        }
        if defends(&mut s, att, k, nodes)? {
            found.push(s.pos.point(k));
            if found.len() >= most {
                break;
            }
        }
    }
    Ok((threat, found))
}

/// Does the defender's stone on `k` stop every win by fours of `att`?
fn defends(s: &mut Searcher, att: Color, k: usize, nodes: u64) -> Result<bool, Rejected> {
    let def = 1 - att;
    s.pos.make_threat(k, def);
    let r = answer(s, att, k, nodes);
    s.pos.unmake_threat(k, def);
    r
}

/// [`defends`] with the stone on the board.
fn answer(s: &mut Searcher, att: Color, k: usize, nodes: u64) -> Result<bool, Rejected> {
    let def = 1 - att;
    let mut fives = Vec::new();
    s.pos.five_points_near(def, k, &mut fives);
    match fives.as_slice() {
        [] => Ok(!vcf(s, att, nodes)?),
        [block] => {
            let block = *block;
            // A block the rule forbids, or one that makes a four of the
            // attacker's (the defender is then forced again): not judged.
            if s.pos.forbidden(att, block) || s.pos.is_four(att, block) {
                return Err(Rejected::Unproven);
            }
            s.pos.make_threat(block, att);
            let still = vcf(s, att, nodes);
            s.pos.unmake_threat(block, att);
            Ok(!still?)
        }
        // An open or double four: the defender would win, which the
        // search for its own fours has ruled out.
        _ => Err(Rejected::OwnWin),
    }
}

/// Does `att` win by fours (as if to move)? An exhausted search is
/// [`Rejected::Unproven`].
fn vcf(s: &mut Searcher, att: Color, nodes: u64) -> Result<bool, Rejected> {
    let won = s.vcf_root(att, MAX_FOURS + 1, nodes);
    if !won && s.vcf_aborted() {
        return Err(Rejected::Unproven);
    }
    Ok(won)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::find_vcf;

    const NODES: u64 = 200_000;

    /// From a Casual-against-Casual game (the study bench's seed 1000 on):
    /// Black to move; White threatens n6, m7, m6 (a four, then a four and
    /// an open four).
    const THREATENED: [&str; 13] = [
        "...............",
        "...............",
        "..x.....x......",
        "...o..o..o.....",
        "....ox.xoxo....",
        ".....o.xo.oo...",
        "....ooxo.xx....",
        "...xxoxxoxxo.x.",
        "........xoox...",
        ".....x.ooox....",
        ".......ox.x....",
        "......x........",
        ".....o.........",
    ];

    #[test]
    fn the_one_stone_that_stops_the_fours_is_the_answer() {
        let b = Board::from_diagram(15, &THREATENED).unwrap();
        let p = defence_puzzle(&b, Stone::Black, Rule::Freestyle, NODES).unwrap();
        assert_eq!(p.defence.to_string(), "m7");
        assert_eq!(p.threat.len(), 3);
        let (_, all) = defences(&b, Stone::Black, Rule::Freestyle, NODES, 20).unwrap();
        assert_eq!(all, vec![p.defence]);
        // After it White has no win by fours; after the threat's own first
        // point it still has one.
        let after = |m: &str| {
            let mut a = b.clone();
            a.place(Point::parse_on(m, 15).unwrap(), Stone::Black)
                .unwrap();
            find_vcf(&a, Stone::White, Rule::Freestyle, NODES)
        };
        assert!(after("m7").is_none());
        assert!(after("n6").is_some());
    }

    #[test]
    fn a_threat_with_many_defences_is_no_puzzle() {
        // Black threatens b3, d5, e3; any of a3, b3, e3, f3 and d5 stops it.
        let b = Board::from_diagram(
            15,
            &[
                "...............",
                "...............",
                "..xx......o....",
                "..xoo...ox.....",
                "....ox.xoxo....",
                "....xoxo.o.....",
                ".....xo.xo.....",
                ".....xoxo.x....",
                "...o.xoxxxo....",
                "....xoooox.....",
                ".....xxxoo.....",
                ".........x.....",
            ],
        )
        .unwrap();
        let (threat, all) = defences(&b, Stone::White, Rule::Freestyle, NODES, 20).unwrap();
        assert_eq!(threat.len(), 3);
        let names: Vec<String> = all.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["a3", "b3", "e3", "f3", "d5"]);
        assert!(matches!(
            defence_puzzle(&b, Stone::White, Rule::Freestyle, NODES),
            Err(Rejected::NotUnique(_))
        ));
    }

    #[test]
    fn no_threat_is_no_puzzle() {
        let b = Board::from_diagram(15, &["x.............o"]).unwrap();
        assert_eq!(
            defence_puzzle(&b, Stone::Black, Rule::Freestyle, NODES),
            Err(Rejected::NoVcf)
        );
    }
}
