//! The wire protocol between Tabula clients and the server.
//!
//! Every frame is one JSON text frame holding one message. Client frames
//! decode to [`ClientFrame`] (a [`ClientMessage`] plus an optional
//! `request_id`); server frames encode from [`ServerFrame`]. Both message
//! enums are tagged by a `"type"` field in `snake_case`.
//!
//! Game state travels as a *record*: the game options plus the list of
//! [`GomokuAction`](crate::gomoku::GomokuAction)s or [`BgAction`]s played so
//! far. A client rebuilds the game from the record
//! ([`Game::from_record`](crate::game::Game::from_record)), and then applies
//! each new action from an [`RoomEvent::Action`] event. The server stays the
//! only judge of legality.
//!
//! This module owns the wire types only: the game's own types (records,
//! actions, results) live in [`crate::game`], seats in [`crate::seat`], and
//! are re-exported here because messages carry them.
//!
//! `docs/PROTOCOL.md` documents every message with an example; a test parses
//! every example in that document.

mod accounts;
mod analysis;
mod client;
mod options;
mod puzzle;
mod rollout;
mod room;
mod server;
mod study;
mod tournament;
mod turn;

pub use accounts::{
    AiRating, ApiTokenInfo, FinishedGame, GameSummary, LeaderboardEntry, LeaderboardPeriod,
    RatingChange,
};
pub use analysis::{
    BLUNDER_MP, BgAnalysis, BgCandidate, BgDecisionKind, BgDecisionReview, BgPlayerReview,
    BgRollLuck, ERROR_MP, GameAnalysis, GomokuAnalysis, GomokuMistake, GomokuMoveReview, Hint,
    INACCURACY_MP, Mark,
};
pub use client::{ClientFrame, ClientMessage, DecodeError};
pub use options::{AiLevel, ColourChoice, EngineInfo, Opponent, RoomOptions, TimeControl};
pub use puzzle::{
    AnswerError, Puzzle, PuzzleAnswer, PuzzleRatingChange, PuzzleSolution, PuzzleTheme,
    SolvedPuzzle,
};
pub use rollout::{
    BgRollout, BgRolloutLine, DEFAULT_ROLLOUT_TRIALS, MAX_ROLLOUT_TRIALS, RolloutState,
};
pub use room::{
    ChatLine, ClockState, OfferKind, PendingOffer, PlayerInfo, Role, RoomEvent, RoomSnapshot,
    RoomStatus, RoomSummary, SeatInfo,
};
pub use server::{DiceStatsReport, ErrorCode, ServerFrame, ServerMessage};
pub use study::{
    BgChances, BgCubeLine, BgPlayLine, BgStudyAnswer, CubeAction, ForcedWin, ForcedWinKind,
    GomokuMoveLine, GomokuStudyAnswer, MAX_STUDY_DEPTH, StudyAnswer, StudyIds,
};
pub use tournament::{
    Entrant, EntrantRequest, HostAction, TournamentFormat, TournamentGame, TournamentId,
    TournamentSpec, TournamentStatus, TournamentSummary, TournamentView,
};
pub use turn::{Expect, Turn};

/// The dice types that messages carry.
pub use crate::fair_dice::{DiceProof, DiceStats};
/// Game types that messages carry.
pub use crate::game::{
    ActionRecord, BgAction, EndReason, GameKind, GameOptions, GameRecord, GameResult, PlayerAction,
};

/// The protocol version a client announces in its `hello`.
pub const PROTOCOL_VERSION: u32 = 1;

/// The largest frame the server accepts, in bytes (64 KiB).
pub const MAX_FRAME_BYTES: usize = 64 * 1024;

/// A room's id, chosen by the server.
pub type RoomId = String;
/// A player's public id, chosen by the server.
pub type PlayerId = String;

fn default_true() -> bool {
    true
}

fn default_page() -> u32 {
    20
}

fn is_false(b: &bool) -> bool {
    !*b
}
