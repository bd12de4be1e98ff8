//! Hints: the Expert's three best stones for the side to play, each with
//! its outlook.
//!
//! The Expert's own choice comes first among the candidates; the others are
//! the best-ordered points of its move generator. Each candidate is placed
//! and the opponent's reply searched; a candidate's value is the mover's
//! outlook after it.

use tabula_shared::gomoku::{Board, Gomoku, Phase, Point, Rule, Stone, five_at};

use super::pos::{Pos, color_of};
use super::review::outlook;
use super::search::{Node, Searcher, Settings};
use super::{Limits, expert_search, legal, search_with};

/// Candidates searched.
const CANDIDATES: usize = 6;

/// Depth of the search of the opponent's reply to each candidate: the same
/// for all, since the pattern score of a search swings by a few hundred
/// between odd and even depths (whose move the leaves follow). Odd: the
/// leaves follow the candidate's side's move, as the candidate itself did.
const REPLY_DEPTH: i32 = 5;

/// Up to three stones for the side to play in `game`, best first, each with
/// the mover's outlook (−1 to +1) after it; empty outside the main phase.
/// `nodes` bounds each search.
pub fn hints(game: &Gomoku, nodes: u64) -> Vec<(Point, f32)> {
    if game.phase() != Phase::Main || game.outcome().is_some() || game.to_act().is_none() {
        return Vec::new();
    }
    hints_on(
        game.board(),
        game.stone_to_play(),
        game.config().rule,
        nodes,
    )
}

/// Up to three stones for `me` on `board` under `rule`, best first, each
/// with `me`'s outlook (−1 to +1) after it; `nodes` bounds each search.
pub fn hints_on(board: &Board, me: Stone, rule: Rule, nodes: u64) -> Vec<(Point, f32)> {
    if board.is_full() {
        return Vec::new();
    }
    let mut candidates: Vec<Point> = expert_search(board, me, rule, Limits::nodes(nodes), 0)
        .best
        .into_iter()
        .collect();
    let mut searcher = Searcher::new(Pos::from_board(board, rule), Settings::EXPERT, 0);
    let ordered: Vec<usize> = match searcher.generate(color_of(me)) {
        Node::Moves(moves, _) => moves.into_iter().map(|(i, _)| i).collect(),
        Node::Win(i) | Node::Forced(i) | Node::WinSoon(i) => vec![i],
        Node::Lost => Vec::new(),
    };
    for i in ordered {
        if candidates.len() >= CANDIDATES {
            break;
        }
        let p = searcher.pos.point(i);
        if !candidates.contains(&p) && legal(board, p, me, rule) {
            candidates.push(p);
        }
    }
    // An empty board (or nearly) has few generated candidates: the points
    // nearest the centre make up three.
    if candidates.len() < 3 {
        let c = i32::from(board.size()) / 2;
        let mut near: Vec<Point> = board
            .points()
            .filter(|&p| !candidates.contains(&p) && legal(board, p, me, rule))
            .collect();
        near.sort_by_key(|p| {
            let (dx, dy) = (i32::from(p.x) - c, i32::from(p.y) - c);
            (dx.abs().max(dy.abs()), dx.abs() + dy.abs(), p.y, p.x)
        });
        candidates.extend(near.into_iter().take(3 - candidates.len()));
    }
    let mut valued: Vec<(Point, f32)> = candidates
        .into_iter()
        .filter_map(|p| {
            if !legal(board, p, me, rule) {
                return None;
            }
            let mut next = board.clone();
            next.place(p, me).ok()?;
            let outcome = if five_at(&next, p, me, rule).is_some() {
                Some(1.0)
            } else if next.is_full() {
                Some(0.0)
            } else {
                None
            };
            let value = match outcome {
                Some(value) => value,
                None => {
                    let reply = search_with(
                        &next,
                        me.opponent(),
                        rule,
                        Limits::nodes(nodes / 2),
                        0,
                        Settings {
                            max_depth: REPLY_DEPTH,
                            ..Settings::EXPERT
                        },
                    );
                    let black = outlook(reply.score, me.opponent());
                    if me == Stone::Black { black } else { -black }
                }
            };
            Some((p, value))
        })
        .collect();
    // Stable: on equal values the Expert's own choice stays first.
    valued.sort_by(|a, b| b.1.total_cmp(&a.1));
    valued.truncate(3);
    valued
}
