//! Renju forbidden points for black (RIF definition, see the module docs of
//! [`crate::gomoku`]).
//!
//! All functions are pure with respect to the board they are given:
//! [`is_forbidden`] and [`forbidden_points`] work on a private copy,
//! [`is_forbidden_in_place`] uses the caller's board as scratch space and
//! leaves it exactly as it found it.

use super::board::{BLACK, Board, EMPTY};
use super::{Point, Stone};

/// How deep the "is the four-making point itself forbidden?" recursion goes
/// before a candidate three is simply accepted as real. Real games never get
/// near this; it only bounds the work on artificial boards.
pub const MAX_DEPTH: u8 = 6;

/// Would a black stone on `p` be a forbidden move (overline, double-four or
/// double-three) on this board?
///
/// `false` when `p` is occupied or off the board, and always `false` for a
/// move that makes exactly five. Does not modify `board`.
pub fn is_forbidden(board: &Board, p: Point) -> bool {
    let Some(i) = board.index_of(p) else {
        return false;
    };
    if board.cell(i) != EMPTY || !enough_black_nearby(board, i) {
        return false;
    }
    let mut scratch = board.clone();
    forbidden_at(&mut scratch, i, 0)
}

/// Same as [`is_forbidden`] but uses `board` as scratch space instead of
/// cloning it (for search loops). The board is restored before returning.
pub fn is_forbidden_in_place(board: &mut Board, p: Point) -> bool {
    match board.index_of(p) {
        Some(i) => forbidden_at(board, i, 0),
        None => false,
    }
}

/// Every empty point where black may not play, row by row.
pub fn forbidden_points(board: &Board) -> Vec<Point> {
    let mut scratch = board.clone();
    board
        .points()
        .filter(|&p| is_forbidden_in_place(&mut scratch, p))
        .collect()
}

/// What a black stone at a given index does along one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineShape {
    /// Nothing relevant (or a three/four not created by this stone).
    None,
    /// Exactly five in a row.
    Five,
    /// Six or more in a row.
    Overline,
    /// One four (including a straight four `.XXXX.`).
    Four,
    /// Two fours on the same line (`X.XXX.X`, `XX.XX.XX`, `XXX.X.XXX`).
    DoubleFour,
}

/// Fast, non-recursive necessary condition: any forbidden shape needs at least
/// four other black stones within five steps along the lines through `i`.
fn enough_black_nearby(b: &Board, i: usize) -> bool {
    let mut n = 0;
    for off in b.offsets() {
        for k in 1..=5 {
            match b.cell(i + k * off) {
                BLACK => n += 1,
                EMPTY => {}
                _ => break,
            }
        }
        for k in 1..=5 {
            match b.cell(i - k * off) {
                BLACK => n += 1,
                EMPTY => {}
                _ => break,
            }
        }
    }
    n >= 4
}

/// Number of consecutive black cells starting one step from `i` in the
/// direction `+off` (`forward`) or `-off`.
#[inline]
fn count(b: &Board, i: usize, off: usize, forward: bool) -> usize {
    let mut n = 0;
    let mut j = i;
    loop {
        j = if forward { j + off } else { j - off };
        if b.cell(j) != BLACK {
            return n;
        }
        n += 1;
    }
}

/// Step `k` cells from `i` along `off`, forward or backward.
#[inline]
fn step(i: usize, off: usize, k: usize, forward: bool) -> usize {
    if forward { i + k * off } else { i - k * off }
}

/// Classifies the line through `i` (which holds black) along `off` as far
/// as fives and fours are concerned.
fn line_shape(b: &Board, i: usize, off: usize) -> LineShape {
    let back = count(b, i, off, false);
    let fwd = count(b, i, off, true);
    let run = back + fwd + 1;
    if run == 5 {
        return LineShape::Five;
    }
    if run > 5 {
        return LineShape::Overline;
    }
    // A four made by this stone is completed by the first cell past the run
    // on one side: every cell between it and `i` must be black.
    let mut fours = 0;
    for forward in [false, true] {
        let near = if forward { fwd } else { back };
        let gap = step(i, off, near + 1, forward);
        if b.cell(gap) == EMPTY && run + 1 + count(b, gap, off, forward) == 5 {
            fours += 1;
        }
    }
    match fours {
        0 => LineShape::None,
        // Both completions of a contiguous four are one straight four.
        2 if run == 4 => LineShape::Four,
        1 => LineShape::Four,
        _ => LineShape::DoubleFour,
    }
}

