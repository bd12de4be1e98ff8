//! Tournaments against a real server over real sockets: a Swiss of AI
//! levels and a player who never comes, played to the end, its standings
//! checked against tie-breaks worked out here from the games played; and
//! the same event surviving a kill -9 in the middle of round 2.

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};
use tabula_tests::{ChildServer, Client, TestServer};

const PASSWORD: &str = "correct horse battery";

async fn registered(server_addr: std::net::SocketAddr, name: &str) -> Client {
    tabula_tests::registered_at(server_addr, name, PASSWORD).await
}

fn swiss_spec(rounds: u32) -> Value {
    json!({
        "name": "Tuesday Swiss",
        "format": {"kind": "swiss", "rounds": rounds},
        "game": {"game": "gomoku", "size": 15, "rule": "freestyle", "opening": "none"},
        "time_control": {"initial_secs": 120, "increment_secs": 0},
        "max_entrants": 8,
        "forfeit_secs": 10
    })
}

/// Creates the Swiss with six AI entrants and a guest who joins and never
/// plays; returns the tournament's id and the guest (kept connected).
async fn seven_entrants(
    host: &mut Client,
    addr: std::net::SocketAddr,
    rounds: u32,
) -> (String, Client) {
    let created = host
        .request(json!({"type": "create_tournament", "spec": swiss_spec(rounds)}))
        .await;
    assert_eq!(created["type"], "tournament_created", "{created}");
    let id = created["tournament_id"].as_str().unwrap().to_string();
    let watched = host
        .request(json!({"type": "watch_tournament", "tournament_id": id}))
        .await;
    assert_eq!(watched["type"], "tournament", "{watched}");
    for level in [
        "beginner",
        "beginner",
        "casual",
        "casual",
        "intermediate",
        "beginner",
    ] {
        host.add_ai_entrant(&id, level).await;
    }
    let mut absent = tabula_tests::guest_at(addr, "Absent").await;
    let joined = absent
        .request(json!({"type": "join_tournament", "tournament_id": id}))
        .await;
    assert_eq!(joined["type"], "ok", "{joined}");
    // Not the host: refused with a type.
    let refused = absent
        .request(
            json!({"type": "manage_tournament", "tournament_id": id, "action": {"do": "start"}}),
        )
        .await;
    assert_eq!(refused["code"], "forbidden", "{refused}");
    (id, absent)
}

/// Waits for the watched tournament to finish; returns every view seen,
/// in order.
async fn until_finished(host: &mut Client, id: &str) -> Vec<Value> {
    let mut views = Vec::new();
    loop {
        let m = host
            .expect(|m| m["type"] == "tournament" && m["tournament"]["id"] == id)
            .await;
        let view = m["tournament"].clone();
        let done = view["status"] == "finished";
        views.push(view);
        if done {
            return views;
        }
    }
}

