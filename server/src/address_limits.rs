//! [`AddressLimits`]: limits per client IP address, which a client cannot
//! reset by opening a new connection or saying `hello` without a token:
//! wrong server passwords, sign-in attempts (counted before the costly
//! hash), wrong private-room codes, new guest identities, and rooms.
//!
//! Behind a reverse proxy every client has the proxy's address; Tabula is
//! meant to face its players directly.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// What is counted per address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limited {
    /// Wrong `--password` guesses.
    ServerPassword,
    /// Sign-in attempts with an account password (each costs a hash).
    SignIn,
    /// Wrong private-room codes.
    RoomCode,
    /// New guest identities (`hello` without a token).
    NewPlayer,
}

impl Limited {
    /// How many in how long (new players: as configured, in ten minutes).
    /// Above the limits per connection, so that people sharing an address
    /// are not locked out by one of them.
    const fn budget(self, new_players: u32) -> (u32, Duration) {
        match self {
            Limited::ServerPassword => (10, Duration::from_secs(60)),
            Limited::SignIn => (20, Duration::from_secs(60)),
            Limited::RoomCode => (20, Duration::from_secs(60)),
            Limited::NewPlayer => (new_players, Duration::from_secs(600)),
        }
    }

    /// What a refused client is told.
    pub const fn refusal(self) -> &'static str {
        match self {
            Limited::ServerPassword => "too many wrong passwords from your address; wait a minute",
            Limited::SignIn => "too many sign-ins from your address; wait a minute",
            Limited::RoomCode => "too many wrong codes from your address; wait a minute",
            Limited::NewPlayer => {
                "too many new players from your address; resume with your token or wait"
            }
        }
    }
}

/// Counts in a fixed window.
#[derive(Debug, Clone, Copy)]
struct Window {
    count: u32,
    since: Instant,
}

/// Beyond this many entries, expired ones are dropped before adding more.
const PRUNE_AT: usize = 50_000;

/// The counts of every address, and the rooms each created.
pub struct AddressLimits {
    /// New guest identities one address may make in ten minutes.
    new_players: u32,
    /// Rooms one address may have open (of any status) when creating another.
    rooms_per_address: usize,
    /// Counts by address and kind.
    counts: Mutex<HashMap<(IpAddr, Limited), Window>>,
    /// Rooms created from each address, while they may still be open.
    rooms: Mutex<HashMap<IpAddr, Vec<String>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl AddressLimits {
    /// Limits with these budgets (see [`crate::Config`]).
    pub fn new(new_players: u32, rooms_per_address: usize) -> AddressLimits {
        AddressLimits {
            new_players,
            rooms_per_address,
            counts: Mutex::default(),
            rooms: Mutex::default(),
        }
    }

    /// Whether `ip` has budget left for `kind` now (counts nothing).
    pub fn allowed(&self, ip: IpAddr, kind: Limited) -> bool {
        let (max, window) = kind.budget(self.new_players);
        lock(&self.counts)
            .get(&(ip, kind))
            .is_none_or(|w| w.since.elapsed() >= window || w.count < max)
    }

    /// Counts one for `ip` and `kind`.
    pub fn count(&self, ip: IpAddr, kind: Limited) {
        let (_, window) = kind.budget(self.new_players);
        let mut counts = lock(&self.counts);
        if counts.len() >= PRUNE_AT {
            counts.retain(|(_, k), w| w.since.elapsed() < k.budget(self.new_players).1);
        }
        let w = counts.entry((ip, kind)).or_insert(Window {
            count: 0,
            since: Instant::now(),
        });
        if w.since.elapsed() >= window {
            *w = Window {
                count: 0,
                since: Instant::now(),
            };
        }
        w.count += 1;
    }

    /// Counts one if there is budget left; false (counting nothing) if not.
    pub fn take(&self, ip: IpAddr, kind: Limited) -> bool {
        if !self.allowed(ip, kind) {
            return false;
        }
        self.count(ip, kind);
        true
    }

    /// Whether `ip` may create another room; `open` says whether a room id
    /// is still open (closed ones stop counting).
    pub fn room_allowed(&self, ip: IpAddr, open: impl Fn(&str) -> bool) -> bool {
        let mut rooms = lock(&self.rooms);
        let Some(ids) = rooms.get_mut(&ip) else {
            return true;
        };
        ids.retain(|id| open(id));
        if ids.is_empty() {
            rooms.remove(&ip);
            return true;
        }
        ids.len() < self.rooms_per_address
    }

    /// Counts a room created from `ip`.
    pub fn room_created(&self, ip: IpAddr, id: String) {
        lock(&self.rooms).entry(ip).or_default().push(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_address_has_its_own_budget() {
        let limits = AddressLimits::new(5, 5);
        let a: IpAddr = "127.0.0.2".parse().unwrap();
        let b: IpAddr = "127.0.0.3".parse().unwrap();
        for _ in 0..20 {
            assert!(limits.take(a, Limited::RoomCode));
        }
        assert!(!limits.take(a, Limited::RoomCode));
        assert!(limits.allowed(b, Limited::RoomCode));
        assert!(limits.allowed(a, Limited::ServerPassword));
    }

    #[test]
    fn closed_rooms_stop_counting() {
        let limits = AddressLimits::new(5, 5);
        let a: IpAddr = "127.0.0.2".parse().unwrap();
        for i in 0..5 {
            assert!(limits.room_allowed(a, |_| true));
            limits.room_created(a, format!("r-{i}"));
        }
        assert!(!limits.room_allowed(a, |_| true));
        assert!(limits.room_allowed(a, |id| id != "r-0"));
    }
}
