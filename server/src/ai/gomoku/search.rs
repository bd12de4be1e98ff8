//! Threat-space search and alpha-beta (Intermediate and Expert).
//!
//! # Move generation ([`Searcher::gen`])
//! Every node first reads the threat classes of the candidate cells (empty
//! cells with a stone in the surrounding 5x5 square):
//! 1. we can make five: win;
//! 2. the opponent can make five: the only move is to block it (two
//!    five-points, or a renju-forbidden block point for black: lost);
//! 3. we can make an open four / double four (legal): win in three plies;
//! 4. the opponent can make an open four next move (it has an open three):
//!    only our own fours and the points of its threat (its open-four and
//!    four points) are tried;
//! 5. otherwise every candidate, ordered by attack + defence pattern score.
//!
//! # VCF ([`Searcher::vcf`])
//! Victory by continuous fours: the attacker only plays fours; the
//! defender's reply is forced (the five-point), so the tree is narrow. The
//! attacker wins on a five, an open/double four, or when the defender's
//! forced block is a renju-forbidden point for black. A defender four on
//! the way must be answered by a block that is itself a four. Failures are
//! cached by Zobrist hash and remaining depth.
//!
//! # VCT ([`Searcher::vct`])
//! Victory by continuous threats: the attacker plays fours and open threes;
//! after a three the defender may play any point of the threat (the
//! attacker's four and open-four points) or a counter-four of its own; the
//! attacker must win against all of them. VCF is tried at every attacker
//! node. Depth and nodes are bounded; the defence set is a heuristic
//! superset, so a VCT win is very likely but not proven.
//!
//! # Main search ([`Searcher::think`])
//! Before searching, the root tries VCF, then VCT, for the side to move.
//! Then iterative-deepening principal-variation search (negamax
//! alpha-beta with null windows) with a Zobrist transposition table,
//! killer moves and a history table, forced moves searched without using
//! depth, a short threat quiescence (one extra ply of defences when the
//! side to move faces an open three at the horizon), and at the leaves a
//! small VCF for the side to move before the static evaluation: the
//! pattern-value sums of both colours ([`super::pos::PAT_VALUE`]), the side
//! to move's weighted 6/5 (its threats are realised first).
//!
//! # Safety check ([`Searcher::safety_check`], Expert)
//! Threat search inside the main search, at ply one: the move the
//! alpha-beta search chose is played only if the opponent then has no VCF
//! (3 000 nodes) and no VCT (depth 6, 10 000 nodes); otherwise the next
//! root moves are checked the same way (at most four in all). It catches
//! the slow threat sequences (an open three leading to a VCF) that a
//! depth-4 or depth-5 search misses under a short budget.
//!
//! # Limits
//! A node limit (fully deterministic) and/or a deadline (checked every
//! 1024 nodes). The Expert's main search gets 9/10 of the budget and the
//! safety check the rest. Iterations only start while less than half of
//! the main search's time is used, so a move takes at most the budget plus
//! one check interval. The hash tables can be capped in bytes
//! ([`Budget::memory`]; the main table gets 3/4, the VCF and VCT tables
//! 1/8 each, rounded down to powers of two).

use std::time::{Duration, Instant};

use super::pattern::{B4, F4, FIVE};
use super::pos::{Color, EMPTY, PAT_VALUE, Pos, class};

/// A won position (minus the plies to the win).
pub(crate) const WIN: i32 = 1_000_000;
/// Scores above this (in absolute value) are wins/losses.
pub(crate) const WIN_THRESHOLD: i32 = WIN - 2_000;
/// Score of a leaf where the side to move has a VCF.
const VCF_WIN: i32 = WIN - 1_000;

/// What the search may spend.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    /// Node limit (`u64::MAX` for none).
    pub nodes: u64,
    /// Wall-clock budget, if any.
    pub time: Option<Duration>,
    /// Bytes the hash tables may use, if limited.
    pub memory: Option<usize>,
}

/// Search settings per level.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Settings {
    /// Deepest iteration.
    pub max_depth: i32,
    /// Moves tried at inner nodes.
    pub width: usize,
    /// Moves tried at the root.
    pub root_width: usize,
    /// VCF for the side to move at the leaves.
    pub leaf_vcf: bool,
    /// VCF and VCT at the root.
    pub threat_search: bool,
}

