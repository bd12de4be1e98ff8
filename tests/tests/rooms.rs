//! Rooms side by side, private rooms, offers, chat and rematch.

use serde_json::json;
use tabula_tests::{TestServer, gomoku_options, point};

#[tokio::test]
async fn two_rooms_at_once_do_not_disturb_each_other() {
    let server = TestServer::start().await;
    let mut a1 = server.client("A1").await;
    let mut b1 = server.client("B1").await;
    let mut a2 = server.client("A2").await;
    let mut b2 = server.client("B2").await;
    let (r1, _) = a1
        .create(gomoku_options(json!({"kind": "human"}), "black"))
        .await;
    let (r2, _) = a2
        .create(gomoku_options(json!({"kind": "human"}), "black"))
        .await;
    b1.join(&r1, "player").await;
    b2.join(&r2, "player").await;
    for i in 0..4u8 {
        assert_eq!(
            a1.act(&r1, json!({"kind": "place", "point": point(i, 0)}))
                .await["type"],
            "event"
        );
        assert_eq!(
            a2.act(&r2, json!({"kind": "place", "point": point(i, 14)}))
                .await["type"],
            "event"
        );
        assert_eq!(
            b1.act(&r1, json!({"kind": "place", "point": point(i, 2)}))
                .await["type"],
            "event"
        );
        assert_eq!(
            b2.act(&r2, json!({"kind": "place", "point": point(i, 12)}))
                .await["type"],
            "event"
        );
    }
    // Moving in the other room is refused: you are not in it.
    let e = a1
        .act(&r2, json!({"kind": "place", "point": point(9, 9)}))
        .await;
    assert_eq!(e["code"], "not_in_room");
    let s1 = a1.request(json!({"type": "sync", "room_id": r1})).await;
    let s2 = a2.request(json!({"type": "sync", "room_id": r2})).await;
    let ys = |s: &serde_json::Value| -> Vec<u64> {
        s["snapshot"]["record"]["actions"]
            .as_array()
            .expect("actions")
            .iter()
            .filter_map(|a| a["point"]["y"].as_u64())
            .collect()
    };
    assert_eq!(ys(&s1), vec![0, 2, 0, 2, 0, 2, 0, 2]);
    assert_eq!(ys(&s2), vec![14, 12, 14, 12, 14, 12, 14, 12]);
    // Each room numbers its own events.
    assert_eq!(s1["snapshot"]["seq"], s2["snapshot"]["seq"]);
    server.stop().await;
}

#[tokio::test]
async fn private_rooms_are_unlisted_and_joined_by_code() {
    let server = TestServer::start().await;
    let mut ada = server.client("Ada").await;
    let mut bob = server.client("Bob").await;
    let mut options = gomoku_options(json!({"kind": "human"}), "black");
    options["private"] = json!(true);
    let joined = ada
        .request(json!({"type": "create_room", "options": options}))
        .await;
    let room = joined["room_id"].as_str().expect("room").to_string();
    let snap = ada.expect(|m| m["type"] == "snapshot").await;
    let code = snap["snapshot"]["code"]
        .as_str()
        .expect("players see the code")
        .to_string();
    let list = bob.request(json!({"type": "list_rooms"})).await;
    assert!(list["rooms"].as_array().expect("rooms").is_empty());
    let wrong = bob
        .request(json!({"type": "join_by_code", "code": "NOPE00"}))
        .await;
    assert_eq!(wrong["code"], "not_found");
    // The room's id is not a key to its free seat.
    let by_id = bob
        .request(json!({"type": "join_room", "room_id": room, "role": "player"}))
        .await;
    assert_eq!(by_id["code"], "forbidden", "{by_id}");
    assert_eq!(code.len(), 8, "{code}");
    assert!(
        code.bytes()
            .all(|b| b.is_ascii_uppercase() && b != b'I' && b != b'O' || (b'2'..=b'9').contains(&b)),
        "{code}"
    );
    // Typed in lower case, grouped with a dash.
    let typed = format!("{}-{}", code[..4].to_lowercase(), code[4..].to_lowercase());
    let joined = bob
        .request(json!({"type": "join_by_code", "code": typed}))
        .await;
    assert_eq!(joined["room_id"], room.as_str());
    assert_eq!(joined["seat"], "second");
    // A spectator joining later does not get the code.
    let mut eve = server.client("Eve").await;
    eve.join(&room, "spectator").await;
    let snap = eve.expect(|m| m["type"] == "snapshot").await;
    assert!(snap["snapshot"]["code"].is_null());
    server.stop().await;
}

