//! A disk that fails under the server: a real ext4 file system (a loop
//! device) turned read-only by a forced error, at an arbitrary moment while
//! two players make every kind of change as fast as they can (moves,
//! offers and answers, takebacks, resignations, rematches) and new players
//! arrive. Whatever was acknowledged before the failure was synced, so it
//! is there after the disk is mounted again and the server restarts, and
//! nothing else is, except perhaps the one change whose commit failed: a
//! failed `fsync` does not say whether the data reached the disk (the
//! requester was refused, nobody else was told, and the restart shows it
//! if it did).
//!
//! Mounting needs root (CI runs as root).

use std::time::Duration;

use serde_json::json;
use tabula_tests::changes::{ChangeScript, RoomState, STEPS_PER_GAME};
use tabula_tests::loop_disk::LoopDisk;
use tabula_tests::{ChildServer, Client, gomoku_options};

#[tokio::test]
async fn on_a_disk_turned_read_only_every_acknowledged_change_is_kept() {
    let exe = env!("CARGO_BIN_EXE_tabula-test-server");
    let disk = LoopDisk::mount();
    let mut tokens = [String::new(), String::new()];
    let mut welcomed: Vec<(String, String)> = Vec::new();
    let mut script: Option<ChangeScript> = None;
    let mut refusals = 0;
    for (round, delay_ms) in [150u64, 400, 60, 700, 250].into_iter().enumerate() {
        let server = ChildServer::start(exe, disk.path(), None);
        for (name, token) in &welcomed {
            let mut back = Client::connect(server.addr).await;
            let reply = back.hello(name, Some(token)).await;
            assert_eq!(reply["type"], "welcome", "round {round}: {name}: {reply}");
        }
        let mut ada = Client::connect(server.addr).await;
        let mut bob = Client::connect(server.addr).await;
        let mut current = match script.take() {
            None => {
                ada.hello("Ada", None).await;
                bob.hello("Bob", None).await;
                tokens = [ada.token.clone(), bob.token.clone()];
                let (room, _) = ada
                    .create(gomoku_options(json!({"kind": "human"}), "black"))
                    .await;
                bob.join(&room, "player").await;
                ChangeScript::new(&room, "Ada", "Bob")
            }
            Some(mut s) => {
                ada.hello("Ada", Some(&tokens[0])).await;
                bob.hello("Bob", Some(&tokens[1])).await;
                ada.join(&s.room, "player").await;
                bob.join(&s.room, "player").await;
                let sync = ada
                    .request(json!({"type": "sync", "room_id": s.room}))
                    .await;
                let state = RoomState::of_snapshot(&sync);
                s.done = s.recovered(&state).unwrap_or_else(|| {
                    panic!(
                        "round {round}: after {} acknowledged steps ({:?}) came back {state:?}",
                        s.done,
                        s.state_after(s.done)
                    )
                });
                s
            }
        };
        let mut newcomer = Client::connect(server.addr).await;
        let name = format!("Newcomer{round}");
        newcomer.hello(&name, None).await;
        welcomed.push((name, newcomer.token.clone()));

        // Changes as fast as the players can make them, until the disk fails.
        let play = tokio::spawn(async move {
            let mut refusal = String::new();
            loop {
                let mover = if current.mover(current.done) == "Ada" {
                    &mut ada
                } else {
                    &mut bob
                };
                match current.next(mover, &mut refusal).await {
                    Some(true) => {}
                    Some(false) => {
                        assert_eq!(refusal, "internal", "step {}", current.done);
                        return current;
                    }
                    None => panic!("the server went away"),
                }
            }
        });
        tokio::time::sleep(Duration::from_millis(delay_ms)).await;
        disk.fail();
        let current = play.await.expect("the script task");
        refusals += 1;
        // A player arriving now gets no identity a restart would not know.
        let mut late = Client::connect(server.addr).await;
        let reply = late
            .request(json!({"type": "hello", "protocol": 1, "name": "Late"}))
            .await;
        assert_eq!(reply["code"], "internal", "{reply}");
        server.kill();
        disk.remount();
        script = Some(current);
    }
    let script = script.expect("the script");
    let server = ChildServer::start(exe, disk.path(), None);
    let mut ada = Client::connect(server.addr).await;
    ada.hello("Ada", Some(&tokens[0])).await;
    ada.join(&script.room, "player").await;
    let sync = ada
        .request(json!({"type": "sync", "room_id": script.room}))
        .await;
    let state = RoomState::of_snapshot(&sync);
    assert!(
        script.recovered(&state).is_some(),
        "after {} acknowledged steps ({:?}) came back {state:?}",
        script.done,
        script.state_after(script.done)
    );
    assert_eq!(refusals, 5);
    assert!(
        script.done >= STEPS_PER_GAME,
        "only {} steps were made: the test is too short to mean much",
        script.done
    );
    server.kill();
}
