//! [`Write`]: one change the server asks the store to make durable. The
//! [`Store`](super::Store) handle builds them; the backend's writer applies
//! them, many to a transaction, in the order they were queued.

use super::rows::{AccountRow, ApiTokenRow, AppendedAction, FinishedGame, PlayerRow, PuzzleRow};

/// One change to make durable.
pub(super) enum Write {
    /// A player identity, new or renamed.
    Player(PlayerRow),
    /// A room's whole state.
    Room {
        /// The room.
        id: String,
        /// Its state, JSON.
        state: String,
    },
    /// One action appended to a running room since its last full save.
    Action(Box<AppendedAction>),
    /// A room closed: forget it.
    DeleteRoom {
        /// The room.
        id: String,
    },
    /// A finished game, with its rating update and its room's final state.
    Game(Box<FinishedGame>),
    /// A new account.
    Account(AccountRow),
    /// A new API token.
    ApiToken(ApiTokenRow),
    /// An API token revoked by its owner.
    RevokeApiToken {
        /// The token.
        id: String,
        /// Its owner (a token of another account is left alone).
        player_id: String,
    },
    /// A finished game's analysis (a second one for the same game is
    /// ignored: the first stays).
    Analysis {
        /// The game.
        game_id: String,
        /// The analysis, JSON.
        analysis: String,
        /// When it was made (Unix ms).
        created_at: i64,
    },
    /// A tournament's whole state.
    Tournament {
        /// The tournament.
        id: String,
        /// Its state, JSON.
        state: String,
    },
    /// Puzzles found (one already kept is left as it is).
    Puzzles(Vec<PuzzleRow>),
    /// A player's answer to a puzzle: the first one moves the player's
    /// puzzle rating and the puzzle's; a later one is not counted.
    PuzzleAnswer {
        /// The player.
        player_id: String,
        /// The puzzle.
        puzzle_id: String,
        /// Whether it was right.
        correct: bool,
        /// When (Unix ms).
        at: i64,
    },
    /// Commit what was queued before, then stop the writer and release the
    /// data directory; answered once it is released.
    Close,
}