#[tokio::test]
async fn takeback_draw_chat_mute_and_rematch() {
    let server = TestServer::start().await;
    let (mut ada, mut bob, room) = server.pvp_gomoku().await;
    let mut eve = server.client("Eve").await;
    eve.join(&room, "spectator").await;
    assert_eq!(
        ada.act(&room, json!({"kind": "place", "point": point(7, 7)}))
            .await["type"],
        "event"
    );

    // Takeback: asked, declined, asked again, accepted.
    assert_eq!(
        ada.request(json!({"type": "request_takeback", "room_id": room}))
            .await["type"],
        "ok"
    );
    bob.event("offer_made").await;
    assert_eq!(
        bob.request(
            json!({"type": "answer", "room_id": room, "request": "takeback", "accept": false})
        )
        .await["type"],
        "ok"
    );
    ada.event("offer_declined").await;
    assert_eq!(
        ada.request(json!({"type": "request_takeback", "room_id": room}))
            .await["type"],
        "ok"
    );
    assert_eq!(
        bob.request(
            json!({"type": "answer", "room_id": room, "request": "takeback", "accept": true})
        )
        .await["type"],
        "ok"
    );
    let back = eve.event("took_back").await;
    assert_eq!(back["event"]["count"], 1);
    // Ada moves again, somewhere else.
    assert_eq!(
        ada.act(&room, json!({"kind": "place", "point": point(6, 6)}))
            .await["type"],
        "event"
    );

    // Chat, then the players mute spectators.
    assert_eq!(
        eve.request(json!({"type": "chat", "room_id": room, "text": "nice"}))
            .await["type"],
        "ok"
    );
    let line = ada.event("chat").await;
    assert_eq!(line["event"]["line"]["spectator"], true);
    assert_eq!(
        bob.request(json!({"type": "mute_spectators", "room_id": room, "muted": true}))
            .await["type"],
        "ok"
    );
    let muted = eve
        .request(json!({"type": "chat", "room_id": room, "text": "hello?"}))
        .await;
    assert_eq!(muted["code"], "forbidden");

    // Draw offered and accepted.
    assert_eq!(
        bob.request(json!({"type": "offer_draw", "room_id": room}))
            .await["type"],
        "ok"
    );
    assert_eq!(
        ada.request(json!({"type": "answer", "room_id": room, "request": "draw", "accept": true}))
            .await["type"],
        "ok"
    );
    let over = eve.event("game_over").await;
    assert_eq!(over["event"]["result"]["reason"], "draw_agreed");
    assert!(over["event"]["result"]["winner"].is_null());

    // Rematch with seats swapped once both ask.
    assert_eq!(
        ada.request(json!({"type": "rematch", "room_id": room}))
            .await["type"],
        "ok"
    );
    assert_eq!(
        bob.request(json!({"type": "rematch", "room_id": room}))
            .await["type"],
        "ok"
    );
    eve.event("rematch_started").await;
    let snap = ada
        .expect(|m| m["type"] == "snapshot" && m["snapshot"]["record"]["actions"] == json!([]))
        .await;
    let seats = snap["snapshot"]["summary"]["seats"]
        .as_array()
        .expect("seats");
    assert_eq!(seats[0]["player"]["name"], "Bob");
    assert_eq!(seats[1]["player"]["name"], "Ada");
    // Bob is black now.
    assert_eq!(
        bob.act(&room, json!({"kind": "place", "point": point(7, 7)}))
            .await["type"],
        "event"
    );
    server.stop().await;
}

#[tokio::test]
async fn running_out_of_time_loses() {
    let server = TestServer::start().await;
    let mut ada = server.client("Ada").await;
    let mut bob = server.client("Bob").await;
    let mut options = gomoku_options(json!({"kind": "human"}), "black");
    options["time_control"] = json!({"initial_secs": 1, "increment_secs": 0});
    let (room, _) = ada.create(options).await;
    bob.join(&room, "player").await;
    let started = ada.event("game_started").await;
    assert_eq!(
        started["event"]["clock"]["remaining_ms"],
        json!([1000, 1000])
    );
    // Black never moves.
    let over = bob.event("game_over").await;
    assert_eq!(over["event"]["result"]["reason"], "timeout");
    assert_eq!(over["event"]["result"]["winner"], "second");
    server.stop().await;
}

