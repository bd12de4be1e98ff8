use super::*;
use crate::backgammon::{BgMatch, Board, Cube, Dice, GamePhase, MatchConfig, Position, Side};
use crate::gomoku::GomokuConfig;

/// Positions met in games played with the dice and plays picked by a
/// fixed sequence: each one awaiting a roll, moving, or with a double.
fn played_setups() -> Vec<BgSetup> {
    let mut out = Vec::new();
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        (state >> 33) % n
    };
    for length in [0, 5, 7] {
        let mut m = BgMatch::new(MatchConfig {
            length,
            ..MatchConfig::default()
        })
        .unwrap();
        m.opening_roll(3, 1).unwrap();
        for _ in 0..120 {
            match *m.phase() {
                GamePhase::Moving { side, .. } => {
                    out.extend(BgSetup::of_match(&m));
                    let plays = m.legal_plays();
                    let play = plays[next(plays.len() as u64) as usize].clone();
                    m.play(side, &play).unwrap();
                }
                GamePhase::AwaitingRoll { side } => {
                    out.extend(BgSetup::of_match(&m));
                    if m.can_double(side) && next(9) == 0 {
                        m.double(side).unwrap();
                        out.extend(BgSetup::of_match(&m));
                        m.take(side.opponent()).unwrap();
                        continue;
                    }
                    let dice = Dice::new(next(6) as u8 + 1, next(6) as u8 + 1).unwrap();
                    m.roll(side, dice).unwrap();
                }
                GamePhase::GameOver { .. } => m.start_next_game().unwrap(),
                GamePhase::OpeningRoll => {
                    m.opening_roll(next(6) as u8 + 1, next(6) as u8 + 1)
                        .unwrap();
                }
                _ => break,
            }
        }
    }
    out
}

#[test]
fn gnubg_ids_and_xgids_read_back_to_the_same_setup() {
    let setups = played_setups();
    assert!(setups.len() > 200, "{} setups", setups.len());
    for setup in &setups {
        let (pid, mid) = setup.gnubg_ids().unwrap();
        let back = BgSetup::from_gnubg(&pid, Some(&mid)).unwrap();
        assert_eq!(&back, setup, "{pid}:{mid}");
        let xgid = setup.xgid();
        assert_eq!(&BgSetup::from_xgid(&xgid).unwrap(), setup, "{xgid}");
        let position = StudyPosition::Backgammon(*setup);
        assert_eq!(
            StudyPosition::from_link(&position.link()).unwrap(),
            position
        );
        let pasted = StudyPosition::parse(&format!("{pid}:{mid}"), GomokuConfig::default());
        assert_eq!(pasted.unwrap(), vec![position]);
    }
}

#[test]
fn gnubgs_own_ids_read_as_gnubg_shows_them() {
    // `gnubg -t`, `new match 7`: gnubg opens with 6-3, then moves 24/18
    // 13/10 and the other side is on roll.
    let opening = BgSetup::from_gnubg("4HPwATDgc/ABMA", Some("MAHvAAAAAAAE")).unwrap();
    assert_eq!(opening.dice, Some([6, 3]));
    assert_eq!(opening.config.length, 7);
    assert_eq!(
        opening.gnubg_ids().unwrap(),
        ("4HPwATDgc/ABMA".into(), "MAHvAAAAAAAE".into())
    );
    let text = "Position ID: 4HPiQSDgc/ABMA\nMatch ID   : cAngAAAAAAAE";
    let [StudyPosition::Backgammon(next)] =
        &StudyPosition::parse(text, GomokuConfig::default()).unwrap()[..]
    else {
        panic!("one backgammon position");
    };
    assert_eq!(next.dice, None);
    assert_eq!(next.on_roll, opening.on_roll.opponent());
    assert_eq!(
        next.gnubg_ids().unwrap(),
        ("4HPiQSDgc/ABMA".into(), "cAngAAAAAAAE".into())
    );
}

