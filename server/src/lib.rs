//! `tabula-server`: the WebSocket server that hosts Gomoku and Backgammon.
//!
//! - [`run`] serves a bound listener until `shutdown` resolves; `main.rs`
//!   passes ctrl-c, tests pass what they like. The desktop client calls its
//!   two halves, [`Server::open`] and [`Server::serve`], to report a data
//!   directory it cannot use before it listens.
//! - `connection` owns one socket each; `room` runs one actor per room,
//!   reached through a `handle`; `lobby` lists the rooms and feeds their
//!   changes to watchers; `registry` holds the players, their accounts and
//!   the lobby; `store` is the SQLite file.
//! - The AI players live in the `tabula-ai` crate; rooms run them on the
//!   blocking pool. `engines` runs the host's external engines.

mod accounts;
mod address_limits;
mod address_slots;
mod analyses;
mod api_tokens;
mod backlogs;
mod challenges;
mod cluster;
mod config;
mod connection;
pub mod engines;
mod handle;
mod http;
mod identity;
mod lobby;
mod log_filter;
mod nodes;
mod outlet;
mod puzzles;
mod registry;
mod rollouts;
mod room;
mod store;
mod studies;
mod thinking;
mod tournament_desk;
mod tournaments;
mod wall_clock;
pub mod web_client;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{Semaphore, oneshot, watch};

pub use config::{Config, default_analysis_workers};
pub use log_filter::log_filter;
pub use store::{StoreError, read_finished_games, read_saved_room};

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The data directory or database could not be opened.
    #[error("store: {0}")]
    Store(#[from] StoreError),
    /// The cluster's Redis could not be reached.
    #[error("cluster: {0}")]
    Cluster(String),
    /// The Backgammon Expert's embedded network weights failed their check.
    #[error("backgammon expert weights: {0}")]
    Weights(String),
}

use crate::handle::RoomCommand;
use crate::registry::Shared;

/// A server with its data loaded and its saved rooms running again, not yet
/// listening: [`Server::open`], then [`Server::serve`]. ([`run`] does both.)
/// Opening first lets the desktop client report a data directory it cannot
/// use before it tells anyone where to connect.
pub struct Server {
    shared: Arc<Shared>,
    /// This node's part of a cluster (`--redis`).
    cluster: Option<Arc<cluster::Cluster>>,
    restored: usize,
}

impl Server {
    /// Checks the AI weights, opens the data directory and restores every
    /// saved room.
    ///
    /// # Errors
    /// When the data directory or database cannot be opened (or another
    /// server still uses it after `config.lock_wait`), or the embedded AI
    /// weights fail their check (the server never runs a weaker AI under
    /// the Expert's name).
    pub async fn open(config: Config) -> Result<Server, ServerError> {
        tabula_ai::backgammon::expert_network().map_err(|e| ServerError::Weights(e.to_string()))?;
        tabula_ai::backgammon::ladder_network().map_err(|e| ServerError::Weights(e.to_string()))?;
        // Off the runtime: it may wait for a server still shutting down on
        // the same directory (a restart) to let go of it.
        let dir = config.data_dir.clone();
        let wait = config.lock_wait;
        let cluster = match &config.redis {
            Some(url) => Some(Arc::new(
                cluster::Cluster::connect(url, config.lease)
                    .await
                    .map_err(ServerError::Cluster)?,
            )),
            None => None,
        };
        let (mut store, loaded) = match &config.database {
            Some(url) => {
                let node = cluster.as_ref().map(|c| c.node.as_str());
                store::Store::connect(url, wait, node).await?
            }
            None if cluster.is_some() => return Err(StoreError::NoCluster.into()),
            None => tokio::task::spawn_blocking(move || store::Store::open(&dir, wait))
                .await
                .map_err(|e| StoreError::Io(std::io::Error::other(e)))??,
        };
        store.set_answer_within(config.store_timeout);
        let nodes = cluster.clone().map(|c| c as Arc<dyn nodes::Nodes>);
        let shared = Arc::new(Shared::new(
            config,
            store,
            nodes,
            loaded.players,
            loaded.accounts,
            loaded.api_tokens,
        ));
        // The built-in puzzles, queued before any player's first write.
        if shared.config.built_in_puzzles {
            let seeded = shared.puzzles.seed();
            tokio::spawn(async move {
                if let Err(e) = seeded.await {
                    tracing::warn!(error = %e, "the built-in puzzles were not kept");
                }
            });
        }
        // Before the rooms: a room that ended just before the restart
        // reports to its tournament as it comes back.
        let tournaments = tournaments::restore(&shared, &loaded.tournaments);
        if tournaments > 0 {
            tracing::info!(tournaments, "tournaments restored");
        }
        let mut restored = 0;
        for (id, state, appended) in &loaded.rooms {
            match room::restore(&shared, state, appended) {
                Ok(_) => restored += 1,
                Err(e) => tracing::error!(room = %id, error = %e, "could not restore a room"),
            }
        }
        if let Some(cluster) = &cluster {
            // Started first, so that the other nodes hear of the rooms it
            // claims: those no live node holds (all of them, for the first
            // node of a cluster).
            cluster::Cluster::start(&shared, cluster.clone());
            restored += cluster::claim(&shared, cluster).await;
        }
        Ok(Server {
            shared,
            cluster,
            restored,
        })
    }

