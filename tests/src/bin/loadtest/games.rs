//! Games between two connections, played at a given rate, and what they
//! measure.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::target::Target;
use crate::wire::{Ws, is_action_event, open, send, send_text, until, until_text};

/// The n-th point of a fill order in which no colour ever gets five in a row:
/// black takes the points with (x + 2y) mod 4 < 2, white the others.
pub fn fill_point(black: bool, n: usize) -> Option<(u8, u8)> {
    (0..15u8)
        .flat_map(|y| (0..15u8).map(move |x| (x, y)))
        .filter(|&(x, y)| ((usize::from(x) + 2 * usize::from(y)) % 4 < 2) == black)
        .nth(n)
}

pub struct Game {
    a: Ws,
    b: Ws,
    pub room: String,
    /// Moves played so far.
    n: usize,
}

pub async fn open_game(target: &Target, k: usize) -> Option<Game> {
    let room = format!("game-{k}");
    let mut a = open(target, &room).await?;
    let mut b = open(target, &room).await?;
    if target.tabula {
        send(&mut a, json!({"type": "create_room", "options": {"game": {"game": "gomoku"}, "opponent": {"kind": "human"}, "colour": "black"}})).await;
        let joined = until(&mut a, |v| v["type"] == "joined").await?;
        let id = joined["room_id"].as_str()?.to_string();
        send(
            &mut b,
            json!({"type": "join_room", "room_id": id, "role": "player"}),
        )
        .await;
        until(&mut b, |v| v["type"] == "joined").await?;
        return Some(Game {
            a,
            b,
            room: id,
            n: 0,
        });
    }
    Some(Game { a, b, room, n: 0 })
}

#[derive(Default)]
pub struct Stats {
    /// Each move done: (seconds since the phase began, move-to-opponent
    /// latency in ms).
    pub moves: Vec<(f64, f64)>,
    pub errors: u64,
}

impl Stats {
    /// The move-to-opponent latencies, in ms.
    pub fn opponent(&self) -> Vec<f64> {
        self.moves.iter().map(|&(_, latency)| latency).collect()
    }

    /// Moves per second over `seconds`.
    pub fn rate(&self, seconds: u64) -> f64 {
        self.moves.len() as f64 / seconds as f64
    }
}

/// The table's p50, p99 and max rows for one latency sample.
pub fn push_latency(out: &mut Vec<(String, f64)>, name: &str, v: &mut [f64]) {
    for (label, p) in [("p50", 0.5), ("p99", 0.99), ("max", 1.0)] {
        out.push((format!("{name} {label} ms"), pct(v, p)));
    }
}

pub fn pct(v: &mut [f64], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[i.min(v.len() - 1)]
}

/// Plays `games` at `rate` moves per second each for `seconds`; spectators
/// (already joined) watch game 0 and report through `watch`.
pub async fn play(
    target: &Target,
    games: Vec<Game>,
    rate: f64,
    seconds: u64,
    sent: Arc<Mutex<Vec<Instant>>>,
) -> (Stats, Vec<Game>) {
    let stats = Arc::new(Mutex::new(Stats::default()));
    let tabula = target.tabula;
    let mut tasks = Vec::new();
    let start = Instant::now();
    for (k, mut g) in games.into_iter().enumerate() {
        let stats = stats.clone();
        let sent = sent.clone();
        tasks.push(tokio::spawn(async move {
            let period = Duration::from_secs_f64(1.0 / rate);
            // Spread the games over the period.
            let offset = period.mul_f64((k % 1000) as f64 / 1000.0);
            let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + offset + period, period);
            while start.elapsed() < Duration::from_secs(seconds) {
                tick.tick().await;
                let n = g.n;
                let black = n % 2 == 0;
                let (mover, other) = if black { (&mut g.a, &mut g.b) } else { (&mut g.b, &mut g.a) };
                let t0 = Instant::now();
                if k == 0 {
                    sent.lock().expect("lock").push(t0);
                }
                // Frames written by hand, not through serde_json::Value: the
                // tool's own CPU is taken from the server under test.
                let ok = if tabula {
                    let Some((x, y)) = fill_point(black, n / 2) else { break };
                    let act = format!(
                        r#"{{"type":"act","room_id":"{}","request_id":{n},"action":{{"kind":"place","point":{{"x":{x},"y":{y}}}}}}}"#,
                        g.room
                    );
                    send_text(mover, act).await && until_text(other, is_action_event).await
                } else {
                    send_text(mover, format!(r#"{{"n":{n}}}"#)).await && until_text(other, |_| true).await
                };
                let latency = t0.elapsed().as_secs_f64() * 1000.0;
                if tabula {
                    // The mover's answer: its own action event, with its request_id.
                    let answer = format!("{{\"request_id\":{n},\"type\":\"event\"");
                    let id = format!("{{\"request_id\":{n},");
                    let mut reply_ok = false;
                    let replied = until_text(mover, |t| {
                        reply_ok = t.starts_with(&answer);
                        t.starts_with(&id)
                    })
                    .await;
                    if !replied || !reply_ok {
                        stats.lock().expect("lock").errors += 1;
                    }
                }
                let mut s = stats.lock().expect("lock");
                if ok {
                    s.moves.push((start.elapsed().as_secs_f64(), latency));
                } else {
                    s.errors += 1;
                }
                g.n += 1;
            }
            g
        }));
    }
    let mut back = Vec::new();
    for t in tasks {
        if let Ok(g) = t.await {
            back.push(g);
        }
    }
    let stats = Arc::try_unwrap(stats)
        .map(|m| m.into_inner().expect("lock"))
        .unwrap_or_default();
    (stats, back)
}
