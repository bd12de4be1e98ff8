//! Every JSON example in `docs/PROTOCOL.md` must parse as the message it
//! claims to be, survive a round trip, and every message type must have an
//! example. This keeps the document and the code from drifting apart.

use std::collections::BTreeSet;

use tabula_shared::protocol::{ClientFrame, ClientMessage, ErrorCode, ServerFrame};

/// The fenced examples of the document: (direction, text).
fn examples() -> Vec<(String, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/PROTOCOL.md");
    let doc = std::fs::read_to_string(path).expect("docs/PROTOCOL.md is readable");
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in doc.lines() {
        match &mut current {
            None => {
                if let Some(info) = line.strip_prefix("```json ") {
                    current = Some((info.trim().to_string(), String::new()));
                }
            }
            Some((_, body)) => {
                if line.starts_with("```") {
                    out.push(current.take().expect("inside a block"));
                } else {
                    body.push_str(line);
                    body.push('\n');
                }
            }
        }
    }
    assert!(current.is_none(), "unterminated code block");
    out
}

fn type_of(text: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(text).expect("example is JSON");
    value["type"]
        .as_str()
        .expect("example has a type")
        .to_string()
}

#[test]
fn every_client_example_parses_and_round_trips() {
    let mut seen = BTreeSet::new();
    for (direction, text) in examples().into_iter().filter(|(d, _)| d == "client") {
        let frame = ClientFrame::decode(&text)
            .unwrap_or_else(|e| panic!("{direction} example does not parse: {e:?}\n{text}"));
        let again = serde_json::to_string(&frame).expect("encodes");
        assert_eq!(ClientFrame::decode(&again).expect("round trip"), frame);
        seen.insert(type_of(&text));
    }
    for name in ClientMessage::TYPES {
        assert!(seen.contains(*name), "no example for client message {name}");
    }
}

#[test]
fn every_server_example_parses_and_round_trips() {
    let mut seen = BTreeSet::new();
    let mut event_kinds = BTreeSet::new();
    for (_, text) in examples().into_iter().filter(|(d, _)| d == "server") {
        let frame: ServerFrame = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("server example does not parse: {e}\n{text}"));
        let again: ServerFrame = serde_json::from_str(&frame.encode()).expect("round trip");
        assert_eq!(again, frame);
        let value: serde_json::Value = serde_json::from_str(&text).expect("json");
        if let Some(kind) = value["event"]["kind"].as_str() {
            event_kinds.insert(kind.to_string());
        }
        seen.insert(type_of(&text));
    }
    for name in [
        "welcome",
        "room_list",
        "room_updated",
        "room_removed",
        "joined",
        "left",
        "snapshot",
        "event",
        "ok",
        "error",
        "pong",
        "shutdown",
        "dice_stats",
        "analysis_progress",
        "analysis",
        "hints",
    ] {
        assert!(seen.contains(name), "no example for server message {name}");
    }
    for kind in [
        "action",
        "seat_taken",
        "game_started",
        "player_connected",
        "player_disconnected",
        "seat_left",
        "offer_made",
        "offer_declined",
        "took_back",
        "game_over",
        "rematch_started",
        "spectators",
        "chat",
        "spectators_muted",
        "dice_seed",
    ] {
        assert!(event_kinds.contains(kind), "no example for event {kind}");
    }
}

#[test]
fn every_block_is_marked_client_or_server() {
    let all = examples();
    assert!(all.len() > 40, "expected the full set of examples");
    for (direction, _) in all {
        assert!(
            direction == "client" || direction == "server",
            "{direction}"
        );
    }
}

