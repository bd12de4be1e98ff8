//! The readers' connection and the queries it answers (a player's games,
//! one game, the leaderboards, the dice): a connection of their own, so
//! that a slow read never holds up a commit of moves.

use std::sync::Arc;

use tabula_shared::protocol::{
    DiceStatsReport, FinishedGame as GameView, GameKind, GameSummary, LeaderboardEntry,
    LeaderboardPeriod,
};
use tokio_postgres::Client;

use super::{Postgres, connect};
use crate::store::StoreError;
use crate::store::rows::PlayerRow;
use crate::store::views::{
    GameColumns, RankedColumns, WEEK_MS, game_summary, kind_name, leaderboard_entry, rating_pool,
    tally_dice,
};

/// The readers' connection, made when first needed and again after it broke.
pub(super) struct Reader {
    url: String,
    client: tokio::sync::Mutex<Option<Arc<Client>>>,
}

impl Reader {
    pub(super) fn new(url: String) -> Reader {
        Reader {
            url,
            client: Default::default(),
        }
    }

    /// The open connection (queries on it run side by side, pipelined).
    async fn client(&self) -> Result<Arc<Client>, tokio_postgres::Error> {
        let mut held = self.client.lock().await;
        if let Some(client) = held.as_ref().filter(|c| !c.is_closed()) {
            return Ok(client.clone());
        }
        let client = Arc::new(connect(&self.url).await?);
        *held = Some(client.clone());
        Ok(client)
    }

    /// Closes the connection.
    pub(super) async fn close(&self) {
        self.client.lock().await.take();
    }
}

/// The columns of a `games` row that [`game_summary`] reads.
const GAME_COLUMNS: &str =
    "g.id, g.options, g.players, g.result, g.record, g.started_at, g.ended_at";

fn game_columns(r: &tokio_postgres::Row) -> GameColumns {
    GameColumns {
        id: r.get(0),
        options: r.get(1),
        players: r.get(2),
        result: r.get(3),
        record: r.get(4),
        started_at: r.get(5),
        ended_at: r.get(6),
    }
}

impl Postgres {
    /// Runs `read` on the readers' connection, within the answer time.
    pub(super) async fn read<T, F>(
        &self,
        read: impl FnOnce(Arc<Client>) -> F,
    ) -> Result<T, StoreError>
    where
        F: Future<Output = Result<T, tokio_postgres::Error>>,
    {
        let limit = self.answer_within;
        tokio::time::timeout(limit, async {
            let client = self.reader.client().await?;
            read(client).await
        })
        .await
        .map_err(|_| StoreError::TimedOut(limit))?
        .map_err(StoreError::from)
    }

    /// One page of a player's finished games, newest first, and how many there are.
    pub(in crate::store) async fn list_games(
        &self,
        player_id: String,
        offset: u32,
        limit: u32,
    ) -> Result<(u32, Vec<GameSummary>), StoreError> {
        self.read(|c| async move {
            let total: i64 = c
                .query_one(
                    "SELECT COUNT(*) FROM game_players WHERE player_id = $1",
                    &[&player_id],
                )
                .await?
                .get(0);
            let rows = c
                .query(
                    &format!(
                        "SELECT {GAME_COLUMNS}
                         FROM game_players p JOIN games g ON g.id = p.game_id
                         WHERE p.player_id = $1
                         ORDER BY p.ended_at DESC, g.id DESC LIMIT $2 OFFSET $3"
                    ),
                    &[&player_id, &i64::from(limit), &i64::from(offset)],
                )
                .await?;
            let games = rows
                .iter()
                .filter_map(|r| game_summary(game_columns(r)).map(|(summary, _)| summary))
                .collect();
            Ok((total as u32, games))
        })
        .await
    }

    /// One finished game with its record, if the id is known.
    pub(in crate::store) async fn game(
        &self,
        game_id: String,
    ) -> Result<Option<GameView>, StoreError> {
        self.read(|c| async move {
            let row = c
                .query_opt(
                    &format!("SELECT {GAME_COLUMNS} FROM games g WHERE g.id = $1"),
                    &[&game_id],
                )
                .await?;
            Ok(row
                .and_then(|r| game_summary(game_columns(&r)))
                .map(|(summary, record)| GameView { summary, record }))
        })
        .await
    }

