//! The host's external engines as a room's AI, over real sockets: a
//! Gomocup brain and a Backgammon line-protocol engine of our own
//! (`test-engine`), playing whole games, and failing on purpose (a crash,
//! an illegal move, a hang): the built-in Expert plays on and the room's
//! chat says so.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use tabula_server::engines::EngineSpec;
use tabula_shared::backgammon::GamePhase;
use tabula_shared::game::LiveGame;
use tabula_shared::gomoku::Point;
use tabula_shared::protocol::GameKind;
use tabula_shared::seat::Seat;
use tabula_tests::{
    Client, TestServer, backgammon_options, gomoku_options, replay_snapshot, test_config,
};

/// The server's own name in a room's chat.
const SERVER: &str = "Tabula server";

/// `test-engine` speaking `protocol` as the engine `name`, failing as
/// `fail` says (e.g. `["--fail", "crash", "--after", "2"]`), logging its
/// good answers to `log`.
fn engine(game: GameKind, name: &str, fail: &[&str], log: &Path) -> EngineSpec {
    let protocol = match game {
        GameKind::Gomoku => "gomocup",
        GameKind::Backgammon => "line",
    };
    let mut args = vec![protocol.to_string()];
    args.extend(fail.iter().map(|s| s.to_string()));
    args.extend(["--log".to_string(), log.display().to_string()]);
    let requests = log.with_extension("requests");
    args.extend(["--requests".to_string(), requests.display().to_string()]);
    EngineSpec {
        game,
        name: name.into(),
        program: env!("CARGO_BIN_EXE_test-engine").into(),
        args,
    }
}

/// A server offering the test engines, and the directory of their logs.
async fn server_with_engines() -> (TestServer, tempfile::TempDir) {
    server_with_engines_and(|_| {}).await
}

/// [`server_with_engines`] with more settings.
async fn server_with_engines_and(
    more: impl FnOnce(&mut tabula_server::Config),
) -> (TestServer, tempfile::TempDir) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let logs = tmp.path().join("logs");
    std::fs::create_dir_all(&logs).expect("log dir");
    let mut config = test_config(&tmp.path().join("data"));
    let log = |name: &str| logs.join(format!("{name}.log"));
    config.engines = vec![
        engine(GameKind::Gomoku, "Good", &[], &log("Good")),
        engine(
            GameKind::Gomoku,
            "Crashy",
            &["--fail", "crash", "--after", "2"],
            &log("Crashy"),
        ),
        engine(
            GameKind::Gomoku,
            "Liar",
            &["--fail", "illegal", "--after", "2"],
            &log("Liar"),
        ),
        engine(
            GameKind::Gomoku,
            "Sleepy",
            &["--fail", "hang", "--after", "2"],
            &log("Sleepy"),
        ),
        engine(
            GameKind::Gomoku,
            "Flood",
            &["--fail", "flood", "--after", "2"],
            &log("Flood"),
        ),
        engine(GameKind::Backgammon, "Racer", &[], &log("Racer")),
        engine(
            GameKind::Backgammon,
            "Cheat",
            &["--fail", "illegal", "--after", "1"],
            &log("Cheat"),
        ),
    ];
    more(&mut config);
    (TestServer::start_with(config).await, tmp)
}

/// The lines an engine logged as its good answers.
fn logged(tmp: &tempfile::TempDir, name: &str) -> Vec<String> {
    let path: PathBuf = tmp.path().join("logs").join(format!("{name}.log"));
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(String::from)
        .collect()
}

/// The Gomocup commands an engine was sent (their first words).
fn requests(tmp: &tempfile::TempDir, name: &str) -> Vec<String> {
    let path: PathBuf = tmp.path().join("logs").join(format!("{name}.requests"));
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(String::from)
        .collect()
}

/// The server's lines in the room's chat, in the order they came.
fn notices(client: &Client) -> Vec<String> {
    client
        .seen
        .iter()
        .filter(|m| m["type"] == "event" && m["event"]["kind"] == "chat")
        .filter(|m| m["event"]["line"]["from"] == SERVER)
        .filter_map(|m| m["event"]["line"]["text"].as_str().map(String::from))
        .collect()
}

