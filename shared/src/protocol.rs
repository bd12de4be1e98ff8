//! The wire protocol between Tabula clients and the server.
//!
//! Every frame is one JSON text frame holding one message. Client frames
//! decode to [`ClientFrame`] (a [`ClientMessage`] plus an optional
//! `request_id`); server frames encode from [`ServerFrame`]. Both message
//! enums are tagged by a `"type"` field in `snake_case`.
//!
//! Game state travels as a *record*: the game options plus the list of
//! [`GomokuAction`]s or [`BgAction`]s played so far. A client rebuilds the
//! position by replaying the record through the rules in this crate
//! ([`GameRecord::replay`]), and then applies each new action from an
//! [`RoomEvent::Action`] event. The server stays the only judge of legality.
//!
//! `docs/PROTOCOL.md` documents every message with an example; a test parses
//! every example in that document.

use serde::{Deserialize, Serialize};

use crate::backgammon::{BgError, BgMatch, Dice, MatchConfig, Play, ResignKind, Side};
use crate::gomoku::{Gomoku, GomokuAction, GomokuConfig, GomokuError, Point, Seat, Swap2Choice};

/// The protocol version a client announces in its `hello`.
pub const PROTOCOL_VERSION: u32 = 1;

/// The largest frame the server accepts, in bytes (64 KiB).
pub const MAX_FRAME_BYTES: usize = 64 * 1024;

/// A room's id, chosen by the server.
pub type RoomId = String;
/// A player's public id, chosen by the server.
pub type PlayerId = String;

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
    /// The rating leaderboard of one game; the reply is `leaderboard`.
    GetLeaderboard {
        /// Which game's ratings.
        game: GameKind,
        /// All time (the default) or the last 7 days.
        #[serde(default)]
        period: LeaderboardPeriod,
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
    /// Ask for a full snapshot of a room you are in.
    Sync {
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
    /// An application-level ping; the server answers `pong`.
    Ping,
}

impl ClientMessage {
    /// The `"type"` names of every client message, for telling an unknown
    /// type from a known type with bad fields.
    pub const TYPES: &'static [&'static str] = &[
        "hello",
        "register",
        "list_games",
        "get_game",
        "get_leaderboard",
        "list_rooms",
        "unwatch_lobby",
        "create_room",
        "join_room",
        "join_by_code",
        "leave_room",
        "sync",
        "act",
        "resign",
        "offer_draw",
        "request_takeback",
        "answer",
        "rematch",
        "claim_win",
        "chat",
        "mute_spectators",
        "ping",
    ];

    /// The room this request is about, if any.
    pub fn room_id(&self) -> Option<&RoomId> {
        use ClientMessage::*;
        match self {
            JoinRoom { room_id, .. }
            | LeaveRoom { room_id }
            | Sync { room_id }
            | Act { room_id, .. }
            | Resign { room_id, .. }
            | OfferDraw { room_id }
            | RequestTakeback { room_id }
            | Answer { room_id, .. }
            | Rematch { room_id }
            | ClaimWin { room_id }
            | Chat { room_id, .. }
            | MuteSpectators { room_id, .. } => Some(room_id),
            Hello { .. }
            | Register { .. }
            | ListGames { .. }
            | GetGame { .. }
            | GetLeaderboard { .. }
            | ListRooms
            | UnwatchLobby
            | CreateRoom { .. }
            | JoinByCode { .. }
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

/// Whether a connection joins a room to play or to watch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Take a seat (or retake your own).
    #[default]
    Player,
    /// Watch: see everything, act on nothing.
    Spectator,
}

/// The AI levels, by the names shown to players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AiLevel {
    /// The seed's scoring table (Gomoku) or tuned heuristic (Backgammon).
    Beginner,
    /// A shallow search (Gomoku) or the heuristic with a 1-ply look-ahead (Backgammon).
    Intermediate,
    /// Full strength.
    Expert,
}

impl AiLevel {
    /// Every level, weakest first.
    pub const ALL: [AiLevel; 3] = [AiLevel::Beginner, AiLevel::Intermediate, AiLevel::Expert];
}

/// Who sits in the seat opposite the creator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Opponent {
    /// Another person, who joins from the lobby or by code.
    Human,
    /// The built-in AI at a level.
    Ai {
        /// How strong.
        level: AiLevel,
    },
}

