//! The review of a finished Backgammon match by the Expert: every checker
//! play with a choice, every cube decision, and the luck of every roll, in
//! the terms of GNU Backgammon's match analysis (equity lost per decision in
//! millipoints, marked with its default thresholds).
//!
//! * **Plays**: every legal play is valued at 0-ply; the best
//!   [`expert::ONE_PLY_CANDIDATES`] within [`expert::ONE_PLY_WINDOW`] of the
//!   best, and the play made, are valued again at 1-ply, and the loss is
//!   the 1-ply difference, in cubeful money equity in a money game with the
//!   cube ([`play_equity`]), cubeless money equity otherwise (also in
//!   matches).
//! * **Cube**: the probabilities before the roll (the average over the 21
//!   rolls of the best 0-ply play) give no double / double-take /
//!   double-pass equities: Janowski's cubeful money equity in money play,
//!   and in a match the match winning chances of the Kazaross XG2 table
//!   expressed in money-equivalent points (gnubg's normalisation). A roll
//!   without a double is reviewed where doubling was the better action.
//! * **Luck**: the roller's equity after the best 0-ply play of the roll,
//!   minus the average of that over the 21 rolls.

use tabula_shared::backgammon::{BgMatch, Dice, GamePhase, MatchConfig, Position, Side};
use tabula_shared::game::{BgAction, ReplayError, apply_bg};

use crate::analysis::AnalysisError;
use tabula_shared::protocol::{
    BgAnalysis, BgCandidate, BgDecisionKind, BgDecisionReview, BgPlayerReview, BgRollLuck, Mark,
};

use super::cube::{self, MatchState, Owner};
use super::expert::{self, Expert};
use super::nn::{self, Probs};

/// How the review judges, in words (the analysis's `engine`).
pub const ENGINE: &str = "Tabula Expert (network expert-v3): plays at 1-ply over the best 0-ply \
candidates, cube by Janowski (money) or the Kazaross XG2 table (match)";

/// Reviews the match `actions` (played under `config`); `progress` hears
/// `(done, total)` after each action.
///
/// # Errors
/// A record the rules refuse, or Expert weights that fail their check.
pub fn review_match(
    config: MatchConfig,
    actions: &[BgAction],
    progress: &mut dyn FnMut(u32, u32),
) -> Result<BgAnalysis, AnalysisError> {
    let net = super::expert_network().map_err(|e| AnalysisError::Weights(e.to_string()))?;
    let judge = Expert::new(net);
    let mut m =
        BgMatch::new(config).map_err(|error| ReplayError::Backgammon { index: 0, error })?;
    let mut decisions = Vec::new();
    let mut rolls = Vec::new();
    let mut game = 1;
    let total = actions.len() as u32;
    for (index, action) in actions.iter().enumerate() {
        match action {
            BgAction::Roll { side, dice } => {
                let pos = m.position_for(*side);
                let table = RollTable::new(&judge, &pos);
                if m.can_double(*side)
                    && let Some(review) = cube_review(&m, *side, &table.probs, CubeAct::NoDouble)
                    && review.loss_mp > 0.0
                {
                    decisions.push(review.at(index, game));
                }
                if let Ok(d) = Dice::new(dice[0], dice[1]) {
                    rolls.push(BgRollLuck {
                        index,
                        side: *side,
                        dice: *dice,
                        luck: table.best_after(d) - table.average,
                    });
                }
            }
            BgAction::Double { side } => {
                let pos = m.position_for(*side);
                let p = RollTable::new(&judge, &pos).probs;
                if let Some(review) = cube_review(&m, *side, &p, CubeAct::Double) {
                    decisions.push(review.at(index, game));
                }
            }
            BgAction::Take { side } | BgAction::Drop { side } => {
                let doubler = side.opponent();
                let p = RollTable::new(&judge, &m.position_for(doubler)).probs;
                let act = if matches!(action, BgAction::Take { .. }) {
                    CubeAct::Take
                } else {
                    CubeAct::Drop
                };
                if let Some(review) = cube_review(&m, doubler, &p, act) {
                    decisions.push(review.at(index, game));
                }
            }
            BgAction::Play { side, .. } => {
                if let GamePhase::Moving { dice, .. } = *m.phase() {
                    let mut after = m.clone();
                    apply_bg(&mut after, action)
                        .map_err(|error| ReplayError::Backgammon { index, error })?;
                    if let Some(review) =
                        play_review(&judge, &m, *side, dice, &after.position_for(*side))
                    {
                        decisions.push(review.at(index, game));
                    }
                }
            }
            BgAction::NextGame => game += 1,
            BgAction::OpeningRoll { .. } | BgAction::Resign { .. } => {}
        }
        apply_bg(&mut m, action).map_err(|error| ReplayError::Backgammon { index, error })?;
        progress(index as u32 + 1, total);
    }
    let players = [Side::White, Side::Black].map(|side| totals(side, &decisions, &rolls));
    Ok(BgAnalysis {
        engine: ENGINE.to_string(),
        decisions,
        rolls,
        players,
    })
}

