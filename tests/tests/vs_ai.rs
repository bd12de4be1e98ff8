//! A vs-AI game of each kind, played to the end over real sockets.

use serde_json::json;
use tabula_shared::backgammon::GamePhase;
use tabula_shared::game::LiveGame;
use tabula_shared::gomoku::Point;
use tabula_tests::{TestServer, backgammon_options, gomoku_options, replay_snapshot};

#[tokio::test]
async fn gomoku_against_each_ai_level_to_the_end() {
    let server = TestServer::start().await;
    for level in ["beginner", "casual", "intermediate", "advanced", "expert"] {
        let mut ada = server.client("Ada").await;
        let (room, seat) = ada
            .create(gomoku_options(
                json!({"kind": "ai", "level": level}),
                "black",
            ))
            .await;
        assert_eq!(seat, "first");
        let mut over = None;
        for _ in 0..300 {
            let snap = ada.request(json!({"type": "sync", "room_id": room})).await;
            if !snap["snapshot"]["result"].is_null() {
                over = Some(snap["snapshot"]["result"].clone());
                break;
            }
            let LiveGame::Gomoku(game) = replay_snapshot(&snap) else {
                panic!("not gomoku")
            };
            if game.to_act() != Some(tabula_shared::seat::Seat::First) {
                // The AI is thinking; its move arrives as an event.
                ada.event("action").await;
                continue;
            }
            // A naive human: the legal point closest to the centre, scanning rows.
            let size = game.size();
            let centre = i32::from(size / 2);
            let p = (0..size)
                .flat_map(|y| (0..size).map(move |x| Point { x, y }))
                .filter(|p| game.is_legal(tabula_shared::seat::Seat::First, *p).is_ok())
                .min_by_key(|p| (i32::from(p.x) - centre).abs() + (i32::from(p.y) - centre).abs())
                .expect("a legal point");
            let reply = ada.act(&room, json!({"kind": "place", "point": p})).await;
            assert_eq!(reply["type"], "event", "{reply}");
        }
        let result = over.expect("the game ended");
        // The naive human never beats the AI.
        assert_ne!(result["winner"], "first", "{level}: {result}");
        ada.close().await;
    }
    server.stop().await;
}

/// Ada, playing white, in a fresh 1-point match against the Beginner AI.
async fn white_against_the_beginner(server: &TestServer) -> (tabula_tests::Client, String) {
    let mut ada = server.client("Ada").await;
    let (room, _) = ada
        .create(backgammon_options(
            json!({"kind": "ai", "level": "beginner"}),
            "white",
            1,
        ))
        .await;
    (ada, room)
}

/// A racing human playing white: the play that leaves the fewest pips.
fn racing_play(
    m: &tabula_shared::backgammon::BgMatch,
    dice: tabula_shared::backgammon::Dice,
) -> String {
    m.position_for(tabula_shared::backgammon::Side::White)
        .legal_plays(dice)
        .into_iter()
        .min_by_key(|(play, after)| (after.pip_count().0, play.to_string()))
        .map(|(play, _)| play.to_string())
        .unwrap_or_default()
}

#[tokio::test]
async fn backgammon_against_the_ai_to_the_end() {
    let server = TestServer::start().await;
    let (mut ada, room) = white_against_the_beginner(&server).await;
    let mut result = None;
    for _ in 0..3000 {
        let snap = ada.request(json!({"type": "sync", "room_id": room})).await;
        if !snap["snapshot"]["result"].is_null() {
            result = Some(snap["snapshot"]["result"].clone());
            break;
        }
        let LiveGame::Backgammon(m) = replay_snapshot(&snap) else {
            panic!("not backgammon")
        };
        let mine = tabula_shared::backgammon::Side::White;
        let action = match *m.phase() {
            GamePhase::AwaitingRoll { side } if side == mine => json!({"kind": "roll"}),
            GamePhase::Moving { side, dice } if side == mine => {
                json!({"kind": "play", "play": racing_play(&m, dice)})
            }
            GamePhase::CubeOffered { by } if by != mine => json!({"kind": "take"}),
            _ => {
                ada.event("action").await;
                continue;
            }
        };
        let reply = ada.act(&room, action.clone()).await;
        assert_eq!(reply["type"], "event", "{action} -> {reply}");
    }
    let result = result.expect("the match ended");
    assert!(result["winner"] == "first" || result["winner"] == "second");
    server.stop().await;
}

