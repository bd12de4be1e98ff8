//! Dropped connections, resume tokens, the grace period, and restarts
//! (graceful and SIGKILL): the game survives them all.

use std::time::Duration;

use serde_json::json;
use tabula_tests::{ChildServer, Client, TestServer, backgammon_options, point, pvp_gomoku_at};

#[tokio::test]
async fn reconnecting_mid_game_resumes_with_the_missed_events() {
    let server = TestServer::start().await;
    let (mut ada, mut bob, room) = server.pvp_gomoku().await;
    assert_eq!(
        ada.act(&room, json!({"kind": "place", "point": point(7, 7)}))
            .await["type"],
        "event"
    );
    let seen = bob.action_where(|a| a["seat"] == "first").await;
    let last_seq = bob
        .seen
        .iter()
        .filter_map(|m| m["seq"].as_u64())
        .max()
        .expect("seq");
    assert_eq!(seen["point"], point(7, 7));
    let token = bob.token.clone();
    let bob_id = bob.player_id.clone();
    bob.close().await;

    // Ada sees the drop with the grace period.
    let dropped = ada.event("player_disconnected").await;
    assert_eq!(dropped["event"]["seat"], "second");
    assert!(dropped["event"]["grace_ms"].as_u64() > Some(0));

    // Bob comes back with his token: same identity, his room listed.
    let mut bob = Client::connect(server.addr).await;
    bob.hello("Bob", Some(&token)).await;
    assert_eq!(bob.player_id, bob_id);
    assert_eq!(bob.rooms, vec![room.clone()]);
    let joined = bob
        .request(json!({"type": "join_room", "room_id": room, "role": "player", "since": last_seq}))
        .await;
    assert_eq!(joined["seat"], "second");
    ada.event("player_connected").await;
    // Only the missed events, not a snapshot.
    let back = bob.event("player_connected").await;
    assert!(back["seq"].as_u64() > Some(last_seq));
    assert!(!bob.seen.iter().any(|m| m["type"] == "snapshot"));

    assert_eq!(
        bob.act(&room, json!({"kind": "place", "point": point(8, 8)}))
            .await["type"],
        "event"
    );
    ada.action_where(|a| a["seat"] == "second").await;
    server.stop().await;
}

#[tokio::test]
async fn after_the_grace_period_the_present_player_may_claim_the_win() {
    let server = TestServer::start().await;
    let (mut ada, bob, room) = server.pvp_gomoku().await;
    ada.event("game_started").await;
    bob.close().await;
    ada.event("player_disconnected").await;
    let early = ada
        .request(json!({"type": "claim_win", "room_id": room}))
        .await;
    assert_eq!(early["code"], "illegal_move", "{early}");
    tokio::time::sleep(Duration::from_millis(2200)).await;
    let claimed = ada
        .request(json!({"type": "claim_win", "room_id": room}))
        .await;
    assert_eq!(claimed["type"], "ok", "{claimed}");
    let over = ada.event("game_over").await;
    assert_eq!(over["event"]["result"]["reason"], "abandoned");
    assert_eq!(over["event"]["result"]["winner"], "first");
    server.stop().await;
}

