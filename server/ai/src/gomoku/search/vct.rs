//! VCT ([`Searcher::vct_root`]).
//!
//! Victory by continuous threats: the attacker plays fours and open threes;
//! after a three the defender may play any point of the threat (the
//! attacker's four and open-four points) or a counter-four of its own; the
//! attacker must win against all of them. VCF is tried at every attacker
//! node. Depth and nodes are bounded; the defence set is a heuristic
//! superset, so a VCT win is very likely but not proven.

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

    /// Attacker node; returns the winning move.
    fn vct_att(&mut self, att: Color, depth: i32, limit: u64, root: bool) -> Option<usize> {
        if self.nodes >= limit || self.out_of_budget() {
            self.sub_aborted = true;
            return None;
        }
        self.nodes += 1;
        // VCF first, with a small share of the budget.
        let saved = self.sub_limit;
        self.sub_limit = limit.min(self.nodes + if root { 20_000 } else { 2_000 });
        self.vcf_line.clear();
        let aborted = self.sub_aborted;
        if self.vcf(att, 20) {
            self.sub_limit = saved;
            self.vcf_line.reverse();
            return self.vcf_line.first().copied();
        }
        self.sub_aborted = aborted;
        self.sub_limit = saved;
        if depth <= 0 {
            return None;
        }
        let def = 1 - att;
        let key = self.pos.hash ^ self.side_key[att] ^ 0x55AA;
        let slot = (key >> (64 - self.vcf_bits)) as usize;
        let (k, d) = self.vct_tt[slot];
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
        for k in 0..self.cells.len() {
            let i = self.cells[k];
            if self.pos.cells[i] != EMPTY || self.pos.near[i] == 0 {
                continue;
            }
            let co = self.pos.class(def, i);
            if co == class::F4 && !self.pos.forbidden(def, i) {
                // The defender makes an open four next: threes are too slow.
                return None;
            }
            let c = self.pos.class(att, i);
            if c >= class::F3 && c != class::FIVE && !self.pos.forbidden(att, i) {
                cands.push((i, self.attack_score(att, i)));
            }
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
        if found.is_none() && !self.sub_aborted {
            self.vct_tt[slot] = (key, depth.min(127) as i8);
        }
        self.sub_aborted |= aborted_before;
        found
    }

    /// Defender node: does the attacker still win against every defence?
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
            if (ca >= class::B4 || self.pos.is_four(att, i) || self.pos.is_four(def, i))
                && !self.pos.forbidden(def, i)
            {
                defences.push(i);
            }
        }
        if !threatened {
            return false;
        }
        for d in defences {
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
