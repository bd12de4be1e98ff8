//! What the server sends: [`ServerFrame`], [`ServerMessage`] and the
//! machine-readable [`ErrorCode`]s.

use serde::{Deserialize, Serialize};

use super::analysis::{GameAnalysis, Hint};
use super::puzzle::{Puzzle, PuzzleRatingChange, PuzzleSolution};
use super::rollout::BgRollout;
use super::study::{StudyAnswer, StudyIds};
use super::{
    AiRating, ApiTokenInfo, EngineInfo, FinishedGame, GameKind, GameSummary, LeaderboardEntry,
    LeaderboardPeriod, PlayerId, PlayerInfo, Role, RoomEvent, RoomId, RoomOptions, RoomSnapshot,
    RoomSummary, TournamentId, TournamentSummary, TournamentView, is_false,
};
use crate::fair_dice::DiceStats;
use crate::seat::Seat;
use crate::study::StudyPosition;

/// A server frame: one message and, for replies, the request's id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerFrame {
    /// The `request_id` of the request this answers, if it carried one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<u64>,
    /// The message.
    #[serde(flatten)]
    pub message: ServerMessage,
}

impl ServerFrame {
    /// A frame that answers nothing in particular.
    pub fn push(message: ServerMessage) -> ServerFrame {
        ServerFrame {
            request_id: None,
            message,
        }
    }

