//! Harvesting Backgammon puzzles from played positions: "find the best
//! play" and "find the cube action", kept only where the best is clearly
//! better than the rest.
//!
//! - **Best play**: at 2-ply (the board's deepest answer) the best play
//!   beats the second by at least [`MARGIN`] of cubeful equity, and the
//!   1-ply answer names the same best play (the margin is not an artefact
//!   of one depth); a roll whose 1-ply best is not at least half the
//!   margin ahead is passed over without the 2-ply look (most rolls).
//! - **Cube action**: at 2-ply both halves of the decision are clear: the
//!   doubler's (no double against the better of double-take and
//!   double-pass for the taker) and the taker's (take against pass), each by
//!   at least [`MARGIN`], in a position where the doubler wins at least
//!   [`CUBE_WINS`] of the time (below it no one would ask; a decision
//!   where the 1-ply look gives the doubler under `CUBE_WINS` - 0.1 is
//!   passed over without the 2-ply look).
//!
//! The margin and the depth that decided it travel with the puzzle.

use tabula_shared::backgammon::{BgMatch, GamePhase, Play, Side};
use tabula_shared::protocol::CubeAction;

use super::study::study;

/// Least equity between the answer and the next best.
pub const MARGIN: f32 = 0.08;
/// Least winning chance of the doubler for a cube puzzle: below it no
/// one would ask.
pub const CUBE_WINS: f32 = 0.6;
/// The plies that decide.
pub const DEPTH: u8 = 2;

/// A "find the best play" puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayPuzzle {
    /// The side to play.
    pub side: Side,
    /// The answer.
    pub best: Play,
    /// Its cubeful equity at [`DEPTH`].
    pub equity: f32,
    /// How much better it is than the second best.
    pub margin: f32,
}

/// A "find the cube action" puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct CubePuzzle {
    /// The side that may double (or has doubled).
    pub doubler: Side,
    /// The answer.
    pub action: CubeAction,
    /// The smaller of the two halves' margins (doubler's and taker's).
    pub margin: f32,
    /// The doubler's winning chance before the roll.
    pub wins: f32,
}

/// The best-play puzzle in `m`, when a roll is to be played and one play
/// stands out.
pub fn play_puzzle(m: &BgMatch) -> Option<PlayPuzzle> {
    let GamePhase::Moving { side, .. } = *m.phase() else {
        return None;
    };
    // The cheap look first: most rolls have no standout play at 1-ply.
    let shallow = study(m, 1)?;
    match shallow.plays.as_slice() {
        [best, second, ..] if best.equity - second.equity >= MARGIN / 2.0 => {}
        _ => return None,
    }
    let deep = study(m, DEPTH)?;
    let [best, second, ..] = deep.plays.as_slice() else {
        return None;
    };
    let margin = best.equity - second.equity;
    if margin < MARGIN {
        return None;
    }
    let after = |play: &Play| {
        let mut m = m.clone();
        m.play(side, play).ok().map(|()| m.board())
    };
    if after(&shallow.plays.first()?.play) != after(&best.play) {
        return None;
    }
    Some(PlayPuzzle {
        side,
        best: best.play.clone(),
        equity: best.equity,
        margin,
    })
}

/// The cube puzzle in `m`, when the side on roll may double (or a double
/// is offered) and both halves of the decision are clear.
pub fn cube_puzzle(m: &BgMatch) -> Option<CubePuzzle> {
    match *m.phase() {
        GamePhase::AwaitingRoll { side } if m.can_double(side) => {}
        GamePhase::CubeOffered { .. } => {}
        _ => return None,
    }
    // The cheap look first: most cube decisions are not close to one.
    if study(m, 1)?.cube?.chances.win < CUBE_WINS - 0.1 {
        return None;
    }
    let cube = study(m, DEPTH)?.cube?;
    if cube.chances.win < CUBE_WINS {
        return None;
    }
    // The taker picks the smaller of take and pass for the doubler.
    let taker = (cube.double_take - cube.double_pass).abs();
    let doubler = (cube.no_double - cube.double_take.min(cube.double_pass)).abs();
    let margin = taker.min(doubler);
    (margin >= MARGIN).then_some(CubePuzzle {
        doubler: cube.doubler,
        action: cube.action,
        margin,
        wins: cube.chances.win,
    })
}
