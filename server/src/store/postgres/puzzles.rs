//! The puzzles' statements on PostgreSQL, as on SQLite: keeping those
//! found, a player's answer with both ratings' move, and the reads that
//! choose a puzzle.

use skillratings::glicko2::Glicko2Rating;
use tabula_shared::protocol::RatingChange;
use tabula_shared::seat::Seat;
use tokio_postgres::Transaction;

use super::Postgres;
use super::statements::Statements;
use crate::store::StoreError;
use crate::store::ratings::{self, PUZZLE_POOL};
use crate::store::rows::{PuzzleListing, PuzzleRow};

/// Keeps `rows`; one already kept (the same position) stays as it was.
pub(super) async fn save(
    tx: &Transaction<'_>,
    rows: &[PuzzleRow],
) -> Result<(), tokio_postgres::Error> {
    let fresh = Glicko2Rating::default();
    let insert = tx
        .prepare(
            "INSERT INTO puzzles (id, theme, body, rating, deviation, volatility, plays, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, 0, $7) ON CONFLICT (id) DO NOTHING",
        )
        .await?;
    for r in rows {
        tx.execute(
            &insert,
            &[
                &r.id,
                &r.theme,
                &r.body,
                &fresh.rating,
                &fresh.deviation,
                &fresh.volatility,
                &r.created_at,
            ],
        )
        .await?;
    }
    Ok(())
}

/// A rating as the columns hold it.
fn glicko(r: &tokio_postgres::Row) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.get(0),
        deviation: r.get(1),
        volatility: r.get(2),
    }
}

/// Records an answer; the first of `player_id` to `puzzle_id` moves both
/// ratings. Returns the player's move (none for a later answer, or an
/// unknown puzzle).
pub(super) async fn answer(
    tx: &Transaction<'_>,
    st: &Statements,
    player_id: &str,
    puzzle_id: &str,
    correct: bool,
    at: i64,
) -> Result<Vec<RatingChange>, tokio_postgres::Error> {
    let puzzle = tx
        .query_opt(
            "SELECT rating, deviation, volatility FROM puzzles WHERE id = $1 FOR UPDATE",
            &[&puzzle_id],
        )
        .await?;
    let Some(puzzle) = puzzle.as_ref().map(glicko) else {
        return Ok(Vec::new());
    };
    let first = tx
        .execute(
            "INSERT INTO puzzle_answers (player_id, puzzle_id, correct, at)
             VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
            &[&player_id, &puzzle_id, &correct, &at],
        )
        .await?
        == 1;
    if !first {
        return Ok(Vec::new());
    }
    let player = tx
        .query_opt(&st.rating, &[&player_id, &PUZZLE_POOL])
        .await?
        .as_ref()
        .map(glicko)
        .unwrap_or_default();
    let [p, z] = ratings::rate_puzzle(player, puzzle, correct);
    tx.execute(
        &st.put_rating,
        &[
            &player_id,
            &PUZZLE_POOL,
            &p.rating,
            &p.deviation,
            &p.volatility,
        ],
    )
    .await?;
    tx.execute(
        "UPDATE puzzles SET rating = $2, deviation = $3, volatility = $4, plays = plays + 1
         WHERE id = $1",
        &[&puzzle_id, &z.rating, &z.deviation, &z.volatility],
    )
    .await?;
    Ok(vec![ratings::change(Seat::First, player_id, &player, &p)])
}

/// A puzzle row read back.
fn listing(r: &tokio_postgres::Row) -> PuzzleListing {
    PuzzleListing {
        body: r.get(0),
        rating: r.get(1),
        plays: r.get::<_, i32>(2).max(0) as u32,
    }
}

impl Postgres {
    /// See [`crate::store::Store::next_puzzle`].
    pub(super) async fn next_puzzle(
        &self,
        player_id: String,
        theme: Option<String>,
    ) -> Result<Option<PuzzleListing>, StoreError> {
        self.read(|c| async move {
            let rating: f64 = c
                .query_opt(
                    "SELECT rating FROM ratings WHERE player_id = $1 AND kind = $2",
                    &[&player_id, &PUZZLE_POOL],
                )
                .await?
                .map_or(Glicko2Rating::default().rating, |r| r.get(0));
            let row = c
                .query_opt(
                    "SELECT body, rating, plays FROM puzzles p
                     WHERE ($2::text IS NULL OR theme = $2)
                       AND NOT EXISTS (SELECT 1 FROM puzzle_answers a
                                       WHERE a.player_id = $1 AND a.puzzle_id = p.id)
                     ORDER BY abs(rating - $3), id LIMIT 1",
                    &[&player_id, &theme, &rating],
                )
                .await?;
            Ok(row.as_ref().map(listing))
        })
        .await
    }

    /// See [`crate::store::Store::daily_puzzle`].
    pub(super) async fn daily_puzzle(
        &self,
        day: i64,
        day_start_ms: i64,
    ) -> Result<Option<PuzzleListing>, StoreError> {
        self.read(|c| async move {
            let count: i64 = c
                .query_one(
                    "SELECT COUNT(*) FROM puzzles WHERE created_at < $1",
                    &[&day_start_ms],
                )
                .await?
                .get(0);
            if count == 0 {
                return Ok(None);
            }
            let row = c
                .query_opt(
                    "SELECT body, rating, plays FROM puzzles WHERE created_at < $1
                     ORDER BY id LIMIT 1 OFFSET $2",
                    &[&day_start_ms, &day.rem_euclid(count)],
                )
                .await?;
            Ok(row.as_ref().map(listing))
        })
        .await
    }

    /// One puzzle by id.
    pub(super) async fn puzzle(&self, id: String) -> Result<Option<PuzzleListing>, StoreError> {
        self.read(|c| async move {
            let row = c
                .query_opt(
                    "SELECT body, rating, plays FROM puzzles WHERE id = $1",
                    &[&id],
                )
                .await?;
            Ok(row.as_ref().map(listing))
        })
        .await
    }

    /// A player's puzzle rating and deviation.
    pub(super) async fn puzzle_rating(
        &self,
        player_id: String,
    ) -> Result<Option<(f64, f64)>, StoreError> {
        self.read(|c| async move {
            let row = c
                .query_opt(
                    "SELECT rating, deviation FROM ratings WHERE player_id = $1 AND kind = $2",
                    &[&player_id, &PUZZLE_POOL],
                )
                .await?;
            Ok(row.map(|r| (r.get(0), r.get(1))))
        })
        .await
    }
}
