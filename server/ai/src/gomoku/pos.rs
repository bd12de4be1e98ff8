//! The search position: a padded board with incremental line patterns,
//! pattern-sum evaluation, neighbourhood counts and a Zobrist hash, all
//! kept up to date by [`Pos::make`] / [`Pos::unmake`].
//!
//! For every empty cell, colour and direction the position stores the line
//! key (see [`super::pattern`]) and its [`Pat`]. Placing or removing a
//! stone touches the keys of the (at most) 40 cells within five steps along
//! its four lines, re-reads their patterns from the table and adjusts:
//! * `count[c][pat]`: how many (cell, direction) pairs of colour `c` have
//!   each pattern (so "does black have a five-point?" is O(1));
//! * `codes[c][cell]`: the cell's pattern code ([`super::pcode`]), with
//!   `combo_count[c][class]` (how many cells combine their four directions
//!   into each class, see [`super::eval`]) and `code_sum`, the cells' code
//!   values summed for the Expert's evaluation.
//!
//! The evaluation ([`Pos::eval`]) reads those counts or that sum. The
//! threat searches place their stones with [`Pos::make_threat`], which
//! keeps only the patterns and their counts.

use tabula_shared::gomoku::{Board, Point, Rule, Stone, renju};

use super::eval::{self, Evaluation, NFEATURES, WAITER, combo};
use super::pattern::{self, B4, DEAD, F3, F4, FIVE, NPAT, OVERLINE, POW3, Pat, key_pos};
use super::pcode;
use crate::rng::Rng;

/// Padding on each side (the pattern window reaches five cells).
const PAD: usize = 5;
/// Cell contents.
pub(crate) const EMPTY: u8 = 0;
const WALL: u8 = 3;

/// Value of one (empty cell, direction) pattern for move ordering.
pub(crate) const PAT_VALUE: [i32; NPAT] = [0, 1, 3, 4, 12, 10, 40, 30, 120, 300, 0];

/// Colour index: 0 black, 1 white.
pub(crate) type Color = usize;

/// Colour index of a stone.
pub(crate) fn color_of(s: Stone) -> Color {
    match s {
        Stone::Black => 0,
        Stone::White => 1,
    }
}

/// Stone of a colour index.
pub(crate) fn stone_of(c: Color) -> Stone {
    if c == 0 { Stone::Black } else { Stone::White }
}

/// Threat class of a cell for one colour (combining its four directions).
pub(crate) mod class {
    /// Nothing special.
    pub const NONE: u8 = 0;
    /// An open three (one direction `F3`).
    pub const F3: u8 = 3;
    /// Two open threes.
    pub const F3F3: u8 = 4;
    /// One four.
    pub const B4: u8 = 5;
    /// A four and an open three.
    pub const B4F3: u8 = 6;
    /// An open four or two fours: wins unless the opponent has a five.
    pub const F4: u8 = 7;
    /// Completes five.
    pub const FIVE: u8 = 8;
}

/// The threat class ([`class`]) of a cell whose four directions have
/// `pats`.
#[inline]
pub(crate) fn class_of(pats: &[Pat; 4]) -> u8 {
    let mut b4 = 0;
    let mut f3 = 0;
    let mut f4 = false;
    for &x in pats {
        match x {
            FIVE => return class::FIVE,
            F4 => f4 = true,
            B4 => b4 += 1,
            F3 => f3 += 1,
            _ => {}
        }
    }
    if f4 || b4 >= 2 {
        class::F4
    } else if b4 == 1 && f3 >= 1 {
        class::B4F3
    } else if b4 == 1 {
        class::B4
    } else if f3 >= 2 {
        class::F3F3
    } else if f3 == 1 {
        class::F3
    } else {
        class::NONE
    }
}