impl Settings {
    /// Intermediate: depth-4 alpha-beta, no threat search.
    pub const INTERMEDIATE: Settings = Settings {
        max_depth: 4,
        width: 10,
        root_width: 16,
        leaf_vcf: false,
        threat_search: false,
    };
    /// Expert: everything.
    pub const EXPERT: Settings = Settings {
        max_depth: 40,
        width: 14,
        root_width: 30,
        leaf_vcf: true,
        threat_search: true,
    };
}

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

#[derive(Clone, Copy, Default)]
struct TtEntry {
    key: u64,
    score: i32,
    best: u32,
    depth: i8,
    flag: u8,
}

/// Transposition table size (log2) for small and large budgets.
const TT_BITS_SMALL: u32 = 12;
const TT_BITS_LARGE: u32 = 19;
const VCF_TT_BITS: u32 = 15;
/// Smallest table size (log2) under a memory limit.
const TT_BITS_MIN: u32 = 8;

/// The largest `bits <= want` (at least [`TT_BITS_MIN`]) with
/// `entry << bits <= bytes`.
fn bits_within(want: u32, entry: usize, bytes: Option<usize>) -> u32 {
    let Some(bytes) = bytes else { return want };
    let mut bits = want;
    while bits > TT_BITS_MIN && (entry << bits) > bytes {
        bits -= 1;
    }
    bits
}
const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;
const NO_MOVE: u32 = u32::MAX;

/// What [`Searcher::think`] found.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Thought {
    /// Best move (cell index).
    pub best: Option<usize>,
    /// Score for the side to move.
    pub score: i32,
    /// Deepest completed iteration (0 when a threat search or a forced
    /// move decided).
    pub depth: i32,
}

/// Searcher state.
pub(crate) struct Searcher {
    /// The position.
    pub pos: Pos,
    /// Nodes visited (all searches).
    pub nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    sub_limit: u64,
    sub_aborted: bool,
    tt: Vec<TtEntry>,
    tt_bits: u32,
    vcf_bits: u32,
    vcf_tt: Vec<(u64, i8)>,
    vct_tt: Vec<(u64, i8)>,
    killers: Vec<[u32; 2]>,
    history: [Vec<i32>; 2],
    settings: Settings,
    /// The last VCF found (attacker and defender moves alternating).
    pub vcf_line: Vec<usize>,
    side_key: [u64; 2],
    jitter: Vec<i32>,
    /// Indexes of the on-board cells.
    cells: Vec<usize>,
}

impl Searcher {
    /// A searcher over `pos`.
    pub fn new(pos: Pos, settings: Settings, seed: u64) -> Searcher {
        let len = pos.cells.len();
        let mut rng = super::rng::Rng::new(seed);
        let jitter = (0..len).map(|_| (rng.next_u64() % 4) as i32).collect();
        Searcher {
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            sub_limit: u64::MAX,
            sub_aborted: false,
            tt: vec![TtEntry::default(); 1 << TT_BITS_SMALL],
            tt_bits: TT_BITS_SMALL,
            vcf_bits: VCF_TT_BITS,
            vcf_tt: vec![(0, 0); 1 << VCF_TT_BITS],
            vct_tt: vec![(0, 0); 1 << VCF_TT_BITS],
            killers: vec![[NO_MOVE; 2]; 128],
            history: [vec![0; len], vec![0; len]],
            settings,
            vcf_line: Vec::new(),
            side_key: [0x1234_5678_9ABC_DEF1, 0x0FED_CBA9_8765_4321],
            jitter,
            cells: pos.on_board().collect(),
            pos,
        }
    }

    /// Sizes the hash tables to fit in `bytes` (None: the defaults).
    pub fn limit_memory(&mut self, bytes: Option<usize>) {
        // A quarter for the two threat-search tables, the rest for the
        // main table.
        let vcf = bits_within(
            VCF_TT_BITS,
            2 * std::mem::size_of::<(u64, i8)>(),
            bytes.map(|b| b / 4),
        );
        if vcf != self.vcf_bits {
            self.vcf_bits = vcf;
            self.vcf_tt = vec![(0, 0); 1 << vcf];
            self.vct_tt = vec![(0, 0); 1 << vcf];
        }
        let main = bits_within(
            self.tt_bits,
            std::mem::size_of::<TtEntry>(),
            bytes.map(|b| b - b / 4),
        );
        if main != self.tt_bits {
            self.tt_bits = main;
            self.tt = vec![TtEntry::default(); 1 << main];
        }
    }

