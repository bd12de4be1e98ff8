//! Replays a Backgammon record and splits it into games of plain events,
//! the common ground of the `.mat` and SGF writers.

use crate::backgammon::{
    BgMatch, Dice, EndReason, GamePhase, GameResultKind, MatchConfig, Move, Play, ResignKind,
    RollOutcome, Side,
};
use crate::game::{BgAction, apply_bg};

use super::ExportError;

/// One event of a game, as both writers need it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Event {
    /// `side` rolled `dice` (high die first) and played `hops`: single-die
    /// hops from the mover's side (25 = bar, 0 = off), in an order in which
    /// they can be played; empty when no checker could move.
    Move {
        side: Side,
        dice: (u8, u8),
        hops: Vec<Move>,
    },
    /// `side` doubled, offering the cube at `value`.
    Double { side: Side, value: u32 },
    /// `side` took.
    Take { side: Side },
    /// `side` dropped.
    Drop { side: Side },
    /// `side` resigned.
    Resign { side: Side, kind: ResignKind },
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct End {
    pub winner: Side,
    /// Points won, cube and Jacoby included.
    pub points: u32,
    pub reason: EndReason,
    /// The cube value when the game ended (before a dropped double).
    pub cube: u32,
    pub kind: GameResultKind,
}

/// One game of the match.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Game {
    /// 0-based.
    pub index: u32,
    /// Scores `[white, black]` before the game.
    pub score: [u32; 2],
    pub crawford_game: bool,
    pub events: Vec<Event>,
    /// `None` when the record stops during the game.
    pub end: Option<End>,
}

/// The whole match.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Walk {
    pub config: MatchConfig,
    pub games: Vec<Game>,
}

fn high_first(dice: Dice) -> (u8, u8) {
    (dice.high(), dice.low())
}

/// Single-die hops for `play` by `side`, in a playable order, with hits
/// marked: the move generator's representative of the same resulting
/// position.
fn hops(m: &BgMatch, side: Side, dice: Dice, play: &Play) -> Option<Vec<Move>> {
    let pos = m.position_for(side);
    let target = pos.apply(play).ok()?;
    pos.legal_plays_with(dice, m.config().doubles_twice)
        .into_iter()
        .find(|(_, p)| *p == target)
        .map(|(p, _)| p.moves)
}

/// Replays `actions` and collects the games.
pub(crate) fn walk(config: &MatchConfig, actions: &[BgAction]) -> Result<Walk, ExportError> {
    if config.doubles_twice {
        return Err(ExportError::Unsupported(
            "doubles played twice is a Tabula option no other program knows".into(),
        ));
    }
    let mut m = BgMatch::new(*config).map_err(|e| ExportError::bg(0, e))?;
    let mut games = vec![Game {
        index: 0,
        score: [0, 0],
        crawford_game: false,
        events: Vec::new(),
        end: None,
    }];
    for (index, action) in actions.iter().enumerate() {
        let err = |e| ExportError::bg(index, e);
        let cube_before = u32::from(m.cube().value.max(1));
        let dice_before = match *m.phase() {
            GamePhase::Moving { dice, .. } => Some(dice),
            _ => None,
        };
        let mut event = None;
        match action {
            BgAction::Play { side, play } => {
                // The rules decide legality; the hops are looked up before
                // the position changes and used only for a play they accept.
                let found = dice_before.and_then(|d| hops(&m, *side, d, play).map(|h| (d, h)));
                apply_bg(&mut m, action).map_err(err)?;
                let (dice, hops) =
                    found.ok_or_else(|| err(crate::backgammon::BgError::IllegalPlay))?;
                event = Some(Event::Move {
                    side: *side,
                    dice: high_first(dice),
                    hops,
                });
            }
            BgAction::Roll { side, dice } => {
                let d = Dice::new(dice[0], dice[1]).map_err(err)?;
                let outcome = m.roll(*side, d).map_err(err)?;
                if outcome == RollOutcome::Passed {
                    event = Some(Event::Move {
                        side: *side,
                        dice: high_first(d),
                        hops: Vec::new(),
                    });
                }
            }
            BgAction::Double { side } => {
                apply_bg(&mut m, action).map_err(err)?;
                event = Some(Event::Double {
                    side: *side,
                    value: cube_before * 2,
                });
            }
            BgAction::Take { side } => {
                apply_bg(&mut m, action).map_err(err)?;
                event = Some(Event::Take { side: *side });
            }
            BgAction::Drop { side } => {
                apply_bg(&mut m, action).map_err(err)?;
                event = Some(Event::Drop { side: *side });
            }
            BgAction::Resign { side, value } => {
                apply_bg(&mut m, action).map_err(err)?;
                event = Some(Event::Resign {
                    side: *side,
                    kind: *value,
                });
            }
            BgAction::OpeningRoll { .. } => {
                // The opening dice show up with the first play.
                apply_bg(&mut m, action).map_err(err)?;
            }
            BgAction::NextGame => {
                apply_bg(&mut m, action).map_err(err)?;
                games.push(Game {
                    index: m.game_number().saturating_sub(1),
                    score: m.score(),
                    crawford_game: m.is_crawford_game(),
                    events: Vec::new(),
                    end: None,
                });
            }
        }
        let Some(game) = games.last_mut() else {
            continue;
        };
        if let Some(event) = event {
            game.events.push(event);
        }
        let over = matches!(
            m.phase(),
            GamePhase::GameOver { .. } | GamePhase::MatchOver { .. }
        );
        if over
            && game.end.is_none()
            && let Some(last) = m.last_result()
        {
            game.end = Some(End {
                winner: last.winner,
                points: last.points,
                reason: last.reason,
                cube: cube_before,
                kind: last.kind,
            });
        }
    }
    Ok(Walk {
        config: *config,
        games,
    })
}

/// "1 point" / "2 points".
pub(crate) fn points_text(n: u32) -> String {
    if n == 1 {
        "1 point".to_string()
    } else {
        format!("{n} points")
    }
}