#[tokio::test]
async fn graceful_shutdown_tells_clients_and_keeps_the_game() {
    let dir = tempfile::tempdir().expect("dir");
    let server = TestServer::start_with(tabula_tests::test_config(dir.path())).await;
    let (mut ada, _bob, room) = server.pvp_gomoku().await;
    assert_eq!(
        ada.act(&room, json!({"kind": "place", "point": point(7, 7)}))
            .await["type"],
        "event"
    );
    let stopping = tokio::spawn(server.stop());
    let bye = ada.expect(|m| m["type"] == "shutdown").await;
    assert_eq!(bye["type"], "shutdown");
    stopping.await.expect("stopped");

    let server = TestServer::start_with(tabula_tests::test_config(dir.path())).await;
    let mut ada2 = Client::connect(server.addr).await;
    ada2.hello("Ada", Some(&ada.token)).await;
    assert_eq!(ada2.rooms, vec![room.clone()]);
    ada2.join(&room, "player").await;
    let snap = ada2.expect(|m| m["type"] == "snapshot").await;
    assert_eq!(
        snap["snapshot"]["record"]["actions"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );
    server.stop().await;
}

/// A deserted game is closed after `deserted_game_ttl` counted from when
/// its players left, across restarts: a restart does not start the count
/// over.
#[tokio::test]
async fn a_restart_does_not_give_a_deserted_game_a_fresh_idle_time_out() {
    let dir = tempfile::tempdir().expect("dir");
    let config = || tabula_server::Config {
        deserted_game_ttl: Duration::from_secs(4),
        ..tabula_tests::test_config(dir.path())
    };
    let server = TestServer::start_with(config()).await;
    let (mut ada, bob, room) = server.pvp_gomoku().await;
    assert_eq!(
        ada.act(&room, json!({"kind": "place", "point": point(7, 7)}))
            .await["type"],
        "event"
    );
    let token = ada.token.clone();
    ada.close().await;
    bob.close().await;
    // Deserted for 2.5 s on this server, then 2 s with no server at all.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    server.stop().await;
    tokio::time::sleep(Duration::from_secs(2)).await;

    let server = TestServer::start_with(config()).await;
    // The game's 4 s were over before the restart: it closes at once
    // instead of waiting 4 s more.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let mut again = Client::connect(server.addr).await;
    let welcome = again.hello("Ada", Some(&token)).await;
    assert_eq!(welcome["rooms"], json!([]), "{welcome}");
    let gone = again
        .request(json!({"type": "join_room", "room_id": room, "role": "player"}))
        .await;
    assert_eq!(gone["code"], "not_found", "{gone}");
    server.stop().await;
}

/// Ada (black) and Bob in a Gomoku room on `server`, three accepted moves
/// each: Ada on row 7 and Bob on row 9, from column 4.
async fn three_moves_each(server: &ChildServer) -> (Client, Client, String) {
    let (mut ada, mut bob, room) = pvp_gomoku_at(server.addr, "Ada", "Bob").await;
    for i in 0..3u8 {
        assert_eq!(
            ada.act(&room, json!({"kind": "place", "point": point(4 + i, 7)}))
                .await["type"],
            "event"
        );
        assert_eq!(
            bob.act(&room, json!({"kind": "place", "point": point(4 + i, 9)}))
                .await["type"],
            "event"
        );
    }
    (ada, bob, room)
}

#[tokio::test]
async fn killing_the_server_mid_game_loses_nothing() {
    let exe = env!("CARGO_BIN_EXE_tabula-test-server");
    let dir = tempfile::tempdir().expect("dir");
    let server = ChildServer::start(exe, dir.path(), None);
    let (ada, bob, room) = three_moves_each(&server).await;
    // Every acknowledged move was saved before it was broadcast.
    server.kill();

    let server = ChildServer::start(exe, dir.path(), None);
    let mut ada2 = Client::connect(server.addr).await;
    ada2.hello("Ada", Some(&ada.token)).await;
    let mut bob2 = Client::connect(server.addr).await;
    bob2.hello("Bob", Some(&bob.token)).await;
    assert_eq!(ada2.rooms, vec![room.clone()]);
    ada2.join(&room, "player").await;
    let snap = ada2.expect(|m| m["type"] == "snapshot").await;
    assert_eq!(
        snap["snapshot"]["record"]["actions"]
            .as_array()
            .map(Vec::len),
        Some(6)
    );
    bob2.join(&room, "player").await;
    // Play on to five.
    for i in 3..5u8 {
        assert_eq!(
            ada2.act(&room, json!({"kind": "place", "point": point(4 + i, 7)}))
                .await["type"],
            "event"
        );
        if i < 4 {
            assert_eq!(
                bob2.act(&room, json!({"kind": "place", "point": point(4 + i, 9)}))
                    .await["type"],
                "event"
            );
        }
    }
    let over = bob2.event("game_over").await;
    assert_eq!(over["event"]["result"]["winner"], "first");
    drop(server);

    // The finished game is stored with its whole record.
    let games = tabula_server::read_finished_games(dir.path()).expect("read games");
    assert_eq!(games.len(), 1);
    let record: serde_json::Value = serde_json::from_str(&games[0].1).expect("record json");
    assert_eq!(record["actions"].as_array().map(Vec::len), Some(9));
}

#[tokio::test]
async fn a_game_both_players_left_is_saved_whole() {
    let exe = env!("CARGO_BIN_EXE_tabula-test-server");
    let dir = tempfile::tempdir().expect("dir");
    let server = ChildServer::start(exe, dir.path(), None);
    let (ada, bob, room) = three_moves_each(&server).await;
    let (ada_token, bob_token) = (ada.token.clone(), bob.token.clone());
    ada.close().await;
    bob.close().await;
    // The lobby shows both seats away once the room has seen both drops.
    let mut carol = Client::connect(server.addr).await;
    carol.hello("Carol", None).await;
    let deadline = tokio::time::Instant::now() + tabula_tests::WAIT;
    loop {
        let list = carol.request(json!({"type": "list_rooms"})).await;
        let seats = &list["rooms"][0]["seats"];
        if seats[0]["connected"] == false && seats[1]["connected"] == false {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{list}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The room saves once the last member is gone (after it tells the
    // lobby): saved as one state holding all six moves, none left in the
    // action log (where they would hold up its clean-up while the room
    // waits).
    let deadline = tokio::time::Instant::now() + tabula_tests::WAIT;
    loop {
        let (state, logged) = tabula_server::read_saved_room(dir.path(), &room)
            .expect("read")
            .expect("saved room");
        let state: serde_json::Value = serde_json::from_str(&state).expect("state json");
        let actions = state["record"]["actions"].as_array().map(Vec::len);
        if (actions, logged) == (Some(6), 0) {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "saved state holds {actions:?} actions, {logged} more in the log"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.kill();

    // And it comes back whole.
    let server = ChildServer::start(exe, dir.path(), None);
    let mut ada = Client::connect(server.addr).await;
    ada.hello("Ada", Some(&ada_token)).await;
    let mut bob = Client::connect(server.addr).await;
    bob.hello("Bob", Some(&bob_token)).await;
    ada.join(&room, "player").await;
    bob.join(&room, "player").await;
    assert_eq!(
        ada.act(&room, json!({"kind": "place", "point": point(7, 7)}))
            .await["type"],
        "event"
    );
    let seen = bob.action_where(|a| a["seat"] == "first").await;
    assert_eq!(seen["point"], point(7, 7));
    server.kill();
}

#[tokio::test]
async fn a_waiting_room_survives_a_kill() {
    let exe = env!("CARGO_BIN_EXE_tabula-test-server");
    let dir = tempfile::tempdir().expect("dir");
    let server = ChildServer::start(exe, dir.path(), None);
    let mut ada = Client::connect(server.addr).await;
    ada.hello("Ada", None).await;
    let (room, _) = ada
        .create(backgammon_options(json!({"kind": "human"}), "white", 3))
        .await;
    // Nobody has joined yet; the room was saved when it was created.
    server.kill();

    let server = ChildServer::start(exe, dir.path(), None);
    let mut ada2 = Client::connect(server.addr).await;
    ada2.hello("Ada", Some(&ada.token)).await;
    assert_eq!(ada2.rooms, vec![room.clone()]);
    let mut bob = Client::connect(server.addr).await;
    bob.hello("Bob", None).await;
    let list = bob.request(json!({"type": "list_rooms"})).await;
    let listed = list["rooms"].as_array().expect("rooms");
    assert_eq!(listed.len(), 1, "{list}");
    assert_eq!(listed[0]["room_id"], json!(room));
    assert_eq!(listed[0]["status"], "waiting");
    ada2.join(&room, "player").await;
    let joined = bob.join(&room, "player").await;
    assert_eq!(joined["seat"], "second");
    bob.event("game_started").await;
    server.kill();
}

#[tokio::test]
async fn after_a_kill_a_room_never_hands_out_an_event_number_twice() {
    let exe = env!("CARGO_BIN_EXE_tabula-test-server");
    let dir = tempfile::tempdir().expect("dir");
    let server = ChildServer::start(exe, dir.path(), None);
    let (mut ada, mut bob, room) = three_moves_each(&server).await;
    let muted = ada
        .request(json!({"type": "mute_spectators", "room_id": room, "muted": true}))
        .await;
    assert_eq!(muted["type"], "ok", "{muted}");
    // Chat is numbered but not saved: the saved number is behind Ada's.
    for i in 0..3 {
        let said = bob
            .request(json!({"type": "chat", "room_id": room, "text": format!("hi {i}")}))
            .await;
        assert_eq!(said["type"], "ok", "{said}");
        ada.event("chat").await;
    }
    let last_seq = ada
        .seen
        .iter()
        .filter_map(|m| m["seq"].as_u64())
        .max()
        .expect("seq");
    server.kill();

    let server = ChildServer::start(exe, dir.path(), None);
    let mut ada2 = Client::connect(server.addr).await;
    ada2.hello("Ada", Some(&ada.token)).await;
    let joined = ada2
        .request(json!({"type": "join_room", "room_id": room, "role": "player", "since": last_seq}))
        .await;
    assert_eq!(joined["seat"], "first");
    // Not "nothing missed": a snapshot numbered past everything Ada saw.
    let snap = ada2.expect(|m| m["type"] == "snapshot").await;
    assert!(
        snap["snapshot"]["seq"].as_u64() > Some(last_seq),
        "{}",
        snap["snapshot"]["seq"]
    );
    // The players' mute is part of the room's saved state.
    assert_eq!(snap["snapshot"]["spectators_muted"], true);
    let mut bob2 = Client::connect(server.addr).await;
    bob2.hello("Bob", Some(&bob.token)).await;
    bob2.join(&room, "player").await;
    let back = ada2.event("player_connected").await;
    assert!(back["seq"].as_u64() > Some(last_seq), "{back}");
}

#[tokio::test]
async fn after_a_kill_an_offer_withdrawn_by_a_move_stays_withdrawn() {
    let exe = env!("CARGO_BIN_EXE_tabula-test-server");
    let dir = tempfile::tempdir().expect("dir");
    let server = ChildServer::start(exe, dir.path(), None);
    let (mut ada, mut bob, room) = three_moves_each(&server).await;
    let offered = ada
        .request(json!({"type": "offer_draw", "room_id": room}))
        .await;
    assert_eq!(offered["type"], "ok", "{offered}");
    bob.event("offer_made").await;
    // Playing on withdraws it.
    let moved = ada
        .act(&room, json!({"kind": "place", "point": point(10, 12)}))
        .await;
    assert_eq!(moved["type"], "event", "{moved}");
    bob.event("offer_declined").await;
    server.kill();

    let server = ChildServer::start(exe, dir.path(), None);
    let mut bob2 = Client::connect(server.addr).await;
    bob2.hello("Bob", Some(&bob.token)).await;
    bob2.join(&room, "player").await;
    let snap = bob2.expect(|m| m["type"] == "snapshot").await;
    assert_eq!(
        snap["snapshot"]["offers"],
        json!([]),
        "{}",
        snap["snapshot"]
    );
    let accept = bob2
        .request(json!({"type": "answer", "room_id": room, "request": "draw", "accept": true}))
        .await;
    assert_eq!(accept["code"], "illegal_move", "{accept}");
}
