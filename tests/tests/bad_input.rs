//! Bad input gets a typed error and loses nothing: the connection, the room
//! and the game carry on.

use serde_json::json;
use tabula_tests::{Client, TestServer, point};
use tokio_tungstenite::tungstenite::Message;

#[tokio::test]
async fn malformed_unknown_and_missing_fields_get_errors_and_the_connection_stays() {
    let server = TestServer::start().await;
    let mut c = Client::connect(server.addr).await;

    // Before hello.
    let reply = c.request(json!({"type": "list_rooms"})).await;
    assert_eq!(reply["code"], "hello_required");
    c.hello("Ada", None).await;

    c.send_text("{not json".into()).await;
    let e = c.next().await.expect("reply");
    assert_eq!(e["code"], "bad_json");

    let e = c.request(json!({"type": "teleport"})).await;
    assert_eq!(e["code"], "unknown_type");

    let e = c.request(json!({"type": "chat"})).await;
    assert_eq!(e["code"], "bad_request");

    let e = c
        .request(json!({"type": "join_room", "room_id": "r-nope"}))
        .await;
    assert_eq!(e["code"], "not_found");

    c.send_raw(Message::Binary(vec![1, 2, 3].into()))
        .await
        .expect("send");
    let e = c.next().await.expect("reply");
    assert_eq!(e["code"], "bad_json");

    let e = c
        .request(json!({"type": "hello", "protocol": 1, "name": "again"}))
        .await;
    assert_eq!(e["code"], "bad_request");

    // Still alive.
    let pong = c.request(json!({"type": "ping"})).await;
    assert_eq!(pong["type"], "pong");
    server.stop().await;
}

#[tokio::test]
async fn bad_names_versions_and_tokens_are_refused() {
    let server = TestServer::start().await;
    let mut c = Client::connect(server.addr).await;
    for (msg, code) in [
        (
            json!({"type": "hello", "protocol": 1, "name": "   "}),
            "invalid_name",
        ),
        (
            json!({"type": "hello", "protocol": 1, "name": "x".repeat(25)}),
            "invalid_name",
        ),
        (
            json!({"type": "hello", "protocol": 1, "name": "bell\u{7}"}),
            "invalid_name",
        ),
        (
            json!({"type": "hello", "protocol": 99, "name": "Ada"}),
            "unsupported_version",
        ),
        (
            json!({"type": "hello", "protocol": 1, "name": "Ada", "token": "forged"}),
            "auth_failed",
        ),
    ] {
        let e = c.request(msg).await;
        assert_eq!(e["code"], code, "{e}");
    }
    let welcome = c.hello("  Ada  ", None).await;
    assert_eq!(welcome["name"], "Ada");
    server.stop().await;
}

#[tokio::test]
async fn oversized_frame_closes_with_1009() {
    let server = TestServer::start().await;
    let mut c = server.client("Ada").await;
    let big = format!(
        "{{\"type\":\"chat\",\"room_id\":\"r\",\"text\":\"{}\"}}",
        "x".repeat(70 * 1024)
    );
    let _ = c.send_raw(Message::Text(big.into())).await;
    assert_eq!(c.closed_with().await, Some(1009));
    // The server is fine.
    let mut d = server.client("Bob").await;
    let pong = d.request(json!({"type": "ping"})).await;
    assert_eq!(pong["type"], "pong");
    server.stop().await;
}