/// The search position.
#[derive(Clone)]
pub(crate) struct Pos {
    /// Board side.
    pub n: usize,
    /// Row stride.
    pub w: usize,
    /// Cell contents (0 empty, 1 black, 2 white, 3 wall).
    pub cells: Vec<u8>,
    /// Line keys per cell and direction, both colours' in one word: black's
    /// in the low 16 bits, white's in the high 16 (see [`Pos::key`]).
    keys: Vec<[u32; 4]>,
    /// Patterns per colour, cell and direction (`DEAD` on occupied cells).
    pub pat: [Vec<[Pat; 4]>; 2],
    /// Pattern counts per colour.
    pub count: [[u32; NPAT]; 2],
    /// Combination class counts per colour.
    pub combo_count: [[u32; combo::N]; 2],
    /// Pattern code per colour and cell ([`pcode::DEAD`] on occupied cells).
    codes: [Vec<u16>; 2],
    /// Per colour, the sum over its cells' codes of the mover's weight
    /// (`[c][0]`) and of the waiter's (`[c][1]`).
    code_sum: [[i32; 2]; 2],
    code_table: &'static [u16],
    /// The combination class of each code.
    code_combos: &'static [u8],
    code_weights: &'static pcode::Weights,
    /// Stones within the 5x5 square around each cell.
    pub near: Vec<u8>,
    /// Zobrist hash of the stones.
    pub hash: u64,
    zobrist: [Vec<u64>; 2],
    /// Direction offsets `[1, w, w + 1, w - 1]`.
    pub offs: [usize; 4],
    tables: [&'static [u8]; 2],
    /// The rule.
    pub rule: Rule,
    /// Mirror board for the renju forbidden test (renju only).
    board: Option<Board>,
    /// Stones placed, in order.
    pub stones: Vec<usize>,
    /// Threat-search stones on the board ([`Pos::make_threat`]).
    threat_moves: u32,
}

impl Pos {
    /// A position with the stones of `board`.
    pub fn from_board(board: &Board, rule: Rule) -> Pos {
        let n = usize::from(board.size());
        let w = n + PAD;
        let len = w * (n + 2 * PAD + 1);
        let mut cells = vec![WALL; len];
        for y in 0..n {
            for x in 0..n {
                cells[(y + PAD) * w + x + PAD] = EMPTY;
            }
        }
        let exact_black = matches!(rule, Rule::Standard | Rule::Renju);
        let exact_white = rule == Rule::Standard;
        let mut rng = Rng::from_state(0x7AB0_1A00_5EED);
        let zobrist = [
            (0..len).map(|_| rng.next_u64()).collect(),
            (0..len).map(|_| rng.next_u64()).collect(),
        ];
        let mut pos = Pos {
            n,
            w,
            cells,
            keys: vec![[0; 4]; len],
            pat: [vec![[DEAD; 4]; len], vec![[DEAD; 4]; len]],
            count: [[0; NPAT]; 2],
            combo_count: [[0; combo::N]; 2],
            codes: [vec![pcode::DEAD; len], vec![pcode::DEAD; len]],
            code_sum: [[0; 2]; 2],
            code_table: pcode::table(),
            code_combos: pcode::combos(),
            code_weights: pcode::fitted(),
            near: vec![0; len],
            hash: 0,
            zobrist,
            offs: [1, w, w + 1, w - 1],
            tables: [pattern::table(exact_black), pattern::table(exact_white)],
            rule,
            board: (rule == Rule::Renju)
                .then(|| Board::new(board.size()).ok())
                .flatten(),
            stones: Vec::new(),
            threat_moves: 0,
        };
        // Keys from scratch for the (wall-only) empty board.
        for i in pos.on_board() {
            for d in 0..4 {
                let off = pos.offs[d];
                for k in 1..=5i32 {
                    for (sign, kk) in [(1i64, k), (-1i64, -k)] {
                        let j = (i as i64 + sign * i64::from(k) * off as i64) as usize;
                        if pos.cells[j] == WALL {
                            let p = u32::from(POW3[key_pos(kk)]);
                            pos.keys[i][d] += 2 * p + ((2 * p) << 16);
                        }
                    }
                }
            }
        }
        for i in pos.on_board() {
            for c in 0..2 {
                for d in 0..4 {
                    let p = pos.tables[c][pos.key(c, i, d)];
                    pos.pat[c][i][d] = p;
                    pos.count[c][usize::from(p)] += 1;
                }
                let code = pcode::of(&pos.pat[c][i]);
                pos.codes[c][i] = code;
                let k = pos.code_combos[usize::from(code)];
                pos.combo_count[c][usize::from(k)] += 1;
                for role in 0..2 {
                    pos.code_sum[c][role] += pos.code_weights[role][usize::from(code)];
                }
            }
        }
        for (p, s) in board.stones() {
            if let Some(i) = pos.index(p) {
                pos.make(i, color_of(s));
            }
        }
        pos
    }