#[tokio::test]
async fn a_rematch_after_resigning_while_the_ai_thinks_gets_its_moves() {
    let server = TestServer::start().await;
    let mut ada = server.client("Ada").await;
    let (room, _) = ada
        .create(gomoku_options(
            json!({"kind": "ai", "level": "expert"}),
            "black",
        ))
        .await;
    // Far-apart stones: no threat for the AI to answer.
    for (x, y) in [(0u8, 0u8), (14, 0)] {
        let reply = ada
            .act(&room, json!({"kind": "place", "point": {"x": x, "y": y}}))
            .await;
        assert_eq!(reply["type"], "event", "{reply}");
        ada.action_where(|a| a["seat"] == "second").await;
    }
    // A move and a resignation sent together: the room asks the AI for its
    // answer to the move, then takes the resignation while the AI thinks.
    ada.send(json!({"type": "act", "room_id": room, "action": {"kind": "place", "point": {"x": 0, "y": 14}}}))
        .await;
    ada.send(json!({"type": "resign", "room_id": room})).await;
    let over = ada.event("game_over").await;
    assert_eq!(over["event"]["result"]["reason"], "resigned", "{over}");
    // The AI always takes a rematch; colours swap, so the AI opens.
    let again = ada
        .request(json!({"type": "rematch", "room_id": room}))
        .await;
    assert_eq!(again["type"], "ok", "{again}");
    let started = ada.event("rematch_started").await["seq"].as_u64();
    let opening = ada
        .expect(|m| {
            m["type"] == "event" && m["event"]["kind"] == "action" && m["seq"].as_u64() > started
        })
        .await;
    assert_eq!(opening["event"]["action"]["seat"], "first", "{opening}");
    server.stop().await;
}

#[tokio::test]
async fn a_backgammon_takeback_deals_the_same_dice_again() {
    let server = TestServer::start().await;
    let (mut ada, room) = white_against_the_beginner(&server).await;
    let mine = tabula_shared::backgammon::Side::White;
    // Plays on (rolling, then the racing play) until Ada is to move, after
    // a play of hers: returns that snapshot's actions.
    async fn to_my_move(
        ada: &mut tabula_tests::Client,
        room: &str,
        mine: tabula_shared::backgammon::Side,
        after_a_play: bool,
    ) -> Vec<serde_json::Value> {
        for _ in 0..200 {
            let snap = ada.request(json!({"type": "sync", "room_id": room})).await;
            let actions = snap["snapshot"]["record"]["actions"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let played = actions
                .iter()
                .any(|a| a["kind"] == "play" && a["side"] == "white");
            let LiveGame::Backgammon(m) = replay_snapshot(&snap) else {
                panic!("not backgammon")
            };
            let action = match *m.phase() {
                GamePhase::AwaitingRoll { side } if side == mine => json!({"kind": "roll"}),
                GamePhase::Moving { side, .. } if side == mine && (played || !after_a_play) => {
                    return actions;
                }
                GamePhase::Moving { side, dice } if side == mine => {
                    json!({"kind": "play", "play": racing_play(&m, dice)})
                }
                _ => {
                    ada.event("action").await;
                    continue;
                }
            };
            let reply = ada.act(room, action.clone()).await;
            assert_eq!(reply["type"], "event", "{action} -> {reply}");
        }
        panic!("never Ada's move");
    }
    let rolls_after = |actions: &[serde_json::Value], from: usize| -> Vec<serde_json::Value> {
        actions[from..]
            .iter()
            .filter(|a| a["kind"] == "roll")
            .map(|a| a["dice"].clone())
            .collect()
    };
    let last_play = |actions: &[serde_json::Value]| {
        actions
            .iter()
            .rposition(|a| a["kind"] == "play" && a["side"] == "white")
            .expect("a play of Ada's")
    };
    let before = to_my_move(&mut ada, &room, mine, true).await;
    let cut = last_play(&before);
    let seen = rolls_after(&before, cut);
    assert_eq!(seen.len(), 2, "the AI's roll and Ada's: {before:?}");
    let took = ada
        .request(json!({"type": "request_takeback", "room_id": room}))
        .await;
    assert_eq!(took["type"], "ok", "{took}");
    ada.event("took_back").await;
    // Ada plays her move again: the AI and she get the same dice as before.
    let reply = ada
        .act(&room, json!({"kind": "play", "play": before[cut]["play"]}))
        .await;
    assert_eq!(reply["type"], "event", "{reply}");
    let after = to_my_move(&mut ada, &room, mine, false).await;
    assert_eq!(rolls_after(&after, cut), seen, "{after:?}");
    server.stop().await;
}

/// Against the AI a resignation is answered at once: at the start of a game
/// a single game is more than the AI expects to win, so it accepts.
#[tokio::test]
async fn the_ai_accepts_a_resignation_worth_more_than_playing_on() {
    let server = TestServer::start().await;
    let mut ada = server.client("Ada").await;
    let (room, _) = ada
        .create(backgammon_options(
            json!({"kind": "ai", "level": "expert"}),
            "white",
            0,
        ))
        .await;
    ada.event("game_started").await;
    let reply = ada
        .request(json!({"type": "resign", "room_id": room, "kind": "single"}))
        .await;
    assert_eq!(reply["type"], "ok", "{reply}");
    let made = ada.event("offer_made").await;
    assert_eq!(made["event"]["offer"]["kind"], "resign", "{made}");
    let over = ada.event("game_over").await;
    assert_eq!(over["event"]["result"]["winner"], "second", "{over}");
    assert_eq!(over["event"]["result"]["reason"], "resigned", "{over}");
    server.stop().await;
}
