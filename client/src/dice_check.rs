//! [`DiceCheck`]: what the client itself finds when it checks a Backgammon
//! record's dice against the record's [`DiceProof`], and the words that say
//! it. The check is `fair_dice::verify`, run here on the client's own copy of
//! the record: the server's word is not needed.
//!
//! Nothing here draws; the game-over dialog, the replay viewer and the room
//! panel show [`DiceCheck::text`] and colour it by [`DiceCheck::verdict`].

use rust_i18n::t;
use tabula_shared::fair_dice::{self, DiceProof, VerifyError};
use tabula_shared::protocol::BgAction;

/// How many hex digits of a commitment are shown before "…".
pub const SHORT_HASH: usize = 12;

/// What the dice check found for one match record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiceCheck {
    /// The record has no proof (a game from before verifiable dice).
    NoProof,
    /// The server committed to a seed and has not revealed it yet: the
    /// match is still running.
    Committed {
        /// The commitment (SHA-256 of the server seed, hex).
        commitment: String,
        /// Whether the seed is the server's `--dice-seed` test seed.
        test_seed: bool,
    },
    /// Every recorded roll is the one the revealed seeds give.
    Verified {
        /// How many rolls were checked.
        rolls: usize,
        /// Whether the seed is the server's `--dice-seed` test seed.
        test_seed: bool,
    },
    /// The seed does not match its commitment, or a roll does not match
    /// the seeds.
    Failed {
        /// The first thing that does not match.
        error: VerifyError,
        /// Whether the seed is the server's `--dice-seed` test seed.
        test_seed: bool,
    },
}

/// How a [`DiceCheck`] reads at a glance, for its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Verified: good news.
    Good,
    /// Failed: bad news.
    Bad,
    /// Nothing to check (yet).
    Neutral,
}

impl DiceCheck {
    /// Checks `actions` (a Backgammon match record, in order) against
    /// `proof`, if the record has one.
    pub fn of(actions: &[BgAction], proof: Option<&DiceProof>) -> DiceCheck {
        let Some(proof) = proof else {
            return DiceCheck::NoProof;
        };
        let test_seed = proof.test_seed;
        if !proof.is_revealed() {
            return DiceCheck::Committed {
                commitment: proof.commitment.clone(),
                test_seed,
            };
        }
        match fair_dice::verify(actions, proof) {
            Ok(rolls) => DiceCheck::Verified { rolls, test_seed },
            Err(error) => DiceCheck::Failed { error, test_seed },
        }
    }

    /// The main line: verified, the failure naming what does not match, the
    /// commitment while the match runs, or that there is no proof.
    pub fn text(&self) -> String {
        match self {
            DiceCheck::NoProof => t!("dice.no_proof"),
            DiceCheck::Committed { commitment, .. } => {
                t!("dice.committed", hash = short_hash(commitment))
            }
            DiceCheck::Verified { rolls: 1, .. } => t!("dice.verified_one"),
            DiceCheck::Verified { rolls, .. } => t!("dice.verified", rolls = rolls),
            DiceCheck::Failed { error, .. } => t!("dice.failed", error = error),
        }
        .into_owned()
    }

    /// The note under the main line for a game the test seed dealt, if it
    /// was one.
    pub fn note(&self) -> Option<String> {
        match self {
            DiceCheck::Committed {
                test_seed: true, ..
            }
            | DiceCheck::Verified {
                test_seed: true, ..
            }
            | DiceCheck::Failed {
                test_seed: true, ..
            } => Some(t!("dice.test_seed").into_owned()),
            _ => None,
        }
    }

    /// Good, bad or neither.
    pub fn verdict(&self) -> Verdict {
        match self {
            DiceCheck::Verified { .. } => Verdict::Good,
            DiceCheck::Failed { .. } => Verdict::Bad,
            DiceCheck::NoProof | DiceCheck::Committed { .. } => Verdict::Neutral,
        }
    }
}

/// The first [`SHORT_HASH`] digits of a hash and "…" (all of it when short).
pub fn short_hash(hash: &str) -> String {
    match hash.get(..SHORT_HASH) {
        Some(head) if hash.len() > SHORT_HASH => format!("{head}…"),
        _ => hash.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use tabula_shared::backgammon::Side;
    use tabula_shared::fair_dice::ServerSeed;

    use super::*;

    /// A revealed proof and a record of `n` rolls dealt from it.
    fn dealt(n: usize) -> (Vec<BgAction>, DiceProof) {
        let seed = ServerSeed::from_bytes([9; 32]);
        let mut proof = DiceProof::commit(&seed, false);
        proof.set_player_seed(Side::White, "abc").unwrap();
        proof.reveal(&seed);
        let stream = proof.stream().unwrap();
        let actions = stream
            .game(1)
            .take(n)
            .map(|dice| BgAction::Roll {
                side: Side::White,
                dice,
            })
            .collect();
        (actions, proof)
    }

    #[test]
    fn one_roll_is_singular() {
        let (actions, proof) = dealt(1);
        let check = DiceCheck::of(&actions, Some(&proof));
        assert_eq!(
            check.text(),
            "Dice verified: 1 roll matches the server's revealed seed"
        );
        assert_eq!(check.note(), None);
    }

    #[test]
    fn an_unrevealed_proof_shows_the_short_commitment() {
        let (actions, mut proof) = dealt(3);
        proof.server_seed = None;
        proof.test_seed = true;
        let check = DiceCheck::of(&actions, Some(&proof));
        assert_eq!(check.verdict(), Verdict::Neutral);
        assert_eq!(
            check.text(),
            format!("Dice committed: {}…", &proof.commitment[..SHORT_HASH])
        );
        assert!(check.note().is_some());
    }

    #[test]
    fn short_hash_keeps_short_strings() {
        assert_eq!(short_hash("abc"), "abc");
        assert_eq!(short_hash("0123456789abcdef"), "0123456789ab…");
    }
}