    /// Indexes of all on-board cells, row by row.
    pub fn on_board(&self) -> impl Iterator<Item = usize> + use<> {
        let (n, w) = (self.n, self.w);
        (0..n).flat_map(move |y| (0..n).map(move |x| (y + PAD) * w + x + PAD))
    }

    /// Index of a point (None off the board).
    pub fn index(&self, p: Point) -> Option<usize> {
        let (x, y) = (usize::from(p.x), usize::from(p.y));
        (x < self.n && y < self.n).then(|| (y + PAD) * self.w + x + PAD)
    }

    /// Point of an on-board index.
    pub fn point(&self, i: usize) -> Point {
        let x = i % self.w - PAD;
        let y = i / self.w - PAD;
        Point::new(x as u8, y as u8)
    }

    /// Places a stone of colour `c` on the empty cell `i`.
    pub fn make(&mut self, i: usize, c: Color) {
        debug_assert_eq!(self.threat_moves, 0, "a full move inside a threat search");
        self.place::<true>(i, c);
    }

    /// Removes the stone of colour `c` from `i` (the reverse of `make`).
    pub fn unmake(&mut self, i: usize, c: Color) {
        self.lift::<true>(i, c);
    }

    /// [`Pos::make`] for the threat searches (VCF, VCT): keeps the cells,
    /// hash, neighbourhoods, patterns and pattern counts, and leaves the
    /// codes, combination counts and evaluation sums as they were. The
    /// threat searches read only patterns (a cell's code through
    /// [`Pos::code`], which reads its patterns) and take back every stone
    /// they place with [`Pos::unmake_threat`], which restores the patterns
    /// and so makes the untouched codes and sums right again. The threat
    /// searches take most of the Expert's time, and skipping the codes
    /// makes its search about 1.6 times as fast.
    pub fn make_threat(&mut self, i: usize, c: Color) {
        self.threat_moves += 1;
        self.place::<false>(i, c);
    }

    /// Takes back a [`Pos::make_threat`].
    pub fn unmake_threat(&mut self, i: usize, c: Color) {
        self.lift::<false>(i, c);
        self.threat_moves -= 1;
    }

    /// Places a stone; `FULL` also updates the codes and their sums.
    fn place<const FULL: bool>(&mut self, i: usize, c: Color) {
        debug_assert_eq!(self.cells[i], EMPTY);
        self.cells[i] = c as u8 + 1;
        self.hash ^= self.zobrist[c][i];
        self.stones.push(i);
        if let Some(b) = self.board.as_mut() {
            let x = i % self.w - PAD;
            let y = i / self.w - PAD;
            let _ = b.place(Point::new(x as u8, y as u8), stone_of(c));
        }
        self.update_near(i, true);
        for cc in 0..2 {
            for d in 0..4 {
                self.set_pat::<FULL>(cc, i, d, DEAD);
            }
        }
        self.update_lines::<FULL>(i, c, true);
    }

    /// Removes a stone (the reverse of [`Pos::place`]).
    fn lift<const FULL: bool>(&mut self, i: usize, c: Color) {
        self.cells[i] = EMPTY;
        self.hash ^= self.zobrist[c][i];
        self.stones.pop();
        if let Some(b) = self.board.as_mut() {
            let x = i % self.w - PAD;
            let y = i / self.w - PAD;
            b.remove(Point::new(x as u8, y as u8));
        }
        self.update_near(i, false);
        self.update_lines::<FULL>(i, c, false);
        for cc in 0..2 {
            for d in 0..4 {
                let p = self.tables[cc][self.key(cc, i, d)];
                self.set_pat::<FULL>(cc, i, d, p);
            }
        }
    }

    fn update_near(&mut self, i: usize, add: bool) {
        for dy in 0..5usize {
            let row = i + dy * self.w - 2 * self.w;
            for dx in 0..5usize {
                let j = row + dx - 2;
                if add {
                    self.near[j] += 1;
                } else {
                    self.near[j] -= 1;
                }
            }
        }
    }

