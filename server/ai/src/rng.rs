//! The AI's one seeded generator: SplitMix64 (Steele, Lea and Flood, 2014).
//!
//! Small, fast and the same on every platform, so a seed names one game, one
//! opening or one training run for good, whatever an RNG crate's algorithm
//! choices become. Both engines, the tools and the tests draw from it.
//!
//! A stream is fixed by its starting state: [`Rng::new`] mixes a seed with
//! the Backgammon salt (dice, trainers, arenas), the Gomoku AI adds its own
//! salt through [`Rng::from_state`], and the Zobrist keys start from a fixed
//! state. [`Rng::below`] and [`Rng::below_rem`] map a draw to a range in two
//! different ways; each call site keeps the one its seeded results were
//! made with.

use tabula_shared::backgammon::Dice;

/// SplitMix64's increment (the golden ratio in 64 bits).
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The salt [`Rng::new`] mixes into a seed.
const SEED_SALT: u64 = 0x853C_49E6_748F_EA9B;

/// A SplitMix64 generator.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed` (mixed with a fixed salt).
    pub const fn new(seed: u64) -> Rng {
        Rng(seed ^ SEED_SALT)
    }

    /// A generator whose internal state is exactly `state`: its first
    /// output is [`mix`]`(state)`.
    pub const fn from_state(state: u64) -> Rng {
        Rng(state)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        finalize(self.0)
    }

    /// A number in `0..n` by multiply-and-shift (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A number in `0..n` by remainder (0 when `n` is 0). The Gomoku AI's
    /// seeded choices use this one.
    pub fn below_rem(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next_u64() % n }
    }

    /// A uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A roll of two dice.
    pub fn dice(&mut self) -> Dice {
        Dice {
            a: 1 + self.below(6) as u8,
            b: 1 + self.below(6) as u8,
        }
    }

    /// A roll of two different dice (the opening roll).
    pub fn opening_dice(&mut self) -> Dice {
        loop {
            let d = self.dice();
            if !d.is_double() {
                return d;
            }
        }
    }
}

/// One SplitMix64 step from `state`, as a hash of it:
/// `Rng::from_state(state).next_u64()`.
pub fn mix(state: u64) -> u64 {
    finalize(state.wrapping_add(GAMMA))
}

/// Mixes a seed with a stream number into an independent seed (game `g` of
/// a seeded run, trial `t` of a trainer).
pub fn mix_seed(seed: u64, stream: u64) -> u64 {
    Rng::new(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

/// SplitMix64's output function.
fn finalize(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_stream() {
        // The first outputs from state 0 in the reference implementation
        // (Vigna's splitmix64.c).
        let mut r = Rng::from_state(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
        assert_eq!(mix(0), 0xE220_A839_7B1D_CDAF);
    }
}
