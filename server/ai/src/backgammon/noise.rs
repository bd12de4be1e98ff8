//! Evaluation noise: how the levels below the Expert make their mistakes.
//!
//! As GNU Backgammon's weaker players do, a level adds a random amount to
//! the equity of each candidate play before picking the best, with a normal
//! distribution of standard deviation [`Noise::sd`] (in points of equity).
//! A level then errs where plays are close (hard positions, many candidates
//! within a few hundredths) and rarely where one play stands out: plausible
//! plays with more errors in hard positions, not random moves.
//!
//! The noise is deterministic: it is drawn from the decision's seed and the
//! candidate's own checkers, so a seeded game replays the same.

use tabula_shared::backgammon::Position;

use crate::rng::{Rng, mix_seed};

/// Noise of one standard deviation `sd`, in points of equity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Noise {
    /// Standard deviation of the amount added to each candidate's equity.
    pub sd: f32,
}

impl Noise {
    /// The amount added to the equity of `candidate` for the decision
    /// seeded with `seed`.
    pub fn on(self, seed: u64, candidate: &Position) -> f32 {
        if self.sd <= 0.0 {
            return 0.0;
        }
        let mut rng = Rng::new(mix_seed(seed, position_key(candidate)));
        self.sd * standard_normal(&mut rng) as f32
    }
}

/// A 64-bit key of a position's checkers (FNV-1a over its layout and the
/// checkers borne off).
fn position_key(pos: &Position) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    let bytes = pos
        .pips()
        .iter()
        .map(|&c| c as u8)
        .chain([pos.x_off(), pos.o_off()]);
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01B3);
    }
    h
}

/// A standard normal draw (Box-Muller).
fn standard_normal(rng: &mut Rng) -> f64 {
    let u1 = 1.0 - rng.unit(); // (0, 1]: ln is finite
    let u2 = rng.unit();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_noise_and_zero_sd_is_silent() {
        let pos = Position::default();
        let n = Noise { sd: 0.05 };
        assert_eq!(n.on(7, &pos), n.on(7, &pos));
        assert_ne!(n.on(7, &pos), n.on(8, &pos));
        assert_eq!(Noise { sd: 0.0 }.on(7, &pos), 0.0);
    }

    #[test]
    fn draws_have_the_asked_spread() {
        let n = Noise { sd: 0.04 };
        let pos = Position::default();
        let xs: Vec<f64> = (0..20_000).map(|s| f64::from(n.on(s, &pos))).collect();
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let sd = (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / xs.len() as f64).sqrt();
        assert!(mean.abs() < 0.002, "mean {mean}");
        assert!((sd - 0.04).abs() < 0.002, "sd {sd}");
    }
}