    /// Sets a (cell, direction) pattern and its count; `FULL` also the
    /// cell's code and what is summed from it.
    #[inline]
    fn set_pat<const FULL: bool>(&mut self, c: Color, i: usize, d: usize, p: Pat) {
        let old = self.pat[c][i][d];
        if old != p {
            self.count[c][usize::from(old)] -= 1;
            self.count[c][usize::from(p)] += 1;
            self.pat[c][i][d] = p;
            if !FULL {
                return;
            }
            // (An overline point turning dead keeps its code: nothing moves.)
            let code = pcode::lookup(self.code_table, &self.pat[c][i]);
            let was = std::mem::replace(&mut self.codes[c][i], code);
            let (code, was) = (usize::from(code), usize::from(was));
            for role in 0..2 {
                let w = &self.code_weights[role];
                self.code_sum[c][role] += w[code] - w[was];
            }
            let (k, was_k) = (self.code_combos[code], self.code_combos[was]);
            if k != was_k {
                self.combo_count[c][usize::from(was_k)] -= 1;
                self.combo_count[c][usize::from(k)] += 1;
            }
        }
    }

    /// Colour `c`'s line key of cell `i` in direction `d`.
    #[inline]
    fn key(&self, c: Color, i: usize, d: usize) -> usize {
        ((self.keys[i][d] >> (16 * c)) & 0xFFFF) as usize
    }

    /// Adds (or takes back) a stone of colour `c` at `i` in the keys of the
    /// cells within five steps along its four lines, and re-reads the
    /// patterns of the empty ones. A stone is digit 1 in its own colour's
    /// key and 2 in the other's, so one add updates both keys. Beyond the
    /// first wall a line only meets walls (the padding is five wide), whose
    /// keys are never read.
    fn update_lines<const FULL: bool>(&mut self, i: usize, c: Color, add: bool) {
        let digits: u32 = if c == 0 { 1 + (2 << 16) } else { 2 + (1 << 16) };
        for d in 0..4 {
            let off = self.offs[d];
            for fwd in [true, false] {
                for k in 1..=5usize {
                    let j = if fwd { i + k * off } else { i - k * off };
                    let cell = self.cells[j];
                    if cell == WALL {
                        break;
                    }
                    // `i` is at relative position -k (seen from j) when j is ahead.
                    let rel = if fwd { -(k as i32) } else { k as i32 };
                    let delta = digits * u32::from(POW3[key_pos(rel)]);
                    let key = &mut self.keys[j][d];
                    if add {
                        *key += delta;
                    } else {
                        *key -= delta;
                    }
                    if cell == EMPTY {
                        let key = *key as usize;
                        let p0 = self.tables[0][key & 0xFFFF];
                        let p1 = self.tables[1][key >> 16];
                        self.set_pat::<FULL>(0, j, d, p0);
                        self.set_pat::<FULL>(1, j, d, p1);
                    }
                }
            }
        }
    }

    /// The evaluation's features for `me` to move (see [`super::eval`]).
    pub fn features(&self, me: Color) -> [u32; NFEATURES] {
        let mut f = [0; NFEATURES];
        for (side, c) in [(0, me), (WAITER, 1 - me)] {
            for p in 0..NPAT {
                f[side + eval::pat_feature(p)] = self.count[c][p];
            }
            for k in 0..combo::N {
                f[side + eval::combo_feature(k)] = self.combo_count[c][k];
            }
        }
        f
    }

    /// How many empty cells have each pattern code ([`super::pcode`]) for
    /// `me` (feature `code`) and for the other side (`pcode::N + code`),
    /// all-dead cells left out: the features of the code table's fit.
    #[cfg(any(test, feature = "tuning"))]
    pub fn code_counts(&self, me: Color) -> Vec<(u16, u16)> {
        let mut counts = vec![0u16; 2 * pcode::N];
        for (side, c) in [(0, me), (pcode::N, 1 - me)] {
            for &code in &self.codes[c] {
                if code != pcode::DEAD {
                    counts[side + usize::from(code)] += 1;
                }
            }
        }
        counts
            .into_iter()
            .enumerate()
            .filter(|&(_, n)| n > 0)
            .map(|(f, n)| (f as u16, n))
            .collect()
    }

    /// Evaluates by the code table `w` from now on (tests).
    #[cfg(test)]
    fn use_code_weights(&mut self, w: &'static pcode::Weights) {
        self.code_weights = w;
        for (codes, sums) in self.codes.iter().zip(self.code_sum.iter_mut()) {
            for (values, sum) in w.iter().zip(sums.iter_mut()) {
                *sum = codes.iter().map(|&code| values[usize::from(code)]).sum();
            }
        }
    }

