//! Gomoku AI: five levels behind one entry point, [`choose`].
//!
//! * **Beginner** ([`beginner`]): the seed's scoring table, done right —
//!   per point and direction, +10 per own stone in the run, +1 for an empty
//!   end, −2 for an opposing stone or the board edge; the sorted direction
//!   scores combine as `d0·1000 + d1·100 + d2·10 + d3`; block when the
//!   opponent's best point beats ours, otherwise attack.
//! * **Casual**: a depth-2 alpha-beta (its own move and the reply) over
//!   the candidate points near the stones, with the pattern evaluation and
//!   the forced replies to fours and open threes, and a small node budget.
//! * **Intermediate**: the first Expert's search (hand-set pattern
//!   evaluation, no reductions) with a small fixed node budget
//!   ([`INTERMEDIATE_NODES`]) instead of the clock.
//! * **Advanced**: the Expert's search with a fixed node budget
//!   ([`ADVANCED_NODES`], about a twentieth of what the Expert searches in
//!   a second) instead of the clock.
//! * **Expert**: incremental line patterns ([`pattern`], [`pos`]) and an
//!   evaluation per pattern code fitted to the self-play search's scores
//!   ([`pcode`], [`tune`]), VCF and VCT threat-space search at the root,
//!   VCF at the leaves, and a check that the chosen move leaves the
//!   opponent no VCF or VCT, iterative-deepening PVS with a transposition
//!   table kept between moves, candidates ordered by a table fitted to
//!   the search's own choices ([`ordering`]) with killers and history,
//!   logarithmic late-move reductions and pruning, threat quiescence,
//!   threat-restricted candidates (see [`search`]).
//!
//! # Determinism
//! Every level is a pure function of the position, the limits and the
//! seed. With a node limit ([`Limits::nodes`]) the Expert is fully
//! reproducible; with a wall-clock budget it is best effort (the depth
//! reached depends on the machine, and the kept hash tables on what was
//! searched before).
//!
//! # Swap2
//! * Placing the first three stones: one of a few spread-out shapes around
//!   the centre, picked by the seed (continued when the stones already on
//!   the board are a prefix of one).
//! * Choosing (after three or five stones, white to move): every level
//!   above the Beginner runs a short search for white and takes white
//!   when white is not worse, black otherwise; Beginner picks by the seed
//!   (including "place two").
//! * Placing two more stones: the best white move, then the black move
//!   (among the best candidates) that leaves the most balanced position,
//!   since the opponent will choose the colour.
//!
//! # Rules
//! All rule sets: five-detection follows the rule (exact five for standard
//! and renju black), black never plays a renju-forbidden point (checked
//! with the rules crate), and a renju black five-point block that is
//! forbidden counts as a win for white in every search.

pub mod beginner;
pub mod eval;
pub mod harvest;
pub mod hints;
pub mod ordering;
mod pattern;
pub mod pcode;
mod pos;
#[cfg(any(test, feature = "suites"))]
pub mod puzzles;
pub mod review;
mod search;
pub mod study;
#[cfg(any(test, feature = "suites"))]
pub mod tactics;
#[cfg(feature = "tuning")]
pub mod tune;

use std::time::Duration;

use tabula_shared::gomoku::{Board, Gomoku, Phase, Point, Rule, Stone, Swap2Choice, renju};
use tabula_shared::seat::Seat;

use crate::Level;
use crate::rng::Rng;
use pos::{Pos, color_of};
use search::{Budget, Searcher, Settings, with_kept_searcher};

/// What the AI does on its turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Place the next stone here.
    Place(Point),
    /// Make this swap2 choice.
    Choose(Swap2Choice),
}

/// The Casual's node budget per move.
pub const CASUAL_NODES: u64 = 20_000;
/// The Intermediate's node budget per move: the first Expert's search,
/// stopped early.
pub const INTERMEDIATE_NODES: u64 = 8_000;
/// The Advanced's node budget per move: the Expert's search, stopped early.
pub const ADVANCED_NODES: u64 = 15_000;

/// Search limits: a wall-clock budget and/or a node limit. With only a node
/// limit the Expert is fully deterministic (used by tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Limits {
    /// Wall-clock budget per decision.
    pub time: Option<Duration>,
    /// Node limit per decision.
    pub nodes: Option<u64>,
    /// Bytes the Expert's hash tables may use (None: the defaults, about
    /// 46 MB for long searches). Tables shrink to powers of two that fit,
    /// down to a floor of a few kilobytes.
    pub memory: Option<usize>,
}

impl Limits {
    /// A wall-clock budget only.
    pub fn time(budget: Duration) -> Limits {
        Limits {
            time: Some(budget),
            nodes: None,
            memory: None,
        }
    }

