//! A Backgammon roll with no legal play: the rules pass the turn at once
//! (the server records only the roll), and the app says so; the player has
//! nothing to click and sends nothing.

use tabula_shared::backgammon::{BgMatch, GamePhase, MatchConfig, Side};
use tabula_shared::game::apply_bg;
use tabula_shared::protocol::{ActionRecord, BgAction, Role, RoomEvent, ServerMessage};

use super::{app, bg_snapshot, join, receive, sent};

/// A game played with each side's first legal play and dice from a fixed
/// sequence, up to (without) the first roll that White cannot play; and
/// that roll.
fn record_until_white_cannot_move() -> (Vec<BgAction>, BgAction) {
    let mut game = BgMatch::new(MatchConfig::default()).expect("the default config is valid");
    let mut actions = vec![BgAction::OpeningRoll { white: 3, black: 1 }];
    apply_bg(&mut game, &actions[0]).expect("opening");
    let mut seed: u32 = 7;
    for _ in 0..2000 {
        let action = match *game.phase() {
            GamePhase::Moving { side, .. } => BgAction::Play {
                side,
                play: game.legal_plays().swap_remove(0),
            },
            GamePhase::AwaitingRoll { side } => {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                let a = (seed >> 16) % 6 + 1;
                let b = (seed >> 8) % 6 + 1;
                BgAction::Roll {
                    side,
                    dice: [a as u8, b as u8],
                }
            }
            _ => break,
        };
        let mut next = game.clone();
        apply_bg(&mut next, &action).expect("a legal action");
        if let (
            BgAction::Roll {
                side: Side::White, ..
            },
            GamePhase::AwaitingRoll { side: Side::Black },
        ) = (&action, next.phase())
        {
            return (actions, action);
        }
        game = next;
        actions.push(action);
    }
    panic!("White could always move");
}

#[test]
fn a_roll_with_no_legal_play_passes_and_is_told() {
    let (actions, roll) = record_until_white_cannot_move();
    let BgAction::Roll { dice, .. } = roll else {
        unreachable!()
    };
    let (mut app, mut rx) = app();
    join(&mut app, Role::Player);
    receive(
        &mut app,
        None,
        ServerMessage::Snapshot {
            room_id: "r1".into(),
            snapshot: Box::new(bg_snapshot(actions, None)),
        },
    );
    app.poll(&egui::Context::default());
    sent(&mut rx);
    receive(
        &mut app,
        None,
        ServerMessage::Event {
            room_id: "r1".into(),
            seq: 2,
            event: RoomEvent::Action {
                action: ActionRecord::Backgammon(roll),
                clock: None,
                turn: None,
            },
        },
    );
    app.poll(&egui::Context::default());
    let phase = app.room().and_then(|r| r.backgammon()).map(|g| *g.phase());
    assert_eq!(phase, Some(GamePhase::AwaitingRoll { side: Side::Black }));
    assert!(app.turn().is_none(), "nothing for us to build");
    let told = format!("White rolled {}-{}: no legal move", dice[0], dice[1]);
    assert!(app.toasts().contains(&told), "{:?}", app.toasts());
    assert!(
        sent(&mut rx).is_empty(),
        "nothing sent: the pass needs no message"
    );
}

/// A game played as above up to and including the first roll after which
/// White has exactly one legal play; and that play.
fn record_until_white_is_forced() -> (Vec<BgAction>, tabula_shared::backgammon::Play) {
    let mut game = BgMatch::new(MatchConfig::default()).expect("the default config is valid");
    let mut actions = vec![BgAction::OpeningRoll { white: 3, black: 1 }];
    apply_bg(&mut game, &actions[0]).expect("opening");
    let mut seed: u32 = 11;
    for _ in 0..4000 {
        if let GamePhase::Moving {
            side: Side::White, ..
        } = game.phase()
            && let [only] = game.legal_plays().as_slice()
        {
            return (actions, only.clone());
        }
        let action = match *game.phase() {
            GamePhase::Moving { side, .. } => BgAction::Play {
                side,
                play: game.legal_plays().swap_remove(0),
            },
            GamePhase::AwaitingRoll { side } => {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                let a = (seed >> 16) % 6 + 1;
                let b = (seed >> 8) % 6 + 1;
                BgAction::Roll {
                    side,
                    dice: [a as u8, b as u8],
                }
            }
            _ => break,
        };
        apply_bg(&mut game, &action).expect("a legal action");
        actions.push(action);
    }
    panic!("White was never forced");
}

#[test]
fn a_forced_play_is_made_when_the_setting_asks() {
    use tabula_shared::protocol::{ClientMessage, PlayerAction};
    let (actions, only) = record_until_white_is_forced();
    for (auto_forced, confirm_moves) in [(false, false), (true, true), (true, false)] {
        let (mut app, mut rx) = app();
        app.settings.auto_forced = auto_forced;
        app.settings.confirm_moves = confirm_moves;
        join(&mut app, Role::Player);
        receive(
            &mut app,
            None,
            ServerMessage::Snapshot {
                room_id: "r1".into(),
                snapshot: Box::new(bg_snapshot(actions.clone(), None)),
            },
        );
        app.poll(&egui::Context::default());
        app.poll(&egui::Context::default());
        let built = app.turn().expect("our turn").play();
        let plays: Vec<_> = sent(&mut rx)
            .into_iter()
            .filter_map(|m| match m {
                ClientMessage::Act {
                    action: PlayerAction::Play { play },
                    ..
                } => Some(play),
                _ => None,
            })
            .collect();
        match (auto_forced, confirm_moves) {
            (false, _) => {
                assert!(built.moves.is_empty(), "nothing made without the setting");
                assert!(plays.is_empty());
            }
            (true, true) => {
                assert_eq!(
                    built.to_string(),
                    only.to_string(),
                    "made, waiting for Confirm"
                );
                assert!(plays.is_empty());
            }
            (true, false) => assert_eq!(plays, vec![only.clone()], "made and sent once"),
        }
    }
}
