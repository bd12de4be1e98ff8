//! Game-level tests: turn order, rules, swap2 flows, undo, draw, serde.

use tabula_shared::gomoku::{
    Board, Gomoku, GomokuAction, GomokuConfig, GomokuError, GomokuRecord, Opening, Outcome, Phase,
    Point, Rule, Stone, Swap2Choice, five_at, scan_fives,
};
use tabula_shared::seat::Seat;

fn game(size: u8, rule: Rule, opening: Opening) -> Gomoku {
    Gomoku::new(GomokuConfig {
        size,
        rule,
        opening,
    })
    .expect("valid config")
}

fn pt(s: &str) -> Point {
    s.parse().expect("valid notation")
}

/// Plays each move for whoever is to act.
fn play_all(g: &mut Gomoku, moves: &[&str]) {
    for m in moves {
        let seat = g.to_act().expect("game not over");
        if let Err(e) = g.play(seat, pt(m)) {
            panic!("{m}: {e}");
        }
    }
}

#[test]
fn config_and_sizes() {
    assert_eq!(
        Gomoku::new(GomokuConfig {
            size: 8,
            ..Default::default()
        })
        .unwrap_err(),
        GomokuError::InvalidSize(8)
    );
    assert_eq!(
        Gomoku::new(GomokuConfig {
            size: 26,
            ..Default::default()
        })
        .unwrap_err(),
        GomokuError::InvalidSize(26)
    );
    let g = Gomoku::new(GomokuConfig::default()).unwrap();
    assert_eq!(g.size(), 15);
    assert_eq!(
        *g.config(),
        GomokuConfig {
            size: 15,
            rule: Rule::Freestyle,
            opening: Opening::None
        }
    );
    assert_eq!(game(19, Rule::Standard, Opening::None).size(), 19);
    // Config serde shape and defaults.
    let json = serde_json::to_string(&GomokuConfig {
        size: 19,
        rule: Rule::Renju,
        opening: Opening::Swap2,
    })
    .unwrap();
    assert_eq!(json, r#"{"size":19,"rule":"renju","opening":"swap2"}"#);
    let c: GomokuConfig = serde_json::from_str("{}").unwrap();
    assert_eq!(c, GomokuConfig::default());
}

#[test]
fn freestyle_win_with_line() {
    let mut g = game(15, Rule::Freestyle, Opening::None);
    assert_eq!(g.phase(), Phase::Main);
    assert_eq!(g.to_act(), Some(Seat::First));
    assert_eq!(g.stone_of(Seat::First), Some(Stone::Black));
    assert_eq!(g.stone_of(Seat::Second), Some(Stone::White));
    play_all(&mut g, &["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"]);
    assert_eq!(g.outcome(), None);
    play_all(&mut g, &["g8"]);
    let Some(Outcome::Win { stone, seat, line }) = g.outcome() else {
        panic!("expected a win");
    };
    assert_eq!((*stone, *seat), (Stone::Black, Seat::First));
    let mut names: Vec<String> = line.iter().map(Point::to_string).collect();
    names.sort();
    assert_eq!(names, ["g8", "h8", "i8", "j8", "k8"]);
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(g.to_act(), None);
    assert_eq!(g.play(Seat::Second, pt("b1")), Err(GomokuError::GameOver));
    assert_eq!(
        g.choose(Seat::Second, Swap2Choice::PlayBlack),
        Err(GomokuError::GameOver)
    );
    assert_eq!(
        g.is_legal(Seat::Second, pt("b1")),
        Err(GomokuError::GameOver)
    );
}

#[test]
fn basic_errors_leave_state_unchanged() {
    let mut g = game(15, Rule::Freestyle, Opening::None);
    assert_eq!(
        g.play(Seat::Second, pt("h8")),
        Err(GomokuError::NotYourTurn(Seat::Second))
    );
    g.play(Seat::First, pt("h8")).unwrap();
    let before = g.clone();
    assert_eq!(
        g.play(Seat::First, pt("a1")),
        Err(GomokuError::NotYourTurn(Seat::First))
    );
    assert_eq!(
        g.play(Seat::Second, pt("h8")),
        Err(GomokuError::Occupied(pt("h8")))
    );
    assert_eq!(
        g.play(Seat::Second, Point::new(15, 0)),
        Err(GomokuError::OffBoard(Point::new(15, 0)))
    );
    assert_eq!(
        g.play(Seat::Second, Point::new(255, 255)),
        Err(GomokuError::OffBoard(Point::new(255, 255)))
    );
    assert_eq!(
        g.choose(Seat::Second, Swap2Choice::PlaceTwo),
        Err(GomokuError::WrongPhase(Phase::Main))
    );
    assert_eq!(g, before);
    assert_eq!(g.get(pt("h8")), Some(Stone::Black));
    assert_eq!(g.get(Point::new(200, 3)), None);
    assert!(g.forbidden_points().is_empty());
    assert!(!g.is_forbidden(pt("a1")));
}

#[test]
fn standard_overline_does_not_win() {
    let mut g = game(15, Rule::Standard, Opening::None);
    // Black: c8 d8 e8 g8 h8, then f8 makes six.
    play_all(
        &mut g,
        &[
            "c8", "a1", "d8", "a3", "e8", "a5", "g8", "a7", "h8", "a9", "f8",
        ],
    );
    assert_eq!(g.outcome(), None, "overline must not win under standard");
    assert_eq!(g.phase(), Phase::Main);
    // White's overline does not win either.
    let mut g = game(15, Rule::Standard, Opening::None);
    play_all(
        &mut g,
        &[
            "o15", "c8", "o13", "d8", "o11", "e8", "o9", "g8", "o7", "h8", "n1", "f8",
        ],
    );
    assert_eq!(g.outcome(), None);
    // Exactly five wins.
    let mut g = game(15, Rule::Standard, Opening::None);
    play_all(
        &mut g,
        &["c8", "a1", "d8", "a3", "e8", "a5", "f8", "a7", "g8"],
    );
    assert!(matches!(
        g.outcome(),
        Some(Outcome::Win {
            stone: Stone::Black,
            ..
        })
    ));
}

#[test]
fn freestyle_overline_wins_with_whole_line() {
    let mut g = game(15, Rule::Freestyle, Opening::None);
    play_all(
        &mut g,
        &[
            "c8", "a1", "d8", "a3", "e8", "a5", "g8", "a7", "h8", "a9", "f8",
        ],
    );
    let Some(Outcome::Win { line, .. }) = g.outcome() else {
        panic!("overline wins in freestyle")
    };
    assert_eq!(line.len(), 6);
}

#[test]
fn renju_white_overline_wins_black_overline_forbidden() {
    let mut g = game(15, Rule::Renju, Opening::None);
    // White builds c8 d8 e8 g8 h8 with black far away, then f8 is an overline.
    play_all(
        &mut g,
        &[
            "a1", "c8", "a3", "d8", "a5", "e8", "a7", "g8", "a9", "h8", "a11", "f8",
        ],
    );
    let Some(Outcome::Win { stone, seat, line }) = g.outcome() else {
        panic!("white overline wins")
    };
    assert_eq!((*stone, *seat, line.len()), (Stone::White, Seat::Second, 6));

    let mut g = game(15, Rule::Renju, Opening::None);
    play_all(
        &mut g,
        &["c8", "a1", "d8", "a3", "e8", "a5", "g8", "a7", "h8", "a9"],
    );
    assert!(g.is_forbidden(pt("f8")));
    assert_eq!(g.forbidden_points(), vec![pt("f8")]);
    assert_eq!(
        g.is_legal(Seat::First, pt("f8")),
        Err(GomokuError::Forbidden(pt("f8")))
    );
    assert_eq!(
        g.play(Seat::First, pt("f8")),
        Err(GomokuError::Forbidden(pt("f8")))
    );
    assert_eq!(g.moves().len(), 10);
    // White may play there.
    play_all(&mut g, &["o15", "f8"]);
}

#[test]
fn renju_double_three_rejected_four_three_and_five_allowed() {
    let mut g = game(15, Rule::Renju, Opening::None);
    // Black f8 g8 and h6 h7 -> h8 is a double three.
    play_all(&mut g, &["f8", "a1", "g8", "a3", "h6", "a5", "h7", "a7"]);
    assert_eq!(
        g.play(Seat::First, pt("h8")),
        Err(GomokuError::Forbidden(pt("h8")))
    );
    // With e8 added, h8 is a four-three: legal.
    play_all(&mut g, &["e8", "a9"]);
    assert!(!g.is_forbidden(pt("h8")));
    play_all(&mut g, &["h8", "a11"]);
    // i8 makes exactly five.
    play_all(&mut g, &["i8"]);
    let Some(Outcome::Win { stone, line, .. }) = g.outcome() else {
        panic!("black five")
    };
    assert_eq!((*stone, line.len()), (Stone::Black, 5));
}

#[test]
fn renju_five_beats_forbidden_shape() {
    // Vertically h5 h6 h7 h9 h10 + h8 would be six (an overline), but the
    // row d8..g8 + h8 is exactly five, and the five takes precedence.
    let mut g = game(15, Rule::Renju, Opening::None);
    play_all(
        &mut g,
        &[
            "h5", "a1", "h6", "a3", "h7", "a5", "h9", "a7", "h10", "a9", "d8", "a11", "e8", "a13",
            "f8", "c1", "g8", "c3",
        ],
    );
    assert!(!g.is_forbidden(pt("h8")));
    play_all(&mut g, &["h8"]);
    let Some(Outcome::Win { stone, line, .. }) = g.outcome() else {
        panic!("five wins")
    };
    assert_eq!(*stone, Stone::Black);
    let mut names: Vec<String> = line.iter().map(Point::to_string).collect();
    names.sort();
    assert_eq!(names, ["d8", "e8", "f8", "g8", "h8"]);
}

#[test]
fn full_board_is_a_draw() {
    // Colour pattern with no run longer than two in any direction.
    let size = 9u8;
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for y in 0..size {
        for x in 0..size {
            let p = Point::new(x, y);
            if (u32::from(x) + 2 * u32::from(y)) % 4 < 2 {
                black.push(p);
            } else {
                white.push(p);
            }
        }
    }
    if black.len() < white.len() {
        std::mem::swap(&mut black, &mut white);
    }
    assert_eq!((black.len(), white.len()), (41, 40));
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let mut g = game(size, rule, Opening::None);
        for i in 0..41 {
            g.play(Seat::First, black[i]).unwrap();
            if i < 40 {
                g.play(Seat::Second, white[i]).unwrap();
            }
        }
        assert!(scan_fives(g.board(), rule).is_empty());
        assert_eq!(g.outcome(), Some(&Outcome::Draw), "{rule:?}");
        assert_eq!(g.phase(), Phase::Over);
        assert_eq!(g.undo(), Some(black[40]));
        assert_eq!(g.outcome(), None);
        assert_eq!(g.to_act(), Some(Seat::First));
    }
}

