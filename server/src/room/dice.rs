//! Verifiable dice (`docs/DICE.md`): the secret server seed of each
//! Backgammon match and its commitment, the players' seeds (`dice_seed`),
//! the opening roll's wait for them, every roll from the match's stream, and
//! the reveal when the match ends.
//!
//! The server seed is kept in the room (and in its saved state, so that a
//! restart deals the dice committed to) and nowhere else until the reveal:
//! it is never sent, and [`ServerSeed`]'s `Debug` does not show it.

use std::time::Instant;

use rand::{Rng, RngExt, TryRng};
use tabula_shared::fair_dice::{DiceProof, RollPosition, ServerSeed, check_player_seed};
use tabula_shared::protocol::{ErrorCode, RoomEvent};
use tabula_shared::seat::Seat;
use tabula_shared::seat::side_of;

use super::{Refusal, Room, idx, refuse};
use crate::registry::Shared;

/// Draws the server seed of a new match and commits to it in the record's
/// `proof` (`None` for Gomoku, which gets no seed). Under `--dice-seed` the seed is
/// the reproducible test seed for `salt`, and the proof says so.
pub(super) fn commit_dice(
    shared: &Shared,
    proof: Option<&mut Option<DiceProof>>,
    salt: &str,
) -> Option<ServerSeed> {
    let proof = proof?;
    let (seed, test_seed) = match shared.config.dice_seed {
        Some(dice_seed) => (ServerSeed::for_tests(dice_seed, salt), true),
        None => (os_seed(), false),
    };
    *proof = Some(DiceProof::commit(&seed, test_seed));
    Some(seed)
}

/// 32 bytes from the operating system's CSPRNG. Should the OS refuse (it
/// does not on any platform the server runs on), the thread's CSPRNG, which
/// the OS seeded, stands in.
fn os_seed() -> ServerSeed {
    let mut bytes = [0u8; 32];
    if let Err(e) = rand::rngs::SysRng.try_fill_bytes(&mut bytes) {
        tracing::warn!(error = %e, "the OS random source failed; using the thread's CSPRNG");
        rand::rng().fill_bytes(&mut bytes);
    }
    ServerSeed::from_bytes(bytes)
}

impl Room {
    /// Starts a new match's dice (a rematch): a fresh seed and commitment,
    /// no player seeds yet.
    pub(super) fn new_match_dice(&mut self) {
        let salt = format!("rematch-{:016x}", self.rng.next_u64());
        self.dice.seed = commit_dice(&self.shared, self.game.dice_mut(), &salt);
        self.dice.seeds_given = [false; 2];
        self.dice.seed_deadline = None;
    }

    /// The dice of the next roll (an opening roll's `[white, black]` too)
    /// from the match's stream; `None` for a room without a proof (Gomoku,
    /// or a match that began before verifiable dice), which rolls the old way.
    pub(super) fn stream_roll(&self) -> Option<[u8; 2]> {
        let seed = self.dice.seed.as_ref()?;
        let proof = self.game.record().dice()?;
        let actions = self.game.record().bg_actions()?;
        Some(proof.stream_with(seed).next_roll(actions))
    }

    /// The dice of a player's next roll: from the match's stream; else a
    /// roll a takeback cut, dealt again; else fresh from the room's
    /// generator.
    pub(super) fn next_roll(&mut self) -> [u8; 2] {
        self.stream_roll()
            .or_else(|| self.dice.redeal.pop_front())
            .unwrap_or_else(|| self.fresh_roll())
    }

    /// The opening roll's `[white, black]`: from the match's stream, else
    /// fresh.
    pub(super) fn opening_roll(&mut self) -> [u8; 2] {
        self.stream_roll().unwrap_or_else(|| self.fresh_roll())
    }

    /// Two dice from the room's generator (a match without a proof).
    fn fresh_roll(&mut self) -> [u8; 2] {
        [
            self.rng.random_range(1..=6u8),
            self.rng.random_range(1..=6u8),
        ]
    }

