//! What a client sends: [`ClientFrame`] and [`ClientMessage`], and the
//! decoding of one text frame into them, which tells malformed JSON, an
//! unknown message type and a known type with bad fields apart.

use serde::{Deserialize, Serialize};

use super::{
    ErrorCode, GameKind, HostAction, LeaderboardPeriod, OfferKind, PlayerAction, PuzzleAnswer,
    PuzzleTheme, Role, RoomId, RoomOptions, TournamentId, TournamentSpec, default_page,
};
use crate::backgammon::{Play, ResignKind};
use crate::gomoku::{GomokuConfig, Point, Swap2Choice};
use crate::study::StudyPosition;

/// A client frame: one request and its optional correlation id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClientFrame {
    /// Echoed by the server in the reply or error this request causes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<u64>,
    /// The request itself.
    #[serde(flatten)]
    pub message: ClientMessage,
}

/// Every request a client can send.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// The first message on every connection.
    Hello {
        /// Must equal [`PROTOCOL_VERSION`].
        protocol: u32,
        /// Display name: 1 to 24 characters after trimming, no control characters.
        name: String,
        /// A resume token from an earlier `welcome`, to get the same identity and seats back.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
        /// The server password, when the server is private.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        password: Option<String>,
        /// Sign in: the password of the registered account named `name`.
        /// Wrong names and wrong passwords get the same `sign_in_failed` error.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        account_password: Option<String>,
        /// Sign in as a bot account: one of its API tokens (see
        /// `create_api_token`), instead of `account_password`. A wrong or
        /// revoked token gets `auth_failed`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        api_token: Option<String>,
    },
    /// Register your current display name as an account with a password
    /// (8 to 128 characters). The name is then reserved: others can only use
    /// it by signing in. The reply is `registered`.
    Register {
        /// The new account's password; never logged or sent back.
        password: String,
    },
    /// List your own finished games, newest first; the reply is `game_list`.
    ListGames {
        /// How many of the newest games to skip.
        #[serde(default)]
        offset: u32,
        /// How many to return (1 to 100; default 20).
        #[serde(default = "default_page")]
        limit: u32,
    },
    /// Open any finished game by its id; the reply is `game`.
    GetGame {
        /// The game's id, from `game_list` or a `game_over` event.
        game_id: String,
    },
    /// Analyse a finished game with the server's engines. The replies carry
    /// this request's id: `analysis_progress` now and as the work goes on,
    /// then `analysis` (at once when the game was analysed before).
    Analyse {
        /// The game's id.
        game_id: String,
    },
    /// The analysis board: the engine's view of any position, pasted as
    /// `text` (a gnubg Position ID with its Match ID, an XGID, a Gomoku
    /// move list, PSQ or SGF, or a `#/board/` link) or set up as
    /// `position`. The reply is `study_answer`; a position that does not
    /// read or that the rules refuse is answered `bad_position`, naming
    /// what is wrong.
    Study {
        /// The position as pasted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
        /// The position as set up.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        position: Option<StudyPosition>,
        /// Gomoku: the size and rule a bare move list (or a PSQ file) is
        /// read with (default 15, freestyle).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        gomoku: Option<GomokuConfig>,
        /// Backgammon: plies of look-ahead for the plays, 0 to 2 (default
        /// 1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        depth: Option<u8>,
    },
    /// A Backgammon rollout of a study position, as set up: the engine
    /// plays it out `trials` times (default 1296, at most 46656), each
    /// candidate play of the roll with the same dice, or the position
    /// before the roll when no dice are set. `rollout` reports follow as
    /// the trials come in; the last says `finished` or `stopped`. A player
    /// has one rollout at a time: a newer one stops the older.
    Rollout {
        /// The position.
        position: StudyPosition,
        /// Trials to play.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        trials: Option<u32>,
    },
    /// Stop your rollout: its last report (`stopped`) follows. Answered
    /// `not_found` when none is in work.
    StopRollout,
    /// A puzzle to solve: the day's (`daily`, the same for everyone
    /// that day, UTC), or the next for you: one you have not tried, of
    /// `theme` when named, rated nearest your puzzle rating. The reply is
    /// `puzzle`; `not_found` when there is none left.
    Puzzle {
        /// Only puzzles of this theme.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        theme: Option<PuzzleTheme>,
        /// The daily puzzle instead.
        #[serde(default, skip_serializing_if = "super::is_false")]
        daily: bool,
    },
    /// Your answer to a puzzle; the reply is `puzzle_solved`. Your first
    /// answer to a puzzle is rated; later ones are not. An answer of the
    /// wrong kind (a stone for a Backgammon puzzle) is refused
    /// `bad_request` and not counted.
    SolvePuzzle {
        /// The puzzle.
        puzzle_id: String,
        /// The answer.
        answer: PuzzleAnswer,
    },
    /// The rating leaderboard of one game; the reply is `leaderboard`.
    GetLeaderboard {
        /// Which game's ratings.
        game: GameKind,
        /// All time (the default) or the last 7 days.
        #[serde(default)]
        period: LeaderboardPeriod,
        /// The bots' pool instead of the players' (bot accounts rate
        /// among themselves: their results against people move their bot
        /// rating, and the people's own).
        #[serde(default, skip_serializing_if = "super::is_false")]
        bots: bool,
    },
    /// Ask for the list of public rooms; the reply is `room_list`, and live
    /// `room_updated` / `room_removed` messages follow until `unwatch_lobby`.
    ListRooms,
    /// Stop live lobby updates.
    UnwatchLobby,
    /// Create a room and take a seat in it.
    CreateRoom {
        /// The game, options, opponent, colour, clock and privacy.
        options: RoomOptions,
    },
    /// Join a room as a player (a free seat, or your own seat again) or as a spectator.
    JoinRoom {
        /// The room to join.
        room_id: RoomId,
        /// Player or spectator.
        #[serde(default)]
        role: Role,
        /// The last event sequence number already seen; the server answers with
        /// the missed events when it still has them, else with a snapshot.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        since: Option<u64>,
    },
    /// Join a private room by its code, as a player if a seat is free, else as a spectator.
    JoinByCode {
        /// The code the room's creator was given.
        code: String,
    },
    /// Leave a room. A player who leaves a running game keeps the seat for the grace period.
    LeaveRoom {
        /// The room to leave.
        room_id: RoomId,
    },
    /// Registered players: create a long-lived API token for a program to
    /// sign in with (`hello` with `api_token`). The first token makes the
    /// account a bot account, for good: it is shown as a bot everywhere,
    /// rates in the bots' pool and gets an engine's request rate. The reply,
    /// `api_token`, is the only time the token is shown.
    CreateApiToken {
        /// A name for the token (1 to 40 characters), to tell tokens apart.
        label: String,
    },
    /// List your API tokens (never the tokens themselves); the reply is `api_tokens`.
    ListApiTokens,
    /// Revoke one of your API tokens: it no longer signs in. The reply is `ok`.
    RevokeApiToken {
        /// The token's id, from `api_token` or `api_tokens`.
        id: String,
    },
    /// Challenge a player (or bot) who is online, by name, to a game with
    /// these options (`opponent` must be `human`). They get `challenged` and
    /// answer within a minute; the reply now is `challenge_sent`.
    Challenge {
        /// The name of the player challenged.
        to: String,
        /// The game, as for `create_room`; you are its creator.
        options: RoomOptions,
    },
    /// Accept or decline a challenge you received. Accepting creates the
    /// room and seats you in it (the reply is `joined` and a `snapshot`);
    /// the challenger gets `challenge_answered` with the room to join.
    AnswerChallenge {
        /// The challenge, from `challenged`.
        challenge_id: String,
        /// Yes or no.
        accept: bool,
    },
    /// The bot accounts online now; the reply is `bots_online`.
    ListBots,
    /// Ask for a full snapshot of a room you are in.
    Sync {
        /// The room.
        room_id: RoomId,
    },
    /// Backgammon: ask for every legal play of the roll to be played now,
    /// in canonical notation (the reply is `legal_plays`); any member of
    /// the room may ask.
    LegalPlays {
        /// The room.
        room_id: RoomId,
    },
    /// The engine's top three moves for the player to act (the reply is
    /// `hints`): in rooms against the AI and in unrated rooms created with
    /// hints allowed; only a seated player on their turn may ask.
    Hint {
        /// The room.
        room_id: RoomId,
    },
    /// Play a game action: a Gomoku stone or swap2 choice, or a Backgammon roll,
    /// play or cube action.
    Act {
        /// The room.
        room_id: RoomId,
        /// What to do.
        action: PlayerAction,
    },
    /// Resign the game. For Backgammon, `kind` says how much is given up,
    /// and a human opponent may refuse it (an `offer_made` of kind `resign`,
    /// answered with `answer`); the AI accepts when it gives it at least what
    /// it expects to win by playing on.
    Resign {
        /// The room.
        room_id: RoomId,
        /// Backgammon only: single (default), gammon or backgammon.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<ResignKind>,
    },
    /// Offer a draw (Gomoku).
    OfferDraw {
        /// The room.
        room_id: RoomId,
    },
    /// Ask to take back your last move.
    RequestTakeback {
        /// The room.
        room_id: RoomId,
    },
    /// Accept or decline the opponent's pending draw, takeback or rematch request.
    Answer {
        /// The room.
        room_id: RoomId,
        /// Which request is answered.
        request: OfferKind,
        /// Yes or no.
        accept: bool,
    },
    /// Ask for a rematch with colours swapped, after the game is over.
    /// The rematch starts when both players have asked (or the AI seat agrees).
    Rematch {
        /// The room.
        room_id: RoomId,
    },
    /// Claim the win after the opponent's reconnect grace period has run out.
    ClaimWin {
        /// The room.
        room_id: RoomId,
    },
    /// Send a chat line to a room.
    Chat {
        /// The room.
        room_id: RoomId,
        /// 1 to 500 characters.
        text: String,
    },
    /// Players only: mute or unmute spectator chat in this room.
    MuteSpectators {
        /// The room.
        room_id: RoomId,
        /// True to mute.
        muted: bool,
    },
    /// Backgammon: add your seed to the match's dice (see `docs/DICE.md`),
    /// after the server's commitment and before the match's first roll. Only
    /// a seated player may; the reply is `ok`, and every member of the room
    /// gets a `dice_seed` event.
    DiceSeed {
        /// The room.
        room_id: RoomId,
        /// At most 64 characters from `!` to `~` (the empty seed is allowed).
        seed: String,
    },
    /// Ask for the dice statistics of this server's finished Backgammon
    /// games; the reply is `dice_stats`.
    DiceStats,
    /// An application-level ping; the server answers `pong`.
    Ping,
    /// Create a tournament (registered players); the reply is
    /// `tournament_created`, then `tournament` messages as it changes (you
    /// watch it). You host it: you are not an entrant unless you join.
    CreateTournament {
        /// The format, game, clock and limits.
        spec: TournamentSpec,
    },
    /// Ask for the listed tournaments (open, running and recently
    /// finished); the reply is `tournament_list`.
    ListTournaments,
    /// See a tournament and follow it: a `tournament` message now and on
    /// every change, until `unwatch_tournament`.
    WatchTournament {
        /// The tournament.
        tournament_id: TournamentId,
    },
    /// Stop following a tournament.
    UnwatchTournament {
        /// The tournament.
        tournament_id: TournamentId,
    },
    /// Enter a tournament that has not started (a private one with its
    /// code). When you are paired you are sent `tournament_game`.
    JoinTournament {
        /// The tournament.
        tournament_id: TournamentId,
        /// A private tournament's code.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
    },
    /// Leave a tournament: before the start, you are no longer entered;
    /// after it, you are not paired again (a game in play goes on).
    WithdrawTournament {
        /// The tournament.
        tournament_id: TournamentId,
    },
    /// The host: start, pause, resume or end a tournament, remove an
    /// entrant, or add an AI level or engine.
    ManageTournament {
        /// The tournament.
        tournament_id: TournamentId,
        /// What to do.
        action: HostAction,
    },
}

