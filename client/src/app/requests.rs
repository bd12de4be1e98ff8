//! [`Requests`]: the app's handle on the network worker, which numbers the
//! requests it sends so answers can be matched to them.

use tabula_shared::protocol::{ClientFrame, ClientMessage};

use crate::net::{NetCommand, NetEvent, Network};

/// Sends requests to the server through the network worker.
pub(super) struct Requests {
    /// The worker.
    net: Network,
    /// The `request_id` of the next request.
    next: u64,
}

impl Requests {
    /// Wraps a started (or, in tests, detached) network worker.
    pub(super) fn new(net: Network) -> Requests {
        Requests { net, next: 1 }
    }

    /// Sends a request and returns its `request_id`.
    pub(super) fn send(&mut self, message: ClientMessage) -> u64 {
        let id = self.next;
        self.next += 1;
        self.net.command(NetCommand::Send(ClientFrame {
            request_id: Some(id),
            message,
        }));
        id
    }

    /// Passes a command (connect, disconnect) to the worker.
    pub(super) fn command(&self, command: NetCommand) {
        self.net.command(command);
    }

    /// Every event the worker reported since the last call.
    pub(super) fn poll(&self) -> Vec<NetEvent> {
        self.net.poll()
    }
}
