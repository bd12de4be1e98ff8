//! [`History`]: a room's numbered events, as lila-ws keeps a room's
//! history: the number of the last event told, and the most recent events
//! as sent, so that a client resuming with `since` gets what it missed
//! instead of a whole snapshot.

use std::collections::VecDeque;

use tokio_tungstenite::tungstenite::Utf8Bytes;

/// How many recent events a room keeps for clients that resume.
const KEPT: usize = 512;

/// The room's event numbers and its most recent events.
pub(super) struct History {
    /// The number of the last event told (0 before the first).
    last: u64,
    /// The most recent events, oldest first, with their numbers.
    kept: VecDeque<(u64, Utf8Bytes)>,
}

impl History {
    /// A history whose next event is numbered `last + 1` and which keeps
    /// no event yet (a new room, or one restored from the store).
    pub(super) fn starting_after(last: u64) -> History {
        History {
            last,
            kept: VecDeque::new(),
        }
    }

    /// The number of the last event told.
    pub(super) fn last(&self) -> u64 {
        self.last
    }

    /// The number the next event gets.
    pub(super) fn next(&self) -> u64 {
        self.last + 1
    }

    /// Numbers the next event `text` (encoded with that number) and keeps
    /// it; the oldest kept event goes once there are [`KEPT`].
    pub(super) fn record(&mut self, text: Utf8Bytes) -> u64 {
        self.last += 1;
        self.kept.push_back((self.last, text));
        if self.kept.len() > KEPT {
            self.kept.pop_front();
        }
        self.last
    }

    /// The events after number `seen`, oldest first, when every one of
    /// them is kept (none when `seen` is the last); `None` when some are
    /// not (too old, or numbered ahead of what was told): the client needs
    /// a snapshot.
    pub(super) fn since(&self, seen: u64) -> Option<impl Iterator<Item = &Utf8Bytes>> {
        let complete = seen == self.last
            || seen < self.last
                && self
                    .kept
                    .front()
                    .is_some_and(|(first, _)| *first <= seen + 1);
        complete.then(|| {
            self.kept
                .iter()
                .filter(move |(n, _)| *n > seen)
                .map(|(_, text)| text)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(history: &History, seen: u64) -> Option<Vec<String>> {
        history
            .since(seen)
            .map(|events| events.map(|t| t.to_string()).collect())
    }

    #[test]
    fn events_are_numbered_on_from_where_the_room_was() {
        let mut history = History::starting_after(7);
        assert_eq!(history.next(), 8);
        assert_eq!(history.record("a".into()), 8);
        assert_eq!(history.record("b".into()), 9);
        assert_eq!(history.last(), 9);
    }

    #[test]
    fn a_resume_gets_the_events_it_missed_and_nothing_else() {
        let mut history = History::starting_after(0);
        for text in ["a", "b", "c"] {
            history.record(text.into());
        }
        assert_eq!(texts(&history, 1), Some(vec!["b".into(), "c".into()]));
        assert_eq!(texts(&history, 3), Some(vec![]), "up to date");
        assert_eq!(
            texts(&history, 0),
            Some(vec!["a".into(), "b".into(), "c".into()])
        );
        assert_eq!(texts(&history, 4), None, "ahead of the room: a snapshot");
    }

    #[test]
    fn events_no_longer_kept_mean_a_snapshot() {
        let mut history = History::starting_after(0);
        for _ in 0..KEPT + 10 {
            history.record("x".into());
        }
        assert_eq!(texts(&history, 5), None, "event 6 is gone");
        let recent = texts(&history, history.last() - 3).expect("kept");
        assert_eq!(recent.len(), 3);
        // A restored room keeps nothing from before: a client that saw
        // events before the restart gets a snapshot.
        let restored = History::starting_after(40);
        assert_eq!(texts(&restored, 30), None);
        assert_eq!(texts(&restored, 40), Some(vec![]));
    }
}
