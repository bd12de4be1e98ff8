//! [`SaveBackoff`]: what a room does while the store cannot save (a full or
//! read-only disk). Nothing unsaved is told; what the room would do by
//! itself (an AI move, the opening roll, a clock's time-out) is tried again
//! after a growing delay instead of at once, and the log hears of the
//! trouble once, not at every attempt. A player whose request failed is
//! told by its `internal` answer; when the room's own step fails (the AI's
//! move, a time-out), the room is told once in its chat.

use std::time::{Duration, Instant};

use tabula_shared::protocol::{ChatLine, ErrorCode};

use super::{Refusal, Room, refuse};
use crate::store::StoreError;

/// The first delay before a room tries again what it could not save.
const FIRST_DELAY: Duration = Duration::from_millis(250);
/// The longest delay between two attempts.
const MAX_DELAY: Duration = Duration::from_secs(30);
/// Who the room's notices about saving come from.
const SERVER_NAME: &str = "Tabula server";

/// A room's store trouble: since the first failed save, until one works.
#[derive(Debug, Clone, Copy)]
pub(super) struct SaveBackoff {
    /// How long the next failure waits before the room tries again.
    delay: Duration,
    /// When the room tries again what it would do by itself.
    pub(super) retry_at: Instant,
    /// Whether a retry is owed (cleared when it runs).
    pub(super) retry_pending: bool,
    /// Whether the room was told that the server cannot save.
    told: bool,
}

/// How the room's saves stand: any trouble, and what is owed after it.
#[derive(Debug, Default)]
pub(super) struct Saving {
    /// Set while the store cannot save.
    pub(super) backoff: Option<SaveBackoff>,
    /// A save worked after the room was told it could not: the notice that
    /// it can again is owed, told after the command that saved.
    pub(super) again_owed: bool,
    /// A save timed out since the last command: whether it will still land
    /// is unknown, so the room's state as told is saved again behind it.
    pub(super) outcome_unknown: bool,
}

impl Room {
    /// The outcome of a save: `Ok` clears the room's trouble; an error
    /// starts or lengthens its back-off and becomes an `internal` refusal.
    /// The first failure is logged as an error and told to the room; later
    /// ones only at debug level, so a full disk does not fill the log too.
    pub(super) fn saved_or_not<T>(
        &mut self,
        result: Result<T, StoreError>,
        what: &str,
    ) -> Result<T, Refusal> {
        match result {
            Ok(value) => {
                if let Some(trouble) = self.saving.backoff.take() {
                    tracing::info!(room = %self.id, "saving works again");
                    // Told after what was saved: its events may already
                    // carry their numbers (see [`Room::tell_saving_again`]).
                    self.saving.again_owed |= trouble.told;
                }
                Ok(value)
            }
            Err(e) => {
                if matches!(e, StoreError::TimedOut(_)) {
                    self.saving.outcome_unknown = true;
                }
                let now = Instant::now();
                match &mut self.saving.backoff {
                    Some(b) => {
                        tracing::debug!(room = %self.id, error = %e, what, "still cannot save");
                        b.retry_at = now + b.delay;
                        b.delay = (b.delay * 2).min(MAX_DELAY);
                        b.retry_pending = true;
                    }
                    None => {
                        tracing::error!(room = %self.id, error = %e, what,
                            "the server cannot save; retrying with a growing delay");
                        self.saving.backoff = Some(SaveBackoff {
                            delay: FIRST_DELAY * 2,
                            retry_at: now + FIRST_DELAY,
                            retry_pending: true,
                            told: false,
                        });
                    }
                }
                Err(refuse(
                    ErrorCode::Internal,
                    "the server could not save that; try again later",
                ))
            }
        }
    }

    /// Whether the room waits before trying again what it could not save.
    pub(super) fn backing_off(&self) -> bool {
        self.saving
            .backoff
            .is_some_and(|b| Instant::now() < b.retry_at)
    }

    /// When a retry is owed, the time to run it.
    pub(super) fn retry_deadline(&self) -> Option<Instant> {
        self.saving
            .backoff
            .filter(|b| b.retry_pending)
            .map(|b| b.retry_at)
    }

    /// Marks the owed retry as run; true when it was due.
    pub(super) fn take_due_retry(&mut self) -> bool {
        match &mut self.saving.backoff {
            Some(b) if b.retry_pending && b.retry_at <= Instant::now() => {
                b.retry_pending = false;
                true
            }
            _ => false,
        }
    }

    /// Tells the room, once, that the server cannot save: its own next step
    /// (the AI's move, a time-out) waits until it can.
    pub(super) fn tell_save_trouble(&mut self) {
        if let Some(trouble) = &mut self.saving.backoff
            && !trouble.told
        {
            trouble.told = true;
            self.notice("The server cannot save right now: the game waits until it can.");
        }
    }

    /// Tells the room that saving works again, once the change whose save
    /// showed it has been told: that change's events were numbered before
    /// the save, so a notice in between would take one of their numbers.
    pub(super) fn tell_saving_again(&mut self) {
        if std::mem::take(&mut self.saving.again_owed) {
            self.notice("The server can save again.");
        }
    }

    /// A line from the server in the room's chat (not saved, like all chat).
    pub(super) fn notice(&mut self, text: &str) {
        self.say(ChatLine {
            from: SERVER_NAME.into(),
            spectator: false,
            text: text.into(),
        });
    }

    /// After a save timed out (a stalled disk), the change was undone and
    /// refused, but the write may still land once the disk moves again.
    /// Queues the room's state as told behind it, written whatever happens
    /// to the waiting (the store writes in order), so that the store ends
    /// up holding what the players were told. Not awaited: the disk may
    /// still be stalled.
    pub(super) fn supersede_unknown_save(&mut self) {
        if !std::mem::take(&mut self.saving.outcome_unknown) {
            return;
        }
        let Some(state) = self.state_ahead(0) else {
            return;
        };
        let saved = self
            .shared
            .store
            .save_room_superseding(self.id.clone(), state);
        let room = self.id.clone();
        tokio::spawn(async move {
            if let Err(e) = saved.await {
                tracing::warn!(%room, error = %e, "saving a room again after a time-out");
            }
        });
    }
}
