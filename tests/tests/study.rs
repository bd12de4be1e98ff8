//! The analysis board over real sockets: positions pasted as gnubg IDs, an
//! XGID or a Gomoku move list, and set up by hand; the answers checked
//! against the engines called directly; the forced wins replayed to a five;
//! typed refusals for what does not read or what the rules refuse; one
//! answer in work per player.

use serde_json::{Value, json};
use tabula_shared::backgammon::BgMatch;
use tabula_shared::gomoku::{Point, Rule, Stone, five_at};
use tabula_shared::protocol::{ForcedWinKind, StudyAnswer};
use tabula_shared::study::{BgSetup, GomokuSetup, StudyPosition};
use tabula_tests::{Client, TestServer, test_config};

/// Nodes per Gomoku search in these tests.
const NODES: u64 = 20_000;

async fn server() -> (TestServer, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("dir");
    let mut config = test_config(dir.path());
    config.analysis_gomoku_nodes = NODES;
    (TestServer::start_with(config).await, dir)
}

async fn study(client: &mut Client, request: Value) -> Value {
    let mut msg = request;
    msg["type"] = json!("study");
    client.request(msg).await
}

fn answer_of(reply: &Value) -> StudyAnswer {
    assert_eq!(reply["type"], "study_answer", "{reply}");
    serde_json::from_value(reply["answer"].clone()).expect("answer")
}

/// A middle-game money position, the bottom player on roll with 3-1.
const ROLLED: &str = "XGID=-b--BBC-C---eC---c-e----B-:0:0:1:31:0:0:0:0:10";
/// A strong position for the bottom player before the roll, cube in the
/// middle (money).
const CUBE: &str = "XGID=-----bBBBBBB---A-----bdd--:0:0:1:00:0:0:0:0:10";

#[tokio::test]
async fn backgammon_plays_and_cube_are_the_engines_own() {
    let (server, _dir) = server().await;
    let mut c = server.client("Ada").await;

    let reply = study(&mut c, json!({"text": ROLLED})).await;
    let StudyAnswer::Backgammon(bg) = answer_of(&reply) else {
        panic!("{reply}");
    };
    assert_eq!(reply["ids"]["xgid"], ROLLED, "{reply}");
    let setup = BgSetup::from_xgid(ROLLED).expect("xgid");
    let (pid, mid) = setup.gnubg_ids().expect("ids");
    assert_eq!(reply["ids"]["position_id"], json!(pid));
    assert_eq!(reply["ids"]["match_id"], json!(mid));
    assert_eq!(bg.depth, 1);
    assert!(bg.plays.len() > 1, "{reply}");
    let m: BgMatch = setup.to_match().expect("match");
    let hints = tabula_ai::backgammon::hints::hints(&m, setup.on_roll);
    let tabula_ai::backgammon::hints::HintAction::Play(best) = &hints[0].0 else {
        panic!("a play");
    };
    let after = |play| {
        let mut m = m.clone();
        m.play(setup.on_roll, play).expect("legal");
        m.board()
    };
    assert_eq!(after(&bg.plays[0].play), after(best), "{reply}");
    assert!((bg.plays[0].equity - hints[0].1).abs() < 1e-5);
    for pair in bg.plays.windows(2) {
        assert!(pair[0].equity >= pair[1].equity, "best first: {reply}");
    }
    // The same position by its gnubg IDs, two plies deep.
    let deep = study(&mut c, json!({"text": format!("{pid}:{mid}"), "depth": 2})).await;
    let StudyAnswer::Backgammon(deep) = answer_of(&deep) else {
        panic!("{deep}");
    };
    assert_eq!(deep.depth, 2);
    assert!(!deep.plays.is_empty());

    let reply = study(&mut c, json!({"text": CUBE, "depth": 1})).await;
    let StudyAnswer::Backgammon(bg) = answer_of(&reply) else {
        panic!("{reply}");
    };
    let cube = bg.cube.expect("a cube decision");
    let setup = BgSetup::from_xgid(CUBE).unwrap();
    let m = setup.to_match().unwrap();
    let hints = tabula_ai::backgammon::hints::hints(&m, setup.on_roll);
    let roll = hints
        .iter()
        .find(|(a, _)| *a == tabula_ai::backgammon::hints::HintAction::Roll)
        .expect("roll");
    assert!((cube.no_double - roll.1).abs() < 1e-5, "{reply}");
    assert!(cube.chances.win > 0.5, "{reply}");
}

/// The stones of `line` from `setup`, alternating from the attacker: the
/// last makes the attacker's five.
fn replays_to_five(setup: &GomokuSetup, attacker: Stone, line: &[Point]) -> bool {
    let mut board = setup.board().expect("board");
    let mut mover = attacker;
    for (i, &p) in line.iter().enumerate() {
        if board.place(p, mover).is_err() {
            return false;
        }
        if five_at(&board, p, mover, setup.rule).is_some() {
            return mover == attacker && i + 1 == line.len();
        }
        mover = mover.opponent();
    }
    false
}

