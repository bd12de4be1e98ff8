//! Guest identities are not kept for ever: a guest gone for 30 days with no
//! finished game and no seat is forgotten at the next start, and guests are
//! not loaded into memory at start at all: a guest's token is looked up in
//! the store when it comes back.

use serde_json::json;
use tabula_tests::{Client, TestServer, gomoku_options, test_config};

#[tokio::test]
async fn guests_gone_long_with_no_game_are_forgotten_and_others_come_back() {
    let tmp = tempfile::tempdir().expect("dir");
    let server = TestServer::start_with(test_config(tmp.path())).await;
    let idle = server.client("Idle").await;
    let mut played = server.client("Played").await;
    let (room, _) = played
        .create(gomoku_options(
            json!({"kind": "ai", "level": "beginner"}),
            "black",
        ))
        .await;
    let resigned = played
        .request(json!({"type": "resign", "room_id": room}))
        .await;
    assert_eq!(resigned["type"], "ok", "{resigned}");
    played.event("game_over").await;
    let recent = server.client("Recent").await;
    let tokens = [
        idle.token.clone(),
        played.token.clone(),
        recent.token.clone(),
    ];
    server.stop().await;

    // Idle and Played were last seen 31 days ago.
    let db = rusqlite::Connection::open(tmp.path().join("tabula.db")).expect("open");
    let old = 31 * 24 * 3600 * 1000_i64;
    let changed = db
        .execute(
            "UPDATE players SET seen_at = seen_at - ?1 WHERE name IN ('Idle', 'Played')",
            [old],
        )
        .expect("age them");
    assert_eq!(changed, 2);
    drop(db);

    let server = TestServer::start_with(test_config(tmp.path())).await;
    let mut idle = Client::connect(server.addr).await;
    let forgotten = idle
        .request(json!({"type": "hello", "protocol": 1, "name": "Idle", "token": tokens[0]}))
        .await;
    assert_eq!(forgotten["code"], "auth_failed", "{forgotten}");
    // A guest with a finished game, and a recent one, come back as before.
    for (token, name) in [(&tokens[1], "Played"), (&tokens[2], "Recent")] {
        let mut back = Client::connect(server.addr).await;
        let welcome = back.hello(name, Some(token)).await;
        assert_eq!(welcome["name"], name, "{welcome}");
    }
    let db = rusqlite::Connection::open(tmp.path().join("tabula.db")).expect("open");
    let left: i64 = db
        .query_row("SELECT COUNT(*) FROM players", [], |r| r.get(0))
        .expect("count");
    assert_eq!(left, 2, "Idle is gone from the store");
    server.stop().await;
}
