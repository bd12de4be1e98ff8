//! VCT ([`Searcher::vct_root`]).
//!
//! Victory by continuous threats: the attacker plays fours and open threes;
//! after a three the defender may play any point of the threat (the
//! attacker's four and open-four points) or a counter-four of its own; the
//! attacker must win against all of them. When the defender has an open
//! three of its own, the attacker's threes must also block it (its fours
//! may come first). VCF is tried at every attacker node. Depth and nodes
//! are bounded; the defence set is a heuristic superset, so a VCT win is
//! very likely but not proven. Attacker nodes remember their wins and
//! their failures by Zobrist key (a win holds at any greater depth, a
//! failure at any smaller one).

use super::Searcher;
use crate::gomoku::pattern::FIVE;
use crate::gomoku::pos::{Color, EMPTY, class};

impl Searcher {
    /// Does `att` (to move) win by continuous threats (fours and open
    /// threes) within `depth` threats and `max_nodes` nodes? Returns the
    /// first move.
    pub fn vct_root(&mut self, att: Color, depth: i32, max_nodes: u64) -> Option<usize> {
        let limit = self.nodes.saturating_add(max_nodes);
        self.sub_limit = limit;
        self.sub_aborted = false;
        let mut first = None;
        for d in 1..=depth {
            if let Some(m) = self.vct_att(att, d, limit, true) {
                first = Some(m);
                break;
            }
            if self.sub_aborted {
                break;
            }
        }
        self.sub_limit = u64::MAX;
        first
    }

    /// Does `att` still win by continuous threats after playing the threat
    /// `m` (a four or a three), within `depth` more threats and
    /// `max_nodes` nodes? `None` when the search ran out of nodes first.
    /// A `Some(false)` is bounded by the depth and by the dozen best
    /// threats tried at each attacker node.
    pub fn vct_after(&mut self, att: Color, m: usize, depth: i32, max_nodes: u64) -> Option<bool> {
        let limit = self.nodes.saturating_add(max_nodes);
        self.sub_limit = limit;
        self.sub_aborted = false;
        self.pos.make_threat(m, att);
        let won = self.vct_def(att, depth, limit);
        self.pos.unmake_threat(m, att);
        self.sub_limit = u64::MAX;
        if won {
            Some(true)
        } else if self.sub_aborted {
            None
        } else {
            Some(false)
        }
    }

    /// The points where `att` makes a four or a three (the first moves a
    /// VCT tries), renju-forbidden points left out.
    pub fn threat_points(&mut self, att: Color) -> Vec<usize> {
        let mut out = Vec::new();
        for k in 0..self.cells.len() {
            let i = self.cells[k];
            if self.pos.cells[i] != EMPTY {
                continue;
            }
            let c = self.pos.class(att, i);
            if c >= class::F3 && c != class::FIVE && !self.pos.forbidden(att, i) {
                out.push(i);
            }
        }
        out
    }

    /// Attacker node; returns the winning move (`usize::MAX` below the
    /// root when the win comes from the table).
    fn vct_att(&mut self, att: Color, depth: i32, limit: u64, root: bool) -> Option<usize> {
        if self.nodes >= limit || self.out_of_budget() {
            self.sub_aborted = true;
            return None;
        }
        self.nodes += 1;
        let key = self.pos.hash ^ self.side_key[att] ^ 0x55AA;
        let slot = (key >> (64 - self.vcf_bits)) as usize;
        let (k, d) = self.vct_tt[slot];
        // A win stored for this position, found at most this deep, stands
        // (except at the root, which needs the move).
        if !root && k == key && d < 0 && -1 - i32::from(d) <= depth {
            return Some(usize::MAX);
        }
        // VCF first, with a small share of the budget.
        let saved = self.sub_limit;
        self.sub_limit = limit.min(self.nodes + if root { 20_000 } else { 2_000 });
        self.vcf_line.clear();
        let aborted = self.sub_aborted;
        if self.vcf(att, 20) {
            self.sub_limit = saved;
            self.vcf_line.reverse();
            self.vct_tt[slot] = (key, -1);
            return self.vcf_line.first().copied();
        }
        self.sub_aborted = aborted;
        self.sub_limit = saved;
        if depth <= 0 {
            return None;
        }
        let def = 1 - att;
        if k == key && i32::from(d) >= depth {
            return None;
        }
        let mut buf = Vec::new();
        if self.pos.count[def][usize::from(FIVE)] > 0 {
            self.pos.five_points(def, &mut buf);
            if buf.len() != 1 || self.pos.forbidden(att, buf[0]) {
                return None;
            }
            let b = buf[0];
            self.pos.make_threat(b, att);
            let r = self.vct_def(att, depth, limit);
            self.pos.unmake_threat(b, att);
            return r.then_some(b);
        }
        let mut cands: Vec<(usize, i32)> = Vec::new();
        let mut def_open_fours = Vec::new();
        for k in 0..self.cells.len() {
            let i = self.cells[k];
            if self.pos.cells[i] != EMPTY || self.pos.near[i] == 0 {
                continue;
            }
            let co = self.pos.class(def, i);
            if co == class::F4 && !self.pos.forbidden(def, i) {
                def_open_fours.push(i);
            }
            let c = self.pos.class(att, i);
            if c >= class::F3 && c != class::FIVE && !self.pos.forbidden(att, i) {
                cands.push((i, self.attack_score(att, i)));
            }
        }
        if !def_open_fours.is_empty() {
            // The defender makes an open four next: a three is too slow
            // unless it also takes away every such point (a four comes
            // first, so fours stay).
            cands.retain(|&(m, _)| {
                if self.pos.class(att, m) >= class::B4 {
                    return true;
                }
                self.pos.make_threat(m, att);
                let blocks = def_open_fours
                    .iter()
                    .all(|&p| self.pos.class(def, p) < class::F4);
                self.pos.unmake_threat(m, att);
                blocks
            });
        }
        cands.sort_by_key(|m| std::cmp::Reverse(m.1));
        cands.truncate(12);
        let aborted_before = self.sub_aborted;
        self.sub_aborted = false;
        let mut found = None;
        for (m, _) in cands {
            self.pos.make_threat(m, att);
            let r = self.vct_def(att, depth - 1, limit);
            self.pos.unmake_threat(m, att);
            if r {
                found = Some(m);
                break;
            }
            if self.sub_aborted {
                break;
            }
        }
        if found.is_some() {
            self.vct_tt[slot] = (key, -1 - depth.min(126) as i8);
        } else if !self.sub_aborted {
            self.vct_tt[slot] = (key, depth.min(127) as i8);
        }
        self.sub_aborted |= aborted_before;
        found
    }

