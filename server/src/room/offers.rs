//! Offers between the players and their answers: draws, takebacks,
//! resignations and rematches.

use std::collections::VecDeque;

use tabula_shared::backgammon::ResignKind;
use tabula_shared::game::LiveGame;
use tabula_shared::protocol::{
    ActionRecord, BgAction, EndReason, ErrorCode, GameRecord, GameResult, OfferKind, PendingOffer,
    RoomEvent, ServerMessage,
};
use tabula_shared::seat::Seat;
use tabula_shared::seat::side_of;

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

    /// Withdraws the offers that match: saved, then told as declined.
    pub(super) async fn clear_offers(&mut self, which: impl Fn(&PendingOffer) -> bool) {
        let gone = self.take_offers(which);
        if gone.is_empty() {
            return;
        }
        self.save_ahead(gone.len() as u64).await;
        for offer in gone {
            self.emit(RoomEvent::OfferDeclined { offer });
        }
    }

    /// `seat` resigns: at once in Gomoku; in Backgammon as an offer, which
    /// an AI opponent answers at once.
    pub(super) async fn resign(
        &mut self,
        seat: Seat,
        kind: Option<ResignKind>,
    ) -> Result<(), Refusal> {
        self.require_running()?;
        match &self.live {
            LiveGame::Gomoku(_) => {
                self.finish(GameResult {
                    winner: Some(seat.other()),
                    reason: EndReason::Resigned,
                    line: Vec::new(),
                    score: None,
                })
                .await;
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
                    self.emit(RoomEvent::OfferMade { offer });
                    if !accepts {
                        self.emit(RoomEvent::OfferDeclined { offer });
                        return Ok(());
                    }
                    if let Err(refusal) = self.accept_resignation(offer).await {
                        // Not saved: the game goes on, and the offer is over.
                        self.emit(RoomEvent::OfferDeclined { offer });
                        return Err(refusal);
                    }
                } else {
                    // A new resignation replaces the player's earlier one.
                    self.clear_offers(|o| o.kind == OfferKind::Resign && o.by == seat)
                        .await;
                    self.offers.push(offer);
                    self.seq_save_and_emit(RoomEvent::OfferMade { offer }).await;
                    return Ok(());
                }
            }
        }
        self.after_change().await;
        Ok(())
    }

    /// Ends the Backgammon game as resigned at the offer's value.
    pub(super) async fn accept_resignation(&mut self, offer: PendingOffer) -> Result<(), Refusal> {
        let entry = ActionRecord::Backgammon(BgAction::Resign {
            side: side_of(offer.by),
            value: offer.value.unwrap_or(ResignKind::Single),
        });
        self.commit(entry, None, None).await?;
        self.clear_offers(|_| true).await;
        Ok(())
    }

    /// `seat` offers a draw (Gomoku); an AI opponent declines it.
    pub(super) async fn offer_draw(&mut self, seat: Seat) -> Result<(), Refusal> {
        self.require_running()?;
        if !matches!(self.live, LiveGame::Gomoku(_)) {
            return Err(refuse(ErrorCode::IllegalMove, "draw offers are for Gomoku"));
        }
        let offer = PendingOffer::new(OfferKind::Draw, seat);
        if self.offers.contains(&offer) {
            return Err(refuse(ErrorCode::IllegalMove, "you already offered a draw"));
        }
        if self.ai_seat(seat.other()).is_some() {
            // The AI plays on.
            self.emit(RoomEvent::OfferMade { offer });
            self.emit(RoomEvent::OfferDeclined { offer });
        } else {
            self.offers.push(offer);
            self.seq_save_and_emit(RoomEvent::OfferMade { offer }).await;
        }
        Ok(())
    }

    /// The index the record is cut back to when `seat` takes back its last decision.
    pub(super) fn takeback_point(&self, seat: Seat) -> Option<usize> {
        self.record.takeback_point(seat)
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
            self.emit(RoomEvent::OfferMade { offer });
            self.take_back(seat).await
        } else {
            if self.offers.contains(&offer) {
                return Err(refuse(ErrorCode::IllegalMove, "you already asked"));
            }
            self.offers.push(offer);
            self.seq_save_and_emit(RoomEvent::OfferMade { offer }).await;
            Ok(())
        }
    }

    /// Cuts the record back to before `seat`'s last decision.
    pub(super) async fn take_back(&mut self, seat: Seat) -> Result<(), Refusal> {
        let Some(cut) = self.takeback_point(seat) else {
            return Err(refuse(ErrorCode::IllegalMove, "nothing to take back"));
        };
        let before = self.record.len();
        let mut record = self.record.clone();
        // The dice already rolled stay rolled: a takeback replays a decision,
        // it does not roll again (against the AI it would otherwise re-roll
        // both sides' dice at will). They are dealt again, in order.
        let mut redeal = VecDeque::new();
        match &mut record {
            GameRecord::Gomoku { actions, .. } => actions.truncate(cut),
            GameRecord::Backgammon { actions, .. } => {
                for action in actions.drain(cut..) {
                    // From a match's stream they come again by themselves.
                    if let BgAction::Roll { dice, .. } = action
                        && self.dice_seed.is_none()
                    {
                        redeal.push_back(dice);
                    }
                }
            }
        }
        let live = record
            .replay()
            .map_err(|e| refuse(ErrorCode::Internal, e.to_string()))?;
        redeal.append(&mut self.redeal);
        self.redeal = redeal;
        self.record = record;
        self.live = live;
        self.forget_ai_thought();
        self.offers.clear();
        let count = (before - cut) as u32;
        self.seq_save_and_emit(RoomEvent::TookBack { count }).await;
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
        let offer = self.offers.remove(pos);
        if !accept {
            self.seq_save_and_emit(RoomEvent::OfferDeclined { offer })
                .await;
            return Ok(());
        }
        match kind {
            OfferKind::Draw => {
                self.require_running()?;
                self.finish(GameResult {
                    winner: None,
                    reason: EndReason::DrawAgreed,
                    line: Vec::new(),
                    score: None,
                })
                .await;
                self.after_change().await;
                Ok(())
            }
            OfferKind::Takeback => {
                self.require_running()?;
                self.take_back(offer.by).await
            }
            OfferKind::Rematch => self.start_rematch().await,
            OfferKind::Resign => {
                self.require_running()?;
                self.accept_resignation(offer).await?;
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
            if !self.offers.contains(&offer) {
                self.offers.push(offer);
                self.seq_save_and_emit(RoomEvent::OfferMade { offer }).await;
            }
            Ok(())
        }
    }

    /// A new game in the same room, with the seats swapped.
    pub(super) async fn start_rematch(&mut self) -> Result<(), Refusal> {
        self.seats.swap(0, 1);
        self.away_since.swap(0, 1);
        for member in self.members.values_mut() {
            member.seat = member.seat.map(Seat::other);
        }
        self.record = GameRecord::new(&self.options.game);
        self.new_match_dice();
        self.start_seed_wait();
        self.live = self
            .record
            .replay()
            .map_err(|e| refuse(ErrorCode::Internal, e.to_string()))?;
        self.result = None;
        self.offers.clear();
        self.game_no = 1;
        self.started_at = now_ms();
        if let (Some(clock), Some(tc)) = (&mut self.clock, self.options.time_control) {
            clock.remaining_ms = [u64::from(tc.initial_secs) * 1000; 2];
            clock.running = None;
        }
        self.seq_save_and_emit(RoomEvent::RematchStarted).await;
        let members: Vec<(Outlet, bool)> = self
            .members
            .values()
            .map(|m| (m.tx.clone(), m.seat.is_some()))
            .collect();
        for (tx, player) in members {
            let snapshot = self.snapshot(player);
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
