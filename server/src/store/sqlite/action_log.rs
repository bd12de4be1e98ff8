//! The action log: one append-only table holding the moves of every running
//! room, and the writer's in-memory index of it ([`ActionLog`]), which
//! numbers the rows and cleans the log's front.

use rusqlite::{Connection, params};

use super::exec;
use crate::store::rows::AppendedAction;

/// kept to a few milliseconds.
const LOG_CLEAN_EVERY: u64 = 2_000;
/// A room whose live rows start this far behind the end of the log has them
/// copied to the end, so one quiet game does not keep the whole log alive.
const LOG_PIN_SPAN: i64 = 200_000;
/// At most about this many rows are copied by one clean-up (the oldest
/// pinned rooms first); the rest wait for the next one.
const LOG_COPY_BUDGET: usize = 400;
/// At most this many rows are deleted from the front by one clean-up (twice
/// what is appended between two, so the deletion keeps up).
const LOG_DELETE_BUDGET: i64 = 4_000;

/// The writer's view of the action log: the next row number, the numbers of
/// each room's live rows (so that the log's front, every row before the first
/// live one, can be deleted, and a pinned room's rows copied, without a
/// scan), and how many rows were appended since the last clean-up.
///
/// Rows are numbered here rather than by SQLite's AUTOINCREMENT, whose
/// counter row would be one more page written by every commit.
pub(super) struct ActionLog {
    /// The number the next row gets.
    next_id: i64,
    /// No row is numbered below this (the deleted front's end).
    deleted_below: i64,
    /// Each running room's rows after its last full save, in order.
    live: std::collections::HashMap<String, Vec<i64>>,
    /// Rows appended since the last clean-up.
    appended: u64,
}