/// The colour the creator asks for.
///
/// For Gomoku, black is the player who moves first (with swap2, the player who
/// places the first three stones). For Backgammon, the colours name the sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColourChoice {
    /// Black, or the first seat.
    Black,
    /// White, or the second seat.
    White,
    /// Decided by the server.
    #[default]
    Random,
}

/// A Fischer clock: a starting budget plus an increment per move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Starting time per player, in seconds.
    pub initial_secs: u32,
    /// Seconds added after each of the player's moves.
    pub increment_secs: u32,
}

/// The game a room plays and its options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum GameOptions {
    /// Gomoku: board size, rule set and opening.
    Gomoku(GomokuConfig),
    /// Backgammon: match length (0 = money game), cube, Jacoby, Crawford.
    Backgammon(MatchConfig),
}

impl GameOptions {
    /// Which game.
    pub fn kind(&self) -> GameKind {
        match self {
            GameOptions::Gomoku(_) => GameKind::Gomoku,
            GameOptions::Backgammon(_) => GameKind::Backgammon,
        }
    }
}

/// The two games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    /// Five in a row.
    Gomoku,
    /// Backgammon.
    Backgammon,
}

/// Everything chosen when a room is created.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoomOptions {
    /// The game and its rules.
    pub game: GameOptions,
    /// Human or AI.
    pub opponent: Opponent,
    /// The creator's colour.
    #[serde(default)]
    pub colour: ColourChoice,
    /// An optional Fischer clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<TimeControl>,
    /// Private rooms are not listed and are joined by code.
    #[serde(default)]
    pub private: bool,
    /// Whether takeback requests are allowed (default true).
    #[serde(default = "default_true")]
    pub takebacks: bool,
    /// Rated rooms (human opponents, both registered) update Glicko-2 ratings.
    #[serde(default, skip_serializing_if = "is_false")]
    pub rated: bool,
}

fn default_true() -> bool {
    true
}

fn default_page() -> u32 {
    20
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Which part of the rating history a leaderboard covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeaderboardPeriod {
    /// Everyone with a rating, by rating.
    #[default]
    AllTime,
    /// The weekly list: players with a rated result in the last 7 days, by
    /// the rating points they gained in those days.
    Week,
}

/// One line of a leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeaderboardEntry {
    /// 1 for the top.
    pub rank: u32,
    /// The player.
    pub player_id: PlayerId,
    /// The registered name.
    pub name: String,
    /// The current Glicko-2 rating, rounded.
    pub rating: i32,
    /// The rating deviation, rounded.
    pub deviation: i32,
    /// True while the deviation is high: the rating is still a guess.
    pub provisional: bool,
    /// Rated results counted (in the period).
    pub games: u32,
    /// Weekly list only: rating points gained in the last 7 days.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change: Option<i32>,
}

/// An AI level's fixed, published rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiRating {
    /// The level.
    pub level: AiLevel,
    /// Its rating on the same scale as players'.
    pub rating: i32,
}

/// How one player's rating moved after a rated game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingChange {
    /// The player's seat in that game.
    pub seat: Seat,
    /// The player.
    pub player_id: PlayerId,
    /// Rating before, rounded.
    pub before: i32,
    /// Rating after, rounded.
    pub after: i32,
    /// Whether the new rating is still provisional.
    pub provisional: bool,
}

/// A finished game as listed in a player's history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The game's id; open it with `get_game`.
    pub game_id: String,
    /// The room's options (game, rules, clock, rated).
    pub options: RoomOptions,
    /// Both seats and who sat there.
    pub seats: Vec<SeatInfo>,
    /// How it ended.
    pub result: GameResult,
    /// How many actions the record holds.
    pub actions: u32,
    /// Unix milliseconds.
    pub started_at: i64,
    /// Unix milliseconds.
    pub ended_at: i64,
}

