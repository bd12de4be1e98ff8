//! How exposed one side's blots are to the other side's checkers, in the
//! manner of gnubg's `I_P1`, `I_P2` and `I_PIPLOSS` inputs: over the other
//! side's 36 rolls, how often it can hit one blot, two blots, and how many
//! pips the side loses on average to the worst hit.
//!
//! Both sides are given in their own numbering, as in [`super::blockade`]:
//! `c[k]` checkers on the side's point `k` (1..=24), `c[25]` on the bar; the
//! other side's point `j` is this side's point `25 - j`, and its bar this
//! side's point 0. The other side moves up this side's numbering. Checkers
//! of the other side on the bar are not made to enter first: this is a
//! feature, not a rule. The count of hitting rolls is also every network's
//! shot count ([`super::nn`]).

/// One side's exposure, each in 0..=1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exposure {
    /// Rolls (of 36) with which the other side can hit at least one blot.
    pub hit: f32,
    /// Rolls (of 36) with which it can hit two blots or more.
    pub double_hit: f32,
    /// Pips lost to the costliest hit the other side can make, averaged
    /// over its 36 rolls, over 24 (a blot on point `k` hit loses `25 - k`).
    pub pip_loss: f32,
}

/// The exposure of `me`'s blots to `them`.
pub fn exposure(me: &[u8; 26], them: &[u8; 26]) -> Exposure {
    let mut blots = [0usize; 15];
    let mut nb = 0;
    for (k, _) in me
        .iter()
        .enumerate()
        .take(25)
        .skip(1)
        .filter(|(_, n)| **n == 1)
    {
        if nb < blots.len() {
            blots[nb] = k;
            nb += 1;
        }
    }
    if nb == 0 {
        return Exposure {
            hit: 0.0,
            double_hit: 0.0,
            pip_loss: 0.0,
        };
    }
    // Bit q: `them` has checkers on this side's point q (0 = their bar).
    let theirs_mask: u32 = (0..=24)
        .filter(|&q| them[25 - q] > 0)
        .fold(0, |m, q| m | 1 << q);
    // Bit q: this side holds its point q against them.
    let blocked_mask: u32 = (1..=24).filter(|&q| me[q] >= 2).fold(0, |m, q| m | 1 << q);
    let theirs = |q: i32| q >= 0 && theirs_mask >> q & 1 == 1;
    let blocked = |q: i32| q >= 1 && blocked_mask >> q & 1 == 1;
    let (mut hit, mut double_hit, mut loss) = (0u32, 0u32, 0u32);
    // a-b and b-a hit alike: each roll once, non-doubles counted twice.
    for a in 1..=6i32 {
        for b in 1..=a {
            let mut hits = 0;
            let mut worst = 0u32;
            for &k in &blots[..nb] {
                let t = k as i32;
                let reached = if a == b {
                    // Up to four steps of `a` from t - a*s, each landing open.
                    (1..=4)
                        .any(|s| theirs(t - a * s) && (1..s).all(|m| !blocked(t - a * s + a * m)))
                } else {
                    theirs(t - a)
                        || theirs(t - b)
                        || (theirs(t - a - b) && (!blocked(t - b) || !blocked(t - a)))
                };
                if reached {
                    hits += 1;
                    worst = worst.max(25 - k as u32);
                }
            }
            let times = if a == b { 1 } else { 2 };
            hit += times * u32::from(hits >= 1);
            double_hit += times * u32::from(hits >= 2);
            loss += times * worst;
        }
    }
    Exposure {
        hit: hit as f32 / 36.0,
        double_hit: double_hit as f32 / 36.0,
        pip_loss: loss as f32 / (36.0 * 24.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::blockade::side;

    #[test]
    fn no_blots_no_exposure() {
        let me = side(&[(6, 5), (8, 3), (13, 5), (24, 2)]);
        let them = me;
        let e = exposure(&me, &them);
        assert_eq!((e.hit, e.double_hit, e.pip_loss), (0.0, 0.0, 0.0));
    }

    #[test]
    fn a_blot_six_pips_from_a_checker_is_hit_by_seventeen_rolls() {
        // My blot on my 10-point; their checker on their 21-point, my 4:
        // six pips away. Direct 6s: 11 rolls; 5-1, 4-2 both ways: 4; 3-3
        // and 2-2: 2; 1-1 reaches 4 pips only. 17 in all (the classic count;
        // the rest of this side's checkers are behind the shooter).
        let me = side(&[(10, 1), (3, 14)]);
        let them = side(&[(21, 1), (6, 14)]);
        let e = exposure(&me, &them);
        assert_eq!(e.hit, 17.0 / 36.0);
        assert_eq!(e.double_hit, 0.0);
        assert_eq!(e.pip_loss, 17.0 * 15.0 / (36.0 * 24.0));
    }

    #[test]
    fn a_made_point_in_the_way_stops_a_combination_shot() {
        // Blot on my 10, their checker 8 pips away on my 2, my points 5 and
        // 7 made: 5-3 and 4-4 could only pass over them. 6-2 passes my 4
        // (open) or 8 (open).
        let me = side(&[(10, 1), (5, 2), (7, 2), (6, 10)]);
        let them = side(&[(23, 1), (6, 14)]);
        let hit = exposure(&me, &them).hit * 36.0;
        let open = exposure(&side(&[(10, 1), (6, 14)]), &them).hit * 36.0;
        assert!(hit < open, "{hit} vs {open}");
    }

    #[test]
    fn two_blots_in_reach_are_hit_together() {
        let me = side(&[(10, 1), (11, 1), (6, 13)]);
        let them = side(&[(21, 2), (6, 13)]);
        let e = exposure(&me, &them);
        assert!(e.double_hit > 0.0 && e.double_hit <= e.hit, "{e:?}");
    }
}
