//! [`Analyses`]: the engines' work for players outside the games' own
//! moves: the analysis of finished games (`analyse`) and hints (`hint`).
//!
//! - **Once per game.** An analysis is saved with its game and read back
//!   from then on; a request for a game being analysed joins that work and
//!   hears the same progress.
//! - **Saved, then told.** The `analysis` message goes out only after the
//!   store has made it durable.
//! - **Bounded.** Analyses run on the blocking pool, at most
//!   `analysis_workers` at once, with at most `analysis_queue` more waiting;
//!   past that a request is answered `busy`. Their steps (one action of the
//!   record each) and hints run only on cores the AI seats leave idle
//!   ([`crate::thinking`]). A player has one analysis going at a time and
//!   `hints_per_minute` hints.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tabula_shared::game::LiveGame;
use tabula_shared::protocol::{ErrorCode, GameAnalysis, Hint, ServerFrame, ServerMessage};
use tabula_shared::seat::Seat;
use tokio::sync::{Semaphore, watch};

use crate::config::Config;
use crate::outlet::Outlet;
use crate::store::Store;
use crate::thinking::{Thinking, Work};
use crate::wall_clock::now_ms;

/// How long a client is told to wait when the queue is full.
const BUSY_RETRY: Duration = Duration::from_secs(5);
/// How long a player with an analysis going is told to wait.
const ONE_AT_A_TIME_RETRY: Duration = Duration::from_secs(2);
/// Least time between two progress messages to one client.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// Where one game's analysis has got.
#[derive(Clone)]
enum State {
    /// Working: `done` of `total` steps.
    Progress { done: u32, total: u32 },
    /// Finished and saved.
    Done(Arc<GameAnalysis>),
    /// Failed; the message says why.
    Failed(Arc<ServerMessage>),
}

/// The analyses and hints of one server.
pub struct Analyses {
    workers: Arc<Semaphore>,
    thinking: Arc<Thinking>,
    /// Analyses running or waiting for a worker, at most.
    max_jobs: usize,
    gomoku_nodes: u64,
    hints_per_minute: u32,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    /// The analyses under way, by game.
    running: HashMap<String, watch::Receiver<State>>,
    /// Players with an analysis under way.
    players: HashSet<String>,
    /// Each player's recent hints.
    hints: HashMap<String, Vec<Instant>>,
}