    /// Bytes held by the hash tables.
    pub fn table_bytes(&self) -> usize {
        self.tt.len() * std::mem::size_of::<TtEntry>()
            + (self.vcf_tt.len() + self.vct_tt.len()) * std::mem::size_of::<(u64, i8)>()
    }

    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
            return true;
        }
        if self.nodes & 1023 == 0
            && let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.stopped = true;
            return true;
        }
        false
    }

    /// Out of the current sub-search budget (or the global one)?
    #[inline]
    fn sub_out(&mut self) -> bool {
        if self.nodes >= self.sub_limit || self.out_of_budget() {
            self.sub_aborted = true;
            return true;
        }
        false
    }

    fn attack_score(&self, c: Color, i: usize) -> i32 {
        const CLASS: [i32; 9] = [0, 0, 0, 300, 1500, 400, 4000, 20000, 100000];
        let p = &self.pos.pat[c][i];
        CLASS[usize::from(self.pos.class(c, i))]
            + p.iter().map(|&x| PAT_VALUE[usize::from(x)]).sum::<i32>()
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
            let score = self.attack_score(me, i) + self.attack_score(opp, i) * 4 / 5;
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

    // ---------------------------------------------------------------- VCF

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

    fn vcf(&mut self, att: Color, depth: i32) -> bool {
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
        let fours = self.pos.count[att][usize::from(B4)] + self.pos.count[att][usize::from(F4)];
        if fours == 0 {
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
            for k in 0..self.cells.len() {
                let i = self.cells[k];
                if self.pos.cells[i] != EMPTY || self.pos.near[i] == 0 || !self.pos.is_four(att, i)
                {
                    continue;
                }
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
        let key = self.pos.hash ^ self.side_key[att];
        let slot = (key >> (64 - self.vcf_bits)) as usize;
        let (k, d) = self.vcf_tt[slot];
        if k == key && i32::from(d) >= depth {
            return false;
        }
        cands.sort_by_key(|m| std::cmp::Reverse(m.1));
        let aborted_before = self.sub_aborted;
        self.sub_aborted = false;
        let mut fives = Vec::new();
        for (m, _) in cands {
            self.pos.make(m, att);
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
                        self.pos.make(f, def);
                        let r = self.vcf(att, depth - 1);
                        self.pos.unmake(f, def);
                        if r {
                            self.vcf_line.push(f);
                        }
                        Some(r)
                    }
                }
                _ => Some(true),
            };
            self.pos.unmake(m, att);
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

    // ---------------------------------------------------------------- VCT

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
            self.pos.make(b, att);
            let r = self.vct_def(att, depth, limit);
            self.pos.unmake(b, att);
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
            self.pos.make(m, att);
            let r = self.vct_def(att, depth - 1, limit);
            self.pos.unmake(m, att);
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
            self.pos.make(f, def);
            let r = self.vct_att(att, depth, limit, false).is_some();
            self.pos.unmake(f, def);
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
            self.pos.make(d, def);
            let r = self.vct_att(att, depth, limit, false).is_some();
            self.pos.unmake(d, def);
            if !r {
                return false;
            }
        }
        true
    }

    // ---------------------------------------------------------- main search

    fn tt_slot(&self, key: u64) -> usize {
        (key >> (64 - self.tt_bits)) as usize
    }

    fn to_tt(score: i32, ply: i32) -> i32 {
        if score > WIN_THRESHOLD {
            score + ply
        } else if score < -WIN_THRESHOLD {
            score - ply
        } else {
            score
        }
    }

    fn from_tt(score: i32, ply: i32) -> i32 {
        if score > WIN_THRESHOLD {
            score - ply
        } else if score < -WIN_THRESHOLD {
            score + ply
        } else {
            score
        }
    }

    fn pvs(&mut self, depth: i32, mut alpha: i32, beta: i32, ply: i32, me: Color) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        self.nodes += 1;
        let opp = 1 - me;
        let key = self.pos.hash ^ self.side_key[me];
        let slot = self.tt_slot(key);
        let e = self.tt[slot];
        let mut tt_move = NO_MOVE;
        if e.key == key {
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
        let (mut moves, child_depth) = match self.generate(me) {
            Node::Win(_) => return WIN - ply,
            Node::Lost => return -(WIN - ply - 1),
            Node::WinSoon(_) => return WIN - ply - 2,
            Node::Forced(b) => (vec![(b, 0)], depth),
            Node::Moves(ms, defending) => {
                // Threat quiescence (Expert): under an open three, keep
                // searching the defences a few plies past the horizon.
                if depth <= 0 && defending && self.settings.leaf_vcf && depth > -2 {
                    (ms, depth - 1)
                } else if depth <= 0 {
                    if self.settings.leaf_vcf && !defending {
                        let saved = (self.sub_limit, self.sub_aborted);
                        self.sub_limit = self.nodes + 300;
                        self.vcf_line.clear();
                        let won = self.vcf(me, 12);
                        (self.sub_limit, self.sub_aborted) = saved;
                        if won {
                            return VCF_WIN - ply;
                        }
                    }
                    return self.pos.eval(me);
                } else {
                    (ms, depth - 1)
                }
            }
        };
        if moves.is_empty() {
            // No candidate (empty or full board): static value.
            return self.pos.eval(me);
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
            self.pos.make(m, me);
            let mut s;
            if k == 0 {
                s = -self.pvs(child_depth, -beta, -alpha, ply + 1, opp);
            } else {
                s = -self.pvs(child_depth, -alpha - 1, -alpha, ply + 1, opp);
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
        self.tt[slot] = TtEntry {
            key,
            score: Self::to_tt(best, ply),
            best: best_move,
            depth: depth.clamp(-1, 127) as i8,
            flag,
        };
        best
    }

    /// Chooses a move for `me` within `budget`.
    pub fn think(&mut self, me: Color, budget: Budget) -> Thought {
        let start = Instant::now();
        // The main search gets 9/10 of the budget; the rest is kept for the
        // safety check of the chosen move (Expert).
        let (full_nodes, full_deadline) = (
            self.nodes.saturating_add(budget.nodes),
            budget.time.map(|t| start + t),
        );
        let main_share = |n: u64| {
            if n == u64::MAX { n } else { n / 10 * 9 }
        };
        if self.settings.threat_search {
            self.node_limit = self.nodes.saturating_add(main_share(budget.nodes));
            self.deadline = budget.time.map(|t| start + t * 9 / 10);
        } else {
            self.node_limit = full_nodes;
            self.deadline = full_deadline;
        }
        self.stopped = false;
        let bits = if budget.nodes > 200_000 {
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
        self.limit_memory(budget.memory);
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
        let opp = 1 - me;
        for depth in 1..=self.settings.max_depth {
            if let (Some(t), Some(d)) = (budget.time, self.deadline)
                && depth > 1
                && Instant::now() + t / 2 > d
            {
                break;
            }
            let mut alpha = -WIN - 1;
            let beta = WIN + 1;
            let mut iter_best: Option<(usize, i32)> = None;
            for (k, slot) in root.iter_mut().enumerate() {
                let m = slot.0;
                self.pos.make(m, me);
                let mut s;
                if k == 0 {
                    s = -self.pvs(depth - 1, -beta, -alpha, 1, opp);
                } else {
                    s = -self.pvs(depth - 1, -alpha - 1, -alpha, 1, opp);
                    if s > alpha && !self.stopped {
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
                    iter_best = Some((m, s));
                }
            }
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
            // Best first, the rest by their scores in this iteration.
            root.sort_by_key(|m| std::cmp::Reverse(m.1));
            if let Some(pos) = root.iter().position(|r| Some(r.0) == best.best) {
                let r = root.remove(pos);
                root.insert(0, r);
            }
            if best.score.abs() > WIN_THRESHOLD {
                break;
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

    /// Threat search inside the main search, at ply one: the chosen move
    /// is kept only if the opponent has no VCF or VCT after it. Otherwise
    /// the next moves in the root order are tried (at most four in all);
    /// when all of them lose to a threat sequence, the search's choice
    /// stands. Uses what is left of the budget.
    fn safety_check(&mut self, me: Color, best: Thought, root: &[(usize, i32)]) -> Thought {
        let opp = 1 - me;
        let Some(first) = best.best else { return best };
        let mut order = vec![(first, best.score)];
        order.extend(root.iter().copied().filter(|m| m.0 != first));
        for &(m, score) in order.iter().take(4) {
            self.pos.make(m, me);
            let saved = std::mem::take(&mut self.vcf_line);
            let lost = self.vcf_root(opp, 30, 3_000) || self.vct_root(opp, 6, 10_000).is_some();
            self.vcf_line = saved;
            self.pos.unmake(m, me);
            if self.stopped {
                break;
            }
            if !lost {
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
}
