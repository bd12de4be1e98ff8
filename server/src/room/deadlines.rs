//! What a room waits for besides commands: a player's clock running out,
//! the grace period of a seat left empty, and the idle time-out that closes it.

use std::time::{Duration, Instant};

use tabula_shared::protocol::{EndReason, GameResult, RoomEvent, RoomStatus};
use tabula_shared::seat::Seat;

use super::clock::Clock;
use super::{Room, idx};

impl Room {
    /// The next time the room has to act without a command: a clock
    /// running out, the idle time-out, or a grace period before the game.
    pub(super) fn next_deadline(&self) -> Option<Instant> {
        let mut deadline: Option<Instant> = None;
        let mut consider = |t: Instant| {
            deadline = Some(deadline.map_or(t, |d| d.min(t)));
        };
        if self.result.is_none()
            && let Some((_, t)) = self.clock.as_ref().and_then(Clock::deadline)
        {
            // A time-out that could not be saved waits for the next retry.
            consider(self.saving.backoff.map_or(t, |b| t.max(b.retry_at)));
        }
        if let Some(t) = self.retry_deadline() {
            consider(t);
        }
        if let Some(t) = self.empty_since {
            consider(t + self.idle_ttl());
        }
        if self.waiting_for_seeds()
            && let Some(t) = self.dice.seed_deadline
        {
            consider(t);
        }
        if !self.game_started {
            for t in self.away_since.iter().flatten() {
                consider(*t + self.seat_wait());
            }
        }
        deadline
    }

    /// How long the room stays open with nobody in it.
    pub(super) fn idle_ttl(&self) -> Duration {
        if self.status() == RoomStatus::Playing {
            // A running game waits for its players much longer than the grace period.
            self.shared.config.deserted_game_ttl
        } else if self.status() == RoomStatus::Finished {
            self.shared.config.finished_room_ttl
        } else {
            self.shared.config.grace
        }
    }

    /// The seat whose clock has run out in a game still running.
    pub(super) fn out_of_time(&self) -> Option<Seat> {
        let (seat, t) = self.clock.as_ref().and_then(Clock::deadline)?;
        (self.result.is_none() && t <= Instant::now()).then_some(seat)
    }

    /// How long a seat waits for its player before the game: the grace
    /// period, or a tournament's forfeit time.
    pub(super) fn seat_wait(&self) -> Duration {
        match &self.tournament {
            Some(link) => Duration::from_secs(u64::from(link.forfeit_secs)),
            None => self.shared.config.grace,
        }
    }

    /// Handles a deadline; true when the room should close.
    pub(super) async fn on_deadline(&mut self) -> bool {
        self.free_abandoned_seats();
        if self.forfeit_if_absent().await {
            return false;
        }
        if self.dice.seed_deadline.is_some_and(|t| t <= Instant::now()) {
            // The wait for dice seeds is over: roll without the missing ones.
            self.dice.seed_deadline = None;
            self.after_change().await;
        }
        if self.take_due_retry() {
            // What the room would have done by itself had the store saved.
            self.after_change().await;
        }
        if let Some(seat) = self.out_of_time().filter(|_| !self.backing_off()) {
            // When this cannot be saved, the back-off tries again later.
            let timed_out = self
                .finish(GameResult {
                    winner: Some(seat.other()),
                    reason: EndReason::Timeout,
                    line: Vec::new(),
                    score: None,
                })
                .await;
            if timed_out.is_err() {
                self.tell_save_trouble();
            }
            self.after_change().await;
            return false;
        }
        self.should_close()
    }

    /// Before the game starts, a seat whose player has been away for the
    /// whole grace period is freed, so that whoever waits in the room can
    /// get a new opponent (after a game has started, the opponent may claim
    /// the win instead).
    pub(super) fn free_abandoned_seats(&mut self) {
        if self.game_started {
            return;
        }
        if self.tournament.is_some() {
            return;
        }
        for seat in [Seat::First, Seat::Second] {
            let gone =
                self.away_since[idx(seat)].is_some_and(|t| t.elapsed() >= self.shared.config.grace);
            if gone {
                self.away_since[idx(seat)] = None;
                self.seats[idx(seat)] = None;
                self.emit(RoomEvent::SeatLeft { seat });
                self.forget_seed(seat);
                self.publish();
            }
        }
    }

    /// Whether the room has been empty for its whole idle time-out.
    pub(super) fn should_close(&self) -> bool {
        // A tournament's game stays until it has a result: the clock or
        // the forfeit time ends it.
        if self.tournament.is_some() && self.result.is_none() {
            return false;
        }
        self.empty_since
            .is_some_and(|t| t.elapsed() >= self.idle_ttl())
            && self.members.is_empty()
    }
}
