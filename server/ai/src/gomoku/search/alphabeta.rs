//! The main search ([`Searcher::think`]) and the safety check of its
//! choice.
//!
//! # Main search
//! Before searching, the root tries VCF, then VCT, for the side to move.
//! Then iterative-deepening principal-variation search (negamax
//! alpha-beta with null windows) with a Zobrist transposition table,
//! killer moves and a history table, forced moves searched without using
//! depth, a short threat quiescence (up to two more plies of defences when
//! the side to move faces an open three at the horizon), and at the leaves
//! a small VCF for the side to move before the static evaluation of the
//! level's settings ([`crate::gomoku::eval`]); the Expert skips that VCF
//! at a leaf whose static value already reaches beta.
//!
//! # Late moves (Expert)
//! A quiet move (no three or four for either side at its point) after the
//! first three of a node that is not answering a threat is searched
//! shallower first: `ln(depth + 1) · ln(k + 1) / 1.2` plies (k counts from
//! zero), at least one, leaving at least one; it is searched again at full
//! depth only if it beats alpha. Within three plies of the leaves, such a
//! move is not searched at all after the first `3 + 2 · depth` moves
//! once a move that does not lose is known. The measurements, and the
//! variants not kept, are in `docs/history/AI-log.md`.
//!
//! # Static cutoff (Expert)
//! One to three plies from the horizon, a null-window node where the
//! side to move has nothing to answer returns its static value when that
//! value, less 40 units (a fifth of a logit) for each ply left,
//! still reaches beta: the chess engines' reverse futility pruning
//! ([`super::Settings::static_cutoff_margin`]).
//!
//! # The horizon
//! A node at the horizon reads its verdict from the pattern counts (a
//! five or an open four to make, a five or an open three to answer)
//! instead of generating its moves, unless it needs them: a five to
//! block, or a threat to answer in the quiescence. Renju nodes, where
//! forbidden points change what the counts mean, always generate.
//!
//! Iterations start while the previous one's time still fits before the
//! deadline; an unfinished iteration counts a root move that beat the
//! best so far. From the fifth iteration the root searches in an
//! aspiration window, a quarter of a logit either side of the last
//! score: a move that fails high is moved first and the root searched
//! again with no upper bound; when every move fails low, again with no
//! lower bound.
//!
//! # Safety check ([`Searcher::safety_check`], Expert)
//! Threat search inside the main search, at ply one: the move the
//! alpha-beta search chose is played only if the opponent then has no VCF
//! and no VCT (depth 6); otherwise the next root moves are checked the
//! same way. It catches the slow threat sequences (an open three leading
//! to a VCF) that the main search's depth misses. Its budget is the
//! level's [`super::SafetyCheck`]: the Expert's searches are large (30,000
//! VCF and 400,000 VCT nodes a move, six moves), the first Expert's small
//! (3,000 and 10,000, four moves, at most 40 ms).
//!
//! The Expert also checks during the search: from the third iteration,
//! each iteration's choice not checked before (each check within 15% of
//! the time). A move that loses leaves the root and the depth is searched
//! again, so the search goes on to choose among the moves that do not
//! lose; the final check, with the last 5% of the time, mostly finds its
//! move already checked.
//!
//! # Inner VCF (Expert)
//! An inner node where the side to move has a four to make first tries a
//! small VCF ([`super::Settings::inner_vcf`] nodes): a win found there
//! needs no move generation and no deeper search.

use std::time::{Duration, Instant};

use super::table::{
    EXACT, LOWER, NO_MOVE, TT_BITS_LARGE, TT_BITS_SMALL, TtEntry, UPPER, VCF_TT_BITS,
    VCF_TT_BITS_LARGE, bits_within,
};
use super::{Budget, Node, Searcher, Thought, VCF_WIN, WIN, WIN_THRESHOLD};
use crate::gomoku::eval::combo;
use crate::gomoku::pattern::FIVE;
use crate::gomoku::pos::{Color, class};
use tabula_shared::gomoku::Rule;

