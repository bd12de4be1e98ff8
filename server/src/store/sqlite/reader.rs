//! The reader: a read-only connection on a thread of its own, and the
//! queries it answers (a player's games, one game, the leaderboards). A slow
//! or flooded read never holds up a commit of moves.

use std::thread;

use rusqlite::{Connection, OptionalExtension, params};
use tabula_shared::protocol::{
    DiceStatsReport, FinishedGame as GameView, GameKind, GameRecord, GameSummary, LeaderboardEntry,
    LeaderboardPeriod,
};
use tokio::sync::{mpsc, oneshot};

use super::Sqlite;
use crate::store::StoreError;
use crate::store::rows::PlayerRow;
use crate::store::views::{
    GameColumns, RankedColumns, WEEK_MS, game_summary, kind_name, leaderboard_entry, rating_pool,
    tally_dice,
};

/// One read, run on the reader's connection.
pub(super) type ReadJob = Box<dyn FnOnce(&Connection) + Send>;

/// Starts the reader thread on `conn`; it runs each job sent to it, in
/// order, until it gets `None` or every sender is gone.
pub(super) fn spawn(conn: Connection) -> std::io::Result<mpsc::UnboundedSender<Option<ReadJob>>> {
    let (reads, mut jobs) = mpsc::unbounded_channel::<Option<ReadJob>>();
    thread::Builder::new()
        .name("tabula-reader".into())
        .spawn(move || {
            while let Some(Some(job)) = jobs.blocking_recv() {
                job(&conn);
            }
        })?;
    Ok(reads)
}

