//! Move generation and ordering ([`Searcher::generate`]).
//!
//! Every node first reads the threat classes of the candidate cells (empty
//! cells with a stone in the surrounding 5x5 square):
//! 1. we can make five: win;
//! 2. the opponent can make five: the only move is to block it (two
//!    five-points, or a renju-forbidden block point for black: lost);
//! 3. we can make an open four / double four (legal): win in three plies;
//! 4. the opponent can make an open four next move (it has an open three):
//!    only our own fours and the points of its threat (its open-four and
//!    four points) are tried;
//! 5. otherwise every candidate, ordered by its attack and defence values
//!    ([`crate::gomoku::ordering`]).

use super::Searcher;
use crate::gomoku::ordering;
use crate::gomoku::pattern::FIVE;
use crate::gomoku::pos::{Color, EMPTY, class};

/// Node type result of move generation.
pub(crate) enum Node {
    /// Make five here.
    Win(usize),
    /// The opponent makes five whatever we do.
    Lost,
    /// The only move (block the opponent's five).
    Forced(usize),
    /// An open four or double four here: win in three plies.
    WinSoon(usize),
    /// Moves to try, ordered best first (`true` when defending a threat).
    Moves(Vec<(usize, i32)>, bool),
}

impl Searcher {
    /// How good `i` is for `c` to play, by the hand-set ordering (the
    /// threat searches' order, whatever the level).
    pub(super) fn attack_score(&self, c: Color, i: usize) -> i32 {
        ordering::hand_set()[0][usize::from(self.pos.code(c, i))]
    }

    /// Reads the node (see the module docs).
    pub fn generate(&mut self, me: Color) -> Node {
        let opp = 1 - me;
        let mut buf = Vec::new();
        if self.pos.count[me][usize::from(FIVE)] > 0 {
            self.pos.five_points(me, &mut buf);
            if let Some(&i) = buf.first() {
                return Node::Win(i);
            }
        }
        if self.pos.count[opp][usize::from(FIVE)] > 0 {
            self.pos.five_points(opp, &mut buf);
            if buf.len() >= 2 {
                return Node::Lost;
            }
            if let Some(&b) = buf.first() {
                if self.pos.forbidden(me, b) {
                    return Node::Lost;
                }
                return Node::Forced(b);
            }
        }
        let mut all: Vec<(usize, i32)> = Vec::with_capacity(64);
        let mut threat = Vec::new();
        let mut my_fours = Vec::new();
        for k in 0..self.cells.len() {
            let i = self.cells[k];
            if self.pos.cells[i] != EMPTY || self.pos.near[i] == 0 {
                continue;
            }
            let cm = self.pos.class(me, i);
            let mut co = self.pos.class(opp, i);
            if cm >= class::F3 && self.pos.forbidden(me, i) {
                continue;
            }
            if cm == class::F4 {
                return Node::WinSoon(i);
            }
            if co >= class::F3F3 && self.pos.forbidden(opp, i) {
                co = class::NONE;
            }
            let score = self.order[0][usize::from(self.pos.code(me, i))]
                + self.order[1][usize::from(self.pos.code(opp, i))];
            if co == class::F4 {
                threat.push(i);
            }
            if cm >= class::B4 {
                my_fours.push(i);
            }
            all.push((i, score));
        }
        if !threat.is_empty() {
            let moves: Vec<(usize, i32)> = all
                .into_iter()
                .filter(|&(i, _)| {
                    my_fours.contains(&i) || threat.contains(&i) || self.pos.is_four(opp, i)
                })
                .collect();
            let mut moves = moves;
            moves.sort_by_key(|m| std::cmp::Reverse(m.1));
            return Node::Moves(moves, true);
        }
        all.sort_by_key(|m| std::cmp::Reverse(m.1));
        Node::Moves(all, false)
    }
}
