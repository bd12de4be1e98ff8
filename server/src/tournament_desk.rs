//! The tournaments' front desk: how a connection or a room reaches a
//! tournament's actor, and the list the lobby shows. The actors themselves
//! are in `tournaments`; this module knows only their mailboxes, so that
//! rooms (which report their results here) and the tournaments (which make
//! rooms) do not import each other.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use serde::{Deserialize, Serialize};
use tabula_shared::protocol::{ClientMessage, RoomId, TournamentId, TournamentSummary};
use tokio::sync::mpsc;

use crate::identity::Identity;
use crate::outlet::Outlet;

/// What ties a room to the tournament it was paired for (saved with the room).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentLink {
    pub tournament_id: TournamentId,
    /// How long a paired player has to come before the game is scored as
    /// lost (seconds).
    pub forfeit_secs: u32,
}

/// How a paired game ended, as the tournament scores it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameScore {
    /// Half points of the first and second seat: 2-0, 1-1, 0-2, or 0-0
    /// when neither came.
    pub points: [u32; 2],
    /// Which seats did not come (the game was not played).
    pub absent: [bool; 2],
    /// The finished game's id (unknown for a result found on a restart).
    pub game_id: Option<String>,
}

/// A message to a tournament's actor.
pub enum TournamentCommand {
    /// A client's request about this tournament.
    Request {
        conn: u64,
        outlet: Outlet,
        identity: Arc<Identity>,
        request_id: Option<u64>,
        message: ClientMessage,
    },
    /// A paired room's game ended (a room saved it first; it may report a
    /// result again after a restart, which is ignored).
    GameOver { room_id: RoomId, score: GameScore },
    /// A connection closed: it watches no more.
    Disconnected { conn: u64 },
}

/// The tournaments' mailboxes and their list.
#[derive(Default)]
pub struct TournamentDesk {
    mailboxes: Mutex<HashMap<TournamentId, mpsc::Sender<TournamentCommand>>>,
    summaries: Mutex<HashMap<TournamentId, (i64, TournamentSummary, bool)>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl TournamentDesk {
    /// Puts up a tournament's mailbox.
    pub fn open(&self, id: TournamentId, mailbox: mpsc::Sender<TournamentCommand>) {
        lock(&self.mailboxes).insert(id, mailbox);
    }

    /// The mailbox of a tournament this node runs.
    pub fn mailbox(&self, id: &str) -> Option<mpsc::Sender<TournamentCommand>> {
        lock(&self.mailboxes).get(id).cloned()
    }

    /// Every mailbox.
    pub fn mailboxes(&self) -> Vec<mpsc::Sender<TournamentCommand>> {
        lock(&self.mailboxes).values().cloned().collect()
    }

    /// Shows a tournament in the list as it now stands (`listed`: public).
    pub fn publish(&self, created_at: i64, summary: TournamentSummary, listed: bool) {
        lock(&self.summaries).insert(summary.id.clone(), (created_at, summary, listed));
    }

    /// The listed tournaments, newest first.
    pub fn list(&self) -> Vec<TournamentSummary> {
        let mut all: Vec<(i64, TournamentSummary)> = lock(&self.summaries)
            .values()
            .filter(|(_, _, listed)| *listed)
            .map(|(at, s, _)| (*at, s.clone()))
            .collect();
        all.sort_by_key(|(at, s)| (std::cmp::Reverse(*at), s.id.clone()));
        all.into_iter().map(|(_, s)| s).collect()
    }

    /// Tells a tournament that one of its games ended.
    pub fn report(&self, link: &TournamentLink, room_id: RoomId, score: GameScore) {
        let Some(mailbox) = self.mailbox(&link.tournament_id) else {
            tracing::warn!(tournament = %link.tournament_id, room = %room_id,
                "a tournament game ended, but its tournament is not running here");
            return;
        };
        let command = TournamentCommand::GameOver { room_id, score };
        if let Err(e) = mailbox.try_send(command) {
            // A full mailbox: hand it over without holding up the room.
            let command = match e {
                mpsc::error::TrySendError::Full(c) | mpsc::error::TrySendError::Closed(c) => c,
            };
            tokio::spawn(async move {
                let _ = mailbox.send(command).await;
            });
        }
    }
}
