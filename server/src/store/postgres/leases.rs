//! Room leases, for a cluster of nodes on one database: each running room
//! is owned by one node, recorded in `room_leases` with an expiry that the
//! owner renews. A node that dies stops renewing; once its leases run out,
//! another node claims its rooms and replays them from their saved state.
//!
//! Expiries are the database's clock (`now()`), so the nodes' clocks need
//! not agree. The statements run on the readers' connection: they are
//! small, and a lease must not wait behind a batch of moves.

use std::time::Duration;

use super::Postgres;
use super::load::{SavedRoomRows, load_rooms};
use crate::store::StoreError;

/// Forgets the expired leases of rooms that are gone.
const DELETE_EXPIRED_LEASES_OF_NO_ROOM: &str =
    "DELETE FROM room_leases l WHERE l.expires_at < now()
   AND NOT EXISTS (SELECT 1 FROM rooms r WHERE r.id = l.room_id)";

impl Postgres {
    /// Renews `node`'s leases on `rooms` (taking a lease for a room that
    /// has none yet); returns the rooms it holds now. A room missing from
    /// the answer is another node's: its lease ran out and was claimed.
    pub(in crate::store) async fn renew_leases(
        &self,
        node: String,
        rooms: Vec<String>,
        ttl: Duration,
    ) -> Result<Vec<String>, StoreError> {
        let secs = ttl.as_secs_f64();
        self.read(|client| async move {
            let rows = client
                .query(
                    "INSERT INTO room_leases (room_id, node, expires_at)
                     SELECT id, $1, now() + make_interval(secs => $3)
                       FROM unnest($2::text[]) AS id
                     ON CONFLICT (room_id) DO UPDATE SET expires_at = EXCLUDED.expires_at
                       WHERE room_leases.node = EXCLUDED.node
                     RETURNING room_id",
                    &[&node, &rooms, &secs],
                )
                .await?;
            Ok(rows.into_iter().map(|r| r.get(0)).collect())
        })
        .await
    }

    /// Claims for `node` every saved room whose lease ran out or that has
    /// none (its node died, or it was saved before the cluster), and reads
    /// them. Two nodes claiming at once never get the same room: the
    /// conflict clause re-checks the expiry on the locked row.
    pub(in crate::store) async fn claim_rooms(
        &self,
        node: String,
        ttl: Duration,
    ) -> Result<Vec<SavedRoomRows>, StoreError> {
        let secs = ttl.as_secs_f64();
        self.read(|client| async move {
            let claimed: Vec<String> = client
                .query(
                    "INSERT INTO room_leases (room_id, node, expires_at)
                     SELECT r.id, $1, now() + make_interval(secs => $2)
                       FROM rooms r LEFT JOIN room_leases l ON l.room_id = r.id
                      WHERE l.room_id IS NULL OR l.expires_at < now()
                     ON CONFLICT (room_id) DO UPDATE
                       SET node = EXCLUDED.node, expires_at = EXCLUDED.expires_at
                       WHERE room_leases.expires_at < now()
                     RETURNING room_id",
                    &[&node, &secs],
                )
                .await?
                .into_iter()
                .map(|r| r.get(0))
                .collect();
            // Leases of no room: taken for a room whose save never came (its
            // node died in between), or renewed for one that closed meanwhile.
            client
                .execute(DELETE_EXPIRED_LEASES_OF_NO_ROOM, &[])
                .await?;
            if claimed.is_empty() {
                return Ok(Vec::new());
            }
            load_rooms(&client, Some(&claimed)).await
        })
        .await
    }

    /// Lets go of `node`'s leases at once (a graceful stop: the other nodes
    /// take its rooms without waiting for them to run out), and forgets
    /// leases of rooms that closed.
    pub(in crate::store) async fn release_leases(&self, node: String) -> Result<(), StoreError> {
        self.read(|client| async move {
            client
                .execute("DELETE FROM room_leases WHERE node = $1", &[&node])
                .await?;
            client
                .execute(DELETE_EXPIRED_LEASES_OF_NO_ROOM, &[])
                .await?;
            Ok(())
        })
        .await
    }
}