impl ClientMessage {
    /// The `"type"` names of every client message, for telling an unknown
    /// type from a known type with bad fields.
    pub const TYPES: &'static [&'static str] = &[
        "hello",
        "register",
        "list_games",
        "get_game",
        "analyse",
        "study",
        "rollout",
        "stop_rollout",
        "puzzle",
        "solve_puzzle",
        "get_leaderboard",
        "list_rooms",
        "unwatch_lobby",
        "create_room",
        "join_room",
        "join_by_code",
        "leave_room",
        "create_api_token",
        "list_api_tokens",
        "revoke_api_token",
        "challenge",
        "answer_challenge",
        "list_bots",
        "sync",
        "legal_plays",
        "hint",
        "act",
        "resign",
        "offer_draw",
        "request_takeback",
        "answer",
        "rematch",
        "claim_win",
        "chat",
        "mute_spectators",
        "dice_seed",
        "dice_stats",
        "ping",
        "create_tournament",
        "list_tournaments",
        "watch_tournament",
        "unwatch_tournament",
        "join_tournament",
        "withdraw_tournament",
        "manage_tournament",
    ];

    /// The room this request is about, if any.
    pub fn room_id(&self) -> Option<&RoomId> {
        use ClientMessage::*;
        match self {
            JoinRoom { room_id, .. }
            | LeaveRoom { room_id }
            | Sync { room_id }
            | LegalPlays { room_id }
            | Hint { room_id }
            | Act { room_id, .. }
            | Resign { room_id, .. }
            | OfferDraw { room_id }
            | RequestTakeback { room_id }
            | Answer { room_id, .. }
            | Rematch { room_id }
            | ClaimWin { room_id }
            | Chat { room_id, .. }
            | MuteSpectators { room_id, .. }
            | DiceSeed { room_id, .. } => Some(room_id),
            Hello { .. }
            | CreateTournament { .. }
            | ListTournaments
            | WatchTournament { .. }
            | UnwatchTournament { .. }
            | JoinTournament { .. }
            | WithdrawTournament { .. }
            | ManageTournament { .. }
            | Register { .. }
            | CreateApiToken { .. }
            | Challenge { .. }
            | AnswerChallenge { .. }
            | ListBots
            | ListApiTokens
            | RevokeApiToken { .. }
            | ListGames { .. }
            | GetGame { .. }
            | Analyse { .. }
            | Study { .. }
            | Rollout { .. }
            | StopRollout
            | Puzzle { .. }
            | SolvePuzzle { .. }
            | GetLeaderboard { .. }
            | ListRooms
            | UnwatchLobby
            | CreateRoom { .. }
            | JoinByCode { .. }
            | DiceStats
            | Ping => None,
        }
    }
}