impl GameSummary {
    /// The name of whoever sat in `seat`, if anyone did.
    pub fn player_name(&self, seat: Seat) -> Option<&str> {
        self.seats
            .iter()
            .find(|s| s.seat == seat)
            .and_then(|s| s.player.as_ref())
            .map(|p| p.name.as_str())
    }
}

/// A finished game with its whole record, for the replay viewer and export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FinishedGame {
    /// Who, what and how it ended.
    pub summary: GameSummary,
    /// Every move, roll and cube action.
    pub record: GameRecord,
}

/// One game action a seated player asks for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlayerAction {
    /// Gomoku: place a stone.
    Place {
        /// Where.
        point: Point,
    },
    /// Gomoku swap2: the colour choice or "place two more".
    Choose {
        /// The choice.
        choice: Swap2Choice,
    },
    /// Backgammon: roll the dice (the server rolls them).
    Roll,
    /// Backgammon: a whole play, in standard notation from the mover's side
    /// (`"24/18 13/11"`, `"bar/22*"`, `"6/off"`, `"8/5(2)"`); an empty string
    /// when no move is possible.
    Play {
        /// The play.
        play: Play,
    },
    /// Backgammon: offer a double.
    Double,
    /// Backgammon: take the offered cube.
    Take,
    /// Backgammon: drop (pass) the offered cube.
    Drop,
}

/// One entry of a Backgammon match record. Dice are always in the record, so
/// a match replays exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BgAction {
    /// The opening roll: one die each (a tie is recorded and rolled again).
    OpeningRoll {
        /// White's die.
        white: u8,
        /// Black's die.
        black: u8,
    },
    /// A side rolled.
    Roll {
        /// Who.
        side: Side,
        /// The two dice.
        dice: [u8; 2],
    },
    /// A side played its roll.
    Play {
        /// Who.
        side: Side,
        /// The play, in notation from that side's view.
        play: Play,
    },
    /// A side offered a double.
    Double {
        /// Who.
        side: Side,
    },
    /// The other side took.
    Take {
        /// Who took.
        side: Side,
    },
    /// The other side dropped, losing the game at the current cube.
    Drop {
        /// Who dropped.
        side: Side,
    },
    /// A side resigned the game.
    Resign {
        /// Who.
        side: Side,
        /// Single, gammon or backgammon.
        value: ResignKind,
    },
    /// The next game of the match began.
    NextGame,
}

/// How a finished game ended, beyond what the rules decide on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Five in a row, or the last checker borne off.
    Rules,
    /// The board filled up.
    BoardFull,
    /// A player resigned.
    Resigned,
    /// A Backgammon cube was dropped.
    Dropped,
    /// Both players agreed to a draw.
    DrawAgreed,
    /// A clock ran out.
    Timeout,
    /// A player stayed away past the reconnect grace period and the other claimed the win.
    Abandoned,
}

/// The result of a finished game (or Backgammon match).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// The winning seat, or none for a draw.
    pub winner: Option<Seat>,
    /// Why it ended.
    pub reason: EndReason,
    /// Gomoku: the winning line to highlight.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub line: Vec<Point>,
    /// Backgammon: the final match score, first seat (white) then second (black).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<[u32; 2]>,
}

/// A whole game so far: its options and every action, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum GameRecord {
    /// A Gomoku game.
    Gomoku {
        /// Size, rule set, opening.
        config: GomokuConfig,
        /// Every stone and choice.
        actions: Vec<GomokuAction>,
    },
    /// A Backgammon match.
    Backgammon {
        /// Match length, cube, Jacoby, Crawford.
        config: MatchConfig,
        /// Every roll, play and cube action of every game.
        actions: Vec<BgAction>,
    },
}

/// A replayed game: the live rules state rebuilt from a record.
#[derive(Debug, Clone)]
pub enum LiveGame {
    /// Gomoku.
    Gomoku(Gomoku),
    /// Backgammon.
    Backgammon(BgMatch),
}

/// Why a record does not replay.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// A Gomoku action was refused by the rules.
    #[error("gomoku action {index}: {error}")]
    Gomoku {
        /// Which action (0-based).
        index: usize,
        /// Why.
        error: GomokuError,
    },
    /// A Backgammon action was refused by the rules.
    #[error("backgammon action {index}: {error}")]
    Backgammon {
        /// Which action (0-based).
        index: usize,
        /// Why.
        error: BgError,
    },
    /// The record's game does not match the live game.
    #[error("action is for the other game")]
    WrongGame,
}

