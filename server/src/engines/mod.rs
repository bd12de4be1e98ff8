//! External engines as a room's AI: programs the host names at start-up
//! (`--engine GAME:NAME=COMMAND [ARGS...]`), offered to players as
//! opponents, each run as a supervised child process per room.
//!
//! - `spec`: [`EngineSpec`], the host's description of an engine.
//! - `process`: [`EngineProcess`], one child speaking lines on its stdin and
//!   stdout, with a deadline on every answer, and [`EngineFailure`], why it
//!   was given up on.
//! - `gomocup`: the Gomocup brain protocol (Gomoku).
//! - `line`: the `bg-engine` line protocol (Backgammon checker plays).
//! - `player`: [`EnginePlayer`], a room's engine seat: which decisions are
//!   the engine's, and what happens when it fails (the built-in Expert plays
//!   the move, and the room is told).

mod gomocup;
mod line;
mod player;
mod process;
mod spec;

pub use player::{EnginePlayer, EngineTurn};
pub use process::{EngineFailure, EngineProcess};
pub use spec::{EngineSpec, SpecError};