#[test]
fn the_xgid_of_the_opening_is_xgs() {
    let setup = BgSetup::from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10").unwrap();
    assert_eq!(
        setup.board,
        Board::from_position(&Position::START, Side::White)
    );
    // The bottom player: gnubg's player 1.
    assert_eq!(setup.on_roll, Side::Black);
    assert_eq!(setup.dice, Some([5, 2]));
    assert_eq!(setup.config.length, 7);
    assert_eq!(
        setup.xgid(),
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"
    );
    // The top player doubles to 2: the turn is the player answering.
    let doubled = BgSetup::from_xgid("-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:0:10").unwrap();
    assert!(doubled.double_offered);
    assert_eq!(doubled.on_roll, Side::White);
    assert_eq!(doubled.cube, Cube::default());
}

#[test]
fn malformed_ids_are_refused_naming_what_is_wrong() {
    let bad_pid = BgSetup::from_gnubg("4HPwATDgc/ABM", None).unwrap_err();
    assert!(
        matches!(&bad_pid, SetupError::PositionId { reason, .. } if reason.contains("13 characters")),
        "{bad_pid}"
    );
    let bad_char = BgSetup::from_gnubg("4HPwATDgc/AB!A", None).unwrap_err();
    assert!(bad_char.to_string().contains("'!'"), "{bad_char}");
    let bad_mid = BgSetup::from_gnubg("4HPwATDgc/ABMA", Some("cAng")).unwrap_err();
    assert!(matches!(bad_mid, SetupError::MatchId { .. }), "{bad_mid}");
    // Sixteen white checkers (an extra one on White's 1-point).
    let sixteen = BgSetup::from_xgid("-A----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10");
    assert_eq!(
        sixteen.unwrap_err(),
        SetupError::CheckerCount {
            side: Side::Black,
            count: 16
        }
    );
    let fields = [
        ("-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10", 1),
        ("-b----E-C---eE---c-e----B-:9:0:1:00:0:0:0:0:10", 2),
        ("-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10", 3),
        ("-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10", 4),
        ("-b----E-C---eE---c-e----B-:0:0:1:71:0:0:0:0:10", 5),
        ("-b----E-C---eE---c-e----B-:0:0:1:00:x:0:0:7:10", 6),
    ];
    for (xgid, field) in fields {
        match BgSetup::from_xgid(xgid) {
            Err(SetupError::Xgid { field: f, .. }) => assert_eq!(f, field, "{xgid}"),
            other => panic!("{xgid}: {other:?}"),
        }
    }
    let over = BgSetup::from_xgid("-b----E-C---eE---c-e----B-:0:0:1:00:7:0:0:7:10");
    assert!(matches!(over, Err(SetupError::Score(_))), "{over:?}");
    let centred_two = BgSetup::from_xgid("-b----E-C---eE---c-e----B-:1:0:1:00:0:0:0:7:10");
    assert!(
        matches!(centred_two, Err(SetupError::Cube(_))),
        "{centred_two:?}"
    );
    let crawford_double = BgSetup::from_xgid("-b----E-C---eE---c-e----B-:0:0:1:D:6:0:1:7:10");
    assert!(
        matches!(crawford_double, Err(SetupError::Cube(_))),
        "{crawford_double:?}"
    );
}

