//! Moves: checking an action with the rules, saving and telling it, the
//! automatic steps after it, and the end of a game.

use tabula_shared::game::{Next, ReplayError};
use tabula_shared::protocol::{
    ActionRecord, BgAction, ErrorCode, Expect, GameOptions, GameResult, OfferKind, PlayerAction,
    RoomEvent, ServerFrame, Turn,
};
use tabula_shared::seat::Seat;
use tabula_shared::seat::seat_of;
use tabula_shared::seat::side_of;

use super::broadcast::Reply;
use super::clock::Clock;
use super::{Refusal, Room, now_ms, refuse};
use crate::store::{AppendedAction, FinishedGame};

impl Room {
    /// Refuses unless a game is running.
    pub(super) fn require_running(&self) -> Result<(), Refusal> {
        if self.result.is_some() {
            return Err(refuse(ErrorCode::IllegalMove, "the game is over"));
        }
        if !self.started() {
            return Err(refuse(ErrorCode::IllegalMove, "the game has not started"));
        }
        Ok(())
    }

    /// Turns a request into a record entry, checks it with the rules, saves,
    /// and broadcasts it; `reply`'s connection gets the event as its answer.
    pub(super) async fn act(
        &mut self,
        seat: Seat,
        action: PlayerAction,
        reply: Option<Reply>,
    ) -> Result<(), Refusal> {
        self.require_running()?;
        if self.to_act() != Some(seat) {
            return Err(refuse(ErrorCode::NotYourTurn, "it is not your turn"));
        }
        // The move may have been queued behind the clock's deadline.
        if self.out_of_time().is_some() {
            self.on_deadline().await;
            return Err(refuse(ErrorCode::IllegalMove, "your time ran out"));
        }
        // The rules only say no to a double; the player is told why.
        if action == PlayerAction::Double
            && let Some(why) = self
                .game
                .backgammon()
                .and_then(|game| game.cube_refusal(side_of(seat)))
        {
            return Err(refuse(ErrorCode::IllegalMove, why));
        }
        let dice = (action == PlayerAction::Roll).then(|| self.next_roll());
        let entry = self
            .game
            .action_for(seat, action, || dice.unwrap_or([1, 1]))
            .map_err(|_| refuse(ErrorCode::IllegalMove, "that action is for the other game"))?;
        self.commit(entry, Some(seat), reply).await?;
        // A move answers pending draw and takeback offers with "no". When
        // that cannot be saved, they stay pending, as the store has them.
        let _ = self.clear_offers(|o| o.kind != OfferKind::Rematch).await;
        self.after_change().await;
        Ok(())
    }

    /// Applies one record entry through the rules, then saves and broadcasts it.
    pub(super) async fn commit(
        &mut self,
        entry: ActionRecord,
        mover: Option<Seat>,
        reply: Option<Reply>,
    ) -> Result<(), Refusal> {
        self.commit_after(None, entry, mover, reply).await
    }

