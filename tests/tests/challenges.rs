//! Challenges, against a real server: a player lists the bots online,
//! challenges one by name, the bot gets it live and accepts (both end up
//! seated in one new room, the challenger as its creator) or declines.

use serde_json::{Value, json};
use tabula_tests::{Client, TestServer, gomoku_options};

const PASSWORD: &str = "correct horse battery";

/// A bot account online: Bob registers, makes a token, and a second
/// connection signs in with it (the bot).
async fn bot_online(server: &TestServer) -> Client {
    let mut bob = server.client("Bob").await;
    bob.request(json!({"type": "register", "password": PASSWORD}))
        .await;
    let token = bob
        .request(json!({"type": "create_api_token", "label": "engine"}))
        .await["token"]
        .clone();
    bob.close().await;
    let mut bot = Client::connect(server.addr).await;
    let welcome = bot
        .request(json!({"type": "hello", "protocol": 1, "name": "Bob", "api_token": token}))
        .await;
    assert_eq!(welcome["bot"], true, "{welcome}");
    bot
}

fn challenge(to: &str, options: Value) -> Value {
    json!({"type": "challenge", "to": to, "options": options})
}

#[tokio::test]
async fn a_bot_is_challenged_by_name_and_accepts_or_declines() {
    let server = TestServer::start().await;
    let mut bot = bot_online(&server).await;
    let mut ada = server.client("Ada").await;

    let bots = ada.request(json!({"type": "list_bots"})).await;
    assert_eq!(bots["type"], "bots_online", "{bots}");
    let names: Vec<&str> = bots["bots"]
        .as_array()
        .expect("bots")
        .iter()
        .map(|b| b["name"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(names, ["Bob"]);
    assert_eq!(bots["bots"][0]["bot"], true);

    // Names are matched in any case; nobody else, and not oneself.
    let options = gomoku_options(json!({"kind": "human"}), "black");
    let nobody = ada.request(challenge("Nobody", options.clone())).await;
    assert_eq!(nobody["code"], "not_found", "{nobody}");
    let me = ada.request(challenge("ada", options.clone())).await;
    assert_eq!(me["code"], "bad_request", "{me}");
    let vs_ai = ada
        .request(challenge(
            "bob",
            gomoku_options(json!({"kind": "ai", "level": "beginner"}), "black"),
        ))
        .await;
    assert_eq!(vs_ai["code"], "bad_request", "{vs_ai}");

    let sent = ada.request(challenge("bob", options.clone())).await;
    assert_eq!(sent["type"], "challenge_sent", "{sent}");
    let id = sent["challenge_id"].clone();
    let got = bot.expect(|m| m["type"] == "challenged").await;
    assert_eq!(got["challenge_id"], id);
    assert_eq!(got["from"]["name"], "Ada");
    assert_eq!(got["options"]["colour"], "black");
    let joined = bot
        .request(json!({"type": "answer_challenge", "challenge_id": id, "accept": true}))
        .await;
    assert_eq!(joined["type"], "joined", "{joined}");
    assert_eq!(joined["seat"], "second", "Ada asked for black");
    let answered = ada.expect(|m| m["type"] == "challenge_answered").await;
    assert_eq!(answered["accepted"], true, "{answered}");
    assert_eq!(answered["room_id"], joined["room_id"]);
    let room = answered["room_id"].as_str().expect("room").to_string();
    assert_eq!(ada.join(&room, "player").await["seat"], "first");
    let started = bot.event("game_started").await;
    assert_eq!(started["room_id"], json!(room));
    // The answer is used up.
    let again = bot
        .request(json!({"type": "answer_challenge", "challenge_id": id, "accept": true}))
        .await;
    assert_eq!(again["code"], "not_found", "{again}");

    // A no is passed on.
    let sent = ada.request(challenge("Bob", options)).await;
    let id = sent["challenge_id"].clone();
    bot.expect(|m| m["type"] == "challenged" && m["challenge_id"] == id)
        .await;
    let no = bot
        .request(json!({"type": "answer_challenge", "challenge_id": id, "accept": false}))
        .await;
    assert_eq!(no["type"], "ok", "{no}");
    let answered = ada
        .expect(|m| m["type"] == "challenge_answered" && m["challenge_id"] == id)
        .await;
    assert_eq!(answered["accepted"], false, "{answered}");
    assert!(answered.get("room_id").is_none(), "{answered}");
    server.stop().await;
}
