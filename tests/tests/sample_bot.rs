//! The sample bot (`examples/bot.py`), which knows the protocol document and
//! no rules, plays whole games against a real server: Gomoku and a 3-point
//! Backgammon match with the cube, against the AI and against a second copy
//! of itself. Needs a Python 3 with the `websockets` package (Debian's
//! python3-websockets; `.ci/run` installs it).

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tabula_tests::TestServer;

/// A Python that can import `websockets`: the system's first (a version
/// manager's `python3` may lack Debian's packages).
fn python() -> &'static str {
    for candidate in ["/usr/bin/python3", "python3"] {
        let works = Command::new(candidate)
            .args(["-c", "import websockets"])
            .status()
            .is_ok_and(|s| s.success());
        if works {
            return candidate;
        }
    }
    panic!("no python3 with the websockets package (apt-get install python3-websockets)");
}

fn bot(server: &TestServer, args: &[&str]) -> Child {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/bot.py");
    Command::new(python())
        .arg(script)
        .arg("--url")
        .arg(format!("ws://{}/", server.addr))
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .expect("the bot starts")
}

/// Reads the bot's stdout until `RESULT`, returning the `ROOM` line's id
/// (if any) through `on_room` as soon as it is printed.
fn lines_until_result(child: &mut Child, mut on_room: impl FnMut(&str)) -> Value {
    let stdout = child.stdout.take().expect("stdout");
    for line in BufReader::new(stdout).lines() {
        let line = line.expect("a line");
        if let Some(room) = line.strip_prefix("ROOM ") {
            on_room(room.trim());
        }
        if let Some(result) = line.strip_prefix("RESULT ") {
            return serde_json::from_str(result).expect("result JSON");
        }
    }
    panic!("the bot ended without a result: {:?}", child.wait());
}

/// Waits for the bot to exit cleanly.
fn finished(mut child: Child) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            assert!(status.success(), "the bot failed: {status}");
            return;
        }
        assert!(Instant::now() < deadline, "the bot did not exit");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn check_result(outcome: &Value, game: &str) {
    let result = &outcome["result"];
    let reason = result["reason"].as_str().expect("a reason");
    assert!(
        ["rules", "board_full", "dropped", "resigned"].contains(&reason),
        "{outcome}"
    );
    if game == "backgammon" {
        let score = result["score"].as_array().expect("a match score");
        let best = score.iter().filter_map(Value::as_u64).max();
        assert!(
            best >= Some(3),
            "a 3-point match played to the end: {outcome}"
        );
    }
}

async fn against_the_ai(game: &str) {
    let server = TestServer::start().await;
    let mut child = bot(
        &server,
        &["--game", game, "--length", "3", "--opponent", "ai:beginner"],
    );
    let handle = tokio::task::spawn_blocking(move || {
        let outcome = lines_until_result(&mut child, |_| {});
        finished(child);
        outcome
    });
    let outcome = tokio::time::timeout(Duration::from_secs(240), handle)
        .await
        .expect("the game ends in time")
        .expect("the bot task");
    check_result(&outcome, game);
    // The finished game is stored, with the bot in its seat.
    let mut viewer = server.client("Viewer").await;
    let stored = viewer
        .request(json!({"type": "get_game", "game_id": outcome["game_id"]}))
        .await;
    assert_eq!(stored["type"], "game", "{stored}");
    let seats = stored["game"]["summary"]["seats"]
        .as_array()
        .expect("seats");
    let bot_seat = seats
        .iter()
        .find(|s| s["seat"] == outcome["seat"])
        .expect("the bot's seat");
    assert_eq!(bot_seat["player"]["name"], "SampleBot", "{stored}");
    server.stop().await;
}

