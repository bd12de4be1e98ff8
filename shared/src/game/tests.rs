//! Unit tests of [`Game`] for both games: applying actions and who acts
//! next, refused actions, truncation, and the record round trip.

use super::*;
use crate::backgammon::{MatchConfig, ResignKind, Side};
use crate::gomoku::{GomokuConfig, Opening};

fn gomoku(config: GomokuConfig) -> Game {
    Game::new(&GameOptions::Gomoku(config)).unwrap()
}

fn backgammon(length: u32) -> Game {
    Game::new(&GameOptions::Backgammon(MatchConfig {
        length,
        ..MatchConfig::default()
    }))
    .unwrap()
}

fn place(seat: Seat, x: u8, y: u8) -> ActionRecord {
    GomokuAction::Place {
        seat,
        point: Point::new(x, y),
    }
    .into()
}

fn play(side: Side, text: &str) -> ActionRecord {
    BgAction::Play {
        side,
        play: text.parse().unwrap(),
    }
    .into()
}

/// Checks that `action` is refused and that nothing changed.
fn refused(game: &mut Game, action: ActionRecord) -> ReplayError {
    let before = game.clone();
    let error = game.apply(action).unwrap_err();
    assert_eq!(*game, before);
    assert_eq!(game.record(), before.record());
    assert_eq!(game.live(), before.live());
    error
}

#[test]
fn gomoku_turns_alternate_until_five_in_a_row() {
    let mut game = gomoku(GomokuConfig::default());
    assert_eq!(game.kind(), GameKind::Gomoku);
    assert!(game.is_empty());
    assert_eq!(game.next(), Next::Seat(Seat::First));
    assert_eq!(game.legal_points().len(), 225);
    for i in 0..4 {
        game.apply(place(Seat::First, i, 0)).unwrap();
        assert_eq!(game.to_act(), Some(Seat::Second));
        game.apply(place(Seat::Second, i, 1)).unwrap();
        assert_eq!(game.to_act(), Some(Seat::First));
    }
    assert_eq!(game.len(), 8);
    assert_eq!(game.legal_points().len(), 225 - 8);
    assert!(game.legal_plays().is_empty());
    assert_eq!(game.outcome(), None);
    game.apply(place(Seat::First, 4, 0)).unwrap();
    assert_eq!(game.to_act(), None);
    assert_eq!(game.next(), Next::Over);
    assert!(game.legal_actions().is_empty());
    let result = game.outcome().unwrap();
    assert_eq!(result.winner, Some(Seat::First));
    assert_eq!(result.reason, EndReason::Rules);
    assert_eq!(result.line.len(), 5);
    assert_eq!(result.score, None);
}

#[test]
fn gomoku_refused_actions_change_nothing() {
    let mut game = gomoku(GomokuConfig::default());
    game.apply(place(Seat::First, 7, 7)).unwrap();
    // Occupied, out of turn, off the board, the other game.
    assert!(matches!(
        refused(&mut game, place(Seat::Second, 7, 7)),
        ReplayError::Gomoku { index: 1, .. }
    ));
    refused(&mut game, place(Seat::First, 8, 8));
    refused(&mut game, place(Seat::Second, 30, 30));
    assert_eq!(
        refused(&mut game, BgAction::NextGame.into()),
        ReplayError::WrongGame
    );
    assert_eq!(game.len(), 1);
}

#[test]
fn gomoku_truncate_replays_and_returns_the_cut() {
    let mut game = gomoku(GomokuConfig::default());
    let actions = [
        place(Seat::First, 7, 7),
        place(Seat::Second, 8, 8),
        place(Seat::First, 6, 6),
    ];
    for a in &actions {
        game.apply(a.clone()).unwrap();
    }
    assert_eq!(game.truncate(5).unwrap(), Vec::new());
    assert_eq!(game.len(), 3);
    assert_eq!(game.truncate(1).unwrap(), actions[1..].to_vec());
    assert_eq!(game.len(), 1);
    assert_eq!(game.to_act(), Some(Seat::Second));
    assert_eq!(game.gomoku().unwrap().moves().len(), 1);
    assert_eq!(game.record().last(), Some(actions[0].clone()));
    // The point freed by the truncation can be played again.
    game.apply(place(Seat::Second, 8, 8)).unwrap();
    assert_eq!(game.truncate(0).unwrap().len(), 2);
    assert_eq!(*game.live(), *gomoku(GomokuConfig::default()).live());
}

