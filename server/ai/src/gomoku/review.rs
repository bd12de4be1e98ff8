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

/// Forced replies followed, at most, to score a position (a four answered,
/// which may make a four that must be answered in turn, ...).
const MAX_FORCED_REPLIES: usize = 8;

impl Judged {
    fn new(game: &Gomoku, nodes: u64) -> Judged {
        let board = game.board();
        let to_play = game.stone_to_play();
        let rule = game.config().rule;
        let report = expert_search(board, to_play, rule, Limits::nodes(nodes), 0);
        Judged {
            to_play,
            score: settled_score(game, report.best, report.score, report.depth, nodes),
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

/// The score of `game` for the side to play. The search answers a forced
/// reply (blocking a four) at once, with no depth and a score of 0, which
/// says nothing of the position: it is scored by the position after the
/// reply instead, from the other side (a graph would otherwise drop to even
/// after every four).
fn settled_score(game: &Gomoku, best: Option<Point>, score: i32, depth: i32, nodes: u64) -> i32 {
    let mut game = game.clone();
    let (mut best, mut score, mut depth) = (best, score, depth);
    let mut sign = 1;
    for _ in 0..MAX_FORCED_REPLIES {
        let forced = depth == 0 && score == 0;
        let (true, Some(reply), Some(seat)) = (forced, best, game.to_act()) else {
            break;
        };
        if game
            .apply(GomokuAction::Place { seat, point: reply })
            .is_err()
            || game.phase() != Phase::Main
            || game.outcome().is_some()
        {
            break;
        }
        let rule = game.config().rule;
        let next = expert_search(
            game.board(),
            game.stone_to_play(),
            rule,
            Limits::nodes(nodes),
            0,
        );
        sign = -sign;
        (best, score, depth) = (next.best, next.score, next.depth);
    }
    sign * score
}

/// Whether the stone `best` loses as well in `before` (the position before
/// `played`): the opponent has a VCF after it. Then every stone lost and
/// none was a mistake; the one that lost the game came earlier.
fn best_loses_too(before: &Gomoku, best: Point) -> bool {
    let mut game = before.clone();
    let Some(seat) = game.to_act() else {
        return false;
    };
    if game
        .apply(GomokuAction::Place { seat, point: best })
        .is_err()
        || game.phase() != Phase::Main
        || game.outcome().is_some()
    {
        return false;
    }
    let rule = game.config().rule;
    find_vcf(game.board(), game.stone_to_play(), rule, VCF_NODES).is_some()
}

/// How far a stone may lower its player's outlook (of the range −1 to +1),
/// against the Expert's best, before it counts as a mistake: more than a
/// quarter of the range.
const MISTAKE_DROP: f32 = 0.5;

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
        let game_before = before.is_some().then(|| game.clone());
        game.apply(*action)
            .map_err(|error| AnalysisError::Gomoku { index, error })?;
        if let (Some(played), Some(before), Some(game_before)) = (placed, before, game_before) {
            let after = (game.phase() == Phase::Main).then(|| Judged::new(&game, nodes));
            let stones = Stones {
                before: &game_before,
                after: &game,
            };
            moves.push(judge_stone(index, played, &before, after.as_ref(), stones));
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

/// The games on both sides of a stone.
#[derive(Clone, Copy)]
struct Stones<'a> {
    before: &'a Gomoku,
    after: &'a Gomoku,
}

/// The review of the stone `played` (record index `index`), judged by the
/// positions `before` and `after` it (`after` is `None` when the stone ended
/// the game). A stone the Expert would have played itself is never a
/// mistake, nor is one in a position that every stone lost.
fn judge_stone(
    index: usize,
    played: Point,
    before: &Judged,
    after: Option<&Judged>,
    games: Stones<'_>,
) -> GomokuMoveReview {
    let game = games.after;
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
    if before.best == Some(played) {
        return review;
    }
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
        if before
            .best
            .is_some_and(|best| best_loses_too(games.before, best))
        {
            // Lost already: the Expert's own stone does not hold either.
        } else if let Some(threat) = &before.threat_line {
            review.mistake = Some(GomokuMistake::MissedBlock);
            review.line = threat.clone();
        } else {
            review.mistake = Some(GomokuMistake::AllowedWin);
            review.line = after
                .win_line
                .clone()
                .unwrap_or_else(|| after.best.into_iter().collect());
        }
    } else if !after.won() && !after.lost() {
        // No forced line either way: a stone that lowered its player's
        // outlook by much more than the Expert's best would have.
        let mine = |eval: f32| if stone == Stone::Black { eval } else { -eval };
        let drop = mine(outlook(before.score, before.to_play)) - mine(review.eval);
        if drop > MISTAKE_DROP {
            review.mistake = Some(GomokuMistake::Mistake);
            review.line = before.best.into_iter().collect();
        }
    }
    review
}
