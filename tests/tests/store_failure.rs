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
