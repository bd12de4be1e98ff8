//! A full PvP Backgammon money game with fixed dice: White doubles, Black
//! takes, and White wins a gammon (or better). Each side plays by a simple
//! fixed policy, so the game is the same on every run.

use serde_json::json;
use tabula_shared::backgammon::{BgMatch, GamePhase, Side};
use tabula_shared::game::LiveGame;
use tabula_tests::{Client, TestServer, backgammon_options, replay_snapshot};

/// White hits whenever it can and otherwise runs; Black never hits and
/// leaves as many blots as it can, so it keeps getting sent back.
fn choose(m: &BgMatch, side: Side, dice: tabula_shared::backgammon::Dice) -> String {
    let position = m.position_for(side);
    let plays = position.legal_plays(dice);
    let best = plays.iter().max_by_key(|(play, after)| {
        let (mine, theirs) = after.pip_count();
        let score: i64 = match side {
            Side::White => i64::from(theirs) - i64::from(mine),
            Side::Black => {
                let blots = (1..=24).filter(|&p| after.checker(p) == 1).count() as i64;
                -i64::from(theirs) + 5 * blots
            }
        };
        (score, play.to_string())
    });
    best.map(|(play, _)| play.to_string()).unwrap_or_default()
}

async fn state(c: &mut Client, room: &str) -> (serde_json::Value, BgMatch) {
    let snap = c.request(json!({"type": "sync", "room_id": room})).await;
    let LiveGame::Backgammon(m) = replay_snapshot(&snap) else {
        panic!("not backgammon")
    };
    (snap, m)
}

#[tokio::test]
async fn pvp_backgammon_with_a_taken_double_and_a_gammon() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .try_init();
    let server = TestServer::start().await;
    let mut white = server.client("White").await;
    let mut black = server.client("Black").await;
    let (room, seat) = white
        .create(backgammon_options(json!({"kind": "human"}), "white", 0))
        .await;
    assert_eq!(seat, "first");
    black.join(&room, "player").await;
    white.event("game_started").await;

    let mut doubled = false;
    let mut result = None;
    for _turn in 0..2000 {
        let (snap, m) = state(&mut white, &room).await;
        if !snap["snapshot"]["result"].is_null() {
            result = Some(snap["snapshot"]["result"].clone());
            break;
        }
        let (side, action) = match *m.phase() {
            GamePhase::AwaitingRoll { side } => {
                if side == Side::White
                    && !doubled
                    && m.can_double(Side::White)
                    && m.game_number() == 1
                {
                    doubled = true;
                    (side, json!({"kind": "double"}))
                } else {
                    (side, json!({"kind": "roll"}))
                }
            }
            GamePhase::Moving { side, dice } => (
                side,
                json!({"kind": "play", "play": choose(&m, side, dice)}),
            ),
            GamePhase::CubeOffered { by } => (by.opponent(), json!({"kind": "take"})),
            ref other => panic!("unexpected phase {other:?}"),
        };
        let client = if side == Side::White {
            &mut white
        } else {
            &mut black
        };
        let reply = client.act(&room, action.clone()).await;
        assert_eq!(reply["type"], "event", "{action} -> {reply}");
    }
    let result = result.expect("the game ended");
    assert_eq!(result["winner"], "first", "{result}");
    let score = result["score"].as_array().expect("score");
    let white_points = score[0].as_u64().expect("points");
    assert!(
        white_points == 4 || white_points == 6,
        "a gammon (or backgammon) at cube 2: {result}"
    );

    // The record shows the double and the take, and every roll.
    let (snap, m) = state(&mut black, &room).await;
    let actions = snap["snapshot"]["record"]["actions"]
        .as_array()
        .expect("actions")
        .clone();
    assert!(
        actions
            .iter()
            .any(|a| a["kind"] == "double" && a["side"] == "white")
    );
    assert!(
        actions
            .iter()
            .any(|a| a["kind"] == "take" && a["side"] == "black")
    );
    assert_eq!(m.cube().value, 2);
    let game_over = black.event("game_over").await;
    assert_eq!(game_over["event"]["result"], result);
    server.stop().await;
}