impl ActionLog {
    /// Reads the log's state (at start-up, and after a failed transaction).
    /// The next number is above every row and every room's `log_from`, so a
    /// number is never used twice, even once the whole log has been deleted.
    pub(super) fn read(conn: &Connection) -> rusqlite::Result<ActionLog> {
        let last: i64 = conn.query_row(
            "SELECT MAX(COALESCE((SELECT MAX(id) FROM action_log), 0),
                        COALESCE((SELECT MAX(log_from) FROM rooms), 0))",
            [],
            |r| r.get(0),
        )?;
        let mut stmt = conn.prepare(
            "SELECT l.room_id, l.id FROM action_log l JOIN rooms r ON r.id = l.room_id
             WHERE l.id > r.log_from ORDER BY l.id",
        )?;
        let mut live: std::collections::HashMap<String, Vec<i64>> = Default::default();
        for row in stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get(1)?)))? {
            let (room, id) = row?;
            live.entry(room).or_default().push(id);
        }
        let lowest: Option<i64> =
            conn.query_row("SELECT MIN(id) FROM action_log", [], |r| r.get(0))?;
        Ok(ActionLog {
            next_id: last + 1,
            deleted_below: lowest.unwrap_or(last + 1),
            live,
            appended: 0,
        })
    }

    /// Appends one action with `insert`, a statement of [`APPEND`].
    pub(super) fn append(
        &mut self,
        insert: &mut rusqlite::Statement,
        a: &AppendedAction,
    ) -> rusqlite::Result<()> {
        insert.execute(params![
            self.next_id,
            a.room_id,
            a.index as i64,
            a.action,
            a.seq as i64,
            a.clock
        ])?;
        match self.live.get_mut(&a.room_id) {
            Some(ids) => ids.push(self.next_id),
            None => {
                self.live.insert(a.room_id.clone(), vec![self.next_id]);
            }
        }
        self.next_id += 1;
        self.appended += 1;
        Ok(())
    }

    /// The `log_from` of a room saved now: its rows so far are in the state.
    pub(super) fn saved(&mut self, room: &str) -> i64 {
        self.live.remove(room);
        self.next_id - 1
    }

    /// Forgets a closed room: its rows become garbage, deleted with the
    /// front of the log.
    pub(super) fn forget(&mut self, room: &str) {
        self.live.remove(room);
    }

    /// Whether enough rows were appended since the last clean-up for another.
    pub(super) fn due(&self) -> bool {
        self.appended >= LOG_CLEAN_EVERY
    }

    /// The first live row of any room: every row before it is garbage.
    fn front(&self) -> i64 {
        self.live
            .values()
            .filter_map(|ids| ids.first().copied())
            .min()
            .unwrap_or(self.next_id)
    }

    /// Copies long-pinned rooms' rows to the end, then deletes rows before
    /// the first live one, each within its budget, in one transaction.
    pub(super) fn clean(&mut self, conn: &Connection) -> rusqlite::Result<()> {
        exec(conn, "BEGIN")?;
        let end = self.next_id - 1;
        let mut pinned: Vec<(i64, String)> = self
            .live
            .iter()
            .filter_map(|(room, ids)| Some((*ids.first()?, room)))
            .filter(|(first, _)| *first < end - LOG_PIN_SPAN)
            .map(|(first, room)| (first, room.clone()))
            .collect();
        pinned.sort_unstable();
        let mut budget = LOG_COPY_BUDGET;
        for (_, room) in pinned {
            let Some(ids) = self.live.get_mut(&room) else {
                continue;
            };
            if budget == 0 {
                break;
            }
            budget = budget.saturating_sub(ids.len());
            let log_from = self.next_id - 1;
            for id in ids.iter_mut() {
                conn.prepare_cached(
                    "INSERT INTO action_log (id, room_id, idx, action, seq, clock)
                     SELECT ?1, room_id, idx, action, seq, clock FROM action_log WHERE id = ?2",
                )?
                .execute(params![self.next_id, *id])?;
                *id = self.next_id;
                self.next_id += 1;
            }
            conn.prepare_cached("UPDATE rooms SET log_from = ?1 WHERE id = ?2")?
                .execute(params![log_from, room])?;
        }
        let below = self
            .front()
            .min(self.deleted_below + LOG_DELETE_BUDGET)
            .max(self.deleted_below);
        conn.prepare_cached("DELETE FROM action_log WHERE id < ?1")?
            .execute(params![below])?;
        exec(conn, "COMMIT")?;
        self.deleted_below = below;
        self.appended = 0;
        Ok(())
    }
}

