//! What each [`Write`] does to the database: the statements that make one
//! change durable, run by the writer inside its transaction.

use rusqlite::{Connection, OptionalExtension, params};
use skillratings::glicko2::Glicko2Rating;
use tabula_shared::protocol::RatingChange;
use tabula_shared::seat::Seat;

use super::action_log::{APPEND, ActionLog};
use crate::store::keys::name_key;
use crate::store::ratings;
use crate::store::rows::FinishedGame;
use crate::store::views::rating_pool;
use crate::store::write::Write;
use crate::wall_clock::now_ms;

/// Saves a room's whole state.
fn save_room(
    conn: &Connection,
    log: &mut ActionLog,
    id: &str,
    state: &str,
) -> rusqlite::Result<()> {
    // The full state holds every action so far: the log rows before this
    // point are no longer this room's.
    conn.prepare_cached(
        "INSERT INTO rooms (id, state, updated_at, log_from) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(id) DO UPDATE SET state = excluded.state,
            updated_at = excluded.updated_at, log_from = excluded.log_from",
    )?
    .execute(params![id, state, now_ms(), log.saved(id)])?;
    Ok(())
}

/// Runs the statements of one write; returns how ratings moved (a rated game).
pub(super) fn apply(
    conn: &Connection,
    log: &mut ActionLog,
    write: &Write,
) -> rusqlite::Result<Vec<RatingChange>> {
    match write {
        Write::Player(p) => {
            conn.prepare_cached(
                "INSERT INTO players (id, token, name, seen_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT(id) DO UPDATE SET name = excluded.name, seen_at = excluded.seen_at",
            )?
            .execute(params![p.id, p.token, p.name, crate::wall_clock::now_ms()])?;
        }
        Write::Room { id, state } => save_room(conn, log, id, state)?,
        Write::Tournament { id, state } => {
            conn.prepare_cached(
                "INSERT OR REPLACE INTO tournaments (id, state, updated_at) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![id, state, crate::wall_clock::now_ms()])?;
        }
        Write::Action(a) => log.append(&mut *conn.prepare_cached(APPEND)?, a)?,
        Write::DeleteRoom { id } => {
            // Its log rows become garbage, deleted with the front of the log.
            conn.prepare_cached("DELETE FROM rooms WHERE id = ?1")?
                .execute(params![id])?;
            log.forget(id);
        }
        Write::Game(g) => {
            conn.prepare_cached(
                "INSERT OR REPLACE INTO games
                 (id, room_id, kind, options, players, record, result, started_at, ended_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )?
            .execute(params![
                g.id,
                g.room_id,
                g.kind,
                g.options,
                g.players,
                g.record,
                g.result,
                g.started_at,
                g.ended_at
            ])?;
            for id in g.humans.iter().flatten() {
                conn.prepare_cached(
                    "INSERT OR IGNORE INTO game_players (game_id, player_id, ended_at)
                     VALUES (?1, ?2, ?3)",
                )?
                .execute(params![g.id, id, g.ended_at])?;
            }
            let changes = if g.rated { rate(conn, g)? } else { Vec::new() };
            if let Some(state) = &g.room_state {
                save_room(conn, log, &g.room_id, state)?;
            }
            return Ok(changes);
        }
        Write::Close => {}
        Write::Puzzles(rows) => super::puzzles::save(conn, rows)?,
        Write::PuzzleAnswer {
            player_id,
            puzzle_id,
            correct,
            at,
        } => return super::puzzles::answer(conn, player_id, puzzle_id, *correct, *at),
        Write::Analysis {
            game_id,
            analysis,
            created_at,
        } => {
            conn.prepare_cached(
                "INSERT OR IGNORE INTO analyses (game_id, analysis, created_at)
                 VALUES (?1, ?2, ?3)",
            )?
            .execute(params![game_id, analysis, created_at])?;
        }
        Write::ApiToken(t) => {
            conn.prepare_cached(
                "INSERT INTO api_tokens (id, player_id, label, hash, created_at, revoked)
                 VALUES (?1, ?2, ?3, ?4, ?5, 0)",
            )?
            .execute(params![t.id, t.player_id, t.label, t.hash, t.created_at])?;
        }
        Write::RevokeApiToken { id, player_id } => {
            conn.prepare_cached(
                "UPDATE api_tokens SET revoked = 1 WHERE id = ?1 AND player_id = ?2",
            )?
            .execute(params![id, player_id])?;
        }
        Write::Account(a) => {
            conn.prepare_cached(
                "INSERT INTO accounts (player_id, name_key, name, hash, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                a.player_id,
                name_key(&a.name),
                a.name,
                a.hash,
                now_ms()
            ])?;
        }
    }
    Ok(Vec::new())
}

/// `player`'s rating in `pool` (Glicko-2's start when none is kept).
pub(super) fn load_rating(
    conn: &Connection,
    player: &str,
    pool: &str,
) -> rusqlite::Result<Glicko2Rating> {
    Ok(conn
        .prepare_cached(
            "SELECT rating, deviation, volatility FROM ratings WHERE player_id = ?1 AND kind = ?2",
        )?
        .query_row(params![player, pool], |r| {
            Ok(Glicko2Rating {
                rating: r.get(0)?,
                deviation: r.get(1)?,
                volatility: r.get(2)?,
            })
        })
        .optional()?
        .unwrap_or_default())
}

/// Keeps `player`'s new rating in `pool`, one more result counted.
pub(super) fn put_rating(
    conn: &Connection,
    player: &str,
    pool: &str,
    new: &Glicko2Rating,
) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "INSERT INTO ratings (player_id, kind, rating, deviation, volatility, games)
         VALUES (?1, ?2, ?3, ?4, ?5, 1)
         ON CONFLICT(player_id, kind) DO UPDATE SET rating = excluded.rating,
            deviation = excluded.deviation, volatility = excluded.volatility,
            games = games + 1",
    )?
    .execute(params![
        player,
        pool,
        new.rating,
        new.deviation,
        new.volatility
    ])?;
    Ok(())
}