    /// Static evaluation for `me` to move by the pattern-code table: the
    /// mover's cells at the mover's values, the other side's at the
    /// waiter's.
    #[inline]
    pub fn eval_codes(&self, me: Color) -> i32 {
        (self.code_sum[me][0] + self.code_sum[1 - me][1]) / eval::SCALE
    }

    /// Static evaluation for `me` to move.
    pub fn eval(&self, me: Color, evaluation: Evaluation) -> i32 {
        match evaluation {
            Evaluation::Linear(weights) => eval::value(&self.features(me), weights),
            Evaluation::CodeTable => self.eval_codes(me),
        }
    }

    /// The threat class of empty cell `i` for colour `c`.
    #[inline]
    pub fn class(&self, c: Color, i: usize) -> u8 {
        class_of(&self.pat[c][i])
    }

    /// The pattern code ([`pcode`]) of cell `i` for colour `c`
    /// ([`pcode::DEAD`] on an occupied cell), read from its patterns so
    /// that it is right inside a threat search too.
    #[inline]
    pub fn code(&self, c: Color, i: usize) -> u16 {
        pcode::lookup(self.code_table, &self.pat[c][i])
    }

    /// Does colour `c` make a four (or better) in some direction at `i`?
    #[inline]
    pub fn is_four(&self, c: Color, i: usize) -> bool {
        self.pat[c][i]
            .iter()
            .any(|&p| p == B4 || p == F4 || p == FIVE)
    }

    /// How many (empty cell, direction) pairs make a four (not five) for
    /// colour `c`: zero when it has no four to make.
    #[inline]
    pub fn fours_to_make(&self, c: Color) -> u32 {
        self.count[c][usize::from(B4)] + self.count[c][usize::from(F4)]
    }

    /// In how many directions colour `c` makes a four (not five) at `i`.
    #[inline]
    pub fn fours_at(&self, c: Color, i: usize) -> u32 {
        self.pat[c][i]
            .iter()
            .map(|&p| u32::from(p == B4 || p == F4))
            .sum()
    }

    /// Would a stone of colour `c` on empty cell `i` be illegal (renju black
    /// forbidden point)? Cheap pattern pre-filter, then the exact rule test.
    pub fn forbidden(&mut self, c: Color, i: usize) -> bool {
        if c != 0 || self.rule != Rule::Renju {
            return false;
        }
        let p = self.pat[0][i];
        if p.contains(&FIVE) {
            return false;
        }
        let threats = p.iter().filter(|&&x| x == F3 || x == B4 || x == F4).count();
        if !(p.contains(&OVERLINE) || p.contains(&F4) || threats >= 2) {
            return false;
        }
        let pt = self.point(i);
        match self.board.as_mut() {
            Some(b) => renju::is_forbidden_in_place(b, pt),
            None => false,
        }
    }

    /// The empty cells on the four lines through `i` (within four steps)
    /// where colour `c` would make five.
    pub fn five_points_near(&self, c: Color, i: usize, out: &mut Vec<usize>) {
        out.clear();
        for d in 0..4 {
            let off = self.offs[d];
            for k in 1..=4usize {
                for j in [i + k * off, i - k * off] {
                    if self.cells[j] == EMPTY && self.pat[c][j][d] == FIVE && !out.contains(&j) {
                        out.push(j);
                    }
                }
            }
        }
    }

