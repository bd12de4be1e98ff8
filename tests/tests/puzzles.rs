//! Puzzles over real sockets: the built-in set served without its answer,
//! the answer checked by the server, the first answer to a puzzle rated
//! (durably, then told) and later ones not, the daily puzzle the same for
//! everyone, the typed refusals; and a finished game looked through for
//! puzzles on its own.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tabula_shared::protocol::{PuzzleAnswer, PuzzleSolution, PuzzleTheme, SolvedPuzzle};
use tabula_shared::study::StudyPosition;
use tabula_tests::{Client, TestServer, gomoku_options, guest_at, point, test_config};

/// The built-in set the server serves (its own copy, read here to know the
/// answers).
fn built_in() -> Vec<SolvedPuzzle> {
    serde_json::from_str(include_str!("../../server/src/puzzles/seed.json")).expect("reads")
}

fn solution_of(id: &str) -> SolvedPuzzle {
    built_in()
        .into_iter()
        .find(|p| p.id() == id)
        .unwrap_or_else(|| panic!("{id} is not a built-in puzzle"))
}

async fn ask(c: &mut Client, msg: Value) -> Value {
    let reply = c.request(msg).await;
    assert_eq!(reply["type"], "puzzle", "{reply}");
    assert!(
        reply["puzzle"].get("solution").is_none(),
        "the answer is not sent: {reply}"
    );
    reply
}

async fn solve(c: &mut Client, id: &str, answer: &PuzzleAnswer) -> Value {
    c.request(json!({"type": "solve_puzzle", "puzzle_id": id, "answer": answer}))
        .await
}