impl GameRecord {
    /// An empty record for a new game with these options.
    pub fn new(options: &GameOptions) -> GameRecord {
        match options {
            GameOptions::Gomoku(config) => GameRecord::Gomoku {
                config: *config,
                actions: Vec::new(),
            },
            GameOptions::Backgammon(config) => GameRecord::Backgammon {
                config: *config,
                actions: Vec::new(),
            },
        }
    }

    /// How many actions the record holds.
    pub fn len(&self) -> usize {
        match self {
            GameRecord::Gomoku { actions, .. } => actions.len(),
            GameRecord::Backgammon { actions, .. } => actions.len(),
        }
    }

    /// Keeps the first `len` actions (all of them when there are fewer).
    pub fn truncate(&mut self, len: usize) {
        match self {
            GameRecord::Gomoku { actions, .. } => actions.truncate(len),
            GameRecord::Backgammon { actions, .. } => actions.truncate(len),
        }
    }

    /// Whether no action has been played.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Rebuilds the game by replaying every action through the rules.
    ///
    /// # Errors
    /// [`ReplayError`] names the first action the rules refuse.
    pub fn replay(&self) -> Result<LiveGame, ReplayError> {
        match self {
            GameRecord::Gomoku { config, actions } => {
                let mut game = Gomoku::new(*config)
                    .map_err(|error| ReplayError::Gomoku { index: 0, error })?;
                for (index, action) in actions.iter().enumerate() {
                    apply_gomoku(&mut game, action)
                        .map_err(|error| ReplayError::Gomoku { index, error })?;
                }
                Ok(LiveGame::Gomoku(game))
            }
            GameRecord::Backgammon { config, actions } => {
                let mut game = BgMatch::new(*config)
                    .map_err(|error| ReplayError::Backgammon { index: 0, error })?;
                for (index, action) in actions.iter().enumerate() {
                    apply_bg(&mut game, action)
                        .map_err(|error| ReplayError::Backgammon { index, error })?;
                }
                Ok(LiveGame::Backgammon(game))
            }
        }
    }
}

impl LiveGame {
    /// Applies one recorded action to the live game.
    ///
    /// # Errors
    /// The rules' refusal, or [`ReplayError::WrongGame`].
    pub fn apply(&mut self, action: &ActionRecord, index: usize) -> Result<(), ReplayError> {
        match (self, action) {
            (LiveGame::Gomoku(game), ActionRecord::Gomoku(a)) => {
                apply_gomoku(game, a).map_err(|error| ReplayError::Gomoku { index, error })
            }
            (LiveGame::Backgammon(game), ActionRecord::Backgammon(a)) => {
                apply_bg(game, a).map_err(|error| ReplayError::Backgammon { index, error })
            }
            _ => Err(ReplayError::WrongGame),
        }
    }
}

/// Applies one Gomoku action to the rules.
///
/// # Errors
/// The rules' [`GomokuError`].
pub fn apply_gomoku(game: &mut Gomoku, action: &GomokuAction) -> Result<(), GomokuError> {
    game.apply(*action)
}

/// Applies one Backgammon action to the rules.
///
/// # Errors
/// The rules' [`BgError`].
pub fn apply_bg(game: &mut BgMatch, action: &BgAction) -> Result<(), BgError> {
    match action {
        BgAction::OpeningRoll { white, black } => game.opening_roll(*white, *black).map(|_| ()),
        BgAction::Roll { side, dice } => game.roll(*side, Dice::new(dice[0], dice[1])?).map(|_| ()),
        BgAction::Play { side, play } => game.play(*side, play),
        BgAction::Double { side } => game.double(*side),
        BgAction::Take { side } => game.take(*side),
        BgAction::Drop { side } => game.drop_cube(*side),
        BgAction::Resign { side, value } => game.resign(*side, *value),
        BgAction::NextGame => game.start_next_game(),
    }
}

