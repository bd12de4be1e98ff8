//! What a match record keeps about its dice ([`DiceProof`]), and the check
//! that every recorded roll came from the committed seed ([`verify`]).

use serde::{Deserialize, Serialize};

use super::stream::recorded_rolls;
use super::{DiceStream, RollPosition, SeedError, ServerSeed, check_player_seed};
use crate::backgammon::BgAction;
use crate::backgammon::Side;

/// The dice's side of a Backgammon match record: enough to recompute every
/// roll once the server seed is revealed.
///
/// While the match runs `server_seed` is `None` and everyone (players,
/// spectators) may see the rest; when the match is over the server fills it
/// in with [`DiceProof::reveal`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceProof {
    /// The lowercase hex SHA-256 of the server seed, published before the
    /// match's first roll.
    pub commitment: String,
    /// The server seed, 64 hex digits, once revealed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_seed: Option<String>,
    /// The players' seeds, `[white, black]` (empty for a player who gave none).
    #[serde(default)]
    pub player_seeds: [String; 2],
    /// Whether the server seed came from the server's `--dice-seed` (a
    /// reproducible test game, whose dice anyone who knows the test seed could
    /// foresee), not from its CSPRNG.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub test_seed: bool,
}

impl DiceProof {
    /// The proof of a new match: the commitment to `seed`, no player seeds yet.
    pub fn commit(seed: &ServerSeed, test_seed: bool) -> DiceProof {
        DiceProof {
            commitment: seed.commitment(),
            server_seed: None,
            player_seeds: [String::new(), String::new()],
            test_seed,
        }
    }

    /// Sets `side`'s seed. The server takes seeds only before the match's
    /// first roll (after it, a seed would let a player pick the dice to come).
    ///
    /// # Errors
    /// [`SeedError::BadPlayerSeed`] for a seed [`check_player_seed`] refuses.
    pub fn set_player_seed(&mut self, side: Side, seed: &str) -> Result<(), SeedError> {
        check_player_seed(seed)?;
        self.player_seeds[side.index()] = seed.to_owned();
        Ok(())
    }

    /// Reveals the server seed (when the match is over).
    pub fn reveal(&mut self, seed: &ServerSeed) {
        self.server_seed = Some(seed.to_hex());
    }

    /// Whether the server seed has been revealed.
    pub fn is_revealed(&self) -> bool {
        self.server_seed.is_some()
    }

    /// The revealed server seed, checked against the commitment.
    ///
    /// # Errors
    /// [`VerifyError::NotRevealed`], [`VerifyError::BadSeed`] or
    /// [`VerifyError::CommitmentMismatch`].
    pub fn revealed_seed(&self) -> Result<ServerSeed, VerifyError> {
        let hex = self
            .server_seed
            .as_deref()
            .ok_or(VerifyError::NotRevealed)?;
        let seed = ServerSeed::from_hex(hex).map_err(|_| VerifyError::BadSeed)?;
        let computed = seed.commitment();
        if !computed.eq_ignore_ascii_case(&self.commitment) {
            return Err(VerifyError::CommitmentMismatch {
                commitment: self.commitment.clone(),
                computed,
            });
        }
        Ok(seed)
    }

    /// The match's stream, from the revealed seed (checked against the
    /// commitment) and the players' seeds.
    ///
    /// # Errors
    /// As [`DiceProof::revealed_seed`].
    pub fn stream(&self) -> Result<DiceStream, VerifyError> {
        let seed = self.revealed_seed()?;
        Ok(self.stream_with(&seed))
    }

    /// The match's stream from `seed` (the server's, before the reveal).
    pub fn stream_with(&self, seed: &ServerSeed) -> DiceStream {
        DiceStream::new(seed, [&self.player_seeds[0], &self.player_seeds[1]])
    }
}

/// Checks every roll of a Backgammon match record (`actions`, in order)
/// against the stream of `proof`: first the revealed seed against the
/// commitment, then each [`BgAction::OpeningRoll`] and [`BgAction::Roll`]
/// against the roll the seeds give at its place (see [`RollPosition`]).
/// Returns how many rolls were checked.
///
/// # Errors
/// The first thing that does not match (see [`VerifyError`]).
pub fn verify(actions: &[BgAction], proof: &DiceProof) -> Result<usize, VerifyError> {
    let stream = proof.stream()?;
    let mut checked = 0;
    for rolled in recorded_rolls(actions) {
        let expected = stream.roll(rolled.at);
        if expected != rolled.dice {
            return Err(VerifyError::RollMismatch {
                index: rolled.index,
                at: rolled.at,
                expected,
                recorded: rolled.dice,
            });
        }
        checked += 1;
    }
    Ok(checked)
}

