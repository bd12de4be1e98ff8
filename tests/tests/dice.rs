//! Verifiable dice over real sockets: the commitment before the first roll,
//! the players' seeds, the reveal at the end, every roll of the stored record
//! recomputed from it (across a kill -9 too), and the dice statistics.

use std::time::Duration;

use serde_json::{Value, json};
use tabula_shared::backgammon::{BgMatch, Dice, GamePhase, Side};
use tabula_shared::fair_dice::{DiceProof, DiceStats, ServerSeed, VerifyError, verify};
use tabula_shared::game::LiveGame;
use tabula_shared::protocol::{BgAction, DiceStatsReport, GameRecord};
use tabula_tests::{
    ChildServer, Client, TestServer, backgammon_options, gomoku_options, replay_snapshot,
    test_config,
};

/// A server whose opening rolls wait up to a minute for the players' seeds
/// (the harness's default is not to wait).
async fn waiting_server() -> (TestServer, tempfile::TempDir) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let config = tabula_server::Config {
        dice_seed_wait: Duration::from_secs(60),
        ..test_config(tmp.path())
    };
    (TestServer::start_with(config).await, tmp)
}

/// `name`, playing white, in a fresh 1-point match against the Beginner AI.
async fn white_against_the_ai(client: &mut Client) -> String {
    let (room, seat) = client
        .create(backgammon_options(
            json!({"kind": "ai", "level": "beginner"}),
            "white",
            1,
        ))
        .await;
    assert_eq!(seat, "first");
    room
}

/// The play that leaves White the fewest pips.
fn racing_play(m: &BgMatch, dice: Dice) -> String {
    m.position_for(Side::White)
        .legal_plays(dice)
        .into_iter()
        .min_by_key(|(play, after)| (after.pip_count().0, play.to_string()))
        .map(|(play, _)| play.to_string())
        .unwrap_or_default()
}

/// The room's record, from a `sync`.
async fn record(client: &mut Client, room: &str) -> GameRecord {
    let snap = client
        .request_patiently(json!({"type": "sync", "room_id": room}))
        .await;
    serde_json::from_value(snap["snapshot"]["record"].clone()).expect("record decodes")
}

/// Sends a request, waiting and sending it again while the server's rate
/// limit refuses it (the child-process server keeps the default limit).
/// Plays White against the AI until the match is over (true) or `limit`
/// of White's actions have been sent (false).
async fn play_white(client: &mut Client, room: &str, limit: usize) -> bool {
    let mut sent = 0;
    for _ in 0..3000 {
        let snap = client
            .request_patiently(json!({"type": "sync", "room_id": room}))
            .await;
        assert_eq!(snap["type"], "snapshot", "{snap}");
        if !snap["snapshot"]["result"].is_null() {
            return true;
        }
        if sent == limit {
            return false;
        }
        let LiveGame::Backgammon(m) = replay_snapshot(&snap) else {
            panic!("not backgammon")
        };
        let action = match *m.phase() {
            GamePhase::AwaitingRoll { side: Side::White } => json!({"kind": "roll"}),
            GamePhase::Moving {
                side: Side::White,
                dice,
            } => {
                json!({"kind": "play", "play": racing_play(&m, dice)})
            }
            GamePhase::CubeOffered { by } if by != Side::White => json!({"kind": "take"}),
            _ => {
                client.event("action").await;
                continue;
            }
        };
        let request = json!({"type": "act", "room_id": room, "action": action});
        let reply = client.request_patiently(request).await;
        assert_eq!(reply["type"], "event", "{action} -> {reply}");
        sent += 1;
    }
    panic!("the match did not end");
}

/// The finished game `game_id`'s record, from `get_game`.
async fn stored_record(client: &mut Client, game_id: &str) -> GameRecord {
    let game = client
        .request_patiently(json!({"type": "get_game", "game_id": game_id}))
        .await;
    assert_eq!(game["type"], "game", "{game}");
    serde_json::from_value(game["game"]["record"].clone()).expect("record decodes")
}

