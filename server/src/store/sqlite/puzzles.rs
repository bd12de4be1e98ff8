//! The puzzles' statements on SQLite: keeping those found, a player's
//! answer with both ratings' move, and the reads that choose a puzzle.

use rusqlite::{Connection, OptionalExtension, params};
use skillratings::glicko2::Glicko2Rating;
use tabula_shared::protocol::RatingChange;
use tabula_shared::seat::Seat;

use super::Sqlite;
use super::apply::{load_rating, put_rating};
use crate::store::StoreError;
use crate::store::ratings::{self, PUZZLE_POOL};
use crate::store::rows::{PuzzleListing, PuzzleRow};

/// Keeps `rows`; one already kept (the same position) stays as it was.
pub(super) fn save(conn: &Connection, rows: &[PuzzleRow]) -> rusqlite::Result<()> {
    let fresh = Glicko2Rating::default();
    let mut insert = conn.prepare_cached(
        "INSERT OR IGNORE INTO puzzles
         (id, theme, body, rating, deviation, volatility, plays, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, ?7)",
    )?;
    for r in rows {
        insert.execute(params![
            r.id,
            r.theme,
            r.body,
            fresh.rating,
            fresh.deviation,
            fresh.volatility,
            r.created_at
        ])?;
    }
    Ok(())
}

/// A rating as the columns hold it.
fn glicko(r: &rusqlite::Row<'_>) -> rusqlite::Result<Glicko2Rating> {
    Ok(Glicko2Rating {
        rating: r.get(0)?,
        deviation: r.get(1)?,
        volatility: r.get(2)?,
    })
}

/// Records an answer; the first of `player_id` to `puzzle_id` moves both
/// ratings. Returns the player's move (none for a later answer, or an
/// unknown puzzle).
pub(super) fn answer(
    conn: &Connection,
    player_id: &str,
    puzzle_id: &str,
    correct: bool,
    at: i64,
) -> rusqlite::Result<Vec<RatingChange>> {
    let puzzle = conn
        .prepare_cached("SELECT rating, deviation, volatility FROM puzzles WHERE id = ?1")?
        .query_row(params![puzzle_id], glicko)
        .optional()?;
    let Some(puzzle) = puzzle else {
        return Ok(Vec::new());
    };
    let first = conn
        .prepare_cached(
            "INSERT OR IGNORE INTO puzzle_answers (player_id, puzzle_id, correct, at)
             VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![player_id, puzzle_id, correct, at])?
        == 1;
    if !first {
        return Ok(Vec::new());
    }
    let player = load_rating(conn, player_id, PUZZLE_POOL)?;
    let [p, z] = ratings::rate_puzzle(player, puzzle, correct);
    put_rating(conn, player_id, PUZZLE_POOL, &p)?;
    conn.prepare_cached(
        "UPDATE puzzles SET rating = ?2, deviation = ?3, volatility = ?4, plays = plays + 1
         WHERE id = ?1",
    )?
    .execute(params![puzzle_id, z.rating, z.deviation, z.volatility])?;
    Ok(vec![ratings::change(Seat::First, player_id, &player, &p)])
}

/// A puzzle row read back.
fn listing(r: &rusqlite::Row<'_>) -> rusqlite::Result<PuzzleListing> {
    Ok(PuzzleListing {
        body: r.get(0)?,
        rating: r.get(1)?,
        plays: r.get(2)?,
    })
}

impl Sqlite {
    /// See [`crate::store::Store::next_puzzle`].
    pub(super) async fn next_puzzle(
        &self,
        player_id: String,
        theme: Option<String>,
    ) -> Result<Option<PuzzleListing>, StoreError> {
        self.read(move |conn| {
            let rating: f64 = conn
                .prepare_cached("SELECT rating FROM ratings WHERE player_id = ?1 AND kind = ?2")?
                .query_row(params![player_id, PUZZLE_POOL], |r| r.get(0))
                .optional()?
                .unwrap_or(Glicko2Rating::default().rating);
            conn.prepare_cached(
                "SELECT body, rating, plays FROM puzzles p
                 WHERE (?2 IS NULL OR theme = ?2)
                   AND NOT EXISTS (SELECT 1 FROM puzzle_answers a
                                   WHERE a.player_id = ?1 AND a.puzzle_id = p.id)
                 ORDER BY abs(rating - ?3), id LIMIT 1",
            )?
            .query_row(params![player_id, theme, rating], listing)
            .optional()
        })
        .await
    }

    /// See [`crate::store::Store::daily_puzzle`].
    pub(super) async fn daily_puzzle(
        &self,
        day: i64,
        day_start_ms: i64,
    ) -> Result<Option<PuzzleListing>, StoreError> {
        self.read(move |conn| {
            let count: i64 = conn
                .prepare_cached("SELECT COUNT(*) FROM puzzles WHERE created_at < ?1")?
                .query_row(params![day_start_ms], |r| r.get(0))?;
            if count == 0 {
                return Ok(None);
            }
            conn.prepare_cached(
                "SELECT body, rating, plays FROM puzzles WHERE created_at < ?1
                 ORDER BY id LIMIT 1 OFFSET ?2",
            )?
            .query_row(params![day_start_ms, day.rem_euclid(count)], listing)
            .optional()
        })
        .await
    }

    /// One puzzle by id.
    pub(super) async fn puzzle(&self, id: String) -> Result<Option<PuzzleListing>, StoreError> {
        self.read(move |conn| {
            conn.prepare_cached("SELECT body, rating, plays FROM puzzles WHERE id = ?1")?
                .query_row(params![id], listing)
                .optional()
        })
        .await
    }

    /// A player's puzzle rating and deviation.
    pub(super) async fn puzzle_rating(
        &self,
        player_id: String,
    ) -> Result<Option<(f64, f64)>, StoreError> {
        self.read(move |conn| {
            conn.prepare_cached(
                "SELECT rating, deviation FROM ratings WHERE player_id = ?1 AND kind = ?2",
            )?
            .query_row(params![player_id, PUZZLE_POOL], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()
        })
        .await
    }
}