/// Why a record's dice do not verify.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The server seed has not been revealed yet (the match is not over).
    #[error("the server seed has not been revealed yet")]
    NotRevealed,
    /// The revealed server seed is not 64 hex digits.
    #[error("the revealed server seed is not 64 hex digits")]
    BadSeed,
    /// The revealed seed is not the one committed to.
    #[error("the revealed seed hashes to {computed}, but the commitment was {commitment}")]
    CommitmentMismatch {
        /// The commitment published before the first roll.
        commitment: String,
        /// The SHA-256 of the revealed seed.
        computed: String,
    },
    /// A recorded roll is not the one the seeds give.
    #[error(
        "game {} roll {} (record entry {index}): the seeds give {}-{}, the record has {}-{}",
        .at.game, .at.roll, .expected[0], .expected[1], .recorded[0], .recorded[1]
    )]
    RollMismatch {
        /// The entry's index in the record.
        index: usize,
        /// Its place in the stream.
        at: RollPosition,
        /// The dice the seeds give.
        expected: [u8; 2],
        /// The dice in the record.
        recorded: [u8; 2],
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn revealed(seed: &ServerSeed) -> DiceProof {
        let mut proof = DiceProof::commit(seed, false);
        proof.set_player_seed(Side::White, "w-1").unwrap();
        proof.set_player_seed(Side::Black, "b-2").unwrap();
        proof.reveal(seed);
        proof
    }

    #[test]
    fn serde_keeps_what_a_record_needs() {
        let seed = ServerSeed::from_bytes([3; 32]);
        let mut proof = DiceProof::commit(&seed, false);
        let json = serde_json::to_string(&proof).unwrap();
        assert_eq!(
            json,
            format!(
                r#"{{"commitment":"{}","player_seeds":["",""]}}"#,
                seed.commitment()
            )
        );
        proof.set_player_seed(Side::Black, "xyz").unwrap();
        proof.reveal(&seed);
        proof.test_seed = true;
        let json = serde_json::to_string(&proof).unwrap();
        assert!(json.contains(&seed.to_hex()), "{json}");
        assert!(json.contains(r#""test_seed":true"#), "{json}");
        assert_eq!(serde_json::from_str::<DiceProof>(&json).unwrap(), proof);
        let minimal: DiceProof = serde_json::from_str(r#"{"commitment":"ab"}"#).unwrap();
        assert_eq!(minimal.player_seeds, [String::new(), String::new()]);
        assert!(!minimal.is_revealed());
    }

    #[test]
    fn bad_player_seed_is_refused() {
        let mut proof = DiceProof::commit(&ServerSeed::from_bytes([0; 32]), false);
        assert_eq!(
            proof.set_player_seed(Side::White, "no spaces"),
            Err(SeedError::BadPlayerSeed)
        );
        assert_eq!(proof.player_seeds[0], "");
    }

    #[test]
    fn unrevealed_and_malformed_seeds_do_not_verify() {
        let seed = ServerSeed::from_bytes([5; 32]);
        let mut proof = DiceProof::commit(&seed, false);
        assert_eq!(verify(&[], &proof), Err(VerifyError::NotRevealed));
        proof.server_seed = Some("xyz".into());
        assert_eq!(verify(&[], &proof), Err(VerifyError::BadSeed));
        proof.reveal(&seed);
        assert_eq!(verify(&[], &proof), Ok(0));
    }

    #[test]
    fn rolls_are_checked_in_order() {
        let seed = ServerSeed::from_bytes([1; 32]);
        let proof = revealed(&seed);
        let stream = proof.stream().unwrap();
        let mut rolls = stream.game(1);
        let [white, black] = rolls.next().unwrap();
        let actions = vec![
            BgAction::OpeningRoll { white, black },
            BgAction::Roll {
                side: Side::White,
                dice: rolls.next().unwrap(),
            },
        ];
        assert_eq!(verify(&actions, &proof), Ok(2));
        let mut swapped = actions.clone();
        swapped[0] = BgAction::OpeningRoll {
            white: black,
            black: white,
        };
        if white != black {
            let err = verify(&swapped, &proof).unwrap_err();
            assert_eq!(
                err,
                VerifyError::RollMismatch {
                    index: 0,
                    at: RollPosition::FIRST,
                    expected: [white, black],
                    recorded: [black, white],
                }
            );
            assert!(err.to_string().contains("game 1 roll 0"), "{err}");
        }
    }

    #[test]
    fn wrong_player_seed_fails_on_the_first_roll() {
        let seed = ServerSeed::from_bytes([2; 32]);
        let proof = revealed(&seed);
        let stream = proof.stream().unwrap();
        let actions: Vec<BgAction> = stream
            .game(1)
            .take(20)
            .map(|[white, black]| BgAction::OpeningRoll { white, black })
            .collect();
        assert_eq!(verify(&actions, &proof), Ok(20));
        let mut other = proof.clone();
        other.player_seeds[1] = "b-3".into();
        assert!(matches!(
            verify(&actions, &other),
            Err(VerifyError::RollMismatch { .. })
        ));
    }
}
