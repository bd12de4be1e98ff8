//! The compact board used by the rules and by search: a flat padded byte
//! array, plus the incremental five check and a brute-force reference scan.

use std::fmt;

use super::{GomokuError, Point, Rule, Stone};

/// Padding (in cells) on every side of the playing area. Five is enough for
/// every pattern the rules read: nothing looks further than five steps from an
/// on-board cell, so hot loops can index without bounds worries.
pub(crate) const PAD: usize = 5;
/// Cell value: empty.
pub(crate) const EMPTY: u8 = 0;
/// Cell value: black stone.
pub(crate) const BLACK: u8 = 1;
/// Cell value: white stone.
pub(crate) const WHITE: u8 = 2;
/// Cell value: off the board (padding).
pub(crate) const WALL: u8 = 3;

/// Smallest accepted board size.
pub const MIN_SIZE: u8 = 9;
/// Largest accepted board size.
pub const MAX_SIZE: u8 = 25;

/// The four line directions as `(dx, dy)`: horizontal, vertical, diagonal,
/// anti-diagonal. Each line through a point is scanned in `+d` and `-d`.
pub const DIRECTIONS: [(i8, i8); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

impl Stone {
    pub(crate) const fn cell(self) -> u8 {
        match self {
            Stone::Black => BLACK,
            Stone::White => WHITE,
        }
    }

    pub(crate) const fn from_cell(c: u8) -> Option<Stone> {
        match c {
            BLACK => Some(Stone::Black),
            WHITE => Some(Stone::White),
            _ => None,
        }
    }
}

/// A bare board: stones only, no turn order, no rules.
///
/// Meant for search: [`Board::place`] / [`Board::remove`] are O(1) and the
/// board is a flat `Vec<u8>` with a wall of padding around the playing area
/// (index = `(y + 5) * stride + (x + 5)`, `stride = size + 5`), so line scans
/// never need bounds checks. Cloning is one small allocation (~1 KiB for
/// 15x15).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    size: u8,
    stride: usize,
    cells: Vec<u8>,
    stones: usize,
}

