//! Dice: a roll of two dice, and the 21 distinct rolls with their weights.

use serde::{Deserialize, Serialize};

use super::BgError;

/// A roll of two dice. Both values are in `1..=6` when built through
/// [`Dice::new`]; the rules reject anything else with [`BgError::BadDice`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Dice {
    /// First die.
    pub a: u8,
    /// Second die.
    pub b: u8,
}

const fn d(a: u8, b: u8) -> Dice {
    Dice { a, b }
}

impl Dice {
    /// The 21 distinct rolls with their weight out of 36: the 15 mixed rolls
    /// (weight 2, larger die first) and the 6 doubles (weight 1).
    pub const ALL_21: [(Dice, u8); 21] = [
        (d(2, 1), 2),
        (d(3, 1), 2),
        (d(4, 1), 2),
        (d(5, 1), 2),
        (d(6, 1), 2),
        (d(3, 2), 2),
        (d(4, 2), 2),
        (d(5, 2), 2),
        (d(6, 2), 2),
        (d(4, 3), 2),
        (d(5, 3), 2),
        (d(6, 3), 2),
        (d(5, 4), 2),
        (d(6, 4), 2),
        (d(6, 5), 2),
        (d(1, 1), 1),
        (d(2, 2), 1),
        (d(3, 3), 1),
        (d(4, 4), 1),
        (d(5, 5), 1),
        (d(6, 6), 1),
    ];

    /// Builds a roll, checking that both dice are in `1..=6`.
    pub fn new(a: u8, b: u8) -> Result<Dice, BgError> {
        let dice = Dice { a, b };
        if dice.is_valid() {
            Ok(dice)
        } else {
            Err(BgError::BadDice)
        }
    }

    /// Whether both dice are in `1..=6`.
    pub const fn is_valid(&self) -> bool {
        self.a >= 1 && self.a <= 6 && self.b >= 1 && self.b <= 6
    }

    /// Whether both dice show the same number.
    pub const fn is_double(&self) -> bool {
        self.a == self.b
    }

    /// The larger die.
    pub fn high(&self) -> u8 {
        self.a.max(self.b)
    }

    /// The smaller die.
    pub fn low(&self) -> u8 {
        self.a.min(self.b)
    }
}

impl std::fmt::Display for Dice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.a, self.b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_sum_to_36() {
        let total: u32 = Dice::ALL_21.iter().map(|&(_, w)| u32::from(w)).sum();
        assert_eq!(total, 36);
        assert_eq!(
            Dice::ALL_21.iter().filter(|(d, _)| d.is_double()).count(),
            6
        );
    }

    #[test]
    fn bad_dice_rejected() {
        assert_eq!(Dice::new(0, 3), Err(BgError::BadDice));
        assert_eq!(Dice::new(7, 3), Err(BgError::BadDice));
        assert!(Dice::new(6, 6).unwrap().is_double());
    }
}
