//! How connections, the lobby and the server reach a room: the commands a
//! room's actor takes, and the [`RoomHandle`] that sends them.
//!
//! This module knows nothing of the registry or the room's insides, so both
//! can use it without using each other.

use std::sync::Arc;

use tabula_shared::protocol::{ClientMessage, ErrorCode, PlayerAction, ServerFrame, ServerMessage};
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

/// Answers what is still queued for a room's actor (or a proxy) that stops,
/// and refuses what comes later: every request queued gets the `busy`
/// refusal of a stopped room (its client tries again and finds the room
/// where it runs now, or finds it gone), and a queued shutdown is
/// acknowledged. Without this, a request queued just before the stop would
/// never be answered.
pub fn refuse_queued(rx: &mut mpsc::Receiver<RoomCommand>) {
    rx.close();
    while let Ok(command) = rx.try_recv() {
        match command {
            RoomCommand::Request { caller, .. } => {
                let frame = ServerFrame {
                    request_id: caller.request_id,
                    message: Undelivered::Closed.refusal(),
                };
                let _ = caller.tx.send_text(&frame.encode());
            }
            RoomCommand::Shutdown { done } => {
                let _ = done.send(());
            }
            RoomCommand::Disconnected { .. }
            | RoomCommand::AiMove { .. }
            | RoomCommand::Release => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

    use super::*;
    use crate::outlet::{Relay, SendError};

    /// An outlet's far end that keeps the frames sent to it.
    #[derive(Default)]
    struct Frames(Mutex<Vec<String>>);

    impl Relay for Frames {
        fn send_text(&self, text: &str) -> Result<(), SendError> {
            self.0.lock().expect("frames").push(text.to_string());
            Ok(())
        }
        fn close(&self, _code: CloseCode, _reason: String) {}
    }

    #[test]
    fn a_stopping_room_answers_every_request_still_queued() {
        let (handle, mut rx) = RoomHandle::channel(8);
        let frames = Arc::new(Frames::default());
        for id in 1..=2 {
            let caller = Caller {
                conn: id,
                tx: Outlet::relay(frames.clone()),
                identity: Arc::new(Identity {
                    id: format!("p-{id}"),
                    token: format!("t-{id}"),
                    name: format!("Player {id}"),
                    registered: false,
                    bot: false,
                }),
                request_id: Some(id),
            };
            let message = ClientMessage::Sync {
                room_id: "r-1".into(),
            };
            assert!(
                handle
                    .try_send(RoomCommand::Request { caller, message })
                    .is_ok()
            );
        }
        let (done, mut acknowledged) = oneshot::channel();
        assert!(handle.try_send(RoomCommand::Shutdown { done }).is_ok());

        refuse_queued(&mut rx);

        let answers: Vec<serde_json::Value> = frames
            .0
            .lock()
            .expect("frames")
            .iter()
            .map(|text| serde_json::from_str(text).expect("JSON"))
            .collect();
        assert_eq!(answers.len(), 2, "{answers:?}");
        for (answer, id) in answers.iter().zip(1..) {
            assert_eq!(answer["request_id"], id, "{answer}");
            assert_eq!(answer["code"], "busy", "{answer}");
            assert!(answer["retry_after_ms"].as_u64().is_some(), "{answer}");
        }
        assert!(
            acknowledged.try_recv().is_ok(),
            "the shutdown is acknowledged"
        );
        let late = RoomCommand::Disconnected { conn: 3 };
        assert_eq!(handle.try_send(late).err(), Some(Undelivered::Closed));
    }
}
