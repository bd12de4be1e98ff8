//! Pattern codes: a cell's four direction patterns read together, as the
//! unordered set Rapfi's classical evaluation indexes its tables by. Two
//! cells with the same patterns in any order share a code.
//!
//! The Expert's evaluation is a sum over the empty cells of a value per
//! code and side ([`fitted`]), which the position keeps up to date as
//! patterns change: one table read per changed cell. The values start
//! from the linear model's ([`weights_of`]) and are fitted code by code
//! to the self-play search's scores (`gomoku-tune --codes-out`, see
//! [`super::tune`]).

use std::sync::OnceLock;

use super::eval::{NFEATURES, WAITER, combo_feature, combo_of, pat_feature};
use super::pattern::{NPAT, OVERLINE, Pat};

/// Symbols a direction contributes: `DEAD` to `FIVE` (an overline point
/// counts as dead).
const SYMBOLS: usize = NPAT - 1;

/// Number of codes: multisets of four symbols, C(SYMBOLS + 3, 4).
pub const N: usize = 715;

/// The code of all-dead directions (and of every occupied cell).
pub const DEAD: u16 = 0;

fn symbol(p: Pat) -> usize {
    if p == OVERLINE { 0 } else { usize::from(p) }
}

/// The code of a cell whose four directions have `pats`.
#[inline]
pub fn of(pats: &[Pat; 4]) -> u16 {
    lookup(table(), pats)
}

/// [`of`] with the table at hand ([`table`]), for the hot path.
#[inline]
pub fn lookup(table: &[u16], pats: &[Pat; 4]) -> u16 {
    let key = ((symbol(pats[0]) * SYMBOLS + symbol(pats[1])) * SYMBOLS + symbol(pats[2])) * SYMBOLS
        + symbol(pats[3]);
    table[key]
}

/// Values per code, for the side to move (`[0]`) and the other side
/// (`[1]`), in the evaluation's units (see [`super::eval::SCALE`]).
pub type Weights = [[i32; N]; 2];

/// The table that values every cell as the linear model `linear` does
/// ([`super::eval`]): its directions' pattern weights plus its
/// combination's weight. Summed over the cells, it gives the model's
/// value exactly, since the model's counts are sums over cells too (when
/// dead lines, overlines and no combination weigh nothing, as in every
/// table here: occupied cells are all-dead).
pub fn weights_of(linear: &[i32; NFEATURES]) -> Box<Weights> {
    let mut out = Box::new([[0i32; N]; 2]);
    for code in 0..N as u16 {
        let pats = pats(code);
        for (side, offset) in [(0, 0), (1, WAITER)] {
            let lines: i32 = pats
                .iter()
                .map(|&p| linear[offset + pat_feature(usize::from(p))])
                .sum();
            let combination = linear[offset + combo_feature(usize::from(combo_of(&pats)))];
            out[side][usize::from(code)] = lines + combination;
        }
    }
    out
}

/// The Expert's table (`data/gomoku-codes-v1.txt`, written by
/// `gomoku-tune --codes-out`: the mover's values, then the waiter's).
pub fn fitted() -> &'static Weights {
    static W: OnceLock<Box<Weights>> = OnceLock::new();
    W.get_or_init(|| {
        parse(include_str!("../../data/gomoku-codes-v1.txt")).expect("the embedded code table")
    })
}

/// Reads a table written by [`format`] (lines starting with `#` are
/// comments).
pub fn parse(text: &str) -> Option<Box<Weights>> {
    let mut w = Box::new([[0i32; N]; 2]);
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    for side in w.iter_mut() {
        let values: Vec<i32> = lines
            .next()?
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        if values.len() != N {
            return None;
        }
        side.copy_from_slice(&values);
    }
    lines.next().is_none().then_some(w)
}

/// Writes a table as two lines of [`N`] values, the mover's and the
/// waiter's.
pub fn format(w: &Weights) -> String {
    let mut out = String::new();
    for side in w {
        let line: Vec<String> = side.iter().map(i32::to_string).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out
}

/// The four patterns of a code, strongest first (inverse of [`of`] up to
/// order).
pub fn pats(code: u16) -> [Pat; 4] {
    sorted_sets()[usize::from(code)]
}

/// Every multiset of four symbols, each sorted strongest first, in code
/// order (all-dead first).
fn sorted_sets() -> &'static Vec<[Pat; 4]> {
    static SETS: OnceLock<Vec<[Pat; 4]>> = OnceLock::new();
    SETS.get_or_init(|| {
        let mut out = Vec::with_capacity(N);
        for a in 0..SYMBOLS {
            for b in 0..=a {
                for c in 0..=b {
                    for d in 0..=c {
                        out.push([a as Pat, b as Pat, c as Pat, d as Pat]);
                    }
                }
            }
        }
        out.sort_by_key(|s| (s[0], s[1], s[2], s[3]));
        debug_assert_eq!(out.len(), N);
        out
    })
}

/// The combination class ([`super::eval::combo`]) of every code.
pub fn combos() -> &'static [u8] {
    static COMBOS: OnceLock<Vec<u8>> = OnceLock::new();
    COMBOS.get_or_init(|| sorted_sets().iter().map(combo_of).collect())
}

/// The code of every ordered four of symbols.
pub fn table() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let sets = sorted_sets();
        let mut t = vec![0u16; SYMBOLS.pow(4)];
        for (key, slot) in t.iter_mut().enumerate() {
            let mut s = [
                (key / SYMBOLS.pow(3)) as Pat,
                (key / SYMBOLS.pow(2) % SYMBOLS) as Pat,
                (key / SYMBOLS % SYMBOLS) as Pat,
                (key % SYMBOLS) as Pat,
            ];
            s.sort_unstable_by(|a, b| b.cmp(a));
            *slot = sets
                .binary_search_by_key(&(s[0], s[1], s[2], s[3]), |x| (x[0], x[1], x[2], x[3]))
                .expect("every sorted set is listed") as u16;
        }
        t
    })
}

#[cfg(test)]
mod tests {
    use super::super::pattern::{B3, DEAD as PDEAD, F2, F3, F4, FIVE};
    use super::*;

    #[test]
    fn codes_ignore_the_order_of_directions() {
        assert_eq!(of(&[PDEAD; 4]), DEAD);
        assert_eq!(of(&[F3, F2, PDEAD, B3]), of(&[B3, PDEAD, F3, F2]));
        assert_ne!(of(&[F3, F2, PDEAD, B3]), of(&[F3, F3, PDEAD, B3]));
        assert_eq!(pats(of(&[F2, FIVE, PDEAD, F4])), [FIVE, F4, F2, PDEAD]);
        assert_eq!(of(&[OVERLINE, PDEAD, PDEAD, PDEAD]), DEAD);
        let mut seen = std::collections::HashSet::new();
        for code in 0..N as u16 {
            assert_eq!(of(&pats(code)), code);
            seen.insert(pats(code));
        }
        assert_eq!(seen.len(), N);
    }

    #[test]
    fn the_embedded_table_parses_and_a_table_reads_back() {
        let w = fitted();
        assert_eq!(w[0][usize::from(DEAD)], 0);
        assert_eq!(parse(&format(w)).as_deref(), Some(w));
        assert!(parse("1 2 3\n").is_none());
        assert!(
            parse(&format!("{}7\n", format(w))).is_none(),
            "a third line"
        );
    }
}
