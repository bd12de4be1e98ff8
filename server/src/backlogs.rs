//! [`Backlogs`]: the bytes waiting for slow clients, added up over every
//! connection, so that many clients that never read cannot together hold
//! more of the server's memory than its cap. Past the cap, the slowest
//! clients (those with more waiting than the average of the clients that
//! have anything waiting) are refused more and dropped first; clients that
//! keep up are never touched.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The total of every connection's backlog, and the cap on it.
#[derive(Debug)]
pub struct Backlogs {
    /// Bytes waiting, over all connections.
    bytes: AtomicUsize,
    /// Connections with anything waiting.
    behind: AtomicUsize,
    /// Most bytes that may wait in all.
    cap: usize,
}

impl Backlogs {
    /// No backlog yet, with `cap` bytes at most in all.
    pub fn new(cap: usize) -> Backlogs {
        Backlogs {
            bytes: AtomicUsize::new(0),
            behind: AtomicUsize::new(0),
            cap,
        }
    }

    /// Bytes waiting, over all connections.
    pub fn total(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }

    /// One connection's backlog went from `before` to `now` bytes.
    pub fn changed(&self, before: usize, now: usize) {
        if now > before {
            self.bytes.fetch_add(now - before, Ordering::Relaxed);
        } else if before > now {
            self.bytes.fetch_sub(before - now, Ordering::Relaxed);
        }
        if before == 0 && now > 0 {
            self.behind.fetch_add(1, Ordering::Relaxed);
        } else if before > 0 && now == 0 {
            self.behind.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Whether a connection with `mine` bytes waiting is refused more: the
    /// total is over the cap and it is among the slowest.
    pub fn refuses(&self, mine: usize) -> bool {
        let total = self.total();
        if mine == 0 || total <= self.cap {
            return false;
        }
        let behind = self.behind.load(Ordering::Relaxed).max(1);
        mine >= total / behind
    }
}
