//! Offers between the players and their answers: draws, takebacks,
//! resignations and rematches.

use std::collections::VecDeque;

use tabula_shared::backgammon::ResignKind;
use tabula_shared::game::{Game, LiveGame};
use tabula_shared::protocol::{
    ActionRecord, BgAction, EndReason, ErrorCode, GameResult, OfferKind, PendingOffer, RoomEvent,
    ServerMessage,
};
use tabula_shared::seat::Seat;
use tabula_shared::seat::side_of;

use super::clock::Clock;
use super::{Refusal, Room, idx, now_ms, refuse};
use crate::outlet::Outlet;

impl Room {
    /// Takes the offers that match out of the room.
    pub(super) fn take_offers(
        &mut self,
        which: impl Fn(&PendingOffer) -> bool,
    ) -> Vec<PendingOffer> {
        let (gone, kept): (Vec<_>, Vec<_>) = self.offers.drain(..).partition(|o| which(o));
        self.offers = kept;
        gone
    }

    /// Withdraws the offers that match: saved, then told as declined. When
    /// the save fails they stay pending, and nothing is told.
    ///
    /// # Errors
    /// `internal` when the store could not save it.
    pub(super) async fn clear_offers(
        &mut self,
        which: impl Fn(&PendingOffer) -> bool,
    ) -> Result<(), Refusal> {
        let before = self.offers.clone();
        let gone = self.take_offers(which);
        if gone.is_empty() {
            return Ok(());
        }
        let events = gone
            .into_iter()
            .map(|offer| RoomEvent::OfferDeclined { offer })
            .collect();
        let saved = self.save_and_emit(events).await;
        if saved.is_err() {
            self.offers = before;
        }
        saved
    }

    /// `seat` resigns: at once in Gomoku; in Backgammon as an offer, which
    /// an AI opponent answers at once.
    pub(super) async fn resign(
        &mut self,
        seat: Seat,
        kind: Option<ResignKind>,
    ) -> Result<(), Refusal> {
        self.require_running()?;
        match self.game.live() {
            LiveGame::Gomoku(_) => {
                self.finish(GameResult {
                    winner: Some(seat.other()),
                    reason: EndReason::Resigned,
                    line: Vec::new(),
                    score: None,
                })
                .await?;
            }
            LiveGame::Backgammon(game) => {
                // By the rules the opponent may refuse a resignation: else a
                // player about to lose a gammon would resign a single game.
                let value = kind.unwrap_or(ResignKind::Single);
                let offer = PendingOffer {
                    kind: OfferKind::Resign,
                    by: seat,
                    value: Some(value),
                };
                if self.ai_seat(seat.other()).is_some() {
                    let accepts = self.ai_accepts_resignation(game, seat.other(), value);
                    if !accepts {
                        // Nothing changes, so nothing is saved.
                        self.emit(RoomEvent::OfferMade { offer });
                        self.emit(RoomEvent::OfferDeclined { offer });
                        return Ok(());
                    }
                    // The offer is told with the resignation, once it is saved.
                    self.accept_resignation(offer, Some(RoomEvent::OfferMade { offer }))
                        .await?;
                } else {
                    // A new resignation replaces the player's earlier one.
                    let before = self.checkpoint();
                    let mut events: Vec<RoomEvent> = self
                        .take_offers(|o| o.kind == OfferKind::Resign && o.by == seat)
                        .into_iter()
                        .map(|offer| RoomEvent::OfferDeclined { offer })
                        .collect();
                    self.offers.push(offer);
                    events.push(RoomEvent::OfferMade { offer });
                    return self.save_or_undo(before, events).await;
                }
            }
        }
        self.after_change().await;
        Ok(())
    }

    /// Ends the Backgammon game as resigned at the offer's value; `preface`
    /// is told just before the resignation, once it is saved.
    pub(super) async fn accept_resignation(
        &mut self,
        offer: PendingOffer,
        preface: Option<RoomEvent>,
    ) -> Result<(), Refusal> {
        let entry = ActionRecord::Backgammon(BgAction::Resign {
            side: side_of(offer.by),
            value: offer.value.unwrap_or(ResignKind::Single),
        });
        self.commit_after(preface, entry, None, None).await?;
        // When this cannot be saved, the game's end (which clears every
        // offer) follows at the room's next retry.
        let _ = self.clear_offers(|_| true).await;
        Ok(())
    }