/// Why a client frame could not be decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodeError {
    /// `bad_json`, `unknown_type` or `bad_request`.
    pub code: ErrorCode,
    /// A readable reason.
    pub message: String,
    /// The frame's `request_id`, when it could be read.
    pub request_id: Option<u64>,
}

impl ClientFrame {
    /// Decodes one text frame, telling malformed JSON, an unknown `type` and
    /// a known type with missing or bad fields apart.
    ///
    /// # Errors
    /// A [`DecodeError`] with code `bad_json`, `unknown_type` or `bad_request`.
    pub fn decode(text: &str) -> Result<ClientFrame, DecodeError> {
        // Moves are most of the traffic: read them straight into their own
        // struct, without the buffering that `flatten` and the `type` tag
        // cost. Anything else (or a move that does not fit) goes on below.
        if let Ok(act) = serde_json::from_str::<ActFrame>(text)
            && act.kind == "act"
            && let Some(action) = act.action.into_action()
        {
            return Ok(ClientFrame {
                request_id: act.request_id,
                message: ClientMessage::Act {
                    room_id: act.room_id,
                    action,
                },
            });
        }
        // The common case, a well-formed request, in one pass; the slower
        // path below only runs to explain what is wrong.
        if let Ok(frame) = serde_json::from_str::<ClientFrame>(text) {
            return Ok(frame);
        }
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| DecodeError {
            code: ErrorCode::BadJson,
            message: format!("malformed JSON: {e}"),
            request_id: None,
        })?;
        let request_id = value.get("request_id").and_then(|v| v.as_u64());
        let fail = |code, message| DecodeError {
            code,
            message,
            request_id,
        };
        let Some(object) = value.as_object() else {
            return Err(fail(
                ErrorCode::BadJson,
                "a message must be a JSON object".into(),
            ));
        };
        let Some(kind) = object
            .get("type")
            .and_then(|t| t.as_str())
            .map(str::to_string)
        else {
            return Err(fail(
                ErrorCode::BadRequest,
                "missing string field \"type\"".into(),
            ));
        };
        if !ClientMessage::TYPES.contains(&kind.as_str()) {
            return Err(fail(
                ErrorCode::UnknownType,
                format!("unknown message type {kind:?}"),
            ));
        }
        serde_json::from_value(value)
            .map_err(|e| fail(ErrorCode::BadRequest, format!("{kind}: {e}")))
    }
}

