//! What the server's engines say about a game: the analysis of a finished
//! game (`analyse` → `analysis_progress`… → `analysis`) and hints during a
//! casual one (`hint` → `hints`).
//!
//! Backgammon equities are cubeless money equities per unit of the cube
//! (one point = 1.0), from the side that decided; losses are in
//! millipoints (mp, thousandths of a point) and marked with GNU
//! Backgammon's default thresholds. Gomoku evaluations are Black's outlook
//! from −1 (White wins) to +1 (Black wins), ±1 for a forced win found.

use serde::{Deserialize, Serialize};

use crate::backgammon::Side;
use crate::game::PlayerAction;
use crate::gomoku::{Point, Stone};

/// gnubg's "doubtful" threshold (its default in 1.07: 0.030), in mp.
pub const INACCURACY_MP: f32 = 30.0;
/// gnubg's "bad" threshold (its default in 1.07: 0.060), in mp.
pub const ERROR_MP: f32 = 60.0;
/// gnubg's "very bad" threshold (its default in 1.07: 0.120), in mp.
pub const BLUNDER_MP: f32 = 120.0;

/// How bad a Backgammon decision was, by the equity it gave away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// At least [`INACCURACY_MP`] (gnubg: "doubtful").
    Inaccuracy,
    /// At least [`ERROR_MP`] (gnubg: "bad").
    Error,
    /// At least [`BLUNDER_MP`] (gnubg: "very bad").
    Blunder,
}

impl Mark {
    /// The mark for a loss of `loss_mp` millipoints, `None` below
    /// [`INACCURACY_MP`].
    pub fn from_loss_mp(loss_mp: f32) -> Option<Mark> {
        if loss_mp >= BLUNDER_MP {
            Some(Mark::Blunder)
        } else if loss_mp >= ERROR_MP {
            Some(Mark::Error)
        } else if loss_mp >= INACCURACY_MP {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }
}

/// The analysis of one finished game, computed once by the server and kept
/// with the game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum GameAnalysis {
    /// A Gomoku game.
    Gomoku(GomokuAnalysis),
    /// A Backgammon match.
    Backgammon(BgAnalysis),
}

/// Every stone of a Gomoku game, judged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GomokuAnalysis {
    /// What judged the moves and with what budget.
    pub engine: String,
    /// One review per stone placed in the main phase, in order.
    pub moves: Vec<GomokuMoveReview>,
}

/// One Gomoku stone, judged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GomokuMoveReview {
    /// The stone's index among the record's actions.
    pub index: usize,
    /// Who placed it.
    pub stone: Stone,
    /// Where.
    pub played: Point,
    /// The engine's choice in the position before the stone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<Point>,
    /// Black's outlook after the stone, −1 to +1.
    pub eval: f32,
    /// What went wrong, if anything did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mistake: Option<GomokuMistake>,
    /// The forced win behind the mistake, alternating attacker and
    /// defender stones: for a missed win (or missed block), the line the
    /// attacker had from the position before the stone; for an allowed win,
    /// the opponent's line from the position after it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub line: Vec<Point>,
}

/// What a Gomoku stone got wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GomokuMistake {
    /// The player had a forced win and played a stone that lost it.
    MissedWin,
    /// The opponent threatened a forced win that could be stopped, and the
    /// stone did not stop it.
    MissedBlock,
    /// The opponent had no forced win before the stone and has one after.
    AllowedWin,
    /// No forced win either way, but the stone lowered its player's
    /// outlook by more than half of the −1 to +1 range against the
    /// Expert's best (`line` holds that best stone).
    Mistake,
}

/// Every decision of a Backgammon match, judged, with the luck of the dice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BgAnalysis {
    /// What judged the decisions and how deep.
    pub engine: String,
    /// The reviewed decisions in match order: every play with a choice,
    /// every double, take and drop, and every roll where a double was right
    /// but not offered.
    pub decisions: Vec<BgDecisionReview>,
    /// Every roll after the opening roll, with the equity it gained or lost
    /// against the average roll.
    pub rolls: Vec<BgRollLuck>,
    /// White's and Black's totals, in that order.
    pub players: [BgPlayerReview; 2],
}

/// The kind of a Backgammon decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BgDecisionKind {
    /// A checker play.
    Play,
    /// Doubled.
    Double,
    /// Rolled where doubling was possible.
    NoDouble,
    /// Took a double.
    Take,
    /// Dropped a double.
    Drop,
}

/// One Backgammon decision, judged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BgDecisionReview {
    /// The index among the record's actions of the action decided (for a
    /// roll without a double: the roll).
    pub index: usize,
    /// The game of the match, from 1.
    pub game: u32,
    /// Who decided.
    pub side: Side,
    /// What kind of decision.
    pub kind: BgDecisionKind,
    /// What was done: a play in notation, or `double`, `no double`, `take`,
    /// `drop`.
    pub played: String,
    /// What the engine prefers, in the same words.
    pub best: String,
    /// The decider's equity after what was done.
    pub equity_played: f32,
    /// The decider's equity after the engine's choice.
    pub equity_best: f32,
    /// `equity_best − equity_played`, in millipoints (never negative).
    pub loss_mp: f32,
    /// The loss's mark.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<Mark>,
    /// For plays: the engine's top three, best first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<BgCandidate>,
    /// White's cubeless equity after the decision (the graph's value).
    pub white_equity: f32,
}

/// A play and its equity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BgCandidate {
    /// The play in notation, from the mover's side.
    pub play: String,
    /// Its equity for the mover.
    pub equity: f32,
}

/// The luck of one roll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BgRollLuck {
    /// The roll's index among the record's actions.
    pub index: usize,
    /// Who rolled.
    pub side: Side,
    /// The dice.
    pub dice: [u8; 2],
    /// The roller's equity after the best play of this roll, minus the
    /// average of that over the 21 rolls (points; positive is lucky).
    pub luck: f32,
}

/// One player's totals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BgPlayerReview {
    /// Which player.
    pub side: Side,
    /// Reviewed decisions.
    pub decisions: u32,
    /// Mean loss per reviewed decision, in mp (gnubg's "error rate").
    pub error_rate_mp: f32,
    /// Decisions marked inaccuracy.
    pub inaccuracies: u32,
    /// Decisions marked error.
    pub errors: u32,
    /// Decisions marked blunder.
    pub blunders: u32,
    /// The sum of the player's rolls' luck, in points.
    pub luck: f32,
}

/// One suggestion of a hint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hint {
    /// The action, as it would be sent in `act`.
    pub action: PlayerAction,
    /// The action in words: a play's notation or a point such as `h8`.
    pub label: String,
    /// Backgammon: the mover's equity after the play; Gomoku: the mover's
    /// outlook after the stone, −1 to +1.
    pub value: f32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_gnubgs_default_thresholds() {
        // `gnubg -t` then `show analysis`: -0.030 doubtful, -0.060 bad,
        // -0.120 very bad.
        assert_eq!(Mark::from_loss_mp(29.9), None);
        assert_eq!(Mark::from_loss_mp(30.0), Some(Mark::Inaccuracy));
        assert_eq!(Mark::from_loss_mp(60.0), Some(Mark::Error));
        assert_eq!(Mark::from_loss_mp(119.9), Some(Mark::Error));
        assert_eq!(Mark::from_loss_mp(120.0), Some(Mark::Blunder));
    }
}
