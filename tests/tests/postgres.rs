//! Tabula on PostgreSQL, end to end: a real PostgreSQL started for each
//! test (`tabula-test-postgres`), the real server on it, real sockets.
//! Accounts, rated games, leaderboards and history across a restart, the
//! dice statistics and a saved analysis, and a game that survives the server
//! being killed.

use serde_json::{Value, json};
use tabula_test_postgres::TestPostgres;
use tabula_tests::{
    ChildServer, Client, TestServer, backgammon_options, gomoku_options, point, pvp_gomoku_at,
    test_config,
};

const PASSWORD: &str = "correct horse battery";

/// A server on the PostgreSQL database at `url`.
async fn server_on(url: &str, dir: &std::path::Path) -> TestServer {
    let config = tabula_server::Config {
        database: Some(url.to_string()),
        ..test_config(dir)
    };
    TestServer::start_with(config).await
}

/// `first` (black) makes five on row 0 while `second` plays row 5.
async fn play_five(first: &mut Client, second: &mut Client, room: &str) -> Value {
    for i in 0..4u8 {
        let reply = first
            .act(room, json!({"kind": "place", "point": point(i, 0)}))
            .await;
        assert_eq!(reply["type"], "event", "{reply}");
        let reply = second
            .act(room, json!({"kind": "place", "point": point(i, 5)}))
            .await;
        assert_eq!(reply["type"], "event", "{reply}");
    }
    let reply = first
        .act(room, json!({"kind": "place", "point": point(4, 0)}))
        .await;
    assert_eq!(reply["type"], "event", "{reply}");
    first.event("game_over").await
}

#[tokio::test]
async fn accounts_ratings_and_history_live_in_postgres_across_a_restart() {
    let pg = TestPostgres::start();
    let url = pg.database();
    let dir = tempfile::tempdir().expect("dir");
    let server = server_on(&url, dir.path()).await;
    let mut players = Vec::new();
    for name in ["Ada", "Bob"] {
        let mut client = server.client(name).await;
        let reply = client
            .request(json!({"type": "register", "password": PASSWORD}))
            .await;
        assert_eq!(reply["type"], "registered", "{reply}");
        players.push(client);
    }
    let [mut ada, mut bob] = <[Client; 2]>::try_from(players).ok().expect("two");
    let mut options = gomoku_options(json!({"kind": "human"}), "black");
    options["rated"] = json!(true);
    let (room, _) = ada.create(options).await;
    bob.join(&room, "player").await;
    let over = play_five(&mut ada, &mut bob, &room).await;
    let game_id = over["event"]["game_id"]
        .as_str()
        .expect("game id")
        .to_string();
    let after = over["event"]["ratings"][0]["after"].clone();
    assert!(after.as_i64().unwrap() > 1500, "{over}");
    server.stop().await;
    // Nothing of it is in the data directory: it is all in PostgreSQL.
    assert!(!dir.path().join("tabula.db").exists());

    let server = server_on(&url, dir.path()).await;
    let mut ada = Client::connect(server.addr).await;
    let welcome = ada
        .request(
            json!({"type": "hello", "protocol": 1, "name": "Ada", "account_password": PASSWORD}),
        )
        .await;
    assert_eq!(welcome["type"], "welcome", "the account is kept: {welcome}");
    let board = ada
        .request(json!({"type": "get_leaderboard", "game": "gomoku"}))
        .await;
    let names: Vec<&str> = board["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ada", "Bob"], "{board}");
    assert_eq!(board["entries"][0]["rating"], after);
    let week = ada
        .request(json!({"type": "get_leaderboard", "game": "gomoku", "period": "week"}))
        .await;
    assert!(week["entries"][0]["change"].as_i64().unwrap() > 0, "{week}");
    let page = ada.request(json!({"type": "list_games"})).await;
    assert_eq!(page["total"], 1, "{page}");
    assert_eq!(page["games"][0]["game_id"], json!(game_id));
    assert_eq!(page["games"][0]["actions"], 9);
    assert_eq!(page["games"][0]["result"]["winner"], "first");
    server.stop().await;
}

#[tokio::test]
async fn killing_a_server_on_postgres_mid_game_loses_nothing() {
    let pg = TestPostgres::start();
    let url = pg.database();
    let exe = env!("CARGO_BIN_EXE_tabula-test-server");
    let dir = tempfile::tempdir().expect("dir");
    let args = ["--database", url.as_str()];
    let server = ChildServer::start_with_args(exe, dir.path(), &args);
    let (mut ada, mut bob, room) = pvp_gomoku_at(server.addr, "Ada", "Bob").await;
    for i in 0..3u8 {
        let reply = ada
            .act(&room, json!({"kind": "place", "point": point(4 + i, 7)}))
            .await;
        assert_eq!(reply["type"], "event");
        let reply = bob
            .act(&room, json!({"kind": "place", "point": point(4 + i, 9)}))
            .await;
        assert_eq!(reply["type"], "event");
    }
    server.kill();

    // A new server on the same database: the guests' tokens, the room and
    // its six acknowledged moves are all there.
    let server = ChildServer::start_with_args(exe, dir.path(), &args);
    let mut ada2 = Client::connect(server.addr).await;
    ada2.hello("Ada", Some(&ada.token)).await;
    let mut bob2 = Client::connect(server.addr).await;
    bob2.hello("Bob", Some(&bob.token)).await;
    assert_eq!(ada2.player_id, ada.player_id);
    assert_eq!(ada2.rooms, vec![room.clone()]);
    ada2.join(&room, "player").await;
    let snap = ada2.expect(|m| m["type"] == "snapshot").await;
    assert_eq!(
        snap["snapshot"]["record"]["actions"]
            .as_array()
            .map(Vec::len),
        Some(6)
    );
    bob2.join(&room, "player").await;
    for i in 3..5u8 {
        let reply = ada2
            .act(&room, json!({"kind": "place", "point": point(4 + i, 7)}))
            .await;
        assert_eq!(reply["type"], "event");
        if i < 4 {
            let reply = bob2
                .act(&room, json!({"kind": "place", "point": point(4 + i, 9)}))
                .await;
            assert_eq!(reply["type"], "event");
        }
    }
    let over = bob2.event("game_over").await;
    assert_eq!(over["event"]["result"]["winner"], "first");
    let page = ada2.request(json!({"type": "list_games"})).await;
    assert_eq!(page["games"][0]["actions"], 9, "{page}");
    // The record is the whole game, as the export gives it.
    let game_id = page["games"][0]["game_id"].clone();
    let game = ada2
        .request(json!({"type": "get_game", "game_id": game_id}))
        .await;
    assert_eq!(
        game["game"]["record"]["actions"].as_array().map(Vec::len),
        Some(9),
        "{game}"
    );
}

