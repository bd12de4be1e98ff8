//! VCF puzzles for tests and benchmarks.
//!
//! Each puzzle is a "snake" of `k` chained fours for black: every four is
//! made on a line through the previous four's stone (two black stones
//! prepared on it, a white stone blocking the far side), so the fours can
//! only be played in order, and the last one is an open four. The snake
//! runs right/up/left/up through a narrow band near the left edge; the
//! forced white blocks never line up into a white four.

use tabula_shared::gomoku::{Board, Point, Stone};

/// A VCF puzzle: black to move wins by `fours` continuous fours.
#[derive(Debug, Clone)]
pub struct Puzzle {
    /// Short description.
    pub name: String,
    /// The position (black to move).
    pub board: Board,
    /// The attacking colour (always black here).
    pub attacker: Stone,
    /// Number of fours in the intended solution (the last is open).
    pub fours: usize,
}

fn put(board: &mut Board, x: i32, y: i32, s: Stone) {
    if let (Ok(x), Ok(y)) = (u8::try_from(x), u8::try_from(y)) {
        let _ = board.place(Point::new(x, y), s);
    }
}

/// The snake puzzle with `k` fours on a `size` board (`None` if it does
/// not fit).
pub fn snake(size: u8, k: usize) -> Option<Puzzle> {
    let mut board = Board::new(size).ok()?;
    let (mut x, mut y) = (1i32, 1i32);
    put(&mut board, x, y, Stone::Black);
    for step in 1..=k {
        let (dx, dy) = if step % 2 == 0 {
            (0, 1)
        } else if (step / 2) % 2 == 0 {
            (1, 0)
        } else {
            (-1, 0)
        };
        let n = i32::from(size);
        let (fx, fy) = (x + 4 * dx, y + 4 * dy);
        if fx < 0 || fy < 0 || fx >= n || fy >= n {
            return None;
        }
        put(&mut board, x + dx, y + dy, Stone::Black);
        put(&mut board, x + 2 * dx, y + 2 * dy, Stone::Black);
        if step < k {
            put(&mut board, x - dx, y - dy, Stone::White);
        }
        x += 3 * dx;
        y += 3 * dy;
    }
    Some(Puzzle {
        name: format!("snake-{k} ({size}x{size})"),
        board,
        attacker: Stone::Black,
        fours: k,
    })
}

/// The standard puzzle set: 5 to 15 fours.
pub fn vcf_puzzles() -> Vec<Puzzle> {
    [(15, 5), (15, 7), (15, 9), (25, 11), (25, 13), (25, 15)]
        .into_iter()
        .filter_map(|(size, k)| snake(size, k))
        .collect()
}
