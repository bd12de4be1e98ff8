//! Match state machine: cube, Crawford, Jacoby, scoring, match end, and
//! Match IDs compared with literal IDs produced by GNU Backgammon 1.07.

use tabula_shared::backgammon::{
    BgError, BgMatch, Dice, EndReason, GamePhase, GameResultKind, GameState, MatchConfig, MatchId,
    Play, ResignKind, RollOutcome, Side,
};

const W: Side = Side::White;
const B: Side = Side::Black;

fn play(m: &mut BgMatch, side: Side, s: &str) {
    let p: Play = s.parse().unwrap();
    m.play(side, &p).unwrap();
}

fn dice(a: u8, b: u8) -> Dice {
    Dice { a, b }
}

fn config(length: u32) -> MatchConfig {
    MatchConfig {
        length,
        ..MatchConfig::default()
    }
}

/// The same sequence was played in gnubg 1.07 (`new match 7`, players human,
/// `set turn 0`, `set dice 3 1`, `move 8/5 6/5`, `double`, `take`, ...) and
/// `gnubg.matchid()` / `gnubg.positionid()` recorded after each step.
#[test]
fn match_ids_agree_with_gnubg() {
    let mut m = BgMatch::new(config(7)).unwrap();
    assert_eq!(m.opening_roll(3, 1).unwrap(), Some(W));
    assert_eq!(m.match_id(), "MIHlAAAAAAAE");
    assert_eq!(m.position_id(), "4HPwATDgc/ABMA");
    play(&mut m, W, "8/5 6/5");
    assert_eq!(m.match_id(), "cAngAAAAAAAE");
    assert_eq!(m.position_id(), "sGfwATDgc/ABMA");
    m.double(B).unwrap();
    assert_eq!(m.match_id(), "cBHgAAAAAAAE");
    assert_eq!(m.position_id(), "sGfwATDgc/ABMA");
    m.take(W).unwrap();
    assert_eq!(m.match_id(), "QQngAAAAAAAE");
    assert_eq!(m.roll(B, dice(6, 4)).unwrap(), RollOutcome::Moving);
    assert_eq!(m.match_id(), "QQnzAAAAAAAE");
    play(&mut m, B, "24/14");
    assert_eq!(m.match_id(), "AQHgAAAAAAAE");
    assert_eq!(m.position_id(), "4HPwBSCwZ/ABMA");
    m.roll(W, dice(5, 5)).unwrap();
    assert_eq!(m.match_id(), "AYH2AAAAAAAE");
    play(&mut m, W, "13/8(2) 8/3(2)");
    assert_eq!(m.match_id(), "QQngAAAAAAAE");
    assert_eq!(m.position_id(), "zJ7BATDgc/AFIA");
    assert!(!m.can_double(B), "White owns the cube");
    assert_eq!(m.double(B), Err(BgError::CubeNotAllowed));
    m.roll(B, dice(2, 1)).unwrap();
    assert_eq!(m.match_id(), "QQnlAAAAAAAE");
    play(&mut m, B, "13/11 6/5");
    assert_eq!(m.match_id(), "AQHgAAAAAAAE");
    assert_eq!(m.position_id(), "0HPkBSDMnsEBMA");
    m.double(W).unwrap();
    assert_eq!(m.match_id(), "ARngAAAAAAAE");
    m.drop_cube(B).unwrap();
    assert_eq!(m.match_id(), "AQzgACAAAAAE");
    assert_eq!(m.score(), [2, 0]);
    assert_eq!(
        *m.phase(),
        GamePhase::GameOver {
            winner: W,
            points: 2,
            kind: GameResultKind::Single
        }
    );
    assert_eq!(m.last_result().unwrap().reason, EndReason::Dropped);
}

