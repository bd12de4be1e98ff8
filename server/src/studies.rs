//! [`Studies`]: the analysis board's requests (`study`): any position,
//! read and checked, then the engine's view of it.
//!
//! - **Idle cores only.** Each answer is one step on the cores the AI seats
//!   leave idle ([`crate::thinking`], with the hints' priority), so the
//!   seats in rooms never wait for the board.
//! - **Bounded.** A player has one answer in work at a time (another is
//!   answered `rate_limited`); past `analysis_workers + analysis_queue`
//!   answers in work over the server, `busy`, each with a retry time.
//! - **Typed refusals.** Text that does not read, or a position the rules
//!   refuse, is answered `bad_position` with what is wrong, before any
//!   engine work.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tabula_shared::gomoku::GomokuConfig;
use tabula_shared::protocol::{ErrorCode, ServerMessage, StudyIds};
use tabula_shared::study::{SetupError, StudyPosition};

use crate::config::Config;
use crate::thinking::{Thinking, Work};

/// How long a player with an answer in work is told to wait.
const ONE_AT_A_TIME_RETRY: Duration = Duration::from_secs(1);
/// How long a client is told to wait when the board is full.
const BUSY_RETRY: Duration = Duration::from_secs(2);
/// Backgammon look-ahead when the request names none.
pub const DEFAULT_DEPTH: u8 = 1;

/// What one `study` asks about.
pub struct StudyRequest {
    /// The position as pasted.
    pub text: Option<String>,
    /// The position as set up.
    pub position: Option<StudyPosition>,
    /// The size and rule of a bare Gomoku move list.
    pub gomoku: Option<GomokuConfig>,
    /// Backgammon plies.
    pub depth: Option<u8>,
}

/// The board's answers of one server.
pub struct Studies {
    thinking: Arc<Thinking>,
    max_jobs: usize,
    gomoku_nodes: u64,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    /// Players with an answer in work.
    players: HashSet<String>,
}

/// A player's answer in work, until dropped.
struct InWork<'a>(&'a Studies, &'a str);

impl Drop for InWork<'_> {
    fn drop(&mut self) {
        self.0.lock().players.remove(self.1);
    }
}

fn bad_position(e: &SetupError) -> ServerMessage {
    ServerMessage::error(ErrorCode::BadPosition, e.to_string())
}

impl Studies {
    /// The service with `config`'s limits.
    pub fn new(config: &Config, thinking: Arc<Thinking>) -> Studies {
        Studies {
            thinking,
            max_jobs: config.analysis_workers.max(1) + config.analysis_queue,
            gomoku_nodes: config.analysis_gomoku_nodes,
            inner: Mutex::new(Inner::default()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Answers `request` for `player_id`: `study_answer`, or the refusal.
    pub async fn answer(&self, request: StudyRequest, player_id: &str) -> ServerMessage {
        let position = match (request.text, request.position) {
            (Some(text), None) => {
                let gomoku = request.gomoku.unwrap_or_default();
                // The last position of what the text holds.
                match StudyPosition::parse(&text, gomoku).map(|mut line| line.pop()) {
                    Ok(Some(position)) => position,
                    Ok(None) => return bad_position(&SetupError::Unrecognised),
                    Err(e) => return bad_position(&e),
                }
            }
            (None, Some(position)) => position,
            _ => {
                return ServerMessage::error(
                    ErrorCode::BadRequest,
                    "a study names its position once: `text` or `position`",
                );
            }
        };
        if let Err(e) = position.check() {
            return bad_position(&e);
        }
        {
            let mut inner = self.lock();
            if inner.players.contains(player_id) {
                return ServerMessage::rate_limited(
                    "one position at a time: wait for the answer you asked for",
                    ONE_AT_A_TIME_RETRY,
                );
            }
            if inner.players.len() >= self.max_jobs {
                return ServerMessage::busy(
                    "the engines are busy with other positions; try again soon",
                    BUSY_RETRY,
                );
            }
            inner.players.insert(player_id.to_string());
        }
        // Out of the set when the work ends or is dropped with its client.
        let _in_work = InWork(self, player_id);
        let answer = self.work(&position, request.depth).await;
        match answer {
            Ok(answer) => ServerMessage::StudyAnswer {
                ids: StudyIds::of(&position),
                position,
                answer: Box::new(answer),
            },
            Err(tabula_ai::study::StudyError::Setup(e)) => bad_position(&e),
            Err(e) => ServerMessage::error(ErrorCode::Internal, e.to_string()),
        }
    }

    /// The engine's view of a checked position, on an idle core.
    async fn work(
        &self,
        position: &StudyPosition,
        depth: Option<u8>,
    ) -> Result<tabula_shared::protocol::StudyAnswer, tabula_ai::study::StudyError> {
        let _core = self.thinking.step(Work::Hint).await;
        let nodes = self.gomoku_nodes;
        let depth = depth.unwrap_or(DEFAULT_DEPTH);
        let position = position.clone();
        tokio::task::spawn_blocking(move || tabula_ai::study::study(&position, depth, nodes))
            .await
            .unwrap_or(Err(tabula_ai::study::StudyError::NoEngine))
    }
}