#[tokio::test]
async fn a_match_with_a_player_seed_reveals_dice_that_verify_and_count() {
    let (server, _tmp) = waiting_server().await;
    let mut ada = server.client("Ada").await;
    let room = white_against_the_ai(&mut ada).await;

    // The commitment is out before the first roll; the seed is not.
    let before = record(&mut ada, &room).await;
    let proof = before.dice().cloned().expect("a proof from the start");
    assert!(!proof.is_revealed());
    assert!(proof.test_seed, "the harness runs with --dice-seed");
    assert_eq!(proof.commitment.len(), 64);
    assert_eq!(
        before.len(),
        0,
        "the opening roll waits for Ada's seed: {before:?}"
    );

    // A seed with a space is refused; a good one is taken and told.
    let bad = ada
        .request_patiently(json!({"type": "dice_seed", "room_id": room, "seed": "two words"}))
        .await;
    assert_eq!(bad["code"], "bad_request", "{bad}");
    let ok = ada
        .request_patiently(json!({"type": "dice_seed", "room_id": room, "seed": "ada-lucky-7"}))
        .await;
    assert_eq!(ok["type"], "ok", "{ok}");
    let told = ada.event("dice_seed").await;
    assert_eq!(told["event"]["seat"], "first");
    assert_eq!(told["event"]["seed"], "ada-lucky-7");
    // With every human's seed in, the opening roll follows at once.
    ada.action_where(|a| a["kind"] == "opening_roll").await;

    assert!(play_white(&mut ada, &room, usize::MAX).await);
    let over = ada.event("game_over").await;
    let revealed: DiceProof =
        serde_json::from_value(over["event"]["dice"].clone()).expect("game_over has the proof");
    assert_eq!(revealed.commitment, proof.commitment);
    assert_eq!(
        revealed.player_seeds,
        ["ada-lucky-7".to_string(), String::new()]
    );
    let seed = revealed.server_seed.clone().expect("revealed");
    // Its SHA-256 is the commitment published before the first roll.
    let seed = ServerSeed::from_hex(&seed).expect("64 hex digits");
    assert_eq!(seed.commitment(), proof.commitment);

    // Every roll of the stored record recomputes from the revealed seeds.
    let game_id = over["event"]["game_id"].as_str().expect("game id");
    let stored = stored_record(&mut ada, game_id).await;
    assert_eq!(stored.dice(), Some(&revealed), "the stored record keeps it");
    let actions = stored.bg_actions().expect("backgammon").to_vec();
    let rolls = verify(&actions, &revealed).expect("every roll verifies");
    assert!(rolls >= 2, "{rolls} rolls");
    // A record with one roll changed fails, naming that roll.
    let mut changed = actions.clone();
    let (index, dice) = changed
        .iter_mut()
        .enumerate()
        .rev()
        .find_map(|(i, a)| match a {
            BgAction::Roll { dice, .. } => Some((i, dice)),
            _ => None,
        })
        .expect("a roll");
    dice[0] = dice[0] % 6 + 1;
    assert!(
        matches!(verify(&changed, &revealed), Err(VerifyError::RollMismatch { index: i, .. }) if i == index)
    );

    // The statistics count this game's dice: all of them, and Ada's side.
    let by_side = DiceStats::by_side(&actions);
    let mut all = by_side[0].clone();
    all.merge(&by_side[1]);
    let stats = ada.request_patiently(json!({"type": "dice_stats"})).await;
    assert_eq!(stats["type"], "dice_stats", "{stats}");
    let report: DiceStatsReport =
        serde_json::from_value(stats["report"].clone()).expect("report decodes");
    assert_eq!(report.games, 1);
    assert_eq!(report.all, all);
    assert_eq!(report.yours, by_side[Side::White.index()]);
    assert_eq!(
        report.all.roll_count(),
        report.all.rolls.iter().sum::<u64>()
    );
    // Someone who never played sees the same totals and nothing of theirs.
    let mut bob = server.client("Bob").await;
    let stats = bob.request_patiently(json!({"type": "dice_stats"})).await;
    let report: DiceStatsReport =
        serde_json::from_value(stats["report"].clone()).expect("report decodes");
    assert_eq!(report.all, all);
    assert_eq!(report.yours, DiceStats::default());

    // A rematch is a new match: a new commitment, nothing revealed, no seeds.
    let again = ada
        .request_patiently(json!({"type": "rematch", "room_id": room}))
        .await;
    assert_eq!(again["type"], "ok", "{again}");
    ada.event("rematch_started").await;
    let next = record(&mut ada, &room).await;
    let next_proof = next.dice().expect("a new proof");
    assert_ne!(next_proof.commitment, proof.commitment);
    assert!(!next_proof.is_revealed());
    assert_eq!(next_proof.player_seeds, [String::new(), String::new()]);
    server.stop().await;
}

