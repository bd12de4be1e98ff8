//! Offers (draws, takebacks, rematches), resignations: each offer made is
//! told, and each that ends is told as ended.

use serde_json::json;

use super::bench::{Bench, place};

#[tokio::test]
async fn a_draw_accepted_ends_the_game_drawn() {
    let mut bench = Bench::new();
    let (mut black, mut white, room) = bench.gomoku(json!({})).await;
    black.act(&room, place(7, 7)).await;
    black
        .request(json!({"type": "offer_draw", "room_id": room}))
        .await;
    let offer = white.event("offer_made").await;
    assert_eq!(offer["event"]["offer"]["kind"], "draw", "{offer}");
    white
        .request(json!({"type": "answer", "room_id": room, "request": "draw", "accept": true}))
        .await;
    let over = black.event("game_over").await;
    assert_eq!(over["event"]["result"]["winner"], json!(null), "{over}");
}

#[tokio::test]
async fn a_declined_draw_is_told_as_declined_and_play_goes_on() {
    let mut bench = Bench::new();
    let (mut black, mut white, room) = bench.gomoku(json!({})).await;
    black.act(&room, place(7, 7)).await;
    black
        .request(json!({"type": "offer_draw", "room_id": room}))
        .await;
    white
        .request(json!({"type": "answer", "room_id": room, "request": "draw", "accept": false}))
        .await;
    let declined = black.event("offer_declined").await;
    assert_eq!(declined["event"]["offer"]["kind"], "draw", "{declined}");
    let answer = white.act(&room, place(8, 8)).await;
    assert_eq!(answer["event"]["kind"], "action", "{answer}");
}

#[tokio::test]
async fn a_move_ends_the_draw_offer_it_answers() {
    let mut bench = Bench::new();
    let (mut black, mut white, room) = bench.gomoku(json!({})).await;
    black.act(&room, place(7, 7)).await;
    black
        .request(json!({"type": "offer_draw", "room_id": room}))
        .await;
    // White plays on instead of answering: the offer is over, and told so.
    white.act(&room, place(8, 8)).await;
    let declined = black.event("offer_declined").await;
    assert_eq!(declined["event"]["offer"]["kind"], "draw", "{declined}");
    let snap = black.sync(&room).await;
    assert_eq!(snap["snapshot"]["offers"], json!([]), "{snap}");
}

#[tokio::test]
async fn a_takeback_accepted_takes_the_stone_back() {
    let mut bench = Bench::new();
    let (mut black, mut white, room) = bench.gomoku(json!({"takebacks": true})).await;
    black.act(&room, place(7, 7)).await;
    black
        .request(json!({"type": "request_takeback", "room_id": room}))
        .await;
    white.event("offer_made").await;
    white
        .request(json!({"type": "answer", "room_id": room, "request": "takeback", "accept": true}))
        .await;
    let took = black.event("took_back").await;
    assert_eq!(took["event"]["count"], 1, "{took}");
    assert_eq!(
        took["event"]["turn"]["seat"], "first",
        "black again: {took}"
    );
    let snap = white.sync(&room).await;
    assert_eq!(snap["snapshot"]["record"]["actions"], json!([]), "{snap}");
    // The point is free again.
    let again = black.act(&room, place(7, 7)).await;
    assert_eq!(again["event"]["kind"], "action", "{again}");
}

#[tokio::test]
async fn a_takeback_where_they_are_off_is_refused() {
    let mut bench = Bench::new();
    let (mut black, _white, room) = bench.gomoku(json!({"takebacks": false})).await;
    black.act(&room, place(7, 7)).await;
    let refused = black
        .request(json!({"type": "request_takeback", "room_id": room}))
        .await;
    assert_eq!(refused["type"], "error", "{refused}");
}

#[tokio::test]
async fn a_takeback_ends_the_draw_offer_pending() {
    let mut bench = Bench::new();
    let (mut black, mut white, room) = bench.gomoku(json!({"takebacks": true})).await;
    black.act(&room, place(7, 7)).await;
    white.act(&room, place(8, 8)).await;
    black
        .request(json!({"type": "offer_draw", "room_id": room}))
        .await;
    white
        .request(json!({"type": "request_takeback", "room_id": room}))
        .await;
    black
        .request(json!({"type": "answer", "room_id": room, "request": "takeback", "accept": true}))
        .await;
    let declined = white.event("offer_declined").await;
    assert_eq!(declined["event"]["offer"]["kind"], "draw", "{declined}");
    white.event("took_back").await;
    let refused = white
        .request(json!({"type": "answer", "room_id": room, "request": "draw", "accept": true}))
        .await;
    assert_eq!(
        refused["type"], "error",
        "the draw offer is gone: {refused}"
    );
}

#[tokio::test]
async fn resigning_gives_the_game_to_the_other_seat() {
    let mut bench = Bench::new();
    let (mut black, mut white, room) = bench.gomoku(json!({})).await;
    black.act(&room, place(7, 7)).await;
    white
        .request(json!({"type": "resign", "room_id": room}))
        .await;
    let over = black.event("game_over").await;
    assert_eq!(over["event"]["result"]["winner"], "first", "{over}");
    assert_eq!(over["event"]["result"]["reason"], "resigned", "{over}");
}

#[tokio::test]
async fn a_rematch_asked_by_both_starts_with_colours_swapped() {
    let mut bench = Bench::new();
    let (mut black, mut white, room) = bench.gomoku(json!({})).await;
    white
        .request(json!({"type": "resign", "room_id": room}))
        .await;
    black.event("game_over").await;
    black
        .request(json!({"type": "rematch", "room_id": room}))
        .await;
    white.event("offer_made").await;
    white
        .request(json!({"type": "rematch", "room_id": room}))
        .await;
    black.event("rematch_started").await;
    let snap = black.sync(&room).await;
    let seats = &snap["snapshot"]["summary"]["seats"];
    assert_eq!(seats[0]["player"]["name"], "White", "swapped: {seats}");
    assert_eq!(seats[1]["player"]["name"], "Black", "swapped: {seats}");
    assert_eq!(snap["snapshot"]["record"]["actions"], json!([]), "{snap}");
    // The former white moves first now.
    let answer = white.act(&room, place(7, 7)).await;
    assert_eq!(answer["event"]["kind"], "action", "{answer}");
}

#[tokio::test]
async fn answering_an_offer_nobody_made_is_refused() {
    let mut bench = Bench::new();
    let (_black, mut white, room) = bench.gomoku(json!({})).await;
    let refused = white
        .request(json!({"type": "answer", "room_id": room, "request": "draw", "accept": true}))
        .await;
    assert_eq!(refused["type"], "error", "{refused}");
    let snap = white.sync(&room).await;
    assert_eq!(snap["snapshot"]["result"], json!(null), "{snap}");
}