    /// `seat` offers a draw (Gomoku); an AI opponent declines it.
    pub(super) async fn offer_draw(&mut self, seat: Seat) -> Result<(), Refusal> {
        self.require_running()?;
        if self.game.gomoku().is_none() {
            return Err(refuse(ErrorCode::IllegalMove, "draw offers are for Gomoku"));
        }
        let offer = PendingOffer::new(OfferKind::Draw, seat);
        if self.offers.contains(&offer) {
            return Err(refuse(ErrorCode::IllegalMove, "you already offered a draw"));
        }
        if self.ai_seat(seat.other()).is_some() {
            // The AI plays on; nothing changes, so nothing is saved.
            self.emit(RoomEvent::OfferMade { offer });
            self.emit(RoomEvent::OfferDeclined { offer });
            Ok(())
        } else {
            self.make_offer(offer).await
        }
    }

    /// Adds `offer` to the pending ones: saved, then told.
    async fn make_offer(&mut self, offer: PendingOffer) -> Result<(), Refusal> {
        let before = self.checkpoint();
        self.offers.push(offer);
        self.save_or_undo(before, vec![RoomEvent::OfferMade { offer }])
            .await
    }

    /// The index the record is cut back to when `seat` takes back its last decision.
    pub(super) fn takeback_point(&self, seat: Seat) -> Option<usize> {
        self.game.takeback_point(seat)
    }

    /// `seat` asks to take back its last decision; an AI opponent grants it.
    pub(super) async fn request_takeback(&mut self, seat: Seat) -> Result<(), Refusal> {
        self.require_running()?;
        if !self.options.takebacks {
            return Err(refuse(
                ErrorCode::Forbidden,
                "takebacks are off in this room",
            ));
        }
        if self.takeback_point(seat).is_none() {
            return Err(refuse(ErrorCode::IllegalMove, "nothing to take back"));
        }
        let offer = PendingOffer::new(OfferKind::Takeback, seat);
        if self.ai_seat(seat.other()).is_some() {
            // The request is told with the takeback, once it is saved.
            self.take_back(seat, Some(RoomEvent::OfferMade { offer }))
                .await
        } else {
            if self.offers.contains(&offer) {
                return Err(refuse(ErrorCode::IllegalMove, "you already asked"));
            }
            self.make_offer(offer).await
        }
    }

    /// Cuts the record back to before `seat`'s last decision: saved, then
    /// told (after `preface`, when given); undone when the save fails.
    pub(super) async fn take_back(
        &mut self,
        seat: Seat,
        preface: Option<RoomEvent>,
    ) -> Result<(), Refusal> {
        let Some(cut) = self.takeback_point(seat) else {
            return Err(refuse(ErrorCode::IllegalMove, "nothing to take back"));
        };
        let before = self.game.len();
        let checkpoint = self.checkpoint();
        let taken_back = self
            .game
            .truncate(cut)
            .map_err(|e| refuse(ErrorCode::Internal, e.to_string()))?;
        // The dice already rolled stay rolled: a takeback replays a decision,
        // it does not roll again (against the AI it would otherwise re-roll
        // both sides' dice at will). They are dealt again, in order (from a
        // match's stream they come again by themselves).
        let mut redeal: VecDeque<[u8; 2]> = taken_back
            .iter()
            .filter(|_| self.dice.seed.is_none())
            .filter_map(|action| match action {
                ActionRecord::Backgammon(BgAction::Roll { dice, .. }) => Some(*dice),
                _ => None,
            })
            .collect();
        redeal.append(&mut self.dice.redeal);
        self.dice.redeal = redeal;
        // The offers still pending were about the position taken back:
        // each ends, and is told as ended, before the takeback.
        let ended: Vec<RoomEvent> = self
            .take_offers(|_| true)
            .into_iter()
            .map(|offer| RoomEvent::OfferDeclined { offer })
            .collect();
        let count = (before - cut) as u32;
        let turn = Some(Box::new(self.turn()));
        // The time so far is charged to whoever was to act; from now it
        // runs for whoever acts after the takeback, and the event says so.
        let next = self.to_act();
        if let Some(clock) = &mut self.clock {
            clock.stop(false);
            clock.start(next);
        }
        let clock = self.clock.as_ref().map(Clock::view);
        let events = preface
            .into_iter()
            .chain(ended)
            .chain([RoomEvent::TookBack { count, turn, clock }])
            .collect();
        self.save_or_undo(checkpoint, events).await?;
        self.forget_ai_thought();
        self.after_change().await;
        Ok(())
    }

