//! Following an invite link: once the server welcomes us, go to the room it
//! names: the free seat if there is one, else a spectator's place. The
//! room's own link is what the room panel shows and copies.

use tabula_shared::protocol::{ClientMessage, Role};

use super::TabulaApp;
use crate::invite::Invite;

/// An invite not yet followed, and the join request sent for it.
#[derive(Debug, Default)]
pub(super) struct Invitation {
    /// The room to go to after the welcome.
    pending: Option<Invite>,
    /// The `JoinRoom` as a player sent for it; if the server refuses (no
    /// free seat), we watch instead.
    seat_request: Option<(u64, String)>,
}

impl Invitation {
    /// The room an invite waits to open, if any.
    pub(super) fn pending_room(&self) -> Option<&str> {
        self.pending.as_ref().map(|i| i.room_id.as_str())
    }
}

impl TabulaApp {
    /// Goes to the room of an invite link once connected (at once when
    /// already welcomed).
    pub fn open_invite(&mut self, invite: Invite) {
        self.invitation.pending = Some(invite);
        if self.session.welcomed {
            self.follow_invite(&[]);
        }
    }

    /// The invite waiting for a connection, if any.
    pub fn pending_invite(&self) -> Option<&Invite> {
        self.invitation.pending.as_ref()
    }

    /// Called on the welcome: joins the invited room, unless the server
    /// already seats us there (`seated`).
    pub(super) fn follow_invite(&mut self, seated: &[String]) {
        let Some(invite) = self.invitation.pending.take() else {
            return;
        };
        if seated.contains(&invite.room_id)
            || self
                .room
                .room
                .as_ref()
                .is_some_and(|r| r.id == invite.room_id)
        {
            return;
        }
        match invite.code {
            // The server seats us if a seat is free, else we watch.
            Some(code) => {
                self.requests.send(ClientMessage::JoinByCode { code });
            }
            None => {
                let id = self.requests.send(ClientMessage::JoinRoom {
                    room_id: invite.room_id.clone(),
                    role: Role::Player,
                    since: None,
                });
                self.invitation.seat_request = Some((id, invite.room_id));
            }
        }
    }

    /// Called when a request is refused: if it was the invite's request for
    /// a seat, watch the room instead. Returns whether it was.
    pub(super) fn invite_refused(&mut self, request_id: Option<u64>) -> bool {
        match self.invitation.seat_request.take() {
            Some((id, room_id)) if request_id == Some(id) => {
                self.toasts
                    .push(rust_i18n::t!("invite.watching").into_owned());
                self.requests.send(ClientMessage::JoinRoom {
                    room_id,
                    role: Role::Spectator,
                    since: None,
                });
                true
            }
            other => {
                self.invitation.seat_request = other;
                false
            }
        }
    }

    /// The link that brings a friend to the room we are in: on the address
    /// friends can reach (the LAN address when hosting), with the code of a
    /// private room.
    pub fn invite_link(&self) -> Option<String> {
        let room = self.room.room.as_ref()?;
        let invite = Invite {
            room_id: room.id.clone(),
            code: room.code.clone(),
        };
        Some(invite.link(&self.session.share_address(&self.settings)))
    }
}