/// Checks a finished Swiss: no repeat pairing, one bye at most a round and
/// none twice, the absent player withdrawn after two forfeits, and the
/// standings equal to score, Buchholz and Sonneborn-Berger worked out here.
fn check_finished_swiss(view: &Value, rounds: u64) {
    assert_eq!(view["round"], rounds, "{view}");
    let games = view["games"].as_array().unwrap();
    let mut met = HashSet::new();
    let mut byes = HashSet::new();
    let mut score: HashMap<u64, u64> = HashMap::new();
    for r in 1..=rounds {
        let round: Vec<&Value> = games.iter().filter(|g| g["round"] == r).collect();
        assert!(!round.is_empty(), "round {r} was paired");
        let byes_now = round.iter().filter(|g| g["second"].is_null()).count();
        assert!(byes_now <= 1, "round {r}: {byes_now} byes");
        for g in &round {
            let a = g["first"].as_u64().unwrap();
            assert!(
                g["first_score"].is_u64(),
                "round {r}: a game without a result: {g}"
            );
            *score.entry(a).or_default() += g["first_score"].as_u64().unwrap();
            match g["second"].as_u64() {
                None => assert!(byes.insert(a), "{a} had a second bye"),
                Some(b) => {
                    assert!(met.insert((a.min(b), a.max(b))), "{a} and {b} met twice");
                    *score.entry(b).or_default() += g["second_score"].as_u64().unwrap();
                }
            }
        }
    }
    let absent = view["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["player"]["name"] == "Absent")
        .expect("the absent player is listed");
    assert_eq!(absent["absences"], 2, "{absent}");
    assert_eq!(absent["withdrawn"], true, "{absent}");
    let no = absent["no"].as_u64().unwrap();
    let absent_games: Vec<&Value> = games
        .iter()
        .filter(|g| g["first"] == no || g["second"] == no)
        .collect();
    assert_eq!(
        absent_games.len(),
        2,
        "withdrawn after two absences: {absent_games:?}"
    );
    assert!(absent_games.iter().all(|g| g["forfeit"] == true));
    // Tie-breaks by hand: Buchholz is the sum of the opponents' final
    // scores; Sonneborn-Berger, each opponent's score times the half points
    // taken from them (so in quarter points).
    let mut buchholz: HashMap<u64, u64> = HashMap::new();
    let mut sb: HashMap<u64, u64> = HashMap::new();
    for g in games {
        let (Some(a), Some(b)) = (g["first"].as_u64(), g["second"].as_u64()) else {
            continue;
        };
        let (pa, pb) = (
            g["first_score"].as_u64().unwrap(),
            g["second_score"].as_u64().unwrap(),
        );
        *buchholz.entry(a).or_default() += score[&b];
        *buchholz.entry(b).or_default() += score[&a];
        *sb.entry(a).or_default() += pa * score[&b];
        *sb.entry(b).or_default() += pb * score[&a];
    }
    let standings = view["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 7);
    let mut previous: Option<(u64, u64, u64, u64)> = None;
    for row in standings {
        let id = row["id"].as_u64().unwrap();
        let line = (
            row["score"].as_u64().unwrap(),
            row["buchholz"].as_u64().unwrap(),
            row["sonneborn_berger"].as_u64().unwrap(),
            id,
        );
        assert_eq!(
            line.0,
            score.get(&id).copied().unwrap_or(0),
            "score of {id}"
        );
        assert_eq!(
            line.1,
            buchholz.get(&id).copied().unwrap_or(0),
            "Buchholz of {id}"
        );
        assert_eq!(
            line.2,
            sb.get(&id).copied().unwrap_or(0),
            "Sonneborn-Berger of {id}"
        );
        if let Some(p) = previous {
            let better = (p.0, p.1, p.2) > (line.0, line.1, line.2)
                || ((p.0, p.1, p.2) == (line.0, line.1, line.2) && p.3 < line.3);
            assert!(better, "standings out of order: {p:?} before {line:?}");
        }
        previous = Some(line);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_of_seven_plays_to_the_end_with_byes_forfeits_and_tie_breaks() {
    let server = TestServer::start().await;
    let mut host = registered(server.addr, "Host").await;
    let (id, mut absent) = seven_entrants(&mut host, server.addr, 3).await;
    let started = host
        .request(
            json!({"type": "manage_tournament", "tournament_id": id, "action": {"do": "start"}}),
        )
        .await;
    assert_eq!(started["type"], "ok", "{started}");
    // The absent player is told of the game, and does not go.
    let told = absent.expect(|m| m["type"] == "tournament_game").await;
    assert_eq!(told["tournament_id"], id.as_str());
    let late = tabula_tests::guest_at(server.addr, "Late")
        .await
        .request(json!({"type": "join_tournament", "tournament_id": id}))
        .await;
    assert_eq!(late["code"], "tournament_started", "{late}");
    let views = until_finished(&mut host, &id).await;
    // Every change told once, in order.
    for pair in views.windows(2) {
        assert_eq!(
            pair[1]["seq"].as_u64(),
            pair[0]["seq"].as_u64().map(|s| s + 1)
        );
    }
    check_finished_swiss(views.last().unwrap(), 3);
    // The finished event stays listed with its crosstable.
    let list = host.request(json!({"type": "list_tournaments"})).await;
    assert_eq!(list["tournaments"][0]["status"], "finished", "{list}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_killed_in_round_two_keeps_its_standings_and_finishes() {
    let exe = env!("CARGO_BIN_EXE_tabula-test-server");
    let tmp = tempfile::tempdir().unwrap();
    let server = ChildServer::start(exe, tmp.path(), None);
    let mut host = registered(server.addr, "Host").await;
    let (id, _absent) = seven_entrants(&mut host, server.addr, 3).await;
    host.request(
        json!({"type": "manage_tournament", "tournament_id": id, "action": {"do": "start"}}),
    )
    .await;
    // Round 2 paired and its games' rooms made: then the kill.
    let before = loop {
        let m = host.expect(|m| m["type"] == "tournament").await;
        let t = &m["tournament"];
        let seated = t["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["round"] == 2 && g["second"].is_number())
            .all(|g| g["room_id"].is_string());
        if t["round"] == 2 && seated {
            break t.clone();
        }
    };
    // SIGKILL: nothing is flushed or said goodbye to.
    server.kill();
    let server = ChildServer::start(exe, tmp.path(), None);
    let mut host = tabula_tests::Client::connect(server.addr).await;
    let hello = host
        .request(
            json!({"type": "hello", "protocol": 1, "name": "Host", "account_password": PASSWORD}),
        )
        .await;
    assert_eq!(hello["type"], "welcome", "{hello}");
    let now = host
        .request(json!({"type": "watch_tournament", "tournament_id": id}))
        .await;
    let now = &now["tournament"];
    assert!(now["seq"].as_u64() >= before["seq"].as_u64(), "{now}");
    // Round 1 as it was before the restart.
    let round_one = |v: &Value| -> Vec<Value> {
        v["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["round"] == 1)
            .cloned()
            .collect()
    };
    assert_eq!(round_one(now), round_one(&before));
    // Round 2's games are the ones paired before the kill, in the same rooms.
    let rooms_of_round_two = |v: &Value| -> Vec<Value> {
        v["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["round"] == 2)
            .map(|g| json!([g["first"], g["second"], g["room_id"]]))
            .collect()
    };
    assert_eq!(rooms_of_round_two(now), rooms_of_round_two(&before));
    let views = if now["status"] == "finished" {
        vec![now.clone()]
    } else {
        until_finished(&mut host, &id).await
    };
    check_finished_swiss(views.last().unwrap(), 3);
    server.kill();
}

/// An arena of ten AI entrants for two minutes of short games: everyone is
/// paired again as their game ends, never against the opponent just
/// played; it ends at its time with the games in play counted; each
/// entrant's points are worked out here from their games (2 a win, 1 a
/// draw, double after two wins in a row until a game is not won).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_of_ten_for_two_minutes() {
    let server = TestServer::start().await;
    let mut host = registered(server.addr, "Host").await;
    let created = host
        .request(json!({"type": "create_tournament", "spec": {
            "name": "Two-minute arena",
            "format": {"kind": "arena", "minutes": 2},
            "game": {"game": "gomoku", "size": 15, "rule": "freestyle", "opening": "none"},
            "time_control": {"initial_secs": 20, "increment_secs": 0},
            "max_entrants": 10
        }}))
        .await;
    assert_eq!(created["type"], "tournament_created", "{created}");
    let id = created["tournament_id"].as_str().unwrap().to_string();
    host.request(json!({"type": "watch_tournament", "tournament_id": id}))
        .await;
    for level in ["beginner", "casual", "intermediate", "advanced", "expert"] {
        for _ in 0..2 {
            host.add_ai_entrant(&id, level).await;
        }
    }
    let started = host
        .request(
            json!({"type": "manage_tournament", "tournament_id": id, "action": {"do": "start"}}),
        )
        .await;
    assert_eq!(started["type"], "ok", "{started}");
    let views = until_finished(&mut host, &id).await;
    let last = views.last().unwrap();
    let seqs: Vec<u64> = views.iter().map(|v| v["seq"].as_u64().unwrap()).collect();
    assert!(
        seqs.windows(2).all(|w| w[1] == w[0] + 1),
        "each seq once, in order: {seqs:?}"
    );
    let ends_at = last["ends_at"].as_i64().expect("an arena ends at its time");
    let started_at = last["started_at"].as_i64().unwrap();
    assert_eq!(ends_at - started_at, 120_000);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    assert!(now >= ends_at, "finished at its time, not before");
    let games = last["games"].as_array().unwrap();
    assert!(
        games.iter().all(|g| g["first_score"].is_u64()),
        "every game counted"
    );
    let mut points = HashMap::new();
    for e in last["entrants"].as_array().unwrap() {
        let no = e["no"].as_u64().unwrap();
        let mine: Vec<(u64, u64)> = games
            .iter()
            .filter_map(|g| {
                if g["first"] == no {
                    Some((g["second"].as_u64()?, g["first_score"].as_u64()?))
                } else if g["second"] == no {
                    Some((g["first"].as_u64()?, g["second_score"].as_u64()?))
                } else {
                    None
                }
            })
            .collect();
        assert!(mine.len() >= 3, "entrant {no} played {} games", mine.len());
        for pair in mine.windows(2) {
            assert_ne!(
                pair[0].0, pair[1].0,
                "entrant {no} met {} twice running",
                pair[0].0
            );
        }
        let (mut total, mut streak) = (0, 0);
        for &(_, result) in &mine {
            total += if streak >= 2 { result * 2 } else { result };
            streak = if result == 2 { streak + 1 } else { 0 };
        }
        points.insert(no, total);
    }
    let standings = last["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 10);
    for row in standings {
        assert_eq!(
            row["score"].as_u64().unwrap(),
            points[&row["id"].as_u64().unwrap()],
            "{row}"
        );
    }
    let scores: Vec<u64> = standings
        .iter()
        .map(|r| r["score"].as_u64().unwrap())
        .collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "best first: {scores:?}"
    );
    println!(
        "arena of ten, 2 min: {} games, points {scores:?}",
        games.len()
    );
    server.stop().await;
}