    /// `seat` accepts or declines the opponent's offer of `kind`.
    pub(super) async fn answer_offer(
        &mut self,
        seat: Seat,
        kind: OfferKind,
        accept: bool,
    ) -> Result<(), Refusal> {
        let Some(pos) = self
            .offers
            .iter()
            .position(|o| o.kind == kind && o.by == seat.other())
        else {
            return Err(refuse(
                ErrorCode::IllegalMove,
                "there is no such offer to answer",
            ));
        };
        let before = self.checkpoint();
        let offer = self.offers.remove(pos);
        let answered = self.answer_removed(offer, accept).await;
        if answered.is_err() {
            // Nothing was told: the offer is pending again.
            self.roll_back(before);
        }
        answered
    }

    /// Answers `offer`, already taken from the pending ones. Fails only
    /// before anything is told.
    async fn answer_removed(&mut self, offer: PendingOffer, accept: bool) -> Result<(), Refusal> {
        if !accept {
            return self
                .seq_save_and_emit(RoomEvent::OfferDeclined { offer })
                .await;
        }
        match offer.kind {
            OfferKind::Draw => {
                self.require_running()?;
                self.finish(GameResult {
                    winner: None,
                    reason: EndReason::DrawAgreed,
                    line: Vec::new(),
                    score: None,
                })
                .await?;
                self.after_change().await;
                Ok(())
            }
            OfferKind::Takeback => {
                self.require_running()?;
                self.take_back(offer.by, None).await
            }
            OfferKind::Rematch => self.start_rematch().await,
            OfferKind::Resign => {
                self.require_running()?;
                self.accept_resignation(offer, None).await?;
                self.after_change().await;
                Ok(())
            }
        }
    }

    /// `seat` wants a rematch: it starts when the opponent wants one too.
    pub(super) async fn request_rematch(&mut self, seat: Seat) -> Result<(), Refusal> {
        if self.result.is_none() {
            return Err(refuse(ErrorCode::IllegalMove, "the game is not over"));
        }
        let other = seat.other();
        let other_wants = self.ai_seat(other).is_some()
            || self.away_since[idx(other)].is_none()
                && self
                    .offers
                    .iter()
                    .any(|o| o.kind == OfferKind::Rematch && o.by == other);
        if other_wants {
            self.start_rematch().await
        } else {
            let offer = PendingOffer::new(OfferKind::Rematch, seat);
            if self.offers.contains(&offer) {
                return Ok(());
            }
            self.make_offer(offer).await
        }
    }

    /// A new game in the same room, with the seats swapped.
    /// Saved, then told; undone when the save fails.
    pub(super) async fn start_rematch(&mut self) -> Result<(), Refusal> {
        let before = self.checkpoint();
        self.seats.swap(0, 1);
        self.away_since.swap(0, 1);
        for member in self.members.values_mut() {
            member.seat = member.seat.map(Seat::other);
        }
        self.game = match Game::new(&self.options.game) {
            Ok(game) => game,
            Err(e) => {
                self.roll_back(before);
                return Err(refuse(ErrorCode::Internal, e.to_string()));
            }
        };
        self.new_match_dice();
        self.start_seed_wait();
        self.result = None;
        self.offers.clear();
        self.game_no = 1;
        self.started_at = now_ms();
        if let (Some(clock), Some(tc)) = (&mut self.clock, self.options.time_control) {
            clock.remaining_ms = [u64::from(tc.initial_secs) * 1000; 2];
            clock.running = None;
        }
        self.save_or_undo(before, vec![RoomEvent::RematchStarted])
            .await?;
        let members: Vec<(Outlet, Option<Seat>)> = self
            .members
            .values()
            .map(|m| (m.tx.clone(), m.seat))
            .collect();
        for (tx, seat) in members {
            let snapshot = self.snapshot(seat);
            self.send_to(
                &tx,
                None,
                ServerMessage::Snapshot {
                    room_id: self.id.clone(),
                    snapshot: Box::new(snapshot),
                },
            );
        }
        self.after_change().await;
        Ok(())
    }
}