#[tokio::test]
async fn dice_statistics_and_analyses_are_kept_in_postgres() {
    let pg = TestPostgres::start();
    let url = pg.database();
    let dir = tempfile::tempdir().expect("dir");
    let server = server_on(&url, dir.path()).await;
    let mut ada = server.client("Ada").await;
    let (room, _) = ada
        .create(backgammon_options(
            json!({"kind": "ai", "level": "beginner"}),
            "white",
            1,
        ))
        .await;
    // The opening roll, then Ada gives up a backgammon (always accepted).
    ada.action_where(|a| a["kind"] == "opening_roll").await;
    let resign = ada
        .request(json!({"type": "resign", "room_id": room, "kind": "backgammon"}))
        .await;
    assert_ne!(resign["type"], "error", "{resign}");
    let over = ada.event("game_over").await;
    let game_id = over["event"]["game_id"]
        .as_str()
        .expect("game id")
        .to_string();

    let stats = ada.request_patiently(json!({"type": "dice_stats"})).await;
    assert_eq!(stats["type"], "dice_stats", "{stats}");
    assert_eq!(stats["report"]["games"], 1, "{stats}");

    ada.send(json!({"type": "analyse", "game_id": game_id, "request_id": 5}))
        .await;
    let analysis = ada
        .expect(|m| m["request_id"] == json!(5) && m["type"] != "analysis_progress")
        .await;
    assert_eq!(analysis["type"], "analysis", "{analysis}");
    server.stop().await;

    // After a restart the analysis is read back, not made again.
    let server = server_on(&url, dir.path()).await;
    let mut bob = server.client("Bob").await;
    bob.send(json!({"type": "analyse", "game_id": game_id, "request_id": 6}))
        .await;
    let again = bob.expect(|m| m["request_id"] == json!(6)).await;
    assert_eq!(again["type"], "analysis", "the saved one, at once: {again}");
    assert_eq!(again["analysis"], analysis["analysis"]);
    let stats = bob.request_patiently(json!({"type": "dice_stats"})).await;
    assert_eq!(stats["report"]["games"], 1, "{stats}");
    server.stop().await;
}

/// Places a stone, retrying while the store refuses it (`internal`: the
/// move was not saved, so nobody was told); returns how many refusals.
async fn place_until_saved(client: &mut Client, room: &str, x: u8, y: u8) -> u32 {
    let mut refused = 0;
    loop {
        let reply = client
            .act(room, json!({"kind": "place", "point": point(x, y)}))
            .await;
        match reply["type"].as_str() {
            Some("event") => return refused,
            _ if reply["code"] == "internal" && refused < 100 => {
                refused += 1;
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            _ => panic!("move refused: {reply}"),
        }
    }
}

#[tokio::test]
async fn a_postgres_restart_mid_game_loses_nothing_acknowledged() {
    let mut pg = TestPostgres::start();
    let url = pg.database();
    let exe = env!("CARGO_BIN_EXE_tabula-test-server");
    let dir = tempfile::tempdir().expect("dir");
    let args = ["--database", url.as_str()];
    let server = ChildServer::start_with_args(exe, dir.path(), &args);
    let (mut ada, mut bob, room) = pvp_gomoku_at(server.addr, "Ada", "Bob").await;
    for x in 4..6u8 {
        place_until_saved(&mut ada, &room, x, 7).await;
        place_until_saved(&mut bob, &room, x, 9).await;
    }
    // PostgreSQL goes down and comes back (every connection cut): the
    // server's writer and reader connect again, and the game goes on.
    pg.restart();
    let mut refused = 0;
    for x in 6..8u8 {
        refused += place_until_saved(&mut ada, &room, x, 7).await;
        refused += place_until_saved(&mut bob, &room, x, 9).await;
    }
    assert!(refused <= 2, "{refused} moves refused after the restart");
    // Every acknowledged move is in PostgreSQL: a new server finds all eight.
    server.kill();
    let server = ChildServer::start_with_args(exe, dir.path(), &args);
    let mut ada2 = Client::connect(server.addr).await;
    ada2.hello("Ada", Some(&ada.token)).await;
    ada2.join(&room, "player").await;
    let snap = ada2.expect(|m| m["type"] == "snapshot").await;
    assert_eq!(
        snap["snapshot"]["record"]["actions"]
            .as_array()
            .map(Vec::len),
        Some(8),
        "{snap}"
    );
}
