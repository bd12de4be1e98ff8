//! Game analysis and hints over real sockets: a finished game of each kind
//! analysed by the server and checked against the engine called directly;
//! hints where they are allowed and typed refusals where they are not; the
//! limits (one analysis per player at a time, a bounded queue).

use serde_json::{Value, json};
use tabula_shared::backgammon::GamePhase;
use tabula_shared::game::LiveGame;
use tabula_shared::protocol::{GameAnalysis, GameRecord, GomokuMistake};
use tabula_tests::{
    ChildServer, Client, TestServer, backgammon_options, gomoku_options, point, replay_snapshot,
    test_config,
};

/// Nodes per position for the Gomoku analyses of these tests.
const NODES: u64 = 20_000;

async fn server() -> (TestServer, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("dir");
    let mut config = test_config(dir.path());
    config.analysis_gomoku_nodes = NODES;
    (TestServer::start_with(config).await, dir)
}

/// Sends `analyse` for `game_id` with request id `id` and returns every
/// answer up to and including the last (`analysis` or an error).
async fn analyse(client: &mut Client, game_id: &str, id: u64) -> Vec<Value> {
    client
        .send(json!({"type": "analyse", "game_id": game_id, "request_id": id}))
        .await;
    let mut answers = Vec::new();
    loop {
        let m = client.expect(|m| m["request_id"] == json!(id)).await;
        let last = m["type"] != "analysis_progress";
        answers.push(m);
        if last {
            return answers;
        }
    }
}

/// The stored record of a finished game.
async fn record(client: &mut Client, game_id: &str) -> (GameRecord, Value) {
    let game = client
        .request(json!({"type": "get_game", "game_id": game_id}))
        .await;
    assert_eq!(game["type"], "game", "{game}");
    let record = serde_json::from_value(game["game"]["record"].clone()).expect("record");
    (record, game)
}

/// A PvP Gomoku game with a known missed block (White's a3) and missed win
/// (Black's m1), won by White; returns the game id.
async fn gomoku_game_with_mistakes(black: &mut Client, white: &mut Client, room: &str) -> String {
    let stones = [
        (7, 7),
        (0, 0),
        (8, 7),
        (0, 1),
        (9, 7),
        (0, 2),
        (10, 7),
        (0, 3),
        (12, 0),
        (0, 4),
    ];
    for (i, (x, y)) in stones.into_iter().enumerate() {
        let mover = if i % 2 == 0 { &mut *black } else { &mut *white };
        let reply = mover
            .act(room, json!({"kind": "place", "point": point(x, y)}))
            .await;
        assert_eq!(reply["type"], "event", "{reply}");
    }
    let over = black.event("game_over").await;
    over["event"]["game_id"]
        .as_str()
        .expect("game id")
        .to_string()
}

#[tokio::test]
async fn a_finished_gomoku_game_is_analysed_once_saved_and_as_the_engine_says() {
    let (server, _dir) = server().await;
    let (mut ada, mut bob, room) = server.pvp_gomoku().await;
    let game_id = gomoku_game_with_mistakes(&mut ada, &mut bob, &room).await;

    let answers = analyse(&mut bob, &game_id, 900).await;
    let last = answers.last().expect("answers");
    assert_eq!(last["type"], "analysis", "{last}");
    assert!(
        answers[..answers.len() - 1]
            .iter()
            .all(|m| m["type"] == "analysis_progress" && m["game_id"] == game_id.as_str()),
        "progress first"
    );
    assert!(answers.len() >= 2, "at least one progress message");
    let first = &answers[0];
    assert_eq!(first["total"], 10);
    let theirs: GameAnalysis =
        serde_json::from_value(last["analysis"].clone()).expect("an analysis");

    // The engine called directly on the stored record says the same.
    let (stored, _) = record(&mut bob, &game_id).await;
    let direct = tabula_ai::analysis::analyse(&stored, NODES, &mut |_, _| {}).expect("analyses");
    assert_eq!(theirs, direct);
    let GameAnalysis::Gomoku(g) = &theirs else {
        panic!("a gomoku analysis")
    };
    assert_eq!(g.moves[5].mistake, Some(GomokuMistake::MissedBlock));
    assert_eq!(g.moves[8].mistake, Some(GomokuMistake::MissedWin));

    // Asked again, by someone else: the saved one, at once.
    let again = analyse(&mut ada, &game_id, 901).await;
    assert_eq!(again.len(), 1, "no progress the second time: {again:?}");
    assert_eq!(
        serde_json::from_value::<GameAnalysis>(again[0]["analysis"].clone()).unwrap(),
        theirs
    );
    // And it comes with the game.
    let (_, game) = record(&mut ada, &game_id).await;
    assert_eq!(
        serde_json::from_value::<GameAnalysis>(game["analysis"].clone()).unwrap(),
        theirs
    );
    let unknown = analyse(&mut ada, "g-nope", 902).await;
    assert_eq!(unknown[0]["code"], "unknown_game", "{unknown:?}");
    server.stop().await;
}