    /// A node limit only (reproducible).
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            time: None,
            nodes: Some(nodes),
            memory: None,
        }
    }

    fn budget(self) -> Budget {
        Budget {
            nodes: self.nodes.unwrap_or(u64::MAX),
            time: self.time,
            memory: self.memory,
        }
    }

    /// The same limits with the node limit lowered to at most `nodes`.
    fn at_most(self, nodes: u64) -> Limits {
        Limits {
            nodes: Some(self.nodes.map_or(nodes, |n| n.min(nodes))),
            ..self
        }
    }

    /// The same limits scaled by `num / den` (for sub-decisions).
    fn scaled(self, num: u32, den: u32) -> Limits {
        Limits {
            time: self.time.map(|t| t * num / den),
            nodes: self.nodes.map(|n| n * u64::from(num) / u64::from(den)),
            memory: self.memory,
        }
    }
}

/// The AI's decision for `seat` (None when `seat` is not to act).
/// Deterministic for a given seed (for Expert: up to the depth the
/// wall-clock budget allows).
pub fn choose(
    level: Level,
    game: &Gomoku,
    seat: Seat,
    budget: Duration,
    seed: u64,
) -> Option<Decision> {
    choose_with(level, game, seat, Limits::time(budget), seed)
}

/// [`choose`] with explicit [`Limits`] (a node limit makes it reproducible).
pub fn choose_with(
    level: Level,
    game: &Gomoku,
    seat: Seat,
    limits: Limits,
    seed: u64,
) -> Option<Decision> {
    if game.to_act() != Some(seat) {
        return None;
    }
    let rule = game.config().rule;
    let board = game.board();
    let stone = game.stone_to_play();
    let decision = match game.phase() {
        Phase::Over => return None,
        Phase::Main => Decision::Place(best_move(level, board, stone, rule, limits, seed)?),
        Phase::Swap2PlaceThree => Decision::Place(opening_stone(board, seed)),
        Phase::Swap2PlaceTwo => {
            Decision::Place(place_two_stone(level, board, stone, rule, limits, seed))
        }
        Phase::Swap2Choose | Phase::Swap2FinalChoose => {
            let first_choice = game.phase() == Phase::Swap2Choose;
            Decision::Choose(swap_choice(level, board, rule, limits, seed, first_choice))
        }
    };
    // Never hand back an illegal stone.
    match decision {
        Decision::Place(p) if game.is_legal(seat, p).is_err() => {
            fallback(board, stone, rule).map(Decision::Place)
        }
        d => Some(d),
    }
}

/// The move `level` plays for `to_play` on `board` under `rule`; `None`
/// only when no legal point is left.
pub fn best_move(
    level: Level,
    board: &Board,
    to_play: Stone,
    rule: Rule,
    limits: Limits,
    seed: u64,
) -> Option<Point> {
    let p = match level {
        Level::Beginner => beginner::choose(board, to_play, rule, seed),
        Level::Casual => {
            let limits = limits.at_most(CASUAL_NODES);
            search_with(board, to_play, rule, limits, seed, Settings::CASUAL).best
        }
        Level::Intermediate => {
            let limits = limits.at_most(INTERMEDIATE_NODES);
            search_with(board, to_play, rule, limits, seed, Settings::FIRST_EXPERT).best
        }
        Level::Advanced => {
            let limits = limits.at_most(ADVANCED_NODES);
            search_with(board, to_play, rule, limits, seed, Settings::EXPERT).best
        }
        Level::Expert => expert_search(board, to_play, rule, limits, seed).best,
    };
    match p {
        Some(p) if legal(board, p, to_play, rule) => Some(p),
        _ => fallback(board, to_play, rule),
    }
}

/// What one Expert search found (for tools and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchReport {
    /// The move.
    pub best: Option<Point>,
    /// Score for the side to move (evaluation units, about 200 per logit
    /// of the winning chance; about ±1 000 000 for a found win/loss).
    pub score: i32,
    /// Deepest completed iteration (0 when a threat search or a forced
    /// move decided).
    pub depth: i32,
    /// Nodes visited, threat searches included.
    pub nodes: u64,
    /// Bytes held by the search's hash tables.
    pub table_bytes: usize,
}

/// Runs the Expert search and reports what it found.
pub fn expert_search(
    board: &Board,
    to_play: Stone,
    rule: Rule,
    limits: Limits,
    seed: u64,
) -> SearchReport {
    search_with(board, to_play, rule, limits, seed, Settings::EXPERT)
}

