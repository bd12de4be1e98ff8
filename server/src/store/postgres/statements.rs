//! [`Statements`]: every statement the writer runs, prepared once per
//! connection (a write is then sent at once, with no round trip to prepare
//! it first, so that the writer can pipeline them).

use tokio_postgres::{Client, Statement};

/// The writer's prepared statements.
pub(super) struct Statements {
    pub(super) player: Statement,
    pub(super) room: Statement,
    pub(super) actions: Statement,
    pub(super) delete_room: Statement,
    pub(super) game: Statement,
    pub(super) game_player: Statement,
    pub(super) rating: Statement,
    pub(super) put_rating: Statement,
    pub(super) rating_history: Statement,
    pub(super) analysis: Statement,
    pub(super) api_token: Statement,
    pub(super) revoke_api_token: Statement,
    pub(super) account: Statement,
    pub(super) tournament: Statement,
}

impl Statements {
    /// Prepares them all on `client`.
    pub(super) async fn prepare(client: &Client) -> Result<Statements, tokio_postgres::Error> {
        Ok(Statements {
            player: client
                .prepare(
                    "INSERT INTO players (id, token, name, seen_at) VALUES ($1, $2, $3, $4)
                     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, seen_at = EXCLUDED.seen_at",
                )
                .await?,
            // One statement each (a data-modifying WITH): the writer pipelines
            // a batch's statements, which PostgreSQL runs in the order sent,
            // and a write of two statements would let the next write's slip
            // between them (a move inserted, then deleted with the old ones).
            room: client
                .prepare(
                    "WITH cleared AS (DELETE FROM room_actions WHERE room_id = $1)
                     INSERT INTO rooms (id, state, updated_at) VALUES ($1, $2, $3)
                     ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state,
                        updated_at = EXCLUDED.updated_at",
                )
                .await?,
            // A run of moves in one statement: the batch's arrays, unnested.
            actions: client
                .prepare(
                    "INSERT INTO room_actions (room_id, idx, action, seq, clock)
                     SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::text[])
                     ON CONFLICT (room_id, idx) DO UPDATE SET action = EXCLUDED.action,
                        seq = EXCLUDED.seq, clock = EXCLUDED.clock",
                )
                .await?,
            tournament: client
                .prepare(
                    "INSERT INTO tournaments (id, state, updated_at) VALUES ($1, $2, $3)
                     ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state,
                        updated_at = EXCLUDED.updated_at",
                )
                .await?,
            delete_room: client
                .prepare(
                    "WITH cleared AS (DELETE FROM room_actions WHERE room_id = $1),
                          unleased AS (DELETE FROM room_leases WHERE room_id = $1
                                       AND node = current_setting('tabula.node', true))
                     DELETE FROM rooms WHERE id = $1",
                )
                .await?,
            game: client
                .prepare(
                    "INSERT INTO games
                     (id, room_id, kind, options, players, record, result, started_at, ended_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                     ON CONFLICT (id) DO UPDATE SET room_id = EXCLUDED.room_id,
                        kind = EXCLUDED.kind, options = EXCLUDED.options,
                        players = EXCLUDED.players, record = EXCLUDED.record,
                        result = EXCLUDED.result, started_at = EXCLUDED.started_at,
                        ended_at = EXCLUDED.ended_at",
                )
                .await?,
            game_player: client
                .prepare(
                    "INSERT INTO game_players (game_id, player_id, ended_at) VALUES ($1, $2, $3)
                     ON CONFLICT DO NOTHING",
                )
                .await?,
            rating: client
                .prepare(
                    "SELECT rating, deviation, volatility FROM ratings
                     WHERE player_id = $1 AND kind = $2",
                )
                .await?,
            put_rating: client
                .prepare(
                    "INSERT INTO ratings (player_id, kind, rating, deviation, volatility, games)
                     VALUES ($1, $2, $3, $4, $5, 1)
                     ON CONFLICT (player_id, kind) DO UPDATE SET rating = EXCLUDED.rating,
                        deviation = EXCLUDED.deviation, volatility = EXCLUDED.volatility,
                        games = ratings.games + 1",
                )
                .await?,
            rating_history: client
                .prepare(
                    "INSERT INTO rating_history (game_id, player_id, kind, before, after, at)
                     VALUES ($1, $2, $3, $4, $5, $6)
                     ON CONFLICT (game_id, player_id) DO UPDATE SET kind = EXCLUDED.kind,
                        before = EXCLUDED.before, after = EXCLUDED.after, at = EXCLUDED.at",
                )
                .await?,
            analysis: client
                .prepare(
                    "INSERT INTO analyses (game_id, analysis, created_at) VALUES ($1, $2, $3)
                     ON CONFLICT DO NOTHING",
                )
                .await?,
            api_token: client
                .prepare(
                    "INSERT INTO api_tokens (id, player_id, label, hash, created_at, revoked)
                     VALUES ($1, $2, $3, $4, $5, FALSE)",
                )
                .await?,
            revoke_api_token: client
                .prepare("UPDATE api_tokens SET revoked = TRUE WHERE id = $1 AND player_id = $2")
                .await?,
            account: client
                .prepare(
                    "INSERT INTO accounts (player_id, name_key, name, hash, created_at)
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .await?,
        })
    }
}