/// Whether an action event whose `key` is `value` (the AI's seat or side)
/// came after the server's first chat line.
fn ai_acted_after_the_notice(client: &Client, key: &str, value: &str) -> bool {
    let Some(at) = client.seen.iter().position(|m| {
        m["type"] == "event" && m["event"]["kind"] == "chat" && m["event"]["line"]["from"] == SERVER
    }) else {
        return false;
    };
    client.seen[at..].iter().any(|m| {
        m["type"] == "event" && m["event"]["kind"] == "action" && m["event"]["action"][key] == value
    })
}

/// Ada (black) plays Gomoku against the engine `name` to the end, placing
/// her stones in reading order from the top left (a five on the top row
/// unless someone blocks it). Returns the result and the AI's stones.
async fn gomoku_to_the_end(server: &TestServer, name: &str) -> (Client, Value, Vec<Point>) {
    let mut ada = server.client("Ada").await;
    let (room, seat) = ada
        .create(gomoku_options(
            json!({"kind": "engine", "name": name}),
            "black",
        ))
        .await;
    assert_eq!(seat, "first");
    for _ in 0..300 {
        let snap = ada.request(json!({"type": "sync", "room_id": room})).await;
        if !snap["snapshot"]["result"].is_null() {
            let second = &snap["snapshot"]["summary"]["seats"][1]["player"];
            assert_eq!(second["name"], name, "{second}");
            let LiveGame::Gomoku(game) = replay_snapshot(&snap) else {
                panic!("not gomoku")
            };
            let ai: Vec<Point> = game.moves().iter().skip(1).step_by(2).copied().collect();
            return (ada, snap["snapshot"]["result"].clone(), ai);
        }
        let LiveGame::Gomoku(game) = replay_snapshot(&snap) else {
            panic!("not gomoku")
        };
        if game.to_act() != Some(Seat::First) {
            ada.event("action").await;
            continue;
        }
        let size = game.size();
        let p = (0..size)
            .flat_map(|y| (0..size).map(move |x| Point { x, y }))
            .find(|p| game.is_legal(Seat::First, *p).is_ok())
            .expect("a legal point");
        let reply = ada.act(&room, json!({"kind": "place", "point": p})).await;
        assert_eq!(reply["type"], "event", "{reply}");
    }
    panic!("the game did not end");
}

#[tokio::test]
async fn the_welcome_lists_the_engines_and_create_room_checks_the_choice() {
    let (server, _tmp) = server_with_engines().await;
    let mut ada = Client::connect(server.addr).await;
    let welcome = ada.hello("Ada", None).await;
    let engines = welcome["engines"].as_array().expect("engines listed");
    assert!(
        engines.contains(&json!({"game": "gomoku", "name": "Good"})),
        "{welcome}"
    );
    assert!(
        engines.contains(&json!({"game": "backgammon", "name": "Racer"})),
        "{welcome}"
    );
    let refused = |options: Value| json!({"type": "create_room", "options": options});
    for options in [
        // No such engine.
        gomoku_options(json!({"kind": "engine", "name": "Rapfi"}), "black"),
        // A Gomoku engine does not play Backgammon.
        backgammon_options(json!({"kind": "engine", "name": "Good"}), "white", 1),
        // An engine has no rating.
        {
            let mut o = gomoku_options(json!({"kind": "engine", "name": "Good"}), "black");
            o["rated"] = json!(true);
            o["takebacks"] = json!(false);
            o
        },
    ] {
        let reply = ada.request(refused(options.clone())).await;
        assert_eq!(reply["type"], "error", "{options} -> {reply}");
        assert_eq!(reply["code"], "bad_request", "{options} -> {reply}");
    }
    // A server without engines lists none.
    let plain = TestServer::start().await;
    let mut bob = Client::connect(plain.addr).await;
    let welcome = bob.hello("Bob", None).await;
    assert!(welcome.get("engines").is_none(), "{welcome}");
    plain.stop().await;
    server.stop().await;
}

