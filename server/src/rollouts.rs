//! [`Rollouts`]: the analysis board's Backgammon rollouts (`rollout`,
//! `stop_rollout`).
//!
//! - **Idle cores only.** A rollout plays its trials in chunks of
//!   [`CHUNK`], each one step on the cores the AI seats leave idle
//!   ([`crate::thinking`], with the analyses' priority), so neither the
//!   seats in rooms nor hints wait for it.
//! - **Told as it goes, ended once.** A `rollout` report follows each
//!   chunk (at most every [`REPORT_EVERY`]); the last says `finished` or
//!   `stopped`, and every rollout that starts ends with exactly one.
//! - **One per player.** A newer rollout stops the player's older one (its
//!   `stopped` report goes out first); one whose client has gone stops.
//!   Past `analysis_workers + analysis_queue` rollouts over the server a
//!   request is answered `busy` with a retry time.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tabula_shared::protocol::{
    DEFAULT_ROLLOUT_TRIALS, ErrorCode, MAX_ROLLOUT_TRIALS, RolloutState, ServerFrame, ServerMessage,
};
use tabula_shared::study::StudyPosition;

use crate::config::Config;
use crate::outlet::Outlet;
use crate::thinking::{Thinking, Work};

/// Trials of every candidate played in one step.
pub const CHUNK: u32 = 36;
/// Least time between two running reports to one client.
const REPORT_EVERY: Duration = Duration::from_millis(250);
/// How long a client is told to wait when every rollout slot is taken.
const BUSY_RETRY: Duration = Duration::from_secs(5);

/// The rollouts of one server.
pub struct Rollouts {
    thinking: Arc<Thinking>,
    max_jobs: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    /// Each player's rollout in work: its number and its stop flag.
    running: HashMap<String, (u64, Arc<AtomicBool>)>,
    next: u64,
}

fn send(tx: &Outlet, request_id: Option<u64>, message: ServerMessage) -> bool {
    let frame = ServerFrame {
        request_id,
        message,
    };
    tx.send_text(&frame.encode()).is_ok()
}

impl Rollouts {
    /// The service with `config`'s limits.
    pub fn new(config: &Config, thinking: Arc<Thinking>) -> Arc<Rollouts> {
        Arc::new(Rollouts {
            thinking,
            max_jobs: config.analysis_workers.max(1) + config.analysis_queue,
            inner: Mutex::new(Inner::default()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Starts `player_id`'s rollout of `position` (stopping their older
    /// one), its reports going to `tx`; or sends the refusal.
    pub fn start(
        self: &Arc<Self>,
        position: StudyPosition,
        trials: Option<u32>,
        player_id: String,
        tx: Outlet,
        request_id: Option<u64>,
    ) {
        let refuse = |message| {
            send(&tx, request_id, message);
        };
        let StudyPosition::Backgammon(setup) = &position else {
            return refuse(ServerMessage::error(
                ErrorCode::BadRequest,
                "rollouts are for Backgammon positions",
            ));
        };
        let trials = trials.unwrap_or(DEFAULT_ROLLOUT_TRIALS);
        if !(1..=MAX_ROLLOUT_TRIALS).contains(&trials) {
            return refuse(ServerMessage::error(
                ErrorCode::BadRequest,
                format!("a rollout plays 1 to {MAX_ROLLOUT_TRIALS} trials"),
            ));
        }
        let m = match setup.to_match() {
            Ok(m) => m,
            Err(e) => {
                return refuse(ServerMessage::error(ErrorCode::BadPosition, e.to_string()));
            }
        };
        use tabula_shared::backgammon::GamePhase;
        if !matches!(
            m.phase(),
            GamePhase::Moving { .. }
                | GamePhase::AwaitingRoll { .. }
                | GamePhase::CubeOffered { .. }
        ) {
            return refuse(ServerMessage::error(
                ErrorCode::BadPosition,
                "nobody is to decide in this position: set the dice, or a side to roll",
            ));
        }
        let (number, stop) = {
            let mut inner = self.lock();
            let mine = inner.running.remove(&player_id);
            if mine.is_none() && inner.running.len() >= self.max_jobs {
                drop(inner);
                return refuse(ServerMessage::busy(
                    "the engines are busy with other rollouts; try again soon",
                    BUSY_RETRY,
                ));
            }
            if let Some((_, older)) = mine {
                older.store(true, Ordering::Relaxed);
            }
            inner.next += 1;
            let entry = (inner.next, Arc::new(AtomicBool::new(false)));
            inner.running.insert(player_id.clone(), entry.clone());
            entry
        };
        let this = self.clone();
        tokio::spawn(async move {
            this.run(m, position, trials, &stop, &tx, request_id).await;
            let mut inner = this.lock();
            if inner
                .running
                .get(&player_id)
                .is_some_and(|(n, _)| *n == number)
            {
                inner.running.remove(&player_id);
            }
        });
    }

    /// Stops `player_id`'s rollout; `false` when none is in work.
    pub fn stop(&self, player_id: &str) -> bool {
        match self.lock().running.get(player_id) {
            Some((_, stop)) => {
                stop.store(true, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }

    /// Plays the trials chunk by chunk on idle cores, reporting as it goes.
    async fn run(
        &self,
        m: tabula_shared::backgammon::BgMatch,
        position: StudyPosition,
        trials: u32,
        stop: &AtomicBool,
        tx: &Outlet,
        request_id: Option<u64>,
    ) {
        // The candidates (a 1-ply look at the plays) on an idle core too.
        let seed: u64 = rand::RngExt::random(&mut rand::rng());
        let core = self.thinking.step(Work::Analysis).await;
        let made = tokio::task::spawn_blocking(move || {
            tabula_ai::backgammon::rollout::Rollout::new(&m, seed)
        })
        .await;
        drop(core);
        let Ok(Some(mut rollout)) = made else {
            send(
                tx,
                request_id,
                ServerMessage::error(
                    ErrorCode::Internal,
                    "the Backgammon Expert is not available",
                ),
            );
            return;
        };
        let mut last_report = Instant::now();
        let report =
            |rollout: &tabula_ai::backgammon::rollout::Rollout, state| ServerMessage::Rollout {
                position: position.clone(),
                rollout: Box::new(rollout.report(trials, state)),
            };
        loop {
            if stop.load(Ordering::Relaxed) {
                send(tx, request_id, report(&rollout, RolloutState::Stopped));
                return;
            }
            if rollout.trials_done() >= trials {
                send(tx, request_id, report(&rollout, RolloutState::Finished));
                return;
            }
            let chunk = CHUNK.min(trials - rollout.trials_done());
            let core = self.thinking.step(Work::Analysis).await;
            let played = tokio::task::spawn_blocking(move || {
                rollout.run(chunk);
                rollout
            })
            .await;
            drop(core);
            let Ok(played) = played else {
                tracing::error!("a rollout panicked");
                send(
                    tx,
                    request_id,
                    ServerMessage::error(ErrorCode::Internal, "the rollout failed"),
                );
                return;
            };
            rollout = played;
            let done = rollout.trials_done() >= trials;
            if !done && last_report.elapsed() >= REPORT_EVERY {
                last_report = Instant::now();
                if !send(tx, request_id, report(&rollout, RolloutState::Running)) {
                    return; // the client has gone
                }
            }
        }
    }
}
