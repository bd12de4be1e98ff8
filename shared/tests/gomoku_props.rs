//! Property tests: win check vs brute force, play/undo, no panics.

use proptest::prelude::*;
use tabula_shared::gomoku::{
    Board, Gomoku, GomokuConfig, Opening, Point, Rule, Stone, Swap2Choice, five_at, renju,
    scan_fives,
};
use tabula_shared::seat::Seat;

fn rule() -> impl Strategy<Value = Rule> {
    prop_oneof![
        Just(Rule::Freestyle),
        Just(Rule::Standard),
        Just(Rule::Renju)
    ]
}

fn opening() -> impl Strategy<Value = Opening> {
    prop_oneof![Just(Opening::None), Just(Opening::Swap2)]
}

fn seat() -> impl Strategy<Value = Seat> {
    prop_oneof![Just(Seat::First), Just(Seat::Second)]
}

fn choice() -> impl Strategy<Value = Swap2Choice> {
    prop_oneof![
        Just(Swap2Choice::PlayBlack),
        Just(Swap2Choice::PlayWhite),
        Just(Swap2Choice::PlaceTwo)
    ]
}

fn colour(black: bool) -> Stone {
    if black { Stone::Black } else { Stone::White }
}

/// A dense random board (small, so that long runs are common).
fn dense_board(size: u8, stones: &[(u8, u8, bool)]) -> Board {
    let mut b = Board::new(size).expect("valid size");
    for &(x, y, black) in stones {
        let _ = b.place(Point::new(x % size, y % size), colour(black));
    }
    b
}

