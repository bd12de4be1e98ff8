//! A bounded kill -9 loop: two players move as fast as they can while the
//! server is killed with SIGKILL at an arbitrary moment, eight times. After
//! each restart the game holds every move that was acknowledged (and at most
//! the one that was in flight), and every player welcomed before the kill
//! still has their identity. A second loop does the same with every kind
//! of change a room saves (moves, offers and answers, takebacks,
//! resignations, rematches), through [`ChangeScript`].

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::json;
use tabula_tests::changes::{ChangeScript, STEPS_PER_GAME, play, seat_players};
use tabula_tests::{ChildServer, Client, gomoku_options, points_without_five};

#[tokio::test]
async fn acknowledged_moves_and_players_survive_a_kill_loop() {
    kill_loop(&[]).await;
}

/// The same loop with PostgreSQL as the store: a real PostgreSQL started
/// for the test; only the Tabula server is killed.
#[tokio::test]
async fn acknowledged_moves_and_players_survive_a_kill_loop_on_postgres() {
    let pg = tabula_test_postgres::TestPostgres::start();
    let url = pg.database();
    kill_loop(&["--database", &url]).await;
}

/// Kills the server (started with `args`) eight times at arbitrary moments
/// while two players move, and checks what each restart recovered.
async fn kill_loop(args: &[&str]) {
    let exe = env!("CARGO_BIN_EXE_tabula-test-server");
    let dir = tempfile::tempdir().expect("dir");
    let black = points_without_five([0, 1]);
    let white = points_without_five([2, 3]);
    let mut tokens: Vec<(String, String)> = Vec::new();
    let mut room = String::new();
    let mut acked = 0usize;
    let mut rng: u64 = 0x2545_F491_4F6C_DD1D;
    for round in 0..8 {
        let server = ChildServer::start_with_args(exe, dir.path(), args);
        // Everyone welcomed before a kill comes back.
        for (name, token) in &tokens {
            let mut back = Client::connect(server.addr).await;
            back.hello(name, Some(token)).await;
        }
        let mut ada = Client::connect(server.addr).await;
        let mut bob = Client::connect(server.addr).await;
        if round == 0 {
            ada.hello("Ada", None).await;
            bob.hello("Bob", None).await;
            tokens.push(("Ada".into(), ada.token.clone()));
            tokens.push(("Bob".into(), bob.token.clone()));
            room = ada
                .create(gomoku_options(json!({"kind": "human"}), "black"))
                .await
                .0;
            bob.join(&room, "player").await;
        } else {
            ada.hello("Ada", Some(&tokens[0].1)).await;
            bob.hello("Bob", Some(&tokens[1].1)).await;
            ada.join(&room, "player").await;
            bob.join(&room, "player").await;
            let held = ada.record_len(&room).await;
            assert!(
                held >= acked && held <= acked + 1,
                "round {round}: {acked} moves acknowledged, {held} recovered"
            );
            acked = held;
        }
        // A new player each round, welcomed before the kill.
        let mut newcomer = Client::connect(server.addr).await;
        let name = format!("Newcomer{round}");
        newcomer.hello(&name, None).await;
        tokens.push((name, newcomer.token.clone()));

        let done = Arc::new(AtomicUsize::new(0));
        let counted = done.clone();
        let (room_id, black, white) = (room.clone(), black.clone(), white.clone());
        let start = acked;
        let play = tokio::spawn(async move {
            for i in start..start + 20 {
                let (mover, stones) = if i % 2 == 0 {
                    (&mut ada, &black)
                } else {
                    (&mut bob, &white)
                };
                let place = json!({"kind": "place", "point": stones[i / 2]});
                match mover.try_act(&room_id, place).await {
                    Some(reply) if reply["type"] == "event" => {
                        counted.fetch_add(1, Ordering::SeqCst);
                    }
                    Some(reply) => panic!("move {i} refused: {reply}"),
                    None => return,
                }
            }
        });
        tokio::time::sleep(next_delay(&mut rng)).await;
        server.kill();
        play.await.expect("the player task");
        acked += done.load(Ordering::SeqCst);
    }
    let server = ChildServer::start_with_args(exe, dir.path(), args);
    let mut ada = Client::connect(server.addr).await;
    ada.hello("Ada", Some(&tokens[0].1)).await;
    ada.join(&room, "player").await;
    let held = ada.record_len(&room).await;
    assert!(
        held >= acked && held <= acked + 1,
        "{acked} acknowledged, {held} recovered"
    );
    assert!(acked > 8, "moves were made: {acked}");
}

/// A step of the xorshift generator the loops use for kill delays.
fn next_delay(rng: &mut u64) -> Duration {
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    Duration::from_millis(20 + *rng % 300)
}

#[tokio::test]
async fn every_kind_of_acknowledged_change_survives_a_kill_loop() {
    let exe = env!("CARGO_BIN_EXE_tabula-test-server");
    let dir = tempfile::tempdir().expect("dir");
    let mut rng: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut tokens = [String::new(), String::new()];
    let mut script: Option<ChangeScript> = None;
    for round in 0..12 {
        let server = ChildServer::start(exe, dir.path(), None);
        let when = format!("round {round}");
        let (ada, bob, current) =
            seat_players(server.addr, script.take(), &mut tokens, &when).await;
        let steps = tokio::spawn(play(current, ada, bob, 200));
        tokio::time::sleep(next_delay(&mut rng)).await;
        server.kill();
        let (current, refused) = steps.await.expect("the script task");
        assert_eq!(
            refused, None,
            "round {round}: step {} refused",
            current.done
        );
        script = Some(current);
    }
    let server = ChildServer::start(exe, dir.path(), None);
    let (_, _, script) = seat_players(server.addr, script, &mut tokens, "at the end").await;
    let done = script.done;
    // Every kind of step ran, several times over.
    assert!(
        done >= 2 * STEPS_PER_GAME,
        "only {done} steps were made: the loop is too short to mean much"
    );
}
