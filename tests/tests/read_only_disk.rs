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
use tabula_tests::changes::{ChangeScript, STEPS_PER_GAME, play, seat_players};
use tabula_tests::loop_disk::LoopDisk;
use tabula_tests::{ChildServer, Client};

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
        let when = format!("round {round}");
        let (ada, bob, current) =
            seat_players(server.addr, script.take(), &mut tokens, &when).await;
        let mut newcomer = Client::connect(server.addr).await;
        let name = format!("Newcomer{round}");
        newcomer.hello(&name, None).await;
        welcomed.push((name, newcomer.token.clone()));

        // Changes as fast as the players can make them, until the disk fails.
        let steps = tokio::spawn(play(current, ada, bob, usize::MAX));
        tokio::time::sleep(Duration::from_millis(delay_ms)).await;
        disk.fail();
        let (current, refused) = steps.await.expect("the script task");
        assert_eq!(
            refused.as_deref(),
            Some("internal"),
            "step {}",
            current.done
        );
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
    let server = ChildServer::start(exe, disk.path(), None);
    let (_, _, script) = seat_players(server.addr, script, &mut tokens, "at the end").await;
    assert_eq!(refusals, 5);
    assert!(
        script.done >= STEPS_PER_GAME,
        "only {} steps were made: the test is too short to mean much",
        script.done
    );
    server.kill();
}
