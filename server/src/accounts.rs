//! Password hashing for registered accounts: argon2id with the `argon2`
//! crate's defaults (19 MiB, 2 passes), run on the blocking pool so a sign-in
//! never stalls the runtime. At most [`AT_ONCE`] hashes run at a time, so a
//! flood of sign-ins from many connections queues instead of taking every
//! blocking thread and 19 MiB each. Passwords never leave this module except
//! as a PHC hash string, and nothing here logs them.

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use tokio::sync::Semaphore;

/// A registered account, as the registry keeps it for sign-in (and the nodes of a cluster tell each other).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Account {
    /// The player id it belongs to.
    pub player_id: String,
    /// The reserved name, as registered.
    pub name: String,
    /// The argon2id PHC string.
    pub hash: String,
}

/// How many argon2 computations may run at once.
pub const AT_ONCE: usize = 2;

static HASHING: Semaphore = Semaphore::const_new(AT_ONCE);

/// Runs `f` on the blocking pool once a hashing permit is free.
async fn limited<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let _permit = HASHING.acquire().await.ok()?;
    tokio::task::spawn_blocking(f).await.ok()
}

/// The accepted password lengths, in characters.
pub const PASSWORD_CHARS: std::ops::RangeInclusive<usize> = 8..=128;

/// A hash that no password matches, verified against when a name has no
/// account, so that a wrong name costs the same time as a wrong password.
const DUMMY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$Jm1xwCOhTgXhEz6VfQ5wvUbSeBkdCXs0dmbHyfJ3fVo";

/// Hashes a new password into a PHC string.
pub async fn hash(password: String) -> Option<String> {
    limited(move || {
        Argon2::default()
            .hash_password(password.as_bytes())
            .ok()
            .map(|h| h.to_string())
    })
    .await
    .flatten()
}

/// Whether `password` matches the PHC string `hash` (or, with no hash, spends
/// the same effort and says no).
pub async fn verify(password: String, hash: Option<String>) -> bool {
    limited(move || {
        let known = hash.is_some();
        let hash = hash.unwrap_or_else(|| DUMMY_HASH.to_string());
        let Ok(parsed) = PasswordHash::new(&hash) else {
            return false;
        };
        let ok = Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok();
        ok && known
    })
    .await
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_verifies_its_password_only() {
        let h = hash("correct horse".into()).await.expect("hashes");
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(!h.contains("correct horse"));
        assert!(verify("correct horse".into(), Some(h.clone())).await);
        assert!(!verify("wrong horse".into(), Some(h)).await);
        assert!(!verify("correct horse".into(), None).await);
        assert!(
            PasswordHash::new(DUMMY_HASH).is_ok(),
            "the dummy hash parses"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn many_sign_ins_at_once_queue_for_the_permits_and_all_finish() {
        let h = hash("correct horse".into()).await.expect("hashes");
        let tries: Vec<_> = (0..8)
            .map(|i| {
                let h = h.clone();
                let password = if i % 2 == 0 { "correct horse" } else { "wrong" };
                tokio::spawn(verify(password.into(), Some(h)))
            })
            .collect();
        for (i, t) in tries.into_iter().enumerate() {
            assert_eq!(t.await.expect("joins"), i % 2 == 0);
        }
    }
}
