//! Threat-space search and alpha-beta (Casual to Expert): the
//! [`Searcher`], its limits and settings.
//!
//! - [`movegen`]: what a node allows (win, forced block, threat defences or
//!   every candidate), ordered by the level's table
//!   ([`super::ordering`]).
//! - [`vcf`]: victory by continuous fours.
//! - [`vct`]: victory by continuous threats.
//! - [`alphabeta`]: the main search ([`Searcher::think`]) and the safety
//!   check of its choice.
//! - [`table`]: the hash tables and their sizes.
//! - [`kept`]: the Expert's searcher (and its tables) kept between moves.
//!
//! # Limits
//! A node limit (fully deterministic) and/or a deadline (checked every
//! 1024 nodes). The main search gets 9/10 of the nodes and the time but
//! the safety check's share ([`SafetyCheck`]: the Expert keeps 5%, as it
//! checks its choices during the search too, the first Expert's search
//! a tenth, at most 40 ms); the safety check gets the rest. An
//! iteration starts while the previous one's time still fits before the
//! main search's deadline, and every search stops at its deadline, so a
//! move takes at most the budget plus one check interval. A large budget
//! (over 200,000 nodes, or a clock) gets the large tables: 2^19 main
//! entries and, for a threat-searching level, 2^20 VCF and VCT entries
//! (32 MB). The hash tables can be capped in bytes ([`Budget::memory`];
//! the main table gets 3/4, the VCF and VCT tables 1/8 each, rounded down
//! to powers of two).

mod alphabeta;
mod kept;
mod movegen;
mod table;
mod vcf;
mod vct;

use std::time::{Duration, Instant};

use super::eval::{Evaluation, PATTERN_SUMS};
use super::ordering::MoveOrder;
use super::pcode;
use super::pos::Pos;
use alphabeta::Verdict;
pub(crate) use kept::with_kept_searcher;
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
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Settings {
    /// Deepest iteration.
    pub max_depth: i32,
    /// Moves tried at inner nodes.
    pub width: usize,
    /// Moves tried at the root.
    pub root_width: usize,
    /// At the horizon: a VCF for the side to move, and under an open three
    /// the defences searched two more plies (threat quiescence).
    pub leaf_vcf: bool,
    /// Nodes of that VCF at the horizon.
    pub leaf_vcf_nodes: u64,
    /// A horizon node whose static value already reaches beta returns it
    /// without that VCF: a win found there would cut off no better.
    pub leaf_cutoff: bool,
    /// Within three plies of the horizon, a null-window node where the side
    /// to move has no threat to answer returns its static value when that
    /// value, less this margin for each ply left, still reaches beta (the
    /// chess engines' reverse futility pruning; 0: never).
    pub static_cutoff_margin: i32,
    /// VCF and VCT at the root, and the safety check of the chosen move.
    pub threat_search: bool,
    /// What the safety check may spend (with [`Settings::threat_search`]).
    pub safety: SafetyCheck,
    /// Nodes of the VCF tried at every inner node where the side to move
    /// has a four to make (0: only at the horizon, see
    /// [`Settings::leaf_vcf`]).
    pub inner_vcf: u64,
    /// Late quiet moves searched shallower first, and near the leaves not
    /// at all (see [`alphabeta`]).
    pub late_moves: bool,
    /// The searcher and its hash tables are kept from one clocked move to
    /// the next (see [`kept`]).
    pub keep_tables: bool,
    /// The static evaluation.
    pub eval: Evaluation,
    /// The candidates' order ([`super::ordering`]).
    pub order: MoveOrder,
}

/// The budget of the safety check of the chosen move (see [`alphabeta`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SafetyCheck {
    /// Share of the time budget kept for it, in percent.
    pub time_percent: u32,
    /// At most this much time is kept, if set.
    pub max_time: Option<Duration>,
    /// Nodes of the opponent's VCF after each move checked.
    pub vcf_nodes: u64,
    /// Nodes of the opponent's VCT after each move checked.
    pub vct_nodes: u64,
    /// Moves checked at most, the search's choice first.
    pub moves: usize,
    /// From this iteration on, each iteration's choice is checked during
    /// the search too (`i32::MAX`: never): a move that loses leaves the
    /// root, and the depth is searched again without it.
    pub during_search_from: i32,
    /// Time one check during the search may take, in percent of the
    /// budget.
    pub during_search_percent: u32,
}

impl SafetyCheck {
    /// The first Expert's check: a tenth of the time, at most 40 ms; small
    /// threat searches; four moves.
    pub const QUICK: SafetyCheck = SafetyCheck {
        time_percent: 10,
        max_time: Some(Duration::from_millis(40)),
        vcf_nodes: 3_000,
        vct_nodes: 10_000,
        moves: 4,
        during_search_from: i32::MAX,
        during_search_percent: 0,
    };
    /// The Expert's: threat searches large enough for the opponent's
    /// slow wins (most VCTs that won games against the Expert needed
    /// 40,000 to 400,000 nodes), six moves; every iteration's choice from
    /// the third on is checked during the search, each check within 15%
    /// of the time, so the final check, given 5%, is mostly of a move
    /// already checked.
    pub const DEEP: SafetyCheck = SafetyCheck {
        time_percent: 5,
        max_time: None,
        vcf_nodes: 30_000,
        vct_nodes: 400_000,
        moves: 6,
        during_search_from: 3,
        during_search_percent: 15,
    };