#[tokio::test]
async fn takeback_against_the_ai_is_granted_at_once() {
    let server = TestServer::start().await;
    let mut ada = server.client("Ada").await;
    let (room, _) = ada
        .create(gomoku_options(
            json!({"kind": "ai", "level": "beginner"}),
            "black",
        ))
        .await;
    assert_eq!(
        ada.act(&room, json!({"kind": "place", "point": point(7, 7)}))
            .await["type"],
        "event"
    );
    ada.action_where(|a| a["seat"] == "second").await;
    assert_eq!(
        ada.request(json!({"type": "request_takeback", "room_id": room}))
            .await["type"],
        "ok"
    );
    let back = ada.event("took_back").await;
    assert_eq!(back["event"]["count"], 2);
    let snap = ada.request(json!({"type": "sync", "room_id": room})).await;
    assert_eq!(snap["snapshot"]["record"]["actions"], json!([]));
    server.stop().await;
}

#[tokio::test]
async fn a_seated_player_cannot_hold_the_seat_by_watching() {
    let server = TestServer::start().await;
    let (mut ada, mut bob, room) = server.pvp_gomoku().await;
    ada.event("game_started").await;
    let watch = bob
        .request(json!({"type": "join_room", "room_id": room, "role": "spectator"}))
        .await;
    assert_eq!(watch["code"], "forbidden", "{watch}");
    // Still seated: the drop counts, and the grace period runs.
    bob.close().await;
    let dropped = ada.event("player_disconnected").await;
    assert_eq!(dropped["event"]["seat"], "second");
    server.stop().await;
}