fn swap2_after_three() -> Gomoku {
    let mut g = game(15, Rule::Freestyle, Opening::Swap2);
    assert_eq!(g.phase(), Phase::Swap2PlaceThree);
    assert_eq!(g.stone_of(Seat::First), None);
    assert_eq!(g.stone_of(Seat::Second), None);
    assert_eq!(
        g.play(Seat::Second, pt("h8")),
        Err(GomokuError::NotYourTurn(Seat::Second))
    );
    assert_eq!(
        g.choose(Seat::Second, Swap2Choice::PlayBlack),
        Err(GomokuError::WrongPhase(Phase::Swap2PlaceThree))
    );
    for (m, s) in [
        ("h8", Stone::Black),
        ("i9", Stone::White),
        ("g9", Stone::Black),
    ] {
        assert_eq!(g.to_act(), Some(Seat::First));
        assert_eq!(g.stone_to_play(), s);
        g.play(Seat::First, pt(m)).unwrap();
    }
    assert_eq!(g.phase(), Phase::Swap2Choose);
    assert_eq!(g.to_act(), Some(Seat::Second));
    assert_eq!(
        g.play(Seat::Second, pt("a1")),
        Err(GomokuError::WrongPhase(Phase::Swap2Choose))
    );
    assert_eq!(
        g.choose(Seat::First, Swap2Choice::PlayBlack),
        Err(GomokuError::NotYourTurn(Seat::First))
    );
    g
}

