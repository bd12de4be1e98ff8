//! [`EnginePlayer`]: one room's external engine. It decides which of the
//! seat's decisions are the engine's (Gomoku stones after any swap2
//! opening; Backgammon checker plays with a choice), keeps the engine's
//! process between turns, and gives up on it when it fails: the process is
//! killed, the room is told, and the built-in Expert plays that move. The
//! next turn starts a fresh process, until [`MAX_FAILURES`] failures, after
//! which the Expert plays the rest of the room's games.

use std::time::Duration;

use tabula_shared::backgammon::GamePhase;
use tabula_shared::game::LiveGame;
use tabula_shared::gomoku::Phase;
use tabula_shared::protocol::PlayerAction;
use tabula_shared::seat::{Seat, side_of};

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

/// A room's engine seat.
pub struct EnginePlayer {
    /// The engine's name, as the seat shows it.
    name: String,
    /// How to start it; `None` when the host no longer runs it.
    spec: Option<EngineSpec>,
    /// The running process, kept between turns.
    process: Option<EngineProcess>,
    /// Whether the running process was sent `START` (Gomoku).
    started: bool,
    /// Failures so far in this room.
    failures: u32,
}

impl EnginePlayer {
    /// The engine called `name`, started from `spec` when first needed
    /// (`None`: the server does not run it, and the Expert plays).
    pub fn new(name: &str, spec: Option<EngineSpec>) -> EnginePlayer {
        EnginePlayer {
            name: name.to_string(),
            spec,
            process: None,
            started: false,
            failures: 0,
        }
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
        match self.ask(game, seat, budget).await {
            Ok(action) => EngineTurn {
                action: Some(action),
                note: None,
            },
            Err(failure) => {
                // Dropping the process kills it.
                self.process = None;
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

    /// Asks the engine, starting it first when it is not running.
    async fn ask(
        &mut self,
        game: &LiveGame,
        seat: Seat,
        budget: Duration,
    ) -> Result<PlayerAction, EngineFailure> {
        let spec = self.spec.as_ref().ok_or(EngineFailure::Missing)?;
        let process = match &mut self.process {
            Some(process) => process,
            slot => {
                self.started = false;
                slot.insert(EngineProcess::start(spec)?)
            }
        };
        match game {
            LiveGame::Gomoku(g) => {
                if !self.started {
                    gomocup::start(process, g, budget).await?;
                    self.started = true;
                }
                let point = gomocup::place(process, g, seat, budget, MARGIN).await?;
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
