//! A room as the wire shows it: its lobby summary, its seats and players,
//! the full snapshot sent on join, and the numbered [`RoomEvent`]s that
//! follow (actions, offers, chat, the clock).

use serde::{Deserialize, Serialize};

use super::{
    ActionRecord, AiLevel, GameRecord, GameResult, PlayerId, RatingChange, RoomId, RoomOptions,
    Turn, is_false,
};
use crate::backgammon::ResignKind;
use crate::fair_dice::DiceProof;
use crate::seat::Seat;

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

/// The public face of a player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerInfo {
    /// Stable public id (never the resume token).
    pub id: PlayerId,
    /// Display name.
    pub name: String,
    /// Set when an AI plays this seat: the built-in AI's level, or
    /// `expert` for one of the host's engines (the built-in Expert stands
    /// in for an engine that fails).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai: Option<AiLevel>,
    /// A bot account (a program playing through the protocol); shown as a
    /// bot wherever the name appears.
    #[serde(default, skip_serializing_if = "is_false")]
    pub bot: bool,
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
    /// Who acts next, and what is expected of them.
    #[serde(default = "Turn::nothing")]
    pub turn: Turn,
    /// The seat of the player this snapshot was sent to, when they have one
    /// (after a rematch the seats are swapped: this says which is yours).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub your_seat: Option<Seat>,
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
        /// Who acts next, and what is expected of them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn: Option<Box<Turn>>,
    },
    /// Backgammon: the roll just made (the `roll` action before this event)
    /// has no legal play, so the turn passed to the other seat, which is now
    /// to roll. Sent for a human's roll and for the AI's alike.
    Passed {
        /// The seat that could not move.
        seat: Seat,
        /// Its roll.
        dice: [u8; 2],
        /// Who acts next (the other seat, to roll).
        turn: Box<Turn>,
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
        /// Who acts first, and what is expected of them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn: Option<Box<Turn>>,
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
        /// Who acts now, and what is expected of them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn: Option<Box<Turn>>,
        /// The clocks after the takeback, the running one now the seat
        /// that acts (rooms with a clock).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<ClockState>,
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
        /// Backgammon: the match's dice proof with the server seed revealed,
        /// so that every roll can be checked (see `docs/DICE.md`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dice: Option<DiceProof>,
    },
    /// A player added a seed to the match's dice (Backgammon, before the
    /// first roll).
    DiceSeed {
        /// Whose seed.
        seat: Seat,
        /// The seed, as it goes into every roll.
        seed: String,
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