#[test]
fn swap2_second_plays_white() {
    let mut g = swap2_after_three();
    g.choose(Seat::Second, Swap2Choice::PlayWhite).unwrap();
    assert_eq!(g.phase(), Phase::Main);
    assert_eq!(g.stone_of(Seat::Second), Some(Stone::White));
    assert_eq!(g.stone_of(Seat::First), Some(Stone::Black));
    assert_eq!(g.stone_to_play(), Stone::White);
    assert_eq!(g.to_act(), Some(Seat::Second));
    assert_eq!(
        g.play(Seat::First, pt("a1")),
        Err(GomokuError::NotYourTurn(Seat::First))
    );
    assert_eq!(
        g.choose(Seat::Second, Swap2Choice::PlayBlack),
        Err(GomokuError::WrongPhase(Phase::Main))
    );
    g.play(Seat::Second, pt("a1")).unwrap();
    assert_eq!(g.to_act(), Some(Seat::First));
    assert_eq!(g.get(pt("a1")), Some(Stone::White));
}

#[test]
fn swap2_second_plays_black() {
    let mut g = swap2_after_three();
    g.choose(Seat::Second, Swap2Choice::PlayBlack).unwrap();
    assert_eq!(g.stone_of(Seat::Second), Some(Stone::Black));
    assert_eq!(g.stone_of(Seat::First), Some(Stone::White));
    assert_eq!(g.to_act(), Some(Seat::First));
    g.play(Seat::First, pt("a1")).unwrap();
    assert_eq!(g.to_act(), Some(Seat::Second));
    assert_eq!(g.stone_to_play(), Stone::Black);
}

