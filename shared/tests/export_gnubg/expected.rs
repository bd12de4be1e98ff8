//! What gnubg should read: the games of a record, each with its actions
//! (moves as the positions before and after) and its result.

use tabula_shared::backgammon::{
    BgMatch, Dice, EndReason, GamePhase, GameResultKind, Position, RollOutcome, Side,
};
use tabula_shared::game::apply_bg;
use tabula_shared::protocol::{BgAction, GameRecord};

#[derive(Debug, Clone, PartialEq)]
pub enum Exp {
    /// `side` played `dice` from `before` (mover's view) to `after`.
    Move {
        side: Side,
        dice: [u8; 2],
        before: Position,
        after: Position,
    },
    Double(Side),
    Take(Side),
    Drop(Side),
    Resign(Side),
}

#[derive(Debug, Clone, PartialEq)]
pub struct ExpGame {
    pub score: [u32; 2],
    pub crawford: bool,
    pub actions: Vec<Exp>,
    /// Winner, points, resigned.
    pub end: Option<(Side, u32, bool)>,
    pub kind: Option<GameResultKind>,
    pub reason: Option<EndReason>,
}

pub fn expected(record: &GameRecord) -> (Vec<ExpGame>, [u32; 2]) {
    let GameRecord::Backgammon {
        config, actions, ..
    } = record
    else {
        panic!("not backgammon")
    };
    let mut m = BgMatch::new(*config).unwrap();
    let new_game = |m: &BgMatch| ExpGame {
        score: m.score(),
        crawford: m.is_crawford_game(),
        actions: Vec::new(),
        end: None,
        kind: None,
        reason: None,
    };
    let mut games = vec![new_game(&m)];
    for a in actions {
        let before_phase = *m.phase();
        let g = games.last_mut().unwrap();
        match a {
            BgAction::Play { side, .. } => {
                let GamePhase::Moving { dice, .. } = before_phase else {
                    panic!()
                };
                let before = m.position_for(*side);
                apply_bg(&mut m, a).unwrap();
                g.actions.push(Exp::Move {
                    side: *side,
                    dice: [dice.high(), dice.low()],
                    before,
                    after: m.position_for(*side),
                });
            }
            BgAction::Roll { side, dice } => {
                let before = m.position_for(*side);
                let out = m.roll(*side, Dice::new(dice[0], dice[1]).unwrap()).unwrap();
                if out == RollOutcome::Passed {
                    let d = Dice::new(dice[0], dice[1]).unwrap();
                    g.actions.push(Exp::Move {
                        side: *side,
                        dice: [d.high(), d.low()],
                        before,
                        after: before,
                    });
                }
            }
            BgAction::Double { side } => {
                apply_bg(&mut m, a).unwrap();
                g.actions.push(Exp::Double(*side));
            }
            BgAction::Take { side } => {
                apply_bg(&mut m, a).unwrap();
                g.actions.push(Exp::Take(*side));
            }
            BgAction::Drop { side } => {
                apply_bg(&mut m, a).unwrap();
                g.actions.push(Exp::Drop(*side));
            }
            BgAction::Resign { side, .. } => {
                apply_bg(&mut m, a).unwrap();
                g.actions.push(Exp::Resign(*side));
            }
            BgAction::OpeningRoll { .. } => apply_bg(&mut m, a).unwrap(),
            BgAction::NextGame => {
                apply_bg(&mut m, a).unwrap();
                games.push(new_game(&m));
                continue;
            }
        }
        let g = games.last_mut().unwrap();
        if g.end.is_none()
            && matches!(
                m.phase(),
                GamePhase::GameOver { .. } | GamePhase::MatchOver { .. }
            )
        {
            let last = m.last_result().unwrap();
            g.end = Some((last.winner, last.points, last.reason == EndReason::Resigned));
            g.kind = Some(last.kind);
            g.reason = Some(last.reason);
        }
    }
    (games, m.score())
}