async fn against_itself(game: &str) {
    let server = TestServer::start().await;
    let mut first = bot(
        &server,
        &[
            "--game",
            game,
            "--length",
            "3",
            "--opponent",
            "human",
            "--name",
            "BotOne",
        ],
    );
    let addr = server.addr;
    let handle = tokio::task::spawn_blocking(move || {
        let mut second = None;
        let one = lines_until_result(&mut first, |room| {
            let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/bot.py");
            second = Some(
                Command::new(python())
                    .arg(script)
                    .arg("--url")
                    .arg(format!("ws://{addr}/"))
                    .args(["--join", room, "--name", "BotTwo"])
                    .stdout(Stdio::piped())
                    .spawn()
                    .expect("the second bot starts"),
            );
        });
        let mut second = second.expect("the first bot printed its room");
        let two = lines_until_result(&mut second, |_| {});
        finished(first);
        finished(second);
        (one, two)
    });
    let (one, two) = tokio::time::timeout(Duration::from_secs(240), handle)
        .await
        .expect("the game ends in time")
        .expect("the bot task");
    check_result(&one, game);
    assert_eq!(one["result"], two["result"], "both saw the same end");
    assert_ne!(one["seat"], two["seat"]);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sample_bot_plays_gomoku_against_the_ai() {
    against_the_ai("gomoku").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sample_bot_plays_a_three_point_backgammon_match_against_the_ai() {
    against_the_ai("backgammon").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_sample_bots_play_gomoku() {
    against_itself("gomoku").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_sample_bots_play_a_three_point_backgammon_match() {
    against_itself("backgammon").await;
}

/// Two sample bots enter a round robin with two AI levels from the
/// protocol document alone, play every game they are paired for, and see
/// the same final standings as the host.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_sample_bots_play_a_round_robin_tournament_to_the_end() {
    let server = TestServer::start().await;
    let mut host = tabula_tests::guest_at(server.addr, "Host").await;
    let reply = host
        .request(json!({"type": "register", "password": "correct horse battery"}))
        .await;
    assert_eq!(reply["type"], "registered", "{reply}");
    let created = host
        .request(json!({"type": "create_tournament", "spec": {
            "name": "Bots and AIs",
            "format": {"kind": "round_robin"},
            "game": {"game": "gomoku", "size": 15, "rule": "freestyle", "opening": "none"},
            "time_control": {"initial_secs": 120, "increment_secs": 0},
            "max_entrants": 4,
            "forfeit_secs": 30
        }}))
        .await;
    let id = created["tournament_id"]
        .as_str()
        .expect("created")
        .to_string();
    host.request(json!({"type": "watch_tournament", "tournament_id": id}))
        .await;
    for level in ["beginner", "casual"] {
        host.add_ai_entrant(&id, level).await;
    }
    let mut bots: Vec<Child> = ["BotOne", "BotTwo"]
        .iter()
        .map(|name| bot(&server, &["--tournament", &id, "--name", name]))
        .collect();
    // Both bots in: start.
    loop {
        let m = host.expect(|m| m["type"] == "tournament").await;
        if m["tournament"]["entrants"].as_array().map(Vec::len) == Some(4) {
            break;
        }
    }
    let started = host
        .request(
            json!({"type": "manage_tournament", "tournament_id": id, "action": {"do": "start"}}),
        )
        .await;
    assert_eq!(started["type"], "ok", "{started}");
    let finals: Vec<Value> = bots
        .iter_mut()
        .map(|child| lines_until_result(child, |_| {}))
        .collect();
    for child in bots {
        finished(child);
    }
    let view = loop {
        let m = host.expect(|m| m["type"] == "tournament").await;
        let over = m["tournament"]["games"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g.get("first_score").is_some());
        if m["tournament"]["status"] == "finished" && over {
            break m["tournament"].clone();
        }
    };
    assert_eq!(view["round"], 3, "a round robin of four has three rounds");
    let played = view["games"].as_array().unwrap();
    assert_eq!(played.len(), 6, "every pair met once: {played:?}");
    assert!(
        played.iter().all(|g| g["forfeit"].is_null()),
        "the bots came to every game"
    );
    for f in &finals {
        assert_eq!(
            f["standings"], view["standings"],
            "a bot saw other standings"
        );
    }
    let total: u64 = view["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["score"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 12, "six games, two half points each");
    server.stop().await;
}
