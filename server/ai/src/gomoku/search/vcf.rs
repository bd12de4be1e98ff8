//! VCF ([`Searcher::vcf_root`]).
//!
//! Victory by continuous fours: the attacker only plays fours; the
//! defender's reply is forced (the five-point), so the tree is narrow. The
//! attacker wins on a five, an open/double four, or when the defender's
//! forced block is a renju-forbidden point for black. A defender four on
//! the way must be answered by a block that is itself a four. Failures are
//! cached by Zobrist hash and remaining depth.

use super::Searcher;
use crate::gomoku::pattern::FIVE;
use crate::gomoku::pos::{Color, EMPTY, class};

impl Searcher {
    /// Does `att` (to move) win by continuous fours within `depth` attacker
    /// moves and `max_nodes` nodes? On success `vcf_line` holds the line.
    pub fn vcf_root(&mut self, att: Color, depth: i32, max_nodes: u64) -> bool {
        self.sub_limit = self.nodes.saturating_add(max_nodes);
        self.sub_aborted = false;
        self.vcf_line.clear();
        let r = self.vcf(att, depth);
        if r {
            self.vcf_line.reverse();
        }
        self.sub_limit = u64::MAX;
        r
    }

    /// Did the last [`Searcher::vcf_root`] run out of nodes (so a failure
    /// is not a proof)?
    pub fn vcf_aborted(&self) -> bool {
        self.sub_aborted
    }

    /// Attacker node of the VCF: does `att` (to move) win within `depth`
    /// more fours? On success the line is pushed in reverse onto `vcf_line`.
    pub(super) fn vcf(&mut self, att: Color, depth: i32) -> bool {
        if self.sub_out() {
            return false;
        }
        self.nodes += 1;
        let def = 1 - att;
        let mut buf = Vec::new();
        if self.pos.count[att][usize::from(FIVE)] > 0 {
            self.pos.five_points(att, &mut buf);
            if let Some(&i) = buf.first() {
                self.vcf_line.push(i);
                return true;
            }
        }
        let fours = self.pos.fours_to_make(att);
        if fours == 0 {
            return false;
        }
        // A failure stored for this position (at least as deep) stands: it
        // was stored after the same scan found no open or double four.
        let key = self.pos.hash ^ self.side_key[att];
        let slot = (key >> (64 - self.vcf_bits)) as usize;
        let (k, d) = self.vcf_tt[slot];
        if depth > 0 && k == key && i32::from(d) >= depth {
            return false;
        }
        let mut cands: Vec<(usize, i32)> = Vec::new();
        if self.pos.count[def][usize::from(FIVE)] > 0 {
            self.pos.five_points(def, &mut buf);
            if buf.len() != 1 {
                return false;
            }
            let b = buf[0];
            if !self.pos.is_four(att, b) || self.pos.forbidden(att, b) {
                return false;
            }
            if self.pos.class(att, b) == class::F4 {
                self.vcf_line.push(b);
                return true;
            }
            cands.push((b, 0));
        } else {
            // The scan stops once it has met every four direction counted.
            let mut unseen = fours;
            for k in 0..self.cells.len() {
                if unseen == 0 {
                    break;
                }
                let i = self.cells[k];
                if self.pos.cells[i] != EMPTY {
                    continue;
                }
                let n = self.pos.fours_at(att, i);
                if n == 0 {
                    continue;
                }
                unseen -= n;
                if self.pos.forbidden(att, i) {
                    continue;
                }
                let c = self.pos.class(att, i);
                if c == class::F4 {
                    self.vcf_line.push(i);
                    return true;
                }
                cands.push((i, self.attack_score(att, i)));
            }
        }
        if depth <= 0 || cands.is_empty() {
            return false;
        }
        cands.sort_by_key(|m| std::cmp::Reverse(m.1));
        let aborted_before = self.sub_aborted;
        self.sub_aborted = false;
        let mut fives = Vec::new();
        for (m, _) in cands {
            self.pos.make_threat(m, att);
            self.pos.five_points_near(att, m, &mut fives);
            let won = match fives.len() {
                0 => None,
                1 => {
                    let f = fives[0];
                    if self.pos.forbidden(def, f) {
                        Some(true)
                    } else if self.pos.pat[def][f].contains(&FIVE) {
                        None
                    } else {
                        self.pos.make_threat(f, def);
                        let r = self.vcf(att, depth - 1);
                        self.pos.unmake_threat(f, def);
                        if r {
                            self.vcf_line.push(f);
                        }
                        Some(r)
                    }
                }
                _ => Some(true),
            };
            self.pos.unmake_threat(m, att);
            if won == Some(true) {
                self.vcf_line.push(m);
                self.sub_aborted |= aborted_before;
                return true;
            }
            if self.sub_aborted {
                break;
            }
        }
        if !self.sub_aborted {
            self.vcf_tt[slot] = (key, depth.min(127) as i8);
        }
        self.sub_aborted |= aborted_before;
        false
    }
}