/// An `act` request's fields, read without the general frame's buffering
/// (see [`ClientFrame::decode`]).
#[derive(Deserialize)]
struct ActFrame<'a> {
    #[serde(rename = "type", borrow)]
    kind: std::borrow::Cow<'a, str>,
    #[serde(default)]
    request_id: Option<u64>,
    room_id: RoomId,
    #[serde(borrow)]
    action: FlatAction<'a>,
}

/// A [`PlayerAction`]'s fields side by side: an internally tagged enum is
/// read by buffering the whole object first, which was the largest single
/// cost of a move's decoding (callgrind: about 4,000 of the 7,500
/// instructions a Gomoku `act` took).
#[derive(Deserialize)]
struct FlatAction<'a> {
    #[serde(borrow)]
    kind: std::borrow::Cow<'a, str>,
    point: Option<Point>,
    choice: Option<Swap2Choice>,
    play: Option<Play>,
}

impl FlatAction<'_> {
    /// The action, when the fields are exactly one variant's; anything else
    /// (an unknown kind, a missing or a stray field) is left to the general
    /// decoder, which explains what is wrong.
    fn into_action(self) -> Option<PlayerAction> {
        let action = match (&*self.kind, self.point, self.choice, self.play) {
            ("place", Some(point), None, None) => PlayerAction::Place { point },
            ("choose", None, Some(choice), None) => PlayerAction::Choose { choice },
            ("play", None, None, Some(play)) => PlayerAction::Play { play },
            ("roll", None, None, None) => PlayerAction::Roll,
            ("double", None, None, None) => PlayerAction::Double,
            ("take", None, None, None) => PlayerAction::Take,
            ("drop", None, None, None) => PlayerAction::Drop,
            _ => return None,
        };
        Some(action)
    }
}
