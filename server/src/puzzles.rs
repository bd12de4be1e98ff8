//! [`Puzzles`]: rated puzzles from real games.
//!
//! - **Found in finished games.** Each game the store keeps is looked
//!   through on idle cores ([`tabula_ai::harvest`]: a Gomoku win by fours
//!   whose first four the solver proves unique; a Backgammon play or cube
//!   action clearly better than the rest), one position per step with the
//!   analyses' priority, so the AI seats never wait. One game at a time;
//!   past [`MOST_WAITING`] games waiting, a finished game is not looked at.
//! - **A built-in set.** A fresh server serves the puzzles the same
//!   harvest found in sample games between AI levels (`seed.json`, written
//!   by `puzzle-seed`), kept in the store at start like any other.
//! - **Checked and rated by the server.** A puzzle goes out without its
//!   answer; the answer is checked here, and a player's first answer to a
//!   puzzle moves their Glicko-2 puzzle rating and the puzzle's, durably,
//!   before the reply says so.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tabula_shared::protocol::{
    ErrorCode, GameRecord, PuzzleAnswer, PuzzleRatingChange, PuzzleTheme, ServerMessage,
    SolvedPuzzle,
};
use tokio::sync::Semaphore;

use crate::store::{PROVISIONAL_DEVIATION, PuzzleListing, PuzzleRow, Store, StoreError};
use crate::thinking::{Thinking, Work};
use crate::wall_clock::now_ms;

/// The built-in set: one puzzle per line of a JSON array.
const SEED: &str = include_str!("puzzles/seed.json");
/// Most finished games waiting to be looked through.
const MOST_WAITING: usize = 32;
/// A player's puzzle rating before their first answer (Glicko-2's start).
const FIRST_RATING: i32 = 1500;

/// The built-in puzzles.
///
/// # Panics
/// When `seed.json` does not read (a test checks it does).
pub fn built_in() -> Vec<SolvedPuzzle> {
    serde_json::from_str(SEED).expect("the built-in puzzles read")
}

/// A puzzle as the store keeps it.
fn row(p: &SolvedPuzzle, created_at: i64) -> PuzzleRow {
    PuzzleRow {
        id: p.id(),
        theme: p.theme.name().to_string(),
        body: serde_json::to_string(p).expect("a puzzle serialises"),
        created_at,
    }
}

/// The puzzles of one server.
pub struct Puzzles {
    store: Store,
    thinking: Arc<Thinking>,
    /// One harvest at a time.
    harvester: Arc<Semaphore>,
    /// Games waiting or being looked through.
    waiting: Arc<AtomicUsize>,
}

