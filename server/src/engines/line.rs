//! The Backgammon line protocol of `bg-engine` (bgharness's `ext:`):
//! `move <POSID> <D1> <D2>` asks for a checker play from the gnubg Position
//! ID seen from the side to play; the answer is the Position ID after the
//! play, from the same side (not switched).

use std::time::Duration;

use tabula_shared::backgammon::{BgMatch, Dice, Play, Position, Side};
use tokio::time::Instant;

use super::{EngineFailure, EngineProcess};

/// The legal plays of `dice` for `side` in `game`, one per distinct
/// position after it.
pub(super) fn choices(game: &BgMatch, side: Side, dice: Dice) -> Vec<(Play, Position)> {
    game.position_for(side)
        .legal_plays_with(dice, game.config().doubles_twice)
}

/// The engine's play of `dice` for `side` in `game`, within `budget` plus
/// `margin`, matched against the legal plays.
///
/// # Errors
/// A crash, no answer in time, an `error` answer, or a position no legal
/// play of the roll reaches.
pub(super) async fn play(
    process: &mut EngineProcess,
    game: &BgMatch,
    side: Side,
    dice: Dice,
    budget: Duration,
    margin: Duration,
) -> Result<Play, EngineFailure> {
    let before = game.position_for(side);
    process
        .send(&format!(
            "move {} {} {}\n",
            before.position_id(),
            dice.high(),
            dice.low()
        ))
        .await?;
    let waited = budget + margin;
    let line = process.read_line(Instant::now() + waited, waited).await?;
    let answer = line.trim();
    let after = Position::from_position_id(answer)
        .map_err(|_| EngineFailure::Refused(answer.to_string()))?;
    choices(game, side, dice)
        .into_iter()
        .find(|(_, reached)| *reached == after)
        .map(|(play, _)| play)
        .ok_or_else(|| EngineFailure::Illegal(format!("no play of {dice} reaches {answer}")))
}