/// Drives a game with loosely random actions, mostly legal ones.
fn drive(g: &mut Gomoku, actions: &[(u8, u8, u8)]) {
    let size = g.size();
    for &(x, y, kind) in actions {
        let Some(seat) = g.to_act() else { break };
        if kind == 3 {
            let c = [
                Swap2Choice::PlayBlack,
                Swap2Choice::PlayWhite,
                Swap2Choice::PlaceTwo,
            ][usize::from(x % 3)];
            let _ = g.choose(seat, c);
        } else {
            let _ = g.play(seat, Point::new(x % size, y % size));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn win_check_agrees_with_brute_force(
        size in 9u8..=11,
        rule in rule(),
        stones in prop::collection::vec((0u8..11, 0u8..11, prop::bool::weighted(0.75)), 0..110),
        last in (0u8..11, 0u8..11, any::<bool>()),
    ) {
        let mut b = dense_board(size, &stones);
        let p = Point::new(last.0 % size, last.1 % size);
        if b.get(p).is_none() {
            b.place(p, colour(last.2)).unwrap();
        }
        let sorted = |mut v: Vec<Point>| { v.sort(); v };
        let all = scan_fives(&b, rule);
        // Every stone on the board plays the part of "the last move".
        for (p, s) in b.stones().collect::<Vec<_>>() {
            let expected: Vec<Vec<Point>> = all
                .iter()
                .filter(|(st, line)| *st == s && line.contains(&p))
                .map(|(_, line)| sorted(line.clone()))
                .collect();
            let got = five_at(&b, p, s, rule);
            prop_assert_eq!(got.is_some(), !expected.is_empty(), "{:?} {:?} at {}", rule, b, p);
            if let Some(line) = got {
                prop_assert!(line.len() >= 5);
                prop_assert!(expected.contains(&sorted(line)));
            }
            // A colour never "wins" through a point it does not hold.
            prop_assert!(five_at(&b, p, s.opponent(), rule).is_none());
        }
    }

    #[test]
    fn play_then_undo_restores(
        size in 9u8..=13,
        rule in rule(),
        opening in opening(),
        actions in prop::collection::vec((any::<u8>(), any::<u8>(), 0u8..4), 0..80),
        extra in (any::<u8>(), any::<u8>()),
    ) {
        let config = GomokuConfig { size, rule, opening };
        let mut g = Gomoku::new(config).unwrap();
        drive(&mut g, &actions);
        // Replaying the record gives the same game.
        prop_assert_eq!(&Gomoku::replay(config, g.actions()).unwrap(), &g);
        let snapshot = g.clone();
        if let Some(seat) = g.to_act() {
            let p = Point::new(extra.0 % size, extra.1 % size);
            if g.play(seat, p).is_ok() {
                prop_assert_eq!(g.get(p), Some(snapshot.stone_to_play()));
                prop_assert_eq!(g.undo(), Some(p));
                prop_assert_eq!(&g, &snapshot);
                prop_assert_eq!(g.board(), snapshot.board());
            } else {
                prop_assert_eq!(&g, &snapshot, "a failed play changes nothing");
            }
        }
        // Undoing everything gives a fresh game.
        let n = g.moves().len();
        for _ in 0..n {
            prop_assert!(g.undo().is_some());
        }
        prop_assert_eq!(g.undo(), None);
        prop_assert_eq!(g, Gomoku::new(config).unwrap());
    }

    #[test]
    fn renju_forbidden_points_are_consistent(
        stones in prop::collection::vec((0u8..9, 0u8..9, prop::bool::weighted(0.8)), 0..45),
    ) {
        let b = dense_board(9, &stones);
        let all = renju::forbidden_points(&b);
        for p in b.points() {
            let f = renju::is_forbidden(&b, p);
            prop_assert_eq!(f, all.contains(&p));
            let mut scratch = b.clone();
            prop_assert_eq!(renju::is_forbidden_in_place(&mut scratch, p), f);
            prop_assert_eq!(&scratch, &b);
            if b.is_empty_at(p) {
                let mut after = b.clone();
                after.place(p, Stone::Black).unwrap();
                let exact_five = five_at(&after, p, Stone::Black, Rule::Renju).is_some();
                if exact_five {
                    prop_assert!(!f, "a five is never forbidden: {:?} {}", b, p);
                }
                let over = five_at(&after, p, Stone::Black, Rule::Freestyle).is_some();
                if over && !exact_five {
                    prop_assert!(f, "an overline without a five is forbidden: {:?} {}", b, p);
                }
            } else {
                prop_assert!(!f);
            }
        }
    }

    #[test]
    fn nothing_panics(
        size in any::<u8>(),
        rule in rule(),
        opening in opening(),
        ops in prop::collection::vec(
            (0u8..4, seat(), any::<u8>(), any::<u8>(), choice()), 0..60),
        text in ".{0,12}",
        rows in prop::collection::vec(".{0,30}", 0..30),
    ) {
        let _ = text.parse::<Point>();
        let _ = Point::parse_on(&text, size);
        let _ = Board::from_diagram(size, &rows.iter().map(String::as_str).collect::<Vec<_>>());
        let _ = Board::new(size);
        let config = GomokuConfig { size, rule, opening };
        let Ok(mut g) = Gomoku::new(config) else { return Ok(()); };
        for (kind, seat, x, y, choice) in ops {
            let p = Point::new(x, y);
            match kind {
                0 => { let _ = g.play(seat, p); }
                1 => { let _ = g.play(seat, Point::new(x % size, y % size)); }
                2 => { let _ = g.choose(seat, choice); }
                _ => { let _ = g.undo(); }
            }
            let _ = (g.phase(), g.to_act(), g.stone_to_play(), g.outcome(), g.moves());
            let _ = (g.stone_of(seat), g.get(p), g.is_legal(seat, p), g.is_forbidden(p));
            let _ = (p.to_string(), p.notation());
        }
        let _ = g.forbidden_points();
        let json = serde_json::to_string(&g).unwrap();
        let back: Gomoku = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back, g);
    }

    /// The server applies Gomoku actions in place, without a copy to fall
    /// back on: a refused action must leave the game exactly as it was.
    #[test]
    fn a_refused_action_changes_nothing(
        rule in rule(),
        opening in opening(),
        ops in prop::collection::vec(
            (0u8..3, seat(), any::<u8>(), any::<u8>(), choice()), 0..80),
    ) {
        let config = GomokuConfig { size: 9, rule, opening };
        let mut g = Gomoku::new(config).unwrap();
        for (kind, seat, x, y, choice) in ops {
            let before = g.clone();
            let refused = match kind {
                0 => g.play(seat, Point::new(x, y)).is_err(),
                1 => g.play(seat, Point::new(x % 9, y % 9)).is_err(),
                _ => g.choose(seat, choice).is_err(),
            };
            if refused {
                prop_assert_eq!(&g, &before);
            }
        }
    }

    #[test]
    fn point_text_round_trip(x in any::<u8>(), y in any::<u8>()) {
        let p = Point::new(x, y);
        prop_assert_eq!(p.to_string().parse::<Point>(), Ok(p));
        prop_assert_eq!(format!("{x},{y}").parse::<Point>(), Ok(p));
    }
}
