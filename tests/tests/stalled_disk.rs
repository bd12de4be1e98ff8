//! A stalled disk (`fsfreeze` on a real ext4 file system): requests that
//! need a save are refused after the store's time-out instead of waiting
//! forever, and what was refused does not turn up later, when the disk
//! moves again and the server restarts.
//!
//! Mounting needs root (CI runs as root).

use std::time::{Duration, Instant};

use serde_json::json;
use tabula_tests::changes::RoomState;
use tabula_tests::loop_disk::LoopDisk;
use tabula_tests::{ChildServer, Client, point, pvp_gomoku_at};

#[tokio::test]
async fn a_save_that_timed_out_does_not_land_later() {
    let exe = env!("CARGO_BIN_EXE_tabula-test-server");
    let disk = LoopDisk::mount();
    let args = ["--store-timeout-ms", "1500"];
    let server = ChildServer::start_with_args(exe, disk.path(), &args);
    let (mut ada, mut bob, room) = pvp_gomoku_at(server.addr, "Ada", "Bob").await;
    let place = |x, y| json!({"kind": "place", "point": point(x, y)});
    assert_eq!(ada.act(&room, place(7, 7)).await["type"], "event");
    assert_eq!(bob.act(&room, place(8, 8)).await["type"], "event");

    disk.freeze();
    let asked = Instant::now();
    let moved = ada.act(&room, place(9, 9)).await;
    assert_eq!(moved["type"], "error", "{moved}");
    assert_eq!(moved["code"], "internal", "{moved}");
    let waited = asked.elapsed();
    assert!(
        waited >= Duration::from_millis(1400) && waited < Duration::from_secs(10),
        "refused after {waited:?}"
    );
    let offered = ada
        .request(json!({"type": "offer_draw", "room_id": room}))
        .await;
    assert_eq!(offered["code"], "internal", "{offered}");
    disk.thaw();

    // Once the disk moves, a new player's save goes through, and the store
    // writes in order, so whatever was queued before it is settled.
    let mut carol = Client::connect(server.addr).await;
    carol.hello("Carol", None).await;
    server.kill();

    let server = ChildServer::start_with_args(exe, disk.path(), &args);
    let mut ada_again = Client::connect(server.addr).await;
    ada_again.hello("Ada", Some(&ada.token)).await;
    ada_again.join(&room, "player").await;
    let sync = ada_again
        .request(json!({"type": "sync", "room_id": room}))
        .await;
    let state = RoomState::of_snapshot(&sync);
    assert_eq!(state.actions, 2, "the refused move came back: {sync}");
    assert!(
        state.offers.is_empty(),
        "the refused offer came back: {sync}"
    );
    // Carol, welcomed after the thaw, is known.
    let mut carol_again = Client::connect(server.addr).await;
    let back = carol_again.hello("Carol", Some(&carol.token)).await;
    assert_eq!(back["type"], "welcome", "{back}");
    server.kill();
}
