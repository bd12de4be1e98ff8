//! The outlet of a client whose socket another node holds: the room writes
//! into it as into any member's, and its frames go to that node's channel.

use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use super::link::Link;
use super::wire::{ToNode, node_channel};
use crate::handle::ConnId;
use crate::outlet::{Relay, SendError};

/// Frames for connection `conn` of another node.
pub struct RelayTo {
    /// The Redis link.
    pub link: Link,
    /// That node's channel.
    pub channel: String,
    /// The connection there.
    pub conn: ConnId,
}

impl RelayTo {
    /// Frames for connection `conn` of `node`.
    pub fn new(link: Link, node: &str, conn: ConnId) -> RelayTo {
        RelayTo {
            link,
            channel: node_channel(node),
            conn,
        }
    }

    fn send(&self, message: &ToNode) -> Result<(), SendError> {
        let payload = serde_json::to_string(message).map_err(|_| SendError::Gone)?;
        self.link
            .publish(self.channel.clone(), payload)
            .map_err(|()| SendError::Gone)
    }
}

impl Relay for RelayTo {
    fn send_text(&self, text: &str) -> Result<(), SendError> {
        self.send(&ToNode::Frame {
            conn: self.conn,
            text: text.to_string(),
        })
    }

    fn close(&self, code: CloseCode, reason: String) {
        let _ = self.send(&ToNode::Close {
            conn: self.conn,
            code: code.into(),
            reason,
        });
    }
}
