//! Dice statistics: counts per face, per distinct roll and of doubles, their
//! expected values, and chi-square tests that a fair pair of dice passes.

use serde::{Deserialize, Serialize};

use super::gamma::chi_square_p;
use crate::backgammon::BgAction;
use crate::backgammon::{Dice, Side};

/// Counts of dice, for one player or for a whole server.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceStats {
    /// Every die, opening rolls included, per face: `faces[0]` counts ones.
    pub faces: [u64; 6],
    /// Every roll of two dice (opening rolls excluded: each side throws one
    /// die there), per distinct roll, in the order of [`Dice::ALL_21`].
    pub rolls: [u64; 21],
}

impl DiceStats {
    /// Counts one die; a value outside 1..=6 is ignored.
    pub fn add_die(&mut self, face: u8) {
        if (1..=6).contains(&face) {
            self.faces[usize::from(face - 1)] += 1;
        }
    }

    /// Counts a roll of two dice (both dice and the roll); a roll with a die
    /// outside 1..=6 is ignored.
    pub fn add_roll(&mut self, dice: [u8; 2]) {
        if let Some(i) = roll_index(dice) {
            self.rolls[i] += 1;
            self.add_die(dice[0]);
            self.add_die(dice[1]);
        }
    }

    /// The dice of a Backgammon match record, per side (`[white, black]`):
    /// each side's rolls, and its die of each opening roll.
    pub fn by_side(actions: &[BgAction]) -> [DiceStats; 2] {
        let mut stats = [DiceStats::default(), DiceStats::default()];
        for action in actions {
            match action {
                BgAction::OpeningRoll { white, black } => {
                    stats[Side::White.index()].add_die(*white);
                    stats[Side::Black.index()].add_die(*black);
                }
                BgAction::Roll { side, dice } => stats[side.index()].add_roll(*dice),
                _ => {}
            }
        }
        stats
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &DiceStats) {
        for (a, b) in self.faces.iter_mut().zip(other.faces) {
            *a += b;
        }
        for (a, b) in self.rolls.iter_mut().zip(other.rolls) {
            *a += b;
        }
    }

    /// How many dice were counted.
    pub fn dice(&self) -> u64 {
        self.faces.iter().sum()
    }

    /// How many rolls of two dice were counted.
    pub fn roll_count(&self) -> u64 {
        self.rolls.iter().sum()
    }

    /// How many of those rolls were doubles.
    pub fn doubles(&self) -> u64 {
        Dice::ALL_21
            .iter()
            .zip(self.rolls)
            .filter(|((d, _), _)| d.is_double())
            .map(|(_, n)| n)
            .sum()
    }

    /// The expected count of each face: a sixth of the dice.
    pub fn expected_per_face(&self) -> f64 {
        self.dice() as f64 / 6.0
    }

    /// The expected count of each distinct roll, in the order of
    /// [`Dice::ALL_21`]: 2/36 of the rolls for a mixed roll, 1/36 for a double.
    pub fn expected_rolls(&self) -> [f64; 21] {
        let n = self.roll_count() as f64;
        Dice::ALL_21.map(|(_, w)| n * f64::from(w) / 36.0)
    }

    /// The expected count of doubles: a sixth of the rolls.
    pub fn expected_doubles(&self) -> f64 {
        self.roll_count() as f64 / 6.0
    }

    /// Whether the faces look fair (5 degrees of freedom); `None` without dice.
    pub fn face_test(&self) -> Option<ChiSquare> {
        ChiSquare::test(&self.faces, &[1.0; 6])
    }

    /// Whether the 21 distinct rolls look fair (20 degrees of freedom);
    /// `None` without rolls.
    pub fn roll_test(&self) -> Option<ChiSquare> {
        ChiSquare::test(&self.rolls, &Dice::ALL_21.map(|(_, w)| f64::from(w)))
    }

    /// Whether doubles come a sixth of the time (doubles against the rest, 1
    /// degree of freedom); `None` without rolls.
    pub fn doubles_test(&self) -> Option<ChiSquare> {
        let doubles = self.doubles();
        ChiSquare::test(&[doubles, self.roll_count() - doubles], &[1.0, 5.0])
    }
}

/// The index in [`Dice::ALL_21`] of a roll, whichever die came first.
pub fn roll_index(dice: [u8; 2]) -> Option<usize> {
    let roll = Dice::new(dice[0], dice[1]).ok()?;
    let key = Dice {
        a: roll.high(),
        b: roll.low(),
    };
    Dice::ALL_21.iter().position(|(d, _)| *d == key)
}

