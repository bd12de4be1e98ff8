//! Holding rooms: every third of a lease, a node says it is alive, renews
//! its leases (stopping any room another node took over meanwhile), and
//! claims the rooms whose lease ran out, replaying them from PostgreSQL.

use std::collections::HashSet;
use std::sync::Arc;

use super::wire::News;
use super::{Cluster, forget_silent_nodes};
use crate::handle::RoomCommand;
use crate::registry::Shared;
use crate::room;

/// Claims the rooms free now and runs them here; returns how many.
pub async fn claim(shared: &Arc<Shared>, cluster: &Cluster) -> usize {
    let rows = match shared
        .store
        .claim_rooms(cluster.node.clone(), cluster.lease)
        .await
    {
        Ok(rows) => rows,
        Err(e) => {
            tracing::warn!(error = %e, "could not claim rooms");
            return 0;
        }
    };
    let mut taken = 0;
    for (id, state, appended) in rows {
        if shared.lobby.local_room(&id).is_some() {
            // Its lease ran out while this node still ran it (the database
            // was out of reach): it renewed it just now.
            continue;
        }
        cluster.stop_proxy(&id, Some("this room moved to another server; reconnect"));
        match room::restore(shared, &state, &appended) {
            Ok(_) => taken += 1,
            Err(e) => tracing::error!(room = %id, error = %e, "could not restore a room"),
        }
    }
    if taken > 0 {
        tracing::info!(node = %cluster.node, rooms = taken, "took rooms over");
    }
    taken
}

/// Renews this node's leases; a room whose lease another node holds now
/// stops here without saving (that node runs it).
async fn renew(shared: &Arc<Shared>, cluster: &Cluster) {
    let ours: Vec<String> = shared
        .lobby
        .local_rooms()
        .into_iter()
        .map(|(summary, _)| summary.room_id)
        .collect();
    if ours.is_empty() {
        return;
    }
    let held: HashSet<String> = match shared
        .store
        .renew_leases(cluster.node.clone(), ours.clone(), cluster.lease)
        .await
    {
        Ok(held) => held.into_iter().collect(),
        Err(e) => {
            tracing::warn!(error = %e, "could not renew the rooms' leases");
            return;
        }
    };
    for id in ours.into_iter().filter(|id| !held.contains(id)) {
        tracing::warn!(room = %id, "another server took this room over; stopping it here");
        if let Some(handle) = shared.lobby.local_room(&id) {
            let _ = handle.send(RoomCommand::Release).await;
        }
    }
}

/// The loop, for as long as the server runs.
pub async fn run(shared: Arc<Shared>, cluster: Arc<Cluster>) {
    let tick = cluster.lease / 3;
    loop {
        tokio::select! {
            _ = tokio::time::sleep(tick) => {}
            _ = cluster.claim_now.notified() => {}
        }
        let holding = cluster.holding.lock().await;
        if !*holding {
            return;
        }
        cluster.announce(&News::Beat {
            node: cluster.node.clone(),
        });
        renew(&shared, &cluster).await;
        claim(&shared, &cluster).await;
        drop(holding);
        forget_silent_nodes(&shared, &cluster);
    }
}
