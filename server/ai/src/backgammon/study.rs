//! The analysis board's Backgammon answer: the Expert's best plays with
//! their equities and chances, and the cube decision, at a chosen depth
//! (gnubg's plies).
//!
//! - **Plays** (a roll to play): every legal play at 0-ply; at depth 1 the
//!   best [`expert::ONE_PLY_CANDIDATES`] again at 1-ply (as hints choose);
//!   at depth 2 the best [`SHOWN`] of those at 2-ply. The list shows the
//!   plays valued at the chosen depth, best first by cubeful equity.
//! - **Cube** (the side on roll may double, or a double is offered): the
//!   doubler's chances before its roll, at depth 0 the network's own, at
//!   depth 1 the average over the 21 rolls of the best play's 0-ply value,
//!   at depth 2 of its 1-ply value; then no double, double-take and
//!   double-pass as the analysis of games works them out (Janowski's
//!   cubeful money equity, or the match equity table).
//! - **Cubeful play equities**: money play as the analysis judges plays;
//!   in a match the cubeful match winning chances after the play, turned
//!   into money-equivalent equity.

use tabula_shared::backgammon::{BgMatch, Dice, GamePhase, Position, Side};
use tabula_shared::protocol::{
    BgChances, BgCubeLine, BgPlayLine, BgStudyAnswer, CubeAction, MAX_STUDY_DEPTH,
};

use super::cube::{MatchState, Owner};
use super::expert::{self, Expert};
use super::nn::{self, Probs};
use super::review::{cube_equities, play_equity};

/// Plays listed at most.
pub const SHOWN: usize = 5;

/// Chances as the wire carries them.
pub fn chances(p: &Probs) -> BgChances {
    BgChances {
        win: p[0],
        win_gammon: p[1],
        win_backgammon: p[2],
        lose_gammon: p[3],
        lose_backgammon: p[4],
    }
}

/// The board's answer for the side to decide in `m` at `depth` plies
/// (at most [`MAX_STUDY_DEPTH`]); `None` when nobody is to decide or the
/// Expert's weights fail their check.
pub fn study(m: &BgMatch, depth: u8) -> Option<BgStudyAnswer> {
    let net = super::expert_network().ok()?;
    let judge = Expert::new(net);
    let depth = depth.min(MAX_STUDY_DEPTH);
    let engine = format!("Tabula Backgammon Expert, {depth}-ply");
    match *m.phase() {
        GamePhase::Moving { side, dice } => {
            let plays = ranked_plays(m, &judge, side, dice, depth);
            let chances = plays.first().map(|p| p.chances).unwrap_or_default();
            Some(BgStudyAnswer {
                engine,
                depth,
                side,
                plays,
                cube: None,
                chances,
            })
        }
        GamePhase::AwaitingRoll { side } => {
            let p = before_roll(&judge, &m.position_for(side), depth);
            let cube = m.can_double(side).then(|| cube_line(m, side, &p)).flatten();
            Some(BgStudyAnswer {
                engine,
                depth,
                side,
                plays: Vec::new(),
                cube,
                chances: chances(&p),
            })
        }
        GamePhase::CubeOffered { by } => {
            let p = before_roll(&judge, &m.position_for(by), depth);
            Some(BgStudyAnswer {
                engine,
                depth,
                side: by.opponent(),
                plays: Vec::new(),
                cube: cube_line(m, by, &p),
                chances: chances(&nn::flip(&p)),
            })
        }
        _ => None,
    }
}

