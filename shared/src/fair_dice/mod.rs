//! Dice that players can verify: a commit-reveal scheme over HMAC-SHA256.
//!
//! Before a match's first roll the server draws a secret [`ServerSeed`] and
//! publishes its [`commitment`] (SHA-256). Each player may add a seed of their
//! own. Every roll of the match is then derived from the server seed, both
//! players' seeds and the roll's place in the match ([`RollPosition`]: game
//! number, roll number in the game) by a [`DiceStream`]; when the match is
//! over the server reveals its seed, and anyone can [`verify`] every roll of
//! the record. A [`DiceProof`] is what the record keeps for that;
//! [`DiceStats`] counts dice and tests them for fairness (chi-square).
//!
//! Everything here is a pure function of its inputs: the server draws the seed
//! from its own CSPRNG and hands it in. `docs/DICE.md` describes the scheme
//! byte for byte, with a short Python check.

mod gamma;
mod proof;
mod seed;
mod stats;
mod stream;

pub use gamma::{chi_square_p, gamma_q, ln_gamma};
pub use proof::{DiceProof, VerifyError, verify};
pub use seed::{MAX_PLAYER_SEED_LEN, SeedError, ServerSeed, check_player_seed, commitment};
pub use stats::{ChiSquare, DiceStats, roll_index};
pub use stream::{
    DiceStream, GameRolls, REJECT_FROM, RecordedRoll, RollPosition, SCHEME, face_of_byte,
    recorded_rolls,
};