#[test]
fn decode_tells_bad_json_unknown_type_and_bad_fields_apart() {
    let code = |text: &str| ClientFrame::decode(text).err().map(|e| e.code);
    assert_eq!(code("{not json"), Some(ErrorCode::BadJson));
    assert_eq!(code("[1,2]"), Some(ErrorCode::BadJson));
    assert_eq!(code(r#"{"type":"teleport"}"#), Some(ErrorCode::UnknownType));
    assert_eq!(code(r#"{"no_type":1}"#), Some(ErrorCode::BadRequest));
    assert_eq!(
        code(r#"{"type":"chat","room_id":"r"}"#),
        Some(ErrorCode::BadRequest)
    );
    let err = ClientFrame::decode(
        r#"{"type":"act","request_id":5,"room_id":"r","action":{"kind":"fly"}}"#,
    )
    .expect_err("bad action");
    assert_eq!(err.code, ErrorCode::BadRequest);
    assert_eq!(err.request_id, Some(5));
    assert_eq!(code(r#"{"type":"ping"}"#), None);
}

#[test]
fn moves_decode_exactly_as_the_general_frame_does() {
    let frames = [
        r#"{"type":"act","room_id":"r-1","action":{"kind":"place","point":{"x":7,"y":7}}}"#,
        r#"{"request_id":9,"type":"act","room_id":"r-1","action":{"kind":"roll"}}"#,
        r#"{"action":{"point":{"y":3,"x":4},"kind":"place"},"room_id":"r\u002d2","type":"act","request_id":null}"#,
        r#"{"type":"act","room_id":"r","action":{"kind":"double"},"extra":[1,{"a":2}]}"#,
        r#"{"type":"act","room_id":"r","action":{"kind":"play","play":"24/18 13/11"}}"#,
        r#"{"type":"act","room_id":"r","action":{"kind":"choose","choice":"place_two"}}"#,
        r#"{"type":"act","room_id":"r","action":{"kind":"take","note":"extra"}}"#,
        r#"{"type":"act","room_id":"r","action":{"kind":"drop"}}"#,
    ];
    for text in frames {
        let general = serde_json::from_str::<ClientFrame>(text).expect(text);
        assert_eq!(ClientFrame::decode(text).expect(text), general, "{text}");
    }
    // Frames the fast path leaves to the general decoder (a stray or a
    // missing field, a null, an unknown kind) still decode, or fail, as
    // the general frame does.
    let odd = [
        r#"{"type":"act","room_id":"r","action":{"kind":"roll","point":{"x":1,"y":2}}}"#,
        r#"{"type":"act","room_id":"r","action":{"kind":"place","point":{"x":1,"y":2},"play":"8/5"}}"#,
        r#"{"type":"act","room_id":"r","action":{"kind":"place"}}"#,
        r#"{"type":"act","room_id":"r","action":{"kind":"place","point":null}}"#,
        r#"{"type":"act","room_id":"r","action":{"kind":"fly","point":{"x":1,"y":2}}}"#,
        r#"{"type":"act","room_id":"r","action":{"kind":"play","play":"not a play"}}"#,
    ];
    for text in odd {
        let general = serde_json::from_str::<ClientFrame>(text).ok();
        assert_eq!(ClientFrame::decode(text).ok(), general, "{text}");
    }
    // Another type that happens to carry the same fields is not a move.
    let chat = r#"{"type":"chat","room_id":"r","action":{"kind":"roll"},"text":"hi"}"#;
    assert_eq!(
        ClientFrame::decode(chat).expect("chat"),
        serde_json::from_str::<ClientFrame>(chat).expect("chat")
    );
    assert!(!matches!(
        ClientFrame::decode(chat).map(|f| f.message),
        Ok(ClientMessage::Act { .. })
    ));
}

#[test]
fn an_action_event_put_together_is_the_event_as_encoded() {
    use tabula_shared::backgammon::Side;
    use tabula_shared::gomoku::{GomokuAction, Point};
    use tabula_shared::protocol::{
        ActionRecord, BgAction, ClockState, Expect, RoomEvent, ServerMessage, Turn,
    };
    use tabula_shared::seat::Seat;

    let actions = [
        ActionRecord::Gomoku(GomokuAction::Place {
            seat: Seat::Second,
            point: Point { x: 7, y: 14 },
        }),
        ActionRecord::Backgammon(BgAction::Play {
            side: Side::Black,
            play: "bar/22* 13/11".parse().expect("play"),
        }),
        ActionRecord::Backgammon(BgAction::Roll {
            side: Side::White,
            dice: [6, 1],
        }),
    ];
    let clocks = [
        None,
        Some(ClockState {
            remaining_ms: [299_000, 300_500],
            running: Some(Seat::First),
        }),
    ];
    let turn = Turn {
        seat: Some(Seat::First),
        dice: Some([6, 1]),
        position_id: Some("4HPwATDgc/ABMA".into()),
        match_id: Some("cAkAAAAAAAAA".into()),
        ..Turn::nothing()
    };
    let turn = Turn {
        expect: Expect::Play,
        ..turn
    };
    for room_id in ["r-1f3a", "a \"quoted\"\nroom"] {
        for action in &actions {
            for clock in clocks {
                let frame = ServerFrame::push(ServerMessage::Event {
                    room_id: room_id.into(),
                    seq: 4_294_967_301,
                    event: RoomEvent::Action {
                        action: action.clone(),
                        clock,
                        turn: Some(Box::new(turn.clone())),
                    },
                });
                let action_json = serde_json::to_string(action).expect("action");
                let clock_json = clock.map(|c| serde_json::to_string(&c).expect("clock"));
                let turn_json = serde_json::to_string(&turn).expect("turn");
                assert_eq!(
                    ServerFrame::action_event(
                        room_id,
                        4_294_967_301,
                        &action_json,
                        clock_json.as_deref(),
                        &turn_json,
                    ),
                    frame.encode()
                );
            }
        }
    }
}
