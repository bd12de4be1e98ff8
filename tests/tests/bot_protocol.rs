//! The protocol as a bot uses it, knowing no rules: every snapshot and
//! game event says whose turn it is and what is expected (`turn`), a roll
//! with no legal play is its own `passed` event, `legal_plays` lists what
//! may be played, and Backgammon turns carry gnubg's Position and Match IDs.

use serde_json::{Value, json};
use tabula_tests::{TestServer, backgammon_options, gomoku_options, point, test_config};

/// The dice seed of the Backgammon game below: with it, two players who
/// always make the first listed legal play are each blocked (a roll with no
/// legal play) at least once before the game ends.
const BLOCKING_SEED: u64 = 10;

/// The `turn` an event carries, if it is a game event.
fn turn_of(message: &Value) -> Option<Value> {
    let event = &message["event"];
    (message["type"] == "event" && event.get("turn").is_some()).then(|| event["turn"].clone())
}

#[tokio::test]
async fn a_backgammon_game_played_from_turn_fields_alone_reports_every_pass() {
    let seed = std::env::var("TABULA_PASS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(BLOCKING_SEED);
    let tmp = tempfile::tempdir().expect("dir");
    let mut config = test_config(tmp.path());
    config.dice_seed = Some(seed);
    let server = TestServer::start_with(config).await;
    let mut ada = server.client("Ada").await;
    let mut bob = server.client("Bob").await;
    let mut watcher = server.client("Watcher").await;
    let mut options = backgammon_options(json!({"kind": "human"}), "white", 0);
    options["game"]["cube"] = json!(false);
    let (room, seat) = ada.create(options).await;
    assert_eq!(seat, "first");
    let joined = bob.join(&room, "player").await;
    assert_eq!(joined["seat"], "second");
    watcher.join(&room, "spectator").await;
    // The snapshot a member gets says which seat is theirs.
    let sync = bob.request(json!({"type": "sync", "room_id": room})).await;
    assert_eq!(sync["snapshot"]["your_seat"], "second", "{sync}");

    // Where the game is now (the opening roll has been made): the snapshot's turn.
    let now = watcher
        .request(json!({"type": "sync", "room_id": room}))
        .await;
    let mut turn = now["snapshot"]["turn"].clone();
    let mut passes = [0, 0];
    let mut plays = 0;
    for _ in 0..2000 {
        match turn["expect"].as_str() {
            Some("roll") => {
                let mover = if turn["seat"] == "first" {
                    &mut ada
                } else {
                    &mut bob
                };
                assert_eq!(turn["may_double"], false, "no cube in this game: {turn}");
                let rolled = mover.act(&room, json!({"kind": "roll"})).await;
                assert_eq!(rolled["type"], "event", "{rolled}");
            }
            Some("play") => {
                let mover = if turn["seat"] == "first" {
                    &mut ada
                } else {
                    &mut bob
                };
                let legal = mover
                    .request(json!({"type": "legal_plays", "room_id": room}))
                    .await;
                let first = legal["plays"][0]
                    .as_str()
                    .expect("a legal play")
                    .to_string();
                let played = mover
                    .act(&room, json!({"kind": "play", "play": first}))
                    .await;
                assert_eq!(played["type"], "event", "{played}");
                // The echo is the canonical form, as listed.
                assert_eq!(played["event"]["action"]["play"], json!(first));
                plays += 1;
            }
            Some("nothing") => break,
            // The server's own step (the opening roll), or no turn yet.
            _ => {}
        }
        // The spectator's next game event says what comes next.
        loop {
            let message = watcher.next().await.expect("the room goes on");
            if message["event"]["kind"] == "passed" {
                let seat = &message["event"]["seat"];
                passes[usize::from(seat == "second")] += 1;
                assert_ne!(&message["event"]["turn"]["seat"], seat, "{message}");
                assert_eq!(message["event"]["turn"]["expect"], "roll", "{message}");
                // It repeats the turn its roll's action event already gave.
                assert_eq!(message["event"]["turn"], turn, "{message}");
                continue;
            }
            if let Some(next) = turn_of(&message) {
                assert!(
                    next["position_id"]
                        .as_str()
                        .is_some_and(|id| id.len() == 14),
                    "{message}"
                );
                assert!(next["match_id"].as_str().is_some(), "{message}");
                turn = next;
                break;
            }
            if message["event"]["kind"] == "game_over" {
                turn = json!({"expect": "nothing"});
                break;
            }
        }
    }
    assert!(plays > 20, "a real game was played ({plays} plays)");
    assert!(
        passes[0] > 0 && passes[1] > 0,
        "with seed {seed} each side is blocked at least once: {passes:?}"
    );
    // The players were told each pass too, as the spectator was.
    for player in [&ada, &bob] {
        let told = player
            .seen
            .iter()
            .filter(|m| m["event"]["kind"] == "passed")
            .count();
        assert_eq!(told, passes[0] + passes[1]);
    }
    server.stop().await;
}

#[tokio::test]
async fn gomoku_turns_name_the_seat_and_the_stone_and_a_rematch_says_whose_seat_is_whose() {
    let server = TestServer::start().await;
    let mut ada = server.client("Ada").await;
    let (room, _) = ada
        .create(gomoku_options(
            json!({"kind": "ai", "level": "beginner"}),
            "black",
        ))
        .await;
    let sync = ada.request(json!({"type": "sync", "room_id": room})).await;
    let turn = &sync["snapshot"]["turn"];
    assert_eq!(turn["seat"], "first", "{sync}");
    assert_eq!(turn["expect"], "place");
    assert_eq!(turn["stone"], "black");
    assert_eq!(sync["snapshot"]["your_seat"], "first");
    let placed = ada
        .act(&room, json!({"kind": "place", "point": point(7, 7)}))
        .await;
    assert_eq!(placed["event"]["turn"]["seat"], "second", "{placed}");
    assert_eq!(placed["event"]["turn"]["stone"], "white");
    // The AI answers; its event gives the turn back.
    let answer = ada
        .expect(|m| {
            m["type"] == "event"
                && m["event"]["kind"] == "action"
                && m["event"]["action"]["seat"] == "second"
        })
        .await;
    assert_eq!(answer["event"]["turn"]["seat"], "first", "{answer}");
    // Legal plays are a Backgammon request.
    let refused = ada
        .request(json!({"type": "legal_plays", "room_id": room}))
        .await;
    assert_eq!(refused["code"], "bad_request", "{refused}");

    ada.request(json!({"type": "resign", "room_id": room}))
        .await;
    let over = ada.event("game_over").await;
    assert_eq!(over["event"]["result"]["reason"], "resigned");
    let rematch = ada
        .request(json!({"type": "rematch", "room_id": room}))
        .await;
    assert_eq!(rematch["type"], "ok", "{rematch}");
    let snapshot = ada.expect(|m| m["type"] == "snapshot").await;
    assert_eq!(snapshot["snapshot"]["your_seat"], "second", "{snapshot}");
    server.stop().await;
}