    /// Whether the match's first roll is still to come (so the players'
    /// seeds may still change).
    fn before_first_roll(&self) -> bool {
        self.game
            .record()
            .bg_actions()
            .is_some_and(|a| RollPosition::after(a) == RollPosition::FIRST)
    }

    /// Whether the opening roll still waits for a human player's seed: the
    /// match has a proof, its first roll is to come, a human seat has not
    /// sent its seed, and the wait since the game started is not over.
    pub(super) fn waiting_for_seeds(&self) -> bool {
        self.dice.seed.is_some()
            && self.result.is_none()
            && self.game_started
            && self.dice.seed_deadline.is_some_and(|t| Instant::now() < t)
            && self.before_first_roll()
            && (0..2).any(|i| {
                !self.dice.seeds_given[i] && self.seats[i].as_ref().is_some_and(|p| p.ai.is_none())
            })
    }

    /// Starts the opening roll's wait for the players' seeds (the game has
    /// just started, or a restarted room resumes before its first roll).
    pub(super) fn start_seed_wait(&mut self) {
        self.dice.seed_deadline = Some(Instant::now() + self.shared.config.dice_seed_wait);
    }

    /// `dice_seed`: `seat` adds its seed to the match's dice. Saved, then
    /// told to the room; the opening roll follows once every human's seed
    /// is in.
    ///
    /// # Errors
    /// `illegal_move` outside Backgammon, for a match without a commitment,
    /// once the match is over or its first roll is out; `bad_request` for a
    /// seed that is too long or not printable ASCII.
    pub(super) async fn dice_seed(&mut self, seat: Seat, seed: String) -> Result<(), Refusal> {
        if self.game.backgammon().is_none() {
            return Err(refuse(
                ErrorCode::IllegalMove,
                "dice seeds are for Backgammon",
            ));
        }
        if self.result.is_some() {
            return Err(refuse(ErrorCode::IllegalMove, "the match is over"));
        }
        if self.dice.seed.is_none() || self.game.record().dice().is_none() {
            return Err(refuse(
                ErrorCode::IllegalMove,
                "this match began before verifiable dice: it has no commitment",
            ));
        }
        if !self.before_first_roll() {
            return Err(refuse(
                ErrorCode::IllegalMove,
                "the dice are fixed: the match's first roll is out",
            ));
        }
        check_player_seed(&seed).map_err(|e| refuse(ErrorCode::BadRequest, e.to_string()))?;
        let before = self.checkpoint();
        if let Some(Some(proof)) = self.game.dice_mut()
            && let Err(e) = proof.set_player_seed(side_of(seat), &seed)
        {
            self.roll_back(before);
            return Err(refuse(ErrorCode::BadRequest, e.to_string()));
        }
        self.dice.seeds_given[idx(seat)] = true;
        self.save_or_undo(before, vec![RoomEvent::DiceSeed { seat, seed }])
            .await?;
        self.after_change().await;
        Ok(())
    }

    /// A seat was given up before the game began: its player's seed goes
    /// with it, so that whoever sits there next gives their own.
    pub(super) fn forget_seed(&mut self, seat: Seat) {
        self.dice.seeds_given[idx(seat)] = false;
        if !self.before_first_roll() {
            return;
        }
        let Some(Some(proof)) = self.game.dice_mut() else {
            return;
        };
        let side = side_of(seat);
        if !proof.player_seeds[side.index()].is_empty() {
            proof.player_seeds[side.index()].clear();
            self.emit(RoomEvent::DiceSeed {
                seat,
                seed: String::new(),
            });
        }
    }

    /// Reveals the match's server seed in the record (the match is over);
    /// returns the revealed proof, for the `game_over` event.
    pub(super) fn reveal_dice(&mut self) -> Option<DiceProof> {
        let seed = self.dice.seed.clone()?;
        let Some(Some(proof)) = self.game.dice_mut() else {
            return None;
        };
        proof.reveal(&seed);
        Some(proof.clone())
    }
}
