//! A room another node runs, as this node's lobby and connections see it:
//! a task behind a [`RoomHandle`] that passes each command on to the
//! room's owner through Redis. The answers and events come back on this
//! node's channel, straight to the client's socket.
//!
//! When the room moves to another node (its owner died or stopped), the
//! proxy stops and closes its members' connections: they reconnect and
//! join the room where it runs now, resuming with `since`.

use std::collections::HashMap;
use std::sync::Arc;

use tabula_shared::protocol::{ClientMessage, RoomId, ServerFrame, ServerMessage};
use tokio::sync::{mpsc, oneshot};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use super::Cluster;
use super::wire::{NodeId, ToNode};
use crate::handle::{Caller, ConnId, RoomCommand, RoomHandle, refuse_queued};
use crate::outlet::Outlet;

/// A running proxy, as the cluster keeps it.
pub struct Proxy {
    /// The node that runs the room.
    pub owner: NodeId,
    /// Where this node's connections send the room's commands.
    pub handle: RoomHandle,
    /// Stops the proxy; `Some(reason)` closes its members' connections too.
    stop: oneshot::Sender<Option<&'static str>>,
}

impl Proxy {
    /// Starts a proxy for `room_id`, run by `owner`.
    pub fn start(cluster: Arc<Cluster>, owner: NodeId, room_id: RoomId) -> Proxy {
        let (handle, rx) = RoomHandle::channel(4096);
        let (stop, stopped) = oneshot::channel();
        tokio::spawn(run(cluster, owner.clone(), room_id, rx, stopped));
        Proxy {
            owner,
            handle,
            stop,
        }
    }

    /// Stops the proxy; with a reason, its members' connections are closed
    /// with it (the room moved: they must join it again where it runs now).
    pub fn stop(self, reason: Option<&'static str>) {
        let _ = self.stop.send(reason);
    }
}

async fn run(
    cluster: Arc<Cluster>,
    owner: NodeId,
    room_id: RoomId,
    mut rx: mpsc::Receiver<RoomCommand>,
    mut stopped: oneshot::Receiver<Option<&'static str>>,
) {
    // This node's connections that sent the room something, to close when
    // the room moves.
    let mut members: HashMap<ConnId, Outlet> = HashMap::new();
    loop {
        let command = tokio::select! {
            reason = &mut stopped => {
                if let Ok(Some(reason)) = reason {
                    for outlet in members.values() {
                        outlet.close(CloseCode::Restart, reason);
                    }
                }
                refuse_queued(&mut rx);
                return;
            }
            command = rx.recv() => command,
        };
        match command {
            None => return,
            Some(RoomCommand::Request { caller, message }) => {
                if matches!(message, ClientMessage::LeaveRoom { .. }) {
                    members.remove(&caller.conn);
                } else {
                    members.insert(caller.conn, caller.tx.clone());
                }
                forward(&cluster, &owner, &room_id, caller, message);
            }
            Some(RoomCommand::Disconnected { conn }) => {
                members.remove(&conn);
                cluster.forget_socket(conn);
                cluster.send(
                    &owner,
                    &ToNode::Disconnected {
                        from: cluster.node.clone(),
                        conn,
                        room_id: room_id.clone(),
                    },
                );
            }
            Some(RoomCommand::Shutdown { done }) => {
                let _ = done.send(());
            }
            Some(RoomCommand::AiMove { .. } | RoomCommand::Release) => {}
        }
    }
}

/// Passes one request on to the room's owner, or tells the caller to try
/// again when the owner is not answering (it died: the room moves to
/// another node once its lease runs out).
fn forward(
    cluster: &Arc<Cluster>,
    owner: &str,
    room_id: &RoomId,
    caller: Caller,
    message: ClientMessage,
) {
    let refuse = |why: &str| {
        let frame = ServerFrame {
            request_id: caller.request_id,
            message: ServerMessage::busy(why, cluster.lease / 2),
        };
        let _ = caller.tx.send_text(&frame.encode());
    };
    if !cluster.is_alive(owner) {
        refuse("this room's server is not answering; the room moves to another server shortly");
        return;
    }
    cluster.remember_socket(caller.conn, caller.tx.clone());
    let sent = cluster.send(
        owner,
        &ToNode::Request {
            from: cluster.node.clone(),
            conn: caller.conn,
            identity: (*caller.identity).clone(),
            request_id: caller.request_id,
            room_id: room_id.clone(),
            message: Box::new(message),
        },
    );
    if !sent {
        refuse("this server cannot reach the rest of the cluster; try again");
    }
}