/// Literal IDs from gnubg 1.07 for states set up with `set score`, `set cube`,
/// `set crawford`, `set turn`, `set dice`.
#[test]
fn decode_gnubg_match_ids() {
    let base = MatchId {
        cube: 1,
        cube_owner: None,
        on_roll: W,
        crawford: false,
        game_state: GameState::Playing,
        turn: W,
        double_offered: false,
        resign: 0,
        dice: (5, 2),
        match_length: 7,
        score: [0, 0],
        jacoby: false,
    };
    let cases = [
        ("MIHqAAAAAAAE", base),
        (
            "cAnvAAAAAAAE",
            MatchId {
                on_roll: B,
                turn: B,
                dice: (6, 3),
                ..base
            },
        ),
        (
            "UgnyACAAIAAE",
            MatchId {
                cube: 4,
                cube_owner: Some(B),
                on_roll: B,
                turn: B,
                dice: (4, 4),
                score: [2, 4],
                ..base
            },
        ),
        (
            "8AnlAGAAGAAE",
            MatchId {
                on_roll: B,
                turn: B,
                crawford: true,
                dice: (2, 1),
                score: [6, 3],
                ..base
            },
        ),
        (
            "MIEFAAAAAAAE",
            MatchId {
                dice: (3, 1),
                match_length: 0,
                ..base
            },
        ),
        (
            "MIEFAAAAAAAA",
            MatchId {
                dice: (3, 1),
                match_length: 0,
                jacoby: true,
                ..base
            },
        ),
    ];
    for (id, fields) in cases {
        assert_eq!(MatchId::decode(id).unwrap(), fields, "{id}");
        assert_eq!(fields.encode(), id);
    }
    assert_eq!(MatchId::decode("not an id!!"), Err(BgError::BadMatchId));
    assert_eq!(MatchId::decode("MIHq"), Err(BgError::BadMatchId));
}

#[test]
fn money_game_jacoby_and_gammon() {
    // Jacoby: a gammon with the cube not turned counts one.
    let mut m = BgMatch::new(MatchConfig {
        jacoby: true,
        ..MatchConfig::default()
    })
    .unwrap();
    m.opening_roll(6, 1).unwrap();
    m.resign(B, ResignKind::Gammon).unwrap();
    assert_eq!(m.score(), [1, 0]);
    assert_eq!(*m.phase(), GamePhase::MatchOver { winner: W });
    assert_eq!(m.start_next_game(), Err(BgError::MatchOver));

    // Jacoby with the cube turned: gammon counts.
    let mut m = BgMatch::new(MatchConfig {
        jacoby: true,
        ..MatchConfig::default()
    })
    .unwrap();
    m.opening_roll(6, 1).unwrap();
    play(&mut m, W, "13/7 8/7");
    m.double(B).unwrap();
    m.take(W).unwrap();
    m.resign(B, ResignKind::Backgammon).unwrap();
    assert_eq!(m.score(), [6, 0]);

    // No Jacoby: gammon counts double even with the cube centred.
    let mut m = BgMatch::new(MatchConfig::default()).unwrap();
    m.opening_roll(1, 6).unwrap();
    m.resign(W, ResignKind::Gammon).unwrap();
    assert_eq!(m.score(), [0, 2]);
    let last = m.last_result().unwrap();
    assert_eq!(last.kind, GameResultKind::Gammon);
    assert_eq!(last.reason, EndReason::Resigned);
}

#[test]
fn cube_ownership_and_max_64() {
    let mut m = BgMatch::new(MatchConfig::default()).unwrap();
    assert_eq!(m.opening_roll(4, 4).unwrap(), None, "tie rolls again");
    assert_eq!(*m.phase(), GamePhase::OpeningRoll);
    assert_eq!(m.opening_roll(0, 4), Err(BgError::BadDice));
    assert_eq!(m.opening_roll(7, 4), Err(BgError::BadDice));
    assert_eq!(m.opening_roll(2, 5).unwrap(), Some(B));
    assert!(!m.can_double(B), "already rolled");
    assert_eq!(m.double(B), Err(BgError::WrongPhase));
    play(&mut m, B, "13/11 13/8");
    assert_eq!(m.double(B), Err(BgError::NotYourTurn));
    let mut side = W;
    for expected in [2u8, 4, 8, 16, 32, 64] {
        assert!(m.can_double(side));
        m.double(side).unwrap();
        assert_eq!(m.take(side), Err(BgError::NotYourTurn));
        assert_eq!(m.roll(side, dice(3, 1)), Err(BgError::WrongPhase));
        m.take(side.opponent()).unwrap();
        assert_eq!(m.cube().value, expected);
        assert_eq!(m.cube().owner, Some(side.opponent()));
        // The doubler cannot redouble: the taker owns the cube.
        assert!(!m.can_double(side));
        // Pass the turn: doubler rolls and plays something legal.
        m.roll(side, dice(2, 1)).unwrap();
        let p = m.legal_plays().into_iter().next().unwrap();
        m.play(side, &p).unwrap();
        side = side.opponent();
    }
    assert!(!m.can_double(side), "cube at 64");
    assert_eq!(m.double(side), Err(BgError::CubeNotAllowed));
    m.drop_cube(side).err().unwrap();
    m.resign(side, ResignKind::Single).unwrap();
    assert_eq!(m.score()[side.opponent().index()], 64);
}