/// One recorded action of either game, as sent in events.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ActionRecord {
    /// A Gomoku action.
    Gomoku(GomokuAction),
    /// A Backgammon action.
    Backgammon(BgAction),
}

/// The public face of a player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerInfo {
    /// Stable public id (never the resume token).
    pub id: PlayerId,
    /// Display name.
    pub name: String,
    /// Set when this seat is the built-in AI.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai: Option<AiLevel>,
}

/// One of a room's two seats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// Which seat: `first` (Gomoku black / swap2 opener; Backgammon white) or `second`.
    pub seat: Seat,
    /// Who sits there, if anyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<PlayerInfo>,
    /// Whether that player is connected now (AI seats always are).
    pub connected: bool,
    /// While a dropped player's seat is held: milliseconds left of the grace period.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grace_ms: Option<u64>,
}

/// A room's life cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoomStatus {
    /// A seat is free.
    Waiting,
    /// Both seats taken, game running.
    Playing,
    /// The game is over (a rematch may follow).
    Finished,
}

/// A room as listed in the lobby.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoomSummary {
    /// The room.
    pub room_id: RoomId,
    /// Game, rules, opponent, clock.
    pub options: RoomOptions,
    /// Both seats.
    pub seats: Vec<SeatInfo>,
    /// Waiting, playing or finished.
    pub status: RoomStatus,
    /// How many are watching.
    pub spectators: u32,
}

/// A Fischer clock's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    /// Milliseconds left for the first and the second seat.
    pub remaining_ms: [u64; 2],
    /// The seat whose clock is running, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running: Option<Seat>,
}

/// A request waiting for the other player's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OfferKind {
    /// A draw offer.
    Draw,
    /// A takeback request.
    Takeback,
    /// A rematch request.
    Rematch,
    /// A Backgammon resignation, which the opponent may accept or refuse.
    Resign,
}

/// A pending offer and who made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingOffer {
    /// What is offered.
    pub kind: OfferKind,
    /// By whom.
    pub by: Seat,
    /// A resignation's value: a single game, a gammon or a backgammon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<ResignKind>,
}

impl PendingOffer {
    /// A draw, takeback or rematch offer.
    pub fn new(kind: OfferKind, by: Seat) -> PendingOffer {
        PendingOffer {
            kind,
            by,
            value: None,
        }
    }
}

/// A chat line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// Sender's name.
    pub from: String,
    /// Whether the sender watches rather than plays.
    pub spectator: bool,
    /// The text.
    pub text: String,
}

/// The full state of a room, sent on join and on `sync`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoomSnapshot {
    /// Lobby-level facts: options, seats, status, spectators.
    pub summary: RoomSummary,
    /// The sequence number of the last event this snapshot includes.
    pub seq: u64,
    /// The current game's record; replay it with [`GameRecord::replay`].
    pub record: GameRecord,
    /// Set once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// The clock, when the room has a time control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockState>,
    /// Offers waiting for an answer.
    #[serde(default)]
    pub offers: Vec<PendingOffer>,
    /// Whether the players have muted spectator chat.
    #[serde(default)]
    pub spectators_muted: bool,
    /// The latest chat lines, oldest first.
    #[serde(default)]
    pub chat: Vec<ChatLine>,
    /// The private room's join code; sent only to the room's players.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

