//! Moves: told to everyone with the next turn, refused when out of turn or
//! against the rules (and then nothing changes), numbered once, and the end
//! of the game.

use serde_json::json;

use super::bench::{Bench, backgammon_options, place};

#[tokio::test]
async fn a_stone_is_told_to_both_players_with_the_next_turn() {
    let mut bench = Bench::new();
    let (mut black, mut white, room) = bench.gomoku(json!({})).await;
    let answer = black.act(&room, place(7, 7)).await;
    assert_eq!(answer["event"]["kind"], "action", "{answer}");
    assert_eq!(answer["event"]["action"]["point"], json!({"x": 7, "y": 7}));
    assert_eq!(answer["event"]["turn"]["seat"], "second");
    let told = white.event("action").await;
    assert_eq!(told["seq"], answer["seq"], "one event, one number");
    assert_eq!(told["event"]["action"], answer["event"]["action"]);
}

#[tokio::test]
async fn a_stone_out_of_turn_is_refused_and_changes_nothing() {
    let mut bench = Bench::new();
    let (_black, mut white, room) = bench.gomoku(json!({})).await;
    let refused = white.act(&room, place(7, 7)).await;
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["code"], "not_your_turn");
    let snap = white.sync(&room).await;
    assert_eq!(snap["snapshot"]["record"]["actions"], json!([]), "{snap}");
}

#[tokio::test]
async fn a_stone_on_a_taken_point_is_refused() {
    let mut bench = Bench::new();
    let (mut black, mut white, room) = bench.gomoku(json!({})).await;
    black.act(&room, place(7, 7)).await;
    let refused = white.act(&room, place(7, 7)).await;
    assert_eq!(refused["code"], "illegal_move", "{refused}");
    // White may still play elsewhere: the refusal cost nothing.
    let answer = white.act(&room, place(8, 8)).await;
    assert_eq!(answer["event"]["kind"], "action", "{answer}");
}

#[tokio::test]
async fn five_in_a_row_ends_the_game_with_its_line() {
    let mut bench = Bench::new();
    let (mut black, mut white, room) = bench.gomoku(json!({})).await;
    for x in 0..4 {
        black.act(&room, place(x, 7)).await;
        white.act(&room, place(x, 9)).await;
    }
    black.act(&room, place(4, 7)).await;
    let over = white.event("game_over").await;
    let result = &over["event"]["result"];
    assert_eq!(result["winner"], "first", "{over}");
    assert_eq!(result["reason"], "rules");
    assert_eq!(result["line"].as_array().map(Vec::len), Some(5), "{over}");
    assert!(over["event"]["game_id"].is_string(), "saved: {over}");
    let late = white.act(&room, place(10, 10)).await;
    assert_eq!(late["type"], "error", "no move after the end: {late}");
}

#[tokio::test]
async fn a_spectator_cannot_move() {
    let mut bench = Bench::new();
    let (_black, _white, room) = bench.gomoku(json!({})).await;
    let mut eve = bench.member("Eve");
    let joined = eve
        .request(json!({"type": "join_room", "room_id": room, "role": "spectator"}))
        .await;
    assert_eq!(joined["type"], "joined", "{joined}");
    let refused = eve.act(&room, place(7, 7)).await;
    assert_eq!(refused["type"], "error", "{refused}");
}

#[tokio::test]
async fn every_event_is_numbered_once_and_in_order() {
    let mut bench = Bench::new();
    let (mut black, mut white, room) = bench.gomoku(json!({})).await;
    for x in 0..4 {
        black.act(&room, place(x, 3)).await;
        white.act(&room, place(x, 5)).await;
    }
    black
        .request(json!({"type": "chat", "room_id": room, "text": "nice"}))
        .await;
    black.act(&room, place(4, 3)).await;
    white.event("game_over").await;
    let seqs: Vec<u64> = white
        .all()
        .iter()
        .filter(|f| f["type"] == "event")
        .filter_map(|f| f["seq"].as_u64())
        .collect();
    assert!(seqs.len() >= 11, "{seqs:?}");
    for pair in seqs.windows(2) {
        assert_eq!(pair[1], pair[0] + 1, "gapless and once each: {seqs:?}");
    }
    let snap = white.sync(&room).await;
    assert_eq!(snap["snapshot"]["seq"].as_u64(), seqs.last().copied());
}

#[tokio::test]
async fn the_snapshot_holds_every_action_told() {
    let mut bench = Bench::new();
    let (mut black, mut white, room) = bench.gomoku(json!({})).await;
    black.act(&room, place(7, 7)).await;
    white.act(&room, place(8, 8)).await;
    black.act(&room, place(6, 6)).await;
    let snap = white.sync(&room).await;
    let actions = snap["snapshot"]["record"]["actions"]
        .as_array()
        .expect("actions");
    assert_eq!(actions.len(), 3, "{snap}");
    assert_eq!(actions[2]["point"], json!({"x": 6, "y": 6}));
    assert_eq!(snap["snapshot"]["turn"]["seat"], "second", "{snap}");
}

#[tokio::test]
async fn a_backgammon_match_opens_with_the_opening_roll() {
    let mut bench = Bench::new();
    let mut white = bench.member("White");
    let mut black = bench.member("Black");
    let room = bench
        .create(
            &mut white,
            backgammon_options(json!({"kind": "human"}), "white", 3),
        )
        .await;
    black
        .request(json!({"type": "join_room", "room_id": room, "role": "player"}))
        .await;
    black.event("game_started").await;
    let opening = black
        .expect(|f| {
            f["event"]["kind"] == "action" && f["event"]["action"]["kind"] == "opening_roll"
        })
        .await;
    let action = &opening["event"]["action"];
    let (w, b) = (action["white"].as_u64(), action["black"].as_u64());
    assert!(w.is_some() && b.is_some() && w != b, "{opening}");
    // The higher die moves first, with both dice.
    let first = if w > b { "first" } else { "second" };
    assert_eq!(opening["event"]["turn"]["seat"], first, "{opening}");
    assert_eq!(opening["event"]["turn"]["expect"], "play", "{opening}");
}

#[tokio::test]
async fn a_backgammon_play_against_the_rules_is_refused() {
    let mut bench = Bench::new();
    let mut white = bench.member("White");
    let mut black = bench.member("Black");
    let room = bench
        .create(
            &mut white,
            backgammon_options(json!({"kind": "human"}), "white", 3),
        )
        .await;
    black
        .request(json!({"type": "join_room", "room_id": room, "role": "player"}))
        .await;
    let opening = white
        .expect(|f| {
            f["event"]["kind"] == "action" && f["event"]["action"]["kind"] == "opening_roll"
        })
        .await;
    let mover = if opening["event"]["turn"]["seat"] == "first" {
        &mut white
    } else {
        &mut black
    };
    // Six checkers' worth of pips from one die: never legal.
    let refused = mover
        .act(&room, json!({"kind": "play", "play": "24/1"}))
        .await;
    assert_eq!(refused["code"], "illegal_move", "{refused}");
    let snap = mover.sync(&room).await;
    let actions = snap["snapshot"]["record"]["actions"]
        .as_array()
        .expect("actions");
    assert_eq!(actions.len(), 1, "only the opening roll: {snap}");
}