impl Puzzles {
    /// The service on `store`, harvesting on `thinking`'s idle cores.
    pub fn new(store: Store, thinking: Arc<Thinking>) -> Puzzles {
        Puzzles {
            store,
            thinking,
            harvester: Arc::new(Semaphore::new(1)),
            waiting: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Keeps the built-in set (those already kept stay as they are).
    ///
    /// # Errors
    /// When the store cannot.
    /// Queued when called, not when first polled.
    pub fn seed(&self) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        let rows = built_in().iter().map(|p| row(p, 0)).collect();
        self.store.save_puzzles(rows)
    }

    /// Looks through a finished game for puzzles, in the background.
    pub fn harvest(&self, game_id: String, record: GameRecord) {
        if self.waiting.fetch_add(1, Ordering::Relaxed) >= MOST_WAITING {
            self.waiting.fetch_sub(1, Ordering::Relaxed);
            tracing::debug!(game = %game_id, "too many games waiting: not looked at for puzzles");
            return;
        }
        let (store, thinking) = (self.store.clone(), self.thinking.clone());
        let (harvester, waiting) = (self.harvester.clone(), self.waiting.clone());
        tokio::spawn(async move {
            let permit = harvester.acquire_owned().await;
            let id = game_id.clone();
            let found = tokio::task::spawn_blocking(move || {
                let mut core = None;
                tabula_ai::harvest::harvest(&record, Some(&id), &mut || {
                    core = None;
                    core = Some(thinking.blocking_step(Work::Analysis));
                })
            })
            .await;
            drop(permit);
            waiting.fetch_sub(1, Ordering::Relaxed);
            let found = match found {
                Ok(found) => found,
                Err(e) => {
                    tracing::error!(game = %game_id, error = %e, "a puzzle harvest panicked");
                    return;
                }
            };
            if found.is_empty() {
                return;
            }
            let now = now_ms();
            let rows = found.iter().map(|p| row(p, now)).collect();
            match store.save_puzzles(rows).await {
                Ok(()) => tracing::info!(game = %game_id, puzzles = found.len(), "puzzles found"),
                Err(e) => tracing::warn!(game = %game_id, error = %e, "puzzles not kept"),
            }
        });
    }

    /// The answer to `puzzle`: the day's, or the next for `player_id`.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn next(
        &self,
        player_id: String,
        theme: Option<PuzzleTheme>,
        daily: bool,
    ) -> Result<ServerMessage, StoreError> {
        let listing = if daily {
            self.store.daily_puzzle(now_ms()).await?
        } else {
            let theme = theme.map(|t| t.name().to_string());
            self.store.next_puzzle(player_id.clone(), theme).await?
        };
        let Some(listing) = listing else {
            return Ok(ServerMessage::error(
                ErrorCode::NotFound,
                if daily {
                    "there is no daily puzzle yet"
                } else {
                    "no puzzle is left that you have not tried"
                },
            ));
        };
        let Some((id, puzzle)) = read(&listing) else {
            return Ok(unreadable());
        };
        let (rating, provisional) = self.rating(player_id).await?;
        Ok(ServerMessage::Puzzle {
            puzzle: Box::new(puzzle.unsolved(id, listing.rating.round() as i32, listing.plays)),
            daily,
            rating,
            provisional,
        })
    }

    /// A player's puzzle rating, and whether it is provisional.
    async fn rating(&self, player_id: String) -> Result<(i32, bool), StoreError> {
        Ok(match self.store.puzzle_rating(player_id).await? {
            Some((rating, deviation)) => (rating.round() as i32, deviation > PROVISIONAL_DEVIATION),
            None => (FIRST_RATING, true),
        })
    }

    /// The answer to `solve_puzzle`: checked, recorded (the first answer
    /// rated), then told.
    ///
    /// # Errors
    /// When the store cannot read or keep it.
    pub async fn solve(
        &self,
        player_id: String,
        puzzle_id: String,
        answer: PuzzleAnswer,
    ) -> Result<ServerMessage, StoreError> {
        let Some(listing) = self.store.puzzle(puzzle_id.clone()).await? else {
            return Ok(ServerMessage::error(
                ErrorCode::NotFound,
                format!("no puzzle has the id {puzzle_id:?}"),
            ));
        };
        let Some((_, puzzle)) = read(&listing) else {
            return Ok(unreadable());
        };
        let correct = match puzzle.check(&answer) {
            Ok(correct) => correct,
            Err(e) => return Ok(ServerMessage::error(ErrorCode::BadRequest, e.to_string())),
        };
        let moved = self
            .store
            .answer_puzzle(player_id, puzzle_id.clone(), correct, now_ms())
            .await?;
        Ok(ServerMessage::PuzzleSolved {
            puzzle_id,
            correct,
            solution: Box::new(puzzle.solution),
            rating: moved.first().map(|c| PuzzleRatingChange {
                before: c.before,
                after: c.after,
                provisional: c.provisional,
            }),
        })
    }
}

/// A kept puzzle, read back with its id.
fn read(listing: &PuzzleListing) -> Option<(String, SolvedPuzzle)> {
    let puzzle: SolvedPuzzle = serde_json::from_str(&listing.body)
        .inspect_err(|e| tracing::error!(error = %e, "a kept puzzle does not read"))
        .ok()?;
    Some((puzzle.id(), puzzle))
}

fn unreadable() -> ServerMessage {
    ServerMessage::error(ErrorCode::Internal, "this puzzle could not be read")
}

#[cfg(test)]
mod tests {
    use tabula_shared::protocol::PuzzleAnswer;
    use tabula_shared::study::StudyPosition;

    use super::*;