/// Moves searched at full depth before late-move reductions start.
const LMR_AFTER: usize = 3;
/// The first iteration searched in an aspiration window.
const ASPIRATION_FROM: i32 = 5;
/// The aspiration window's half-width (a quarter of a logit).
const ASPIRATION: i32 = 50;
/// Deepest remaining depth at which late quiet moves are pruned.
const PRUNE_DEPTH: i32 = 3;
/// Deepest remaining depth of the static cutoff
/// ([`super::Settings::static_cutoff_margin`]).
const STATIC_CUTOFF_DEPTH: i32 = 3;

/// What one pass over the root moves found ([`Searcher::root_pass`]).
struct RootPass {
    /// The best move that beat the window's lower bound, and its score.
    best: Option<(usize, i32)>,
    /// A move reached the window's upper bound.
    failed_high: bool,
}

/// Plies a late quiet move (the `k`-th, from zero) is searched shallower
/// first when its full depth is `child_depth`: at least one, and leaving
/// at least one.
fn late_move_reduction(child_depth: i32, k: usize) -> i32 {
    let r = (f64::from(child_depth + 1).ln() * ((k + 1) as f64).ln() / 1.2) as i32;
    r.clamp(1, child_depth - 1)
}

/// Quiet moves searched, near the leaves (`depth` at most
/// [`PRUNE_DEPTH`]), before the rest are pruned.
fn late_move_count(depth: i32) -> usize {
    3 + 2 * depth.max(0) as usize
}

