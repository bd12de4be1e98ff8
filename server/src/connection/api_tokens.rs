//! A registered player's API tokens: `create_api_token` (which makes the
//! account a bot account), `list_api_tokens` and `revoke_api_token`.
//! Saved, then told; the secret is shown once, in the reply, and is never
//! logged or stored (only its hash is).

use std::sync::Arc;

use tabula_shared::protocol::{ErrorCode, ServerMessage};

use super::Handler;
use crate::api_tokens::{hash, new_secret};
use crate::identity::Identity;
use crate::nodes::PlayerNews;
use crate::store::ApiTokenRow;
use crate::wall_clock::now_ms;

/// The most tokens one account may hold, revoked ones included.
const MAX_TOKENS: usize = 20;

impl Handler {
    /// Refuses guests: tokens belong to registered accounts.
    fn require_account(&self, rid: Option<u64>, identity: &Identity) -> bool {
        if !identity.registered {
            self.reply(
                rid,
                ServerMessage::error(
                    ErrorCode::NotRegistered,
                    "API tokens are for registered accounts: register first",
                ),
            );
        }
        identity.registered
    }

    /// `create_api_token`: a new secret for this account, which is a bot
    /// account from now on.
    pub(super) async fn create_api_token(
        &mut self,
        rid: Option<u64>,
        identity: Arc<Identity>,
        label: String,
    ) {
        if !self.require_account(rid, &identity) {
            return;
        }
        let label = label.trim().to_string();
        if label.is_empty() || label.chars().count() > 40 || label.chars().any(char::is_control) {
            self.reply(
                rid,
                ServerMessage::error(ErrorCode::BadRequest, "label: 1 to 40 characters"),
            );
            return;
        }
        if self.shared.api_tokens().list(&identity.id).len() >= MAX_TOKENS {
            self.reply(
                rid,
                ServerMessage::error(ErrorCode::LimitReached, "20 tokens at most per account"),
            );
            return;
        }
        let secret = new_secret();
        let row = ApiTokenRow {
            id: format!("t-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]),
            player_id: identity.id.clone(),
            label: label.clone(),
            hash: hash(&secret),
            created_at: now_ms(),
            revoked: false,
        };
        if let Err(e) = self.shared.store.save_api_token(row.clone()).await {
            tracing::error!(error = %e, "saving an API token failed");
            self.reply(
                rid,
                ServerMessage::error(ErrorCode::Internal, "could not save the token"),
            );
            return;
        }
        let id = row.id.clone();
        self.shared.api_tokens().add(row.clone());
        let bot = Arc::new(Identity {
            bot: true,
            ..(*identity).clone()
        });
        self.shared.put_identity(bot.clone());
        self.shared
            .tell_nodes(PlayerNews::ApiToken(row, (*bot).clone()));
        self.shared.player_online(self.id, self.tx.clone(), &bot);
        self.identity = Some(bot);
        self.reply(
            rid,
            ServerMessage::ApiToken {
                id,
                label,
                token: secret,
            },
        );
    }

    /// `list_api_tokens`: this account's tokens, without their secrets.
    pub(super) fn list_api_tokens(&self, rid: Option<u64>, identity: &Identity) {
        if !self.require_account(rid, identity) {
            return;
        }
        let tokens = self.shared.api_tokens().list(&identity.id);
        self.reply(rid, ServerMessage::ApiTokens { tokens });
    }

    /// `revoke_api_token`: the token no longer signs in (connections it
    /// already signed in stay until they close).
    pub(super) async fn revoke_api_token(
        &mut self,
        rid: Option<u64>,
        identity: Arc<Identity>,
        id: String,
    ) {
        if !self.require_account(rid, &identity) {
            return;
        }
        if !self.shared.api_tokens().owns_live(&identity.id, &id) {
            self.reply(
                rid,
                ServerMessage::error(ErrorCode::NotFound, "no such token of yours"),
            );
            return;
        }
        let saved = self
            .shared
            .store
            .revoke_api_token(id.clone(), identity.id.clone())
            .await;
        if let Err(e) = saved {
            tracing::error!(error = %e, "revoking an API token failed");
            self.reply(
                rid,
                ServerMessage::error(ErrorCode::Internal, "could not save the revocation"),
            );
            return;
        }
        self.shared.api_tokens().revoke(&identity.id, &id);
        self.shared.tell_nodes(PlayerNews::ApiTokenRevoked {
            player_id: identity.id.clone(),
            id,
        });
        self.reply(rid, ServerMessage::Ok);
    }
}