/// The (at most two) points that would turn the black shape through `i`
/// along `off` into a straight four `.XXXX.` whose both ends complete exactly
/// five. Each is returned as an index; the caller still has to check that the
/// point is not itself forbidden.
fn straight_four_points(b: &Board, i: usize, off: usize) -> [Option<usize>; 2] {
    let back = count(b, i, off, false);
    let fwd = count(b, i, off, true);
    let mut out = [None, None];
    for (slot, forward) in [false, true].into_iter().enumerate() {
        let near = if forward { fwd } else { back };
        let far = if forward { back } else { fwd };
        let q = step(i, off, near + 1, forward);
        if b.cell(q) != EMPTY {
            continue;
        }
        let beyond = count(b, q, off, forward);
        if back + fwd + 1 + 1 + beyond != 4 {
            continue;
        }
        // Ends of the would-be four, and the cells just outside them.
        let end_f = step(q, off, beyond + 1, forward);
        let end_b = step(i, off, far + 1, !forward);
        if b.cell(end_f) == EMPTY
            && b.cell(end_b) == EMPTY
            && b.cell(step(end_f, off, 1, forward)) != BLACK
            && b.cell(step(end_b, off, 1, !forward)) != BLACK
        {
            out[slot] = Some(q);
        }
    }
    out
}

/// Is a black stone at index `i` forbidden? Uses `b` as scratch and restores
/// it.
fn forbidden_at(b: &mut Board, i: usize, depth: u8) -> bool {
    if b.cell(i) != EMPTY || !enough_black_nearby(b, i) {
        return false;
    }
    b.set_cell(i, BLACK);
    let r = forbidden_after_placing(b, i, depth);
    b.set_cell(i, EMPTY);
    r
}

/// The forbidden test proper, with the black stone already on `i`.
fn forbidden_after_placing(b: &mut Board, i: usize, depth: u8) -> bool {
    let offsets = b.offsets();
    let shapes = offsets.map(|off| line_shape(b, i, off));
    // A five always wins, whatever else the stone makes.
    if shapes.contains(&LineShape::Five) {
        return false;
    }
    if shapes.contains(&LineShape::Overline) {
        return true;
    }
    let fours: usize = shapes
        .iter()
        .map(|s| match s {
            LineShape::Four => 1,
            LineShape::DoubleFour => 2,
            _ => 0,
        })
        .sum();
    if fours >= 2 {
        return true;
    }
    // Threes: only lines that are not already fours. First collect the
    // candidates cheaply; the recursion is only needed when two lines have one.
    let mut candidates = [[None; 2]; 4];
    let mut lines = 0;
    for (d, off) in offsets.into_iter().enumerate() {
        if shapes[d] == LineShape::None {
            candidates[d] = straight_four_points(b, i, off);
            if candidates[d].iter().any(Option::is_some) {
                lines += 1;
            }
        }
    }
    if lines < 2 {
        return false;
    }
    let mut threes = 0;
    for cands in candidates {
        let real = cands
            .into_iter()
            .flatten()
            .any(|q| depth >= MAX_DEPTH || !forbidden_at(b, q, depth + 1));
        if real {
            threes += 1;
            if threes >= 2 {
                return true;
            }
        }
    }
    false
}

/// Line-by-line description of what a black stone on `p` would make, for
/// tools and AI evaluation: `None` when `p` is off the board or occupied.
pub fn black_shapes(board: &Board, p: Point) -> Option<[LineShape; 4]> {
    let i = board.index_of(p)?;
    if board.cell(i) != EMPTY {
        return None;
    }
    let mut b = board.clone();
    b.set_cell(i, Stone::Black.cell());
    Some(b.offsets().map(|off| line_shape(&b, i, off)))
}