impl Sqlite {
    /// Runs a read on the reader thread; it sees every write committed
    /// before it is queued.
    pub(in crate::store) async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = oneshot::channel();
        let job: ReadJob = Box::new(move |conn| {
            let _ = tx.send(f(conn));
        });
        self.reads.send(Some(job)).map_err(|_| StoreError::Closed)?;
        tokio::time::timeout(self.answer_within, rx)
            .await
            .map_err(|_| StoreError::TimedOut(self.answer_within))?
            .map_err(|_| StoreError::Closed)?
            .map_err(StoreError::Sqlite)
    }

    /// One page of a player's finished games, newest first, and how many there are.
    pub(in crate::store) async fn list_games(
        &self,
        player_id: String,
        offset: u32,
        limit: u32,
    ) -> Result<(u32, Vec<GameSummary>), StoreError> {
        self.read(move |conn| {
            let total: u32 = conn.query_row(
                "SELECT COUNT(*) FROM game_players WHERE player_id = ?1",
                params![player_id],
                |r| r.get(0),
            )?;
            let mut stmt = conn.prepare_cached(
                "SELECT g.id, g.options, g.players, g.result, g.record, g.started_at, g.ended_at
                 FROM game_players p JOIN games g ON g.id = p.game_id
                 WHERE p.player_id = ?1
                 ORDER BY p.ended_at DESC, g.id DESC LIMIT ?2 OFFSET ?3",
            )?;
            let rows = stmt.query_map(params![player_id, limit, offset], game_row)?;
            let games = rows
                .filter_map(|row| row.map(|o| o.map(|(summary, _)| summary)).transpose())
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok((total, games))
        })
        .await
    }

    /// One finished game with its record, if the id is known.
    pub(in crate::store) async fn game(
        &self,
        game_id: String,
    ) -> Result<Option<GameView>, StoreError> {
        self.read(move |conn| {
            let row = conn
                .query_row(
                    "SELECT id, options, players, result, record, started_at, ended_at
                     FROM games WHERE id = ?1",
                    params![game_id],
                    game_row,
                )
                .optional()?;
            Ok(row
                .flatten()
                .map(|(summary, record)| GameView { summary, record }))
        })
        .await
    }

    /// A finished game's saved analysis (JSON), if it has one.
    pub(in crate::store) async fn analysis(
        &self,
        game_id: String,
    ) -> Result<Option<String>, StoreError> {
        self.read(move |conn| {
            conn.query_row(
                "SELECT analysis FROM analyses WHERE game_id = ?1",
                params![game_id],
                |r| r.get(0),
            )
            .optional()
        })
        .await
    }

    /// The player whose resume token this is, if the store has one.
    pub(in crate::store) async fn player_by_token(
        &self,
        token: String,
    ) -> Result<Option<PlayerRow>, StoreError> {
        self.read(move |conn| {
            conn.query_row(
                "SELECT id, token, name FROM players WHERE token = ?1",
                params![token],
                |r| {
                    Ok(PlayerRow {
                        id: r.get(0)?,
                        token: r.get(1)?,
                        name: r.get(2)?,
                    })
                },
            )
            .optional()
        })
        .await
    }

    /// The dice of every finished Backgammon game, and those `player_id`
    /// rolled in them (from the seat they held in each game).
    ///
    /// Counted from the records, one pass over every Backgammon game: a
    /// server's worth of finished games is a few thousand rows, read on the
    /// reader's own thread.
    pub(in crate::store) async fn dice_stats(
        &self,
        player_id: String,
    ) -> Result<DiceStatsReport, StoreError> {
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, players, record FROM games WHERE kind = 'backgammon'",
            )?;
            let mut rows = stmt.query([])?;
            let mut report = DiceStatsReport::default();
            while let Some(r) = rows.next()? {
                let id: String = r.get(0)?;
                let players: String = r.get(1)?;
                let record: String = r.get(2)?;
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
        self.read(move |conn| {
            let pool = rating_pool(kind_name(kind), bot);
            conn.prepare_cached("SELECT rating FROM ratings WHERE player_id = ?1 AND kind = ?2")?
                .query_row(params![player_id, pool], |r| r.get(0))
                .optional()
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
        self.read(move |conn| {
            let kind = rating_pool(kind_name(kind), bots);
            let ranked = |r: &rusqlite::Row<'_>, change: Option<f64>| -> rusqlite::Result<_> {
                Ok(RankedColumns {
                    player_id: r.get(0)?,
                    name: r.get(1)?,
                    rating: r.get(2)?,
                    deviation: r.get(3)?,
                    games: r.get(4)?,
                    change,
                })
            };
            let mut out = Vec::new();
            match period {
                LeaderboardPeriod::AllTime => {
                    let mut stmt = conn.prepare_cached(
                        "SELECT r.player_id, a.name, r.rating, r.deviation, r.games
                         FROM ratings r JOIN accounts a ON a.player_id = r.player_id
                         WHERE r.kind = ?1 ORDER BY r.rating DESC, a.name LIMIT 50",
                    )?;
                    let mut rows = stmt.query(params![kind])?;
                    while let Some(r) = rows.next()? {
                        out.push(leaderboard_entry(out.len(), ranked(r, None)?));
                    }
                }
                LeaderboardPeriod::Week => {
                    let since = now_ms - WEEK_MS;
                    let mut stmt = conn.prepare_cached(
                        "SELECT h.player_id, a.name, r.rating, r.deviation, COUNT(*),
                                SUM(h.after - h.before) AS gain
                         FROM rating_history h
                         JOIN accounts a ON a.player_id = h.player_id
                         JOIN ratings r ON r.player_id = h.player_id AND r.kind = h.kind
                         WHERE h.kind = ?1 AND h.at >= ?2
                         GROUP BY h.player_id ORDER BY gain DESC, r.rating DESC LIMIT 50",
                    )?;
                    let mut rows = stmt.query(params![kind, since])?;
                    while let Some(r) = rows.next()? {
                        let gain: f64 = r.get(5)?;
                        out.push(leaderboard_entry(out.len(), ranked(r, Some(gain))?));
                    }
                }
            }
            Ok(out)
        })
        .await
    }
}

/// Reads one `games` row into a summary and its record; `None` when the
/// stored JSON no longer parses ([`game_summary`]).
fn game_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Option<(GameSummary, GameRecord)>> {
    Ok(game_summary(GameColumns {
        id: r.get(0)?,
        options: r.get(1)?,
        players: r.get(2)?,
        result: r.get(3)?,
        record: r.get(4)?,
        started_at: r.get(5)?,
        ended_at: r.get(6)?,
    }))
}