impl Board {
    /// An empty `size` x `size` board. Sizes `9..=25` are accepted, anything
    /// else gives [`GomokuError::InvalidSize`].
    pub fn new(size: u8) -> Result<Self, GomokuError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(GomokuError::InvalidSize(size));
        }
        let n = usize::from(size);
        let stride = n + PAD;
        let mut cells = vec![WALL; stride * (n + 2 * PAD + 1)];
        for y in 0..n {
            let row = (y + PAD) * stride + PAD;
            cells[row..row + n].fill(EMPTY);
        }
        Ok(Board {
            size,
            stride,
            cells,
            stones: 0,
        })
    }

    /// Builds a board from a text diagram, for tests and tools.
    ///
    /// `rows[0]` is row `y = 0` (notation row 1), `rows[1]` is `y = 1`, and so
    /// on; within a row the n-th non-space character is column `x = n`.
    /// `X`/`x`/`B`/`b` is black, `O`/`o`/`W`/`w` is white, `.`/`+`/`_` is
    /// empty; spaces are ignored. The diagram may be smaller than the board
    /// (the rest is empty). Errors: [`GomokuError::InvalidSize`],
    /// [`GomokuError::OffBoard`] for a character outside the board, and
    /// [`GomokuError::BadNotation`] for an unknown character.
    pub fn from_diagram(size: u8, rows: &[&str]) -> Result<Self, GomokuError> {
        let mut board = Board::new(size)?;
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().filter(|c| *c != ' ').enumerate() {
                let stone = match c {
                    'X' | 'x' | 'B' | 'b' => Some(Stone::Black),
                    'O' | 'o' | 'W' | 'w' => Some(Stone::White),
                    '.' | '+' | '_' => None,
                    other => return Err(GomokuError::BadNotation(other.to_string())),
                };
                let clamp = |v: usize| u8::try_from(v).unwrap_or(u8::MAX);
                let p = Point::new(clamp(x), clamp(y));
                if !board.contains(p) || x > 255 || y > 255 {
                    return Err(GomokuError::OffBoard(p));
                }
                if let Some(s) = stone {
                    board.place(p, s)?;
                }
            }
        }
        Ok(board)
    }

    /// Side length of the board.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// Number of stones on the board.
    pub fn stone_count(&self) -> usize {
        self.stones
    }

    /// `true` when every point holds a stone.
    pub fn is_full(&self) -> bool {
        self.stones == usize::from(self.size) * usize::from(self.size)
    }

    /// `true` when `p` lies on the board.
    pub fn contains(&self, p: Point) -> bool {
        p.x < self.size && p.y < self.size
    }

    /// Flat index of `p` in the padded cell array, `None` off the board.
    /// Useful as a dense key (e.g. for history tables); see [`Board::point_at`].
    pub fn index_of(&self, p: Point) -> Option<usize> {
        self.contains(p)
            .then(|| (usize::from(p.y) + PAD) * self.stride + usize::from(p.x) + PAD)
    }

    /// The point at a flat index, `None` for padding or out-of-range indexes.
    pub fn point_at(&self, index: usize) -> Option<Point> {
        let x = (index % self.stride).checked_sub(PAD)?;
        let y = (index / self.stride).checked_sub(PAD)?;
        let p = Point::new(u8::try_from(x).ok()?, u8::try_from(y).ok()?);
        self.contains(p).then_some(p)
    }

    /// Length of the flat cell array (an upper bound for [`Board::index_of`]).
    pub fn index_len(&self) -> usize {
        self.cells.len()
    }

    /// Index offsets of the four [`DIRECTIONS`].
    pub(crate) fn offsets(&self) -> [usize; 4] {
        let s = self.stride;
        [1, s, s + 1, s - 1]
    }

    /// Raw cell access for the rule internals. `i` must come from
    /// `index_of` (plus at most `PAD` steps in a direction).
    #[inline]
    pub(crate) fn cell(&self, i: usize) -> u8 {
        self.cells[i]
    }

    /// Raw cell write for the renju scratch search; does not touch the stone
    /// count, so callers must restore the cell.
    #[inline]
    pub(crate) fn set_cell(&mut self, i: usize, v: u8) {
        self.cells[i] = v;
    }

    /// The stone at `p`; `None` for an empty point or a point off the board.
    pub fn get(&self, p: Point) -> Option<Stone> {
        self.index_of(p)
            .and_then(|i| Stone::from_cell(self.cells[i]))
    }

    /// `true` when `p` is on the board and empty.
    pub fn is_empty_at(&self, p: Point) -> bool {
        self.index_of(p).is_some_and(|i| self.cells[i] == EMPTY)
    }

    /// Puts `stone` on `p`. No rules are checked beyond the point being on
    /// the board ([`GomokuError::OffBoard`]) and empty
    /// ([`GomokuError::Occupied`]).
    pub fn place(&mut self, p: Point, stone: Stone) -> Result<(), GomokuError> {
        let i = self.index_of(p).ok_or(GomokuError::OffBoard(p))?;
        if self.cells[i] != EMPTY {
            return Err(GomokuError::Occupied(p));
        }
        self.cells[i] = stone.cell();
        self.stones += 1;
        Ok(())
    }

    /// Takes the stone off `p` and returns it; `None` (and no change) when
    /// `p` is empty or off the board.
    pub fn remove(&mut self, p: Point) -> Option<Stone> {
        let i = self.index_of(p)?;
        let s = Stone::from_cell(self.cells[i])?;
        self.cells[i] = EMPTY;
        self.stones -= 1;
        Some(s)
    }

    /// Every point of the board, row by row (`y` outer, `x` inner).
    pub fn points(&self) -> impl Iterator<Item = Point> + use<> {
        let n = self.size;
        (0..n).flat_map(move |y| (0..n).map(move |x| Point::new(x, y)))
    }

    /// Every stone on the board with its point, row by row.
    pub fn stones(&self) -> impl Iterator<Item = (Point, Stone)> + '_ {
        self.points().filter_map(|p| self.get(p).map(|s| (p, s)))
    }

    /// Length of the run of `c` cells through index `i` along offset `off`
    /// (counting `i` itself, whatever it holds), and the index of its lowest
    /// cell.
    #[inline]
    pub(crate) fn run(&self, i: usize, off: usize, c: u8) -> (usize, usize) {
        let mut lo = i;
        while self.cells[lo - off] == c {
            lo -= off;
        }
        let mut hi = i;
        while self.cells[hi + off] == c {
            hi += off;
        }
        ((hi - lo) / off + 1, lo)
    }
}

