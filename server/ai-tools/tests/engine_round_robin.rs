//! A Gomocup-style event on a real server over real sockets: three
//! `pbrain-tabula` engines at different levels, entered as the host's
//! engines (`--engine`), in a round robin on two fixed openings, each
//! opening played with both colours. Every game is then read back with
//! `get_game`: it starts with its opening's stones, black is the pairing's
//! first entrant, and its result is the crosstable's.

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};
use tabula_server::engines::EngineSpec;
use tabula_shared::gomoku::{GomokuAction, Point};
use tabula_shared::protocol::{FinishedGame, GameKind, GameRecord};
use tabula_shared::seat::Seat;
use tabula_tests::{TestServer, test_config};

const LEVELS: [&str; 3] = ["beginner", "intermediate", "expert"];

fn openings() -> Vec<Vec<Point>> {
    let p = |x, y| Point { x, y };
    vec![
        vec![p(7, 7), p(8, 8), p(6, 8)],
        vec![p(7, 7), p(7, 8), p(9, 9), p(5, 5)],
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_engines_play_a_round_robin_on_fixed_openings() {
    let tmp = tempfile::tempdir().expect("dir");
    let mut config = test_config(tmp.path());
    config.engines = LEVELS
        .iter()
        .map(|level| EngineSpec {
            game: GameKind::Gomoku,
            name: format!("pbrain-tabula {level}"),
            program: env!("CARGO_BIN_EXE_pbrain-tabula").into(),
            args: vec!["--level".into(), (*level).into()],
        })
        .collect();
    let server = TestServer::start_with(config).await;
    let mut host =
        tabula_tests::registered_at(server.addr, "Organiser", "correct horse battery").await;
    let created = host
        .request(json!({"type": "create_tournament", "spec": {
            "name": "Engine cup",
            "format": {"kind": "round_robin"},
            "game": {"game": "gomoku", "size": 15, "rule": "freestyle", "opening": "none"},
            "time_control": {"initial_secs": 120, "increment_secs": 0},
            "max_entrants": 3,
            "openings": openings(),
        }}))
        .await;
    assert_eq!(created["type"], "tournament_created", "{created}");
    let id = created["tournament_id"].as_str().expect("id").to_string();
    // An engine the server does not run is refused with a type.
    let unknown = host
        .request(json!({"type": "manage_tournament", "tournament_id": id,
            "action": {"do": "add", "entrant": {"engine": "Yixin"}}}))
        .await;
    assert_eq!(unknown["code"], "bad_request", "{unknown}");
    for level in LEVELS {
        let added = host
            .request(json!({"type": "manage_tournament", "tournament_id": id,
                "action": {"do": "add", "entrant": {"engine": format!("pbrain-tabula {level}")}}}))
            .await;
        assert_eq!(added["type"], "ok", "{added}");
    }
    let twice = host
        .request(json!({"type": "manage_tournament", "tournament_id": id,
            "action": {"do": "add", "entrant": {"engine": "pbrain-tabula expert"}}}))
        .await;
    assert_eq!(
        twice["code"], "bad_request",
        "an engine enters once: {twice}"
    );
    host.request(json!({"type": "watch_tournament", "tournament_id": id}))
        .await;
    let started = host
        .request(
            json!({"type": "manage_tournament", "tournament_id": id, "action": {"do": "start"}}),
        )
        .await;
    assert_eq!(started["type"], "ok", "{started}");
    let last = loop {
        let m = host
            .expect(|m| m["type"] == "tournament" && m["tournament"]["id"] == id)
            .await;
        if m["tournament"]["status"] == "finished" {
            break m["tournament"].clone();
        }
    };

    let games: Vec<&Value> = last["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter(|g| g["second"].is_number())
        .collect();
    // Three pairings, each opening twice: twelve games.
    assert_eq!(games.len(), 12, "{last}");
    let mut seen = HashSet::new();
    let mut points: HashMap<u64, u64> = HashMap::new();
    for g in &games {
        let (a, b) = (g["first"].as_u64().unwrap(), g["second"].as_u64().unwrap());
        let k = g["opening"].as_u64().expect("an opening") as usize;
        assert!(seen.insert((a, b, k)), "({a}, {b}) on opening {k} twice");
        let reply = host
            .request(json!({"type": "get_game", "game_id": g["game_id"]}))
            .await;
        assert_eq!(reply["type"], "game", "{g}: {reply}");
        let game: FinishedGame = serde_json::from_value(reply["game"].clone()).expect("a game");
        // Black (the first seat) is the pairing's first entrant.
        let name_of = |no: u64| last["entrants"][no as usize - 1]["player"]["name"].clone();
        assert_eq!(
            json!(game.summary.player_name(Seat::First)),
            name_of(a),
            "{g}"
        );
        assert_eq!(json!(game.summary.player_name(Seat::Second)), name_of(b));
        // It starts with the opening's stones, black first.
        let GameRecord::Gomoku { actions, .. } = &game.record else {
            panic!("a Gomoku record");
        };
        let stones: Vec<Point> = actions
            .iter()
            .filter_map(|a| match a {
                GomokuAction::Place { point, .. } => Some(*point),
                _ => None,
            })
            .collect();
        assert_eq!(stones[..openings()[k].len()], openings()[k][..], "{g}");
        assert!(
            stones.len() > openings()[k].len(),
            "the engines played on: {g}"
        );
        // The crosstable's result is the game's.
        let expected = match game.summary.result.winner {
            Some(Seat::First) => (2, 0),
            Some(Seat::Second) => (0, 2),
            None => (1, 1),
        };
        assert_eq!(
            (
                g["first_score"].as_u64().unwrap(),
                g["second_score"].as_u64().unwrap()
            ),
            expected,
            "{g}"
        );
        *points.entry(a).or_default() += expected.0;
        *points.entry(b).or_default() += expected.1;
    }
    // Each opening with both colours for every pairing.
    for &(a, b, k) in &seen {
        assert!(
            seen.contains(&(b, a, k)),
            "({a}, {b}) on opening {k} without the colours swapped"
        );
    }
    // The standings add up the games.
    for s in last["standings"].as_array().expect("standings") {
        let no = s["id"].as_u64().unwrap();
        assert_eq!(s["score"].as_u64().unwrap(), points[&no], "{s}");
    }
    let table: Vec<String> = last["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{} {}",
                last["entrants"][s["id"].as_u64().unwrap() as usize - 1]["player"]["name"],
                s["score"]
            )
        })
        .collect();
    println!("standings (half points): {table:?}");
    server.stop().await;
}
