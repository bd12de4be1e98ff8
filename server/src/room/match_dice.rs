//! [`MatchDice`]: where a Backgammon match's rolls come from: its secret
//! server seed (the commitment to it is in the record's dice proof), the
//! players' seeds given so far and the opening roll's wait for them, and the
//! rolls a takeback cut, dealt again in order.

use std::collections::VecDeque;
use std::time::Instant;

use tabula_shared::fair_dice::ServerSeed;

/// The match's dice, as the room keeps them.
#[derive(Clone, Default)]
pub(super) struct MatchDice {
    /// The match's secret seed (see `SavedRoom::dice_seed`); `None` for
    /// Gomoku and for a match from before verifiable dice.
    pub(super) seed: Option<ServerSeed>,
    /// Which seats gave their dice seed (see `SavedRoom::seeds_given`).
    pub(super) seeds_given: [bool; 2],
    /// Until when the match's opening roll waits for the human players'
    /// dice seeds (set when the game starts; see `Room::waiting_for_seeds`).
    pub(super) seed_deadline: Option<Instant>,
    /// Rolls a takeback cut, dealt again in order (only without a seed: a
    /// match's stream deals them again by itself; see `SavedRoom::redeal`).
    pub(super) redeal: VecDeque<[u8; 2]>,
}