#[tokio::test]
async fn gomoku_forced_wins_replay_to_a_five() {
    let (server, _dir) = server().await;
    let mut c = server.client("Ada").await;
    let points =
        |list: &[&str]| -> Vec<Point> { list.iter().map(|s| s.parse().unwrap()).collect() };
    // k8 makes two fours at once (the row from h8, the column to k11).
    let vcf = GomokuSetup {
        size: 15,
        rule: Rule::Freestyle,
        black: points(&["h8", "i8", "j8", "k9", "k10", "k11"]),
        white: points(&["g8", "k12", "a1", "a2", "o15", "o14"]),
        to_move: Stone::Black,
    };
    // j8 makes two open threes: a win by threats, with no four to start.
    let vct = GomokuSetup {
        black: points(&["h8", "i8", "j9", "j10"]),
        white: points(&["a1", "a2", "o15", "o14"]),
        ..vcf.clone()
    };
    for (setup, kind) in [(vcf, ForcedWinKind::Vcf), (vct, ForcedWinKind::Vct)] {
        let position = StudyPosition::Gomoku(setup.clone());
        let reply = study(&mut c, json!({"position": position})).await;
        let StudyAnswer::Gomoku(answer) = answer_of(&reply) else {
            panic!("{reply}");
        };
        assert_eq!(answer.moves.len(), 3, "{reply}");
        let win = answer.win.expect("a forced win");
        assert_eq!(win.kind, kind, "{reply}");
        assert_eq!(win.attacker, Stone::Black);
        assert!(replays_to_five(&setup, Stone::Black, &win.line), "{reply}");
        assert!(answer.threat.is_none(), "{reply}");
    }

    // An open four on the board: White to move cannot stop it.
    let reply = study(
        &mut c,
        json!({"text": "h8 a1 i8 a2 j8 a3 k8", "gomoku": {"size": 15, "rule": "freestyle"}}),
    )
    .await;
    let StudyAnswer::Gomoku(answer) = answer_of(&reply) else {
        panic!("{reply}");
    };
    assert_eq!(answer.to_move, Stone::White);
    let threat = answer.threat.expect("black's threat");
    assert_eq!(threat.attacker, Stone::Black);
    let [StudyPosition::Gomoku(setup)] = &StudyPosition::parse(
        reply["ids"]["link"].as_str().expect("link"),
        Default::default(),
    )
    .expect("link reads")[..] else {
        panic!("{reply}");
    };
    assert!(
        replays_to_five(setup, Stone::Black, &threat.line),
        "{reply}"
    );
}

#[tokio::test]
async fn bad_positions_are_refused_naming_what_is_wrong() {
    let (server, _dir) = server().await;
    let mut c = server.client("Ada").await;
    let cases = [
        (
            json!({"text": "4HPwATDgc/ABM:cAkAAAAAAAAA"}),
            "13 characters",
        ),
        (json!({"text": "4HPwATDgc/ABMA:cAkAAA"}), "Match ID"),
        (
            json!({"text": "XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10"}),
            "field 5",
        ),
        (
            json!({"text": "XGID=-A----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"}),
            "16 checkers",
        ),
        (json!({"text": "h8 i9 h8"}), "two stones on h8"),
        (json!({"text": "(;GM[4]SZ[15];B[zz]"}), "SGF"),
        (json!({"text": "Piskvorky 15x15\n99,99,0\n"}), "PSQ"),
        (json!({"text": "good evening"}), "not a position"),
        (
            json!({"position": {"game": "gomoku", "size": 15,
                "black": [{"x": 7, "y": 7}, {"x": 7, "y": 7}], "to_move": "white"}}),
            "two stones",
        ),
    ];
    for (request, says) in cases {
        let reply = study(&mut c, request.clone()).await;
        assert_eq!(reply["type"], "error", "{request}: {reply}");
        assert_eq!(reply["code"], "bad_position", "{request}: {reply}");
        let message = reply["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{request}: {message}");
    }
    let both = study(
        &mut c,
        json!({"text": ROLLED, "position": {"game": "gomoku", "size": 15, "to_move": "black"}}),
    )
    .await;
    assert_eq!(both["code"], "bad_request", "{both}");
    // The connection still answers.
    let reply = study(&mut c, json!({"text": ROLLED, "depth": 0})).await;
    assert_eq!(reply["type"], "study_answer", "{reply}");
}

#[tokio::test]
async fn one_answer_in_work_per_player() {
    let (server, _dir) = server().await;
    let mut c = server.client("Ada").await;
    for id in [1, 2] {
        c.send(json!({"type": "study", "text": ROLLED, "depth": 2, "request_id": id}))
            .await;
    }
    let mut kinds = Vec::new();
    for id in [1, 2] {
        let reply = c.expect(|m| m["request_id"] == json!(id)).await;
        if reply["type"] == "error" {
            assert_eq!(reply["code"], "rate_limited", "{reply}");
            assert!(reply["retry_after_ms"].as_u64().is_some(), "{reply}");
        }
        kinds.push(reply["type"].as_str().unwrap_or_default().to_string());
    }
    kinds.sort();
    assert_eq!(kinds, ["error", "study_answer"]);
    // Once it is answered, the next is welcome.
    let reply = study(&mut c, json!({"text": ROLLED, "depth": 0})).await;
    assert_eq!(reply["type"], "study_answer", "{reply}");
}
