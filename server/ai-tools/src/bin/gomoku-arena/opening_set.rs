//! The arena's openings: 2 to 4 stones near the centre that a short Expert
//! search finds roughly balanced.
//!
//! For freestyle 15×15, the arena's usual match, the set is fixed
//! (`data/gomoku-openings.txt`), so that runs months apart play the same
//! openings whatever the Expert has become. Other boards and rules, and a
//! request for more openings than the file holds, generate them with the
//! current Expert as judge (`--print-openings` prints such a set).

use tabula_ai::gomoku::{Limits, expert_search};
use tabula_ai::rng::mix;
use tabula_shared::gomoku::{Board, Point, Rule, Stone};

/// The fixed set for freestyle 15×15, one opening a line (`h8 i9 h9`).
const FIXED: &str = include_str!("../../../data/gomoku-openings.txt");

/// `n` openings for `size` and `rule`: the fixed set's first `n` when it
/// applies and holds enough, otherwise [`generate`]d.
pub fn openings(n: usize, size: u8, rule: Rule) -> Vec<Vec<Point>> {
    if size == 15 && rule == Rule::Freestyle {
        let fixed = fixed();
        if n <= fixed.len() {
            return fixed[..n].to_vec();
        }
    }
    generate(n, size, rule)
}

/// The fixed set.
fn fixed() -> Vec<Vec<Point>> {
    FIXED
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            l.split_whitespace()
                .map(|p| Point::parse_on(p, 15).expect("the opening file holds valid points"))
                .collect()
        })
        .collect()
}

/// `n` different openings of 2 to 4 stones within two points of the
/// centre, drawn in a fixed sequence and kept when a 3,000-node Expert
/// search scores them within 60 units (a third of a logit) of even.
pub fn generate(n: usize, size: u8, rule: Rule) -> Vec<Vec<Point>> {
    let c = i32::from(size / 2);
    let mut out = Vec::new();
    let mut k = 0u64;
    while out.len() < n && k < 100_000 {
        k += 1;
        let mut r = mix(k);
        let stones = 2 + (r % 3) as usize;
        let mut moves: Vec<Point> = Vec::new();
        while moves.len() < stones {
            r = mix(r);
            let p = Point::new(
                (c + (r % 5) as i32 - 2) as u8,
                (c + ((r >> 8) % 5) as i32 - 2) as u8,
            );
            if !moves.contains(&p) {
                moves.push(p);
            }
        }
        let mut board = Board::new(size).expect("valid size");
        for (j, &p) in moves.iter().enumerate() {
            let s = if j % 2 == 0 {
                Stone::Black
            } else {
                Stone::White
            };
            let _ = board.place(p, s);
        }
        let to_play = if stones.is_multiple_of(2) {
            Stone::Black
        } else {
            Stone::White
        };
        let r = expert_search(&board, to_play, rule, Limits::nodes(3_000), 0);
        if r.score.abs() < 60 && !out.contains(&moves) {
            out.push(moves);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixed set parses, holds distinct openings of 2 to 4 stones,
    /// and is what the arena plays on freestyle 15×15.
    #[test]
    fn the_fixed_set_is_what_freestyle_plays() {
        let set = fixed();
        assert!(set.len() >= 100, "{}", set.len());
        for (i, o) in set.iter().enumerate() {
            assert!((2..=4).contains(&o.len()), "{o:?}");
            assert!(!set[..i].contains(o), "{o:?} twice");
        }
        assert_eq!(openings(10, 15, Rule::Freestyle), set[..10].to_vec());
    }
}