    /// [`Room::commit`], with `preface` (when given) told just before the
    /// action and numbered before it, and only once the action is saved:
    /// an offer that an AI answers at once with the action.
    pub(super) async fn commit_after(
        &mut self,
        preface: Option<RoomEvent>,
        entry: ActionRecord,
        mover: Option<Seat>,
        reply: Option<Reply>,
    ) -> Result<(), Refusal> {
        self.game
            .apply(entry.clone())
            .map_err(|e| refuse(ErrorCode::IllegalMove, rule_error_text(&e)))?;
        // Charge the mover, then start the clock of whoever acts next, so the
        // event carries the running clock.
        let clock_before = self.clock.clone();
        let next = self.to_act();
        if let Some(clock) = &mut self.clock {
            clock.stop(mover.is_some());
            clock.start(next);
        }
        let clock = self.clock.as_ref().map(Clock::view);
        // Saved (as one small row) before it is broadcast. The event is put
        // together from the same JSON, not serialised a second time.
        let seq = self.history.next() + u64::from(preface.is_some());
        let turn = self.turn();
        let passed = self.passed(&entry, &turn);
        let action = serde_json::to_string(&entry).unwrap_or_default();
        let clock_json = serde_json::to_string(&clock).unwrap_or_default();
        let turn_json = serde_json::to_string(&turn).unwrap_or_default();
        let event = ServerFrame::action_event(
            &self.id,
            seq,
            &action,
            clock.map(|_| clock_json.as_str()),
            &turn_json,
        );
        let appended = AppendedAction {
            room_id: self.id.clone(),
            index: (self.game.len() - 1) as u64,
            action,
            // Numbered as the last event it causes (a pass follows its roll).
            seq: seq + u64::from(passed.is_some()),
            clock: clock_json,
        };
        let saved = self.shared.store.append_action(appended).await;
        if let Err(refusal) = self.saved_or_not(saved, "saving an action") {
            // Not told to anyone, so not played: a move that a restart would
            // lose must not be shown.
            self.undo_unsaved(&entry, clock_before);
            return Err(refusal);
        }
        if let Some(preface) = preface {
            self.emit(preface);
        }
        self.send_numbered(event.into(), reply);
        if let Some(passed) = passed {
            self.emit(passed);
        }
        // Whatever the AI was thinking about is out of date now (a human's
        // resignation may even have started the match's next game).
        self.forget_ai_thought();
        Ok(())
    }

    /// The `passed` event owed after `entry` when it was a Backgammon roll
    /// with no legal play (the turn, `turn`, went to the other seat).
    fn passed(&self, entry: &ActionRecord, turn: &Turn) -> Option<RoomEvent> {
        let ActionRecord::Backgammon(BgAction::Roll { side, dice }) = entry else {
            return None;
        };
        let seat = seat_of(*side);
        (turn.seat != Some(seat) || turn.expect != Expect::Play).then(|| RoomEvent::Passed {
            seat,
            dice: *dice,
            turn: Box::new(turn.clone()),
        })
    }

    /// Takes back the last entry of the record, which [`Room::commit`]
    /// applied but could not save: the game, the clock and the dice are as
    /// they were before it.
    pub(super) fn undo_unsaved(&mut self, entry: &ActionRecord, clock_before: Option<Clock>) {
        if let Err(e) = self.game.truncate(self.game.len().saturating_sub(1)) {
            tracing::error!(room = %self.id, error = %rule_error_text(&e), "replaying a record failed");
        }
        self.clock = clock_before;
        // A roll that did not happen is dealt again by the next one (from
        // the stream, the record being back where it was, it is anyway).
        if let ActionRecord::Backgammon(BgAction::Roll { dice, .. }) = entry
            && self.dice.seed.is_none()
        {
            self.dice.redeal.push_front(*dice);
        }
    }

    /// Runs the automatic steps (opening rolls, the next game of a match,
    /// game end), restarts the clock, asks the AI when it is its turn, and
    /// tells the lobby.
    pub(super) async fn after_change(&mut self) {
        if !self.game_started
            && self.seats.iter().all(Option::is_some)
            && self.result.is_none()
            && self.away_since.iter().all(Option::is_none)
        {
            let before = self.checkpoint();
            self.game_started = true;
            self.start_seed_wait();
            let record = self.game.record().clone();
            let clock = self.clock.as_ref().map(Clock::view);
            let turn = Some(Box::new(self.turn()));
            // The full state is saved now; moves are appended to it. When
            // that fails, the game starts at the room's next retry.
            let _ = self
                .save_or_undo(
                    before,
                    vec![RoomEvent::GameStarted {
                        record,
                        clock,
                        turn,
                    }],
                )
                .await;
        }
        if self.game_started {
            for _ in 0..64 {
                if !self.automatic_step().await {
                    break;
                }
            }
        }
        let running = self.result.is_none() && self.started();
        let next = self.to_act();
        if let Some(clock) = &mut self.clock {
            if running {
                if clock.running != next {
                    clock.stop(false);
                    clock.start(next);
                }
            } else {
                clock.stop(false);
            }
        }
        self.maybe_ask_ai();
        self.publish();
    }

