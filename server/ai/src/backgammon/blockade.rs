//! Contact features of one side's checkers against the other's points, in
//! the manner of gnubg's hand-crafted network inputs (its `Escapes`,
//! `I_CONTAIN`, `I_BACK_ANCHOR` and `I_BREAK_CONTACT`): what a raw point
//! encoding makes a small network learn slowly, given to it directly.
//!
//! Both sides are given in their own numbering: `c[k]` checkers on the
//! side's point `k` (1..=24), `c[25]` on the bar; the other side's point
//! `j` is this side's point `25 - j`.

/// One side's contact features, each in 0..=1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    /// Rolls (of 36) with which the side's rearmost checker can move the
    /// whole roll onto an open point ([`escapes`]), over 36.
    pub back_escapes: f32,
    /// How well the other side's points hold a checker of this side in
    /// the other side's home and outer board: 1 minus the fewest escapes
    /// from any of this side's points 15..=24, over 36.
    pub contained: f32,
    /// The side's rearmost point with two or more checkers, over 24 (0 for
    /// none).
    pub back_anchor: f32,
    /// Pips this side must move to bring every checker past the other
    /// side's rearmost one, over 167.
    pub to_break_contact: f32,
    /// Rolls (of 36) with which a checker of this side on the bar fails to
    /// enter: the square of the points the other side holds in its home
    /// board, over 36.
    pub closed: f32,
    /// This side's anchors in the other side's home board (its points
    /// 19..=24 with two or more checkers), over 3, at most 1: two or more
    /// make a back game.
    pub home_anchors: f32,
    /// This side's frontmost anchor among its points 16..=24 (the other
    /// side's home board and bar point), as `(25 - k) / 9` (0 for none):
    /// an advanced anchor is a safe landing spot and a blocking point.
    pub forward_anchor: f32,
    /// Pips of this side's checkers outside its home board beyond its
    /// 6-point, over 150, at most 1: the moves it can make before it must
    /// break its home board (its timing).
    pub outfield_pips: f32,
}

/// Whether the other side (`them`) holds this side's point `k`.
fn held(them: &[u8; 26], k: i32) -> bool {
    (1..=24).contains(&k) && them[(25 - k) as usize] >= 2
}

/// Rolls (of 36) with which a checker on this side's point `from` can move
/// the whole roll onto an open point: for `a-b`, the landing point `a + b`
/// away open and one of the points `a` or `b` away open; for doubles, the
/// points `a` and `2a` away open (gnubg's escape count). Points past the
/// side's 1-point are open.
pub fn escapes(them: &[u8; 26], from: i32) -> u32 {
    escapes_in(held_mask(them), from)
}

/// Bit `k + 12` set when the other side holds this side's point `k`, so
/// that the twelve points in front of any point `from` in 0..=25 are the
/// twelve bits from bit `from` up.
fn held_mask(them: &[u8; 26]) -> u64 {
    (1..=24)
        .filter(|&k| them[25 - k] >= 2)
        .fold(0, |m, k| m | 1 << (k + 12))
}

fn escapes_in(held: u64, from: i32) -> u32 {
    u32::from(ESCAPES[((held >> from.clamp(0, 25)) & 0xfff) as usize])
}

/// Whether the point `d` pips in front of a checker is held, in a
/// twelve-point mask of [`ESCAPES`] (bit `12 - d`).
const fn held_ahead(mask: usize, d: usize) -> bool {
    (mask >> (12 - d)) & 1 == 1
}

/// [`escapes`] for every pattern of held points in the twelve in front of
/// a checker (gnubg keeps the same table).
static ESCAPES: [u8; 4096] = {
    let mut table = [0u8; 4096];
    let mut mask = 0;
    while mask < 4096 {
        let mut n = 0;
        let mut a = 1;
        while a <= 6 {
            let mut b = 1;
            while b <= a {
                let lands = !held_ahead(mask, a + b);
                let passes = !held_ahead(mask, a) || !held_ahead(mask, b);
                if lands && passes {
                    n += if a == b { 1 } else { 2 };
                }
                b += 1;
            }
            a += 1;
        }
        table[mask] = n;
        mask += 1;
    }
    table
};

