//! Does a flood of analyses slow the AI seats? Times the Gomoku
//! Intermediate AI's answers (a fixed amount of search per move, so that
//! CPU contention shows as time) in a quiet server, then while other
//! players keep the server's analysis queue full.
//!
//! `cargo run --release -p tabula-tests --bin ai-latency -- --moves 30`

use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::json;
use tabula_shared::game::LiveGame;
use tabula_shared::gomoku::Point;
use tabula_shared::seat::Seat;
use tabula_tests::{Client, TestServer, gomoku_options, point, replay_snapshot, test_config};

#[derive(Parser)]
#[command(about = "AI answer times, quiet and under a flood of analyses")]
struct Cli {
    /// AI answers timed in each phase.
    #[arg(long, default_value_t = 30)]
    moves: usize,
    /// Players asking for analyses in the flood.
    #[arg(long, default_value_t = 12)]
    flooders: usize,
}

/// Plays `moves` stones against the Intermediate AI and returns the time
/// from each stone's acknowledgement to the AI's answer.
async fn ai_answer_times(server: &TestServer, moves: usize) -> Vec<Duration> {
    let mut times = Vec::new();
    while times.len() < moves {
        let mut ada = server.client("Ada").await;
        let (room, _) = ada
            .create(gomoku_options(
                json!({"kind": "ai", "level": "intermediate"}),
                "black",
            ))
            .await;
        while times.len() < moves {
            let snap = ada.request(json!({"type": "sync", "room_id": room})).await;
            if !snap["snapshot"]["result"].is_null() {
                break;
            }
            let LiveGame::Gomoku(game) = replay_snapshot(&snap) else {
                unreachable!("a gomoku room")
            };
            let Some(p) = nearest_free(&game) else { break };
            let reply = ada.act(&room, json!({"kind": "place", "point": p})).await;
            if reply["type"] != "event" {
                break;
            }
            let sent = Instant::now();
            let answer = ada.action_where(|a| a["seat"] == "second").await;
            if answer.is_null() {
                break;
            }
            times.push(sent.elapsed());
        }
        ada.close().await;
    }
    times
}

/// A legal point for Black near the centre.
fn nearest_free(game: &tabula_shared::gomoku::Gomoku) -> Option<Point> {
    let size = game.size();
    let c = i32::from(size / 2);
    (0..size)
        .flat_map(|y| (0..size).map(move |x| Point { x, y }))
        .filter(|p| game.is_legal(Seat::First, *p).is_ok())
        .min_by_key(|p| (i32::from(p.x) - c).abs() + (i32::from(p.y) - c).abs() + i32::from(p.y))
}

/// A finished PvP game (Black wins on the c row); its id.
async fn finished_game(server: &TestServer, n: usize) -> String {
    let (mut b, mut w, room) = server
        .pvp_gomoku_between(&format!("B{n}"), &format!("W{n}"))
        .await;
    for i in 0..5u8 {
        b.act(&room, json!({"kind": "place", "point": point(2 + i, 2)}))
            .await;
        if i < 4 {
            w.act(
                &room,
                json!({"kind": "place", "point": point(2 + i, 9 + (n % 4) as u8)}),
            )
            .await;
        }
    }
    let over = b.event("game_over").await;
    over["event"]["game_id"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn report(label: &str, mut times: Vec<Duration>) -> Duration {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let median = times[times.len() / 2];
    println!(
        "{label}: {} answers, median {:.0} ms, p90 {:.0} ms, max {:.0} ms",
        times.len(),
        ms(median),
        ms(times[times.len() * 9 / 10]),
        ms(times[times.len() - 1])
    );
    median
}

#[tokio::main]
async fn main() {
    let cli = Cli::parse();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut config = test_config(dir.path());
    // Long analysis steps, so that the flood keeps the cores it may use busy.
    config.analysis_gomoku_nodes = 2_000_000;
    let server = TestServer::start_with(config).await;
    let quiet = report("quiet", ai_answer_times(&server, cli.moves).await);

    let mut flooders = Vec::new();
    let (mut running, mut refused) = (0, 0);
    for n in 0..cli.flooders {
        let game = finished_game(&server, n).await;
        let mut c: Client = server.client(&format!("F{n}")).await;
        c.send(json!({"type": "analyse", "game_id": game, "request_id": 1}))
            .await;
        let first = c.expect(|m| m["request_id"] == 1).await;
        if first["type"] == "analysis_progress" {
            running += 1;
        } else {
            refused += 1;
        }
        flooders.push(c);
    }
    println!("analyses under way or queued: {running}; refused busy: {refused}");
    let flooded = report(
        &format!("{} analyses asked for", cli.flooders),
        ai_answer_times(&server, cli.moves).await,
    );
    println!(
        "ratio flooded/quiet (medians): {:.2}",
        flooded.as_secs_f64() / quiet.as_secs_f64()
    );
    drop(flooders);
    // The analyses still running would hold the runtime's shutdown for
    // minutes; the figures are out.
    std::process::exit(0);
}