    /// Defender node: does the attacker still win against every defence?
    /// The defences most likely to hold are tried first, so a line that
    /// does not win is refuted early: the attacker's open-four points (they
    /// stop the open three itself), then its other four points, then the
    /// defender's counter-fours; within each, the points best for the
    /// defender's own lines first.
    fn vct_def(&mut self, att: Color, depth: i32, limit: u64) -> bool {
        if self.nodes >= limit || self.out_of_budget() {
            self.sub_aborted = true;
            return false;
        }
        self.nodes += 1;
        let def = 1 - att;
        if self.pos.count[def][usize::from(FIVE)] > 0 {
            return false;
        }
        let mut buf = Vec::new();
        if self.pos.count[att][usize::from(FIVE)] > 0 {
            self.pos.five_points(att, &mut buf);
            if buf.len() >= 2 {
                return true;
            }
            let f = buf[0];
            if self.pos.forbidden(def, f) {
                return true;
            }
            self.pos.make_threat(f, def);
            let r = self.vct_att(att, depth, limit, false).is_some();
            self.pos.unmake_threat(f, def);
            return r;
        }
        let mut defences = Vec::new();
        let mut threatened = false;
        for k in 0..self.cells.len() {
            let i = self.cells[k];
            if self.pos.cells[i] != EMPTY || self.pos.near[i] == 0 {
                continue;
            }
            let ca = self.pos.class(att, i);
            if ca == class::F4 && !self.pos.forbidden(att, i) {
                threatened = true;
            }
            let att_four = ca >= class::B4 || self.pos.is_four(att, i);
            if (att_four || self.pos.is_four(def, i)) && !self.pos.forbidden(def, i) {
                let rank = match (ca == class::F4, att_four) {
                    (true, _) => 0,
                    (false, true) => 1,
                    (false, false) => 2,
                };
                defences.push((rank, -self.attack_score(def, i), i));
            }
        }
        if !threatened {
            return false;
        }
        defences.sort_unstable();
        for (_, _, d) in defences {
            self.pos.make_threat(d, def);
            let r = self.vct_att(att, depth, limit, false).is_some();
            self.pos.unmake_threat(d, def);
            if !r {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use tabula_shared::gomoku::{Board, Point, Rule, Stone};

    use super::super::{Searcher, Settings};
    use crate::gomoku::pos::{Pos, color_of};
    use crate::gomoku::tactics::{Task, tactics};

    /// Black threatens an open four (its open three f8-g8-h8); White's
    /// only win is the double three at i8, which also closes that three.
    #[test]
    fn a_three_that_blocks_the_defenders_open_three_is_tried() {
        let position = |white: &[&str]| {
            let mut board = Board::new(15).unwrap();
            for m in ["f8", "g8", "h8", "b2"] {
                board
                    .place(Point::parse_on(m, 15).unwrap(), Stone::Black)
                    .unwrap();
            }
            for m in white {
                board
                    .place(Point::parse_on(m, 15).unwrap(), Stone::White)
                    .unwrap();
            }
            let mut s = Searcher::new(
                Pos::from_board(&board, Rule::Freestyle),
                Settings::EXPERT,
                0,
            );
            let found = s.vct_root(color_of(Stone::White), 6, 100_000);
            found.map(|i| s.pos.point(i).to_string())
        };
        assert_eq!(position(&["i9", "i10", "j9", "k10"]).as_deref(), Some("i8"));
        // Without the column's two stones i8 is a single three: no win.
        assert_eq!(position(&["n2", "n14", "j9", "k10"]), None);
    }

    /// The table of wins and failures changes no answer: on the tactics
    /// suite (each win for the side to move, each defence's threat for the
    /// opponent), searching again with the table the first search left
    /// finds the same first move, and the wins are found.
    #[test]
    fn a_second_search_with_the_table_finds_the_same_wins() {
        let mut wins = 0;
        for t in tactics() {
            let attacker = match t.task {
                Task::Win => t.to_move,
                Task::Defend => t.to_move.opponent(),
            };
            let mut s = Searcher::new(
                Pos::from_board(&t.board, Rule::Freestyle),
                Settings::EXPERT,
                0,
            );
            let att = color_of(attacker);
            let first = s.vct_root(att, 6, 100_000);
            let second = s.vct_root(att, 6, 100_000);
            assert_eq!(first, second, "{}", t.name);
            wins += usize::from(first.is_some());
        }
        assert!(wins >= 20, "{wins} wins found");
    }
}
