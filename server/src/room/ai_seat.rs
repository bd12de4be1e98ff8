//! [`AiSeat`]: the room's side of an AI opponent: which thought is the
//! latest asked for, whether one is under way, and the host's engines
//! playing its seats. (The thinking itself is `ai_turn`.)

use std::sync::Arc;

use crate::engines::EnginePlayer;

/// The AI seat's state in its room.
pub(super) struct AiSeat {
    /// The seed of the AI's choices (the test dice seed, else 0), mixed
    /// with the move number for each thought.
    pub(super) seed: u64,
    /// Counts the thoughts asked for: an answer for an older one is out of
    /// date (the game moved on) and dropped.
    pub(super) generation: u64,
    /// A thought is under way.
    pub(super) thinking: bool,
    /// The host's engine playing each seat, where one does (a
    /// tournament's game may have two); shared with the task asking it,
    /// which holds it while it thinks.
    pub(super) engines: [Option<Arc<tokio::sync::Mutex<EnginePlayer>>>; 2],
}