/// What Ada (White) should do now in a Backgammon room, from a snapshot.
fn white_to_act(snap: &Value) -> Option<GamePhase> {
    let LiveGame::Backgammon(m) = replay_snapshot(snap) else {
        panic!("not backgammon")
    };
    match *m.phase() {
        p @ (GamePhase::AwaitingRoll {
            side: tabula_shared::backgammon::Side::White,
        }
        | GamePhase::Moving {
            side: tabula_shared::backgammon::Side::White,
            ..
        }) => Some(p),
        _ => None,
    }
}

#[tokio::test]
async fn hints_against_the_ai_then_the_finished_match_is_analysed() {
    let (server, _dir) = server().await;
    let mut ada = server.client("Ada").await;
    let (room, _) = ada
        .create(backgammon_options(
            json!({"kind": "ai", "level": "intermediate"}),
            "white",
            1,
        ))
        .await;
    let mut eve = server.client("Eve").await;
    eve.join(&room, "spectator").await;

    // Ada plays three turns on the engine's first hint each time.
    let mut plays = 0;
    for _ in 0..200 {
        if plays == 3 {
            break;
        }
        let snap = ada.request(json!({"type": "sync", "room_id": room})).await;
        let Some(phase) = white_to_act(&snap) else {
            ada.event("action").await;
            continue;
        };
        let hints = ada.request(json!({"type": "hint", "room_id": room})).await;
        assert_eq!(hints["type"], "hints", "{hints}");
        let list = hints["hints"].as_array().expect("hints");
        assert!((1..=3).contains(&list.len()), "{hints}");
        let values: Vec<f64> = list.iter().map(|h| h["value"].as_f64().unwrap()).collect();
        assert!(
            values.windows(2).all(|w| w[0] >= w[1]),
            "best first: {hints}"
        );
        if let GamePhase::Moving { .. } = phase {
            assert_eq!(list[0]["action"]["kind"], "play");
            plays += 1;
        }
        // The spectator never gets hints.
        let peek = eve.request(json!({"type": "hint", "room_id": room})).await;
        assert_eq!(peek["code"], "hints_off", "{peek}");
        let reply = ada.act(&room, list[0]["action"].clone()).await;
        assert_eq!(reply["type"], "event", "the hint is legal: {reply}");
    }
    assert_eq!(plays, 3);
    // A backgammon is always accepted: the match ends.
    let resign = ada
        .request(json!({"type": "resign", "room_id": room, "kind": "backgammon"}))
        .await;
    assert_ne!(resign["type"], "error", "{resign}");
    let over = ada.event("game_over").await;
    let game_id = over["event"]["game_id"]
        .as_str()
        .expect("game id")
        .to_string();

    let answers = analyse(&mut eve, &game_id, 700).await;
    let last = answers.last().unwrap();
    assert_eq!(last["type"], "analysis", "{last}");
    let theirs: GameAnalysis = serde_json::from_value(last["analysis"].clone()).unwrap();
    let (stored, _) = record(&mut eve, &game_id).await;
    let direct = tabula_ai::analysis::analyse(&stored, NODES, &mut |_, _| {}).unwrap();
    assert_eq!(theirs, direct, "the engine called directly agrees");
    let GameAnalysis::Backgammon(bg) = theirs else {
        panic!("backgammon")
    };
    assert!(
        bg.decisions
            .iter()
            .filter(|d| d.side == tabula_shared::backgammon::Side::White)
            .all(|d| d.loss_mp < 1.0 || d.kind != tabula_shared::protocol::BgDecisionKind::Play),
        "Ada played the engine's own first choice every time: {:?}",
        bg.decisions
    );
    assert!(!bg.rolls.is_empty());
    server.stop().await;
}

