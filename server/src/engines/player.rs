//! [`EnginePlayer`]: one room's external engine. It decides which of the
//! seat's decisions are the engine's (Gomoku stones after any swap2
//! opening; Backgammon checker plays with a choice), keeps the engine's
//! process between turns, and gives up on it when it fails: the process is
//! killed, the room is told, and the built-in Expert plays that move. The
//! next turn starts a fresh process, until [`MAX_FAILURES`] failures, after
//! which the Expert plays the rest of the room's games. A running process
//! holds one of the server's engine slots (`--max-engine-processes`); with
//! none free, the Expert plays the move.

use std::sync::Arc;
use std::time::Duration;

use tabula_shared::backgammon::GamePhase;
use tabula_shared::game::LiveGame;
use tabula_shared::gomoku::Phase;
use tabula_shared::protocol::PlayerAction;
use tabula_shared::seat::{Seat, side_of};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::{EngineFailure, EngineProcess, EngineSpec, gomocup, line};

/// Failures after which a room stops starting its engine again.
pub const MAX_FAILURES: u32 = 3;

/// Time an engine gets beyond its budget before it counts as hung: a
/// program's own clock, its pipes and a loaded machine all cost some.
const MARGIN: Duration = Duration::from_secs(2);

/// What the engine made of one turn.
#[derive(Debug, Default)]
pub struct EngineTurn {
    /// The engine's action; `None` when the built-in Expert must act (a
    /// decision that is not the engine's, or a failure).
    pub action: Option<PlayerAction>,
    /// A line for the room's chat: why the engine is not playing this move.
    pub note: Option<String>,
}

/// An engine's process while it runs.
struct Running {
    /// The child.
    process: EngineProcess,
    /// Whether it was sent `START` (Gomoku).
    started: bool,
    /// The stones it knows, after its last answer (Gomoku).
    seen: Option<Vec<tabula_shared::gomoku::Point>>,
    /// The server's engine slot it holds, given back when it stops.
    _slot: OwnedSemaphorePermit,
}

/// A room's engine seat.
pub struct EnginePlayer {
    /// The engine's name, as the seat shows it.
    name: String,
    /// How to start it; `None` when the host no longer runs it.
    spec: Option<EngineSpec>,
    /// The server's engine slots, one per running process.
    slots: Arc<Semaphore>,
    /// The running process, kept between turns.
    running: Option<Running>,
    /// Failures so far in this room.
    failures: u32,
    /// The room was told that no slot was free, and none has been since.
    told_busy: bool,
}

impl EnginePlayer {
    /// The engine called `name`, started from `spec` when first needed
    /// (`None`: the server does not run it, and the Expert plays) in one
    /// of the `slots`.
    pub fn new(name: &str, spec: Option<EngineSpec>, slots: Arc<Semaphore>) -> EnginePlayer {
        EnginePlayer {
            name: name.to_string(),
            spec,
            slots,
            running: None,
            failures: 0,
            told_busy: false,
        }
    }

    /// Stops the engine's process, if it runs (the game is over, or
    /// nobody is in the room), giving its slot back; the next turn starts
    /// it again.
    pub fn stop(&mut self) {
        self.running = None;
    }

    /// Whether the room has given up on the engine.
    fn retired(&self) -> bool {
        self.failures >= MAX_FAILURES
    }

    /// The engine's action for `seat` in `game`, when the decision is the
    /// engine's and it answers a legal one in time (`budget`, plus a margin).
    pub async fn decide(&mut self, game: &LiveGame, seat: Seat, budget: Duration) -> EngineTurn {
        if self.retired() || !self.is_engines(game, seat) {
            return EngineTurn::default();
        }
        // A process to start needs a slot.
        let mut slot = None;
        if self.running.is_none() && self.spec.is_some() {
            match self.slots.clone().try_acquire_owned() {
                Ok(free) => {
                    slot = Some(free);
                    self.told_busy = false;
                }
                Err(_) => {
                    // Not the engine's fault: the Expert plays, and the
                    // engine is tried again next turn.
                    let note = (!std::mem::replace(&mut self.told_busy, true)).then(|| {
                        format!(
                            "{} is not started: the server runs as many engines as it may; \
                             the built-in Expert plays until one stops.",
                            self.name
                        )
                    });
                    return EngineTurn { action: None, note };
                }
            }
        }
        match self.ask(game, seat, budget, slot).await {
            Ok(action) => EngineTurn {
                action: Some(action),
                note: None,
            },
            Err(failure) => {
                // Dropping the process kills it.
                self.running = None;
                self.failures = if failure == EngineFailure::Missing {
                    MAX_FAILURES
                } else {
                    self.failures + 1
                };
                tracing::warn!(engine = %self.name, %failure, "an engine failed");
                let then = if self.retired() {
                    "the built-in Expert plays its moves from now on"
                } else {
                    "the built-in Expert plays this move"
                };
                let what = if failure == EngineFailure::Missing {
                    failure.to_string()
                } else {
                    format!("failed: {failure}")
                };
                EngineTurn {
                    action: None,
                    note: Some(format!("{} {what}; {then}.", self.name)),
                }
            }
        }
    }

    /// Whether this decision is the engine's: Gomoku stones in the main
    /// phase (swap2's opening stones and choices are the Expert's), and
    /// Backgammon checker plays with more than one way to go (rolls, the
    /// cube and resignations are the Expert's).
    fn is_engines(&self, game: &LiveGame, seat: Seat) -> bool {
        match game {
            LiveGame::Gomoku(g) => g.phase() == Phase::Main,
            LiveGame::Backgammon(m) => match *m.phase() {
                GamePhase::Moving { side, dice } => {
                    side == side_of(seat) && line::choices(m, side, dice).len() > 1
                }
                _ => false,
            },
        }
    }

    /// Asks the engine, starting it first in `slot` when it is not running.
    async fn ask(
        &mut self,
        game: &LiveGame,
        seat: Seat,
        budget: Duration,
        slot: Option<OwnedSemaphorePermit>,
    ) -> Result<PlayerAction, EngineFailure> {
        let spec = self.spec.as_ref().ok_or(EngineFailure::Missing)?;
        let running = match &mut self.running {
            Some(running) => running,
            empty => {
                let slot = slot.ok_or(EngineFailure::Start("no engine slot".into()))?;
                empty.insert(Running {
                    process: EngineProcess::start(spec)?,
                    started: false,
                    seen: None,
                    _slot: slot,
                })
            }
        };
        let process = &mut running.process;
        match game {
            LiveGame::Gomoku(g) => {
                if !running.started {
                    gomocup::start(process, g, budget).await?;
                    running.started = true;
                }
                let seen = &mut running.seen;
                let point = gomocup::place(process, seen, g, seat, budget, MARGIN).await?;
                Ok(PlayerAction::Place { point })
            }
            LiveGame::Backgammon(m) => {
                let GamePhase::Moving { side, dice } = *m.phase() else {
                    return Err(EngineFailure::Refused("not a checker play".into()));
                };
                let play = line::play(process, m, side, dice, budget, MARGIN).await?;
                Ok(PlayerAction::Play { play })
            }
        }
    }
}
