//! Who is in a room: its members, the seats they hold, and joining,
//! leaving and dropping out.

use std::time::{Duration, Instant};

use tabula_shared::protocol::{
    EndReason, ErrorCode, GameResult, OfferKind, PlayerInfo, Role, RoomEvent, RoomStatus, SeatInfo,
    ServerMessage,
};
use tabula_shared::seat::Seat;

use super::{Refusal, Room, idx, refuse};
use crate::handle::{Caller, ConnId};
use crate::outlet::Outlet;

/// A member of the room: a connection that plays or watches.
pub(super) struct Member {
    /// Its connection's write side.
    pub(super) tx: Outlet,
    /// The player behind the connection.
    pub(super) player_id: String,
    /// The seat it plays, or `None` for a spectator.
    pub(super) seat: Option<Seat>,
}

impl Room {
    /// Both seats as shown to clients.
    pub(super) fn seat_infos(&self) -> Vec<SeatInfo> {
        [Seat::First, Seat::Second]
            .into_iter()
            .map(|seat| {
                let (connected, grace_ms) = self.seat_presence(seat);
                SeatInfo {
                    seat,
                    player: self.seats[idx(seat)].clone(),
                    connected,
                    grace_ms,
                }
            })
            .collect()
    }

    /// A seat's `connected` and `grace_ms`, as shown in [`SeatInfo`].
    pub(super) fn seat_presence(&self, seat: Seat) -> (bool, Option<u64>) {
        let connected = match &self.seats[idx(seat)] {
            Some(p) if p.ai.is_some() => true,
            Some(_) => self.away_since[idx(seat)].is_none(),
            None => false,
        };
        let grace_ms = self.grace_left(seat).map(|d| d.as_millis() as u64);
        (connected, grace_ms)
    }

    /// How long an away player still has to come back to a running game.
    pub(super) fn grace_left(&self, seat: Seat) -> Option<Duration> {
        let since = self.away_since[idx(seat)]?;
        if self.status() != RoomStatus::Playing {
            return None;
        }
        Some(self.shared.config.grace.saturating_sub(since.elapsed()))
    }

    /// How many members only watch.
    pub(super) fn spectator_count(&self) -> u32 {
        self.members.values().filter(|m| m.seat.is_none()).count() as u32
    }

    /// The seat a human player holds here, if any.
    pub(super) fn seat_of_player(&self, player_id: &str) -> Option<Seat> {
        [Seat::First, Seat::Second].into_iter().find(|s| {
            self.seats[idx(*s)]
                .as_ref()
                .is_some_and(|p| p.id == player_id && p.ai.is_none())
        })
    }

    /// A connection joins as a player (taking its seat back, a free seat,
    /// or, by code, a private room's) or as a spectator, and gets the events
    /// it missed since `since` or a snapshot.
    pub(super) async fn join(
        &mut self,
        caller: Caller,
        role: Role,
        since: Option<u64>,
        by_code: bool,
    ) {
        let player_id = caller.identity.id.clone();
        let seated_here = self
            .members
            .get(&caller.conn)
            .is_some_and(|m| m.seat.is_some());
        if role == Role::Spectator && seated_here {
            // Otherwise the seat would lose its connection without being
            // marked away: it would look present for ever.
            self.refuse_caller(
                &caller,
                refuse(
                    ErrorCode::Forbidden,
                    "you have a seat in this room; leave it first to watch",
                ),
            );
            return;
        }
        let mut seat = None;
        if role == Role::Player {
            let free = [Seat::First, Seat::Second]
                .into_iter()
                .find(|s| self.seats[idx(*s)].is_none())
                .filter(|_| self.result.is_none());
            let unrated = !self.options.rated || caller.identity.registered;
            if let Some(own) = self.seat_of_player(&player_id) {
                seat = Some(own);
            } else if free.is_some() && !unrated && !by_code {
                self.refuse_caller(
                    &caller,
                    refuse(
                        ErrorCode::NotRegistered,
                        "this room is rated: only registered players may take a seat; sign in or watch",
                    ),
                );
                return;
            } else if free.is_some() && self.code.is_some() && !by_code {
                // The code is the key to a private room's free seat; its
                // id (known to spectators, say) is not.
                self.refuse_caller(
                    &caller,
                    refuse(
                        ErrorCode::Forbidden,
                        "this room is private: join it with its code",
                    ),
                );
                return;
            } else if let Some(free) = free.filter(|_| unrated) {
                self.seats[idx(free)] = Some(PlayerInfo {
                    id: player_id.clone(),
                    name: caller.identity.name.clone(),
                    ai: None,
                    bot: caller.identity.bot,
                });
                // Saved before the seat is told (as `seat_taken` before the
                // game, numbered ahead): a restart or a takeover keeps it.
                let told = u64::from(!self.game_started);
                if let Err(refusal) = self.save_ahead(told).await {
                    self.seats[idx(free)] = None;
                    self.refuse_caller(&caller, refusal);
                    return;
                }
                seat = Some(free);
            } else if !by_code {
                self.refuse_caller(&caller, refuse(ErrorCode::RoomFull, "both seats are taken"));
                return;
            }
        }
        if let Some(seat) = seat {
            let was_away = self.away_since[idx(seat)].take().is_some();
            let info = self.seats[idx(seat)].clone();
            let fresh = !self.game_started;
            if fresh {
                if let Some(player) = info {
                    self.emit(RoomEvent::SeatTaken { seat, player });
                }
            } else if was_away {
                self.emit(RoomEvent::PlayerConnected { seat });
            }
        }
        // Seats held by this player's other connections stay as they are.
        let prior = self.members.insert(
            caller.conn,
            Member {
                tx: caller.tx.clone(),
                player_id,
                seat,
            },
        );
        self.empty_since = None;
        let role = if seat.is_some() {
            Role::Player
        } else {
            Role::Spectator
        };
        self.answer(
            &caller,
            ServerMessage::Joined {
                room_id: self.id.clone(),
                role,
                seat,
            },
        );
        match since.and_then(|n| self.history.since(n)) {
            Some(missed) => {
                for text in missed {
                    let _ = caller.tx.send_text(text);
                }
            }
            None => {
                let snapshot = self.snapshot(seat);
                self.send_to(
                    &caller.tx,
                    None,
                    ServerMessage::Snapshot {
                        room_id: self.id.clone(),
                        snapshot: Box::new(snapshot),
                    },
                );
            }
        }
        if seat.is_none() && prior.is_none() {
            let count = self.spectator_count();
            self.emit(RoomEvent::Spectators { count });
        }
        self.after_change().await;
    }

