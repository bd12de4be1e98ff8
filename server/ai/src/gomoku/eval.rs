//! The static evaluation: a linear model over what both colours could make
//! on the empty cells, fitted to self-play results (`gomoku-tune`).
//!
//! The Expert reads a finer table that starts from this model, a value
//! per cell's pattern code ([`Evaluation::CodeTable`],
//! [`super::pcode`]); the levels below the Expert keep [`PATTERN_SUMS`],
//! the hand-set evaluation their ladder was measured with.
//!
//! The features of a position, seen by the side to move (the *mover*) and
//! the other side (the *waiter*):
//! - for each line pattern ([`super::pattern`]), how many (empty cell,
//!   direction) pairs have it;
//! - for each combination class ([`combo`]), how many empty cells combine
//!   their four directions into it (two open twos, a three and a two, a
//!   double three, a four-three, ...): what a single line cannot show.
//!
//! The value is the dot product with the weights ([`FITTED`]), divided by [`SCALE`]:
//! about 200 units per logit of the winning chance (the fit's scale), so
//! that a position scored +200 was won by its mover about 73% of the time
//! in the games the weights were fitted to.

use super::pattern::{B3, B4, F2, F3, F4, FIVE, NPAT, Pat};

/// Combination classes of one empty cell for one colour (its four
/// directions' patterns together).
pub(crate) mod combo {
    /// Nothing beyond single lines.
    pub const NONE: u8 = 0;
    /// Two open twos (or an open two and a closed three).
    pub const TWO_TWO: u8 = 1;
    /// A closed four and an open two or closed three.
    pub const FOUR_TWO: u8 = 2;
    /// An open three and an open two or closed three.
    pub const THREE_TWO: u8 = 3;
    /// Two open threes.
    pub const THREE_THREE: u8 = 4;
    /// A closed four and an open three.
    pub const FOUR_THREE: u8 = 5;
    /// An open four or two fours.
    pub const FOUR_FOUR: u8 = 6;
    /// Number of classes.
    pub const N: usize = 7;
}

/// The combination class of a cell whose four directions have `pats`.
#[inline]
pub(crate) fn combo_of(pats: &[Pat; 4]) -> u8 {
    let (mut fours, mut threes, mut twos) = (0u8, 0u8, 0u8);
    for &p in pats {
        match p {
            FIVE => return combo::NONE,
            F4 => fours += 2,
            B4 => fours += 1,
            F3 => threes += 1,
            F2 | B3 => twos += 1,
            _ => {}
        }
    }
    match (fours, threes, twos) {
        (2.., _, _) => combo::FOUR_FOUR,
        (1, 1.., _) => combo::FOUR_THREE,
        (1, 0, 1..) => combo::FOUR_TWO,
        (0, 2.., _) => combo::THREE_THREE,
        (0, 1, 1..) => combo::THREE_TWO,
        (0, 0, 2..) => combo::TWO_TWO,
        _ => combo::NONE,
    }
}

/// Number of features: patterns and combinations, mover then waiter.
pub const NFEATURES: usize = 2 * (NPAT + combo::N);

/// Index of the mover's pattern `p` feature (add [`WAITER`] for the waiter).
pub(crate) const fn pat_feature(p: usize) -> usize {
    p
}

/// Index of the mover's combination `k` feature (add [`WAITER`] for the
/// waiter).
pub(crate) const fn combo_feature(k: usize) -> usize {
    NPAT + k
}

/// Offset of the waiter's features.
pub(crate) const WAITER: usize = NPAT + combo::N;

/// Weights are in 1/`SCALE` evaluation units.
pub(crate) const SCALE: i32 = 8;

/// The levels below the Expert: the pattern-value sums the first Expert
/// used (ours weighted 6/5 for the tempo), no combinations.
pub(crate) const PATTERN_SUMS: [i32; NFEATURES] = [
    0, 10, 29, 38, 115, 96, 384, 288, 1152, 2880, 0, //
    0, 0, 0, 0, 0, 0, 0, //
    0, -8, -24, -32, -96, -80, -320, -240, -960, -2400, 0, //
    0, 0, 0, 0, 0, 0, 0,
];

/// The Expert's fitted weights (see the module docs), mover's patterns
/// (`DEAD`, `B1`, `F1`, `B2`, `F2`, `B3`, `F3`, `B4`, `F4`, `FIVE`,
/// `OVERLINE`), mover's combinations ([`combo`] order), then the
/// waiter's.
pub(crate) const FITTED: [i32; NFEATURES] = [
    0, 0, 0, 11, 20, 71, 251, 426, 0, 0, 0, //
    0, 138, 522, 332, 1225, 5341, 0, //
    0, 0, 1, -10, -16, -71, -178, -357, -400, 0, 0, //
    0, -77, -558, -133, -38, -1649, 0,
];

/// Which static evaluation a search uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Evaluation {
    /// The linear model over pattern and combination counts, with these
    /// weights.
    Linear(&'static [i32; NFEATURES]),
    /// A value per cell's pattern code and side, summed
    /// ([`super::pcode::fitted`], the Expert's), kept up to date by the
    /// position as its patterns change.
    CodeTable,
}

/// The value of the features `f` under `w`.
#[inline]
pub(crate) fn value(f: &[u32; NFEATURES], w: &[i32; NFEATURES]) -> i32 {
    let dot: i64 = f
        .iter()
        .zip(w)
        .map(|(&x, &w)| i64::from(x) * i64::from(w))
        .sum();
    (dot / i64::from(SCALE)) as i32
}

#[cfg(test)]
mod tests {
    use super::super::pattern::{B1, DEAD};
    use super::*;

    #[test]
    fn combinations_read_the_four_directions_together() {
        assert_eq!(combo_of(&[F3, F3, DEAD, B1]), combo::THREE_THREE);
        assert_eq!(combo_of(&[B4, F3, DEAD, DEAD]), combo::FOUR_THREE);
        assert_eq!(combo_of(&[B4, B4, DEAD, DEAD]), combo::FOUR_FOUR);
        assert_eq!(combo_of(&[F4, DEAD, DEAD, DEAD]), combo::FOUR_FOUR);
        assert_eq!(combo_of(&[F3, B3, DEAD, DEAD]), combo::THREE_TWO);
        assert_eq!(combo_of(&[F2, F2, B1, DEAD]), combo::TWO_TWO);
        assert_eq!(combo_of(&[B4, F2, DEAD, DEAD]), combo::FOUR_TWO);
        assert_eq!(combo_of(&[F3, B1, B1, DEAD]), combo::NONE);
        assert_eq!(combo_of(&[FIVE, F3, F3, DEAD]), combo::NONE);
    }
}