    /// A finished game's saved analysis (JSON), if it has one.
    pub(in crate::store) async fn analysis(
        &self,
        game_id: String,
    ) -> Result<Option<String>, StoreError> {
        self.read(|c| async move {
            Ok(c.query_opt(
                "SELECT analysis FROM analyses WHERE game_id = $1",
                &[&game_id],
            )
            .await?
            .map(|r| r.get(0)))
        })
        .await
    }

    /// The player whose resume token this is, if the store has one.
    pub(in crate::store) async fn player_by_token(
        &self,
        token: String,
    ) -> Result<Option<PlayerRow>, StoreError> {
        self.read(|c| async move {
            Ok(c.query_opt(
                "SELECT id, token, name FROM players WHERE token = $1",
                &[&token],
            )
            .await?
            .map(|r| PlayerRow {
                id: r.get(0),
                token: r.get(1),
                name: r.get(2),
            }))
        })
        .await
    }

    /// The dice of every finished Backgammon game, and those `player_id`
    /// rolled in them.
    pub(in crate::store) async fn dice_stats(
        &self,
        player_id: String,
    ) -> Result<DiceStatsReport, StoreError> {
        self.read(|c| async move {
            let rows = c
                .query(
                    "SELECT id, players, record FROM games WHERE kind = 'backgammon'",
                    &[],
                )
                .await?;
            let mut report = DiceStatsReport::default();
            for r in &rows {
                let (id, players, record): (String, String, String) =
                    (r.get(0), r.get(1), r.get(2));
                tally_dice(&mut report, &id, &players, &record, &player_id);
            }
            Ok(report)
        })
        .await
    }

    /// `player_id`'s rating in `kind`'s pool (the bots' for a bot).
    pub(in crate::store) async fn rating(
        &self,
        player_id: String,
        kind: GameKind,
        bot: bool,
    ) -> Result<Option<f64>, StoreError> {
        self.read(|c| async move {
            let pool = rating_pool(kind_name(kind), bot);
            let row = c
                .query_opt(
                    "SELECT rating FROM ratings WHERE player_id = $1 AND kind = $2",
                    &[&player_id, &pool],
                )
                .await?;
            Ok(row.map(|r| r.get(0)))
        })
        .await
    }

    /// The top 50 of a game's leaderboard.
    pub(in crate::store) async fn leaderboard(
        &self,
        kind: GameKind,
        period: LeaderboardPeriod,
        bots: bool,
        now_ms: i64,
    ) -> Result<Vec<LeaderboardEntry>, StoreError> {
        self.read(|c| async move {
            let pool = rating_pool(kind_name(kind), bots);
            let rows = match period {
                LeaderboardPeriod::AllTime => {
                    c.query(
                        "SELECT r.player_id, a.name, r.rating, r.deviation, r.games::BIGINT,
                                NULL::DOUBLE PRECISION
                         FROM ratings r JOIN accounts a ON a.player_id = r.player_id
                         WHERE r.kind = $1 ORDER BY r.rating DESC, a.name LIMIT 50",
                        &[&pool],
                    )
                    .await?
                }
                LeaderboardPeriod::Week => {
                    c.query(
                        "SELECT h.player_id, a.name, r.rating, r.deviation, COUNT(*),
                                SUM(h.after - h.before) AS gain
                         FROM rating_history h
                         JOIN accounts a ON a.player_id = h.player_id
                         JOIN ratings r ON r.player_id = h.player_id AND r.kind = h.kind
                         WHERE h.kind = $1 AND h.at >= $2
                         GROUP BY h.player_id, a.name, r.rating, r.deviation
                         ORDER BY gain DESC, r.rating DESC LIMIT 50",
                        &[&pool, &(now_ms - WEEK_MS)],
                    )
                    .await?
                }
            };
            Ok(rows
                .iter()
                .enumerate()
                .map(|(rank, r)| {
                    leaderboard_entry(
                        rank,
                        RankedColumns {
                            player_id: r.get(0),
                            name: r.get(1),
                            rating: r.get(2),
                            deviation: r.get(3),
                            games: r.get::<_, i64>(4) as u32,
                            change: r.get(5),
                        },
                    )
                })
                .collect())
        })
        .await
    }
}