#[tokio::test]
async fn a_gomocup_engine_plays_a_whole_game() {
    let (server, tmp) = server_with_engines().await;
    let (ada, result, ai) = gomoku_to_the_end(&server, "Good").await;
    // The brain plays by rings around the centre and never blocks the top
    // row: Ada's five wins, and every stone of the AI was the brain's.
    assert_eq!(result["winner"], "first", "{result}");
    let brain = [(7, 7), (6, 6), (7, 6), (8, 6)].map(|(x, y)| Point { x, y });
    assert_eq!(ai, brain);
    assert_eq!(logged(&tmp, "Good"), ["7,7", "6,6", "7,6", "8,6"]);
    // The whole board once, then only Ada's new stone each turn.
    assert_eq!(
        requests(&tmp, "Good"),
        [
            "START", "INFO", "INFO", "INFO", "BOARD", "TURN", "TURN", "TURN"
        ]
    );
    assert!(notices(&ada).is_empty(), "{:?}", notices(&ada));
    server.stop().await;
}

/// Plays to the end against a failing Gomoku engine and checks that the
/// room said why and the game went on with the Expert.
async fn the_expert_takes_over_from(name: &str, why: &str) {
    let (server, tmp) = server_with_engines().await;
    let (ada, result, ai) = gomoku_to_the_end(&server, name).await;
    assert!(!result.is_null());
    let notices = notices(&ada);
    let first = notices.first().expect("the room is told");
    assert!(
        first.starts_with(&format!("{name} failed: {why}")) && first.contains("built-in Expert"),
        "{notices:?}"
    );
    // The engine's two good stones, then a stone of the Expert's.
    assert!(ai.len() > 2, "{ai:?}");
    let good = logged(&tmp, name);
    assert_eq!(good[..2], ["7,7", "6,6"]);
    assert!(
        ai_acted_after_the_notice(&ada, "seat", "second"),
        "{:?}",
        ada.seen
    );
    // A fresh process each turn after a failure, three failures at most.
    assert!(
        notices.len() <= 3 && good.len() <= 6,
        "{notices:?} {good:?}"
    );
    if notices.len() == 3 {
        assert!(notices[2].ends_with("from now on."), "{notices:?}");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_gomocup_engine_that_crashes_mid_game_is_replaced_by_the_expert() {
    the_expert_takes_over_from("Crashy", "it stopped (exit status: 3)").await;
}

#[tokio::test]
async fn a_gomocup_engine_that_answers_an_illegal_move_is_replaced_by_the_expert() {
    the_expert_takes_over_from("Liar", "it answered an illegal move").await;
}

#[tokio::test]
async fn a_gomocup_engine_that_floods_its_output_is_killed_and_replaced_by_the_expert() {
    the_expert_takes_over_from("Flood", "it answered a line longer than 64 KiB").await;
}

#[tokio::test]
async fn a_gomocup_engine_that_hangs_is_killed_and_replaced_by_the_expert() {
    // The test server's AI budget is 100 ms, and an engine gets 2 s more.
    the_expert_takes_over_from("Sleepy", "no answer within 2100 ms").await;
}

/// Ada (white, racing) plays a 1-point match against the engine `name`.
async fn backgammon_to_the_end(server: &TestServer, name: &str) -> (Client, Value) {
    let mut ada = server.client("Ada").await;
    let (room, _) = ada
        .create(backgammon_options(
            json!({"kind": "engine", "name": name}),
            "white",
            1,
        ))
        .await;
    let mine = tabula_shared::backgammon::Side::White;
    for _ in 0..3000 {
        let snap = ada.request(json!({"type": "sync", "room_id": room})).await;
        if !snap["snapshot"]["result"].is_null() {
            return (ada, snap["snapshot"]["result"].clone());
        }
        let LiveGame::Backgammon(m) = replay_snapshot(&snap) else {
            panic!("not backgammon")
        };
        let action = match *m.phase() {
            GamePhase::AwaitingRoll { side } if side == mine => json!({"kind": "roll"}),
            GamePhase::Moving { side, dice } if side == mine => {
                let play = m
                    .position_for(mine)
                    .legal_plays(dice)
                    .into_iter()
                    .min_by_key(|(play, after)| (after.pip_count().0, play.to_string()))
                    .map(|(play, _)| play.to_string())
                    .unwrap_or_default();
                json!({"kind": "play", "play": play})
            }
            GamePhase::CubeOffered { by } if by != mine => json!({"kind": "take"}),
            _ => {
                ada.event("action").await;
                continue;
            }
        };
        let reply = ada.act(&room, action.clone()).await;
        assert_eq!(reply["type"], "event", "{action} -> {reply}");
    }
    panic!("the match did not end");
}

#[tokio::test]
async fn a_backgammon_line_engine_plays_a_whole_match() {
    let (server, tmp) = server_with_engines().await;
    let (ada, result) = backgammon_to_the_end(&server, "Racer").await;
    assert!(
        result["winner"] == "first" || result["winner"] == "second",
        "{result}"
    );
    assert!(!logged(&tmp, "Racer").is_empty(), "the engine was asked");
    assert!(notices(&ada).is_empty(), "{:?}", notices(&ada));
    server.stop().await;
}

/// GNU Backgammon itself, through the wrapper in `examples/`, plays a whole
/// match as an engine: every play it was asked for was legal (no notice that
/// the Expert took over).
#[tokio::test]
async fn gnu_backgammon_through_the_example_wrapper_plays_a_whole_match() {
    let wrapper = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/gnubg_engine.py");
    let (server, _tmp) = server_with_engines_and(|config| {
        config.engines.push(EngineSpec {
            game: GameKind::Backgammon,
            name: "GNU Backgammon".into(),
            program: "python3".into(),
            args: vec![wrapper.display().to_string(), "--plies".into(), "0".into()],
        });
    })
    .await;
    let (ada, result) = backgammon_to_the_end(&server, "GNU Backgammon").await;
    assert!(
        result["winner"] == "first" || result["winner"] == "second",
        "{result}"
    );
    assert!(notices(&ada).is_empty(), "{:?}", notices(&ada));
    server.stop().await;
}

#[tokio::test]
async fn a_backgammon_engine_that_answers_an_illegal_play_is_replaced_by_the_expert() {
    let (server, tmp) = server_with_engines().await;
    let (ada, result) = backgammon_to_the_end(&server, "Cheat").await;
    assert!(
        result["winner"] == "first" || result["winner"] == "second",
        "{result}"
    );
    let notices = notices(&ada);
    let first = notices.first().expect("the room is told");
    assert!(
        first.starts_with("Cheat failed: it answered an illegal move"),
        "{notices:?}"
    );
    // One good play per process, a fresh process after each failure, three
    // failures at most.
    let good = logged(&tmp, "Cheat");
    assert!((1..=3).contains(&good.len()), "{good:?}");
    assert!(notices.len() <= 3, "{notices:?}");
    assert!(
        ai_acted_after_the_notice(&ada, "side", "black"),
        "{:?}",
        ada.seen
    );
    server.stop().await;
}

#[tokio::test]
async fn a_room_whose_engine_the_restarted_server_no_longer_runs_plays_on_with_the_expert() {
    let (server, tmp) = server_with_engines().await;
    let mut ada = server.client("Ada").await;
    let (room, _) = ada
        .create(gomoku_options(
            json!({"kind": "engine", "name": "Good"}),
            "black",
        ))
        .await;
    let reply = ada
        .act(&room, json!({"kind": "place", "point": {"x": 0, "y": 0}}))
        .await;
    assert_eq!(reply["type"], "event", "{reply}");
    let answer = ada.action_where(|a| a["seat"] == "second").await;
    assert_eq!(
        answer["point"],
        json!({"x": 7, "y": 7}),
        "the engine's stone"
    );
    server.stop().await;

    // The same data, no engines.
    let server = TestServer::start_with(test_config(&tmp.path().join("data"))).await;
    let mut ada2 = Client::connect(server.addr).await;
    ada2.hello("Ada", Some(&ada.token)).await;
    ada2.join(&room, "player").await;
    let reply = ada2
        .act(&room, json!({"kind": "place", "point": {"x": 1, "y": 0}}))
        .await;
    assert_eq!(reply["type"], "event", "{reply}");
    ada2.action_where(|a| a["seat"] == "second").await;
    assert_eq!(
        notices(&ada2),
        ["Good is not on this server any more; the built-in Expert plays its moves from now on."]
    );
    assert_eq!(
        logged(&tmp, "Good"),
        ["7,7"],
        "only the first stone was the engine's"
    );
    // Told once: the next stone is the Expert's without a word.
    let reply = ada2
        .act(&room, json!({"kind": "place", "point": {"x": 2, "y": 0}}))
        .await;
    assert_eq!(reply["type"], "event", "{reply}");
    ada2.action_where(|a| a["seat"] == "second" && a["point"] != json!(null))
        .await;
    let snap = ada2.request(json!({"type": "sync", "room_id": room})).await;
    assert_eq!(
        snap["snapshot"]["record"]["actions"]
            .as_array()
            .map(Vec::len),
        Some(6)
    );
    assert_eq!(notices(&ada2).len(), 1);
    server.stop().await;
}

#[tokio::test]
async fn with_every_engine_slot_taken_the_expert_plays_until_one_is_given_back() {
    let (server, tmp) = server_with_engines_and(|c| c.max_engine_processes = 1).await;
    let mut ada = server.client("Ada").await;
    let (ada_room, _) = ada
        .create(gomoku_options(
            json!({"kind": "engine", "name": "Good"}),
            "black",
        ))
        .await;
    ada.act(
        &ada_room,
        json!({"kind": "place", "point": {"x": 0, "y": 0}}),
    )
    .await;
    ada.action_where(|a| a["seat"] == "second").await;
    assert_eq!(logged(&tmp, "Good").len(), 1, "Ada's engine runs");

    // Ada's engine holds the only slot: Bob's room is told, once, and
    // gets the Expert's stones.
    let mut bob = server.client("Bob").await;
    let (bob_room, _) = bob
        .create(gomoku_options(
            json!({"kind": "engine", "name": "Good"}),
            "black",
        ))
        .await;
    for x in 0..2 {
        bob.act(
            &bob_room,
            json!({"kind": "place", "point": {"x": x, "y": 0}}),
        )
        .await;
        bob.action_where(|a| a["seat"] == "second").await;
    }
    assert_eq!(logged(&tmp, "Good").len(), 1, "no second engine started");
    let told = notices(&bob);
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(told[0].starts_with("Good is not started"), "{told:?}");

    // Ada's game ends: her engine stops, and Bob's room gets the slot.
    ada.send(json!({"type": "resign", "room_id": ada_room}))
        .await;
    ada.event("game_over").await;
    bob.act(
        &bob_room,
        json!({"kind": "place", "point": {"x": 2, "y": 0}}),
    )
    .await;
    bob.action_where(|a| a["seat"] == "second").await;
    assert_eq!(logged(&tmp, "Good").len(), 2, "Bob's engine started");
    assert_eq!(notices(&bob).len(), 1);
    server.stop().await;
}

#[tokio::test]
async fn after_a_takeback_the_gomocup_engine_is_sent_the_whole_board_again() {
    let (server, tmp) = server_with_engines().await;
    let mut ada = server.client("Ada").await;
    let (room, _) = ada
        .create(gomoku_options(
            json!({"kind": "engine", "name": "Good"}),
            "black",
        ))
        .await;
    for x in 0..2 {
        ada.act(&room, json!({"kind": "place", "point": {"x": x, "y": 0}}))
            .await;
        ada.action_where(|a| a["seat"] == "second").await;
    }
    // Against the AI a takeback removes Ada's stone and the engine's answer.
    let took = ada
        .request(json!({"type": "request_takeback", "room_id": room}))
        .await;
    assert_eq!(took["type"], "ok", "{took}");
    ada.event("took_back").await;
    ada.act(&room, json!({"kind": "place", "point": {"x": 5, "y": 0}}))
        .await;
    let answer = ada.action_where(|a| a["seat"] == "second").await;
    // The brain knows the board as it is now: (6,6) is free again.
    assert_eq!(answer["point"], json!({"x": 6, "y": 6}), "{answer}");
    assert_eq!(logged(&tmp, "Good"), ["7,7", "6,6", "6,6"]);
    assert_eq!(
        requests(&tmp, "Good"),
        [
            "START", "INFO", "INFO", "INFO", "BOARD", "TURN", "RESTART", "BOARD"
        ]
    );
    server.stop().await;
}
