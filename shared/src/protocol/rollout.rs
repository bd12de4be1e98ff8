//! Backgammon rollouts on the wire: `rollout` asks the server to play a
//! study position out many times with the engine, `rollout` reports (sent
//! as the trials come in, the last one ended) say what came of it, and
//! `stop_rollout` ends one early.
//!
//! Figures are for the side to decide, as in [`super::study`]: the chances
//! averaged over the trials, the cubeless equity with its 95% confidence
//! interval, and the cubeful equity worked out from those chances as the
//! board's answer does.

use serde::{Deserialize, Serialize};

use super::study::{BgChances, BgCubeLine};
use crate::backgammon::{Play, Side};

/// Trials a rollout plays when the request names none (gnubg's default):
/// 36 × 36, so the first two rolls of the trials cover every pair once.
pub const DEFAULT_ROLLOUT_TRIALS: u32 = 1296;
/// Most trials one rollout plays.
pub const MAX_ROLLOUT_TRIALS: u32 = 46_656;

/// Where a rollout has got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RolloutState {
    /// Trials are being played; more reports follow.
    Running,
    /// Every trial asked for was played. The last report.
    Finished,
    /// Stopped early (`stop_rollout`, or a newer `rollout` by the same
    /// player). The last report: the figures of the trials played.
    Stopped,
}

/// One report of a rollout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BgRollout {
    /// What played the trials and how.
    pub engine: String,
    /// The side the figures are for.
    pub side: Side,
    /// Trials played so far (for every line alike).
    pub trials_done: u32,
    /// Trials asked for.
    pub trials: u32,
    /// Where the rollout has got.
    pub state: RolloutState,
    /// When a roll is to be played: the candidate plays, best first by
    /// their rolled-out cubeful equity; for a decision before the roll, one
    /// line without a play (the position itself).
    pub lines: Vec<BgRolloutLine>,
    /// When the side on roll may double, or a double is offered: the cube
    /// decision worked out from the rolled-out chances.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cube: Option<BgCubeLine>,
}

/// The rolled-out figures of one candidate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BgRolloutLine {
    /// The play, as sent in `act`; absent for the position before the
    /// roll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<Play>,
    /// The play in notation, e.g. `8/5 6/5`; empty for the position.
    pub notation: String,
    /// The chances, averaged over the trials.
    pub chances: BgChances,
    /// Cubeless equity, the mean over the trials.
    pub cubeless: f32,
    /// Half the width of the cubeless equity's 95% confidence interval
    /// (1.96 standard errors); 0 for a play that ends the game.
    pub cubeless_ci: f32,
    /// Cubeful equity from the rolled-out chances.
    pub equity: f32,
}
