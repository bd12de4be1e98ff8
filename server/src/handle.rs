//! How connections, the lobby and the server reach a room: the commands a
//! room's actor takes, and the [`RoomHandle`] that sends them.
//!
//! This module knows nothing of the registry or the room's insides, so both
//! can use it without using each other.

use std::sync::Arc;

use tabula_shared::protocol::{ClientMessage, ErrorCode, PlayerAction, ServerMessage};
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::{mpsc, oneshot};

use crate::identity::Identity;
use crate::outlet::Outlet;

/// A connection's id.
pub type ConnId = u64;

/// Who sent a request, and where to answer.
pub struct Caller {
    /// The connection.
    pub conn: ConnId,
    /// Its write side.
    pub tx: Outlet,
    /// The player behind it.
    pub identity: Arc<Identity>,
    /// Echoed in the reply.
    pub request_id: Option<u64>,
}

/// What a room can be asked.
pub enum RoomCommand {
    /// A client request about this room.
    Request {
        /// From whom.
        caller: Caller,
        /// What.
        message: ClientMessage,
    },
    /// A connection closed.
    Disconnected {
        /// Which.
        conn: ConnId,
    },
    /// The AI finished thinking.
    AiMove {
        /// Which request this answers (older answers are stale).
        generation: u64,
        /// Its decision.
        action: Option<PlayerAction>,
        /// A line for the room's chat (an external engine failed).
        note: Option<String>,
    },
    /// Stop at once, without saving: another node of the cluster runs the
    /// room now (this node's lease on it ran out).
    Release,
    /// Save and stop.
    Shutdown {
        /// Answered once saved.
        done: oneshot::Sender<()>,
    },
}

/// Why a command did not reach a room.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Undelivered {
    /// The room's queue is full.
    Busy,
    /// The room has stopped.
    Closed,
}

impl Undelivered {
    /// What the request's sender is told: `rate_limited` for a full queue;
    /// `busy` with a short wait for a room that has just stopped, since it
    /// is moving to another node of a cluster (or closing, after which the
    /// next try finds no room).
    pub fn refusal(self) -> ServerMessage {
        match self {
            Undelivered::Busy => {
                ServerMessage::error(ErrorCode::RateLimited, "the room is busy; try again")
            }
            Undelivered::Closed => ServerMessage::busy(
                "this room is stopping here; try again",
                std::time::Duration::from_millis(200),
            ),
        }
    }
}

/// Where to send a room its commands; cheap to clone. The room's actor
/// stops when its queue is dropped, and sends to it fail from then on.
#[derive(Clone)]
pub struct RoomHandle {
    tx: mpsc::Sender<RoomCommand>,
}

impl RoomHandle {
    /// A handle and the queue a room's actor reads, holding up to
    /// `capacity` commands.
    pub fn channel(capacity: usize) -> (RoomHandle, mpsc::Receiver<RoomCommand>) {
        let (tx, rx) = mpsc::channel(capacity);
        (RoomHandle { tx }, rx)
    }

    /// A sender that does not keep the room open, for the room's own tasks
    /// (an AI answer for a room that closed meanwhile goes nowhere).
    pub fn downgrade(&self) -> mpsc::WeakSender<RoomCommand> {
        self.tx.downgrade()
    }

    /// Queues a command, waiting while the room's queue is full.
    ///
    /// # Errors
    /// When the room has stopped.
    pub async fn send(&self, command: RoomCommand) -> Result<(), Undelivered> {
        self.tx.send(command).await.map_err(|_| Undelivered::Closed)
    }

    /// Queues a command if there is room in the queue now.
    ///
    /// # Errors
    /// When the room's queue is full or the room has stopped.
    pub fn try_send(&self, command: RoomCommand) -> Result<(), Undelivered> {
        self.tx.try_send(command).map_err(|e| match e {
            TrySendError::Full(_) => Undelivered::Busy,
            TrySendError::Closed(_) => Undelivered::Closed,
        })
    }

    /// Whether the room has stopped.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}