    /// The text of an `event` frame holding [`RoomEvent::Action`], put
    /// together from the action's and the clock's JSON, which the server has
    /// already written for its store, instead of serialising both again.
    /// It is byte for byte what [`ServerFrame::encode`] makes of the same
    /// frame; `clock` is `None` for a room without a clock.
    pub fn action_event(
        room_id: &str,
        seq: u64,
        action: &str,
        clock: Option<&str>,
        turn: &str,
    ) -> String {
        let room_id = serde_json::to_string(room_id).unwrap_or_default();
        let mut text = String::with_capacity(120 + room_id.len() + action.len() + turn.len());
        text.push_str(r#"{"type":"event","room_id":"#);
        text.push_str(&room_id);
        text.push_str(r#","seq":"#);
        text.push_str(&seq.to_string());
        text.push_str(r#","event":{"kind":"action","action":"#);
        text.push_str(action);
        if let Some(clock) = clock {
            text.push_str(r#","clock":"#);
            text.push_str(clock);
        }
        text.push_str(r#","turn":"#);
        text.push_str(turn);
        text.push_str("}}");
        text
    }

    /// Encodes the frame as JSON text.
    pub fn encode(&self) -> String {
        // Serialising these plain data types cannot fail: every map key is a string.
        serde_json::to_string(self).unwrap_or_else(|_| {
            String::from("{\"type\":\"error\",\"code\":\"internal\",\"message\":\"encode failed\"}")
        })
    }
}

/// Every message the server sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The answer to `hello`.
    Welcome {
        /// The server's protocol version.
        protocol: u32,
        /// Your public id.
        player_id: PlayerId,
        /// Your display name as accepted (trimmed).
        name: String,
        /// Secret: present it in a later `hello` to get this identity back. Never shown to others.
        token: String,
        /// Rooms where you hold a seat in a game that is not over; rejoin them with `join_room`.
        rooms: Vec<RoomId>,
        /// Whether this identity is a registered account (else a guest).
        #[serde(default, skip_serializing_if = "is_false")]
        registered: bool,
        /// The host's external engines, offered as opponents
        /// (`Opponent::Engine`); absent when there are none.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        engines: Vec<EngineInfo>,
        /// Whether this account is a bot account.
        #[serde(default, skip_serializing_if = "is_false")]
        bot: bool,
    },
    /// The answer to `challenge`: it was delivered.
    ChallengeSent {
        /// The challenge.
        challenge_id: String,
    },
    /// Someone challenges you; answer with `answer_challenge` within a minute.
    Challenged {
        /// The challenge.
        challenge_id: String,
        /// Who challenges.
        from: PlayerInfo,
        /// The game offered (`colour` is the challenger's).
        options: RoomOptions,
    },
    /// Your challenge was answered: accepted (join `room_id` as a player)
    /// or declined.
    ChallengeAnswered {
        /// The challenge.
        challenge_id: String,
        /// Yes or no.
        accepted: bool,
        /// The new room, when accepted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        room_id: Option<RoomId>,
    },
    /// The answer to `list_bots`.
    BotsOnline {
        /// Bot accounts connected now, by name.
        bots: Vec<PlayerInfo>,
    },
    /// A new API token: shown this once, stored only as a hash.
    ApiToken {
        /// The token's id (not secret), for `revoke_api_token`.
        id: String,
        /// Its label.
        label: String,
        /// The secret to put in `hello`'s `api_token`.
        token: String,
    },
    /// Your API tokens, oldest first, without their secrets.
    ApiTokens {
        /// The tokens.
        tokens: Vec<ApiTokenInfo>,
    },
    /// Your display name is now a registered account.
    Registered {
        /// The reserved name.
        name: String,
    },
    /// A page of your finished games, newest first.
    GameList {
        /// How many were skipped.
        offset: u32,
        /// How many you have in all.
        total: u32,
        /// This page.
        games: Vec<GameSummary>,
    },
    /// One finished game with its record.
    Game {
        /// The game.
        game: Box<FinishedGame>,
        /// Its analysis, when someone asked for one before.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        analysis: Option<Box<GameAnalysis>>,
    },
    /// How far the analysis of a game has got (decisions judged of all).
    AnalysisProgress {
        /// The game.
        game_id: String,
        /// Decisions judged so far.
        done: u32,
        /// Decisions to judge.
        total: u32,
    },
    /// The analysis of a finished game, saved with it.
    Analysis {
        /// The game.
        game_id: String,
        /// What the engines found.
        analysis: Box<GameAnalysis>,
    },
    /// The answer to `study`: the position as read, the ways to write it,
    /// and the engine's view.
    StudyAnswer {
        /// The position, checked by the rules.
        position: StudyPosition,
        /// Its link and, for Backgammon, its gnubg IDs and XGID.
        ids: StudyIds,
        /// What the engine says.
        answer: Box<StudyAnswer>,
    },
    /// A report of your `rollout`: sent as the trials come in, the last
    /// one `finished` or `stopped`.
    Rollout {
        /// The position rolled out.
        position: StudyPosition,
        /// Where the rollout has got and what it found.
        rollout: Box<BgRollout>,
    },
    /// The answer to `puzzle`.
    Puzzle {
        /// The puzzle, without its answer.
        puzzle: Box<Puzzle>,
        /// Whether it is the day's puzzle.
        #[serde(default, skip_serializing_if = "is_false")]
        daily: bool,
        /// Your puzzle rating now.
        rating: i32,
        /// Whether your puzzle rating is still provisional.
        provisional: bool,
    },
    /// The answer to `solve_puzzle`: right or not, the solution, and how
    /// your puzzle rating moved (absent for a puzzle you had tried before:
    /// only the first answer is rated).
    PuzzleSolved {
        /// The puzzle.
        puzzle_id: String,
        /// Whether the answer was right.
        correct: bool,
        /// The right answer and the line after it.
        solution: Box<PuzzleSolution>,
        /// Your puzzle rating's move.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rating: Option<PuzzleRatingChange>,
    },
    /// The answer to `hint`: the engine's best actions, best first (at most
    /// three).
    Hints {
        /// The room.
        room_id: RoomId,
        /// The suggestions.
        hints: Vec<Hint>,
    },
    /// A leaderboard.
    Leaderboard {
        /// Which game.
        game: GameKind,
        /// All time or the last 7 days.
        period: LeaderboardPeriod,
        /// The top players, best first.
        entries: Vec<LeaderboardEntry>,
        /// The AI levels' fixed ratings, for comparison.
        ai: Vec<AiRating>,
    },
    /// The public rooms.
    RoomList {
        /// Every listed room.
        rooms: Vec<RoomSummary>,
    },
    /// A listed room appeared or changed.
    RoomUpdated {
        /// Its new summary.
        room: RoomSummary,
    },
    /// A listed room closed.
    RoomRemoved {
        /// Which.
        room_id: RoomId,
    },
    /// You are in a room; a `snapshot` or the missed `event`s follow.
    Joined {
        /// The room.
        room_id: RoomId,
        /// Player or spectator.
        role: Role,
        /// Your seat, when you play.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    /// You left a room.
    Left {
        /// The room.
        room_id: RoomId,
    },
    /// A room's full state.
    Snapshot {
        /// The room.
        room_id: RoomId,
        /// Everything.
        snapshot: Box<RoomSnapshot>,
    },
    /// One numbered room event. Numbers rise by one per room with no gaps.
    Event {
        /// The room.
        room_id: RoomId,
        /// The event's sequence number.
        seq: u64,
        /// What happened.
        event: RoomEvent,
    },
    /// A request succeeded and has no other reply.
    Ok,
    /// A request failed; nothing changed.
    Error {
        /// Machine-readable reason.
        code: ErrorCode,
        /// Human-readable reason.
        message: String,
        /// `rate_limited`: how long to wait before the next request is
        /// accepted, in milliseconds.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_after_ms: Option<u64>,
    },
    /// The answer to `dice_stats`: the dice of this server's finished
    /// Backgammon games.
    DiceStats {
        /// The counts (boxed: they are the largest message by far).
        report: Box<DiceStatsReport>,
    },
    /// The answer to `legal_plays`: every legal play of the roll to be
    /// played, each once, in canonical notation (the form the server echoes
    /// in the `play` action), in no particular order. Playing one of these
    /// strings is always accepted.
    LegalPlays {
        /// The room.
        room_id: RoomId,
        /// The plays; never empty, since a roll with no legal play passes
        /// at once (the `passed` event).
        plays: Vec<String>,
    },
    /// The answer to `ping`.
    Pong,
    /// The answer to `create_tournament`.
    TournamentCreated {
        /// The new tournament.
        tournament_id: TournamentId,
        /// A private tournament's code, to give to whoever may join.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
    },
    /// The answer to `list_tournaments`: newest first.
    TournamentList {
        /// The tournaments.
        tournaments: Vec<TournamentSummary>,
    },
    /// A watched tournament as it stands now (after `watch_tournament`, and
    /// after every change, numbered by its `seq`).
    Tournament {
        /// The whole tournament (boxed: it is the largest message).
        tournament: Box<TournamentView>,
    },
    /// You are paired: your game's room, where your seat waits for you
    /// (join it with `join_room`). Not coming within the tournament's
    /// `forfeit_secs` loses the game.
    TournamentGame {
        /// The tournament.
        tournament_id: TournamentId,
        /// The round.
        round: u32,
        /// The room of your game.
        room_id: RoomId,
        /// Your seat in it.
        seat: Seat,
    },
    /// The server is shutting down; reconnect later with your token.
    Shutdown {
        /// Why.
        message: String,
    },
}

/// The dice of a server's finished Backgammon games, all of them and the
/// asker's own; the client computes expected values and chi-square tests with
/// [`DiceStats`]'s methods.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceStatsReport {
    /// How many finished Backgammon games (matches) were counted.
    pub games: u64,
    /// Every die and roll of those games, both sides.
    pub all: DiceStats,
    /// The asker's own dice in them: the rolls of the seat the asker held in
    /// each game.
    pub yours: DiceStats,
}

/// Machine-readable error reasons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The frame is not JSON, or not a JSON object.
    BadJson,
    /// The `type` is not one this server knows.
    UnknownType,
    /// A known type with a missing or malformed field.
    BadRequest,
    /// The first message must be `hello`, and only once.
    HelloRequired,
    /// The client speaks another protocol version.
    UnsupportedVersion,
    /// The display name is empty, too long or has control characters.
    InvalidName,
    /// The name is reserved by a registered account.
    NameTaken,
    /// Wrong account name or password (one error for both).
    SignInFailed,
    /// Only registered players may do this (rated rooms).
    NotRegistered,
    /// This identity is already a registered account.
    AlreadyRegistered,
    /// The password is too short or too long.
    WeakPassword,
    /// No finished game has that id.
    UnknownGame,
    /// Wrong server password or unknown resume token.
    AuthFailed,
    /// It is the other player's turn.
    NotYourTurn,
    /// The rules forbid this move or action now.
    IllegalMove,
    /// No free seat.
    RoomFull,
    /// No such room (or code).
    NotFound,
    /// You may not do that here (for example, a spectator trying to move).
    Forbidden,
    /// You have not joined that room.
    NotInRoom,
    /// Too many requests; slow down.
    RateLimited,
    /// The server refuses more (rooms, connections).
    LimitReached,
    /// The engines are busy with other work (analyses queued to the limit),
    /// or the room is moving to another node of a cluster; try again after
    /// `retry_after_ms`.
    Busy,
    /// No hints in this room: it is rated, or its creator did not allow
    /// them, or you are not the player to act.
    HintsOff,
    /// `study`: the position does not read, or the rules refuse it (the
    /// message names what is wrong).
    BadPosition,
    /// Something broke on the server; the request had no effect.
    Internal,
    /// The tournament has as many entrants as it takes.
    TournamentFull,
    /// The tournament has started (or ended): no more entrants, or no
    /// longer open to that change.
    TournamentStarted,
}

impl ServerMessage {
    /// Shorthand for an error message.
    pub fn error(code: ErrorCode, message: impl Into<String>) -> ServerMessage {
        ServerMessage::Error {
            code,
            message: message.into(),
            retry_after_ms: None,
        }
    }

    /// A `busy` error saying when to try again.
    pub fn busy(message: impl Into<String>, retry_after: std::time::Duration) -> ServerMessage {
        ServerMessage::Error {
            code: ErrorCode::Busy,
            message: message.into(),
            retry_after_ms: Some(retry_after.as_millis().max(1) as u64),
        }
    }

    /// A `rate_limited` error saying when to try again.
    pub fn rate_limited(
        message: impl Into<String>,
        retry_after: std::time::Duration,
    ) -> ServerMessage {
        ServerMessage::Error {
            code: ErrorCode::RateLimited,
            message: message.into(),
            retry_after_ms: Some(retry_after.as_millis().max(1) as u64),
        }
    }
}
