//! A connection's tournament requests: creating one here, the list from the
//! desk, and everything about one tournament handed to its actor.

use std::sync::Arc;

use tabula_shared::protocol::{ClientMessage, ErrorCode, ServerMessage};

use super::Handler;
use crate::identity::Identity;
use crate::tournament_desk::TournamentCommand;
use crate::tournaments;

impl Handler {
    /// Handles a tournament request; false when `message` is not one.
    pub(super) async fn on_tournament_request(
        &mut self,
        rid: Option<u64>,
        identity: &Arc<Identity>,
        message: ClientMessage,
    ) -> Result<(), ClientMessage> {
        let tournament_id = match &message {
            ClientMessage::CreateTournament { spec } => {
                let answer = match tournaments::create(&self.shared, identity, spec.clone()).await {
                    Ok((tournament_id, code)) => ServerMessage::TournamentCreated {
                        tournament_id: tournament_id.clone(),
                        code,
                    },
                    Err((code, why)) => ServerMessage::error(code, why),
                };
                self.reply(rid, answer);
                return Ok(());
            }
            ClientMessage::ListTournaments => {
                let tournaments = self.shared.tournament_desk.list();
                self.reply(rid, ServerMessage::TournamentList { tournaments });
                return Ok(());
            }
            ClientMessage::WatchTournament { tournament_id }
            | ClientMessage::UnwatchTournament { tournament_id }
            | ClientMessage::JoinTournament { tournament_id, .. }
            | ClientMessage::WithdrawTournament { tournament_id }
            | ClientMessage::ManageTournament { tournament_id, .. } => tournament_id.clone(),
            _ => return Err(message),
        };
        let Some(mailbox) = self.shared.tournament_desk.mailbox(&tournament_id) else {
            self.reply(
                rid,
                ServerMessage::error(
                    ErrorCode::NotFound,
                    format!("no tournament {tournament_id}"),
                ),
            );
            return Ok(());
        };
        let command = TournamentCommand::Request {
            conn: self.id,
            outlet: self.tx.clone(),
            identity: identity.clone(),
            request_id: rid,
            message,
        };
        if mailbox.try_send(command).is_err() {
            self.reply(
                rid,
                ServerMessage::busy(
                    "the tournament is busy; try again",
                    std::time::Duration::from_secs(1),
                ),
            );
        }
        Ok(())
    }

    /// Tells the tournaments this connection is gone (it watches no more).
    pub(super) fn left_tournaments(&self) {
        for mailbox in self.shared.tournament_desk.mailboxes() {
            let _ = mailbox.try_send(TournamentCommand::Disconnected { conn: self.id });
        }
    }
}