/// A decision's review before it knows where it stands in the record.
struct Review {
    side: Side,
    kind: BgDecisionKind,
    played: String,
    best: String,
    equity_played: f32,
    equity_best: f32,
    loss_mp: f32,
    candidates: Vec<BgCandidate>,
    white_equity: f32,
}

impl Review {
    fn at(self, index: usize, game: u32) -> BgDecisionReview {
        BgDecisionReview {
            index,
            game,
            side: self.side,
            kind: self.kind,
            played: self.played,
            best: self.best,
            equity_played: self.equity_played,
            equity_best: self.equity_best,
            loss_mp: self.loss_mp,
            mark: Mark::from_loss_mp(self.loss_mp),
            candidates: self.candidates,
            white_equity: self.white_equity,
        }
    }
}

/// The 21 rolls of one position before its side rolls: the best 0-ply
/// result of each, their average, and the probabilities that average gives
/// (the cube's view of the position).
struct RollTable {
    best: Vec<(Dice, f32)>,
    average: f32,
    probs: Probs,
}

impl RollTable {
    fn new(judge: &Expert, pos: &Position) -> RollTable {
        let mut buf = Vec::with_capacity(64);
        let mut best = Vec::with_capacity(21);
        let mut acc = [0f32; 5];
        let mut average = 0.0;
        for (dice, w) in Dice::ALL_21 {
            pos.legal_positions_into(dice, false, &mut buf);
            let mut top: Option<(f32, Probs)> = None;
            for r in &buf {
                let v = judge.value_after(r);
                let e = nn::equity(&v);
                if top.is_none_or(|(b, _)| e > b) {
                    top = Some((e, v));
                }
            }
            let (e, v) = top.unwrap_or_else(|| {
                let v = judge.probs_on_roll(pos);
                (nn::equity(&v), v)
            });
            best.push((dice, e));
            average += f32::from(w) * e / 36.0;
            for k in 0..5 {
                acc[k] += f32::from(w) * v[k] / 36.0;
            }
        }
        RollTable {
            best,
            average,
            probs: nn::sanitize(&acc),
        }
    }

    /// The best 0-ply equity after `dice`.
    fn best_after(&self, dice: Dice) -> f32 {
        let key = |d: Dice| (d.high(), d.low());
        self.best
            .iter()
            .find(|(d, _)| key(*d) == key(dice))
            .map_or(self.average, |&(_, e)| e)
    }
}

/// The equity of `side`'s position (seen by `side`) for White.
fn for_white(side: Side, equity: f32) -> f32 {
    if side == Side::White { equity } else { -equity }
}

/// Reviews `side`'s play in `m` (`dice` to play; `made` is the result, from
/// `side`'s view); `None` when the play was forced.
fn play_review(
    judge: &Expert,
    m: &BgMatch,
    side: Side,
    dice: Dice,
    made: &Position,
) -> Option<Review> {
    let pos = m.position_for(side);
    let plays = pos.legal_plays_with(dice, m.config().doubles_twice);
    if plays.len() < 2 {
        return None;
    }
    let mut ranked: Vec<(usize, f32)> = plays
        .iter()
        .enumerate()
        .map(|(i, (_, after))| (i, nn::equity(&judge.value_after(after))))
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let played = plays.iter().position(|(_, after)| after == made)?;
    let top = ranked[0].1;
    let mut buf = Vec::with_capacity(64);
    let mut chosen: Vec<usize> = ranked
        .iter()
        .take(expert::ONE_PLY_CANDIDATES)
        .filter(|&&(_, e)| e >= top - expert::ONE_PLY_WINDOW)
        .map(|&(i, _)| i)
        .collect();
    if !chosen.contains(&played) {
        // The play made is valued at 1-ply too, wherever it ranked.
        chosen.push(played);
    }
    let mut deep: Vec<(usize, f32)> = chosen
        .into_iter()
        .map(|i| {
            (
                i,
                play_equity(m, side, &judge.value_after_1ply(&plays[i].1, &mut buf)),
            )
        })
        .collect();
    deep.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let (best, equity_best) = deep[0];
    let equity_played = deep
        .iter()
        .find(|&&(i, _)| i == played)
        .map_or(equity_best, |&(_, e)| e);
    let loss_mp = ((equity_best - equity_played) * 1000.0).max(0.0);
    Some(Review {
        side,
        kind: BgDecisionKind::Play,
        played: plays[played].0.to_string(),
        best: plays[best].0.to_string(),
        equity_played,
        equity_best,
        loss_mp,
        candidates: deep
            .iter()
            .take(3)
            .map(|&(i, equity)| BgCandidate {
                play: plays[i].0.to_string(),
                equity,
            })
            .collect(),
        white_equity: for_white(side, equity_played),
    })
}