/// A wrong answer of the puzzle's kind.
fn wrong(p: &SolvedPuzzle) -> PuzzleAnswer {
    match (&p.solution.answer, &p.position) {
        (PuzzleAnswer::Point { point }, _) => PuzzleAnswer::Point {
            point: tabula_shared::gomoku::Point::new((point.x + 7) % 15, (point.y + 7) % 15),
        },
        (PuzzleAnswer::Play { .. }, StudyPosition::Backgammon(setup)) => setup
            .to_match()
            .unwrap()
            .legal_plays()
            .into_iter()
            .map(|play| PuzzleAnswer::Play { play })
            .find(|a| p.check(a) == Ok(false))
            .expect("another play"),
        (PuzzleAnswer::Cube { action }, _) => PuzzleAnswer::Cube {
            action: if *action == tabula_shared::protocol::CubeAction::NoDouble {
                tabula_shared::protocol::CubeAction::DoublePass
            } else {
                tabula_shared::protocol::CubeAction::NoDouble
            },
        },
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn built_in_puzzles_are_served_checked_and_rated_once() {
    let server = TestServer::start().await;
    let mut ada = server.client("Ada").await;
    let first = ask(&mut ada, json!({"type": "puzzle"})).await;
    assert_eq!(
        (first["rating"].as_i64(), first["provisional"].as_bool()),
        (Some(1500), Some(true))
    );
    let id = first["puzzle"]["id"].as_str().unwrap().to_string();
    let p = solution_of(&id);
    assert_eq!(first["puzzle"]["position"], json!(p.position));

    // The right answer: rated, the line after it.
    let right = solve(&mut ada, &id, &p.solution.answer).await;
    assert_eq!(right["type"], "puzzle_solved", "{right}");
    assert_eq!(right["correct"], true);
    let told: PuzzleSolution = serde_json::from_value(right["solution"].clone()).expect("solution");
    assert_eq!(told, p.solution);
    assert_eq!(right["rating"]["before"], 1500);
    let after = right["rating"]["after"].as_i64().unwrap();
    assert!(after > 1500, "{right}");

    // Again, wrong: checked, not rated.
    let again = solve(&mut ada, &id, &wrong(&p)).await;
    assert_eq!(again["correct"], false, "{again}");
    assert!(again.get("rating").is_none(), "{again}");

    // The next one is another, and the rating is the one kept.
    let next = ask(&mut ada, json!({"type": "puzzle"})).await;
    assert_ne!(next["puzzle"]["id"], json!(id));
    assert_eq!(next["rating"].as_i64(), Some(after));
    let next_id = next["puzzle"]["id"].as_str().unwrap().to_string();
    let q = solution_of(&next_id);
    let missed = solve(&mut ada, &next_id, &wrong(&q)).await;
    assert_eq!(missed["correct"], false);
    assert_eq!(missed["rating"]["before"].as_i64(), Some(after));
    assert!(
        missed["rating"]["after"].as_i64().unwrap() < after,
        "{missed}"
    );

    // A theme: a Backgammon best play, answered with the play as the
    // client lists it (the rules' own move generation).
    let bg = ask(&mut ada, json!({"type": "puzzle", "theme": "best_play"})).await;
    let bg_id = bg["puzzle"]["id"].as_str().unwrap().to_string();
    let b = solution_of(&bg_id);
    assert_eq!(b.theme, PuzzleTheme::BestPlay);
    let StudyPosition::Backgammon(setup) = &b.position else {
        panic!("a Backgammon position")
    };
    let listed = setup
        .to_match()
        .unwrap()
        .legal_plays()
        .into_iter()
        .map(|play| PuzzleAnswer::Play { play })
        .find(|a| b.check(a) == Ok(true))
        .expect("the answer is among the legal plays");
    let solved = solve(&mut ada, &bg_id, &listed).await;
    assert_eq!(solved["correct"], true, "{solved}");

    // Each Gomoku theme by name, answered right with its point.
    for theme in [PuzzleTheme::WinByThreats, PuzzleTheme::OnlyDefence] {
        let got = ask(&mut ada, json!({"type": "puzzle", "theme": theme.name()})).await;
        let got_id = got["puzzle"]["id"].as_str().unwrap().to_string();
        let g = solution_of(&got_id);
        assert_eq!(g.theme, theme, "{got}");
        let solved = solve(&mut ada, &got_id, &g.solution.answer).await;
        assert_eq!(solved["correct"], true, "{solved}");
    }

    // Typed refusals, nothing counted.
    let kind = solve(
        &mut ada,
        &bg_id,
        &PuzzleAnswer::Point {
            point: tabula_shared::gomoku::Point::new(7, 7),
        },
    )
    .await;
    assert_eq!(kind["code"], "bad_request", "{kind}");
    let unknown = solve(&mut ada, "z-nope", &p.solution.answer).await;
    assert_eq!(unknown["code"], "not_found", "{unknown}");
    let bad = ada
        .request(json!({"type": "puzzle", "theme": "mate_in_two"}))
        .await;
    assert_eq!(bad["code"], "bad_request", "{bad}");

    // The daily puzzle: the same for everyone today.
    let daily = ask(&mut ada, json!({"type": "puzzle", "daily": true})).await;
    assert_eq!(daily["daily"], true);
    let mut bob = server.client("Bob").await;
    let bobs = ask(&mut bob, json!({"type": "puzzle", "daily": true})).await;
    assert_eq!(bobs["puzzle"]["id"], daily["puzzle"]["id"]);
    assert_eq!(bobs["rating"], 1500);
    server.stop().await;
}

/// Kept over a restart: the rating, and which puzzles were tried.
#[tokio::test]
async fn a_puzzle_rating_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(test_config(dir.path())).await;
    let mut ada = server.client("Ada").await;
    let token = ada.token.clone();
    let first = ask(&mut ada, json!({"type": "puzzle"})).await;
    let id = first["puzzle"]["id"].as_str().unwrap().to_string();
    let right = solve(&mut ada, &id, &solution_of(&id).solution.answer).await;
    let after = right["rating"]["after"].clone();
    ada.close().await;
    server.stop().await;

    let server = TestServer::start_with(test_config(dir.path())).await;
    let mut back = Client::connect(server.addr).await;
    back.hello("Ada", Some(&token)).await;
    let next = ask(&mut back, json!({"type": "puzzle"})).await;
    assert_eq!(next["rating"], after);
    assert_ne!(
        next["puzzle"]["id"],
        json!(id),
        "a puzzle tried is not served again"
    );
    server.stop().await;
}

/// A finished game is looked through for puzzles: a Gomoku game replaying
/// a built-in puzzle's stones, then resigned, gives that puzzle, now
/// naming the game, on a server that does not add the built-in set.
#[tokio::test]
async fn a_finished_game_is_harvested_for_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(dir.path());
    config.built_in_puzzles = false;
    let server = TestServer::start_with(config).await;
    let mut black = guest_at(server.addr, "Ada").await;
    let mut white = guest_at(server.addr, "Bob").await;
    let none = black.request(json!({"type": "puzzle"})).await;
    assert_eq!(none["code"], "not_found", "no puzzles yet: {none}");

    let source = built_in()
        .into_iter()
        .find(|p| match &p.position {
            StudyPosition::Gomoku(s) => {
                s.size == 15 && s.rule == tabula_shared::gomoku::Rule::Freestyle
            }
            StudyPosition::Backgammon(_) => false,
        })
        .expect("a freestyle Gomoku puzzle");
    let StudyPosition::Gomoku(setup) = &source.position else {
        unreachable!()
    };
    let (room, _) = black
        .create(gomoku_options(json!({"kind": "human"}), "black"))
        .await;
    white.join(&room, "player").await;
    for i in 0..setup.black.len() {
        let b = setup.black[i];
        let placed = black
            .act(&room, json!({"kind": "place", "point": point(b.x, b.y)}))
            .await;
        assert_eq!(placed["type"], "event", "{placed}");
        if let Some(w) = setup.white.get(i) {
            let placed = white
                .act(&room, json!({"kind": "place", "point": point(w.x, w.y)}))
                .await;
            assert_eq!(placed["type"], "event", "{placed}");
        }
    }
    // The side not to move resigns: the puzzle's position is the last.
    let loser = match setup.to_move {
        tabula_shared::gomoku::Stone::Black => &mut white,
        tabula_shared::gomoku::Stone::White => &mut black,
    };
    let resigned = loser
        .request(json!({"type": "resign", "room_id": room}))
        .await;
    assert_eq!(resigned["type"], "ok", "{resigned}");
    let over = black.event("game_over").await;
    let game_id = over["event"]["game_id"]
        .as_str()
        .expect("game id")
        .to_string();

    let deadline = Instant::now() + Duration::from_secs(60);
    let mut found = Vec::new();
    while found.len() < 2 && Instant::now() < deadline {
        let reply = black
            .request(json!({"type": "puzzle", "theme": "win_by_fours"}))
            .await;
        if reply["type"] != "puzzle" {
            if !found.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        }
        let id = reply["puzzle"]["id"].as_str().unwrap().to_string();
        assert_eq!(reply["puzzle"]["game_id"], json!(game_id), "{reply}");
        // Answered (wrongly), so that the next request gives the next one.
        let answer = json!({"kind": "point", "point": point(0, 0)});
        let told = black
            .request(json!({"type": "solve_puzzle", "puzzle_id": id, "answer": answer}))
            .await;
        assert_eq!(told["type"], "puzzle_solved", "{told}");
        found.push(id);
    }
    assert!(
        found.contains(&source.id()),
        "the built-in puzzle's position was found again: {found:?}"
    );
    server.stop().await;
}
