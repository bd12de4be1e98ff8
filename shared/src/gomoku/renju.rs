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

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a 15x15 board from a diagram (`rows[0]` is `y = 0`); a `*`
    /// marks the empty point under test, which is returned too.
    fn diagram(rows: &[&str]) -> (Board, Point) {
        let mut star = None;
        let clean: Vec<String> = rows
            .iter()
            .enumerate()
            .map(|(y, r)| {
                let cells: String = r.chars().filter(|c| *c != ' ').collect();
                if let Some(x) = cells.find('*') {
                    star = Some(Point::new(x as u8, y as u8));
                }
                cells.replace('*', ".")
            })
            .collect();
        let refs: Vec<&str> = clean.iter().map(String::as_str).collect();
        let board = Board::from_diagram(15, &refs).expect("valid diagram");
        (board, star.expect("diagram has a '*'"))
    }

    fn check(rows: &[&str], forbidden: bool) -> (Board, Point) {
        let (b, p) = diagram(rows);
        assert_eq!(is_forbidden(&b, p), forbidden, "point {p} on {b:?}");
        // The in-place variant agrees and leaves the board untouched.
        let mut scratch = b.clone();
        assert_eq!(is_forbidden_in_place(&mut scratch, p), forbidden);
        assert_eq!(scratch, b);
        assert_eq!(forbidden_points(&b).contains(&p), forbidden);
        (b, p)
    }

    #[test]
    fn simple_double_three_is_forbidden() {
        check(
            &[
                ". . . . . . . . . . .",
                ". . . . . . . . . . .",
                ". . . . . . . . . . .",
                ". . . . . X . . . . .",
                ". . . . . X . . . . .",
                ". . . X X * . . . . .",
            ],
            true,
        );
    }

    #[test]
    fn split_threes_count() {
        check(
            &[
                ". . . . . . . . . . .",
                ". . . . . . . . . . .",
                ". . . . . X . . . . .",
                ". . . . . X . . . . .",
                ". . . . . . . . . . .",
                ". . X . X * . . . . .",
            ],
            true,
        );
    }

    #[test]
    fn diagonal_double_three_is_forbidden() {
        check(
            &[
                ". . . . . . . . . . .",
                ". . . . . . . . . . .",
                ". . . X . . . X . . .",
                ". . . . X . X . . . .",
                ". . . . . * . . . . .",
                ". . . . . . . . . . .",
            ],
            true,
        );
    }

    #[test]
    fn three_blocked_by_white_is_not_a_three() {
        check(
            &[
                ". . . . . . . . . . .",
                ". . . . . . . . . . .",
                ". . . . . O . . . . .",
                ". . . . . X . . . . .",
                ". . . . . X . . . . .",
                ". . . X X * . . . . .",
                ". . . . . . . . . . .",
            ],
            // Vertical `O X X *` with one free side cannot become a straight four.
            false,
        );
    }

    #[test]
    fn false_three_whose_four_point_is_forbidden() {
        // Vertically, black's only straight-four point is h9 (7,8), but with
        // the stone on * that point would be a double-four (vertical plus the
        // row e9-g9), so the vertical "three" is false and * is only a
        // single three: allowed.
        let rows = [
            ". . . . . . . . . . . .",
            ". . . . . . . . . . . .",
            ". . . . . . . . . . . .",
            ". . . . . . . O . . . .",
            ". . . . . . . . . . . .",
            ". . . . . . . X . . . .",
            ". . . . . . . X . . . .",
            ". . . . . X X * . . . .",
            ". . . . X X X . . . . .",
        ];
        let (b, p) = check(&rows, false);
        let mut after = b.clone();
        after.place(p, Stone::Black).unwrap();
        assert!(is_forbidden(&after, Point::new(7, 8)));
        // Control: without the white stone, h5 (7,4) also makes a straight
        // four and is not forbidden, so the vertical three is real.
        let mut control = b.clone();
        control.remove(Point::new(7, 3));
        assert!(is_forbidden(&control, p));
    }

    #[test]
    fn false_three_whose_four_point_is_a_four_three_three() {
        // As above, but h9 (7,8) is forbidden as a 4-3-3: with * on the
        // board it makes the vertical four, the row f9-h9 three and the
        // anti-diagonal f11-h9 three, and both of those threes are real
        // (their own four-points are legal), so the recursion goes two deep.
        let rows = [
            ". . . . . . . . . . . .",
            ". . . . . . . . . . . .",
            ". . . . . . . . . . . .",
            ". . . . . . . O . . . .",
            ". . . . . . . . . . . .",
            ". . . . . . . X . . . .",
            ". . . . . . . X . . . .",
            ". . . . . X X * . . . .",
            ". . . . . X X . . . . .",
            ". . . . . . X . . . . .",
            ". . . . . X . . . . . .",
        ];
        let (b, p) = check(&rows, false);
        let mut after = b.clone();
        after.place(p, Stone::Black).unwrap();
        assert!(is_forbidden(&after, Point::new(7, 8)));
        // Without f11 (5,10), h9 is a mere four-three, so the vertical three
        // is real and * becomes a double-three.
        let mut control = b.clone();
        control.remove(Point::new(5, 10));
        assert!(is_forbidden(&control, p));
    }

    #[test]
    fn three_that_could_only_become_overline_is_not_a_three() {
        let (b, p) = check(
            &[
                ". . . . . . . . . . . .",
                ". . . . . . . . . . . .",
                ". . . . . . . . . . . .",
                ". . . . . . . . . . . .",
                ". . . . . . . . . . . .",
                ". . . . . . . X . . . .",
                ". . . . . . . X . . . .",
                ". . X . . X X * . . X .",
            ],
            false,
        );
        let mut control = b.clone();
        control.remove(Point::new(10, 7));
        assert!(is_forbidden(&control, p));
    }

    #[test]
    fn four_three_is_legal() {
        check(
            &[
                ". . . . . . . . . . .",
                ". . . . . . . . . . .",
                ". . . . . . . . . . .",
                ". . . . . . . . . . .",
                ". . . . . . . . . . .",
                ". . . . . . . X . . .",
                ". . . . . . . X . . .",
                ". . . . X X X * . . .",
            ],
            false,
        );
    }

    #[test]
    fn double_four_across_lines_is_forbidden() {
        check(
            &[
                ". . . . . . . . . . .",
                ". . . . . . . . . . .",
                ". . . . . . . . . . .",
                ". . . . . . . O . . .",
                ". . . . . . . X . . .",
                ". . . . . . . X . . .",
                ". . . . . . . X . . .",
                ". . . O X X X * . . .",
            ],
            true,
        );
    }

    #[test]
    fn double_four_in_one_line_is_forbidden() {
        for row in [
            ". . . X . X * X . X . . .",
            ". . X X . * X . X X . . .",
            ". X X X . * . X X X . . .",
        ] {
            let (b, p) = check(&[". . .", row], true);
            let shapes = black_shapes(&b, p).unwrap();
            assert_eq!(shapes[0], LineShape::DoubleFour, "{row}");
        }
    }

    #[test]
    fn straight_four_is_one_four() {
        let (b, p) = check(&[". . .", ". . X X X * . . ."], false);
        assert_eq!(black_shapes(&b, p).unwrap()[0], LineShape::Four);
    }

    #[test]
    fn overline_is_forbidden() {
        let (b, p) = check(&[". . .", ". . X X X * X X . ."], true);
        assert_eq!(black_shapes(&b, p).unwrap()[0], LineShape::Overline);
    }

    #[test]
    fn five_takes_precedence_over_double_four() {
        check(
            &[
                ". . . . . . . . . . .",
                ". . . . . . . . . . .",
                ". . . . . . . . . . .",
                ". . . . X . . X . . .",
                ". . . . . X . X . . .",
                ". . . . . . X X . . .",
                ". . . X X X X * . . .",
            ],
            false,
        );
    }

    #[test]
    fn five_takes_precedence_over_overline() {
        let (b, p) = check(
            &[
                ". . . . . . . . . . . .",
                ". . . . . . . . . . . .",
                ". . . . . . . . . . . .",
                ". . . . . . . X . . . .",
                ". . . . . . . X . . . .",
                ". . . . . . . X . . . .",
                ". . . . . . . X . . . .",
                ". . . X X X X * X . . .",
            ],
            false,
        );
        let shapes = black_shapes(&b, p).unwrap();
        assert!(shapes.contains(&LineShape::Five) && shapes.contains(&LineShape::Overline));
    }

    #[test]
    fn occupied_and_off_board_are_not_forbidden() {
        let (b, _) = diagram(&["X *"]);
        assert!(!is_forbidden(&b, Point::new(0, 0)));
        assert!(!is_forbidden(&b, Point::new(15, 3)));
        assert!(!is_forbidden(&b, Point::new(255, 255)));
        assert_eq!(black_shapes(&b, Point::new(0, 0)), None);
    }

    #[test]
    fn edges_block_threes() {
        // A three against the edge cannot become a straight four.
        check(&["X", "X", "*", ". X X"], false);
        check(&[". X", ". X", ". *", "X X ."], false);
    }
}
