//! Accounts, rated games, the leaderboard and game history, against a real
//! server over real sockets, with a real SQLite file underneath.

use serde_json::{Value, json};
use tabula_tests::{Client, TestServer, gomoku_options, point, test_config};

const PASSWORD: &str = "correct horse battery";

/// Says hello as a guest called `name` and registers that name.
async fn registered(server: &TestServer, name: &str) -> Client {
    let mut client = server.client(name).await;
    let reply = client
        .request(json!({"type": "register", "password": PASSWORD}))
        .await;
    assert_eq!(reply["type"], "registered", "{reply}");
    client
}

/// A raw hello, returning whatever the server answers.
async fn hello(client: &mut Client, name: &str, account_password: Option<&str>) -> Value {
    let mut msg = json!({"type": "hello", "protocol": 1, "name": name});
    if let Some(p) = account_password {
        msg["account_password"] = json!(p);
    }
    client.request(msg).await
}

/// `first` wins a PvP Gomoku game against `second` with five in a row;
/// returns the game-over event `first` saw.
async fn play_five(first: &mut Client, second: &mut Client, room: &str) -> Value {
    for i in 0..4u8 {
        assert_eq!(
            first
                .act(room, json!({"kind": "place", "point": point(i, 0)}))
                .await["type"],
            "event"
        );
        assert_eq!(
            second
                .act(room, json!({"kind": "place", "point": point(i, 5)}))
                .await["type"],
            "event"
        );
    }
    assert_eq!(
        first
            .act(room, json!({"kind": "place", "point": point(4, 0)}))
            .await["type"],
        "event"
    );
    first.event("game_over").await
}

fn rated_gomoku() -> Value {
    let mut options = gomoku_options(json!({"kind": "human"}), "black");
    options["rated"] = json!(true);
    options
}

