//! The two seats of a game ([`Seat`]), and how they map to Backgammon's
//! sides: the first seat plays White.
//!
//! A seat is fixed for the whole game. In Gomoku its colour may be decided
//! later (by swap2); in Backgammon it always plays the same side.

use serde::{Deserialize, Serialize};

use crate::backgammon::Side;

/// A player's seat, fixed for the whole game (colours may be decided later by
/// swap2). With [`Opening::None`](crate::gomoku::Opening::None), `First` is black.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    /// The player who created/started the game; places the swap2 stones.
    First,
    /// The other player.
    Second,
}

impl Seat {
    /// The other seat.
    pub const fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    /// Both seats, first seat first.
    pub const BOTH: [Seat; 2] = [Seat::First, Seat::Second];

    /// 0 for the first seat, 1 for the second (index into per-seat arrays).
    pub const fn index(self) -> usize {
        match self {
            Seat::First => 0,
            Seat::Second => 1,
        }
    }

    /// The Backgammon side this seat plays.
    pub const fn side(self) -> Side {
        side_of(self)
    }
}

/// The Backgammon side of a seat: the first seat plays White.
pub const fn side_of(seat: Seat) -> Side {
    match seat {
        Seat::First => Side::White,
        Seat::Second => Side::Black,
    }
}

/// The seat that plays a Backgammon side.
pub const fn seat_of(side: Side) -> Seat {
    match side {
        Side::White => Seat::First,
        Side::Black => Seat::Second,
    }
}