#[test]
fn swap2_place_two_then_first_chooses() {
    for (choice, first, next) in [
        (Swap2Choice::PlayBlack, Stone::Black, Seat::Second),
        (Swap2Choice::PlayWhite, Stone::White, Seat::First),
    ] {
        let mut g = swap2_after_three();
        g.choose(Seat::Second, Swap2Choice::PlaceTwo).unwrap();
        assert_eq!(g.phase(), Phase::Swap2PlaceTwo);
        assert_eq!(g.to_act(), Some(Seat::Second));
        assert_eq!(
            g.play(Seat::First, pt("j10")),
            Err(GomokuError::NotYourTurn(Seat::First))
        );
        assert_eq!(
            g.choose(Seat::Second, Swap2Choice::PlaceTwo),
            Err(GomokuError::WrongPhase(Phase::Swap2PlaceTwo))
        );
        assert_eq!(g.stone_to_play(), Stone::White);
        g.play(Seat::Second, pt("j10")).unwrap();
        assert_eq!(g.stone_to_play(), Stone::Black);
        g.play(Seat::Second, pt("f7")).unwrap();
        assert_eq!(g.phase(), Phase::Swap2FinalChoose);
        assert_eq!(g.to_act(), Some(Seat::First));
        assert_eq!(g.stone_of(Seat::First), None);
        assert_eq!(
            g.choose(Seat::Second, choice),
            Err(GomokuError::NotYourTurn(Seat::Second))
        );
        assert_eq!(
            g.choose(Seat::First, Swap2Choice::PlaceTwo),
            Err(GomokuError::InvalidChoice(Swap2Choice::PlaceTwo))
        );
        assert_eq!(
            g.play(Seat::First, pt("a1")),
            Err(GomokuError::WrongPhase(Phase::Swap2FinalChoose))
        );
        g.choose(Seat::First, choice).unwrap();
        assert_eq!(g.phase(), Phase::Main);
        assert_eq!(g.stone_of(Seat::First), Some(first));
        assert_eq!(g.stone_of(Seat::Second), Some(first.opponent()));
        assert_eq!(g.stone_to_play(), Stone::White);
        assert_eq!(g.to_act(), Some(next));
        assert_eq!(g.moves().len(), 5);
        assert_eq!(g.actions().len(), 7);
    }
}

#[test]
fn swap2_win_reports_the_right_seat() {
    let mut g = swap2_after_three(); // black h8 g9, white i9
    g.choose(Seat::Second, Swap2Choice::PlayBlack).unwrap(); // Second is black
    // White (First) and black (Second) alternate; black completes h8-d12.
    play_all(&mut g, &["a1", "f10", "a2", "e11", "a3", "d12"]);
    let Some(Outcome::Win { stone, seat, line }) = g.outcome() else {
        panic!("black wins")
    };
    assert_eq!((*stone, *seat, line.len()), (Stone::Black, Seat::Second, 5));
}

