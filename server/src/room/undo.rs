//! [`Checkpoint`]: a room's game state as it was before a change, so that a
//! change the store could not save is undone instead of told.

use std::time::Instant;

use tabula_shared::game::Game;
use tabula_shared::protocol::{GameResult, PendingOffer, PlayerInfo};
use tabula_shared::seat::Seat;

use super::Room;
use super::clock::Clock;
use super::match_dice::MatchDice;
use crate::handle::ConnId;

/// Everything a change to a room may alter that the store keeps (and the
/// members' seats, which a rematch swaps). Taken before the change; put back
/// when its save fails, so the room is again exactly what the store holds.
pub(super) struct Checkpoint {
    /// The game before the change.
    game: Game,
    /// Whether the game was over.
    result: Option<GameResult>,
    /// The clocks.
    clock: Option<Clock>,
    /// The pending offers.
    offers: Vec<PendingOffer>,
    /// Which game of the match.
    game_no: u32,
    /// When the game began (Unix ms).
    started_at: i64,
    /// Who sat where.
    seats: [Option<PlayerInfo>; 2],
    /// Since when each seated player was away.
    away_since: [Option<Instant>; 2],
    /// Each member's seat (a rematch swaps them).
    member_seats: Vec<(ConnId, Option<Seat>)>,
    /// The match's dice.
    dice: MatchDice,
    /// Whether spectators were muted.
    muted: bool,
    /// Whether the first game had begun.
    game_started: bool,
}

impl Room {
    /// The room's state now, to put back with [`Room::roll_back`].
    pub(super) fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            game: self.game.clone(),
            result: self.result.clone(),
            clock: self.clock.clone(),
            offers: self.offers.clone(),
            game_no: self.game_no,
            started_at: self.started_at,
            seats: self.seats.clone(),
            away_since: self.away_since,
            member_seats: self.members.iter().map(|(c, m)| (*c, m.seat)).collect(),
            dice: self.dice.clone(),
            muted: self.muted,
            game_started: self.game_started,
        }
    }

    /// Puts the room back as it was at `checkpoint` (a change that could
    /// not be saved). Nothing was told of the change, so nothing is told
    /// of its undoing.
    pub(super) fn roll_back(&mut self, checkpoint: Checkpoint) {
        let Checkpoint {
            game,
            result,
            clock,
            offers,
            game_no,
            started_at,
            seats,
            away_since,
            member_seats,
            dice,
            muted,
            game_started,
        } = checkpoint;
        self.game = game;
        self.result = result;
        self.clock = clock;
        self.offers = offers;
        self.game_no = game_no;
        self.started_at = started_at;
        self.seats = seats;
        self.away_since = away_since;
        for (conn, seat) in member_seats {
            if let Some(member) = self.members.get_mut(&conn) {
                member.seat = seat;
            }
        }
        self.dice = dice;
        self.muted = muted;
        self.game_started = game_started;
    }
}