impl fmt::Debug for Board {
    /// Prints the diagram, top row (highest `y`) first, with notation labels.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {}x{}:", self.size, self.size)?;
        for y in (0..self.size).rev() {
            write!(f, "{:>3} ", u32::from(y) + 1)?;
            for x in 0..self.size {
                let c = match self.get(Point::new(x, y)) {
                    Some(Stone::Black) => 'X',
                    Some(Stone::White) => 'O',
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "    ")?;
        for x in 0..self.size {
            write!(f, " {}", char::from(b'a' + x))?;
        }
        Ok(())
    }
}

/// The incremental win check: does the stone of colour `stone` at `p` (which
/// must already be on the board) make a winning line under `rule`?
///
/// Only the four lines through `p` are scanned, so this is the check to run
/// after each move. Returns the points of the winning run (five or more,
/// lowest index first) or `None`, also when `p` is off the board or does not
/// hold `stone`. Winning lengths are given by [`Rule::is_win_length`]; when
/// several lines win, the first of [`DIRECTIONS`] is reported.
pub fn five_at(board: &Board, p: Point, stone: Stone, rule: Rule) -> Option<Vec<Point>> {
    let i = board.index_of(p)?;
    let c = stone.cell();
    if board.cell(i) != c {
        return None;
    }
    for off in board.offsets() {
        let (len, lo) = board.run(i, off, c);
        if rule.is_win_length(stone, len) {
            return Some(
                (0..len)
                    .filter_map(|k| board.point_at(lo + k * off))
                    .collect(),
            );
        }
    }
    None
}

/// Brute-force reference: every maximal run on the whole board that wins
/// under `rule`, as `(colour, points)`. Slow (it walks every line with
/// coordinate arithmetic, independently of the padded layout); meant for
/// tests and debugging, not for search.
pub fn scan_fives(board: &Board, rule: Rule) -> Vec<(Stone, Vec<Point>)> {
    let n = i32::from(board.size());
    let at = |x: i32, y: i32| -> Option<Stone> {
        if (0..n).contains(&x) && (0..n).contains(&y) {
            board.get(Point::new(x as u8, y as u8))
        } else {
            None
        }
    };
    let mut found = Vec::new();
    for y in 0..n {
        for x in 0..n {
            let Some(s) = at(x, y) else { continue };
            for (dx, dy) in DIRECTIONS {
                let (dx, dy) = (i32::from(dx), i32::from(dy));
                if at(x - dx, y - dy) == Some(s) {
                    continue; // not the start of the run
                }
                let mut line = Vec::new();
                let (mut cx, mut cy) = (x, y);
                while at(cx, cy) == Some(s) {
                    line.push(Point::new(cx as u8, cy as u8));
                    cx += dx;
                    cy += dy;
                }
                if rule.is_win_length(s, line.len()) {
                    found.push((s, line));
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert!(Board::new(8).is_err());
        assert!(Board::new(26).is_err());
        assert!(Board::new(0).is_err());
        for s in 9..=25 {
            let b = Board::new(s).unwrap();
            assert_eq!(b.points().count(), usize::from(s) * usize::from(s));
            for p in b.points() {
                assert_eq!(b.point_at(b.index_of(p).unwrap()), Some(p));
            }
            let on_board = (0..b.index_len())
                .filter(|&i| b.point_at(i).is_some())
                .count();
            assert_eq!(on_board, usize::from(s) * usize::from(s));
        }
    }

    #[test]
    fn place_remove() {
        let mut b = Board::new(15).unwrap();
        let p = Point::new(3, 4);
        b.place(p, Stone::Black).unwrap();
        assert_eq!(b.get(p), Some(Stone::Black));
        assert_eq!(b.place(p, Stone::White), Err(GomokuError::Occupied(p)));
        assert_eq!(
            b.place(Point::new(15, 0), Stone::White),
            Err(GomokuError::OffBoard(Point::new(15, 0)))
        );
        assert_eq!(b.stone_count(), 1);
        assert_eq!(b.remove(p), Some(Stone::Black));
        assert_eq!(b.remove(p), None);
        assert_eq!(b, Board::new(15).unwrap());
    }

    #[test]
    fn edge_lines() {
        // Fives touching every edge and corner, all four directions.
        let b = Board::from_diagram(
            9,
            &[
                "XXXXX....",
                "O........",
                "O........",
                "O........",
                "O........",
            ],
        )
        .unwrap();
        let line = five_at(&b, Point::new(0, 0), Stone::Black, Rule::Freestyle).unwrap();
        assert_eq!(line.len(), 5);
        assert!(five_at(&b, Point::new(0, 1), Stone::White, Rule::Freestyle).is_none());
        let b = Board::from_diagram(
            9,
            &[
                "........X",
                ".......X.",
                "......X..",
                ".....X...",
                "....X....",
            ],
        )
        .unwrap();
        assert!(five_at(&b, Point::new(8, 0), Stone::Black, Rule::Standard).is_some());
        assert_eq!(scan_fives(&b, Rule::Standard).len(), 1);
    }

    #[test]
    fn diagram_errors() {
        assert_eq!(
            Board::from_diagram(9, &["X........."]),
            Err(GomokuError::OffBoard(Point::new(9, 0)))
        );
        assert!(matches!(
            Board::from_diagram(9, &["?"]),
            Err(GomokuError::BadNotation(_))
        ));
        assert_eq!(
            Board::from_diagram(3, &[]),
            Err(GomokuError::InvalidSize(3))
        );
    }
}
