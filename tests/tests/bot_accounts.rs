//! Bot accounts: a registered account creates API tokens, a program signs
//! in with one (and is then shown as a bot, with an engine's request rate),
//! tokens are listed without their secrets, a revoked token is refused, and
//! all of it survives a restart. No secret ever reaches the log, even at
//! `trace`.

use std::io::Write;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tabula_tests::{Client, TestServer, gomoku_options, test_config};

const PASSWORD: &str = "correct horse battery";

/// Everything the server logs, at every level, as the server's own log
/// filter lets it through (the test binary's one subscriber).
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("log").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn capture_logs() -> Captured {
    let log = Captured::default();
    let writer = log.clone();
    tracing_subscriber::fmt()
        .with_env_filter(tabula_server::log_filter("trace"))
        .with_writer(move || writer.clone())
        .init();
    log
}

async fn hello_with(server: &TestServer, msg: Value) -> (Client, Value) {
    let mut client = Client::connect(server.addr).await;
    let reply = client.request(msg).await;
    (client, reply)
}

#[tokio::test]
async fn api_tokens_are_created_used_listed_and_revoked_and_never_logged() {
    let log = capture_logs();
    let tmp = tempfile::tempdir().expect("dir");
    // The default request rate, not the tests' generous one.
    let config = || tabula_server::Config {
        rate_burst: 60,
        rate_per_sec: 30,
        ..test_config(tmp.path())
    };
    let server = TestServer::start_with(config()).await;
    let mut ada = server.client("Ada").await;
    let refused = ada
        .request(json!({"type": "create_api_token", "label": "engine"}))
        .await;
    assert_eq!(refused["code"], "not_registered", "{refused}");
    let registered = ada
        .request(json!({"type": "register", "password": PASSWORD}))
        .await;
    assert_eq!(registered["type"], "registered", "{registered}");
    let created = ada
        .request(json!({"type": "create_api_token", "label": "engine"}))
        .await;
    assert_eq!(created["type"], "api_token", "{created}");
    let secret = created["token"].as_str().expect("token").to_string();
    let id = created["id"].as_str().expect("id").to_string();
    assert!(secret.starts_with("tbt_"));
    let spare = ada
        .request(json!({"type": "create_api_token", "label": "spare"}))
        .await["token"]
        .as_str()
        .expect("token")
        .to_string();

    // A program signs in with the token, whatever name it says.
    let (mut bot, welcome) = hello_with(
        &server,
        json!({"type": "hello", "protocol": 1, "name": "whatever", "api_token": secret}),
    )
    .await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    assert_eq!(welcome["player_id"], json!(ada.player_id));
    assert_eq!(welcome["name"], "Ada");
    assert_eq!(welcome["bot"], true);
    // Shown as a bot in its room.
    let (room, _) = bot
        .create(gomoku_options(
            json!({"kind": "ai", "level": "beginner"}),
            "black",
        ))
        .await;
    let sync = bot.request(json!({"type": "sync", "room_id": room})).await;
    let seat = &sync["snapshot"]["summary"]["seats"][0]["player"];
    assert_eq!(seat["bot"], true, "{sync}");
    // An engine's request rate: a burst a person's connection would not get.
    for i in 0..200 {
        let reply = bot.request(json!({"type": "list_api_tokens"})).await;
        assert_eq!(reply["type"], "api_tokens", "request {i}: {reply}");
    }
    let limited = async {
        for i in 0..200 {
            let reply = ada.request(json!({"type": "list_api_tokens"})).await;
            if reply["code"] == "rate_limited" {
                return Some(i);
            }
        }
        None
    };
    assert!(
        limited.await.is_some_and(|i| i >= 50),
        "a person's connection is limited as before"
    );

    // Listed without secrets (or their hashes).
    let listed = bot.request(json!({"type": "list_api_tokens"})).await;
    let tokens = listed["tokens"].as_array().expect("tokens");
    assert_eq!(tokens.len(), 2, "{listed}");
    assert_eq!(tokens[0]["label"], "engine");
    assert!(!listed.to_string().contains(&secret[4..]), "{listed}");

    // Revoked: refused from then on.
    let revoked = bot
        .request(json!({"type": "revoke_api_token", "id": id}))
        .await;
    assert_eq!(revoked["type"], "ok", "{revoked}");
    let (_, refused) = hello_with(
        &server,
        json!({"type": "hello", "protocol": 1, "name": "Ada", "api_token": secret}),
    )
    .await;
    assert_eq!(refused["code"], "auth_failed", "{refused}");
    server.stop().await;

    // After a restart: the revoked token stays refused, the other works.
    let server = TestServer::start_with(config()).await;
    let (_, refused) = hello_with(
        &server,
        json!({"type": "hello", "protocol": 1, "name": "Ada", "api_token": secret}),
    )
    .await;
    assert_eq!(refused["code"], "auth_failed", "{refused}");
    let (_, welcome) = hello_with(
        &server,
        json!({"type": "hello", "protocol": 1, "name": "Ada", "api_token": spare}),
    )
    .await;
    assert_eq!(welcome["bot"], true, "{welcome}");
    server.stop().await;

    let logged = String::from_utf8_lossy(&log.0.lock().expect("log")).to_string();
    assert!(!logged.is_empty(), "the server logged something");
    for secret in [&secret, &spare] {
        assert!(!logged.contains(&secret[4..]), "a token reached the log");
    }
    assert!(!logged.contains(PASSWORD), "a password reached the log");
}

#[tokio::test]
async fn a_bot_rates_in_the_bots_pool_and_people_in_theirs() {
    let server = TestServer::start().await;
    let mut ada = server.client("Ada").await;
    ada.request(json!({"type": "register", "password": PASSWORD}))
        .await;
    let mut bob = server.client("Bob").await;
    bob.request(json!({"type": "register", "password": PASSWORD}))
        .await;
    let token = bob
        .request(json!({"type": "create_api_token", "label": "engine"}))
        .await["token"]
        .clone();
    let (mut bot, _) = hello_with(
        &server,
        json!({"type": "hello", "protocol": 1, "name": "Bob", "api_token": token}),
    )
    .await;
    let mut options = gomoku_options(json!({"kind": "human"}), "black");
    options["rated"] = json!(true);
    let (room, _) = ada.create(options).await;
    bot.join(&room, "player").await;
    for i in 0..4u8 {
        let stone = |x: u8, y: u8| json!({"kind": "place", "point": {"x": x, "y": y}});
        assert_eq!(ada.act(&room, stone(i, 0)).await["type"], "event");
        assert_eq!(bot.act(&room, stone(i, 5)).await["type"], "event");
    }
    ada.act(&room, json!({"kind": "place", "point": {"x": 4, "y": 0}}))
        .await;
    let over = ada.event("game_over").await;
    assert_eq!(over["event"]["ratings"].as_array().map(Vec::len), Some(2));

    let names = |board: &Value| -> Vec<String> {
        board["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .map(|e| e["name"].as_str().unwrap_or("?").to_string())
            .collect()
    };
    let people = ada
        .request(json!({"type": "get_leaderboard", "game": "gomoku"}))
        .await;
    assert_eq!(names(&people), ["Ada"], "{people}");
    let bots = ada
        .request(json!({"type": "get_leaderboard", "game": "gomoku", "bots": true}))
        .await;
    assert_eq!(names(&bots), ["Bob"], "{bots}");
    assert!(bots["entries"][0]["rating"].as_i64() < Some(1500), "{bots}");
    server.stop().await;
}