    /// One automatic step; true when something happened.
    pub(super) async fn automatic_step(&mut self) -> bool {
        if self.result.is_some() {
            return false;
        }
        let end = match self.game.next() {
            Next::Seat(_) => None,
            Next::OpeningRoll => {
                if self.waiting_for_seeds() {
                    return false;
                }
                let [white, black] = self.opening_roll();
                let entry = ActionRecord::Backgammon(BgAction::OpeningRoll { white, black });
                return self.commit(entry, None, None).await.is_ok();
            }
            Next::NextGame => {
                let entry = ActionRecord::Backgammon(BgAction::NextGame);
                self.game_no += 1;
                // Rolls a takeback cut belong to the game just over.
                self.dice.redeal.clear();
                let done = self.commit(entry, None, None).await.is_ok();
                if !done {
                    self.game_no -= 1;
                }
                return done;
            }
            Next::Over => self.game.outcome(),
        };
        match end {
            Some(result) => self.finish(result).await.is_ok(),
            None => false,
        }
    }

    /// Ends the game: stops the clock, keeps the finished game forever, and
    /// tells everyone. When the store cannot keep it, the game is as it was
    /// and nothing is told.
    ///
    /// # Errors
    /// `internal` when the store could not save the finished game.
    pub(super) async fn finish(&mut self, result: GameResult) -> Result<(), Refusal> {
        let before = self.checkpoint();
        if let Some(clock) = &mut self.clock {
            clock.stop(false);
        }
        self.result = Some(result.clone());
        self.dice.redeal.clear();
        self.offers.clear();
        // The dice are revealed with the finished game, however it ended.
        let dice = self.reveal_dice();
        let players = serde_json::to_string(&self.seat_infos()).unwrap_or_default();
        let humans = self
            .seats
            .clone()
            .map(|p| p.filter(|p| p.ai.is_none()).map(|p| p.id));
        let game_id = format!("g-{}", uuid::Uuid::new_v4().simple());
        // The room is saved with the game, numbered as its game-over event.
        let room_state = self.state_ahead(1);
        let game = FinishedGame {
            id: game_id.clone(),
            room_id: self.id.clone(),
            kind: match self.options.game {
                GameOptions::Gomoku(_) => "gomoku".into(),
                GameOptions::Backgammon(_) => "backgammon".into(),
            },
            options: serde_json::to_string(&self.options).unwrap_or_default(),
            players,
            record: serde_json::to_string(self.game.record()).unwrap_or_default(),
            result: serde_json::to_string(&result).unwrap_or_default(),
            started_at: self.started_at,
            ended_at: now_ms(),
            rated: self.options.rated,
            bots: self
                .seats
                .clone()
                .map(|p| p.is_some_and(|p| p.bot && p.ai.is_none())),
            fixed: [Seat::First, Seat::Second].map(|seat| {
                let kind = self.options.game.kind();
                self.ai_seat(seat)
                    .map(|level| f64::from(tabula_ai::published_rating(kind, level)))
            }),
            humans,
            winner: result.winner,
            room_state,
        };
        let saved = self.shared.store.save_game(game).await;
        let ratings = match self.saved_or_not(saved, "saving a finished game") {
            Ok(ratings) => ratings,
            Err(refusal) => {
                self.roll_back(before);
                return Err(refusal);
            }
        };
        self.forget_ai_thought();
        self.stop_engine();
        self.shared
            .puzzles
            .harvest(game_id.clone(), self.game.record().clone());
        self.report_to_tournament(&result, Some(game_id.clone()));
        self.emit(RoomEvent::GameOver {
            result,
            game_id: Some(game_id),
            ratings,
            dice,
        });
        Ok(())
    }
}

/// The rules' own words for a replay error.
fn rule_error_text(e: &ReplayError) -> String {
    match e {
        ReplayError::Gomoku { error, .. } => error.to_string(),
        ReplayError::Backgammon { error, .. } => error.to_string(),
        other => other.to_string(),
    }
}