#[test]
fn gomoku_record_round_trip() {
    let mut game = gomoku(GomokuConfig::default());
    game.apply(place(Seat::First, 7, 7)).unwrap();
    game.apply(place(Seat::Second, 7, 8)).unwrap();
    let again = Game::from_record(game.record().clone()).unwrap();
    assert_eq!(again, game);
    assert_eq!(again.live(), game.live());
    // Serialised as its record; deserialising replays it.
    let json = serde_json::to_string(&game).unwrap();
    assert_eq!(json, serde_json::to_string(game.record()).unwrap());
    let back: Game = serde_json::from_str(&json).unwrap();
    assert_eq!(back, game);
    // A record the rules refuse does not make a game.
    let mut record = game.into_record();
    record
        .push(place(Seat::First, 7, 7))
        .expect("the record itself does not check the rules");
    assert!(matches!(
        Game::from_record(record.clone()),
        Err(ReplayError::Gomoku { index: 2, .. })
    ));
    assert!(serde_json::from_str::<Game>(&serde_json::to_string(&record).unwrap()).is_err());
    assert!(
        Game::new(&GameOptions::Gomoku(GomokuConfig {
            size: 5,
            ..GomokuConfig::default()
        }))
        .is_err()
    );
}

#[test]
fn gomoku_swap2_offers_its_choices_and_takebacks_find_the_last_decision() {
    let mut game = gomoku(GomokuConfig {
        opening: Opening::Swap2,
        ..GomokuConfig::default()
    });
    for (x, y) in [(7, 7), (8, 8), (6, 8)] {
        assert_eq!(game.to_act(), Some(Seat::First));
        game.apply(place(Seat::First, x, y)).unwrap();
    }
    assert_eq!(game.to_act(), Some(Seat::Second));
    assert_eq!(game.takeback_point(Seat::First), Some(2));
    assert_eq!(game.takeback_point(Seat::Second), None);
    let legal = game.legal_actions();
    assert_eq!(legal.len(), 3);
    assert!(
        legal
            .iter()
            .all(|a| matches!(a, PlayerAction::Choose { .. }))
    );
    assert!(game.legal_points().is_empty());
    let choice = game
        .action_for(
            Seat::Second,
            PlayerAction::Choose {
                choice: Swap2Choice::PlayWhite,
            },
            || unreachable!("no dice in Gomoku"),
        )
        .unwrap();
    game.apply(choice).unwrap();
    assert_eq!(game.takeback_point(Seat::Second), Some(3));
    // White (the second seat) plays the fourth stone.
    assert_eq!(game.to_act(), Some(Seat::Second));
    assert!(
        game.legal_actions()
            .iter()
            .all(|a| matches!(a, PlayerAction::Place { .. }))
    );
    assert_eq!(
        game.action_for(Seat::Second, PlayerAction::Roll, || [1, 2]),
        Err(ReplayError::WrongGame)
    );
}

#[test]
fn backgammon_turns_rolls_plays_and_the_cube() {
    let mut game = backgammon(0);
    assert_eq!(game.kind(), GameKind::Backgammon);
    assert_eq!(game.next(), Next::OpeningRoll);
    assert_eq!(game.to_act(), None);
    assert!(game.legal_actions().is_empty());
    // A tie is recorded and rolled again.
    game.apply(BgAction::OpeningRoll { white: 2, black: 2 }.into())
        .unwrap();
    assert_eq!(game.next(), Next::OpeningRoll);
    game.apply(BgAction::OpeningRoll { white: 3, black: 1 }.into())
        .unwrap();
    assert_eq!(game.to_act(), Some(Seat::First));
    let plays = game.legal_plays();
    assert!(plays.contains(&"8/5 6/5".parse().unwrap()));
    assert_eq!(game.legal_actions().len(), plays.len());
    assert!(game.legal_points().is_empty());
    let entry = game
        .action_for(
            Seat::First,
            PlayerAction::Play {
                play: "8/5 6/5".parse().unwrap(),
            },
            || unreachable!("a play rolls no dice"),
        )
        .unwrap();
    assert_eq!(entry, play(Side::White, "8/5 6/5"));
    game.apply(entry).unwrap();
    assert_eq!(game.next(), Next::Seat(Seat::Second));
    assert_eq!(
        game.legal_actions(),
        vec![PlayerAction::Roll, PlayerAction::Double]
    );
    let roll = game
        .action_for(Seat::Second, PlayerAction::Roll, || [6, 5])
        .unwrap();
    assert_eq!(
        roll,
        BgAction::Roll {
            side: Side::Black,
            dice: [6, 5]
        }
        .into()
    );
    game.apply(roll).unwrap();
    assert_eq!(game.record().last_roll(), Some([6, 5]));
    game.apply(play(Side::Black, "24/13")).unwrap();
    assert_eq!(game.to_act(), Some(Seat::First));
    assert_eq!(game.takeback_point(Seat::Second), Some(4));
    assert_eq!(game.takeback_point(Seat::First), Some(2));
    game.apply(BgAction::Double { side: Side::White }.into())
        .unwrap();
    // The taker answers the cube; a takeback may not go past it.
    assert_eq!(game.to_act(), Some(Seat::Second));
    assert_eq!(
        game.legal_actions(),
        vec![PlayerAction::Take, PlayerAction::Drop]
    );
    assert_eq!(game.takeback_point(Seat::Second), None);
    game.apply(BgAction::Drop { side: Side::Black }.into())
        .unwrap();
    assert_eq!(game.next(), Next::Over);
    let result = game.outcome().unwrap();
    assert_eq!(result.winner, Some(Seat::First));
    assert_eq!(result.reason, EndReason::Dropped);
    assert_eq!(result.score, Some([1, 0]));
}

