//! What a room tells: answers to one caller, numbered events to every
//! member (kept for clients that resume), and its summary to the lobby.

use tabula_shared::protocol::{RoomEvent, RoomSnapshot, RoomSummary, ServerFrame, ServerMessage};
use tabula_shared::seat::Seat;
use tokio_tungstenite::tungstenite::Utf8Bytes;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use super::clock::Clock;
use super::{Refusal, Room};
use crate::handle::{Caller, ConnId};
use crate::outlet::{Outlet, SendError};

/// The connection a request came from and its `request_id`, for an answer
/// that is also an event.
pub(super) type Reply = (ConnId, u64);

/// A pushed frame's text as the answer to request `id`: the same frame with
/// `request_id` first, exactly as [`ServerFrame::encode`] writes it.
fn with_request_id(pushed: &str, id: u64) -> String {
    let body = pushed.strip_prefix('{').unwrap_or(pushed);
    format!("{{\"request_id\":{id},{body}")
}

impl Room {
    /// What the lobby shows of this room.
    pub(super) fn summary(&self) -> RoomSummary {
        RoomSummary {
            room_id: self.id.clone(),
            options: self.options.clone(),
            seats: self.seat_infos(),
            status: self.status(),
            spectators: self.spectator_count(),
        }
    }

    /// The whole room for a member that joins or resyncs, sitting in
    /// `seat` (`None`: a spectator); players also get the private code.
    pub(super) fn snapshot(&self, seat: Option<Seat>) -> RoomSnapshot {
        RoomSnapshot {
            summary: self.summary(),
            seq: self.history.last(),
            record: self.game.record().clone(),
            result: self.result.clone(),
            clock: self.clock.as_ref().map(Clock::view),
            offers: self.offers.clone(),
            spectators_muted: self.muted,
            chat: self.chat.iter().cloned().collect(),
            code: seat.and(self.code.clone()),
            turn: self.turn(),
            your_seat: seat,
        }
    }

    /// Sends one frame to one connection.
    pub(super) fn send_to(&self, tx: &Outlet, request_id: Option<u64>, message: ServerMessage) {
        let frame = ServerFrame {
            request_id,
            message,
        };
        let _ = tx.send_text(&frame.encode());
    }

    /// Answers the caller's request.
    pub(super) fn answer(&self, caller: &Caller, message: ServerMessage) {
        self.send_to(&caller.tx, caller.request_id, message);
    }

    /// Answers the caller's request with an error.
    pub(super) fn refuse_caller(&self, caller: &Caller, (code, why): Refusal) {
        self.answer(caller, ServerMessage::error(code, why));
    }

    /// Numbers an event, logs it, and sends it to every member.
    pub(super) fn emit(&mut self, event: RoomEvent) {
        let frame = ServerFrame::push(ServerMessage::Event {
            room_id: self.id.clone(),
            seq: self.history.next(),
            event,
        });
        self.send_numbered(frame.encode().into(), None);
    }

    /// Logs and sends the encoded event numbered `seq + 1`; the `reply`
    /// connection's copy carries its request's id: the event is the answer
    /// to that request.
    pub(super) fn send_numbered(&mut self, text: Utf8Bytes, reply: Option<Reply>) {
        // An event numbered ahead of time (a saved action) must get the
        // number it carries: two events with one number would be one too
        // many for a client that drops numbers it has seen.
        debug_assert!(
            text.contains(&format!("\"seq\":{},\"event\"", self.history.next())),
            "event numbered {} sent as {text}",
            self.history.next()
        );
        self.history.record(text.clone());
        // Players first: with many spectators, the opponent is not kept
        // waiting behind them.
        let mut slow = Vec::new();
        for seated in [true, false] {
            for (conn, member) in &self.members {
                if member.seat.is_some() != seated {
                    continue;
                }
                let sent = match reply {
                    Some((to, request_id)) if to == *conn => {
                        member.tx.send_text(&with_request_id(&text, request_id))
                    }
                    _ => member.tx.send_text(&text),
                };
                if let Err(e) = sent {
                    slow.push((*conn, e));
                }
            }
        }
        for (conn, error) in slow {
            // A member that cannot keep up is dropped; it resumes with
            // `since`. Either way it is gone from the room now, as on a
            // disconnect (its connection's notice finds nothing to do).
            if let (SendError::Full, Some(member)) = (error, self.members.get(&conn)) {
                member
                    .tx
                    .close(CloseCode::Again, "too slow to keep up; reconnect");
            }
            self.member_gone(conn, false);
        }
    }

    /// Tells the lobby when this room's summary changed. Runs after every
    /// change, moves included, so the usual case (nothing the lobby shows
    /// changed) is checked field by field, without building a summary.
    pub(super) fn publish(&mut self) {
        if let Some(published) = &self.published {
            let same = self.shows_as(published);
            // Tests (debug builds) check the shortcut against the whole
            // summary; not while a grace period counts down between the two.
            debug_assert!(
                self.away_since.iter().any(Option::is_some)
                    || same == (self.summary() == *published),
                "shows_as disagrees with summary()"
            );
            if same {
                return;
            }
        }
        let summary = self.summary();
        self.shared.lobby.update_summary(summary.clone());
        self.published = Some(summary);
    }

    /// Whether [`Room::summary`] would equal `summary` now.
    pub(super) fn shows_as(&self, summary: &RoomSummary) -> bool {
        summary.status == self.status()
            && summary.spectators == self.spectator_count()
            && summary.options == self.options
            && summary.room_id == self.id
            && summary.seats.len() == 2
            && summary.seats.iter().enumerate().all(|(i, info)| {
                let seat = [Seat::First, Seat::Second][i];
                info.seat == seat
                    && info.player == self.seats[i]
                    && (info.connected, info.grace_ms) == self.seat_presence(seat)
            })
    }

    /// Answers `ok`, when the caller asked with a `request_id`.
    pub(super) fn ok(&self, caller: &Caller) {
        if caller.request_id.is_some() {
            self.answer(caller, ServerMessage::Ok);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answering_event_is_the_event_as_encoded_with_its_request_id() {
        let message = ServerMessage::Event {
            room_id: "r-1".into(),
            seq: 7,
            event: RoomEvent::SpectatorsMuted { muted: true },
        };
        let pushed = ServerFrame::push(message.clone()).encode();
        let answer = ServerFrame {
            request_id: Some(42),
            message,
        }
        .encode();
        assert_eq!(with_request_id(&pushed, 42).as_str(), answer);
    }
}