/// Something that happened in a room.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RoomEvent {
    /// A game action entered the record (a stone, a roll, a play, a cube action...).
    Action {
        /// The action, as recorded.
        action: ActionRecord,
        /// The clock after the action, when the room has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<ClockState>,
    },
    /// A player took a seat (or the AI did).
    SeatTaken {
        /// The seat.
        seat: Seat,
        /// Who.
        player: PlayerInfo,
    },
    /// The game began (both seats filled).
    GameStarted {
        /// The fresh record.
        record: GameRecord,
        /// The clock, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<ClockState>,
    },
    /// A seated player connected again.
    PlayerConnected {
        /// The seat.
        seat: Seat,
    },
    /// A seated player dropped; the seat is held for `grace_ms`.
    PlayerDisconnected {
        /// The seat.
        seat: Seat,
        /// Milliseconds until the other player may claim the win.
        grace_ms: u64,
    },
    /// A seat was given up before the game began.
    SeatLeft {
        /// The seat.
        seat: Seat,
    },
    /// A draw, takeback or rematch was requested.
    OfferMade {
        /// The offer.
        offer: PendingOffer,
    },
    /// An offer was declined (or withdrawn by a move).
    OfferDeclined {
        /// The offer.
        offer: PendingOffer,
    },
    /// The last `count` actions were taken back.
    TookBack {
        /// How many actions left the record.
        count: u32,
    },
    /// The game ended.
    GameOver {
        /// The result.
        result: GameResult,
        /// The stored game's id, for history, replay and export.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game_id: Option<String>,
        /// Rated rooms: how both ratings moved.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        ratings: Vec<RatingChange>,
    },
    /// A rematch began with seats swapped; a snapshot follows.
    RematchStarted,
    /// The spectator count changed.
    Spectators {
        /// How many now.
        count: u32,
    },
    /// A chat line.
    Chat {
        /// The line.
        line: ChatLine,
    },
    /// Spectator chat was muted or unmuted.
    SpectatorsMuted {
        /// Muted or not.
        muted: bool,
    },
}

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
    pub fn action_event(room_id: &str, seq: u64, action: &str, clock: Option<&str>) -> String {
        let room_id = serde_json::to_string(room_id).unwrap_or_default();
        let mut text = String::with_capacity(80 + room_id.len() + action.len());
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
    },
    /// The answer to `ping`.
    Pong,
    /// The server is shutting down; reconnect later with your token.
    Shutdown {
        /// Why.
        message: String,
    },
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
    /// Something broke on the server; the request had no effect.
    Internal,
}

impl ServerMessage {
    /// Shorthand for an error message.
    pub fn error(code: ErrorCode, message: impl Into<String>) -> ServerMessage {
        ServerMessage::Error {
            code,
            message: message.into(),
        }
    }
}

/// The Backgammon side of a seat: the first seat plays White.
pub fn side_of(seat: Seat) -> Side {
    match seat {
        Seat::First => Side::White,
        Seat::Second => Side::Black,
    }
}

/// The seat that plays a Backgammon side.
pub fn seat_of(side: Side) -> Seat {
    match side {
        Side::White => Seat::First,
        Side::Black => Seat::Second,
    }
}

/// Checks and tidies a display name: trimmed, each run of spaces inside it
/// made one space, then 1 to 24 characters, with no control characters and
/// no invisible ones (zero-width spaces, direction overrides and the like,
/// with which a name could pass for another).
///
/// # Errors
/// A readable reason when the name is not acceptable.
pub fn validate_name(name: &str) -> Result<String, String> {
    let tidy = name.split_whitespace().collect::<Vec<_>>().join(" ");
    let count = tidy.chars().count();
    if count == 0 {
        return Err("the name is empty".into());
    }
    if count > 24 {
        return Err("the name is longer than 24 characters".into());
    }
    if tidy.chars().any(char::is_control) {
        return Err("the name contains control characters".into());
    }
    if tidy.chars().any(is_invisible) {
        return Err("the name contains invisible characters".into());
    }
    Ok(tidy)
}

/// Format characters that show nothing, or turn the text around them: a
/// name made with them can look exactly like another. The zero-width joiner
/// (U+200D) and the tag characters stay allowed: emoji sequences and flags
/// are made with them.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}' // soft hyphen
            | '\u{034F}' // combining grapheme joiner
            | '\u{061C}' // Arabic letter mark
            | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' // Hangul fillers
            | '\u{17B4}' | '\u{17B5}' // Khmer inherent vowels
            | '\u{180B}'..='\u{180F}' // Mongolian selectors and vowel separator
            | '\u{200B}' | '\u{200C}' // zero-width space and non-joiner
            | '\u{200E}' | '\u{200F}' // direction marks
            | '\u{202A}'..='\u{202E}' // direction embeddings and overrides
            | '\u{2060}'..='\u{206F}' // word joiner, invisible operators, isolates
            | '\u{FEFF}' // zero-width no-break space
            | '\u{FFF9}'..='\u{FFFB}' // interlinear annotation
            | '\u{1D173}'..='\u{1D17A}' // musical format characters
    )
}
