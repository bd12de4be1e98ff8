//! The arena phase: N players enter a Tabula arena and play fast Gomoku
//! games for its whole length; measured are the pairing latency (from a
//! player's `game_over` to their next `tournament_game`) and the server's
//! CPU over the arena.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::games::fill_point;
use crate::target::Target;
use crate::wire::{Ws, open, open_as, send, until};

/// Each side's stones before the first seat resigns: a fast game.
const STONES: usize = 5;

/// Runs an arena of `players` for `minutes` on `target`; the figures.
pub async fn measure_arena(target: &Target, players: usize, minutes: u32) -> Vec<(String, f64)> {
    let mut host = open_as(target, "arena", "Arena host")
        .await
        .expect("the host connects");
    send(
        &mut host,
        json!({"type": "register", "password": "correct horse battery"}),
    )
    .await;
    until(&mut host, |v| v["type"] == "registered")
        .await
        .expect("the host registers");
    send(
        &mut host,
        json!({"type": "create_tournament", "spec": {
            "name": "Load arena",
            "format": {"kind": "arena", "minutes": minutes},
            "game": {"game": "gomoku", "size": 15, "rule": "freestyle", "opening": "none"},
            "time_control": {"initial_secs": 60, "increment_secs": 0},
            "max_entrants": players,
            "forfeit_secs": 60
        }}),
    )
    .await;
    let created = until(&mut host, |v| {
        v["type"] == "tournament_created" || v["type"] == "error"
    })
    .await
    .expect("an answer to create_tournament");
    let id = created["tournament_id"]
        .as_str()
        .unwrap_or_else(|| panic!("the arena is created: {created}"))
        .to_string();
    // Everyone connects and enters before the start.
    let mut entrants = Vec::with_capacity(players);
    for chunk in 0..players.div_ceil(250) {
        let n = 250.min(players - chunk * 250);
        let joins = (0..n).map(|_| enter(target, &id));
        entrants.extend(
            futures_util::future::join_all(joins)
                .await
                .into_iter()
                .flatten(),
        );
    }
    let entered = entrants.len();
    println!("arena: {entered} of {players} entered");
    let pid = target.child.id();
    let cpu_before = tabula_tests::process_stats::cpu_ms(pid);
    let began = Instant::now();
    send(
        &mut host,
        json!({"type": "manage_tournament", "tournament_id": id, "action": {"do": "start"}}),
    )
    .await;
    let stats = Arc::new(Mutex::new(ArenaStats::default()));
    let end = began + Duration::from_secs(u64::from(minutes) * 60);
    let tasks: Vec<_> = entrants
        .into_iter()
        .map(|ws| tokio::spawn(play(ws, stats.clone(), end)))
        .collect();
    for t in tasks {
        let _ = t.await;
    }
    let seconds = began.elapsed().as_secs_f64();
    let cpu = tabula_tests::process_stats::cpu_ms(pid) - cpu_before;
    let stats = stats.lock().expect("stats");
    let mut waits = stats.waits_ms.clone();
    waits.sort_by(f64::total_cmp);
    let pct = |p: f64| {
        waits
            .get(((waits.len() as f64 * p) as usize).min(waits.len().saturating_sub(1)))
            .copied()
            .unwrap_or(f64::NAN)
    };
    vec![
        ("arena entrants".into(), entered as f64),
        (
            "arena games finished (seen by a player)".into(),
            stats.games as f64,
        ),
        ("arena pairing latency p50 (ms)".into(), pct(0.5)),
        ("arena pairing latency p99 (ms)".into(), pct(0.99)),
        (
            "arena pairing latency max (ms)".into(),
            waits.last().copied().unwrap_or(f64::NAN),
        ),
        (
            "arena server CPU (% of one core)".into(),
            cpu / 10.0 / seconds,
        ),
        ("arena errors".into(), stats.errors as f64),
    ]
}

#[derive(Default)]
struct ArenaStats {
    /// Each wait from a game's end to the next pairing, in ms.
    waits_ms: Vec<f64>,
    games: u64,
    errors: u64,
}

/// A guest who has entered tournament `id`.
async fn enter(target: &Target, id: &str) -> Option<Ws> {
    let mut ws = open(target, "arena").await?;
    send(
        &mut ws,
        json!({"type": "join_tournament", "tournament_id": id, "request_id": 1}),
    )
    .await;
    let answer = until(&mut ws, |v| v["request_id"] == 1).await?;
    (answer["type"] == "ok").then_some(ws)
}

/// Plays every game the arena pairs this player in until `end`: joins the
/// room, places stones that never make five, and the first seat resigns
/// after [`STONES`] each.
async fn play(mut ws: Ws, stats: Arc<Mutex<ArenaStats>>, end: Instant) {
    let mut ended_at: Option<Instant> = None;
    while Instant::now() < end {
        let left = end.saturating_duration_since(Instant::now()) + Duration::from_secs(5);
        let Ok(Some(paired)) =
            tokio::time::timeout(left, next(&mut ws, |v| v["type"] == "tournament_game")).await
        else {
            return;
        };
        if let Some(at) = ended_at.take() {
            stats
                .lock()
                .expect("stats")
                .waits_ms
                .push(at.elapsed().as_secs_f64() * 1000.0);
        }
        let room = paired["room_id"].as_str().unwrap_or_default().to_string();
        let first = paired["seat"] == "first";
        send(
            &mut ws,
            json!({"type": "join_room", "room_id": room, "role": "player"}),
        )
        .await;
        if play_game(&mut ws, &room, first).await {
            ended_at = Some(Instant::now());
            stats.lock().expect("stats").games += 1;
        } else {
            stats.lock().expect("stats").errors += 1;
            return;
        }
    }
}

/// One game; true when it ended (its `game_over` seen).
async fn play_game(ws: &mut Ws, room: &str, first: bool) -> bool {
    let mut actions = 0usize;
    let mut mine = 0usize;
    let mut started = false;
    loop {
        let Some(v) = next(ws, |v| v["room_id"] == room).await else {
            return false;
        };
        let kind = v["event"]["kind"].as_str().unwrap_or_default();
        match (v["type"].as_str().unwrap_or_default(), kind) {
            ("event", "game_over") => return true,
            ("event", "game_started") => started = true,
            ("event", "action") => actions += 1,
            ("snapshot", _) => {
                let snap = &v["snapshot"];
                started |= snap["summary"]["status"] == "playing";
                actions = snap["record"]["actions"].as_array().map_or(0, Vec::len);
                if snap["result"].is_object() {
                    return true;
                }
            }
            _ => continue,
        }
        let my_turn = started && actions.is_multiple_of(2) == first;
        if !my_turn {
            continue;
        }
        if first && mine >= STONES {
            send(ws, json!({"type": "resign", "room_id": room})).await;
            continue;
        }
        let Some((x, y)) = fill_point(first, mine) else {
            return false;
        };
        mine += 1;
        send(ws, json!({"type": "act", "room_id": room, "action": {"kind": "place", "point": {"x": x, "y": y}}})).await;
    }
}

/// The next frame that matches `pred`, waiting as long as it takes (None
/// when the connection closes).
async fn next(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Option<Value> {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    loop {
        match ws.next().await? {
            Ok(Message::Text(t)) => {
                if let Ok(v) = serde_json::from_str::<Value>(t.as_str())
                    && pred(&v)
                {
                    return Some(v);
                }
            }
            Ok(_) => {}
            Err(_) => return None,
        }
    }
}
