//! A client's request to a room, sent on to what handles it.

use tabula_shared::game::LiveGame;
use tabula_shared::protocol::{ClientMessage, ErrorCode, Expect, Role, RoomEvent, ServerMessage};
use tabula_shared::seat::Seat;

use super::broadcast::Reply;
use super::{Refusal, Room, refuse};
use crate::handle::Caller;

impl Room {
    /// Handles one client request: membership and chat here, game requests
    /// from seated players in [`Room::player_request`].
    pub(super) async fn on_request(&mut self, caller: Caller, message: ClientMessage) {
        let member_seat = self.members.get(&caller.conn).map(|m| m.seat);
        match message {
            ClientMessage::JoinRoom { role, since, .. } => {
                self.join(caller, role, since, false).await;
            }
            ClientMessage::JoinByCode { .. } => {
                self.join(caller, Role::Player, None, true).await;
            }
            ClientMessage::LeaveRoom { .. } => self.leave(caller).await,
            _ if member_seat.is_none() => {
                self.refuse_caller(&caller, refuse(ErrorCode::NotInRoom, "join the room first"))
            }
            ClientMessage::LegalPlays { .. } => match self.legal_plays() {
                Ok(plays) => self.answer(
                    &caller,
                    ServerMessage::LegalPlays {
                        room_id: self.id.clone(),
                        plays,
                    },
                ),
                Err(refusal) => self.refuse_caller(&caller, refusal),
            },
            ClientMessage::Hint { .. } => match self.hint_for(&caller, member_seat.flatten()) {
                Ok(seat) => self.send_hints(caller, seat),
                Err(refusal) => self.refuse_caller(&caller, refusal),
            },
            ClientMessage::Sync { .. } => {
                let snapshot = self.snapshot(member_seat.flatten());
                self.answer(
                    &caller,
                    ServerMessage::Snapshot {
                        room_id: self.id.clone(),
                        snapshot: Box::new(snapshot),
                    },
                );
            }
            ClientMessage::Chat { text, .. } => {
                let spectator = member_seat.flatten().is_none();
                match self.chat(&caller, spectator, &text).await {
                    Ok(()) => self.ok(&caller),
                    Err(refusal) => self.refuse_caller(&caller, refusal),
                }
            }
            other => {
                let Some(seat) = member_seat.flatten() else {
                    self.refuse_caller(
                        &caller,
                        refuse(ErrorCode::Forbidden, "spectators cannot act in a game"),
                    );
                    return;
                };
                // An accepted action is answered by its event, which carries
                // the request_id; there is no separate `ok`.
                let answered_by_event = matches!(other, ClientMessage::Act { .. });
                let reply = caller.request_id.map(|id| (caller.conn, id));
                match self.player_request(seat, other, reply).await {
                    Ok(()) if answered_by_event => {}
                    Ok(()) => self.ok(&caller),
                    Err(refusal) => self.refuse_caller(&caller, refusal),
                }
            }
        }
    }

    /// The seat a hint is for, or why there is none: hints go to a seated
    /// player on their turn, in a room that allows them, within the
    /// player's hints per minute.
    fn hint_for(&self, caller: &Caller, seat: Option<Seat>) -> Result<Seat, Refusal> {
        if !self.options.allows_hints() {
            let why = if self.options.rated {
                "no hints in a rated game"
            } else {
                "the room's creator did not allow hints"
            };
            return Err(refuse(ErrorCode::HintsOff, why));
        }
        let Some(seat) = seat else {
            return Err(refuse(
                ErrorCode::HintsOff,
                "hints are for the players, not for spectators",
            ));
        };
        if self.to_act() != Some(seat) {
            return Err(refuse(ErrorCode::HintsOff, "hints are for your turn"));
        }
        if let Err(wait) = self.shared.analyses.count_hint(&caller.identity.id) {
            return Err(refuse(
                ErrorCode::RateLimited,
                format!("too many hints; the next in {} s", wait.as_secs().max(1)),
            ));
        }
        Ok(seat)
    }

    /// Works the hints out off the room's task and answers the caller with
    /// them (the position cannot change meanwhile: it is the caller's turn).
    fn send_hints(&self, caller: Caller, seat: Seat) {
        let (shared, game, room_id) = (
            self.shared.clone(),
            self.game.live().clone(),
            self.id.clone(),
        );
        tokio::spawn(async move {
            let hints = shared.analyses.hints(game, seat).await;
            let frame = tabula_shared::protocol::ServerFrame {
                request_id: caller.request_id,
                message: ServerMessage::Hints { room_id, hints },
            };
            let _ = caller.tx.send_text(&frame.encode());
        });
    }

    /// The legal plays of the roll waiting to be played, in canonical
    /// notation.
    fn legal_plays(&self) -> Result<Vec<String>, Refusal> {
        match self.game.live() {
            LiveGame::Backgammon(game) if self.turn().expect == Expect::Play => {
                let mut plays: Vec<String> =
                    game.legal_plays().iter().map(ToString::to_string).collect();
                plays.sort();
                plays.dedup();
                Ok(plays)
            }
            LiveGame::Backgammon(_) => Err(refuse(
                ErrorCode::IllegalMove,
                "no roll is waiting to be played",
            )),
            LiveGame::Gomoku(_) => Err(refuse(
                ErrorCode::BadRequest,
                "legal_plays is for Backgammon: in Gomoku every empty point is legal (renju marks aside)",
            )),
        }
    }

    /// A seated player's request about the game.
    pub(super) async fn player_request(
        &mut self,
        seat: Seat,
        message: ClientMessage,
        reply: Option<Reply>,
    ) -> Result<(), Refusal> {
        match message {
            ClientMessage::Act { action, .. } => self.act(seat, action, reply).await,
            ClientMessage::Resign { kind, .. } => self.resign(seat, kind).await,
            ClientMessage::OfferDraw { .. } => self.offer_draw(seat).await,
            ClientMessage::RequestTakeback { .. } => self.request_takeback(seat).await,
            ClientMessage::Answer {
                request, accept, ..
            } => self.answer_offer(seat, request, accept).await,
            ClientMessage::Rematch { .. } => self.request_rematch(seat).await,
            ClientMessage::ClaimWin { .. } => self.claim_win(seat).await,
            ClientMessage::DiceSeed { seed, .. } => self.dice_seed(seat, seed).await,
            ClientMessage::MuteSpectators { muted, .. } => {
                if self.muted == muted {
                    return Ok(());
                }
                self.muted = muted;
                let saved = self
                    .seq_save_and_emit(RoomEvent::SpectatorsMuted { muted })
                    .await;
                if saved.is_err() {
                    self.muted = !muted;
                }
                saved
            }
            _ => Err(refuse(ErrorCode::BadRequest, "not a room request")),
        }
    }
}
