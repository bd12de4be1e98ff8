//! A game's Fischer clock.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tabula_shared::protocol::ClockState;
use tabula_shared::seat::Seat;

use super::idx;

/// A running Fischer clock.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Clock {
    /// Each seat's time left, as of `since` for the running one.
    pub(super) remaining_ms: [u64; 2],
    /// Added to a seat's time when it moves.
    pub(super) increment_ms: u64,
    /// Whose time is running, if anyone's.
    pub(super) running: Option<Seat>,
    /// When the running seat's time began to run (not saved: a restored
    /// clock starts again from when the room comes back).
    #[serde(skip, default = "Instant::now")]
    pub(super) since: Instant,
}

impl Clock {
    /// The clock as players see it now, the running seat charged so far.
    pub(super) fn view(&self) -> ClockState {
        let mut remaining_ms = self.remaining_ms;
        if let Some(seat) = self.running {
            let spent = self.since.elapsed().as_millis() as u64;
            let slot = &mut remaining_ms[idx(seat)];
            *slot = slot.saturating_sub(spent);
        }
        ClockState {
            remaining_ms,
            running: self.running,
        }
    }

    /// Stops the running clock, charging the time spent; adds the increment when `moved`.
    pub(super) fn stop(&mut self, moved: bool) {
        if let Some(seat) = self.running.take() {
            let spent = self.since.elapsed().as_millis() as u64;
            let slot = &mut self.remaining_ms[idx(seat)];
            *slot = slot.saturating_sub(spent);
            if moved {
                *slot += self.increment_ms;
            }
        }
    }

    /// Starts `seat`'s time (or nobody's) from now.
    pub(super) fn start(&mut self, seat: Option<Seat>) {
        self.running = seat;
        self.since = Instant::now();
    }

    /// The running seat and when its time runs out.
    pub(super) fn deadline(&self) -> Option<(Seat, Instant)> {
        let seat = self.running?;
        Some((
            seat,
            self.since + Duration::from_millis(self.remaining_ms[idx(seat)]),
        ))
    }
}