fn search_with(
    board: &Board,
    to_play: Stone,
    rule: Rule,
    limits: Limits,
    seed: u64,
    settings: Settings,
) -> SearchReport {
    let pos = Pos::from_board(board, rule);
    let budget = limits.budget();
    let search = |s: &mut Searcher| {
        let t = s.think(color_of(to_play), budget);
        SearchReport {
            best: t
                .best
                .map(|i| s.pos.point(i))
                .or_else(|| fallback(board, to_play, rule)),
            score: t.score,
            depth: t.depth,
            nodes: s.nodes,
            table_bytes: s.table_bytes(),
        }
    };
    // A clocked Expert search carries its hash tables over to the next
    // move; a node-limited one stays reproducible.
    if settings.keep_tables && limits.nodes.is_none() {
        with_kept_searcher(pos, settings, seed, search)
    } else {
        search(&mut Searcher::new(pos, settings, seed))
    }
}

/// Victory by continuous fours for `attacker` (to move), within
/// `max_nodes`: the whole line (attacker and defender moves alternating,
/// ending with the attacker's five or unstoppable four), or `None`.
pub fn find_vcf(board: &Board, attacker: Stone, rule: Rule, max_nodes: u64) -> Option<Vec<Point>> {
    let pos = Pos::from_board(board, rule);
    let mut s = Searcher::new(pos, Settings::EXPERT, 0);
    if s.vcf_root(color_of(attacker), 60, max_nodes) {
        Some(s.vcf_line.iter().map(|&i| s.pos.point(i)).collect())
    } else {
        None
    }
}

/// Victory by continuous threats (fours and open threes, VCF included)
/// for `attacker` (to move), at most `depth` threats deep within
/// `max_nodes`: the first move, or `None`. The defences tried are a
/// superset of the real ones, so a found win is very likely, not proven.
pub fn find_vct(
    board: &Board,
    attacker: Stone,
    rule: Rule,
    depth: i32,
    max_nodes: u64,
) -> Option<Point> {
    let pos = Pos::from_board(board, rule);
    let mut s = Searcher::new(pos, Settings::EXPERT, 0);
    s.vct_root(color_of(attacker), depth, max_nodes)
        .map(|i| s.pos.point(i))
}

/// The shortest VCF for `attacker`, by iterative deepening of the solver
/// up to `max_depth` fours before the winning move: the whole line (as
/// [`find_vcf`]). `None` when there is none that short, or when some
/// shallower depth could not be searched exhaustively within `max_nodes`
/// (so a returned line is proven shortest).
pub fn shortest_vcf(
    board: &Board,
    attacker: Stone,
    rule: Rule,
    max_depth: i32,
    max_nodes: u64,
) -> Option<Vec<Point>> {
    let pos = Pos::from_board(board, rule);
    let mut s = Searcher::new(pos, Settings::EXPERT, 0);
    for d in 0..=max_depth {
        if s.vcf_root(color_of(attacker), d, max_nodes) {
            return Some(s.vcf_line.iter().map(|&i| s.pos.point(i)).collect());
        }
        if s.vcf_aborted() {
            return None;
        }
    }
    None
}

/// The fewest attacker fours (not counting the winning open four, double
/// four or five) of a VCF for `attacker`; see [`shortest_vcf`].
pub fn vcf_min_fours(
    board: &Board,
    attacker: Stone,
    rule: Rule,
    max_depth: i32,
    max_nodes: u64,
) -> Option<usize> {
    shortest_vcf(board, attacker, rule, max_depth, max_nodes).map(|l| l.len().div_ceil(2) - 1)
}

/// The Gomoku AI's generator for `seed`: its own salt, so that a seed gives
/// the Gomoku levels a different stream from the Backgammon tools'.
pub(crate) fn seeded_rng(seed: u64) -> Rng {
    Rng::from_state(seed ^ 0x5DEE_CE66_D1CE_5EED)
}

/// Is `p` a legal point for `stone` (empty; not renju-forbidden for black)?
fn legal(board: &Board, p: Point, stone: Stone, rule: Rule) -> bool {
    board.is_empty_at(p)
        && !(rule == Rule::Renju && stone == Stone::Black && renju::is_forbidden(board, p))
}

/// The legal empty point closest to the centre.
fn fallback(board: &Board, stone: Stone, rule: Rule) -> Option<Point> {
    let c = i32::from(board.size()) / 2;
    board
        .points()
        .filter(|&p| legal(board, p, stone, rule))
        .min_by_key(|p| {
            let (dx, dy) = (i32::from(p.x) - c, i32::from(p.y) - c);
            (dx.abs().max(dy.abs()), dx.abs() + dy.abs())
        })
}

/// Three-stone swap2 openings (black, white, black) as offsets from the
/// centre: spread out so neither side is clearly winning.
const OPENINGS: [[(i8, i8); 3]; 8] = [
    [(0, 0), (2, 0), (1, 2)],
    [(0, 0), (1, 1), (-1, 2)],
    [(0, 0), (-2, 1), (2, 2)],
    [(0, 0), (0, 2), (3, 1)],
    [(0, 0), (2, -1), (-1, -2)],
    [(0, 0), (1, 2), (3, 0)],
    [(0, 0), (-1, 1), (1, 3)],
    [(0, 0), (3, 0), (1, 1)],
];