#[tokio::test]
async fn a_rematch_offer_goes_with_the_player_who_made_it() {
    let server = TestServer::start().await;
    let (mut ada, mut bob, room) = server.pvp_gomoku().await;
    ada.event("game_started").await;
    let resigned = ada
        .request(json!({"type": "resign", "room_id": room}))
        .await;
    assert_eq!(resigned["type"], "ok", "{resigned}");
    bob.event("game_over").await;
    let offered = bob
        .request(json!({"type": "rematch", "room_id": room}))
        .await;
    assert_eq!(offered["type"], "ok", "{offered}");
    ada.event("offer_made").await;
    bob.close().await;
    let withdrawn = ada.event("offer_declined").await;
    assert_eq!(
        withdrawn["event"]["offer"]["kind"], "rematch",
        "{withdrawn}"
    );
    assert_eq!(withdrawn["event"]["offer"]["by"], "second", "{withdrawn}");
    // Ada's answer is an offer of her own, not a game against an empty seat.
    let asked = ada
        .request(json!({"type": "rematch", "room_id": room}))
        .await;
    assert_eq!(asked["type"], "ok", "{asked}");
    let mine = ada.event("offer_made").await;
    assert_eq!(mine["event"]["offer"]["by"], "first", "{mine}");
    assert_eq!(ada.request(json!({"type": "ping"})).await["type"], "pong");
    assert!(
        !ada.seen
            .iter()
            .any(|m| m["event"]["kind"] == "rematch_started"),
        "a rematch started without Bob"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_seat_held_before_the_game_starts_is_freed_after_the_grace_period() {
    let server = TestServer::start().await;
    let mut ada = server.client("Ada").await;
    let (room, _) = ada
        .create(gomoku_options(json!({"kind": "human"}), "black"))
        .await;
    // Ada drops (not a `leave`): her seat is held for the grace period.
    ada.close().await;
    let mut bob = server.client("Bob").await;
    assert_eq!(bob.join(&room, "player").await["seat"], "second");
    let freed = bob.event("seat_left").await;
    assert_eq!(freed["event"]["seat"], "first", "{freed}");
    // Bob gets a new opponent, and the game starts.
    let mut cat = server.client("Cat").await;
    assert_eq!(cat.join(&room, "player").await["seat"], "first");
    bob.event("game_started").await;
    server.stop().await;
}

#[tokio::test]
async fn one_player_cannot_fill_the_server_with_rooms() {
    let server = TestServer::start().await;
    let mut ada = server.client("Ada").await;
    let options = gomoku_options(json!({"kind": "ai", "level": "beginner"}), "black");
    for _ in 0..20 {
        ada.create(options.clone()).await;
    }
    let more = ada
        .request(json!({"type": "create_room", "options": options}))
        .await;
    assert_eq!(more["code"], "limit_reached", "{more}");
    // Another player is not affected.
    let mut bob = server.client("Bob").await;
    bob.create(options.clone()).await;
    server.stop().await;
}

#[tokio::test]
async fn guessing_private_room_codes_is_limited() {
    let server = TestServer::start().await;
    let mut ada = server.client("Ada").await;
    let mut options = gomoku_options(json!({"kind": "human"}), "black");
    options["private"] = json!(true);
    ada.request(json!({"type": "create_room", "options": options}))
        .await;
    let snap = ada.expect(|m| m["type"] == "snapshot").await;
    let code = snap["snapshot"]["code"].as_str().expect("code").to_string();
    let mut guesser = server.client("Guesser").await;
    for guess in ["AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD", "EEEEEE"] {
        let wrong = guesser
            .request(json!({"type": "join_by_code", "code": guess}))
            .await;
        assert_eq!(wrong["code"], "not_found", "{wrong}");
    }
    // Five wrong in a minute: even the right code waits.
    let limited = guesser
        .request(json!({"type": "join_by_code", "code": code}))
        .await;
    assert_eq!(limited["code"], "rate_limited", "{limited}");
    // Others are not affected.
    let mut bob = server.client("Bob").await;
    let joined = bob
        .request(json!({"type": "join_by_code", "code": code}))
        .await;
    assert_eq!(joined["type"], "joined", "{joined}");
    server.stop().await;
}

/// A takeback ends the offers made about the position it takes back: the
/// draw offer pending when the takeback is accepted is told as declined,
/// before the takeback, and can no longer be answered.
#[tokio::test]
async fn a_takeback_tells_the_pending_draw_offer_as_ended() {
    let server = TestServer::start().await;
    let mut ada = server.client("Ada").await;
    let mut bob = server.client("Bob").await;
    let mut options = gomoku_options(json!({"kind": "human"}), "black");
    options["takebacks"] = json!(true);
    let (room, _) = ada.create(options).await;
    bob.join(&room, "player").await;
    ada.act(&room, json!({"kind": "place", "point": point(7, 7)}))
        .await;
    bob.act(&room, json!({"kind": "place", "point": point(8, 8)}))
        .await;
    let mark = bob.seen.len();
    assert_eq!(
        ada.request(json!({"type": "offer_draw", "room_id": room}))
            .await["type"],
        "ok"
    );
    assert_eq!(
        bob.request(json!({"type": "request_takeback", "room_id": room}))
            .await["type"],
        "ok"
    );
    assert_eq!(
        ada.request(
            json!({"type": "answer", "room_id": room, "request": "takeback", "accept": true})
        )
        .await["type"],
        "ok"
    );
    bob.event("took_back").await;
    let kinds: Vec<(String, String)> = bob.seen[mark..]
        .iter()
        .filter(|m| m["type"] == "event")
        .map(|m| {
            let event = &m["event"];
            let offer = event["offer"]["kind"].as_str().unwrap_or("").to_string();
            (event["kind"].as_str().unwrap_or("").to_string(), offer)
        })
        .collect();
    let expected: Vec<(String, String)> = [
        ("offer_made", "draw"),
        ("offer_made", "takeback"),
        ("offer_declined", "draw"),
        ("took_back", ""),
    ]
    .iter()
    .map(|(k, o)| (k.to_string(), o.to_string()))
    .collect();
    assert_eq!(kinds, expected, "{:?}", &bob.seen[mark..]);
    let synced = bob.request(json!({"type": "sync", "room_id": room})).await;
    assert_eq!(synced["snapshot"]["offers"], json!([]), "{synced}");
    let answer = bob
        .request(json!({"type": "answer", "room_id": room, "request": "draw", "accept": true}))
        .await;
    assert_eq!(answer["type"], "error", "{answer}");
    tabula_tests::assert_numbered_once(&bob.seen, &room);
    server.stop().await;
}
