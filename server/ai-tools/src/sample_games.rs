//! Whole recorded games between AI levels, as a server would keep them:
//! for the analysis bench and the tests that judge the judges.

use std::time::Duration;

use tabula_shared::backgammon::{BgMatch, GamePhase, MatchConfig};
use tabula_shared::game::{BgAction, apply_bg};
use tabula_shared::gomoku::{Gomoku, GomokuAction, GomokuConfig};
use tabula_shared::protocol::GameRecord;

use tabula_ai::Level;
use tabula_ai::backgammon::{self, Decision};
use tabula_ai::gomoku::{self, Limits};
use tabula_ai::rng::{Rng, mix_seed};

/// A money game (cube in use) between `levels` (White's, Black's), with
/// dice from `seed` and `budget` per decision.
pub fn backgammon(seed: u64, levels: [Level; 2], budget: Duration) -> GameRecord {
    backgammon_match(seed, levels, budget, MatchConfig::default())
}

/// A whole match under `config` (a money game when its length is 0)
/// between `levels` (White's, Black's), with dice from `seed` and `budget`
/// per decision.
pub fn backgammon_match(
    seed: u64,
    levels: [Level; 2],
    budget: Duration,
    config: MatchConfig,
) -> GameRecord {
    let mut m = BgMatch::new(config).expect("a valid match");
    let mut rng = Rng::new(seed);
    let mut actions = Vec::new();
    let mut act = |m: &mut BgMatch, a: BgAction| {
        apply_bg(m, &a).expect("the AIs play legal actions");
        actions.push(a);
    };
    for decision in 0..20_000u64 {
        match m.phase() {
            GamePhase::OpeningRoll => {
                let d = rng.opening_dice();
                act(
                    &mut m,
                    BgAction::OpeningRoll {
                        white: d.a,
                        black: d.b,
                    },
                );
                continue;
            }
            GamePhase::GameOver { .. } if config.length > 0 => {
                act(&mut m, BgAction::NextGame);
                continue;
            }
            _ => {}
        }
        let Some(side) = m.to_act() else {
            break;
        };
        let decision_seed = mix_seed(seed, decision);
        let Some(decision) =
            backgammon::choose(levels[side.index()], &m, side, budget, decision_seed)
        else {
            break;
        };
        let action = match decision {
            Decision::Roll => {
                let d = rng.dice();
                BgAction::Roll {
                    side,
                    dice: [d.a, d.b],
                }
            }
            Decision::Double => BgAction::Double { side },
            Decision::Take => BgAction::Take { side },
            Decision::Drop => BgAction::Drop { side },
            Decision::Play(play) => BgAction::Play { side, play },
        };
        act(&mut m, action);
    }
    GameRecord::Backgammon {
        config,
        actions,
        dice: None,
    }
}

/// A freestyle 15×15 Gomoku game between `levels` (Black's, White's), each
/// decision searched with `nodes` nodes; `seed` varies the play.
pub fn gomoku(seed: u64, levels: [Level; 2], nodes: u64) -> GameRecord {
    gomoku_opened(seed, levels, nodes, 0)
}

/// [`gomoku`] from `stones` stones (black first, alternating) put on
/// points of the central 7×7 drawn from `seed`: Casual games from the
/// empty board repeat one another, and an opening of their own makes each
/// game a new one.
pub fn gomoku_opened(seed: u64, levels: [Level; 2], nodes: u64, stones: usize) -> GameRecord {
    let config = GomokuConfig::default();
    let mut game = Gomoku::new(config).expect("the default game is valid");
    let mut actions = Vec::new();
    let mut rng = Rng::from_state(mix_seed(seed, 0x6F70_656E));
    while actions.len() < stones
        && let Some(seat) = game.to_act()
    {
        let point =
            tabula_shared::gomoku::Point::new(4 + rng.below(7) as u8, 4 + rng.below(7) as u8);
        let action = GomokuAction::Place { seat, point };
        if game.apply(action).is_ok() {
            actions.push(action);
        }
    }
    while let Some(seat) = game.to_act() {
        let level =
            levels[usize::from(game.stone_to_play() != tabula_shared::gomoku::Stone::Black)];
        let Some(gomoku::Decision::Place(point)) =
            gomoku::choose_with(level, &game, seat, Limits::nodes(nodes), seed)
        else {
            break;
        };
        let action = GomokuAction::Place { seat, point };
        game.apply(action).expect("the AIs play legal stones");
        actions.push(action);
    }
    GameRecord::Gomoku { config, actions }
}