#[tokio::test]
async fn register_reserves_the_name_and_sign_in_works_from_any_client() {
    let server = TestServer::start().await;
    let mut ada = server.client("Ada").await;
    let guest_id = ada.player_id.clone();
    let guest_token = ada.token.clone();

    let short = ada
        .request(json!({"type": "register", "password": "short"}))
        .await;
    assert_eq!(short["code"], "weak_password", "{short}");
    let ok = ada
        .request(json!({"type": "register", "password": PASSWORD}))
        .await;
    assert_eq!(ok["type"], "registered", "{ok}");
    assert_eq!(ok["name"], "Ada");
    let again = ada
        .request(json!({"type": "register", "password": PASSWORD}))
        .await;
    assert_eq!(again["code"], "already_registered", "{again}");

    // A guest cannot take the name, in any letter case.
    let mut guest = Client::connect(server.addr).await;
    let taken = hello(&mut guest, "  ADA ", None).await;
    assert_eq!(taken["code"], "name_taken", "{taken}");
    // Nor a name that could pass for it: with a Cyrillic "А", with
    // Cyrillic capitals, with a zero-width space.
    for look_alike in ["\u{410}da", "АDА", "Ada\u{200B}"] {
        let taken = hello(&mut guest, look_alike, None).await;
        assert!(
            taken["code"] == "name_taken" || taken["code"] == "invalid_name",
            "{look_alike:?}: {taken}"
        );
    }
    // The connection stays usable: another name works.
    let welcome = hello(&mut guest, "Eve", None).await;
    assert_eq!(welcome["type"], "welcome");
    assert!(
        welcome.get("registered").is_none(),
        "guests are not registered"
    );
    // Eve cannot register a name that is already an account either.
    let mut eve = server.client("Eve").await;
    let reply = eve
        .request(json!({"type": "register", "password": PASSWORD}))
        .await;
    assert_eq!(
        reply["type"], "registered",
        "Eve's own name is free: {reply}"
    );
    // Register-time too: a guest who took "Μallory" (a Greek capital mu)
    // while no account had the name cannot register it once "Mallory" has.
    let mut greek = server.client("\u{39C}allory").await;
    let mut mallory = server.client("Mallory").await;
    let reply = mallory
        .request(json!({"type": "register", "password": PASSWORD}))
        .await;
    assert_eq!(reply["type"], "registered", "{reply}");
    let reply = greek
        .request(json!({"type": "register", "password": PASSWORD}))
        .await;
    assert_eq!(reply["code"], "name_taken", "{reply}");

    // Wrong password and unknown name: one generic error.
    let mut other = Client::connect(server.addr).await;
    let wrong = hello(&mut other, "Ada", Some("not the password")).await;
    let unknown = hello(&mut other, "Nobody", Some(PASSWORD)).await;
    assert_eq!(wrong["code"], "sign_in_failed", "{wrong}");
    assert_eq!(unknown["code"], wrong["code"]);
    assert_eq!(unknown["message"], wrong["message"]);

    // The right password, from a new client: the same identity and token.
    let signed = hello(&mut other, "ada", Some(PASSWORD)).await;
    assert_eq!(signed["type"], "welcome", "{signed}");
    assert_eq!(signed["player_id"], json!(guest_id));
    assert_eq!(signed["token"], json!(guest_token));
    assert_eq!(signed["name"], "Ada", "the account's own spelling");
    assert_eq!(signed["registered"], true);

    // The resume token keeps working, and keeps the account's name.
    let mut resumed = Client::connect(server.addr).await;
    let welcome = resumed.hello("Someone else", Some(&guest_token)).await;
    assert_eq!(welcome["player_id"], json!(guest_id));
    assert_eq!(welcome["name"], "Ada");
    assert_eq!(welcome["registered"], true);

    // Nothing the server sent anyone holds the password or its hash.
    for client in [&ada, &guest, &other, &resumed] {
        for message in &client.seen {
            let text = message.to_string();
            assert!(!text.contains(PASSWORD), "{text}");
            assert!(!text.contains("argon2"), "{text}");
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn failed_sign_ins_are_limited_per_connection_and_per_name() {
    let server = TestServer::start().await;
    registered(&server, "Ada").await;
    let mut attacker = Client::connect(server.addr).await;
    for _ in 0..5 {
        let reply = hello(&mut attacker, "Ada", Some("guess guess")).await;
        assert_eq!(reply["code"], "sign_in_failed", "{reply}");
    }
    // Now even the right password is refused on this connection...
    let limited = hello(&mut attacker, "Ada", Some(PASSWORD)).await;
    assert_eq!(limited["code"], "rate_limited", "{limited}");
    // ...and for this name from a fresh connection.
    let mut fresh = Client::connect(server.addr).await;
    let limited = hello(&mut fresh, "Ada", Some(PASSWORD)).await;
    assert_eq!(limited["code"], "rate_limited", "{limited}");
    // Other names are not affected, and the connection still works.
    let welcome = hello(&mut fresh, "Bob", None).await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    server.stop().await;
}

#[tokio::test]
async fn rated_games_update_ratings_and_the_leaderboards() {
    let server = TestServer::start().await;
    let mut ada = registered(&server, "Ada").await;
    let mut bob = registered(&server, "Bob").await;
    let mut carl = server.client("Carl").await;

    // Guests cannot create rated rooms; a rated game against the AI has no
    // takebacks (the AI would grant every one).
    let refused = carl
        .request(json!({"type": "create_room", "options": rated_gomoku()}))
        .await;
    assert_eq!(refused["code"], "not_registered", "{refused}");
    let mut vs_ai = rated_gomoku();
    vs_ai["opponent"] = json!({"kind": "ai", "level": "beginner"});
    let refused = ada
        .request(json!({"type": "create_room", "options": vs_ai}))
        .await;
    assert_eq!(refused["code"], "bad_request", "{refused}");

    let (room, _) = ada.create(rated_gomoku()).await;
    // A guest may watch a rated room but not sit down in it.
    let refused = carl
        .request(json!({"type": "join_room", "room_id": room, "role": "player"}))
        .await;
    assert_eq!(refused["code"], "not_registered", "{refused}");
    carl.join(&room, "spectator").await;
    bob.join(&room, "player").await;

    let over = play_five(&mut ada, &mut bob, &room).await;
    let event = &over["event"];
    assert_eq!(event["result"]["winner"], "first");
    assert!(
        event["game_id"]
            .as_str()
            .is_some_and(|id| id.starts_with("g-"))
    );
    let ratings = event["ratings"].as_array().expect("ratings");
    assert_eq!(ratings.len(), 2);
    assert_eq!(ratings[0]["player_id"], json!(ada.player_id));
    assert_eq!(ratings[0]["before"], 1500);
    assert!(ratings[0]["after"].as_i64().unwrap() > 1500, "{over}");
    assert!(ratings[1]["after"].as_i64().unwrap() < 1500, "{over}");
    assert_eq!(ratings[0]["provisional"], true, "one game is not enough");
    // The spectator sees the same event.
    let seen = carl.event("game_over").await;
    assert_eq!(seen["event"], *event);

    let board = ada
        .request(json!({"type": "get_leaderboard", "game": "gomoku"}))
        .await;
    assert_eq!(board["type"], "leaderboard", "{board}");
    assert_eq!(board["period"], "all_time");
    let entries = board["entries"].as_array().expect("entries");
    let names: Vec<&str> = entries
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ada", "Bob"], "Carl is a guest and never rated");
    assert_eq!(entries[0]["rank"], 1);
    assert_eq!(entries[0]["rating"], ratings[0]["after"]);
    assert_eq!(entries[0]["provisional"], true);
    assert_eq!(entries[0]["games"], 1);
    let ai = board["ai"].as_array().expect("ai ratings");
    assert_eq!(ai.len(), 5, "every level, weakest first: {ai:?}");
    let ai_ratings: Vec<i64> = ai.iter().filter_map(|a| a["rating"].as_i64()).collect();
    assert!(ai_ratings.is_sorted(), "the ladder climbs: {ai:?}");

    let week = ada
        .request(json!({"type": "get_leaderboard", "game": "gomoku", "period": "week"}))
        .await;
    let entries = week["entries"].as_array().expect("entries");
    assert_eq!(entries[0]["name"], "Ada");
    assert!(entries[0]["change"].as_i64().unwrap() > 0, "{week}");
    assert!(entries[1]["change"].as_i64().unwrap() < 0, "{week}");

    let other = ada
        .request(json!({"type": "get_leaderboard", "game": "backgammon"}))
        .await;
    assert_eq!(other["entries"], json!([]), "ratings are per game");

    // A tournament seeds its players by their ratings in its game.
    let created = ada
        .request(json!({"type": "create_tournament", "spec": {
            "name": "Seeded",
            "format": {"kind": "swiss", "rounds": 1},
            "game": {"game": "gomoku", "size": 15, "rule": "freestyle", "opening": "none"},
            "time_control": {"initial_secs": 120, "increment_secs": 0},
            "max_entrants": 8,
            "forfeit_secs": 10
        }}))
        .await;
    assert_eq!(created["type"], "tournament_created", "{created}");
    let id = created["tournament_id"].clone();
    for c in [&mut ada, &mut bob, &mut carl] {
        let joined = c
            .request(json!({"type": "join_tournament", "tournament_id": id}))
            .await;
        assert_eq!(joined["type"], "ok", "{joined}");
    }
    let view = ada
        .request(json!({"type": "watch_tournament", "tournament_id": id}))
        .await;
    let entrants = view["tournament"]["entrants"].as_array().expect("entrants");
    let seed = |name: &str| {
        entrants
            .iter()
            .find(|e| e["player"]["name"] == name)
            .map(|e| e["rating"].clone())
            .unwrap_or_else(|| panic!("{name} entered: {view}"))
    };
    assert_eq!(seed("Ada"), ratings[0]["after"], "{view}");
    assert_eq!(seed("Bob"), ratings[1]["after"], "{view}");
    assert_eq!(seed("Carl"), 1500, "a guest with no rated game: {view}");
    server.stop().await;
}

#[tokio::test]
async fn history_is_paged_newest_first_and_survives_a_restart() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let server = TestServer::start_with(test_config(tmp.path())).await;
    let mut ada = registered(&server, "Ada").await;
    let mut bob = server.client("Bob").await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (room, _) = ada
            .create(gomoku_options(json!({"kind": "human"}), "black"))
            .await;
        bob.join(&room, "player").await;
        let over = play_five(&mut ada, &mut bob, &room).await;
        ids.push(over["event"]["game_id"].as_str().unwrap().to_string());
        ada.request(json!({"type": "leave_room", "room_id": room}))
            .await;
        bob.request(json!({"type": "leave_room", "room_id": room}))
            .await;
    }
    // A game against the AI, resigned at once, is history too.
    let (room, _) = ada
        .create(gomoku_options(
            json!({"kind": "ai", "level": "beginner"}),
            "white",
        ))
        .await;
    ada.action().await;
    let resigned = ada
        .request(json!({"type": "resign", "room_id": room}))
        .await;
    assert_eq!(resigned["type"], "ok", "{resigned}");
    let over = ada.event("game_over").await;
    ids.push(over["event"]["game_id"].as_str().unwrap().to_string());

    let page = ada
        .request(json!({"type": "list_games", "offset": 0, "limit": 3}))
        .await;
    assert_eq!(page["type"], "game_list", "{page}");
    assert_eq!(page["total"], 4);
    let listed: Vec<&str> = page["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game_id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [&ids[3], &ids[2], &ids[1]], "newest first");
    let rest = ada
        .request(json!({"type": "list_games", "offset": 3, "limit": 3}))
        .await;
    assert_eq!(rest["games"].as_array().unwrap().len(), 1);
    assert_eq!(rest["games"][0]["game_id"], json!(ids[0]));
    // Bob's list has the three games he played, not Ada's AI game.
    let bobs = bob.request(json!({"type": "list_games"})).await;
    assert_eq!(bobs["total"], 3, "{bobs}");
    let bad = ada.request(json!({"type": "list_games", "limit": 0})).await;
    assert_eq!(bad["code"], "bad_request");

    // Anyone can open a finished game by id; it replays to the same result.
    let game = bob
        .request(json!({"type": "get_game", "game_id": ids[3]}))
        .await;
    assert_eq!(game["type"], "game", "{game}");
    assert_eq!(game["game"]["summary"]["result"]["reason"], "resigned");
    let record: tabula_shared::protocol::GameRecord =
        serde_json::from_value(game["game"]["record"].clone()).expect("a record");
    assert!(record.replay().is_ok());
    let missing = bob
        .request(json!({"type": "get_game", "game_id": "g-nope"}))
        .await;
    assert_eq!(missing["code"], "unknown_game", "{missing}");

    server.stop().await;
    // After a restart: the account signs in, and the history is all there.
    let server = TestServer::start_with(test_config(tmp.path())).await;
    let mut again = Client::connect(server.addr).await;
    let welcome = hello(&mut again, "Ada", Some(PASSWORD)).await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    let page = again
        .request(json!({"type": "list_games", "limit": 10}))
        .await;
    assert_eq!(page["total"], 4);
    let mut guest = Client::connect(server.addr).await;
    assert_eq!(hello(&mut guest, "Ada", None).await["code"], "name_taken");
    server.stop().await;

    // The database keeps an argon2id hash, never the password.
    let db = rusqlite::Connection::open(tmp.path().join("tabula.db")).expect("db");
    let hash: String = db
        .query_row("SELECT hash FROM accounts", [], |r| r.get(0))
        .expect("one account");
    assert!(hash.starts_with("$argon2id$"), "{hash}");
    assert!(!hash.contains(PASSWORD));
}

#[tokio::test]
async fn a_rated_game_against_the_ai_moves_the_players_rating_against_the_ais_fixed_one() {
    let server = TestServer::start().await;
    let mut ada = registered(&server, "Ada").await;
    let mut options = rated_gomoku();
    options["opponent"] = json!({"kind": "ai", "level": "expert"});
    options["takebacks"] = json!(false);
    let (room, _) = ada.create(options).await;
    assert_eq!(
        ada.act(&room, json!({"kind": "place", "point": point(7, 7)}))
            .await["type"],
        "event"
    );
    ada.action().await;
    let takeback = ada
        .request(json!({"type": "request_takeback", "room_id": room}))
        .await;
    assert_eq!(takeback["code"], "forbidden", "{takeback}");
    let resigned = ada
        .request(json!({"type": "resign", "room_id": room}))
        .await;
    assert_eq!(resigned["type"], "ok", "{resigned}");
    let over = ada.event("game_over").await;
    let ratings = over["event"]["ratings"].as_array().expect("ratings");
    assert_eq!(ratings.len(), 1, "only the human is rated: {over}");
    assert_eq!(ratings[0]["player_id"], json!(ada.player_id));
    assert_eq!(ratings[0]["seat"], "first");
    assert_eq!(ratings[0]["before"], 1500);
    let lost = 1500 - ratings[0]["after"].as_i64().expect("after");
    // Losing to the Expert (rated 2709) costs little; to the Beginner (1100) it would cost a lot.
    assert!(lost > 0 && lost < 150, "lost {lost}: {over}");

    let board = ada
        .request(json!({"type": "get_leaderboard", "game": "gomoku"}))
        .await;
    let entries = board["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 1, "the AI is not on the board: {board}");
    assert_eq!(entries[0]["name"], "Ada");
    assert_eq!(entries[0]["rating"], ratings[0]["after"]);
    server.stop().await;
}