    /// All empty cells where colour `c` would make five.
    pub fn five_points(&self, c: Color, out: &mut Vec<usize>) {
        out.clear();
        if self.count[c][usize::from(FIVE)] == 0 {
            return;
        }
        for i in self.on_board() {
            if self.cells[i] == EMPTY && self.pat[c][i].contains(&FIVE) {
                out.push(i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_matches_scratch() {
        let b = Board::new(15).unwrap();
        let mut pos = Pos::from_board(&b, Rule::Freestyle);
        let fresh = pos.clone();
        let mut rng = Rng::from_state(5);
        let mut placed = Vec::new();
        for k in 0..60 {
            let x = (rng.next_u64() % 15) as u8;
            let y = (rng.next_u64() % 15) as u8;
            let i = pos.index(Point::new(x, y)).unwrap();
            if pos.cells[i] == EMPTY {
                pos.make(i, k % 2);
                placed.push((i, k % 2));
            }
        }
        // Compare with a position built from scratch.
        let mut board = Board::new(15).unwrap();
        for &(i, c) in &placed {
            board.place(pos.point(i), stone_of(c)).unwrap();
        }
        assert_same(&Pos::from_board(&board, Rule::Freestyle), &pos);
        for &(i, c) in placed.iter().rev() {
            pos.unmake(i, c);
        }
        assert_same(&fresh, &pos);
    }

    /// Everything the position keeps up to date is the same in `a` and `b`.
    fn assert_same(a: &Pos, b: &Pos) {
        assert_eq!(a.pat, b.pat);
        assert_eq!(a.count, b.count);
        assert_eq!(a.codes, b.codes);
        assert_eq!(a.combo_count, b.combo_count);
        assert_eq!(a.code_sum, b.code_sum);
        assert_eq!(a.hash, b.hash);
        assert_eq!(a.near, b.near);
    }

    /// Threat-search stones keep the patterns, their counts and the codes
    /// read through [`Pos::code`] as a full move does, and taking them
    /// back leaves the position as it was, sums included.
    #[test]
    fn threat_moves_keep_patterns_and_undo_exactly() {
        let mut rng = Rng::from_state(11);
        let mut board = Board::new(15).unwrap();
        let mut pos = Pos::from_board(&board, Rule::Freestyle);
        let random_empty = |pos: &Pos, rng: &mut Rng| loop {
            let p = Point::new((rng.next_u64() % 15) as u8, (rng.next_u64() % 15) as u8);
            let i = pos.index(p).unwrap();
            if pos.cells[i] == EMPTY {
                return i;
            }
        };
        for k in 0..30 {
            let i = random_empty(&pos, &mut rng);
            pos.make(i, k % 2);
            board.place(pos.point(i), stone_of(k % 2)).unwrap();
        }
        let before = pos.clone();
        let mut threat = Vec::new();
        for k in 0..12 {
            let i = random_empty(&pos, &mut rng);
            pos.make_threat(i, k % 2);
            board.place(pos.point(i), stone_of(k % 2)).unwrap();
            threat.push((i, k % 2));
        }
        let scratch = Pos::from_board(&board, Rule::Freestyle);
        assert_eq!(scratch.pat, pos.pat);
        assert_eq!(scratch.count, pos.count);
        assert_eq!(scratch.near, pos.near);
        assert_eq!(scratch.hash, pos.hash);
        for i in pos.on_board() {
            for c in 0..2 {
                assert_eq!(scratch.code(c, i), pos.code(c, i));
            }
        }
        for &(i, c) in threat.iter().rev() {
            pos.unmake_threat(i, c);
        }
        assert_same(&before, &pos);
    }

    /// A linear model's code table ([`pcode::weights_of`]) is that model
    /// cell by cell: both read the same value in every position of random
    /// games, for both sides to move and under every rule; and the code
    /// counts are what the table sums.
    #[test]
    fn a_linear_models_code_table_values_positions_as_the_model() {
        let table: &'static pcode::Weights = Box::leak(pcode::weights_of(&eval::FITTED));
        let mut rng = Rng::from_state(9);
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            for _ in 0..20 {
                let mut pos = Pos::from_board(&Board::new(15).unwrap(), rule);
                pos.use_code_weights(table);
                for k in 0..80 {
                    let i = pos
                        .index(Point::new(
                            (rng.next_u64() % 15) as u8,
                            (rng.next_u64() % 15) as u8,
                        ))
                        .unwrap();
                    if pos.cells[i] != EMPTY {
                        continue;
                    }
                    pos.make(i, k % 2);
                    for me in 0..2 {
                        assert_eq!(
                            pos.eval(me, Evaluation::CodeTable),
                            pos.eval(me, Evaluation::Linear(&eval::FITTED))
                        );
                        let summed: i32 = pos
                            .code_counts(me)
                            .iter()
                            .map(|&(f, n)| {
                                let (side, code) =
                                    (usize::from(f) / pcode::N, usize::from(f) % pcode::N);
                                table[side][code] * i32::from(n)
                            })
                            .sum();
                        assert_eq!(summed / eval::SCALE, pos.eval(me, Evaluation::CodeTable));
                    }
                }
            }
        }
    }
}