    /// The time kept for the check out of `budget`.
    pub fn time(&self, budget: Duration) -> Duration {
        let share = budget * self.time_percent / 100;
        self.max_time.map_or(share, |m| share.min(m))
    }
}

impl Settings {
    /// Casual: depth-2 alpha-beta, no threat search.
    pub const CASUAL: Settings = Settings {
        max_depth: 2,
        width: 8,
        root_width: 12,
        leaf_vcf: false,
        leaf_vcf_nodes: 0,
        leaf_cutoff: false,
        static_cutoff_margin: 0,
        threat_search: false,
        safety: SafetyCheck::QUICK,
        inner_vcf: 0,
        late_moves: false,
        keep_tables: false,
        eval: Evaluation::Linear(&PATTERN_SUMS),
        order: MoveOrder::HandSet,
    };
    /// The first Expert's search (the hand-set evaluation, no
    /// reductions): the Intermediate, stopped by a small node budget.
    pub const FIRST_EXPERT: Settings = Settings {
        max_depth: 40,
        width: 14,
        root_width: 30,
        leaf_vcf: true,
        leaf_vcf_nodes: 300,
        leaf_cutoff: false,
        static_cutoff_margin: 0,
        threat_search: true,
        safety: SafetyCheck::QUICK,
        inner_vcf: 0,
        late_moves: false,
        keep_tables: false,
        eval: Evaluation::Linear(&PATTERN_SUMS),
        order: MoveOrder::HandSet,
    };
    /// Expert: the fitted evaluation, late-move reductions and pruning,
    /// its tables kept between moves, a VCF at inner nodes, a smaller VCF
    /// at the horizon, skipped where the static value already cuts off,
    /// a static cutoff near the horizon (all measured stronger,
    /// docs/AI.md), and the deeper safety check.
    pub const EXPERT: Settings = Settings {
        leaf_vcf_nodes: 100,
        leaf_cutoff: true,
        static_cutoff_margin: 40,
        late_moves: true,
        safety: SafetyCheck::DEEP,
        inner_vcf: 200,
        keep_tables: true,
        eval: Evaluation::CodeTable,
        order: MoveOrder::Fitted,
        ..Settings::FIRST_EXPERT
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

/// The root's tie-break jitter per cell (0 to 3), from `seed`.
fn jitter(len: usize, seed: u64) -> Vec<i32> {
    let mut rng = super::seeded_rng(seed);
    (0..len).map(|_| (rng.next_u64() % 4) as i32).collect()
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
    /// The current search's [`TtEntry::age`].
    tt_age: u8,
    vcf_bits: u32,
    /// VCF failures: (key, fours searched without a win).
    vcf_tt: Vec<(u64, i8)>,
    /// VCT results at attacker nodes: (key, `d`), where `d >= 0` is a
    /// search of `d` threats that found no win and `d < 0` a win found
    /// within `-1 - d` threats.
    vct_tt: Vec<(u64, i8)>,
    killers: Vec<[u32; 2]>,
    history: [Vec<i32>; 2],
    settings: Settings,
    /// The candidates' order values ([`Settings::order`]).
    order: &'static pcode::Weights,
    /// The last VCF found (attacker and defender moves alternating).
    pub vcf_line: Vec<usize>,
    /// The root moves the last search checked during the search, with
    /// what the check found (a move that loses left the root).
    pub(crate) checked: Vec<(usize, Verdict)>,
    side_key: [u64; 2],
    jitter: Vec<i32>,
    /// Indexes of the on-board cells.
    cells: Vec<usize>,
}

impl Searcher {
    /// A searcher over `pos`.
    pub fn new(pos: Pos, settings: Settings, seed: u64) -> Searcher {
        let len = pos.cells.len();
        let jitter = jitter(len, seed);
        Searcher {
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            sub_limit: u64::MAX,
            sub_aborted: false,
            tt: vec![TtEntry::default(); 1 << TT_BITS_SMALL],
            tt_bits: TT_BITS_SMALL,
            tt_age: 0,
            vcf_bits: VCF_TT_BITS,
            vcf_tt: vec![(0, 0); 1 << VCF_TT_BITS],
            vct_tt: vec![(0, 0); 1 << VCF_TT_BITS],
            killers: vec![[NO_MOVE; 2]; 128],
            history: [vec![0; len], vec![0; len]],
            settings,
            order: settings.order.table(),
            vcf_line: Vec::new(),
            checked: Vec::new(),
            side_key: [0x1234_5678_9ABC_DEF1, 0x0FED_CBA9_8765_4321],
            jitter,
            cells: pos.on_board().collect(),
            pos,
        }
    }

    /// Can this searcher take up `pos` under `settings` (same board size,
    /// rule and settings)?
    fn fits(&self, pos: &Pos, settings: &Settings) -> bool {
        self.pos.n == pos.n && self.pos.rule == pos.rule && self.settings == *settings
    }

    /// Takes up a new position (see [`Searcher::fits`]), keeping the hash
    /// tables and half of the history scores; the killers and counters
    /// start afresh and the root's tie-break jitter follows `seed`.
    fn renew(&mut self, pos: Pos, seed: u64) {
        self.jitter = jitter(self.jitter.len(), seed);
        for h in self.history.iter_mut().flatten() {
            *h /= 2;
        }
        self.killers.fill([NO_MOVE; 2]);
        self.nodes = 0;
        self.node_limit = u64::MAX;
        self.deadline = None;
        self.stopped = false;
        self.sub_limit = u64::MAX;
        self.sub_aborted = false;
        self.vcf_line.clear();
        self.pos = pos;
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
