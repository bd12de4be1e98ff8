//! Seats and members: the free seat taken, spectators counted, a dropped
//! player's grace period and the win claimed after it, the chat.

use std::time::Duration;

use serde_json::json;

use super::bench::{Bench, gomoku_options};

#[tokio::test]
async fn the_second_player_takes_the_free_seat_and_the_game_starts() {
    let mut bench = Bench::new();
    let mut ada = bench.member("Ada");
    let mut bob = bench.member("Bob");
    let room = bench
        .create(&mut ada, gomoku_options(json!({"kind": "human"}), "black"))
        .await;
    let joined = bob
        .request(json!({"type": "join_room", "room_id": room, "role": "player"}))
        .await;
    assert_eq!(joined["type"], "joined", "{joined}");
    assert_eq!(joined["seat"], "second", "{joined}");
    let taken = ada.event("seat_taken").await;
    assert_eq!(taken["event"]["player"]["name"], "Bob", "{taken}");
    let started = ada.event("game_started").await;
    assert_eq!(started["event"]["turn"]["seat"], "first", "{started}");
}

#[tokio::test]
async fn a_third_player_watches_and_the_count_is_told() {
    let mut bench = Bench::new();
    let (mut black, _white, room) = bench.gomoku(json!({})).await;
    let mut eve = bench.member("Eve");
    let joined = eve
        .request(json!({"type": "join_room", "room_id": room, "role": "player"}))
        .await;
    // Both seats are taken: a player's join is refused or turned into
    // watching, never a third seat.
    assert!(
        joined["type"] == "error" || joined["role"] == "spectator",
        "{joined}"
    );
    eve.request(json!({"type": "join_room", "room_id": room, "role": "spectator"}))
        .await;
    let count = black
        .expect(|f| f["event"]["kind"] == "spectators" && f["event"]["count"] == 1)
        .await;
    assert_eq!(count["event"]["count"], 1);
}

#[tokio::test]
async fn a_dropped_player_is_told_with_the_grace_period() {
    let mut bench = Bench::new();
    let (black, mut white, room) = bench.gomoku(json!({})).await;
    black.disconnect(&room).await;
    let dropped = white.event("player_disconnected").await;
    assert_eq!(dropped["event"]["seat"], "first", "{dropped}");
    assert_eq!(dropped["event"]["grace_ms"], 2000, "{dropped}");
}

#[tokio::test]
async fn the_win_is_claimed_only_after_the_grace_period() {
    let mut bench = Bench::with(|c| c.grace = Duration::from_millis(300));
    let (black, mut white, room) = bench.gomoku(json!({})).await;
    black.disconnect(&room).await;
    white.event("player_disconnected").await;
    let early = white
        .request(json!({"type": "claim_win", "room_id": room}))
        .await;
    assert_eq!(early["type"], "error", "too early: {early}");
    tokio::time::sleep(Duration::from_millis(400)).await;
    let claimed = white
        .request(json!({"type": "claim_win", "room_id": room}))
        .await;
    assert_eq!(claimed["type"], "ok", "{claimed}");
    let over = white.event("game_over").await;
    assert_eq!(over["event"]["result"]["winner"], "second", "{over}");
}

#[tokio::test]
async fn a_player_back_within_the_grace_period_is_told_as_connected() {
    let mut bench = Bench::new();
    let (mut black, mut white, room) = bench.gomoku(json!({})).await;
    black.disconnect(&room).await;
    white.event("player_disconnected").await;
    let joined = black
        .request(json!({"type": "join_room", "room_id": room, "role": "player"}))
        .await;
    assert_eq!(joined["seat"], "first", "the seat is kept: {joined}");
    let back = white.event("player_connected").await;
    assert_eq!(back["event"]["seat"], "first", "{back}");
}

#[tokio::test]
async fn chat_reaches_the_players_and_the_spectators() {
    let mut bench = Bench::new();
    let (mut black, mut white, room) = bench.gomoku(json!({})).await;
    let mut eve = bench.member("Eve");
    eve.request(json!({"type": "join_room", "room_id": room, "role": "spectator"}))
        .await;
    black
        .request(json!({"type": "chat", "room_id": room, "text": "good luck"}))
        .await;
    for member in [&mut white, &mut eve] {
        let line = member.event("chat").await;
        assert_eq!(line["event"]["line"]["text"], "good luck", "{line}");
        assert_eq!(line["event"]["line"]["from"], "Black", "{line}");
    }
}

#[tokio::test]
async fn muted_spectators_cannot_chat() {
    let mut bench = Bench::new();
    let (mut black, _white, room) = bench.gomoku(json!({})).await;
    let mut eve = bench.member("Eve");
    eve.request(json!({"type": "join_room", "room_id": room, "role": "spectator"}))
        .await;
    black
        .request(json!({"type": "mute_spectators", "room_id": room, "muted": true}))
        .await;
    eve.event("spectators_muted").await;
    let refused = eve
        .request(json!({"type": "chat", "room_id": room, "text": "hi"}))
        .await;
    assert_eq!(refused["type"], "error", "{refused}");
}