/// Updates the players' Glicko-2 ratings for one rated result
/// ([`ratings::rate`]) and records how they moved in the rating history. An
/// AI seat counts at its fixed rating ([`FinishedGame::fixed`]) and is not
/// stored; a seat with neither a player nor a fixed rating rates nobody.
fn rate(conn: &Connection, game: &FinishedGame) -> rusqlite::Result<Vec<RatingChange>> {
    // Each seat's pool: a bot account's rating is kept apart from people's.
    let pools = game.bots.map(|bot| rating_pool(&game.kind, bot));
    let load = |player: &str, pool: &str| load_rating(conn, player, pool);
    let mut before = [Glicko2Rating::default(); 2];
    for (i, (human, fixed)) in game.humans.iter().zip(game.fixed).enumerate() {
        before[i] = match (human, fixed) {
            (Some(player), _) => load(player, &pools[i])?,
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
        put_rating(conn, player, pool, &new)?;
        conn.prepare_cached(
            "INSERT OR REPLACE INTO rating_history (game_id, player_id, kind, before, after, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?
        .execute(params![
            game.id,
            player,
            pool,
            old.rating,
            new.rating,
            game.ended_at
        ])?;
        changes.push(ratings::change(seat, player, &old, &new));
    }
    Ok(changes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::sqlite::fixtures::{action, fresh, room, write_all};
    use crate::store::sqlite::load::load;

    #[test]
    fn a_finished_game_is_saved_with_its_room_in_one_write() {
        let (_dir, conn, mut log) = fresh();
        write_all(&conn, &mut log, &[room("a"), action("a", 0)]);
        let game = FinishedGame {
            id: "g-1".into(),
            room_id: "a".into(),
            kind: "gomoku".into(),
            options: "{}".into(),
            players: "[]".into(),
            record: "{}".into(),
            result: "{}".into(),
            started_at: 1,
            ended_at: 2,
            humans: [None, None],
            rated: false,
            bots: [false, false],
            fixed: [None, None],
            winner: None,
            room_state: Some("a, over".into()),
        };
        write_all(&conn, &mut log, &[Write::Game(Box::new(game))]);
        let loaded = load(&conn).unwrap();
        let (_, state, rows) = loaded.rooms.iter().find(|(r, _, _)| r == "a").unwrap();
        assert_eq!(state, "a, over");
        assert!(rows.is_empty(), "the room's state holds its actions");
        let games: i64 = conn
            .query_row("SELECT COUNT(*) FROM games", [], |r| r.get(0))
            .unwrap();
        assert_eq!(games, 1);
    }
}