fn offset(board: &Board, (dx, dy): (i8, i8)) -> Option<Point> {
    let c = i32::from(board.size()) / 2;
    let (x, y) = (c + i32::from(dx), c + i32::from(dy));
    let p = Point::new(u8::try_from(x).ok()?, u8::try_from(y).ok()?);
    board.contains(p).then_some(p)
}

/// The next of the three swap2 opening stones.
fn opening_stone(board: &Board, seed: u64) -> Point {
    let placed = board.stone_count();
    let start = seeded_rng(seed).below_rem(OPENINGS.len() as u64) as usize;
    for k in 0..OPENINGS.len() {
        let shape = &OPENINGS[(start + k) % OPENINGS.len()];
        let prefix_ok = shape.iter().take(placed).enumerate().all(|(j, &o)| {
            let want = if j % 2 == 0 {
                Stone::Black
            } else {
                Stone::White
            };
            offset(board, o).is_some_and(|p| board.get(p) == Some(want))
        });
        if prefix_ok
            && let Some(&o) = shape.get(placed)
            && let Some(p) = offset(board, o)
            && board.is_empty_at(p)
        {
            return p;
        }
    }
    let stone = if placed.is_multiple_of(2) {
        Stone::Black
    } else {
        Stone::White
    };
    fallback(board, stone, Rule::Freestyle).unwrap_or(Point::new(0, 0))
}

/// Score of a short Expert search for `to_play`.
fn quick_score(board: &Board, to_play: Stone, rule: Rule, limits: Limits, seed: u64) -> i32 {
    let limits = Limits {
        nodes: Some(limits.nodes.unwrap_or(60_000).min(60_000)),
        ..limits
    };
    expert_search(board, to_play, rule, limits, seed).score
}

fn swap_choice(
    level: Level,
    board: &Board,
    rule: Rule,
    limits: Limits,
    seed: u64,
    first_choice: bool,
) -> Swap2Choice {
    if level == Level::Beginner {
        let mut rng = seeded_rng(seed);
        return match rng.below_rem(if first_choice { 3 } else { 2 }) {
            0 => Swap2Choice::PlayWhite,
            1 => Swap2Choice::PlayBlack,
            _ => Swap2Choice::PlaceTwo,
        };
    }
    // White is to move after three or five stones.
    let s = quick_score(board, Stone::White, rule, limits.scaled(1, 2), seed);
    if s >= 0 {
        Swap2Choice::PlayWhite
    } else {
        Swap2Choice::PlayBlack
    }
}

/// Swap2 "place two": white's best move, then the most balancing black
/// stone.
fn place_two_stone(
    level: Level,
    board: &Board,
    stone: Stone,
    rule: Rule,
    limits: Limits,
    seed: u64,
) -> Point {
    if stone == Stone::White || level == Level::Beginner {
        return best_move(level, board, stone, rule, limits.scaled(1, 2), seed)
            .or_else(|| fallback(board, stone, rule))
            .unwrap_or(Point::new(0, 0));
    }
    let mut pos = Pos::from_board(board, rule);
    let mut s = Searcher::new(pos.clone(), Settings::EXPERT, seed);
    let cands: Vec<usize> = match s.generate(0) {
        search::Node::Moves(ms, _) => ms.into_iter().take(8).map(|m| m.0).collect(),
        _ => Vec::new(),
    };
    let mut best: Option<(i32, usize)> = None;
    for i in cands {
        if pos.forbidden(0, i) {
            continue;
        }
        pos.make(i, 0);
        let e = pos.eval(1, eval::Evaluation::Linear(&eval::FITTED)).abs();
        pos.unmake(i, 0);
        if best.is_none_or(|(b, _)| e < b) {
            best = Some((e, i));
        }
    }
    match best {
        Some((_, i)) => pos.point(i),
        None => fallback(board, stone, rule).unwrap_or(Point::new(0, 0)),
    }
}

/// [`find_vct`], also returning the nodes the search visited (the VCT
/// benchmark's measure of its cost).
pub fn find_vct_counted(
    board: &Board,
    attacker: Stone,
    rule: Rule,
    depth: i32,
    max_nodes: u64,
) -> (Option<Point>, u64) {
    let pos = Pos::from_board(board, rule);
    let mut s = Searcher::new(pos, Settings::EXPERT, 0);
    let found = s.vct_root(color_of(attacker), depth, max_nodes);
    (found.map(|i| s.pos.point(i)), s.nodes)
}
