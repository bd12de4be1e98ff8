//! Threat-space search and alpha-beta (Intermediate and Expert): the
//! [`Searcher`], its limits and settings.
//!
//! - [`movegen`]: what a node allows (win, forced block, threat defences or
//!   every candidate), ordered by pattern score.
//! - [`vcf`]: victory by continuous fours.
//! - [`vct`]: victory by continuous threats.
//! - [`alphabeta`]: the main search ([`Searcher::think`]) and the safety
//!   check of its choice.
//! - [`table`]: the hash tables and their sizes.
//!
//! # Limits
//! A node limit (fully deterministic) and/or a deadline (checked every
//! 1024 nodes). The Expert's main search gets 9/10 of the budget and the
//! safety check the rest. An iteration starts while the previous one's
//! time still fits before the main search's deadline, and every search
//! stops at its deadline, so a move takes at most the budget plus one
//! check interval. The hash tables can be capped in bytes
//! ([`Budget::memory`]; the main table gets 3/4, the VCF and VCT tables
//! 1/8 each, rounded down to powers of two).

mod alphabeta;
mod movegen;
mod table;
mod vcf;
mod vct;

use std::time::{Duration, Instant};

use super::eval::{FITTED, NFEATURES, PATTERN_SUMS};
use super::pos::Pos;
pub(crate) use movegen::Node;
use table::{NO_MOVE, TT_BITS_SMALL, TtEntry, VCF_TT_BITS};

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
    /// Late quiet moves searched a ply shallower first.
    pub reductions: bool,
    /// The evaluation's weights.
    pub eval: &'static [i32; NFEATURES],
}

impl Settings {
    /// Casual: depth-2 alpha-beta, no threat search.
    pub const CASUAL: Settings = Settings {
        max_depth: 2,
        width: 8,
        root_width: 12,
        leaf_vcf: false,
        threat_search: false,
        reductions: false,
        eval: &PATTERN_SUMS,
    };
    /// Intermediate: depth-4 alpha-beta, no threat search.
    pub const INTERMEDIATE: Settings = Settings {
        max_depth: 4,
        width: 10,
        root_width: 16,
        leaf_vcf: false,
        threat_search: false,
        reductions: false,
        eval: &PATTERN_SUMS,
    };
    /// Advanced: the first Expert's search (no reductions, the
    /// hand-set evaluation), stopped by a node budget.
    pub const ADVANCED: Settings = Settings {
        max_depth: 40,
        width: 14,
        root_width: 30,
        leaf_vcf: true,
        threat_search: true,
        reductions: false,
        eval: &PATTERN_SUMS,
    };
    /// Expert: everything, with the fitted evaluation.
    pub const EXPERT: Settings = Settings {
        reductions: true,
        eval: &FITTED,
        ..Settings::ADVANCED
    };
}

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
        let mut rng = super::seeded_rng(seed);
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
}