/// A resignation is an offer: the opponent may refuse it and play on, or
/// accept it, and the game ends at the value offered.
#[tokio::test]
async fn a_resignation_can_be_refused_and_then_accepted() {
    let server = TestServer::start().await;
    let mut white = server.client("White").await;
    let mut black = server.client("Black").await;
    let mut eve = server.client("Eve").await;
    let (room, _) = white
        .create(backgammon_options(json!({"kind": "human"}), "white", 0))
        .await;
    black.join(&room, "player").await;
    eve.join(&room, "spectator").await;
    white.event("game_started").await;

    let offered = white
        .request(json!({"type": "resign", "room_id": room, "kind": "gammon"}))
        .await;
    assert_eq!(offered["type"], "ok", "{offered}");
    for c in [&mut black, &mut eve] {
        let made = c.event("offer_made").await;
        assert_eq!(
            made["event"]["offer"],
            json!({"kind": "resign", "by": "first", "value": "gammon"}),
            "{made}"
        );
    }
    // Black refuses: the game goes on.
    let refused = black
        .request(json!({"type": "answer", "room_id": room, "request": "resign", "accept": false}))
        .await;
    assert_eq!(refused["type"], "ok", "{refused}");
    white.event("offer_declined").await;
    let (snap, _) = state(&mut white, &room).await;
    assert!(snap["snapshot"]["result"].is_null(), "{snap}");
    assert_eq!(snap["snapshot"]["offers"], json!([]), "{snap}");
    // Nobody can accept a refused resignation.
    let late = black
        .request(json!({"type": "answer", "room_id": room, "request": "resign", "accept": true}))
        .await;
    assert_eq!(late["code"], "illegal_move", "{late}");

    // A single game this time, accepted: Black wins one point.
    white
        .request(json!({"type": "resign", "room_id": room, "kind": "single"}))
        .await;
    black.event("offer_made").await;
    let accepted = black
        .request(json!({"type": "answer", "room_id": room, "request": "resign", "accept": true}))
        .await;
    assert_eq!(accepted["type"], "ok", "{accepted}");
    for c in [&mut white, &mut black, &mut eve] {
        let over = c.event("game_over").await;
        let result = &over["event"]["result"];
        assert_eq!(result["winner"], "second", "{over}");
        assert_eq!(result["reason"], "resigned", "{over}");
        assert_eq!(result["score"], json!([0, 1]), "{over}");
    }
    server.stop().await;
}

/// A refused double says why, in words a player understands: here, a
/// 1-point match, where the cube is never turned.
#[tokio::test]
async fn a_refused_double_says_why() {
    let server = TestServer::start().await;
    let mut white = server.client("White").await;
    let mut black = server.client("Black").await;
    let (room, _) = white
        .create(backgammon_options(json!({"kind": "human"}), "white", 1))
        .await;
    black.join(&room, "player").await;
    white.event("game_started").await;
    // The opening roll's winner plays; then the side to roll asks for the cube.
    for _ in 0..100 {
        let (_, m) = state(&mut white, &room).await;
        if let GamePhase::Moving { side, .. } = *m.phase() {
            let play = m.legal_plays().first().map(ToString::to_string);
            let mover = if side == Side::White {
                &mut white
            } else {
                &mut black
            };
            mover
                .act(
                    &room,
                    json!({"kind": "play", "play": play.unwrap_or_default()}),
                )
                .await;
            continue;
        }
        let GamePhase::AwaitingRoll { side } = *m.phase() else {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            continue;
        };
        let doubler = if side == Side::White {
            &mut white
        } else {
            &mut black
        };
        let answer = doubler
            .request(json!({"type": "act", "room_id": room, "action": {"kind": "double"}}))
            .await;
        assert_eq!(answer["code"], "illegal_move", "{answer}");
        assert_eq!(
            answer["message"], "a 1-point match has no doubling",
            "{answer}"
        );
        server.stop().await;
        return;
    }
    panic!("nobody was ever to roll");
}