#[tokio::test]
async fn a_dice_seed_after_the_first_roll_or_outside_backgammon_is_refused() {
    // The harness's server does not wait: the opening roll is out at once.
    let server = TestServer::start().await;
    let mut ada = server.client("Ada").await;
    let room = white_against_the_ai(&mut ada).await;
    ada.action_where(|a| a["kind"] == "opening_roll").await;
    let late = ada
        .request_patiently(json!({"type": "dice_seed", "room_id": room, "seed": "too-late"}))
        .await;
    assert_eq!(late["type"], "error", "{late}");
    assert_eq!(late["code"], "illegal_move", "{late}");
    let proof = record(&mut ada, &room)
        .await
        .dice()
        .cloned()
        .expect("proof");
    assert_eq!(proof.player_seeds, [String::new(), String::new()]);

    let (gomoku, _) = ada
        .create(gomoku_options(
            json!({"kind": "ai", "level": "beginner"}),
            "black",
        ))
        .await;
    let refused = ada
        .request_patiently(json!({"type": "dice_seed", "room_id": gomoku, "seed": "x"}))
        .await;
    assert_eq!(refused["code"], "illegal_move", "{refused}");
    server.stop().await;
}

#[tokio::test]
async fn a_spectator_cannot_send_a_dice_seed() {
    let (server, _tmp) = waiting_server().await;
    let mut ada = server.client("Ada").await;
    let mut bob = server.client("Bob").await;
    let mut eve = server.client("Eve").await;
    let (room, _) = ada
        .create(backgammon_options(json!({"kind": "human"}), "white", 1))
        .await;
    bob.join(&room, "player").await;
    let outsider = eve
        .request_patiently(json!({"type": "dice_seed", "room_id": room, "seed": "eve"}))
        .await;
    assert_eq!(outsider["code"], "not_in_room", "{outsider}");
    eve.join(&room, "spectator").await;
    let refused = eve
        .request_patiently(json!({"type": "dice_seed", "room_id": room, "seed": "eve"}))
        .await;
    assert_eq!(refused["code"], "forbidden", "{refused}");
    // Both players' seeds go in, and each is told to everyone.
    for (client, seed) in [(&mut ada, "ada-1"), (&mut bob, "bob-2")] {
        let ok = client
            .request_patiently(json!({"type": "dice_seed", "room_id": room, "seed": seed}))
            .await;
        assert_eq!(ok["type"], "ok", "{ok}");
    }
    eve.action_where(|a| a["kind"] == "opening_roll").await;
    let proof = record(&mut eve, &room)
        .await
        .dice()
        .cloned()
        .expect("proof");
    assert_eq!(proof.player_seeds, ["ada-1".to_string(), "bob-2".into()]);
    assert!(
        !proof.is_revealed(),
        "a spectator never sees the seed early"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_match_that_survives_a_kill_keeps_its_committed_dice() {
    let exe = env!("CARGO_BIN_EXE_tabula-test-server");
    let dir = tempfile::tempdir().expect("dir");
    let server = ChildServer::start(exe, dir.path(), None);
    let mut ada = Client::connect(server.addr).await;
    ada.hello("Ada", None).await;
    let room = white_against_the_ai(&mut ada).await;
    // Some rolls before the kill, and more to come after it.
    assert!(!play_white(&mut ada, &room, 6).await, "still running");
    let before = record(&mut ada, &room).await;
    let commitment = before.dice().expect("proof").commitment.clone();
    let rolls_before = before
        .bg_actions()
        .expect("backgammon")
        .iter()
        .filter(|a| a.rolled().is_some())
        .count();
    server.kill();

    let server = ChildServer::start(exe, dir.path(), None);
    let mut ada = {
        let token = ada.token.clone();
        let mut again = Client::connect(server.addr).await;
        again.hello("Ada", Some(&token)).await;
        again
    };
    ada.join(&room, "player").await;
    assert!(play_white(&mut ada, &room, usize::MAX).await);
    let over = ada.event("game_over").await;
    let revealed: DiceProof =
        serde_json::from_value(over["event"]["dice"].clone()).expect("game_over has the proof");
    assert_eq!(revealed.commitment, commitment, "the same commitment");
    let game_id = over["event"]["game_id"].as_str().expect("game id");
    let stored = stored_record(&mut ada, game_id).await;
    let actions = stored.bg_actions().expect("backgammon");
    assert_eq!(
        &actions[..before.len()],
        before.bg_actions().expect("backgammon")
    );
    let rolls = verify(actions, &revealed).expect("the rolls after the restart verify too");
    assert!(
        rolls > rolls_before,
        "{rolls} rolls, {rolls_before} before the kill"
    );
}

/// The proof travels in events as JSON with the fields `docs/DICE.md` names.
#[test]
fn the_proof_on_the_wire_has_the_documented_fields() {
    let proof: Value = json!({
        "commitment": "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
        "server_seed": "0000000000000000000000000000000000000000000000000000000000000000",
        "player_seeds": ["9f2c4e71aa03", ""],
    });
    let parsed: DiceProof = serde_json::from_value(proof).expect("decodes");
    assert_eq!(verify(&[], &parsed), Ok(0));
}

#[tokio::test]
async fn the_opening_roll_does_not_wait_for_ever_for_a_silent_player() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let config = tabula_server::Config {
        dice_seed_wait: Duration::from_millis(300),
        ..test_config(tmp.path())
    };
    let server = TestServer::start_with(config).await;
    let mut ada = server.client("Ada").await;
    let room = white_against_the_ai(&mut ada).await;
    // No seed from Ada: the opening roll comes when the wait is over, and
    // the match is dealt with the empty seed.
    ada.action_where(|a| a["kind"] == "opening_roll").await;
    let proof = record(&mut ada, &room)
        .await
        .dice()
        .cloned()
        .expect("proof");
    assert_eq!(proof.player_seeds, [String::new(), String::new()]);
    server.stop().await;
}

#[tokio::test]
async fn a_takeback_deals_the_same_dice_again() {
    let server = TestServer::start().await;
    let mut ada = server.client("Ada").await;
    let room = white_against_the_ai(&mut ada).await;
    // Ada plays once; the AI rolls after her play.
    let mut played = None;
    for _ in 0..50 {
        let snap = ada
            .request_patiently(json!({"type": "sync", "room_id": room}))
            .await;
        let LiveGame::Backgammon(m) = replay_snapshot(&snap) else {
            panic!("not backgammon")
        };
        match *m.phase() {
            GamePhase::AwaitingRoll { side: Side::White } => {
                let reply = ada.act(&room, json!({"kind": "roll"})).await;
                assert_eq!(reply["type"], "event", "{reply}");
            }
            GamePhase::Moving {
                side: Side::White,
                dice,
            } => {
                let play = racing_play(&m, dice);
                let reply = ada.act(&room, json!({"kind": "play", "play": play})).await;
                assert_eq!(reply["type"], "event", "{reply}");
                played = Some(play);
                break;
            }
            _ => {
                ada.event("action").await;
            }
        }
    }
    let play = played.expect("Ada got to play");
    let ai_roll = |a: &Value| a["kind"] == "roll" && a["side"] == "black";
    let first = ada.action_where(ai_roll).await["dice"].clone();
    let back = ada
        .request_patiently(json!({"type": "request_takeback", "room_id": room}))
        .await;
    assert_eq!(back["type"], "ok", "{back}");
    ada.event("took_back").await;
    // The same play again: the AI's roll after it is the one it had.
    let reply = ada.act(&room, json!({"kind": "play", "play": play})).await;
    assert_eq!(reply["type"], "event", "{reply}");
    let again = ada.action_where(ai_roll).await["dice"].clone();
    assert_eq!(first, again, "a takeback never re-rolls the dice");
    server.stop().await;
}
