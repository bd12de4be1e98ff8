//! PLACEHOLDER until the Gomoku AI lands: plays the legal point nearest the centre.
use std::time::Duration;

use tabula_shared::gomoku::{Gomoku, Phase, Point, Seat, Swap2Choice};

use crate::ai::Level;

/// A Gomoku AI decision.
pub enum Decision {
    /// Place a stone.
    Place(Point),
    /// A swap2 choice.
    Choose(Swap2Choice),
}

/// The AI's decision for `seat`.
pub fn choose(
    _level: Level,
    game: &Gomoku,
    seat: Seat,
    _budget: Duration,
    _seed: u64,
) -> Option<Decision> {
    if game.to_act() != Some(seat) {
        return None;
    }
    match game.phase() {
        Phase::Swap2Choose => return Some(Decision::Choose(Swap2Choice::PlayWhite)),
        Phase::Swap2FinalChoose => return Some(Decision::Choose(Swap2Choice::PlayBlack)),
        _ => {}
    }
    let n = game.size();
    let c = i32::from(n / 2);
    let mut best: Option<(i32, Point)> = None;
    for y in 0..n {
        for x in 0..n {
            let p = Point { x, y };
            if game.is_legal(seat, p).is_ok() {
                let d = (i32::from(x) - c).abs().max((i32::from(y) - c).abs());
                if best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, p));
                }
            }
        }
    }
    best.map(|(_, p)| Decision::Place(p))
}
