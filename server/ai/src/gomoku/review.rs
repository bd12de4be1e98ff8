//! The review of a finished Gomoku game by the Expert: its outlook after
//! every stone, and the stones where a forced win was missed, allowed or
//! not blocked, with the winning line behind each.
//!
//! Every position before a main-phase stone is searched once (a node limit,
//! so the review is reproducible) and checked for a VCF of each side; a
//! stone is judged by the position before it and the position after it.

use tabula_shared::gomoku::{Gomoku, GomokuAction, GomokuConfig, Outcome, Phase, Point, Stone};
use tabula_shared::protocol::{GomokuAnalysis, GomokuMistake, GomokuMoveReview};

use super::search::WIN_THRESHOLD;
use super::{Limits, expert_search, find_vcf};
use crate::analysis::AnalysisError;

/// Nodes of each VCF check (each side, each position).
pub const VCF_NODES: u64 = 20_000;

/// Black's outlook, −1 to +1, for a search `score` of the side `to_play`:
/// ±1 for a forced result, otherwise twice the winning chance the
/// evaluation's scale gives, less one.
pub fn outlook(score: i32, to_play: Stone) -> f32 {
    let mine = if score >= WIN_THRESHOLD {
        1.0
    } else if score <= -WIN_THRESHOLD {
        -1.0
    } else {
        // About 200 units per logit of the winning chance p (see
        // `eval`), and 2p - 1 = tanh(logit / 2).
        (score as f32 / 400.0).tanh()
    };
    if to_play == Stone::Black { mine } else { -mine }
}

/// What the Expert sees in one position.
struct Judged {
    to_play: Stone,
    score: i32,
    best: Option<Point>,
    /// A VCF for the side to play.
    win_line: Option<Vec<Point>>,
    /// A VCF the other side would have if it were to play.
    threat_line: Option<Vec<Point>>,
}

impl Judged {
    fn new(game: &Gomoku, nodes: u64) -> Judged {
        let board = game.board();
        let to_play = game.stone_to_play();
        let rule = game.config().rule;
        let report = expert_search(board, to_play, rule, Limits::nodes(nodes), 0);
        Judged {
            to_play,
            score: report.score,
            best: report.best,
            win_line: find_vcf(board, to_play, rule, VCF_NODES),
            threat_line: find_vcf(board, to_play.opponent(), rule, VCF_NODES),
        }
    }

    fn won(&self) -> bool {
        self.score >= WIN_THRESHOLD || self.win_line.is_some()
    }

    fn lost(&self) -> bool {
        self.score <= -WIN_THRESHOLD
    }
}

/// Reviews the game `actions` (played under `config`), searching each
/// position with `nodes` nodes; `progress` hears `(done, total)` after each
/// action.
///
/// # Errors
/// A record the rules refuse.
pub fn review_game(
    config: GomokuConfig,
    actions: &[GomokuAction],
    nodes: u64,
    progress: &mut dyn FnMut(u32, u32),
) -> Result<GomokuAnalysis, AnalysisError> {
    let mut game =
        Gomoku::new(config).map_err(|error| AnalysisError::Gomoku { index: 0, error })?;
    let mut moves = Vec::new();
    let mut known: Option<Judged> = None;
    let total = actions.len() as u32;
    for (index, action) in actions.iter().enumerate() {
        let placed = match *action {
            GomokuAction::Place { point, .. } if game.phase() == Phase::Main => Some(point),
            _ => None,
        };
        let before = match (placed, known.take()) {
            (Some(_), Some(j)) => Some(j),
            (Some(_), None) => Some(Judged::new(&game, nodes)),
            (None, _) => None,
        };
        game.apply(*action)
            .map_err(|error| AnalysisError::Gomoku { index, error })?;
        if let (Some(played), Some(before)) = (placed, before) {
            let after = (game.phase() == Phase::Main).then(|| Judged::new(&game, nodes));
            moves.push(judge_stone(index, played, &before, after.as_ref(), &game));
            known = after;
        }
        progress(index as u32 + 1, total);
    }
    Ok(GomokuAnalysis {
        engine: format!(
            "Tabula Expert: {nodes} nodes per position, VCF checks of {VCF_NODES} nodes per side"
        ),
        moves,
    })
}

/// The review of the stone `played` (record index `index`), judged by the
/// positions `before` and `after` it (`after` is `None` when the stone ended
/// the game, now `game`).
fn judge_stone(
    index: usize,
    played: Point,
    before: &Judged,
    after: Option<&Judged>,
    game: &Gomoku,
) -> GomokuMoveReview {
    let stone = before.to_play;
    let mut review = GomokuMoveReview {
        index,
        stone,
        played,
        best: before.best,
        eval: 0.0,
        mistake: None,
        line: Vec::new(),
    };
    let Some(after) = after else {
        review.eval = match game.outcome() {
            Some(Outcome::Win { stone, .. }) if *stone == Stone::Black => 1.0,
            Some(Outcome::Win { .. }) => -1.0,
            _ => 0.0,
        };
        return review;
    };
    review.eval = outlook(after.score, after.to_play);
    let follows_the_win = before.best == Some(played)
        || before
            .win_line
            .as_ref()
            .is_some_and(|line| line.first() == Some(&played));
    if before.won() && !after.lost() && !follows_the_win {
        review.mistake = Some(GomokuMistake::MissedWin);
        review.line = before
            .win_line
            .clone()
            .unwrap_or_else(|| before.best.into_iter().collect());
    } else if !before.won() && !before.lost() && after.won() {
        if let Some(threat) = &before.threat_line {
            review.mistake = Some(GomokuMistake::MissedBlock);
            review.line = threat.clone();
        } else {
            review.mistake = Some(GomokuMistake::AllowedWin);
            review.line = after
                .win_line
                .clone()
                .unwrap_or_else(|| after.best.into_iter().collect());
        }
    }
    review
}
