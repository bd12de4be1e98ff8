//! A full PvP Gomoku game to five in a row, watched by a spectator who
//! receives every event the players receive.

use serde_json::json;
use tabula_tests::{TestServer, gomoku_options, point};

#[tokio::test]
async fn pvp_gomoku_to_five_with_spectator() {
    let server = TestServer::start().await;
    let mut ada = server.client("Ada").await;
    let mut bob = server.client("Bob").await;
    let mut eve = server.client("Eve").await;

    // Bob watches the lobby and sees the new room appear.
    let list = bob.request(json!({"type": "list_rooms"})).await;
    assert_eq!(list["type"], "room_list");
    let (room, seat) = ada
        .create(gomoku_options(json!({"kind": "human"}), "black"))
        .await;
    assert_eq!(seat, "first");
    let update = bob
        .expect(|m| m["type"] == "room_updated" && m["room"]["room_id"] == room.as_str())
        .await;
    assert_eq!(update["room"]["status"], "waiting");

    eve.join(&room, "spectator").await;
    let joined = bob.join(&room, "player").await;
    assert_eq!(joined["seat"], "second");
    ada.event("game_started").await;
    eve.event("game_started").await;

    // Black builds a row on y = 7; white answers on y = 9.
    for i in 0..5u8 {
        let reply = ada
            .act(&room, json!({"kind": "place", "point": point(3 + i, 7)}))
            .await;
        assert_eq!(reply["type"], "event", "{reply}");
        assert_eq!(reply["event"]["action"]["point"], point(3 + i, 7));
        let seen = bob.action_where(|a| a["seat"] == "first").await;
        assert_eq!(seen["point"], point(3 + i, 7));
        if i < 4 {
            // Out of turn: Ada may not move twice.
            let early = ada
                .act(&room, json!({"kind": "place", "point": point(0, 0)}))
                .await;
            assert_eq!(early["code"], "not_your_turn");
            let reply = bob
                .act(&room, json!({"kind": "place", "point": point(3 + i, 9)}))
                .await;
            assert_eq!(reply["type"], "event", "{reply}");
            let seen = ada.action_where(|a| a["seat"] == "second").await;
            assert_eq!(seen["point"], point(3 + i, 9));
        }
    }
    let over = ada.event("game_over").await;
    assert_eq!(over["event"]["result"]["winner"], "first");
    assert_eq!(over["event"]["result"]["reason"], "rules");
    assert_eq!(
        over["event"]["result"]["line"].as_array().map(Vec::len),
        Some(5)
    );
    bob.event("game_over").await;
    eve.event("game_over").await;

    // Ada's own actions came back as answers: her copy of each action event
    // carries her request_id; nobody else's copy does.
    let answers: Vec<_> = ada
        .seen
        .iter()
        .filter(|m| m["type"] == "event" && m.get("request_id").is_some())
        .collect();
    assert_eq!(answers.len(), 5);
    assert!(
        answers
            .iter()
            .all(|m| m["event"]["kind"] == "action" && m["event"]["action"]["seat"] == "first")
    );
    assert!(
        eve.seen
            .iter()
            .all(|m| m.get("request_id").is_none() || m["type"] != "event")
    );
    // The spectator saw exactly the events the players saw, from the moment it joined.
    let events = |seen: &[serde_json::Value]| -> Vec<serde_json::Value> {
        seen.iter()
            .filter(|m| m["type"] == "event" && m["room_id"] == room.as_str())
            .map(|m| {
                let mut m = m.clone();
                if let Some(fields) = m.as_object_mut() {
                    fields.remove("request_id");
                }
                m
            })
            .collect()
    };
    let eve_events = events(&eve.seen);
    let ada_events = events(&ada.seen);
    let first_seq = eve_events[0]["seq"].as_u64().expect("seq");
    let ada_tail: Vec<_> = ada_events
        .into_iter()
        .filter(|e| e["seq"].as_u64() >= Some(first_seq))
        .collect();
    assert_eq!(eve_events, ada_tail);
    // Sequence numbers rise by one with no gaps.
    for pair in eve_events.windows(2) {
        assert_eq!(
            pair[1]["seq"].as_u64(),
            pair[0]["seq"].as_u64().map(|s| s + 1)
        );
    }
    // The spectator may not move.
    let refused = eve
        .act(&room, json!({"kind": "place", "point": point(0, 0)}))
        .await;
    assert_eq!(refused["code"], "forbidden");

    // The finished game is stored with its record.
    server.stop().await;
}
