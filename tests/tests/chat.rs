//! The room chat across a server restart.

use serde_json::json;
use tabula_tests::{ChildServer, Client};

/// Issue 26 #10: the chat disappeared for everyone after a restart.
#[tokio::test]
async fn the_chat_survives_a_killed_server() {
    let exe = env!("CARGO_BIN_EXE_tabula-test-server");
    let dir = tempfile::tempdir().expect("dir");
    let server = ChildServer::start(exe, dir.path(), None);
    let mut ada = Client::connect(server.addr).await;
    ada.hello("Ada", None).await;
    let mut bob = Client::connect(server.addr).await;
    bob.hello("Bob", None).await;
    let (room, _) = ada
        .create(tabula_tests::gomoku_options(
            json!({"kind": "human"}),
            "black",
        ))
        .await;
    bob.join(&room, "player").await;
    for (who, text) in [(&mut ada, "你好"), (&mut bob, "hello Ada")] {
        let ok = who
            .request(json!({"type": "chat", "room_id": room, "text": text}))
            .await;
        assert_eq!(ok["type"], "ok", "{ok}");
    }
    // An acknowledged line is on disk: killed, nothing is flushed on the way out.
    server.kill();

    let server = ChildServer::start(exe, dir.path(), None);
    let mut ada2 = Client::connect(server.addr).await;
    ada2.hello("Ada", Some(&ada.token)).await;
    ada2.join(&room, "player").await;
    let snap = ada2.expect(|m| m["type"] == "snapshot").await;
    let chat: Vec<(String, String)> = snap["snapshot"]["chat"]
        .as_array()
        .expect("chat lines")
        .iter()
        .map(|l| {
            (
                l["from"].as_str().unwrap_or_default().to_string(),
                l["text"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert_eq!(
        chat,
        vec![
            ("Ada".to_string(), "你好".to_string()),
            ("Bob".to_string(), "hello Ada".to_string())
        ],
        "{snap}"
    );
    drop(server);
}