#[tokio::test]
async fn illegal_out_of_turn_and_spectator_moves_change_nothing() {
    let server = TestServer::start().await;
    let (mut ada, mut bob, room) = server.pvp_gomoku().await;
    let mut eve = server.client("Eve").await;
    eve.join(&room, "spectator").await;
    ada.event("game_started").await;

    assert_eq!(
        ada.act(&room, json!({"kind": "place", "point": point(7, 7)}))
            .await["type"],
        "event"
    );
    // Occupied, off the board, wrong game, out of turn, spectator.
    let e = bob
        .act(&room, json!({"kind": "place", "point": point(7, 7)}))
        .await;
    assert_eq!(e["code"], "illegal_move");
    assert!(
        e["message"].as_str().unwrap_or("").contains("occupied"),
        "{e}"
    );
    let e = bob
        .act(&room, json!({"kind": "place", "point": point(30, 2)}))
        .await;
    assert_eq!(e["code"], "illegal_move");
    let e = bob.act(&room, json!({"kind": "roll"})).await;
    assert_eq!(e["code"], "illegal_move");
    let e = ada
        .act(&room, json!({"kind": "place", "point": point(1, 1)}))
        .await;
    assert_eq!(e["code"], "not_your_turn");
    let e = eve
        .act(&room, json!({"kind": "place", "point": point(1, 1)}))
        .await;
    assert_eq!(e["code"], "forbidden");
    let e = eve
        .request(json!({"type": "resign", "room_id": room}))
        .await;
    assert_eq!(e["code"], "forbidden");
    let e = bob
        .act(&room, json!({"kind": "place", "point": {"x": -1, "y": 2}}))
        .await;
    assert_eq!(e["code"], "bad_request");

    // The game carries on: the record still holds one stone, and Bob can move.
    let snap = eve.request(json!({"type": "sync", "room_id": room})).await;
    assert_eq!(
        snap["snapshot"]["record"]["actions"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );
    assert_eq!(
        bob.act(&room, json!({"kind": "place", "point": point(8, 8)}))
            .await["type"],
        "event"
    );
    server.stop().await;
}

/// Sends `frame` 200 times as fast as it goes, then reads until the server
/// closes the connection: how many `rate_limited` errors came first.
async fn rate_limited_before_the_close(mut client: Client, frame: Message) -> usize {
    for _ in 0..200 {
        if client.send_raw(frame.clone()).await.is_err() {
            break;
        }
    }
    let mut limited = 0;
    while let Some(m) = client.next().await {
        if m["code"] == "rate_limited" {
            limited += 1;
        }
    }
    limited
}

#[tokio::test]
async fn floods_are_limited_then_closed_but_fast_play_is_not() {
    // The server's default limits, not the relaxed test ones.
    let dir = tempfile::tempdir().expect("dir");
    let config = tabula_server::Config {
        data_dir: dir.path().to_path_buf(),
        ..tabula_server::Config::default()
    };
    let server = TestServer::start_with(config).await;
    // Fast but legitimate: a whole game's worth of moves back to back.
    let (mut ada, mut bob, room) = server.pvp_gomoku().await;
    for i in 0..10u8 {
        // No five: alternate rows.
        let r = ada
            .act(
                &room,
                json!({"kind": "place", "point": point(i, (i % 2) * 4)}),
            )
            .await;
        assert_eq!(r["type"], "event", "{r}");
        let r = bob
            .act(
                &room,
                json!({"kind": "place", "point": point(i, 2 + (i % 2) * 4)}),
            )
            .await;
        assert_eq!(r["type"], "event", "{r}");
    }

    // A flood: first rate_limited errors, then a close.
    let text = Message::Text(r#"{"type":"ping"}"#.into());
    let limited = rate_limited_before_the_close(server.client("Flood").await, text).await;
    assert!(
        limited > 0,
        "the flood got rate_limited errors before the close"
    );
    // Binary frames count too.
    let binary = Message::Binary(vec![0u8; 8].into());
    let limited = rate_limited_before_the_close(server.client("Binary").await, binary).await;
    assert!(limited > 0, "the binary flood was limited, then closed");
    // Others are untouched.
    assert_eq!(ada.request(json!({"type": "ping"})).await["type"], "pong");
    server.stop().await;
}

/// A flood of large frames of bad JSON: the refill lets one through now and
/// then (answered `bad_json`) between the `rate_limited` answers, and the
/// connection is still closed for flooding.
#[tokio::test]
async fn a_flood_of_large_bad_frames_is_closed() {
    let dir = tempfile::tempdir().expect("dir");
    let config = tabula_server::Config {
        data_dir: dir.path().to_path_buf(),
        ..tabula_server::Config::default()
    };
    let server = TestServer::start_with(config).await;
    let mut client = server.client("Garbage").await;
    let frame = Message::Text("{".repeat(60 * 1024).into());
    let mut sent = 0;
    for _ in 0..300 {
        if client.send_raw(frame.clone()).await.is_err() {
            break;
        }
        sent += 1;
        // Slow enough for the bucket to let a frame in between the refusals.
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    let mut answers = 0;
    while let Some(m) = client.next().await {
        assert!(
            m["code"] == "rate_limited" || m["code"] == "bad_json",
            "{m}"
        );
        answers += 1;
    }
    assert!(
        answers < sent,
        "closed before every frame was answered: {answers} of {sent}"
    );
    server.stop().await;
}

#[tokio::test]
async fn silent_clients_are_dropped() {
    let dir = tempfile::tempdir().expect("dir");
    let mut config = tabula_tests::test_config(dir.path());
    config.ping_interval = std::time::Duration::from_millis(200);
    config.idle_timeout = std::time::Duration::from_millis(600);
    let server = TestServer::start_with(config).await;
    let mut c = server.client("Quiet").await;
    // Not reading means not answering pings.
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    // `next` panics if nothing arrives in time; returning at all means closed.
    while c.next().await.is_some() {}
    server.stop().await;
}

#[tokio::test]
async fn a_client_that_never_finishes_its_handshake_gives_its_slot_back() {
    use std::time::Duration;
    let dir = tempfile::tempdir().expect("dir");
    let mut config = tabula_tests::test_config(dir.path());
    config.max_connections = 1;
    config.idle_timeout = Duration::from_millis(600);
    let server = TestServer::start_with(config).await;
    // Takes the only slot and says nothing.
    let _mute = tokio::net::TcpStream::connect(server.addr)
        .await
        .expect("tcp");
    tokio::time::sleep(Duration::from_millis(100)).await;
    let refused = tokio_tungstenite::connect_async(format!("ws://{}/", server.addr)).await;
    assert!(refused.is_err(), "the only slot is taken");
    // After the idle time-out the silent one is dropped.
    tokio::time::sleep(Duration::from_millis(900)).await;
    let mut late = server.client("Late").await;
    assert_eq!(late.request(json!({"type": "ping"})).await["type"], "pong");
    server.stop().await;
}
