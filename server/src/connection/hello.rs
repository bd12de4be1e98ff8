//! Saying who you are: `hello` (as a guest, with a resume token, or signed
//! in to an account), `register`, and the limits on guessing passwords.

use std::sync::Arc;

use tabula_shared::names::validate_name;
use tabula_shared::protocol::{ClientMessage, ErrorCode, PROTOCOL_VERSION, ServerMessage};

use super::Handler;
use crate::accounts;
use crate::address_limits::Limited;
use crate::identity::Identity;
use crate::nodes::PlayerNews;
use crate::registry::Account;
use crate::store::{AccountRow, PlayerRow, StoreError};

impl Handler {
    /// `register`: the current name becomes an account with this password.
    pub(super) async fn register(
        &mut self,
        rid: Option<u64>,
        identity: Arc<Identity>,
        password: String,
    ) {
        if identity.registered {
            self.reply(
                rid,
                ServerMessage::error(ErrorCode::AlreadyRegistered, "you are already registered"),
            );
            return;
        }
        if !accounts::PASSWORD_CHARS.contains(&password.chars().count()) {
            self.reply(
                rid,
                ServerMessage::error(
                    ErrorCode::WeakPassword,
                    "a password has 8 to 128 characters",
                ),
            );
            return;
        }
        if self.shared.account_like(&identity.name).is_some() {
            self.reply(rid, name_taken(&identity.name));
            return;
        }
        let Some(hash) = accounts::hash(password).await else {
            self.reply(
                rid,
                ServerMessage::error(ErrorCode::Internal, "could not hash the password"),
            );
            return;
        };
        let account = Account {
            player_id: identity.id.clone(),
            name: identity.name.clone(),
            hash,
        };
        // The name may have been taken while hashing.
        if !self.shared.reserve(account.clone()) {
            self.reply(rid, name_taken(&identity.name));
            return;
        }
        let row = AccountRow {
            player_id: account.player_id.clone(),
            name: account.name.clone(),
            hash: account.hash.clone(),
        };
        if let Err(e) = self.shared.store.save_account(row).await {
            tracing::error!(error = %e, "saving an account failed");
            self.shared.unreserve(&identity.name);
            self.reply(
                rid,
                ServerMessage::error(ErrorCode::Internal, "could not save the account"),
            );
            return;
        }
        let registered = Arc::new(Identity {
            registered: true,
            ..(*identity).clone()
        });
        self.shared.put_identity(registered.clone());
        self.shared
            .tell_nodes(PlayerNews::Registered(account, (*registered).clone()));
        self.identity = Some(registered);
        self.reply(
            rid,
            ServerMessage::Registered {
                name: identity.name.clone(),
            },
        );
    }

    /// Signs in to the account named `name`, with the per-connection and
    /// per-name limits on failures. Wrong names and wrong passwords look the same.
    async fn sign_in(
        &mut self,
        rid: Option<u64>,
        name: &str,
        password: String,
    ) -> Option<Arc<Identity>> {
        if !self.sign_in_failures.allowed() || !self.shared.sign_in_allowed(self.addr, name) {
            self.reply(
                rid,
                ServerMessage::error(
                    ErrorCode::RateLimited,
                    "too many failed sign-ins; wait a minute",
                ),
            );
            return None;
        }
        // Counted before hashing: many connections from one address cannot
        // keep the hash workers busy for everyone else.
        if !self.shared.addresses.take(self.addr, Limited::SignIn) {
            self.reply(
                rid,
                ServerMessage::error(ErrorCode::RateLimited, Limited::SignIn.refusal()),
            );
            return None;
        }
        let account = self.shared.account(name);
        let hash = account.as_ref().map(|a| a.hash.clone());
        let known = account
            .as_ref()
            .and_then(|a| self.shared.identity_by_id(&a.player_id));
        if accounts::verify(password, hash).await
            && let (Some(account), Some(known)) = (account, known)
        {
            return Some(Arc::new(Identity {
                bot: self.shared.api_tokens().is_bot(&known.id),
                id: known.id.clone(),
                token: known.token.clone(),
                name: account.name,
                registered: true,
            }));
        }
        self.sign_in_failures.fail();
        self.shared.sign_in_failed(self.addr, name);
        self.reply(
            rid,
            ServerMessage::error(ErrorCode::SignInFailed, "wrong name or password"),
        );
        None
    }

    /// Signs in to a bot account with one of its API tokens. Counted
    /// against the address's sign-in limit, like passwords.
    fn sign_in_bot(&mut self, rid: Option<u64>, secret: &str) -> Option<Arc<Identity>> {
        if !self.shared.addresses.take(self.addr, Limited::SignIn) {
            self.reply(
                rid,
                ServerMessage::error(ErrorCode::RateLimited, Limited::SignIn.refusal()),
            );
            return None;
        }
        let player = self.shared.api_tokens().player_of(secret);
        let Some(known) = player.and_then(|id| self.shared.identity_by_id(&id)) else {
            self.reply(
                rid,
                ServerMessage::error(ErrorCode::AuthFailed, "unknown or revoked API token"),
            );
            return None;
        };
        Some(Arc::new(Identity {
            registered: true,
            bot: true,
            ..(*known).clone()
        }))
    }

