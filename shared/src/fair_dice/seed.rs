//! The seeds the dice come from: the server's secret [`ServerSeed`], its
//! public commitment, and the players' own seeds.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

/// Longest player seed, in bytes.
pub const MAX_PLAYER_SEED_LEN: usize = 64;

/// Domain tag hashed in front of a `--dice-seed` test seed, so that a test
/// server seed can never equal one drawn for a real game by chance of encoding.
const TEST_SEED_TAG: &[u8] = b"tabula-test-seed-v1";

/// The server's secret seed for one match: 32 bytes, drawn by the server from
/// its CSPRNG before the match's first roll, committed to with
/// [`ServerSeed::commitment`] and revealed when the match is over.
///
/// Serialized as 64 lowercase hex digits (for the saved room). `Debug` does
/// not show the bytes, so that a seed cannot leak into a log line.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ServerSeed([u8; 32]);

impl ServerSeed {
    /// A seed from its 32 bytes (the server fills them from its CSPRNG).
    pub const fn from_bytes(bytes: [u8; 32]) -> ServerSeed {
        ServerSeed(bytes)
    }

    /// The reproducible seed of a server run with `--dice-seed`: SHA-256 of
    /// `"tabula-test-seed-v1"`, the test seed as 8 big-endian bytes and
    /// `salt` (the room's name for it). Games with such a seed are marked
    /// [`test_seed`](super::DiceProof::test_seed) in their record.
    pub fn for_tests(dice_seed: u64, salt: &str) -> ServerSeed {
        let mut h = Sha256::new();
        h.update(TEST_SEED_TAG);
        h.update(dice_seed.to_be_bytes());
        h.update(salt.as_bytes());
        ServerSeed(h.finalize().into())
    }

    /// The 32 bytes.
    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The seed as 64 lowercase hex digits.
    pub fn to_hex(&self) -> String {
        hex_encode(&self.0)
    }

    /// Parses 64 hex digits (either case).
    ///
    /// # Errors
    /// [`SeedError::BadServerSeed`] when `s` is not exactly 64 hex digits.
    pub fn from_hex(s: &str) -> Result<ServerSeed, SeedError> {
        let mut bytes = [0u8; 32];
        if s.len() != 64 || !hex_decode(s, &mut bytes) {
            return Err(SeedError::BadServerSeed);
        }
        Ok(ServerSeed(bytes))
    }

    /// The commitment published before the first roll: the lowercase hex
    /// SHA-256 of the 32 seed bytes.
    pub fn commitment(&self) -> String {
        commitment(self)
    }
}

/// The lowercase hex SHA-256 of the seed's 32 bytes (see
/// [`ServerSeed::commitment`]).
pub fn commitment(seed: &ServerSeed) -> String {
    hex_encode(&Sha256::digest(seed.0))
}

impl std::fmt::Debug for ServerSeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ServerSeed(..)")
    }
}

impl Serialize for ServerSeed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for ServerSeed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        ServerSeed::from_hex(&s).map_err(serde::de::Error::custom)
    }
}

/// Checks a player's seed: at most [`MAX_PLAYER_SEED_LEN`] bytes of
/// printable ASCII without spaces (`!` to `~`). The empty seed is allowed (a
/// player who gives none). Keeping to ASCII means the bytes that go into the
/// dice are the characters everyone sees, with no Unicode normalization to
/// trip over when verifying by hand.
///
/// # Errors
/// [`SeedError::BadPlayerSeed`] otherwise.
pub fn check_player_seed(seed: &str) -> Result<(), SeedError> {
    if seed.len() <= MAX_PLAYER_SEED_LEN && seed.bytes().all(|b| b.is_ascii_graphic()) {
        Ok(())
    } else {
        Err(SeedError::BadPlayerSeed)
    }
}

/// A seed that cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SeedError {
    /// A server seed is not 64 hex digits.
    #[error("a server seed is 64 hex digits")]
    BadServerSeed,
    /// A player seed is too long or has characters other than `!` to `~`.
    #[error("a player seed is at most 64 characters from '!' to '~'")]
    BadPlayerSeed,
}

/// Lowercase hex of `bytes`.
pub(crate) fn hex_encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

/// Decodes `s` (two hex digits per byte, either case) into `out`; false when
/// `s` has the wrong length or a character that is not a hex digit.
fn hex_decode(s: &str, out: &mut [u8]) -> bool {
    let s = s.as_bytes();
    if s.len() != out.len() * 2 {
        return false;
    }
    for (o, pair) in out.iter_mut().zip(s.chunks_exact(2)) {
        let (Some(hi), Some(lo)) = (hex_value(pair[0]), hex_value(pair[1])) else {
            return false;
        };
        *o = hi << 4 | lo;
    }
    true
}

fn hex_value(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commitment_is_sha256_of_the_bytes() {
        // SHA-256 of 32 zero bytes.
        let zero = ServerSeed::from_bytes([0; 32]);
        assert_eq!(
            zero.commitment(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
        assert_eq!(commitment(&zero), zero.commitment());
    }

    #[test]
    fn hex_round_trip_and_errors() {
        let mut bytes = [0u8; 32];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(37).wrapping_add(5);
        }
        let seed = ServerSeed::from_bytes(bytes);
        let hex = seed.to_hex();
        assert_eq!(hex.len(), 64);
        assert_eq!(hex, hex.to_lowercase());
        assert_eq!(ServerSeed::from_hex(&hex), Ok(seed.clone()));
        assert_eq!(ServerSeed::from_hex(&hex.to_uppercase()), Ok(seed.clone()));
        assert_eq!(
            ServerSeed::from_hex(&hex[..62]),
            Err(SeedError::BadServerSeed)
        );
        let bad = format!("g{}", &hex[1..]);
        assert_eq!(ServerSeed::from_hex(&bad), Err(SeedError::BadServerSeed));
        let json = serde_json::to_string(&seed).unwrap();
        assert_eq!(json, format!("\"{hex}\""));
        assert_eq!(serde_json::from_str::<ServerSeed>(&json).unwrap(), seed);
        assert!(serde_json::from_str::<ServerSeed>("\"00\"").is_err());
        assert_eq!(format!("{seed:?}"), "ServerSeed(..)");
    }

    #[test]
    fn test_seeds_are_reproducible_and_salted() {
        let a = ServerSeed::for_tests(7, "room-1");
        assert_eq!(a, ServerSeed::for_tests(7, "room-1"));
        assert_ne!(a, ServerSeed::for_tests(7, "room-2"));
        assert_ne!(a, ServerSeed::for_tests(8, "room-1"));
    }

    #[test]
    fn player_seeds_are_short_printable_ascii() {
        assert_eq!(check_player_seed(""), Ok(()));
        assert_eq!(check_player_seed("f3a9-Lucky!"), Ok(()));
        assert_eq!(check_player_seed(&"x".repeat(64)), Ok(()));
        assert_eq!(
            check_player_seed(&"x".repeat(65)),
            Err(SeedError::BadPlayerSeed)
        );
        assert_eq!(check_player_seed("a b"), Err(SeedError::BadPlayerSeed));
        assert_eq!(check_player_seed("é"), Err(SeedError::BadPlayerSeed));
        assert_eq!(check_player_seed("a\n"), Err(SeedError::BadPlayerSeed));
    }
}
