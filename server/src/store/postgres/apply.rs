//! What each [`Write`] does to the PostgreSQL database: the statements that
//! make one change durable, run by the writer inside its transaction.

use skillratings::glicko2::Glicko2Rating;
use tabula_shared::protocol::RatingChange;
use tabula_shared::seat::Seat;
use tokio_postgres::Transaction;

use super::statements::Statements;
use crate::store::keys::name_key;
use crate::store::ratings;
use crate::store::rows::{AppendedAction, FinishedGame};
use crate::store::views::rating_pool;
use crate::store::write::Write;
use crate::wall_clock::now_ms;

/// Runs the statements of one write; returns how ratings moved (a rated
/// game). Every write but a finished game and the puzzles' is exactly one statement, sent
/// when the future is first polled: the writer pipelines those.
pub(super) async fn apply(
    tx: &Transaction<'_>,
    st: &Statements,
    write: &Write,
) -> Result<Vec<RatingChange>, tokio_postgres::Error> {
    match write {
        Write::Player(p) => {
            tx.execute(&st.player, &[&p.id, &p.token, &p.name, &now_ms()])
                .await?;
        }
        Write::Room { id, state } => save_room(tx, st, id, state).await?,
        Write::Action(a) => append(tx, st, std::slice::from_ref(&**a)).await?,
        Write::DeleteRoom { id } => {
            tx.execute(&st.delete_room, &[id]).await?;
        }
        Write::Tournament { id, state } => {
            tx.execute(&st.tournament, &[id, state, &crate::wall_clock::now_ms()])
                .await?;
        }
        Write::Game(g) => {
            tx.execute(
                &st.game,
                &[
                    &g.id,
                    &g.room_id,
                    &g.kind,
                    &g.options,
                    &g.players,
                    &g.record,
                    &g.result,
                    &g.started_at,
                    &g.ended_at,
                ],
            )
            .await?;
            for id in g.humans.iter().flatten() {
                tx.execute(&st.game_player, &[&g.id, id, &g.ended_at])
                    .await?;
            }
            let changes = if g.rated {
                rate(tx, st, g).await?
            } else {
                Vec::new()
            };
            if let Some(state) = &g.room_state {
                save_room(tx, st, &g.room_id, state).await?;
            }
            return Ok(changes);
        }
        Write::Close => {}
        Write::Puzzles(rows) => super::puzzles::save(tx, rows).await?,
        Write::PuzzleAnswer {
            player_id,
            puzzle_id,
            correct,
            at,
        } => return super::puzzles::answer(tx, st, player_id, puzzle_id, *correct, *at).await,
        Write::Analysis {
            game_id,
            analysis,
            created_at,
        } => {
            tx.execute(&st.analysis, &[game_id, analysis, created_at])
                .await?;
        }
        Write::ApiToken(t) => {
            tx.execute(
                &st.api_token,
                &[&t.id, &t.player_id, &t.label, &t.hash, &t.created_at],
            )
            .await?;
        }
        Write::RevokeApiToken { id, player_id } => {
            tx.execute(&st.revoke_api_token, &[id, player_id]).await?;
        }
        Write::Account(a) => {
            tx.execute(
                &st.account,
                &[
                    &a.player_id,
                    &name_key(&a.name),
                    &a.name,
                    &a.hash,
                    &now_ms(),
                ],
            )
            .await?;
        }
    }
    Ok(Vec::new())
}

/// Saves a room's whole state; its actions so far are in it, so the
/// room's action rows go (in the same statement).
async fn save_room(
    tx: &Transaction<'_>,
    st: &Statements,
    id: &str,
    state: &str,
) -> Result<(), tokio_postgres::Error> {
    tx.execute(&st.room, &[&id, &state, &now_ms()]).await?;
    Ok(())
}

/// Appends a run of moves (of any rooms, in order) in one statement. A
/// move repeated in the run (same room and index) counts once, as its
/// last copy.
pub(super) async fn append(
    tx: &Transaction<'_>,
    st: &Statements,
    run: &[AppendedAction],
) -> Result<(), tokio_postgres::Error> {
    let mut last = std::collections::HashMap::with_capacity(run.len());
    for (i, a) in run.iter().enumerate() {
        last.insert((a.room_id.as_str(), a.index), i);
    }
    let kept: Vec<&AppendedAction> = run
        .iter()
        .enumerate()
        .filter(|(i, a)| last[&(a.room_id.as_str(), a.index)] == *i)
        .map(|(_, a)| a)
        .collect();
    let rooms: Vec<&str> = kept.iter().map(|a| a.room_id.as_str()).collect();
    let indices: Vec<i64> = kept.iter().map(|a| a.index as i64).collect();
    let actions: Vec<&str> = kept.iter().map(|a| a.action.as_str()).collect();
    let seqs: Vec<i64> = kept.iter().map(|a| a.seq as i64).collect();
    let clocks: Vec<&str> = kept.iter().map(|a| a.clock.as_str()).collect();
    tx.execute(&st.actions, &[&rooms, &indices, &actions, &seqs, &clocks])
        .await?;
    Ok(())
}

/// Updates the players' Glicko-2 ratings for one rated result and records
/// how they moved (as the SQLite backend does: an AI seat counts at its
/// fixed rating and is not stored).
async fn rate(
    tx: &Transaction<'_>,
    st: &Statements,
    game: &FinishedGame,
) -> Result<Vec<RatingChange>, tokio_postgres::Error> {
    let pools = game.bots.map(|bot| rating_pool(&game.kind, bot));
    let mut before = [Glicko2Rating::default(); 2];
    for (i, (human, fixed)) in game.humans.iter().zip(game.fixed).enumerate() {
        before[i] = match (human, fixed) {
            (Some(player), _) => tx
                .query_opt(&st.rating, &[player, &pools[i]])
                .await?
                .map(|r| Glicko2Rating {
                    rating: r.get(0),
                    deviation: r.get(1),
                    volatility: r.get(2),
                })
                .unwrap_or_default(),
            (None, Some(fixed)) => ratings::fixed(fixed),
            (None, None) => return Ok(Vec::new()),
        };
    }
    let [a, b] = ratings::rate(before, game.winner);
    let mut changes = Vec::new();
    for (seat, player, pool, old, new) in [
        (Seat::First, &game.humans[0], &pools[0], before[0], a),
        (Seat::Second, &game.humans[1], &pools[1], before[1], b),
    ] {
        let Some(player) = player else { continue };
        tx.execute(
            &st.put_rating,
            &[player, pool, &new.rating, &new.deviation, &new.volatility],
        )
        .await?;
        tx.execute(
            &st.rating_history,
            &[
                &game.id,
                player,
                pool,
                &old.rating,
                &new.rating,
                &game.ended_at,
            ],
        )
        .await?;
        changes.push(ratings::change(seat, player, &old, &new));
    }
    Ok(changes)
}