    pub(super) async fn hello(&mut self, rid: Option<u64>, message: ClientMessage) {
        let ClientMessage::Hello {
            protocol,
            name,
            token,
            password,
            account_password,
            api_token,
        } = message
        else {
            return;
        };
        if protocol != PROTOCOL_VERSION {
            self.reply(
                rid,
                ServerMessage::error(
                    ErrorCode::UnsupportedVersion,
                    format!("this server speaks protocol {PROTOCOL_VERSION}, not {protocol}"),
                ),
            );
            return;
        }
        if self.shared.config.password.is_some()
            && !self
                .shared
                .addresses
                .allowed(self.addr, Limited::ServerPassword)
        {
            self.reply(
                rid,
                ServerMessage::error(ErrorCode::RateLimited, Limited::ServerPassword.refusal()),
            );
            return;
        }
        if let Some(expected) = &self.shared.config.password
            && password.as_deref() != Some(expected.as_str())
        {
            self.shared
                .addresses
                .count(self.addr, Limited::ServerPassword);
            self.reply(
                rid,
                ServerMessage::error(ErrorCode::AuthFailed, "wrong server password"),
            );
            return;
        }
        let name = match validate_name(&name) {
            Ok(name) => name,
            Err(why) => {
                self.reply(rid, ServerMessage::error(ErrorCode::InvalidName, why));
                return;
            }
        };
        let known = match token {
            Some(token) => match self.known_player(token).await {
                Ok(Some(known)) => Some(known),
                Ok(None) => {
                    self.reply(
                        rid,
                        ServerMessage::error(ErrorCode::AuthFailed, "unknown resume token"),
                    );
                    return;
                }
                Err(e) => {
                    tracing::error!(error = %e, "looking up a player failed");
                    self.reply(
                        rid,
                        ServerMessage::error(
                            ErrorCode::Internal,
                            "the server could not read its database",
                        ),
                    );
                    return;
                }
            },
            None => None,
        };
        let identity = if let Some(secret) = api_token {
            match self.sign_in_bot(rid, &secret) {
                Some(identity) => identity,
                None => return,
            }
        } else if let Some(account_password) = account_password {
            match self.sign_in(rid, &name, account_password).await {
                Some(identity) => identity,
                None => return,
            }
        } else if let Some(known) = known.clone().filter(|k| k.registered) {
            // A registered player's token: the account's name, whatever was typed.
            known
        } else if self
            .shared
            .account_like(&name)
            .is_some_and(|a| known.as_ref().is_none_or(|k| k.id != a.player_id))
        {
            self.reply(rid, name_taken(&name));
            return;
        } else {
            match known {
                Some(known) => Arc::new(Identity {
                    id: known.id.clone(),
                    token: known.token.clone(),
                    name,
                    registered: false,
                    bot: false,
                }),
                None if !self.shared.addresses.take(self.addr, Limited::NewPlayer) => {
                    self.reply(
                        rid,
                        ServerMessage::error(ErrorCode::RateLimited, Limited::NewPlayer.refusal()),
                    );
                    return;
                }
                None => Arc::new(Identity {
                    id: format!("p-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]),
                    token: uuid::Uuid::new_v4().simple().to_string(),
                    name,
                    registered: false,
                    bot: false,
                }),
            }
        };
        let row = PlayerRow {
            id: identity.id.clone(),
            token: identity.token.clone(),
            name: identity.name.clone(),
        };
        // Saved, then told: a token handed out is one a restart still
        // knows. It is also queued before anything this player does next
        // (a room it creates is saved after its player).
        if let Err(e) = self.shared.store.save_player(row).await {
            tracing::error!(error = %e, "saving a player failed");
            self.reply(
                rid,
                ServerMessage::error(
                    ErrorCode::Internal,
                    "the server could not save your player; try again later",
                ),
            );
            return;
        }
        self.shared.put_identity(identity.clone());
        let rooms = self.shared.lobby.seated_rooms(&identity.id);
        self.reply(
            rid,
            ServerMessage::Welcome {
                protocol: PROTOCOL_VERSION,
                player_id: identity.id.clone(),
                name: identity.name.clone(),
                token: identity.token.clone(),
                rooms,
                registered: identity.registered,
                bot: identity.bot,
                engines: self
                    .shared
                    .config
                    .engines
                    .iter()
                    .map(|e| e.info())
                    .collect(),
            },
        );
        self.identity = Some(identity);
    }

    /// The player whose token this is: from memory, or for a guest coming
    /// back, from the store (guests are not kept in memory between visits).
    async fn known_player(&self, token: String) -> Result<Option<Arc<Identity>>, StoreError> {
        if let Some(known) = self.shared.identity_by_token(&token) {
            return Ok(Some(known));
        }
        let row = self.shared.store.player_by_token(token).await?;
        Ok(row.map(|row| {
            // Registered players are always in memory: this is a guest.
            Arc::new(Identity {
                id: row.id,
                token: row.token,
                name: row.name,
                registered: false,
                bot: false,
            })
        }))
    }
}

/// The error for a name reserved by someone else's account.
fn name_taken(name: &str) -> ServerMessage {
    ServerMessage::error(
        ErrorCode::NameTaken,
        format!("{name:?} is a registered name; sign in with its password or pick another name"),
    )
}