/// The plays of `dice` for `side`, valued at `depth`, best first.
pub(crate) fn ranked_plays(
    m: &BgMatch,
    judge: &Expert,
    side: Side,
    dice: Dice,
    depth: u8,
) -> Vec<BgPlayLine> {
    let pos = m.position_for(side);
    let plays = pos.legal_plays_with(dice, m.config().doubles_twice);
    let mut valued: Vec<(usize, Probs)> = plays
        .iter()
        .enumerate()
        .map(|(i, (_, after))| (i, judge.value_after(after)))
        .collect();
    valued.sort_by(|a, b| nn::equity(&b.1).total_cmp(&nn::equity(&a.1)));
    let line = |(i, p): (usize, Probs)| BgPlayLine {
        play: plays[i].0.clone(),
        notation: plays[i].0.to_string(),
        equity: cubeful_after_play(m, side, &p),
        cubeless: nn::equity(&p),
        chances: chances(&p),
    };
    if depth == 0 {
        valued.truncate(SHOWN);
    } else {
        let mut buf = Vec::with_capacity(64);
        valued.truncate(expert::ONE_PLY_CANDIDATES);
        for (i, p) in &mut valued {
            *p = judge.value_after_1ply(&plays[*i].1, &mut buf);
        }
    }
    let mut lines: Vec<BgPlayLine> = valued.into_iter().map(line).collect();
    lines.sort_by(|a, b| b.equity.total_cmp(&a.equity));
    lines.truncate(SHOWN);
    if depth >= 2 {
        let mut bufs = [Vec::with_capacity(64), Vec::with_capacity(64)];
        for l in &mut lines {
            let after = plays.iter().find(|(p, _)| *p == l.play).map(|(_, a)| *a);
            if let Some(after) = after {
                let p = judge.value_after_2ply(&after, &mut bufs);
                l.equity = cubeful_after_play(m, side, &p);
                l.cubeless = nn::equity(&p);
                l.chances = chances(&p);
            }
        }
        lines.sort_by(|a, b| b.equity.total_cmp(&a.equity));
    }
    lines
}

/// `side`'s probabilities before its roll in `pos` at `depth` (see the
/// module docs).
fn before_roll(judge: &Expert, pos: &Position, depth: u8) -> Probs {
    match depth {
        0 => judge.probs_on_roll(pos),
        1 => judge.probs_before_roll(pos),
        _ => {
            let (mut buf, mut deeper) = (Vec::with_capacity(64), Vec::with_capacity(64));
            let mut acc = [0f32; 5];
            for (dice, w) in Dice::ALL_21 {
                pos.legal_positions_into(dice, false, &mut buf);
                let v = match judge.best_0ply_play(&buf) {
                    Some(best) => judge.value_after_1ply(&best, &mut deeper),
                    None => judge.probs_on_roll(pos),
                };
                for k in 0..5 {
                    acc[k] += f32::from(w) * v[k];
                }
            }
            nn::sanitize(&acc.map(|a| a / 36.0))
        }
    }
}

/// The cube decision for `doubler`, whose probabilities before its roll
/// are `p`; `None` in a game without the cube.
pub(crate) fn cube_line(m: &BgMatch, doubler: Side, p: &Probs) -> Option<BgCubeLine> {
    let [no_double, double_take, double_pass] = cube_equities(m, doubler, p)?;
    let action = if double_take.min(double_pass) > no_double {
        if double_take <= double_pass {
            CubeAction::DoubleTake
        } else {
            CubeAction::DoublePass
        }
    } else if double_take > double_pass && no_double > double_pass {
        CubeAction::TooGood
    } else {
        CubeAction::NoDouble
    };
    Some(BgCubeLine {
        doubler,
        no_double,
        double_take,
        double_pass,
        action,
        chances: chances(p),
    })
}

/// `side`'s cubeful equity after its play, `p` its probabilities then.
pub(crate) fn cubeful_after_play(m: &BgMatch, side: Side, p: &Probs) -> f32 {
    let config = m.config();
    if config.length == 0 || !config.cube {
        return play_equity(m, side, p);
    }
    let score = m.score();
    let away = |s: Side| config.length.saturating_sub(score[s.index()]) as i32;
    let cube = i32::from(m.cube().value.max(1));
    // The opponent is on roll after the play: its cubeful chances, turned
    // round.
    let opponent = side.opponent();
    let owner = match m.cube().owner {
        None => Owner::Centered,
        Some(s) if s == opponent => Owner::Me,
        Some(_) => Owner::Opponent,
    };
    let ms = MatchState {
        me_away: away(opponent),
        opp_away: away(side),
        cube,
        crawford_used: m.is_crawford_game() || away(side) == 1 || away(opponent) == 1,
    };
    let mine = 1.0 - ms.cubeful_mwc(&nn::flip(p), cube, owner);
    let (win, lose) = (1.0 - ms.mwc_after(0, cube), 1.0 - ms.mwc_after(cube, 0));
    let scale = (win - lose).max(1e-6);
    (2.0 * mine - (win + lose)) / scale
}