fn lock(m: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Sends one message to a client, as the answer to `request_id`.
fn send(tx: &Outlet, request_id: Option<u64>, message: ServerMessage) {
    let frame = ServerFrame {
        request_id,
        message,
    };
    let _ = tx.send_text(&frame.encode());
}

impl Analyses {
    /// The service with `config`'s limits.
    pub fn new(config: &Config, thinking: Arc<Thinking>) -> Analyses {
        let workers = config.analysis_workers.max(1);
        Analyses {
            workers: Arc::new(Semaphore::new(workers)),
            thinking,
            max_jobs: workers + config.analysis_queue,
            gomoku_nodes: config.analysis_gomoku_nodes,
            hints_per_minute: config.hints_per_minute,
            inner: Mutex::new(Inner::default()),
        }
    }

    /// Answers `analyse` for `game_id` from `player_id`: the saved analysis
    /// at once, or progress and then the analysis (all as answers to
    /// `request_id`).
    pub fn request(
        self: &Arc<Self>,
        store: Store,
        game_id: String,
        player_id: String,
        tx: Outlet,
        request_id: Option<u64>,
    ) {
        let this = self.clone();
        tokio::spawn(async move {
            let job = match this.find_or_start(&store, &game_id, &player_id).await {
                Ok(Found::Saved(analysis)) => {
                    send(
                        &tx,
                        request_id,
                        ServerMessage::Analysis {
                            game_id,
                            analysis: Box::new(analysis),
                        },
                    );
                    return;
                }
                Ok(Found::Running(job)) => job,
                Err(refusal) => {
                    send(&tx, request_id, refusal);
                    return;
                }
            };
            forward(job, &tx, request_id, game_id).await;
        });
    }

    /// The saved analysis of `game_id`, or the work under way on it (joined,
    /// or started for `player_id`), or why there is neither.
    async fn find_or_start(
        self: &Arc<Self>,
        store: &Store,
        game_id: &str,
        player_id: &str,
    ) -> Result<Found, ServerMessage> {
        let internal = |e: crate::store::StoreError| {
            tracing::error!(error = %e, "a store read for an analysis failed");
            ServerMessage::error(
                ErrorCode::Internal,
                "the server could not read its database",
            )
        };
        if let Some(job) = lock(&self.inner).running.get(game_id) {
            return Ok(Found::Running(job.clone()));
        }
        if let Some(saved) = store
            .analysis(game_id.to_string())
            .await
            .map_err(internal)?
        {
            return Ok(Found::Saved(saved));
        }
        let Some(game) = store.game(game_id.to_string()).await.map_err(internal)? else {
            return Err(ServerMessage::error(
                ErrorCode::UnknownGame,
                format!("no finished game has the id {game_id:?}"),
            ));
        };
        let record = game.record;
        let total = tabula_ai::analysis::steps(&record);
        let (progress, job) = {
            let mut inner = lock(&self.inner);
            if let Some(job) = inner.running.get(game_id) {
                return Ok(Found::Running(job.clone()));
            }
            if inner.players.contains(player_id) {
                return Err(ServerMessage::rate_limited(
                    "one analysis at a time: wait for the one you asked for",
                    ONE_AT_A_TIME_RETRY,
                ));
            }
            if inner.running.len() >= self.max_jobs {
                return Err(ServerMessage::Error {
                    code: ErrorCode::Busy,
                    message: "the server is busy analysing other games; try again soon".into(),
                    retry_after_ms: Some(BUSY_RETRY.as_millis() as u64),
                });
            }
            let (progress, job) = watch::channel(State::Progress { done: 0, total });
            inner.running.insert(game_id.to_string(), job.clone());
            inner.players.insert(player_id.to_string());
            (progress, job)
        };
        let this = self.clone();
        let (store, game_id, player_id) =
            (store.clone(), game_id.to_string(), player_id.to_string());
        tokio::spawn(async move {
            let outcome = this.run(&store, &game_id, record, &progress).await;
            progress.send_replace(outcome);
            let mut inner = lock(&this.inner);
            inner.running.remove(&game_id);
            inner.players.remove(&player_id);
        });
        Ok(Found::Running(job))
    }

    /// Analyses `record` on the blocking pool once a worker is free, and
    /// saves the result.
    async fn run(
        &self,
        store: &Store,
        game_id: &str,
        record: tabula_shared::protocol::GameRecord,
        progress: &watch::Sender<State>,
    ) -> State {
        let failed =
            |why: &str| State::Failed(Arc::new(ServerMessage::error(ErrorCode::Internal, why)));
        let Ok(_permit) = self.workers.clone().acquire_owned().await else {
            return failed("the server is shutting down");
        };
        let nodes = self.gomoku_nodes;
        let reporter = progress.clone();
        let thinking = self.thinking.clone();
        let started = Instant::now();
        let result = tokio::task::spawn_blocking(move || {
            // One step (one action of the record) at a time on an idle core.
            let mut core = Some(thinking.blocking_step(Work::Analysis));
            tabula_ai::analysis::analyse(&record, nodes, &mut |done, total| {
                reporter.send_replace(State::Progress { done, total });
                core = None;
                core = Some(thinking.blocking_step(Work::Analysis));
            })
        })
        .await;
        let analysis = match result {
            Ok(Ok(analysis)) => analysis,
            Ok(Err(e)) => {
                tracing::error!(game = %game_id, error = %e, "a game could not be analysed");
                return failed("this game could not be analysed");
            }
            Err(e) => {
                tracing::error!(game = %game_id, error = %e, "an analysis panicked");
                return failed("this game could not be analysed");
            }
        };
        tracing::info!(game = %game_id, secs = started.elapsed().as_secs_f32(), "game analysed");
        match store
            .save_analysis(game_id.to_string(), &analysis, now_ms())
            .await
        {
            Ok(()) => State::Done(Arc::new(analysis)),
            Err(e) => {
                tracing::error!(game = %game_id, error = %e, "an analysis could not be saved");
                failed("the server could not save the analysis; try again")
            }
        }
    }

    /// Counts a hint for `player_id`: `Err(wait)` when the player has had
    /// `hints_per_minute` in the last minute.
    pub fn count_hint(&self, player_id: &str) -> Result<(), Duration> {
        let now = Instant::now();
        let minute = Duration::from_secs(60);
        let mut inner = lock(&self.inner);
        let recent = inner.hints.entry(player_id.to_string()).or_default();
        recent.retain(|&t| now.duration_since(t) < minute);
        if recent.len() >= self.hints_per_minute as usize {
            let oldest = recent.first().copied().unwrap_or(now);
            return Err(minute.saturating_sub(now.duration_since(oldest)));
        }
        recent.push(now);
        Ok(())
    }

    /// The hints for `seat` in `game`, worked out on the blocking pool once a
    /// core is idle (see [`crate::thinking`]).
    pub async fn hints(&self, game: LiveGame, seat: Seat) -> Vec<Hint> {
        let _core = self.thinking.step(Work::Hint).await;
        let nodes = self.gomoku_nodes;
        tokio::task::spawn_blocking(move || tabula_ai::analysis::hints(&game, seat, nodes))
            .await
            .unwrap_or_default()
    }
}

/// What [`Analyses::find_or_start`] found.
enum Found {
    Saved(GameAnalysis),
    Running(watch::Receiver<State>),
}

/// Sends a job's progress to one client, then its analysis (or why there is
/// none).
async fn forward(
    mut job: watch::Receiver<State>,
    tx: &Outlet,
    request_id: Option<u64>,
    game_id: String,
) {
    loop {
        let state = job.borrow_and_update().clone();
        match state {
            State::Progress { done, total } => send(
                tx,
                request_id,
                ServerMessage::AnalysisProgress {
                    game_id: game_id.clone(),
                    done,
                    total,
                },
            ),
            State::Done(analysis) => {
                send(
                    tx,
                    request_id,
                    ServerMessage::Analysis {
                        game_id,
                        analysis: Box::new((*analysis).clone()),
                    },
                );
                return;
            }
            State::Failed(message) => {
                send(tx, request_id, (*message).clone());
                return;
            }
        }
        tokio::time::sleep(PROGRESS_EVERY).await;
        if job.changed().await.is_err() {
            // The job's sender is gone; its last state is final.
            let last = job.borrow().clone();
            if !matches!(last, State::Progress { .. }) {
                continue;
            }
            send(
                tx,
                request_id,
                ServerMessage::error(ErrorCode::Internal, "the analysis stopped"),
            );
            return;
        }
    }
}