#[test]
fn backgammon_refused_actions_change_nothing() {
    let mut game = backgammon(0);
    game.apply(BgAction::OpeningRoll { white: 3, black: 1 }.into())
        .unwrap();
    // Out of turn, an illegal play, a roll while moving, bad dice, the
    // other game.
    refused(&mut game, play(Side::Black, "24/21 24/23"));
    assert!(matches!(
        refused(&mut game, play(Side::White, "24/18")),
        ReplayError::Backgammon { index: 1, .. }
    ));
    refused(
        &mut game,
        BgAction::Roll {
            side: Side::White,
            dice: [1, 2],
        }
        .into(),
    );
    refused(
        &mut game,
        BgAction::OpeningRoll { white: 7, black: 1 }.into(),
    );
    assert_eq!(
        refused(&mut game, place(Seat::First, 7, 7)),
        ReplayError::WrongGame
    );
    game.apply(play(Side::White, "8/5 6/5")).unwrap();
    refused(
        &mut game,
        BgAction::Roll {
            side: Side::Black,
            dice: [0, 3],
        }
        .into(),
    );
    refused(&mut game, BgAction::Take { side: Side::White }.into());
    assert_eq!(game.len(), 2);
}

#[test]
fn backgammon_match_games_follow_one_another() {
    let mut game = backgammon(3);
    game.apply(BgAction::OpeningRoll { white: 3, black: 1 }.into())
        .unwrap();
    game.apply(
        BgAction::Resign {
            side: Side::Black,
            value: ResignKind::Single,
        }
        .into(),
    )
    .unwrap();
    // The match goes on: the host starts the next game.
    assert_eq!(game.next(), Next::NextGame);
    assert_eq!(game.to_act(), None);
    assert_eq!(game.outcome(), None);
    game.apply(BgAction::NextGame.into()).unwrap();
    assert_eq!(game.next(), Next::OpeningRoll);
    assert_eq!(game.backgammon().unwrap().game_number(), 2);
    game.apply(BgAction::OpeningRoll { white: 1, black: 4 }.into())
        .unwrap();
    assert_eq!(game.to_act(), Some(Seat::Second));
    game.apply(
        BgAction::Resign {
            side: Side::White,
            value: ResignKind::Backgammon,
        }
        .into(),
    )
    .unwrap();
    let result = game.outcome().unwrap();
    assert_eq!(result.winner, Some(Seat::Second));
    assert_eq!(result.reason, EndReason::Resigned);
    assert_eq!(result.score, Some([1, 3]));

    // Cut back into the first game, and forward again.
    let again = Game::from_record(game.record().clone()).unwrap();
    assert_eq!(again, game);
    let cut = game.truncate(2).unwrap();
    assert_eq!(cut.len(), 3);
    assert_eq!(game.next(), Next::NextGame);
    assert_eq!(game.backgammon().unwrap().score(), [1, 0]);
    for action in cut {
        game.apply(action).unwrap();
    }
    assert_eq!(game, again);
    assert_eq!(game.live(), again.live());
}