    /// Each built-in puzzle still holds: the harvest finds the same puzzle
    /// in its position (the solver proves the Gomoku first four unique;
    /// the engine still rates the Backgammon answer clearly best), its
    /// answer is right by the server's check, and each theme is there.
    #[test]
    fn every_built_in_puzzle_is_proven_again_and_every_theme_has_some() {
        let puzzles = built_in();
        for p in &puzzles {
            let again = tabula_ai::harvest::puzzle_at(&p.position, p.theme)
                .unwrap_or_else(|| panic!("{} is no longer a puzzle", p.id()));
            assert_eq!(again.theme, p.theme);
            // The same answer (a play read back from its notation may
            // join a checker's hops: the same board after it).
            assert_eq!(p.check(&again.solution.answer), Ok(true), "{}", p.id());
            assert_eq!(p.check(&p.solution.answer), Ok(true));
        }
        for theme in [
            PuzzleTheme::WinByFours,
            PuzzleTheme::WinByThreats,
            PuzzleTheme::BestPlay,
        ] {
            assert!(
                puzzles.iter().filter(|p| p.theme == theme).count() >= 5,
                "{theme:?}"
            );
        }
        assert!(puzzles.iter().any(|p| p.theme == PuzzleTheme::OnlyDefence));
        let ids: std::collections::HashSet<String> = puzzles.iter().map(|p| p.id()).collect();
        assert_eq!(ids.len(), puzzles.len(), "one puzzle per position");
        // A wrong answer of the right kind is wrong; another kind is refused.
        let gomoku = puzzles
            .iter()
            .find(|p| matches!(p.position, StudyPosition::Gomoku(_)))
            .unwrap();
        let PuzzleAnswer::Point { point } = gomoku.solution.answer else {
            panic!("a point")
        };
        let elsewhere = tabula_shared::gomoku::Point::new((point.x + 1) % 15, point.y);
        assert_eq!(
            gomoku.check(&PuzzleAnswer::Point { point: elsewhere }),
            Ok(false)
        );
        assert!(
            gomoku
                .check(&PuzzleAnswer::Cube {
                    action: tabula_shared::protocol::CubeAction::NoDouble
                })
                .is_err()
        );
    }

    /// The Gomoku puzzles hold by a check of their own: a win by threats
    /// replays to the attacker's five; after the only defence the public
    /// VCF solver (four times the harvest's nodes) finds no win by fours,
    /// and after any other stone of the defender's (a four of its own
    /// aside: it only delays) it finds one.
    #[test]
    fn gomoku_puzzles_replay_and_the_only_defence_is_the_only_one() {
        use tabula_ai::gomoku::find_vcf;
        use tabula_ai::gomoku::study::five_points;
        use tabula_shared::gomoku::{Point, five_at};
        let nodes = 4 * tabula_ai::harvest::GOMOKU_NODES;
        for p in built_in() {
            let StudyPosition::Gomoku(setup) = &p.position else {
                continue;
            };
            let board = setup.board().unwrap();
            let (me, rule) = (setup.to_move, setup.rule);
            let PuzzleAnswer::Point { point: answer } = p.solution.answer else {
                panic!("a point");
            };
            match p.theme {
                PuzzleTheme::WinByThreats => {
                    let mut b = board.clone();
                    let mut mover = me;
                    let mut last = None;
                    for m in &p.solution.line {
                        let m: Point = m.parse().unwrap();
                        b.place(m, mover).unwrap();
                        last = Some((m, mover));
                        mover = mover.opponent();
                    }
                    let (m, by) = last.unwrap();
                    assert_eq!(by, me, "{}", p.id());
                    assert!(five_at(&b, m, me, rule).is_some(), "{}", p.id());
                }
                PuzzleTheme::OnlyDefence => {
                    let attacker = me.opponent();
                    for q in board.points().filter(|&q| board.is_empty_at(q)) {
                        let mut b = board.clone();
                        b.place(q, me).unwrap();
                        if !five_points(&b, me, rule).is_empty() {
                            continue;
                        }
                        let wins = find_vcf(&b, attacker, rule, nodes).is_some();
                        assert_eq!(wins, q != answer, "{} at {q}", p.id());
                    }
                }
                _ => {}
            }
        }
    }
}
