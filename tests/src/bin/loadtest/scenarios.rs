//! The measured phases: idle connections, games with spectators, and the
//! peak-rate ramp.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tabula_tests::process_stats::{cpu_ms, rss_kib};
use tokio_tungstenite::tungstenite::Message;

use crate::Args;
use crate::games::{open_game, pct, play, push_latency};
use crate::target::Target;
use crate::wire::{is_action_event, open, send, until};

pub async fn measure(target: &Target, args: &Args) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    let phase = |name: &str| args.phases.iter().any(|p| p == name);
    if phase("idle") {
        measure_idle(target, args, &mut out).await;
    }
    if phase("games") {
        measure_games(target, args, &mut out).await;
    }
    if phase("arena") && target.tabula {
        out.extend(
            crate::arena::measure_arena(target, args.arena_players, args.arena_minutes).await,
        );
    }
    out
}

/// Idle connections: how many are held, and the server's memory per connection.
async fn measure_idle(target: &Target, args: &Args, out: &mut Vec<(String, f64)>) {
    let pid = target.child.id();
    let base = rss_kib(pid);
    // Idle connections.
    let mut idle = Vec::with_capacity(args.idle);
    let mut failed = 0;
    for chunk in 0..args.idle.div_ceil(500) {
        let n = 500.min(args.idle - chunk * 500);
        let opens = (0..n).map(|_| open(target, "idle"));
        for ws in futures_util::future::join_all(opens).await {
            match ws {
                Some(ws) => idle.push(ws),
                None => failed += 1,
            }
        }
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let rss = rss_kib(pid);
    let per = (rss.saturating_sub(base)) as f64 / idle.len().max(1) as f64;
    // Still there after a while?
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut alive = 0;
    for ws in idle.iter_mut() {
        if ws.send(Message::Ping(Default::default())).await.is_ok() {
            alive += 1;
        }
    }
    println!(
        "[{}] idle: {} held, {} failed, {} alive, RSS {} KiB -> {} KiB, {:.1} KiB/connection",
        target.name,
        idle.len(),
        failed,
        alive,
        base,
        rss,
        per
    );
    out.push(("idle connections held".into(), alive as f64));
    out.push(("idle connect failures".into(), failed as f64));
    out.push(("server KiB per idle connection".into(), per));
    drop(idle);
    tokio::time::sleep(Duration::from_secs(2)).await;
}

/// Games at one move per second, with spectators watching game 0.
async fn measure_games(target: &Target, args: &Args, out: &mut Vec<(String, f64)>) {
    let pid = target.child.id();
    // Games at 1 move/s, with spectators on game 0.
    let mut games = Vec::new();
    for chunk in (0..args.games).collect::<Vec<_>>().chunks(200) {
        let opened =
            futures_util::future::join_all(chunk.iter().map(|k| open_game(target, *k))).await;
        games.extend(opened.into_iter().flatten());
    }
    // First the games alone, then again with the spectators watching game 0.
    let (alone, games) = play(
        target,
        games,
        1.0,
        args.seconds,
        Arc::new(Mutex::new(Vec::new())),
    )
    .await;
    let mut alone_latency = alone.opponent();
    println!(
        "[{}] {} games at 1 move/s, no spectators: {:.0} moves/s, opponent p50 {:.2} ms p99 {:.2} ms max {:.2} ms, errors {}",
        target.name,
        games.len(),
        alone.rate(args.seconds),
        pct(&mut alone_latency, 0.5),
        pct(&mut alone_latency, 0.99),
        pct(&mut alone_latency, 1.0),
        alone.errors,
    );
    push_latency(out, "games alone: move-to-opponent", &mut alone_latency);
    out.push(("games alone: errors".into(), alone.errors as f64));
    let sent: Arc<Mutex<Vec<Instant>>> = Arc::new(Mutex::new(Vec::new()));
    let watch_room = games.first().map(|g| g.room.clone()).unwrap_or_default();
    let spectator_lat = Arc::new(Mutex::new(Vec::new()));
    let mut watchers = Vec::new();
    for _ in 0..args.spectators {
        let Some(mut ws) = open(target, &watch_room).await else {
            continue;
        };
        if target.tabula {
            send(
                &mut ws,
                json!({"type": "join_room", "room_id": watch_room, "role": "spectator"}),
            )
            .await;
            if until(&mut ws, |v| v["type"] == "snapshot").await.is_none() {
                continue;
            }
        }
        let sent = sent.clone();
        let lat = spectator_lat.clone();
        let tabula = target.tabula;
        watchers.push(tokio::spawn(async move {
            let mut i = 0usize;
            while let Some(Ok(m)) = ws.next().await {
                let Message::Text(t) = m else { continue };
                if tabula && !is_action_event(t.as_str()) {
                    continue;
                }
                let t0 = sent.lock().expect("lock").get(i).copied();
                if let Some(t0) = t0 {
                    lat.lock()
                        .expect("lock")
                        .push(t0.elapsed().as_secs_f64() * 1000.0);
                }
                i += 1;
            }
        }));
    }
    let before = rss_kib(pid);
    let (stats, games) = play(target, games, 1.0, args.seconds, sent).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    for w in &watchers {
        w.abort();
    }
    let mut spec = spectator_lat.lock().expect("lock").clone();
    let rate = stats.rate(args.seconds);
    let mut latency = stats.opponent();
    println!(
        "[{}] {} games at 1 move/s: {:.0} moves/s, opponent p50 {:.2} ms p99 {:.2} ms max {:.2} ms, errors {}; {} spectators: p50 {:.2} ms p99 {:.2} ms max {:.2} ms; RSS {} KiB",
        target.name,
        games.len(),
        rate,
        pct(&mut latency, 0.5),
        pct(&mut latency, 0.99),
        pct(&mut latency, 1.0),
        stats.errors,
        watchers.len(),
        pct(&mut spec, 0.5),
        pct(&mut spec, 0.99),
        pct(&mut spec, 1.0),
        before
    );
    out.push(("games held".into(), games.len() as f64));
    out.push(("moves/s at 1 move/s per game".into(), rate));
    push_latency(out, "move-to-opponent", &mut latency);
    out.push(("errors".into(), stats.errors as f64));
    out.push(("spectators".into(), watchers.len() as f64));
    push_latency(out, "move-to-spectator", &mut spec);
    drop(games);
}

/// Peak: fresh games at each rising rate until p99 passes 50 ms. A failed
/// step is played once more before the ramp ends: on this shared machine a
/// one-off stall (both processes' CPU per move jumping by a third at once)
/// otherwise decides where either server's ramp ends. Both figures are kept.
/// Then the rate halfway back to the last step passed is played (twice at
/// most), to halve the ramp's resolution where it ended.
///
/// When both servers are measured, their ramps run interleaved, one step of
/// each in turn, and Tabula's rates are half the relay's (the target ratio):
/// near the target both ramps end in the same minutes, so the ratio compares
/// the servers under the same machine conditions.
pub struct Ramp<'a> {
    target: &'a Target,
    games: usize,
    rates: Vec<f64>,
    step: usize,
    attempt: usize,
    best: f64,
    first_failure: Option<f64>,
    cpu_at_8: Option<f64>,
    /// Once the ramp has failed a step twice: the rate halfway between it
    /// and the last step passed, played (and retried) before the ramp ends.
    /// Steps near saturation are 4-6% apart; this halves that, so that two
    /// servers which held the same paired step can still come apart.
    refine: Option<f64>,
    pub done: bool,
}