#[test]
fn gomoku_move_lists_read_in_the_common_ways() {
    let config = GomokuConfig::default();
    let want: Vec<Point> = ["h8", "i9", "j10"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    for text in [
        "h8 i9 j10",
        "h8i9j10",
        "1. h8 2. i9 3. j10",
        "h8,i9;j10",
        "7,7 8,8 9,9",
    ] {
        let line = StudyPosition::parse(text, config).unwrap();
        assert_eq!(line.len(), 4, "{text}");
        let StudyPosition::Gomoku(last) = line.last().unwrap() else {
            panic!("gomoku");
        };
        assert_eq!(last.black, vec![want[0], want[2]], "{text}");
        assert_eq!(last.white, vec![want[1]], "{text}");
        assert_eq!(last.to_move, Stone::White);
    }
    assert_eq!(
        StudyPosition::parse("h8 i9 h8", config).unwrap_err(),
        SetupError::Occupied("h8".parse().unwrap())
    );
    assert!(matches!(
        StudyPosition::parse("h8 z30", config),
        Err(SetupError::Point { .. })
    ));
    assert_eq!(
        StudyPosition::parse("hello there", config).unwrap_err(),
        SetupError::Unrecognised
    );
}

#[test]
fn gomoku_records_and_links_round_trip() {
    use crate::export::{ExportMeta, export};
    use crate::protocol::GameRecord;
    let config = GomokuConfig {
        size: 15,
        rule: Rule::Renju,
        ..GomokuConfig::default()
    };
    let moves: Vec<Point> = ["h8", "h9", "i8", "g8", "j9"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let mut game = crate::gomoku::Gomoku::new(config).unwrap();
    for &p in &moves {
        let seat = game.to_act().unwrap();
        game.play(seat, p).unwrap();
    }
    let record = GameRecord::Gomoku {
        config,
        actions: game.actions().to_vec(),
    };
    for format in [ExportFormat::GomokuSgf, ExportFormat::Psq] {
        let text = export(&record, &ExportMeta::default(), format).unwrap();
        let line = StudyPosition::parse(&text, config).unwrap();
        let want = GomokuSetup::from_moves(15, Rule::Renju, &moves).unwrap();
        assert_eq!(line.last(), Some(&StudyPosition::Gomoku(want.clone())));
        assert_eq!(line.len(), moves.len() + 1);
        let linked = StudyPosition::Gomoku(want);
        assert_eq!(
            StudyPosition::parse(&linked.link(), config).unwrap(),
            vec![linked.clone()]
        );
    }
    assert!(matches!(
        StudyPosition::parse("(;GM[4]SZ[15];B[zz]", config),
        Err(SetupError::Record { .. })
    ));
}

#[test]
fn a_hand_made_gomoku_board_is_checked() {
    let mut setup = GomokuSetup::empty(15, Rule::Freestyle);
    setup.black = vec![Point::new(7, 7), Point::new(7, 7)];
    assert_eq!(
        setup.board().unwrap_err(),
        SetupError::Occupied(Point::new(7, 7))
    );
    setup.black = vec![Point::new(20, 7)];
    assert!(matches!(setup.board(), Err(SetupError::Point { .. })));
    assert_eq!(
        GomokuSetup::empty(30, Rule::Freestyle).board().unwrap_err(),
        SetupError::Size(30)
    );
    setup.black = (0..5).map(|x| Point::new(x, 0)).collect();
    assert_eq!(setup.winner(), Some(Stone::Black));
}

#[test]
fn xgids_give_the_gnubg_ids_gnubg_gives() {
    // `gnubg -t`: `set xgid …`, then the IDs it shows (GNU Backgammon
    // 1.07.001): money with 3-1 rolled; a 7-point match at 2-3 with Black
    // owning a cube on 2; the Crawford game at 6-3 with Black to play 4-2.
    let cases = [
        (
            "XGID=-b--BBC-C---eC---c-e----B-:0:0:1:31:0:0:0:0:10",
            "4HPwATDYzsEBMA",
            "cIkFAAAAAAAE",
        ),
        (
            "XGID=-b--BBC-C---eC---c-e----B-:1:-1:1:00:2:3:0:7:10",
            "4HPwATDYzsEBMA",
            "QQngADAAEAAE",
        ),
        (
            "XGID=-b--BBC-C---eC---c-e----B-:0:0:-1:42:6:3:1:7:10",
            "2M7BATDgc/ABMA",
            "sAHqADAAMAAE",
        ),
    ];
    for (xgid, pid, mid) in cases {
        let setup = BgSetup::from_xgid(xgid).unwrap();
        assert_eq!(
            setup.gnubg_ids().unwrap(),
            (pid.into(), mid.into()),
            "{xgid}"
        );
    }
}
