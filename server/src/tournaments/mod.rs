//! Tournaments: Swiss events, round robins, knockouts and arenas. Each
//! runs as one actor task (`actor.rs`) that owns its [`Tournament`]
//! (`event.rs`), saves it whole after every change before telling anyone,
//! and makes an ordinary room for every game it pairs.

mod actor;
mod event;

use std::sync::Arc;

use rand::RngExt;
use tabula_shared::protocol::{ErrorCode, PlayerInfo, TournamentId, TournamentSpec};
use tabula_shared::seat::Seat;

use crate::identity::Identity;
use crate::registry::Shared;
use crate::wall_clock::now_ms;
pub(crate) use event::Refusal;
use event::{Tournament, check_spec};

/// Creates a tournament hosted by `host` and starts its actor; returns its
/// id and, for a private one, its code.
///
/// # Errors
/// `bad_request` for bad settings, `not_registered` for a guest host,
/// `internal` when it could not be saved.
pub(crate) async fn create(
    shared: &Arc<Shared>,
    host: &Identity,
    spec: TournamentSpec,
) -> Result<(TournamentId, Option<String>), Refusal> {
    if !host.registered {
        return Err((
            ErrorCode::NotRegistered,
            "only registered players can host a tournament; register or sign in first".into(),
        ));
    }
    if shared.nodes.is_some() {
        // Its actor would run on this node only, and a restart of every
        // node would run it on each: refused until events take leases.
        return Err((
            ErrorCode::BadRequest,
            "tournaments run on a server alone for now, and this server is a node of a cluster"
                .into(),
        ));
    }
    check_spec(&spec)?;
    if let Some(at) = spec.starts_at {
        let now = now_ms();
        if at < now - 60_000 || at > now + 30 * 24 * 3_600_000 {
            return Err((
                ErrorCode::BadRequest,
                "starts_at: from now to 30 days ahead (Unix ms)".into(),
            ));
        }
    }
    let id = format!("t-{}", &uuid::Uuid::new_v4().simple().to_string()[..10]);
    let (code, initial) = {
        let mut rng = rand::rng();
        let code = spec.private.then(|| {
            const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
            (0..8)
                .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
                .collect::<String>()
        });
        let initial = if rng.random_range(0..2) == 0 {
            Seat::First
        } else {
            Seat::Second
        };
        (code, initial)
    };
    let host = PlayerInfo {
        id: host.id.clone(),
        name: host.name.clone(),
        ai: None,
        bot: host.bot,
    };
    let tournament = Tournament::new(id.clone(), spec, host, code.clone(), now_ms(), initial);
    let state = serde_json::to_string(&tournament).expect("a tournament encodes");
    shared
        .store
        .save_tournament(id.clone(), state)
        .await
        .map_err(|e| {
            (
                ErrorCode::Internal,
                format!("the tournament was not saved: {e}"),
            )
        })?;
    actor::spawn(shared.clone(), tournament);
    Ok((id, code))
}

/// Brings back the tournaments saved before a restart (finished ones are
/// listed, for their crosstables), and returns how many.
pub(crate) fn restore(shared: &Arc<Shared>, saved: &[(String, String)]) -> usize {
    if shared.nodes.is_some() && !saved.is_empty() {
        // Every node would run each one (see `create`).
        tracing::warn!(
            tournaments = saved.len(),
            "tournaments saved by a server alone are not run on a cluster"
        );
        return 0;
    }
    let mut restored = 0;
    for (id, state) in saved {
        match serde_json::from_str::<Tournament>(state) {
            Ok(t) => {
                actor::spawn(shared.clone(), t);
                restored += 1;
            }
            Err(e) => {
                tracing::error!(tournament = %id, error = %e, "could not restore a tournament")
            }
        }
    }
    restored
}