#[test]
fn cube_disabled() {
    let mut m = BgMatch::new(MatchConfig {
        cube: false,
        ..MatchConfig::default()
    })
    .unwrap();
    m.opening_roll(3, 1).unwrap();
    play(&mut m, W, "8/5 6/5");
    assert!(!m.can_double(B));
    assert_eq!(m.double(B), Err(BgError::CubeNotAllowed));
}

#[test]
fn crawford_and_match_end() {
    let mut m = BgMatch::new(config(3)).unwrap();
    assert!(!m.is_crawford_game());
    m.opening_roll(3, 1).unwrap();
    m.resign(B, ResignKind::Gammon).unwrap();
    assert_eq!(m.score(), [2, 0]);
    assert!(matches!(m.phase(), GamePhase::GameOver { .. }));
    assert_eq!(m.double(W), Err(BgError::WrongPhase));
    m.start_next_game().unwrap();
    assert_eq!(m.game_number(), 2);
    assert!(m.is_crawford_game());
    m.opening_roll(1, 3).unwrap();
    play(&mut m, B, "8/5 6/5");
    assert!(!m.can_double(W), "no doubling in the Crawford game");
    assert_eq!(m.double(W), Err(BgError::CubeNotAllowed));
    m.resign(W, ResignKind::Single).unwrap();
    assert_eq!(m.score(), [2, 1]);
    m.start_next_game().unwrap();
    assert!(!m.is_crawford_game(), "post-Crawford");
    m.opening_roll(3, 1).unwrap();
    play(&mut m, W, "8/5 6/5");
    assert!(m.can_double(B));
    m.double(B).unwrap();
    m.take(W).unwrap();
    m.roll(B, dice(6, 5)).unwrap();
    play(&mut m, B, "24/13");
    m.resign(W, ResignKind::Single).unwrap();
    assert_eq!(m.score(), [2, 3]);
    assert_eq!(*m.phase(), GamePhase::MatchOver { winner: B });
    assert_eq!(m.start_next_game(), Err(BgError::MatchOver));
    assert_eq!(m.resign(W, ResignKind::Single), Err(BgError::WrongPhase));
}

#[test]
fn one_point_match_has_no_cube() {
    let mut m = BgMatch::new(config(1)).unwrap();
    m.opening_roll(3, 1).unwrap();
    play(&mut m, W, "8/5 6/5");
    assert!(!m.can_double(B));
    m.resign(W, ResignKind::Backgammon).unwrap();
    assert_eq!(m.score(), [0, 3]);
    assert_eq!(*m.phase(), GamePhase::MatchOver { winner: B });
}

#[test]
fn crawford_off() {
    let mut m = BgMatch::new(MatchConfig {
        length: 3,
        crawford: false,
        ..MatchConfig::default()
    })
    .unwrap();
    m.opening_roll(3, 1).unwrap();
    m.resign(B, ResignKind::Gammon).unwrap();
    m.start_next_game().unwrap();
    assert!(!m.is_crawford_game());
}