impl<'a> Ramp<'a> {
    pub fn new(target: &'a Target, args: &Args, paired: bool) -> Ramp<'a> {
        // Paired with the relay, Tabula plays half the relay's moves: at
        // half the rates, or (`--paced`) on half the games.
        let (scale, games) = match (paired && target.tabula, args.paced) {
            (true, false) => (0.5, args.peak_games),
            (true, true) => (1.0, args.peak_games / 2),
            (false, _) => (1.0, args.peak_games),
        };
        Ramp {
            target,
            games,
            rates: args.rates.iter().map(|r| r * scale).collect(),
            step: 0,
            attempt: 0,
            best: 0.0,
            first_failure: None,
            cpu_at_8: None,
            refine: None,
            done: args.rates.is_empty(),
        }
    }

    /// Plays the next step (or the retry of a failed one).
    pub async fn next_step(&mut self, args: &Args) {
        if self.done {
            return;
        }
        let rate = self.refine.unwrap_or(self.rates[self.step]);
        // Each try gets fresh games (room names from the step and attempt).
        let tag = self.step + usize::from(self.refine.is_some()) * self.rates.len();
        let (mps, cpu_us_per_move, passed) =
            peak_step(self.target, args, self.games, tag, self.attempt, rate).await;
        if rate == 8.0 && self.attempt == 0 {
            // 8 moves/s per game: busy, but below every saturation seen so far.
            self.cpu_at_8 = Some(cpu_us_per_move);
        }
        if passed {
            self.best = self.best.max(mps);
            self.attempt = 0;
            if self.refine.is_some() {
                self.done = true;
            } else {
                self.step += 1;
                self.done = self.step == self.rates.len();
            }
        } else {
            self.first_failure.get_or_insert(self.best);
            self.attempt += 1;
            if self.attempt == 2 {
                self.attempt = 0;
                match (self.refine, self.step.checked_sub(1)) {
                    (None, Some(last_passed)) => {
                        self.refine = Some((self.rates[last_passed] + rate) / 2.0);
                    }
                    _ => self.done = true,
                }
            }
        }
    }

    pub fn finish(self) -> Vec<(String, f64)> {
        vec![
            (
                "server CPU us per move (8 moves/s per game)".into(),
                self.cpu_at_8.unwrap_or(f64::NAN),
            ),
            (
                "peak moves/s, ramp ends at the first failed step".into(),
                self.first_failure.unwrap_or(self.best),
            ),
            (
                "peak moves/s with p99 < 50 ms (>= 95% of offered; a failed step tried twice, then the halfway rate)"
                    .into(),
                self.best,
            ),
        ]
    }
}

/// One line: `tenth-of-a-second:moves/p50 ms/max ms` for each 100 ms of a step.
fn print_timeline(name: &str, when: &[(f64, f64)]) {
    let mut buckets: std::collections::BTreeMap<u64, Vec<f64>> = Default::default();
    for (t, latency) in when {
        buckets.entry((t * 10.0) as u64).or_default().push(*latency);
    }
    let line: Vec<String> = buckets
        .iter_mut()
        .map(|(b, v)| format!("{b}:{}/{:.0}/{:.0}", v.len(), pct(v, 0.5), pct(v, 1.0)))
        .collect();
    println!("[{name}] timeline {}", line.join(" "));
}

/// One step of the peak ramp on fresh games: (moves/s, server CPU us per
/// move, whether it passed).
async fn peak_step(
    target: &Target,
    args: &Args,
    games: usize,
    step: usize,
    attempt: usize,
    rate: f64,
) -> (f64, f64, bool) {
    let pid = target.child.id();
    let mut peak = Vec::new();
    for chunk in (0..games).collect::<Vec<_>>().chunks(200) {
        let first = 100_000 * (2 * step + attempt + 1);
        let opened =
            futures_util::future::join_all(chunk.iter().map(|k| open_game(target, first + *k)))
                .await;
        peak.extend(opened.into_iter().flatten());
    }
    let cpu_before = cpu_ms(pid);
    let tool_before = cpu_ms(std::process::id());
    let (s, back) = play(
        target,
        peak,
        rate,
        args.peak_seconds,
        Arc::new(Mutex::new(Vec::new())),
    )
    .await;
    let done = s.moves.len().max(1) as f64;
    let cpu_us_per_move = (cpu_ms(pid) - cpu_before) * 1000.0 / done;
    let tool_us_per_move = (cpu_ms(std::process::id()) - tool_before) * 1000.0 / done;
    let mps = s.rate(args.peak_seconds);
    let p99 = pct(&mut s.opponent(), 0.99);
    if args.timeline {
        print_timeline(target.name, &s.moves);
    }
    // A step counts only when the server kept up with it: under a closed
    // loop (each game waits for its move's answer) an overloaded server
    // would otherwise show its saturated rate with a bounded p99.
    let offered = rate * back.len() as f64;
    let passed = p99 < 50.0 && s.errors == 0 && mps >= 0.95 * offered;
    println!(
        "[{}] peak ramp: {} games x {rate} moves/s{}: {mps:.0} moves/s, p99 {p99:.2} ms, errors {}, CPU per move: server {cpu_us_per_move:.0} us, load tool {tool_us_per_move:.0} us{}",
        target.name,
        back.len(),
        if attempt > 0 { " (again)" } else { "" },
        s.errors,
        if passed { "" } else { " -> failed" }
    );
    (mps, cpu_us_per_move, passed)
}