#[tokio::test]
async fn hints_are_refused_in_rated_rooms_and_where_the_creator_did_not_allow_them() {
    let (server, _dir) = server().await;
    // PvP without hints.
    let (mut ada, mut bob, room) = server.pvp_gomoku().await;
    let no = ada.request(json!({"type": "hint", "room_id": room})).await;
    assert_eq!(no["code"], "hints_off", "{no}");
    // PvP with hints allowed: the player to act gets them; the other not.
    let mut options = gomoku_options(json!({"kind": "human"}), "black");
    options["hints"] = json!(true);
    let (room, _) = ada.create(options).await;
    bob.join(&room, "player").await;
    let yes = ada.request(json!({"type": "hint", "room_id": room})).await;
    assert_eq!(yes["type"], "hints", "{yes}");
    let first = &yes["hints"][0];
    assert_eq!(first["action"]["kind"], "place");
    let not_yet = bob.request(json!({"type": "hint", "room_id": room})).await;
    assert_eq!(not_yet["code"], "hints_off", "{not_yet}");
    // A rated room against the AI: no hints.
    let registered = ada
        .request(json!({"type": "register", "password": "correct horse battery"}))
        .await;
    assert_eq!(registered["type"], "registered", "{registered}");
    let mut rated = gomoku_options(json!({"kind": "ai", "level": "beginner"}), "black");
    rated["rated"] = json!(true);
    rated["takebacks"] = json!(false);
    rated["hints"] = json!(true);
    let (room, _) = ada.create(rated).await;
    let refused = ada.request(json!({"type": "hint", "room_id": room})).await;
    assert_eq!(refused["code"], "hints_off", "{refused}");
    assert!(
        refused["message"].as_str().unwrap().contains("rated"),
        "{refused}"
    );
    server.stop().await;
}

#[tokio::test]
async fn one_analysis_per_player_at_a_time_and_a_full_queue_is_busy() {
    // One worker, no queue, and searches long enough that the first
    // analysis is still running while the others are asked for (a child
    // process, so that the test does not wait for it to end).
    let dir = tempfile::tempdir().expect("dir");
    let server = ChildServer::start_with_args(
        env!("CARGO_BIN_EXE_tabula-test-server"),
        dir.path(),
        &[
            "--analysis-workers",
            "1",
            "--analysis-queue",
            "0",
            "--analysis-nodes",
            "50000000",
        ],
    );
    let connect = |name: &'static str| async move {
        let mut c = Client::connect(server.addr).await;
        c.hello(name, None).await;
        c
    };
    let (mut ada, mut bob) = (connect("Ada").await, connect("Bob").await);
    let mut games = Vec::new();
    for _ in 0..2 {
        let (room, _) = ada
            .create(gomoku_options(json!({"kind": "human"}), "black"))
            .await;
        bob.join(&room, "player").await;
        games.push(gomoku_game_with_mistakes(&mut ada, &mut bob, &room).await);
    }
    ada.send(json!({"type": "analyse", "game_id": games[0], "request_id": 1}))
        .await;
    let started = ada.expect(|m| m["request_id"] == 1).await;
    assert_eq!(started["type"], "analysis_progress", "{started}");
    let second = ada
        .request(json!({"type": "analyse", "game_id": games[1]}))
        .await;
    assert_eq!(second["code"], "rate_limited", "{second}");
    assert!(second["retry_after_ms"].as_u64().is_some());
    let busy = bob
        .request(json!({"type": "analyse", "game_id": games[1]}))
        .await;
    assert_eq!(busy["code"], "busy", "{busy}");
    assert!(busy["retry_after_ms"].as_u64().unwrap() > 0);
    // The game being analysed can still be joined.
    let joined = bob
        .request(json!({"type": "analyse", "game_id": games[0]}))
        .await;
    assert_eq!(joined["type"], "analysis_progress", "{joined}");
    server.kill();
}