    /// A member leaves on purpose.
    pub(super) async fn leave(&mut self, caller: Caller) {
        if self.members.contains_key(&caller.conn) {
            self.member_gone(caller.conn, true);
            self.save_if_deserted().await;
            self.answer(
                &caller,
                ServerMessage::Left {
                    room_id: self.id.clone(),
                },
            );
            self.after_change().await;
        } else {
            self.refuse_caller(
                &caller,
                refuse(ErrorCode::NotInRoom, "you are not in this room"),
            );
        }
    }

    /// A member's connection closed.
    pub(super) async fn on_disconnect(&mut self, conn: ConnId) {
        if self.members.contains_key(&conn) {
            self.member_gone(conn, false);
            // The lobby hears of the drop at once, not after a save that a
            // busy disk may hold up.
            self.publish();
            self.save_if_deserted().await;
        }
    }

    /// When the last member of a running game's room has gone, saves the
    /// whole room: its moves since the last full save then stop holding the
    /// front of the store's action log while the room waits (grace period,
    /// idle time-out). Otherwise every clean-up of the log would have to
    /// copy them, for every deserted game. Called after every command, since
    /// a member also goes when a send to it fails.
    pub(super) async fn save_if_deserted(&mut self) {
        if !std::mem::take(&mut self.deserted_unsaved) {
            return;
        }
        if self.members.is_empty() && self.game_started && self.result.is_none() {
            let _ = self.save().await;
        }
    }

    /// A member left or dropped. A seated player who has no other connection
    /// here is away: the seat is held for the grace period, or, in a room still
    /// waiting for its opponent, freed when the player left on purpose.
    pub(super) fn member_gone(&mut self, conn: ConnId, on_purpose: bool) {
        let Some(member) = self.members.remove(&conn) else {
            return;
        };
        if self.members.is_empty() {
            self.empty_since = Some(Instant::now());
            self.deserted_unsaved = true;
            self.stop_engine();
        }
        let Some(seat) = member.seat else {
            let count = self.spectator_count();
            self.emit(RoomEvent::Spectators { count });
            return;
        };
        let still_here = self
            .members
            .values()
            .any(|m| m.player_id == member.player_id && m.seat == Some(seat));
        if still_here {
            return;
        }
        if !self.game_started && on_purpose {
            self.seats[idx(seat)] = None;
            self.emit(RoomEvent::SeatLeft { seat });
            self.forget_seed(seat);
            return;
        }
        self.away_since[idx(seat)] = Some(Instant::now());
        // A rematch needs both players there: an offer goes with its maker.
        // (Not saved here; after a restart `request_rematch` ignores the
        // offer of a player who is away.)
        for offer in self.take_offers(|o| o.kind == OfferKind::Rematch && o.by == seat) {
            self.emit(RoomEvent::OfferDeclined { offer });
        }
        if self.status() == RoomStatus::Playing {
            let grace_ms = self.shared.config.grace.as_millis() as u64;
            self.emit(RoomEvent::PlayerDisconnected { seat, grace_ms });
        }
    }

    /// Ends the game for `seat` when its opponent stayed away past the grace
    /// period.
    pub(super) async fn claim_win(&mut self, seat: Seat) -> Result<(), Refusal> {
        self.require_running()?;
        let other = seat.other();
        match self.grace_left(other) {
            Some(left) if left.is_zero() => {
                self.finish(GameResult {
                    winner: Some(seat),
                    reason: EndReason::Abandoned,
                    line: Vec::new(),
                    score: None,
                })
                .await?;
                self.after_change().await;
                Ok(())
            }
            Some(left) => Err(refuse(
                ErrorCode::IllegalMove,
                format!(
                    "the opponent has {} s left to come back",
                    left.as_secs() + 1
                ),
            )),
            None => Err(refuse(ErrorCode::IllegalMove, "the opponent is here")),
        }
    }
}
