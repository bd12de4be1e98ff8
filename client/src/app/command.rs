//! [`Command`]: what the player asks for from a panel. Commands name the
//! player's intent ("place a stone", "offer a draw"); [`super::TabulaApp::apply`]
//! turns them into state changes and wire messages.

use tabula_shared::backgammon::ResignKind;
use tabula_shared::export::ExportFormat;
use tabula_shared::gomoku::{Point, Swap2Choice};
use tabula_shared::protocol::{GameKind, LeaderboardPeriod, OfferKind, Role};

use super::{Danger, Screen};
use crate::bg_view::BoardInput;

/// Everything a panel can ask for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Connect with the settings' address.
    Connect,
    /// Start (or find) a server on this computer and connect to it.
    PlayHere,
    /// Close the connection.
    Disconnect,
    /// Open or close the create dialog.
    ShowCreate(bool),
    /// Create a room from the dialog's fields.
    CreateRoom,
    /// Join a listed room, to play or to watch.
    JoinRoom {
        /// The room.
        room_id: String,
        /// Player or spectator.
        role: Role,
    },
    /// Join the private room whose code was typed.
    JoinByCode,
    /// Leave the current room.
    Leave,
    /// Ask which bots are online.
    ListBots,
    /// Challenge a player (or bot) online by name, to the game set in the
    /// create dialog.
    Challenge {
        /// Their name.
        to: String,
    },
    /// Accept or decline a challenge we received.
    AnswerChallenge {
        /// The challenge.
        id: String,
        /// Yes or no.
        accept: bool,
    },
    /// Ask before a destructive action (`Some`), or drop the question (`None`).
    Ask(Option<Danger>),
    /// Place a Gomoku stone.
    PlaceStone(Point),
    /// Say something short in a toast (a click that can do nothing now).
    Toast(String),
    /// Make a Swap2 opening choice.
    ChooseSwap2(Swap2Choice),
    /// Roll the dice (Backgammon).
    Roll,
    /// Offer the cube (Backgammon).
    Double,
    /// Take the offered cube.
    TakeCube,
    /// Drop the offered cube, losing the game.
    DropCube,
    /// A click or drag on the Backgammon board.
    Board(BoardInput),
    /// Take back the last hop of the play being built.
    UndoHop,
    /// Send the play being built.
    ConfirmPlay,
    /// Resign; Backgammon says how much is conceded.
    Resign(Option<ResignKind>),
    /// Offer a draw (Gomoku).
    OfferDraw,
    /// Ask the opponent to take back the last move.
    RequestTakeback,
    /// Ask for (or agree to) another game in the same room.
    Rematch,
    /// Claim the win over an opponent who stayed away too long.
    ClaimWin,
    /// Accept or decline the opponent's offer.
    AnswerOffer {
        /// Which offer.
        kind: OfferKind,
        /// Yes or no.
        accept: bool,
    },
    /// Mute or unmute the spectators' chat (players only).
    MuteSpectators(bool),
    /// Look at the position after this many actions of the game in
    /// progress (from the move list), or back at the live one (`None`).
    LookBack(Option<usize>),
    /// Turn the board around (spectators).
    Flip,
    /// Close the game-over dialog.
    DismissResult,
    /// Send the chat line typed.
    SendChat,
    /// Add a random seed of ours to the match's dice (sent by the app by
    /// itself, once per match, before the first roll).
    SendDiceSeed,
    /// Show a screen (the lobby, history, leaderboard or the replay viewer).
    ShowScreen(Screen),
    /// Ask for the page of our history that starts at this offset.
    HistoryPage(u32),
    /// Ask for a leaderboard.
    ShowLeaderboard(GameKind, LeaderboardPeriod),
    /// Open a finished game in the replay viewer.
    OpenGame(String),
    /// Open a finished game in the replay viewer and ask for its analysis
    /// (unless the server already has one).
    AnalyseGame(String),
    /// Ask for the analysis of the game in the replay viewer.
    Analyse,
    /// Ask the engine for hints on our turn.
    Hint,
    /// Show the replay at the position after this many actions.
    ReplayGo(usize),
    /// Turn the replay's board around.
    ReplayFlip,
    /// Leave the replay viewer.
    CloseReplay,
    /// Open the replayed game on the analysis board, at the position shown.
    OpenOnBoard,
    /// Open a position on the analysis board (a puzzle's, once answered).
    StudyPosition(tabula_shared::study::StudyPosition),
    /// Open or close the keyboard help window.
    ShowHelp(bool),
    /// Open or close the Settings window.
    ShowSettings(bool),
    /// Open or close the account window.
    ShowAccount(bool),
    /// Register our name with the password typed in the account window.
    Register,
    /// Fetch a finished game and open the export window for it.
    ExportGame(String),
    /// Open the export window for the game in the replay viewer.
    ExportReplay,
    /// Choose the export window's file format.
    ExportFormat(ExportFormat),
    /// Open the system's "Save as" dialog for the export file (desktop).
    ChooseExportPath,
    /// Write the export file.
    SaveExport,
    /// Close the export window.
    CloseExport,
    /// Something about tournaments: the list, a page, entering, hosting.
    Tournament(super::TournamentAsk),
}