#[test]
fn undo_through_swap2() {
    let mut g = swap2_after_three();
    g.choose(Seat::Second, Swap2Choice::PlaceTwo).unwrap();
    g.play(Seat::Second, pt("j10")).unwrap();
    g.play(Seat::Second, pt("f7")).unwrap();
    g.choose(Seat::First, Swap2Choice::PlayWhite).unwrap();
    g.play(Seat::First, pt("a1")).unwrap();
    // Undo the main-phase stone: the choice stays.
    assert_eq!(g.undo(), Some(pt("a1")));
    assert_eq!(g.phase(), Phase::Main);
    assert_eq!(g.stone_of(Seat::First), Some(Stone::White));
    // Next undo takes f7 and the final choice made after it.
    assert_eq!(g.undo(), Some(pt("f7")));
    assert_eq!(g.phase(), Phase::Swap2PlaceTwo);
    assert_eq!(g.stone_of(Seat::First), None);
    assert_eq!(g.to_act(), Some(Seat::Second));
    assert_eq!(g.undo(), Some(pt("j10")));
    assert_eq!(
        g.phase(),
        Phase::Swap2PlaceTwo,
        "the PlaceTwo choice has no stone after it yet"
    );
    // Taking back g9 also removes the PlaceTwo choice.
    assert_eq!(g.undo(), Some(pt("g9")));
    assert_eq!(g.phase(), Phase::Swap2PlaceThree);
    assert_eq!(g.to_act(), Some(Seat::First));
    assert_eq!(g.undo(), Some(pt("i9")));
    assert_eq!(g.undo(), Some(pt("h8")));
    assert_eq!(g.undo(), None);
    assert_eq!(g, game(15, Rule::Freestyle, Opening::Swap2));
}

#[test]
fn undo_clears_outcome() {
    let mut g = game(15, Rule::Freestyle, Opening::None);
    play_all(
        &mut g,
        &["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"],
    );
    assert!(g.outcome().is_some());
    assert_eq!(g.undo(), Some(pt("l8")));
    assert_eq!(g.outcome(), None);
    assert_eq!(g.phase(), Phase::Main);
    assert_eq!(g.to_act(), Some(Seat::First));
    assert_eq!(g.get(pt("l8")), None);
}

#[test]
fn serde_round_trip_and_validation() {
    let mut g = swap2_after_three();
    g.choose(Seat::Second, Swap2Choice::PlayWhite).unwrap();
    play_all(&mut g, &["a1", "b2"]);
    let json = serde_json::to_string(&g).unwrap();
    let back: Gomoku = serde_json::from_str(&json).unwrap();
    assert_eq!(back, g);
    let rec: GomokuRecord = serde_json::from_str(&json).unwrap();
    assert_eq!(rec, g.record());
    assert_eq!(Gomoku::replay(rec.config, &rec.actions).unwrap(), g);
    // A tampered record is rejected rather than loaded.
    let mut bad = g.record();
    bad.actions.push(GomokuAction::Place {
        seat: Seat::First,
        point: pt("a1"),
    });
    let bad_json = serde_json::to_string(&bad).unwrap();
    assert!(serde_json::from_str::<Gomoku>(&bad_json).is_err());
    assert_eq!(
        Gomoku::replay(bad.config, &bad.actions),
        Err(GomokuError::NotYourTurn(Seat::First))
    );
    // Enum wire names.
    assert_eq!(
        serde_json::to_string(&Swap2Choice::PlaceTwo).unwrap(),
        r#""place_two""#
    );
    assert_eq!(
        serde_json::to_string(&Phase::Swap2FinalChoose).unwrap(),
        r#""swap2_final_choose""#
    );
    assert_eq!(serde_json::to_string(&Stone::Black).unwrap(), r#""black""#);
    assert_eq!(serde_json::to_string(&Seat::Second).unwrap(), r#""second""#);
    let o = Outcome::Win {
        stone: Stone::White,
        seat: Seat::First,
        line: vec![Point::new(1, 2)],
    };
    assert_eq!(
        serde_json::to_string(&o).unwrap(),
        r#"{"win":{"stone":"white","seat":"first","line":[{"x":1,"y":2}]}}"#
    );
    assert_eq!(serde_json::to_string(&Outcome::Draw).unwrap(), r#""draw""#);
}

#[test]
fn board_helpers_for_search() {
    let mut b = Board::from_diagram(15, &[". X X X X"]).unwrap();
    assert_eq!(b.stone_count(), 4);
    b.place(Point::new(5, 0), Stone::Black).unwrap();
    let line = five_at(&b, Point::new(5, 0), Stone::Black, Rule::Standard).unwrap();
    assert_eq!(line.len(), 5);
    assert_eq!(b.remove(Point::new(5, 0)), Some(Stone::Black));
    assert!(five_at(&b, Point::new(5, 0), Stone::Black, Rule::Standard).is_none());
}