#[test]
fn illegal_plays_rejected_equivalent_orders_accepted() {
    let mut m = BgMatch::new(config(5)).unwrap();
    m.opening_roll(3, 1).unwrap();
    for bad in [
        "8/4 6/5",
        "8/5",
        "24/19",
        "13/10 13/10",
        "bar/22",
        "6/off 8/5",
        "-",
    ] {
        let p: Play = bad.parse().unwrap();
        assert_eq!(m.play(W, &p), Err(BgError::IllegalPlay), "{bad}");
    }
    assert_eq!(
        m.play(B, &"8/5 6/5".parse().unwrap()),
        Err(BgError::NotYourTurn)
    );
    assert_eq!(m.legal_plays().len(), 16);
    // Equivalent spellings of the same play.
    let mut a = m.clone();
    play(&mut a, W, "6/5 8/5");
    let mut b = m.clone();
    play(&mut b, W, "8/5* 6/5");
    assert_eq!(a.board(), b.board());
    assert_eq!(m.roll(W, dice(1, 2)), Err(BgError::WrongPhase));
    assert_eq!(m.opening_roll(1, 2), Err(BgError::WrongPhase));
}

#[test]
fn no_legal_play_passes_the_turn() {
    let mut m = BgMatch::new(config(5)).unwrap();
    m.opening_roll(6, 4).unwrap();
    play(&mut m, W, "24/14");
    // Replace the board (through the persisted form): Black is on the bar
    // and White has closed its home board, Black's entry area.
    let mut json = serde_json::to_value(&m).unwrap();
    let board = tabula_shared::backgammon::Position::from_points(
        &[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (13, 3)],
        &[(0, 1), (20, 14)],
    )
    .unwrap();
    json["white"] = serde_json::to_value(board).unwrap();
    let mut m: BgMatch = serde_json::from_value(json).unwrap();
    assert_eq!(m.roll(W, dice(3, 1)), Err(BgError::NotYourTurn));
    assert_eq!(m.roll(B, dice(0, 1)), Err(BgError::BadDice));
    assert_eq!(m.roll(B, dice(6, 5)).unwrap(), RollOutcome::Passed);
    assert_eq!(*m.phase(), GamePhase::AwaitingRoll { side: W });
    assert!(m.legal_plays().is_empty());
}

#[test]
fn bear_off_ends_game_with_gammon_and_backgammon() {
    let mut m = BgMatch::new(config(0)).unwrap();
    m.opening_roll(6, 4).unwrap();
    let mut json = serde_json::to_value(&m).unwrap();
    // White has one checker left on the 1-point; Black has all 15 still on
    // board, one in White's home board -> backgammon.
    let board =
        tabula_shared::backgammon::Position::from_points(&[(1, 1)], &[(3, 1), (20, 14)]).unwrap();
    json["white"] = serde_json::to_value(board).unwrap();
    let m0: BgMatch = serde_json::from_value(json).unwrap();
    let mut m = m0.clone();
    play(&mut m, W, "1/off");
    assert_eq!(m.score(), [3, 0]);
    let last = m.last_result().unwrap();
    assert_eq!(last.kind, GameResultKind::Backgammon);
    assert_eq!(last.reason, EndReason::BearOff);
    assert_eq!(m.match_id_fields().game_state, GameState::GameOver);
    let _ = m0;
}

#[test]
fn doubles_twice_option() {
    let mut m = BgMatch::new(MatchConfig {
        doubles_twice: true,
        ..MatchConfig::default()
    })
    .unwrap();
    m.opening_roll(3, 1).unwrap();
    play(&mut m, W, "8/5 6/5");
    m.roll(B, dice(6, 6)).unwrap();
    assert!(m.legal_plays().iter().all(|p| p.moves.len() == 2));
    assert_eq!(
        m.play(B, &"24/18(2) 13/7(2)".parse().unwrap()),
        Err(BgError::IllegalPlay)
    );
    play(&mut m, B, "24/18(2)");
}

#[test]
fn serde_round_trip() {
    let mut m = BgMatch::new(config(5)).unwrap();
    m.opening_roll(3, 1).unwrap();
    let s = serde_json::to_string(&m).unwrap();
    let back: BgMatch = serde_json::from_str(&s).unwrap();
    assert_eq!(back, m);
    let phase = serde_json::to_string(m.phase()).unwrap();
    assert_eq!(
        phase,
        r#"{"phase":"moving","side":"white","dice":{"a":3,"b":1}}"#
    );
    let board = serde_json::to_value(m.board()).unwrap();
    assert_eq!(board["points"][5], 5);
    assert_eq!(board["points"][0], -2);
}