/// Pearson's chi-square goodness-of-fit test of observed counts against
/// expected proportions.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ChiSquare {
    /// Σ (observed − expected)² / expected.
    pub statistic: f64,
    /// The number of cells less one.
    pub degrees_of_freedom: u32,
    /// The chance that fair dice give a statistic at least this large. A
    /// p-value below 0.001 (about one honest test in a thousand) is worth a look;
    /// one slightly below 0.05 comes once in twenty fair tests.
    pub p_value: f64,
}

impl ChiSquare {
    /// Tests `observed` against `weights` (proportional to each cell's
    /// chance); `None` when there is nothing to test (no counts, fewer than
    /// two cells, lengths that differ or a weight that is not positive).
    pub fn test(observed: &[u64], weights: &[f64]) -> Option<ChiSquare> {
        let total: u64 = observed.iter().sum();
        let weight_sum: f64 = weights.iter().sum();
        if total == 0
            || observed.len() < 2
            || observed.len() != weights.len()
            || weights.iter().any(|&w| w.is_nan() || w <= 0.0)
        {
            return None;
        }
        let statistic = observed
            .iter()
            .zip(weights)
            .map(|(&o, &w)| {
                let expected = total as f64 * w / weight_sum;
                let diff = o as f64 - expected;
                diff * diff / expected
            })
            .sum();
        let degrees_of_freedom = u32::try_from(observed.len() - 1).ok()?;
        Some(ChiSquare {
            statistic,
            degrees_of_freedom,
            p_value: chi_square_p(statistic, degrees_of_freedom),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roll_index_ignores_the_order_of_the_dice() {
        assert_eq!(roll_index([2, 1]), Some(0));
        assert_eq!(roll_index([1, 2]), Some(0));
        assert_eq!(roll_index([6, 6]), Some(20));
        assert_eq!(roll_index([0, 6]), None);
        let all: std::collections::HashSet<_> = (1..=6)
            .flat_map(|a| (1..=6).map(move |b| roll_index([a, b]).unwrap()))
            .collect();
        assert_eq!(all.len(), 21);
    }

    #[test]
    fn every_pair_of_faces_once_is_a_perfect_fit() {
        let mut stats = DiceStats::default();
        for a in 1..=6 {
            for b in 1..=6 {
                stats.add_roll([a, b]);
            }
        }
        assert_eq!(stats.roll_count(), 36);
        assert_eq!(stats.doubles(), 6);
        assert_eq!(stats.dice(), 72);
        assert_eq!(stats.expected_per_face(), 12.0);
        assert_eq!(stats.expected_doubles(), 6.0);
        assert_eq!(stats.expected_rolls()[0], 2.0);
        assert_eq!(stats.expected_rolls()[20], 1.0);
        for test in [stats.face_test(), stats.roll_test(), stats.doubles_test()] {
            let test = test.unwrap();
            assert!(test.statistic.abs() < 1e-12);
            assert!((test.p_value - 1.0).abs() < 1e-12);
        }
        assert_eq!(stats.roll_test().unwrap().degrees_of_freedom, 20);
        assert_eq!(stats.face_test().unwrap().degrees_of_freedom, 5);
        assert_eq!(stats.doubles_test().unwrap().degrees_of_freedom, 1);
    }

    #[test]
    fn loaded_dice_fail() {
        let mut stats = DiceStats::default();
        for _ in 0..200 {
            stats.add_roll([6, 6]);
            stats.add_roll([6, 1]);
        }
        assert!(stats.face_test().unwrap().p_value < 1e-10);
        assert!(stats.roll_test().unwrap().p_value < 1e-10);
        assert!(stats.doubles_test().unwrap().p_value < 1e-10);
        assert_eq!(DiceStats::default().face_test(), None);
        assert_eq!(ChiSquare::test(&[1, 2], &[1.0]), None);
        assert_eq!(ChiSquare::test(&[1, 2], &[1.0, 0.0]), None);
    }

    #[test]
    fn by_side_counts_rolls_and_opening_dice() {
        let actions = [
            BgAction::OpeningRoll { white: 2, black: 2 },
            BgAction::OpeningRoll { white: 5, black: 3 },
            BgAction::Roll {
                side: Side::Black,
                dice: [4, 4],
            },
            BgAction::NextGame,
            BgAction::Roll {
                side: Side::White,
                dice: [1, 6],
            },
        ];
        let [white, black] = DiceStats::by_side(&actions);
        assert_eq!(white.faces, [1, 1, 0, 0, 1, 1]);
        assert_eq!(white.roll_count(), 1);
        assert_eq!(white.doubles(), 0);
        assert_eq!(black.faces, [0, 1, 1, 2, 0, 0]);
        assert_eq!(black.doubles(), 1);
        let mut all = white.clone();
        all.merge(&black);
        assert_eq!(all.dice(), 8);
        assert_eq!(all.roll_count(), 2);
    }
}