impl Searcher {
    /// Principal-variation search of `me` to move at `ply`, `depth` plies
    /// left, in the window `(alpha, beta)`.
    fn pvs(&mut self, depth: i32, mut alpha: i32, beta: i32, ply: i32, me: Color) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        self.nodes += 1;
        let opp = 1 - me;
        let key = self.pos.hash ^ self.side_key[me];
        let mut tt_move = NO_MOVE;
        if let Some(e) = self.tt_probe(key) {
            tt_move = e.best;
            if i32::from(e.depth) >= depth {
                let s = Self::from_tt(e.score, ply);
                match e.flag {
                    EXACT => return s,
                    LOWER if s >= beta => return s,
                    UPPER if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        if depth <= 0
            && let Some(s) = self.leaf_without_moves(me, depth, ply, beta)
        {
            return s;
        }
        if let Some(value) = self.static_cutoff(me, depth, alpha, beta) {
            return value;
        }
        if depth >= 1
            && self.settings.inner_vcf > 0
            && self.pos.fours_to_make(me) > 0
            && self.short_vcf(me, self.settings.inner_vcf)
        {
            return VCF_WIN - ply;
        }
        let mut defending_node = true;
        let (mut moves, child_depth) = match self.generate(me) {
            Node::Win(_) => return WIN - ply,
            Node::Lost => return -(WIN - ply - 1),
            Node::WinSoon(_) => return WIN - ply - 2,
            Node::Forced(b) => (vec![(b, 0)], depth),
            Node::Moves(ms, defending) => {
                defending_node = defending;
                // Threat quiescence (Expert): under an open three, keep
                // searching the defences a few plies past the horizon.
                if depth <= 0 && defending && self.settings.leaf_vcf && depth > -2 {
                    (ms, depth - 1)
                } else if depth <= 0 {
                    return self.horizon_value(me, defending, ply, beta);
                } else {
                    (ms, depth - 1)
                }
            }
        };
        if moves.is_empty() {
            // No candidate (empty or full board): static value.
            return self.pos.eval(me, self.settings.eval);
        }
        let ply_u = (ply as usize).min(self.killers.len() - 1);
        let killers = self.killers[ply_u];
        for mv in moves.iter_mut() {
            let m = mv.0 as u32;
            if m == tt_move {
                mv.1 += 1 << 28;
            } else if m == killers[0] {
                mv.1 += 1 << 20;
            } else if m == killers[1] {
                mv.1 += 1 << 19;
            }
            mv.1 += self.history[me][mv.0].min(1 << 18);
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        moves.truncate(self.settings.width);
        let orig_alpha = alpha;
        let mut best = -WIN;
        let mut best_move = NO_MOVE;
        for (k, &(m, _)) in moves.iter().enumerate() {
            // Late quiet moves: pruned near the leaves, otherwise searched
            // shallower first (see the module docs).
            let late_quiet = self.settings.late_moves
                && k >= LMR_AFTER
                && !defending_node
                && self.pos.class(me, m) < class::F3
                && self.pos.class(opp, m) < class::F3;
            if late_quiet
                && depth <= PRUNE_DEPTH
                && k >= late_move_count(depth)
                && best > -WIN_THRESHOLD
            {
                continue;
            }
            let reduction = if late_quiet && child_depth >= 2 {
                late_move_reduction(child_depth, k)
            } else {
                0
            };
            self.pos.make(m, me);
            let mut s;
            if k == 0 {
                s = -self.pvs(child_depth, -beta, -alpha, ply + 1, opp);
            } else {
                s = -self.pvs(child_depth - reduction, -alpha - 1, -alpha, ply + 1, opp);
                if reduction > 0 && s > alpha && !self.stopped {
                    s = -self.pvs(child_depth, -alpha - 1, -alpha, ply + 1, opp);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.pvs(child_depth, -beta, -alpha, ply + 1, opp);
                }
            }
            self.pos.unmake(m, me);
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                best_move = m as u32;
            }
            if s > alpha {
                alpha = s;
            }
            if alpha >= beta {
                if killers[0] != m as u32 {
                    self.killers[ply_u] = [m as u32, killers[0]];
                }
                self.history[me][m] += depth.max(1) * depth.max(1);
                break;
            }
        }
        let flag = if best <= orig_alpha {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.tt_store(TtEntry {
            key,
            score: Self::to_tt(best, ply),
            best: best_move,
            depth: depth.clamp(-1, 127) as i8,
            flag,
            age: self.tt_age,
        });
        best
    }

    /// The static cutoff ([`super::Settings::static_cutoff_margin`]): the
    /// static value of a null-window node within [`STATIC_CUTOFF_DEPTH`]
    /// plies of the horizon, when it reaches beta by the margin for each
    /// ply left. Only where the side to move has nothing to answer
    /// (neither side has a five to make, the opponent no open four), so
    /// that the value does not hide a threat; not under renju, where
    /// forbidden points change what the counts say.
    fn static_cutoff(&self, me: Color, depth: i32, alpha: i32, beta: i32) -> Option<i32> {
        let margin = self.settings.static_cutoff_margin;
        let opp = 1 - me;
        let pos = &self.pos;
        let applies = margin > 0
            && (1..=STATIC_CUTOFF_DEPTH).contains(&depth)
            && beta - alpha == 1
            && beta.abs() < WIN_THRESHOLD
            && pos.rule != Rule::Renju
            && pos.count[me][usize::from(FIVE)] == 0
            && pos.count[opp][usize::from(FIVE)] == 0
            && pos.combo_count[opp][usize::from(combo::FOUR_FOUR)] == 0;
        if !applies {
            return None;
        }
        let value = pos.eval(me, self.settings.eval);
        (value - margin * depth >= beta).then_some(value)
    }

    /// The value of a horizon node that needs no move list: what
    /// [`Searcher::generate`] would decide there, read from the pattern
    /// counts instead of a scan of the board. `None` when the node needs
    /// the moves (a five to block, or the threat quiescence), or under
    /// renju, where forbidden points change what the counts say.
    fn leaf_without_moves(&mut self, me: Color, depth: i32, ply: i32, beta: i32) -> Option<i32> {
        let opp = 1 - me;
        let pos = &self.pos;
        if pos.rule == Rule::Renju {
            return None;
        }
        if pos.count[me][usize::from(FIVE)] > 0 {
            return Some(WIN - ply);
        }
        if pos.count[opp][usize::from(FIVE)] > 0 {
            return None;
        }
        if pos.combo_count[me][usize::from(combo::FOUR_FOUR)] > 0 {
            return Some(WIN - ply - 2);
        }
        let defending = pos.combo_count[opp][usize::from(combo::FOUR_FOUR)] > 0;
        if defending && self.settings.leaf_vcf && depth > -2 {
            return None;
        }
        Some(self.horizon_value(me, defending, ply, beta))
    }

    /// The value of a horizon node that is not searched further: a win if
    /// the side to move has a short VCF there (with
    /// [`super::Settings::leaf_vcf`], when it is not defending), otherwise
    /// the static evaluation. With [`super::Settings::leaf_cutoff`] a
    /// static value of `beta` or more is returned without the VCF: a win
    /// would only cut off the same way. The Expert so searches about a
    /// third of a ply deeper (docs/AI.md).
    fn horizon_value(&mut self, me: Color, defending: bool, ply: i32, beta: i32) -> i32 {
        // Without the cutoff, a win found by the VCF needs no evaluation.
        let read_first = self
            .settings
            .leaf_cutoff
            .then(|| self.pos.eval(me, self.settings.eval));
        if let Some(value) = read_first
            && value >= beta
        {
            return value;
        }
        if self.settings.leaf_vcf && !defending && self.short_vcf(me, self.settings.leaf_vcf_nodes)
        {
            return VCF_WIN - ply;
        }
        read_first.unwrap_or_else(|| self.pos.eval(me, self.settings.eval))
    }

    /// Does `me` (to move) win by a VCF of at most 12 fours within
    /// `nodes`? A search inside the main search: the threat searches'
    /// own limit is left as it was.
    fn short_vcf(&mut self, me: Color, nodes: u64) -> bool {
        let saved = (self.sub_limit, self.sub_aborted);
        self.sub_limit = self.nodes + nodes;
        self.vcf_line.clear();
        let won = self.vcf(me, 12);
        (self.sub_limit, self.sub_aborted) = saved;
        won
    }

    /// Chooses a move for `me` within `budget`.
    pub fn think(&mut self, me: Color, budget: Budget) -> Thought {
        let start = Instant::now();
        // The main search gets 9/10 of the node budget and all the time
        // but the safety check's share; the rest is kept for the safety
        // check of the chosen move.
        let (full_nodes, full_deadline) = (
            self.nodes.saturating_add(budget.nodes),
            budget.time.map(|t| start + t),
        );
        let main_share = |n: u64| {
            if n == u64::MAX { n } else { n / 10 * 9 }
        };
        if self.settings.threat_search {
            self.node_limit = self.nodes.saturating_add(main_share(budget.nodes));
            self.deadline = budget
                .time
                .map(|t| start + t - self.settings.safety.time(t));
        } else {
            self.node_limit = full_nodes;
            self.deadline = full_deadline;
        }
        self.stopped = false;
        self.checked.clear();
        self.tt_age = self.tt_age.wrapping_add(1);
        // A clock (node budget unlimited) or a large node budget gets the
        // large tables.
        let large = budget.nodes > 200_000;
        let bits = if large {
            TT_BITS_LARGE
        } else {
            TT_BITS_SMALL + 2
        };
        let bits = bits_within(
            bits,
            std::mem::size_of::<TtEntry>(),
            budget.memory.map(|b| b - b / 4),
        );
        if bits != self.tt_bits {
            self.tt_bits = bits;
            self.tt = vec![TtEntry::default(); 1 << bits];
        }
        let vcf_bits = if large && self.settings.threat_search {
            VCF_TT_BITS_LARGE
        } else {
            VCF_TT_BITS
        };
        self.limit_memory(vcf_bits, budget.memory);
        let done = |best, score| Thought {
            best: Some(best),
            score,
            depth: 0,
        };
        let moves = match self.generate(me) {
            Node::Win(i) => return done(i, WIN),
            Node::WinSoon(i) => return done(i, WIN - 2),
            Node::Forced(b) => return done(b, 0),
            Node::Lost => {
                let mut buf = Vec::new();
                self.pos.five_points(1 - me, &mut buf);
                return Thought {
                    best: buf.first().copied(),
                    score: -WIN,
                    depth: 0,
                };
            }
            Node::Moves(ms, defending) => {
                if self.settings.threat_search {
                    let share = |f: u32| {
                        let n = if budget.nodes == u64::MAX {
                            u64::MAX
                        } else {
                            budget.nodes / u64::from(f)
                        };
                        let t = budget.time.map(|t| start + t / f);
                        (n, t)
                    };
                    let (n, t) = share(8);
                    let saved = self.deadline;
                    self.deadline = t.or(saved);
                    let vcf = self.vcf_root(me, 40, n);
                    let first = self.vcf_line.first().copied();
                    self.stopped = false;
                    if vcf && let Some(m) = first {
                        self.deadline = saved;
                        return done(m, VCF_WIN);
                    }
                    if !defending {
                        let (n, t) = share(4);
                        self.deadline = t.or(saved);
                        let found = self.vct_root(me, 6, n);
                        self.stopped = false;
                        if let Some(m) = found {
                            self.deadline = saved;
                            return done(m, VCF_WIN);
                        }
                    }
                    self.deadline = saved;
                }
                ms
            }
        };
        let mut root: Vec<(usize, i32)> = moves
            .into_iter()
            .map(|(m, s)| (m, s + self.jitter[m]))
            .collect();
        root.sort_by_key(|m| std::cmp::Reverse(m.1));
        root.truncate(self.settings.root_width);
        let mut best = Thought {
            best: root.first().map(|m| m.0),
            score: 0,
            depth: 0,
        };
        if root.len() <= 1 {
            return best;
        }
        let mut last_iteration = Duration::ZERO;
        let mut depth = 0;
        while depth < self.settings.max_depth {
            depth += 1;
            // Start another iteration while its first move (the best so
            // far, searched first) can likely finish: an unfinished
            // iteration still counts a move that beat the previous best.
            let iteration_start = Instant::now();
            if let Some(d) = self.deadline
                && depth > 1
                && iteration_start + last_iteration > d
            {
                break;
            }
            // Aspiration: from the fifth iteration, a window around the
            // last score, widened to the full window when the result
            // falls outside it.
            let full = (-WIN - 1, WIN + 1);
            let (mut lo, mut hi) = if depth >= ASPIRATION_FROM && best.score.abs() < WIN_THRESHOLD {
                (best.score - ASPIRATION, best.score + ASPIRATION)
            } else {
                full
            };
            let iter_best = loop {
                let pass = self.root_pass(&mut root, depth, (lo, hi), me);
                if self.stopped || (lo, hi) == full {
                    break pass.best;
                }
                if pass.failed_high {
                    // Search again with this move first.
                    if let Some((m, _)) = pass.best
                        && let Some(at) = root.iter().position(|r| r.0 == m)
                    {
                        let r = root.remove(at);
                        root.insert(0, r);
                    }
                    hi = full.1;
                } else if pass.best.is_none() {
                    lo = full.0;
                } else {
                    break pass.best;
                }
            };
            if let Some((m, s)) = iter_best {
                // A move that beat the previous best (searched first) is
                // good even from an unfinished iteration.
                best = Thought {
                    best: Some(m),
                    score: s,
                    depth: if self.stopped { depth - 1 } else { depth },
                };
            }
            if self.stopped {
                break;
            }
            last_iteration = iteration_start.elapsed();
            // Best first, the rest by their scores in this iteration.
            root.sort_by_key(|m| std::cmp::Reverse(m.1));
            if let Some(pos) = root.iter().position(|r| Some(r.0) == best.best) {
                let r = root.remove(pos);
                root.insert(0, r);
            }
            if best.score.abs() > WIN_THRESHOLD {
                break;
            }
            // The check during the search (Expert): the iteration's
            // choice is checked for the opponent's threat wins; a move
            // that loses leaves the root and the depth is searched again.
            if self.settings.threat_search
                && self.settings.safety.during_search_from <= depth
                && root.len() > 1
                && let Some(m) = best.best
                && !self.checked.iter().any(|v| v.0 == m)
            {
                let verdict = self.check_during_search(me, m, budget.time);
                if verdict != Verdict::Unknown || !self.stopped {
                    self.checked.push((m, verdict));
                }
                if self.stopped {
                    break;
                }
                if verdict == Verdict::Loses {
                    root.retain(|r| r.0 != m);
                    best.best = root.first().map(|r| r.0);
                    if root.len() <= 1 {
                        break;
                    }
                    depth -= 1;
                }
            }
        }
        if self.settings.threat_search && best.score.abs() <= WIN_THRESHOLD {
            self.stopped = false;
            self.node_limit = full_nodes;
            self.deadline = full_deadline;
            best = self.safety_check(me, best, &root);
        }
        best
    }

    /// One pass over the root moves at `depth` in the window `(lo, hi)`,
    /// the first with the full window and the rest with null windows,
    /// recording each move's score in `root`. Stops at the first move
    /// that reaches `hi`, or when the budget runs out.
    fn root_pass(
        &mut self,
        root: &mut [(usize, i32)],
        depth: i32,
        (lo, hi): (i32, i32),
        me: Color,
    ) -> RootPass {
        let opp = 1 - me;
        let (mut alpha, beta) = (lo, hi);
        let mut pass = RootPass {
            best: None,
            failed_high: false,
        };
        for (k, slot) in root.iter_mut().enumerate() {
            let m = slot.0;
            self.pos.make(m, me);
            let mut s;
            if k == 0 {
                s = -self.pvs(depth - 1, -beta, -alpha, 1, opp);
            } else {
                s = -self.pvs(depth - 1, -alpha - 1, -alpha, 1, opp);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.pvs(depth - 1, -beta, -alpha, 1, opp);
                }
            }
            self.pos.unmake(m, me);
            if self.stopped {
                break;
            }
            slot.1 = s;
            if s > alpha {
                alpha = s;
                pass.best = Some((m, s));
            }
            if s >= beta {
                pass.failed_high = true;
                break;
            }
        }
        pass
    }

    /// Threat search inside the main search, at ply one: the chosen move
    /// is kept only if the opponent has no VCF or VCT after it. Otherwise
    /// the next moves in the root order are tried (at most
    /// [`super::SafetyCheck::moves`] in all); when all of them lose to a
    /// threat sequence, the search's choice stands. A move checked during
    /// the search ([`Searcher::checked`]) is not checked again. Uses what is left of
    /// the budget.
    fn safety_check(&mut self, me: Color, best: Thought, root: &[(usize, i32)]) -> Thought {
        let Some(first) = best.best else { return best };
        let check = self.settings.safety;
        let mut order = vec![(first, best.score)];
        order.extend(root.iter().copied().filter(|m| m.0 != first));
        for &(m, score) in order.iter().take(check.moves) {
            let known = self.checked.iter().find(|v| v.0 == m).map(|v| v.1);
            let verdict = match known {
                Some(v) if v != Verdict::Unknown => v,
                _ => self.check_move(me, m),
            };
            if verdict == Verdict::Unknown {
                break;
            }
            if verdict == Verdict::Safe {
                return Thought {
                    best: Some(m),
                    score: if m == first { best.score } else { score },
                    depth: best.depth,
                };
            }
        }
        self.stopped = false;
        best
    }

    /// [`Searcher::check_move`] during the main search, within
    /// [`super::SafetyCheck::during_search_percent`] of the `time` budget
    /// and the main search's own limits. Afterwards the searcher is
    /// stopped only if the main search's limits are reached.
    fn check_during_search(&mut self, me: Color, m: usize, time: Option<Duration>) -> Verdict {
        let main_deadline = self.deadline;
        let cap =
            time.map(|t| Instant::now() + t * self.settings.safety.during_search_percent / 100);
        self.deadline = match (main_deadline, cap) {
            (Some(d), Some(c)) => Some(d.min(c)),
            (d, c) => d.or(c),
        };
        let verdict = self.check_move(me, m);
        self.deadline = main_deadline;
        self.stopped =
            self.nodes >= self.node_limit || main_deadline.is_some_and(|d| Instant::now() >= d);
        verdict
    }

    /// Does the opponent have a VCF or a VCT after `me` plays `m`, within
    /// the safety check's node limits? [`Verdict::Unknown`] when the
    /// budget stopped the searches.
    fn check_move(&mut self, me: Color, m: usize) -> Verdict {
        let opp = 1 - me;
        let check = self.settings.safety;
        self.pos.make(m, me);
        let saved = std::mem::take(&mut self.vcf_line);
        let lost = self.vcf_root(opp, 30, check.vcf_nodes)
            || self.vct_root(opp, 6, check.vct_nodes).is_some();
        self.vcf_line = saved;
        self.pos.unmake(m, me);
        if self.stopped {
            Verdict::Unknown
        } else if lost {
            Verdict::Loses
        } else {
            Verdict::Safe
        }
    }
}

/// What the safety check found for one root move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The opponent has no threat win after it (within the check's nodes).
    Safe,
    /// The opponent has a VCF or a VCT after it.
    Loses,
    /// The check was stopped by the budget.
    Unknown,
}

#[cfg(test)]
mod tests;
