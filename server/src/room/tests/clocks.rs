//! The clock: the player who moved is charged, and a flag falls.

use std::time::Duration;

use serde_json::json;

use super::bench::{Bench, place};

#[tokio::test]
async fn the_clock_charges_the_player_who_moved() {
    let mut bench = Bench::new();
    let clock = json!({"time_control": {"initial_secs": 60, "increment_secs": 0}});
    let (mut black, _white, room) = bench.gomoku(clock).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let answer = black.act(&room, place(7, 7)).await;
    let clock = &answer["event"]["clock"];
    let left = |i: usize| clock["remaining_ms"][i].as_u64().expect("ms");
    assert!(left(0) <= 59_700, "black's thinking time charged: {clock}");
    assert_eq!(left(1), 60_000, "white's clock untouched: {clock}");
    assert_eq!(clock["running"], "second", "{clock}");
}

#[tokio::test]
async fn a_player_out_of_time_loses_on_time() {
    let mut bench = Bench::new();
    let clock = json!({"time_control": {"initial_secs": 1, "increment_secs": 0}});
    let (mut black, mut white, room) = bench.gomoku(clock).await;
    black.act(&room, place(7, 7)).await;
    // White lets the second run out.
    let over = white.event("game_over").await;
    assert_eq!(over["event"]["result"]["winner"], "first", "{over}");
    assert_eq!(over["event"]["result"]["reason"], "timeout", "{over}");
    let late = white.act(&room, place(8, 8)).await;
    assert_eq!(late["type"], "error", "{late}");
}
