//! A move the server cannot save is refused, not shown: nobody sees a move
//! that a restart would lose, and the game carries on once the store can
//! write again.
//!
//! The failure is real: the test renames the action log's table in the
//! server's SQLite file from a second connection, so the writer's insert
//! fails, then renames it back.

use std::time::Duration;

use serde_json::json;
use tabula_tests::{TestServer, point};

fn rename_action_log(db: &std::path::Path, from: &str, to: &str) {
    let conn = rusqlite::Connection::open(db).expect("open the server's database");
    conn.busy_timeout(Duration::from_secs(10))
        .expect("busy timeout");
    conn.execute_batch(&format!("ALTER TABLE {from} RENAME TO {to}"))
        .expect("rename");
}

#[tokio::test]
async fn a_move_that_cannot_be_saved_is_refused_and_the_game_goes_on() {
    let server = TestServer::start().await;
    let db = server.data_dir.join("tabula.db");
    let (mut ada, mut bob, room) = server.pvp_gomoku().await;
    let place = |x, y| json!({"kind": "place", "point": point(x, y)});

    let first = ada.act(&room, place(7, 7)).await;
    assert_eq!(first["type"], "event", "{first}");
    bob.action().await;
    let second = bob.act(&room, place(8, 8)).await;
    assert_eq!(second["type"], "event", "{second}");
    bob.action().await; // his own move's event
    ada.action().await;
    let seq = second["seq"].as_u64().expect("seq");

    rename_action_log(&db, "action_log", "action_log_away");
    let refused = ada.act(&room, place(7, 8)).await;
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["code"], "internal", "{refused}");
    // The room still shows two stones, and it is still Ada's turn.
    let sync = ada.request(json!({"type": "sync", "room_id": room})).await;
    assert_eq!(
        sync["snapshot"]["record"]["actions"]
            .as_array()
            .map(Vec::len),
        Some(2),
        "{sync}"
    );
    assert_eq!(sync["snapshot"]["seq"].as_u64(), Some(seq), "{sync}");
    let early = bob.act(&room, place(9, 9)).await;
    assert_eq!(early["code"], "not_your_turn", "{early}");

    rename_action_log(&db, "action_log_away", "action_log");
    let third = ada.act(&room, place(7, 8)).await;
    assert_eq!(third["type"], "event", "{third}");
    assert_eq!(
        third["seq"].as_u64(),
        Some(seq + 1),
        "numbered on from the last event told"
    );
    // Bob's next event is that move: nothing of the refused one reached him.
    let told = bob.event("action").await;
    assert_eq!(told["seq"].as_u64(), Some(seq + 1), "{told}");
    assert_eq!(told["event"]["action"]["point"], point(7, 8), "{told}");
    let fourth = bob.act(&room, place(9, 9)).await;
    assert_eq!(fourth["type"], "event", "{fourth}");
    server.stop().await;
}

/// A move whose write timed out was undone and another played at its
/// index; should the first write reach the disk after all, the store holds
/// two rows for that index. A restart keeps the later one, as the room
/// did, and the moves after it.
#[tokio::test]
async fn after_a_restart_a_later_move_at_the_same_index_replaces_the_earlier() {
    let tmp = tempfile::tempdir().expect("dir");
    let server = TestServer::start_with(tabula_tests::test_config(tmp.path())).await;
    let (mut ada, bob, room) = server.pvp_gomoku().await;
    let place = |x, y| json!({"kind": "place", "point": point(x, y)});
    assert_eq!(ada.act(&room, place(7, 7)).await["type"], "event");
    let token = ada.token.clone();
    drop(bob);
    server.stop().await;

    // The log as that history leaves it: (7,7) at index 0, then (3,3) at
    // index 0 again, then Bob's (4,4) at index 1.
    let db = rusqlite::Connection::open(tmp.path().join("tabula.db")).expect("open");
    db.execute_batch("UPDATE rooms SET log_from = 0")
        .expect("keep the log");
    let first: (String, i64, String) = db
        .query_row(
            "SELECT action, seq, clock FROM action_log WHERE room_id = ?1 AND idx = 0",
            [&room],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .expect("the first move's row");
    let moved = |x: u8, y: u8, seat: &str| {
        let mut action: serde_json::Value = serde_json::from_str(&first.0).expect("json");
        action["point"] = point(x, y);
        action["seat"] = json!(seat);
        action.to_string()
    };
    for (idx, action) in [(0, moved(3, 3, "first")), (1, moved(4, 4, "second"))] {
        db.execute(
            "INSERT INTO action_log (room_id, idx, action, seq, clock) VALUES (?1, ?2, ?3, ?4, ?5)",
            rusqlite::params![room, idx, action, first.1 + 1 + idx, first.2],
        )
        .expect("insert");
    }
    drop(db);

    let server = TestServer::start_with(tabula_tests::test_config(tmp.path())).await;
    let mut ada = tabula_tests::Client::connect(server.addr).await;
    ada.hello("Ada", Some(&token)).await;
    ada.join(&room, "player").await;
    let sync = ada.request(json!({"type": "sync", "room_id": room})).await;
    let actions = sync["snapshot"]["record"]["actions"].clone();
    assert_eq!(actions.as_array().map(Vec::len), Some(2), "{sync}");
    assert_eq!(actions[0]["point"], point(3, 3), "{sync}");
    assert_eq!(actions[1]["point"], point(4, 4), "{sync}");
    server.stop().await;
}
