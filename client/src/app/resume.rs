//! Joining the room again after a reconnect, patiently. On a cluster, a
//! room whose server died is refused with `busy` until another server has
//! taken it over (within its lease, 10 s by default): the join is sent
//! again after the wait the server asks for, for up to [`GIVE_UP`].

use tabula_shared::protocol::{ClientMessage, ErrorCode};
use web_time::{Duration, Instant};

/// How long a refused rejoin is tried again.
const GIVE_UP: Duration = Duration::from_secs(60);

/// The rejoin sent after the last `welcome`, until it is answered.
pub(super) struct Resume {
    request_id: u64,
    message: ClientMessage,
    again_at: Option<Instant>,
    until: Instant,
}

impl Resume {
    /// The rejoin `message` went out as request `request_id`.
    pub(super) fn sent(request_id: u64, message: ClientMessage) -> Resume {
        Resume {
            request_id,
            message,
            again_at: None,
            until: Instant::now() + GIVE_UP,
        }
    }

    /// The same rejoin sent again as `request_id`, keeping its deadline.
    fn resent(self, request_id: u64) -> Resume {
        Resume {
            request_id,
            again_at: None,
            ..self
        }
    }

    /// Whether the refusal of `request_id` is this rejoin's and one to wait
    /// out (`busy`); if so, the rejoin is due again after `retry_after_ms`.
    pub(super) fn refused(
        &mut self,
        request_id: Option<u64>,
        code: ErrorCode,
        retry_after_ms: Option<u64>,
    ) -> bool {
        if request_id != Some(self.request_id) || code != ErrorCode::Busy {
            return false;
        }
        let wait = Duration::from_millis(retry_after_ms.unwrap_or(1000).clamp(100, 5000));
        let at = Instant::now() + wait;
        if at > self.until {
            return false;
        }
        self.again_at = Some(at);
        true
    }

    /// When the rejoin is due again, if it waits.
    pub(super) fn waiting_until(&self) -> Option<Instant> {
        self.again_at
    }

    /// Sends the rejoin again through `send` when it is due; returns what
    /// to keep.
    pub(super) fn poll(self, now: Instant, send: impl FnOnce(ClientMessage) -> u64) -> Resume {
        match self.again_at {
            Some(at) if at <= now => {
                let id = send(self.message.clone());
                self.resent(id)
            }
            _ => self,
        }
    }
}

#[cfg(test)]
mod tests {
    use tabula_shared::protocol::Role;

    use super::*;

    fn join() -> ClientMessage {
        ClientMessage::JoinRoom {
            room_id: "r-1".into(),
            role: Role::Player,
            since: Some(7),
        }
    }

    #[test]
    fn a_busy_rejoin_is_sent_again_after_the_wait_and_nothing_else_is() {
        let mut resume = Resume::sent(5, join());
        // Another request's refusal, or another code, is not ours to wait out.
        assert!(!resume.refused(Some(4), ErrorCode::Busy, Some(200)));
        assert!(!resume.refused(Some(5), ErrorCode::NotFound, None));
        assert!(resume.refused(Some(5), ErrorCode::Busy, Some(200)));
        let due = resume.waiting_until().expect("waits");
        let mut sent = Vec::new();
        // Not yet: nothing is sent.
        let resume = resume.poll(due - Duration::from_millis(50), |m| {
            sent.push(m);
            9
        });
        assert!(sent.is_empty());
        // Due: the same join goes out again under a new id, and waits no more.
        let mut resume = resume.poll(due, |m| {
            sent.push(m);
            9
        });
        assert_eq!(sent, vec![join()]);
        assert!(resume.waiting_until().is_none());
        assert!(!resume.refused(Some(5), ErrorCode::Busy, Some(200)));
        assert!(resume.refused(Some(9), ErrorCode::Busy, Some(200)));
    }
}
