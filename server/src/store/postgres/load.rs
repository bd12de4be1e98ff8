//! The restart load from PostgreSQL: registered players, accounts, API
//! tokens, and each saved room with the actions appended after its last
//! full save (as the SQLite backend's load). Guests long gone are forgotten
//! first.

use tokio_postgres::Client;

use crate::store::rows::{AccountRow, ApiTokenRow, AppendedAction, Loaded, PlayerRow};

/// How long a guest with no finished game and no seat is remembered after
/// its last hello: 30 days.
pub(super) const GUEST_TTL_MS: i64 = 30 * 24 * 3600 * 1000;

/// Forgets guests last seen before `cutoff_ms` that have no account, no
/// finished game and no seat in a saved room; returns how many.
pub(super) async fn forget_old_guests(
    client: &Client,
    cutoff_ms: i64,
) -> Result<u64, tokio_postgres::Error> {
    client
        .execute(
            "DELETE FROM players WHERE seen_at < $1
               AND id NOT IN (SELECT player_id FROM accounts)
               AND id NOT IN (SELECT player_id FROM game_players)
               AND id NOT IN (SELECT v #>> '{}' FROM rooms r,
                                  jsonb_path_query(r.state::jsonb, '$.seats[*].id') v
                              WHERE jsonb_typeof(v) = 'string')",
            &[&cutoff_ms],
        )
        .await
}

/// Reads the registered players, the accounts, the API tokens and every
/// saved room.
pub(super) async fn load(client: &Client) -> Result<Loaded, tokio_postgres::Error> {
    let players = client
        .query(
            "SELECT id, token, name FROM players WHERE id IN (SELECT player_id FROM accounts)",
            &[],
        )
        .await?
        .into_iter()
        .map(|r| PlayerRow {
            id: r.get(0),
            token: r.get(1),
            name: r.get(2),
        })
        .collect();
    let accounts = client
        .query("SELECT player_id, name, hash FROM accounts", &[])
        .await?
        .into_iter()
        .map(|r| AccountRow {
            player_id: r.get(0),
            name: r.get(1),
            hash: r.get(2),
        })
        .collect();
    let api_tokens = client
        .query(
            "SELECT id, player_id, label, hash, created_at, revoked FROM api_tokens
             ORDER BY created_at",
            &[],
        )
        .await?
        .into_iter()
        .map(|r| ApiTokenRow {
            id: r.get(0),
            player_id: r.get(1),
            label: r.get(2),
            hash: r.get(3),
            created_at: r.get(4),
            revoked: r.get(5),
        })
        .collect();
    let rooms = load_rooms(client, None).await?;
    let tournaments = client
        .query("SELECT id, state FROM tournaments ORDER BY id", &[])
        .await?
        .into_iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    Ok(Loaded {
        players,
        accounts,
        api_tokens,
        rooms,
        tournaments,
    })
}

/// A saved room as the restart reads it: its id, its last full save, and
/// the actions appended after it.
pub(super) type SavedRoomRows = (String, String, Vec<AppendedAction>);

/// Reads the saved rooms `only` names (every room when `None`).
pub(super) async fn load_rooms(
    client: &Client,
    only: Option<&[String]>,
) -> Result<Vec<SavedRoomRows>, tokio_postgres::Error> {
    let all = only.is_none();
    let ids: Vec<String> = only.map(<[String]>::to_vec).unwrap_or_default();
    let mut rooms = Vec::new();
    let mut index = std::collections::HashMap::new();
    for r in client
        .query(
            "SELECT id, state FROM rooms WHERE $1 OR id = ANY($2)",
            &[&all, &ids],
        )
        .await?
    {
        let id: String = r.get(0);
        index.insert(id.clone(), rooms.len());
        rooms.push((id, r.get::<_, String>(1), Vec::new()));
    }
    let actions = client
        .query(
            "SELECT room_id, idx, action, seq, clock FROM room_actions
             WHERE $1 OR room_id = ANY($2) ORDER BY room_id, idx",
            &[&all, &ids],
        )
        .await?;
    for r in actions {
        let room_id: String = r.get(0);
        let Some(&at) = index.get(&room_id) else {
            continue;
        };
        rooms[at].2.push(AppendedAction {
            room_id,
            index: r.get::<_, i64>(1) as u64,
            action: r.get(2),
            seq: r.get::<_, i64>(3) as u64,
            clock: r.get(4),
        });
    }
    Ok(rooms)
}