/// Appends one move to the action log.
pub(super) const APPEND: &str = "INSERT INTO action_log (id, room_id, idx, action, seq, clock)
                      VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::sqlite::fixtures::{action, fresh, indices, room, write_all};
    use crate::store::sqlite::load::load;
    use crate::store::write::Write;

    #[test]
    fn a_room_gets_back_exactly_the_actions_after_its_last_full_save() {
        let (_dir, conn, mut log) = fresh();
        write_all(&conn, &mut log, &[room("a"), action("a", 0), room("b")]);
        write_all(
            &conn,
            &mut log,
            &[action("b", 0), action("a", 1), action("b", 1)],
        );
        // A takeback: full save of a shorter record, then a different move 1.
        write_all(&conn, &mut log, &[room("a"), action("a", 1)]);
        let loaded = load(&conn).unwrap();
        assert_eq!(indices(&loaded, "a"), vec![1]);
        assert_eq!(indices(&loaded, "b"), vec![0, 1]);
        assert_eq!(ActionLog::read(&conn).unwrap().live, log.live);
    }

    #[test]
    fn cleaning_deletes_the_front_and_moves_a_long_pinned_room_to_the_end() {
        let (_dir, conn, mut log) = fresh();
        // "quiet" plays two moves and then waits for a long time.
        write_all(
            &conn,
            &mut log,
            &[room("quiet"), action("quiet", 0), action("quiet", 1)],
        );
        // "gone" played and closed; "busy" plays on.
        write_all(
            &conn,
            &mut log,
            &[room("gone"), action("gone", 0), room("busy")],
        );
        write_all(&conn, &mut log, &[Write::DeleteRoom { id: "gone".into() }]);
        let mut writes = Vec::new();
        for i in 0..(LOG_PIN_SPAN as u64 + 10) {
            writes.push(action("busy", i));
        }
        write_all(&conn, &mut log, &writes);
        write_all(&conn, &mut log, &[room("busy"), action("busy", 0)]);
        // The front goes a budget at a time.
        let cleanups = (LOG_PIN_SPAN / LOG_DELETE_BUDGET + 2) as usize;
        for _ in 0..cleanups {
            log.clean(&conn).unwrap();
        }
        assert_eq!(log.appended, 0);
        let count: i64 = conn
            .query_row("SELECT COUNT(*) FROM action_log", [], |r| r.get(0))
            .unwrap();
        // The quiet room's two rows, copied, and busy's one live row.
        assert_eq!(count, 3);
        let loaded = load(&conn).unwrap();
        assert_eq!(indices(&loaded, "quiet"), vec![0, 1]);
        assert_eq!(indices(&loaded, "busy"), vec![0]);
        assert!(!loaded.rooms.iter().any(|(id, _, _)| id == "gone"));
        let reread = ActionLog::read(&conn).unwrap();
        assert_eq!(reread.live, log.live);
        assert_eq!(reread.next_id, log.next_id);
        // New rows keep numbers above every old one, even after the front went.
        write_all(&conn, &mut log, &[action("quiet", 2)]);
        assert_eq!(indices(&load(&conn).unwrap(), "quiet"), vec![0, 1, 2]);
    }

    #[test]
    fn many_pinned_rooms_are_copied_a_budget_at_a_time_oldest_first() {
        let (_dir, conn, mut log) = fresh();
        let per_room = LOG_COPY_BUDGET / 4;
        let rooms = 2 * LOG_COPY_BUDGET / per_room + 1;
        let mut writes = Vec::new();
        for r in 0..rooms {
            writes.push(room(&format!("r{r}")));
            writes.extend((0..per_room as u64).map(|i| action(&format!("r{r}"), i)));
        }
        // Then a long busy game, saved in full at its end: its rows are garbage.
        writes.extend((0..LOG_PIN_SPAN as u64 + 10).map(|i| action("busy", i)));
        writes.push(room("busy"));
        write_all(&conn, &mut log, &writes);
        let count = || -> i64 {
            conn.query_row("SELECT COUNT(*) FROM action_log", [], |r| r.get(0))
                .unwrap()
        };
        let before = count();
        // One clean-up copies the budget's worth, oldest rooms first, and
        // deletes their old rows, up to the first room still pinning the front.
        log.clean(&conn).unwrap();
        assert_eq!(count(), before);
        let front: i64 = conn
            .query_row("SELECT MIN(id) FROM action_log", [], |r| r.get(0))
            .unwrap();
        assert_eq!(
            front,
            log.live[&format!("r{}", LOG_COPY_BUDGET / per_room)][0]
        );
        assert!(log.live["r0"][0] > LOG_PIN_SPAN);
        assert!(log.live[&format!("r{}", rooms - 1)][0] < (per_room * rooms) as i64);
        for _ in 0..(rooms + (LOG_PIN_SPAN / LOG_DELETE_BUDGET) as usize + 2) {
            log.clean(&conn).unwrap();
        }
        // Every room was copied and the front is gone, a budget at a time:
        // each room's rows once, and none of busy's.
        assert_eq!(count(), (per_room * rooms) as i64);
        let loaded = load(&conn).unwrap();
        for r in 0..rooms {
            assert_eq!(
                indices(&loaded, &format!("r{r}")),
                (0..per_room as u64).collect::<Vec<_>>()
            );
        }
        assert_eq!(ActionLog::read(&conn).unwrap().live, log.live);
    }
}
