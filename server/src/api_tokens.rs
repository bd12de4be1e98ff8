//! [`ApiTokens`]: the API tokens of bot accounts, kept in memory for
//! sign-in (bots are few) as the store keeps them: a SHA-256 hash of each
//! secret, never the secret itself.

use std::collections::{HashMap, HashSet};

use sha2::{Digest, Sha256};
use tabula_shared::protocol::ApiTokenInfo;

use crate::store::ApiTokenRow;

/// What a secret starts with, so that a leaked one is easy to recognise.
const PREFIX: &str = "tbt_";

/// Every API token, by the hash of its secret, and the bot accounts.
#[derive(Default)]
pub struct ApiTokens {
    /// Each token with the order it was added in (which breaks ties between
    /// tokens made in the same instant, so that a list keeps its order).
    by_hash: HashMap<String, (ApiTokenRow, u64)>,
    added: u64,
    bots: HashSet<String>,
}

/// The stored form of a secret: SHA-256, in hex. The secrets are 244 random
/// bits, so a fast hash is enough (a slow one guards guessable passwords).
pub fn hash(secret: &str) -> String {
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A new secret: the prefix and two random v4 UUIDs (244 random bits).
pub fn new_secret() -> String {
    format!(
        "{PREFIX}{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

impl ApiTokens {
    /// The tokens the store held, oldest first.
    pub fn new(rows: Vec<ApiTokenRow>) -> ApiTokens {
        let mut tokens = ApiTokens::default();
        for row in rows {
            tokens.add(row);
        }
        tokens
    }

    /// Adds a token; its account is a bot account from now on.
    pub fn add(&mut self, row: ApiTokenRow) {
        self.bots.insert(row.player_id.clone());
        self.added += 1;
        self.by_hash.insert(row.hash.clone(), (row, self.added));
    }

    /// The player a secret signs in, unless it is unknown or revoked.
    pub fn player_of(&self, secret: &str) -> Option<String> {
        self.by_hash
            .get(&hash(secret))
            .filter(|(t, _)| !t.revoked)
            .map(|(t, _)| t.player_id.clone())
    }

    /// Whether `player_id` is a bot account.
    pub fn is_bot(&self, player_id: &str) -> bool {
        self.bots.contains(player_id)
    }

    /// A player's tokens, oldest first, without secrets or hashes.
    pub fn list(&self, player_id: &str) -> Vec<ApiTokenInfo> {
        let mut tokens: Vec<(&ApiTokenRow, u64)> = self
            .by_hash
            .values()
            .filter(|(t, _)| t.player_id == player_id)
            .map(|(t, added)| (t, *added))
            .collect();
        tokens.sort_by_key(|&(t, added)| (t.created_at, added));
        tokens
            .into_iter()
            .map(|(t, _)| ApiTokenInfo {
                id: t.id.clone(),
                label: t.label.clone(),
                created_at: t.created_at,
                revoked: t.revoked,
            })
            .collect()
    }

    /// Whether `player_id` owns a token `id` that is not revoked yet.
    pub fn owns_live(&self, player_id: &str, id: &str) -> bool {
        self.by_hash
            .values()
            .any(|(t, _)| t.player_id == player_id && t.id == id && !t.revoked)
    }

    /// Marks the token revoked (once the store has it so).
    pub fn revoke(&mut self, player_id: &str, id: &str) {
        for (t, _) in self.by_hash.values_mut() {
            if t.player_id == player_id && t.id == id {
                t.revoked = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, player: &str, secret: &str) -> ApiTokenRow {
        ApiTokenRow {
            id: id.into(),
            player_id: player.into(),
            label: "engine".into(),
            hash: hash(secret),
            created_at: 1,
            revoked: false,
        }
    }

    #[test]
    fn a_secret_signs_in_until_revoked_and_is_never_kept() {
        let secret = new_secret();
        assert!(secret.starts_with(PREFIX) && secret.len() == PREFIX.len() + 64);
        let mut tokens = ApiTokens::new(vec![row("t1", "p1", &secret)]);
        assert_eq!(tokens.player_of(&secret).as_deref(), Some("p1"));
        assert_eq!(tokens.player_of("tbt_wrong"), None);
        assert!(tokens.is_bot("p1") && !tokens.is_bot("p2"));
        let listed = format!("{:?}", tokens.list("p1"));
        assert!(!listed.contains(&secret) && !listed.contains(&hash(&secret)));
        tokens.revoke("p2", "t1");
        assert!(
            tokens.owns_live("p1", "t1"),
            "another player cannot revoke it"
        );
        tokens.revoke("p1", "t1");
        assert_eq!(tokens.player_of(&secret), None);
        assert!(tokens.is_bot("p1"), "still a bot account");
    }

    /// Tokens made in the same instant are listed in the order they were
    /// made, every time (a tie on the time used to fall to the random ids).
    #[test]
    fn tokens_of_the_same_instant_keep_the_order_they_were_made_in() {
        for k in 0..20 {
            let mut tokens = ApiTokens::default();
            let mut made = Vec::new();
            for j in 0..4 {
                let id = uuid::Uuid::new_v4().to_string();
                tokens.add(row(&id, "p1", &format!("secret {k} {j}")));
                made.push(id);
            }
            let listed: Vec<String> = tokens.list("p1").into_iter().map(|t| t.id).collect();
            assert_eq!(listed, made);
        }
    }
}
