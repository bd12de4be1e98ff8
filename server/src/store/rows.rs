//! The plain rows the server hands the store and gets back from it: players,
//! accounts, the actions of running rooms, finished games, and what the store
//! held at start-up. No database type appears in them.

use tabula_shared::seat::Seat;

/// A saved player identity.
#[derive(Debug, Clone)]
pub struct PlayerRow {
    /// Public id.
    pub id: String,
    /// Secret resume token.
    pub token: String,
    /// Display name.
    pub name: String,
}

/// One game action of a running room, saved on its own so that a move costs
/// a small insert instead of rewriting the room.
#[derive(Debug, Clone)]
pub struct AppendedAction {
    /// The room.
    pub room_id: String,
    /// The action's index in the room's record.
    pub index: u64,
    /// The action, JSON.
    pub action: String,
    /// The room's event number after this action.
    pub seq: u64,
    /// The clock after this action, JSON (`null` without a clock).
    pub clock: String,
}

/// A registered account: a player id, its reserved name and its password hash.
#[derive(Debug, Clone)]
pub struct AccountRow {
    /// The player it belongs to.
    pub player_id: String,
    /// The reserved name, as registered.
    pub name: String,
    /// The argon2id PHC string.
    pub hash: String,
}

/// One API token of a bot account, as stored: its hash, never the secret.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ApiTokenRow {
    /// The token's public id.
    pub id: String,
    /// The bot account's player id.
    pub player_id: String,
    /// The owner's label for it.
    pub label: String,
    /// SHA-256 of the secret, in hex.
    pub hash: String,
    /// Unix ms.
    pub created_at: i64,
    /// Revoked tokens sign nobody in.
    pub revoked: bool,
}

/// A finished game, as kept for history and export.
#[derive(Debug, Clone)]
pub struct FinishedGame {
    /// Unique id of this game.
    pub id: String,
    /// The room it was played in.
    pub room_id: String,
    /// `gomoku` or `backgammon`.
    pub kind: String,
    /// Room options, JSON.
    pub options: String,
    /// Seats with players, JSON.
    pub players: String,
    /// The whole record (every move and roll), JSON.
    pub record: String,
    /// The result, JSON.
    pub result: String,
    /// Unix milliseconds.
    pub started_at: i64,
    /// Unix milliseconds.
    pub ended_at: i64,
    /// The human players' ids by seat (`None` for an AI or empty seat).
    pub humans: [Option<String>; 2],
    /// Update the players' ratings with this result.
    pub rated: bool,
    /// Which seats are bot accounts: a bot's rating is in its game's bots'
    /// pool.
    pub bots: [bool; 2],
    /// An AI seat's fixed rating (rated games against the AI): the human's
    /// rating moves against it; the AI's never does.
    pub fixed: [Option<f64>; 2],
    /// The winner, for the rating update (`None` = draw).
    pub winner: Option<Seat>,
    /// The room's own state at the game's end, saved in the same
    /// transaction: a restart never finds the game stored but the room
    /// still running it (which would end it, and store it, again).
    pub room_state: Option<String>,
}

/// What the store held at start-up.
pub struct Loaded {
    /// Every known player.
    pub players: Vec<PlayerRow>,
    /// Every registered account.
    pub accounts: Vec<AccountRow>,
    /// Every API token, revoked ones too.
    pub api_tokens: Vec<ApiTokenRow>,
    /// Every saved room: (id, state JSON, actions appended since, in order).
    pub rooms: Vec<(String, String, Vec<AppendedAction>)>,
    /// Every tournament: (id, state JSON).
    pub tournaments: Vec<(String, String)>,
}

/// A puzzle as kept: its id, what it asks (the theme's wire name), where it
/// came from and the whole puzzle with its solution (JSON).
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleRow {
    /// Made from the position: the same position found twice is one row.
    pub id: String,
    /// The theme's wire name ([`tabula_shared::protocol::PuzzleTheme::name`]).
    pub theme: String,
    /// The puzzle and its solution (JSON).
    pub body: String,
    /// When it was found (Unix ms; 0 for the built-in set).
    pub created_at: i64,
}

/// A puzzle read back: the body as saved, with its rating and tries now.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleListing {
    /// The puzzle and its solution (JSON), as saved.
    pub body: String,
    /// Its Glicko-2 rating.
    pub rating: f64,
    /// Players who have tried it.
    pub plays: u32,
}