/// The contact features of `me` against `them`.
pub fn features(me: &[u8; 26], them: &[u8; 26]) -> Features {
    let rearmost = (1..=25).rev().find(|&k| me[k] > 0).unwrap_or(0) as i32;
    let ahead = held_mask(them);
    let fewest = (15..=24).map(|k| escapes_in(ahead, k)).min().unwrap_or(36);
    let anchor = (1..=24).rev().find(|&k| me[k] >= 2).unwrap_or(0);
    // The other side's rearmost checker, on this side's point 25 - j.
    let their_back = (1..=25).rev().find(|&j| them[j] > 0).unwrap_or(0);
    let front = 25 - their_back as i32;
    let to_break: i32 = (1..=25)
        .filter(|&k| k as i32 >= front)
        .map(|k| i32::from(me[k]) * (k as i32 - front + 1))
        .sum();
    let closed = (19..=24).filter(|&k| held(them, k)).count() as f32;
    let home_anchors = (19..=24).filter(|&k| me[k] >= 2).count() as f32;
    let forward = (16..=24).find(|&k| me[k] >= 2).map_or(0, |k| 25 - k);
    let outfield: u32 = (7..=24).map(|k| u32::from(me[k]) * (k as u32 - 6)).sum();
    Features {
        back_escapes: escapes_in(ahead, rearmost) as f32 / 36.0,
        contained: 1.0 - fewest as f32 / 36.0,
        back_anchor: anchor as f32 / 24.0,
        to_break_contact: (to_break as f32 / 167.0).min(1.0),
        closed: closed * closed / 36.0,
        home_anchors: (home_anchors / 3.0).min(1.0),
        forward_anchor: forward as f32 / 9.0,
        outfield_pips: (outfield as f32 / 150.0).min(1.0),
    }
}

/// A side's checker counts from `(point, checkers)` pairs, for tests.
#[cfg(test)]
pub(crate) fn side(points: &[(usize, u8)]) -> [u8; 26] {
    let mut c = [0u8; 26];
    for &(k, n) in points {
        c[k] = n;
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The count straight from the rule, for the table to agree with.
    fn escapes_counted(them: &[u8; 26], from: i32) -> u32 {
        let mut n = 0;
        for a in 1..=6 {
            for b in 1..=a {
                let lands = !held(them, from - a - b);
                let passes = !held(them, from - a) || !held(them, from - b);
                if lands && passes {
                    n += if a == b { 1 } else { 2 };
                }
            }
        }
        n
    }

    #[test]
    fn the_escape_table_agrees_with_the_rule() {
        let mut state = 12345u64;
        for _ in 0..2000 {
            let mut them = [0u8; 26];
            for n in &mut them[1..=24] {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *n = ((state >> 60) % 4) as u8;
            }
            for from in 0..=25 {
                assert_eq!(
                    escapes(&them, from),
                    escapes_counted(&them, from),
                    "{them:?} {from}"
                );
            }
        }
    }

    #[test]
    fn a_checker_behind_no_points_escapes_with_every_roll() {
        let them = side(&[(1, 15)]);
        assert_eq!(escapes(&them, 24), 36);
    }

    #[test]
    fn a_full_prime_holds_a_checker_behind_it() {
        // The other side's points 1..=6 are this side's 19..=24: a checker
        // on the bar lands on none of them, and one on 24 meets the prime.
        let them = side(&[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 3), (8, 2)]);
        assert_eq!(escapes(&them, 25), 0);
        // From 24 only a roll with a 6 steps past the prime.
        let from_24 = escapes(&them, 24);
        assert!(from_24 < 36 && from_24 > 0, "{from_24}");
        let me = side(&[(25, 1), (6, 14)]);
        let f = features(&me, &them);
        assert_eq!(f.back_escapes, 0.0);
        assert!(f.contained >= 1.0 - from_24 as f32 / 36.0, "{f:?}");
    }

    #[test]
    fn the_back_anchor_and_the_pips_to_break_contact() {
        // This side: two on its 20-point (an anchor), thirteen on its 6.
        // The other side's rearmost checker is on its 13-point, this side's
        // 12: the anchor must move 20 - 12 + 1 = 9 pips each.
        let me = side(&[(20, 2), (6, 13)]);
        let them = side(&[(13, 5), (6, 10)]);
        let f = features(&me, &them);
        assert_eq!(f.back_anchor, 20.0 / 24.0);
        assert_eq!(f.to_break_contact, 18.0 / 167.0);
    }

    #[test]
    fn anchors_timing_and_a_closed_board() {
        // This side: anchors on its 22 and 20 (a back game), 4 on its 13.
        // The other side holds its points 1, 2, 4 and 6: this side's 24,
        // 23, 21 and 19.
        let me = side(&[(22, 2), (20, 2), (13, 4), (6, 7)]);
        let them = side(&[(1, 2), (2, 2), (4, 2), (6, 9)]);
        let f = features(&me, &them);
        assert_eq!(f.home_anchors, 2.0 / 3.0);
        assert_eq!(f.forward_anchor, 5.0 / 9.0);
        assert_eq!(f.closed, 16.0 / 36.0);
        let outfield = 2 * 16 + 2 * 14 + 4 * 7;
        assert_eq!(f.outfield_pips, outfield as f32 / 150.0);
    }
}