/// `side`'s equity after a play whose 1-ply probabilities (`side` on roll
/// again, after the opponent's reply) are `p`: in a money game with the
/// cube, Janowski's cubeful equity per unit of the cube, as gnubg's
/// analysis judges plays (a side too good to double or far behind gains
/// little from plays that only move its gammon chances); otherwise, and
/// in matches, cubeless money equity.
pub(super) fn play_equity(m: &BgMatch, side: Side, p: &Probs) -> f32 {
    let config = m.config();
    if !config.cube || config.length != 0 {
        return nn::equity(p);
    }
    let owner = match m.cube().owner {
        None => Owner::Centered,
        Some(s) if s == side => Owner::Me,
        Some(_) => Owner::Opponent,
    };
    let p = if config.jacoby && owner == Owner::Centered {
        [p[0], 0.0, 0.0, 0.0, 0.0]
    } else {
        *p
    };
    cube::cubeful_money(&p, owner, cube::CUBE_LIFE)
}

/// A cube action.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CubeAct {
    NoDouble,
    Double,
    Take,
    Drop,
}

/// Reviews a cube action: for [`CubeAct::NoDouble`] and
/// [`CubeAct::Double`], `doubler` is the side deciding; for take and drop,
/// the side that doubled (the other side decides). `p` are the doubler's
/// probabilities before its roll. `None` in a game without a cube.
fn cube_review(m: &BgMatch, doubler: Side, p: &Probs, act: CubeAct) -> Option<Review> {
    let [no_double, double_take, double_pass] = cube_equities(m, doubler, p)?;
    let (side, kind, best, equity_played, equity_best) = match act {
        CubeAct::NoDouble | CubeAct::Double => {
            let double = double_take.min(double_pass);
            let (played, kind) = if act == CubeAct::Double {
                (double, BgDecisionKind::Double)
            } else {
                (no_double, BgDecisionKind::NoDouble)
            };
            let best = if double > no_double {
                "double"
            } else {
                "no double"
            };
            (doubler, kind, best, played, no_double.max(double))
        }
        CubeAct::Take | CubeAct::Drop => {
            // The taker's equities are the doubler's, negated.
            let (take, pass) = (-double_take, -double_pass);
            let (played, kind) = if act == CubeAct::Take {
                (take, BgDecisionKind::Take)
            } else {
                (pass, BgDecisionKind::Drop)
            };
            let best = if take >= pass { "take" } else { "drop" };
            (doubler.opponent(), kind, best, played, take.max(pass))
        }
    };
    let words = match kind {
        BgDecisionKind::Double => "double",
        BgDecisionKind::NoDouble => "no double",
        BgDecisionKind::Take => "take",
        BgDecisionKind::Drop => "drop",
        BgDecisionKind::Play => "",
    };
    Some(Review {
        side,
        kind,
        played: words.to_string(),
        best: best.to_string(),
        equity_played,
        equity_best,
        loss_mp: ((equity_best - equity_played) * 1000.0).max(0.0),
        candidates: Vec::new(),
        white_equity: for_white(doubler, nn::equity(p)),
    })
}

/// No double, double-take and double-pass equities for `doubler`, per unit
/// of the current cube: money equity in money play, match winning chances
/// as money-equivalent equity in a match.
pub(super) fn cube_equities(m: &BgMatch, doubler: Side, p: &Probs) -> Option<[f32; 3]> {
    let config = m.config();
    if !config.cube {
        return None;
    }
    let owner = match m.cube().owner {
        None => Owner::Centered,
        Some(s) if s == doubler => Owner::Me,
        Some(_) => Owner::Opponent,
    };
    if config.length == 0 {
        let a = cube::money_analysis(p, owner, config.jacoby);
        return Some([a.no_double, a.double_take, a.double_pass]);
    }
    let score = m.score();
    let away = |s: Side| config.length.saturating_sub(score[s.index()]) as i32;
    let cube_value = i32::from(m.cube().value.max(1));
    let ms = MatchState {
        me_away: away(doubler),
        opp_away: away(doubler.opponent()),
        cube: cube_value,
        crawford_used: m.is_crawford_game() || away(doubler) == 1 || away(doubler.opponent()) == 1,
    };
    // gnubg's normalisation: winning the cube's value is +1, losing it −1.
    let win = ms.mwc_after(cube_value, 0);
    let lose = ms.mwc_after(0, cube_value);
    let scale = (win - lose).max(1e-6);
    let emg = |mwc: f32| (2.0 * mwc - (win + lose)) / scale;
    Some(ms.analysis(p, owner).map(emg))
}

/// `side`'s totals.
fn totals(side: Side, decisions: &[BgDecisionReview], rolls: &[BgRollLuck]) -> BgPlayerReview {
    let mine: Vec<&BgDecisionReview> = decisions.iter().filter(|d| d.side == side).collect();
    let count = |mark: Mark| mine.iter().filter(|d| d.mark == Some(mark)).count() as u32;
    let loss: f32 = mine.iter().map(|d| d.loss_mp).sum();
    BgPlayerReview {
        side,
        decisions: mine.len() as u32,
        error_rate_mp: if mine.is_empty() {
            0.0
        } else {
            loss / mine.len() as f32
        },
        inaccuracies: count(Mark::Inaccuracy),
        errors: count(Mark::Error),
        blunders: count(Mark::Blunder),
        luck: rolls
            .iter()
            .filter(|r| r.side == side)
            .map(|r| r.luck)
            .sum(),
    }
}