    /// Serves on `listener` until `shutdown` completes, then stops
    /// accepting, saves every room, tells every client, and returns.
    pub async fn serve(self, listener: TcpListener, shutdown: impl Future) {
        let Server {
            shared,
            cluster,
            restored,
        } = self;
        if let Ok(addr) = listener.local_addr() {
            tracing::info!(%addr, restored, "tabula server listening");
        }
        let (stop_tx, stop_rx) = watch::channel(false);
        let limit = Arc::new(Semaphore::new(shared.config.max_connections));
        tokio::pin!(shutdown);
        loop {
            tokio::select! {
                accepted = listener.accept() => {
                    let (stream, peer) = match accepted {
                        Ok(pair) => pair,
                        Err(e) => {
                            // Out of file descriptors and the like: wait a moment and go on.
                            tracing::warn!(error = %e, "accept failed");
                            tokio::time::sleep(Duration::from_millis(50)).await;
                            continue;
                        }
                    };
                    // A proxy's connections are counted by the client address
                    // it names, once the request head is read.
                    let slot = if shared.config.trusted_proxies.contains(&peer.ip()) {
                        None
                    } else {
                        let Some(slot) = shared.connection_slots.take(peer.ip()) else {
                            tracing::debug!(%peer, "connections per address reached; refusing");
                            drop(stream);
                            continue;
                        };
                        Some(slot)
                    };
                    let Ok(permit) = limit.clone().try_acquire_owned() else {
                        tracing::warn!("connection limit reached; refusing");
                        drop(stream);
                        continue;
                    };
                    let shared = shared.clone();
                    let stop = stop_rx.clone();
                    tokio::spawn(async move {
                        connection::serve(shared, stream, slot, stop).await;
                        drop(permit);
                    });
                }
                _ = &mut shutdown => break,
            }
        }
        tracing::info!("shutting down: saving rooms and telling clients");
        drop(listener);
        let _ = stop_tx.send(true);
        if let Some(cluster) = &cluster {
            // No more renewing or claiming: the rooms stop here now.
            cluster.stop_holding().await;
        }
        let mut waits = Vec::new();
        for handle in shared.lobby.all_rooms() {
            let (done, wait) = oneshot::channel();
            if handle.send(RoomCommand::Shutdown { done }).await.is_ok() {
                waits.push(wait);
            }
        }
        for wait in waits {
            let _ = tokio::time::timeout(Duration::from_secs(5), wait).await;
        }
        if let Some(cluster) = &cluster {
            // Saved and stopped: the other nodes take the rooms over now.
            cluster.leave(&shared).await;
        }
        // Give connections a moment to send their goodbyes.
        let _ = tokio::time::timeout(Duration::from_secs(2), async {
            while limit.available_permits() < shared.config.max_connections {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await;
        // Everything saved above is committed, and the data directory is free
        // for the next server (a restart in the same process, say).
        shared.store.close().await;
    }
}

/// Serves Tabula on `listener` until `shutdown` completes, then stops
/// accepting, saves every room, tells every client, and returns.
///
/// # Errors
/// As [`Server::open`].
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future,
) -> Result<(), ServerError> {
    Server::open(config).await?.serve(listener, shutdown).await;
    Ok(())
}
