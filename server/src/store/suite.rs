//! The store's behaviour, checked on both backends: the same scenarios
//! against a SQLite file and against a real PostgreSQL started for the test
//! (`tabula-test-postgres`).

use std::time::Duration;

use tabula_shared::protocol::{GameKind, LeaderboardPeriod};
use tabula_shared::seat::Seat;

use super::*;

/// Where a scenario's store lives, so that it can be opened again (a restart).
enum Place {
    Sqlite(tempfile::TempDir),
    Postgres(String),
}

impl Place {
    async fn open(&self) -> (Store, Loaded) {
        match self {
            Place::Sqlite(dir) => Store::open(dir.path(), Duration::from_secs(5)).expect("opens"),
            Place::Postgres(url) => Store::connect(url, Duration::from_secs(5), None)
                .await
                .expect("connects"),
        }
    }
}

/// Runs `scenario` on a fresh SQLite file and on a fresh PostgreSQL database.
async fn on_both<F, Fut>(scenario: F)
where
    F: Fn(Place) -> Fut,
    Fut: Future<Output = ()>,
{
    scenario(Place::Sqlite(tempfile::tempdir().expect("dir"))).await;
    let pg = tabula_test_postgres::TestPostgres::start();
    scenario(Place::Postgres(pg.database())).await;
}

fn player(id: &str, name: &str) -> PlayerRow {
    PlayerRow {
        id: id.into(),
        token: format!("token-{id}"),
        name: name.into(),
    }
}

fn action(room: &str, index: u64) -> AppendedAction {
    AppendedAction {
        room_id: room.into(),
        index,
        action: format!("\"{room}-{index}\""),
        seq: index + 10,
        clock: "null".into(),
    }
}

/// (room, state, actions) as loaded, sorted by room.
fn rooms(loaded: &Loaded) -> Vec<(String, String, Vec<String>)> {
    let mut out: Vec<_> = loaded
        .rooms
        .iter()
        .map(|(id, state, actions)| {
            let actions = actions.iter().map(|a| a.action.clone()).collect();
            (id.clone(), state.clone(), actions)
        })
        .collect();
    out.sort();
    out
}

#[tokio::test]
async fn rooms_come_back_with_exactly_the_actions_after_their_last_full_save() {
    on_both(|place| async move {
        let (store, _) = place.open().await;
        store.save_room("a".into(), "a0".into()).await.unwrap();
        store.append_action(action("a", 0)).await.unwrap();
        store.save_room("b".into(), "b0".into()).await.unwrap();
        // Queued together: one batch, moves of two rooms interleaved.
        let writes = [
            store.append_action(action("b", 0)),
            store.append_action(action("a", 1)),
            store.append_action(action("b", 1)),
        ];
        for w in writes {
            w.await.unwrap();
        }
        // A takeback: a full save of the shorter record, then another move 1,
        // in one batch.
        let save = store.save_room("a".into(), "a1".into());
        let again = store.append_action(action("a", 1));
        save.await.unwrap();
        again.await.unwrap();
        store.save_room("c".into(), "c0".into()).await.unwrap();
        store.delete_room("c".into()).await.unwrap();
        store.close().await;
        let (store, loaded) = place.open().await;
        assert_eq!(
            rooms(&loaded),
            vec![
                ("a".into(), "a1".into(), vec!["\"a-1\"".into()]),
                (
                    "b".into(),
                    "b0".into(),
                    vec!["\"b-0\"".into(), "\"b-1\"".into()]
                ),
            ]
        );
        let a = &loaded.rooms.iter().find(|r| r.0 == "a").unwrap().2[0];
        assert_eq!((a.index, a.seq, a.clock.as_str()), (1, 11, "null"));
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn players_accounts_and_tokens_are_kept_and_a_taken_name_fails_alone() {
    on_both(|place| async move {
        let (store, _) = place.open().await;
        store.save_player(player("p-1", "Ada")).await.unwrap();
        store.save_player(player("p-2", "Bob")).await.unwrap();
        let account = |id: &str, name: &str| AccountRow {
            player_id: id.into(),
            name: name.into(),
            hash: format!("hash-{id}"),
        };
        store.save_account(account("p-1", "Ada")).await.unwrap();
        // In one batch: a name taken (another case) fails, and only it.
        let taken = store.save_account(account("p-2", "ADA"));
        let room = store.save_room("r".into(), "state".into());
        let token = store.save_api_token(ApiTokenRow {
            id: "t-1".into(),
            player_id: "p-1".into(),
            label: "my bot".into(),
            hash: "abc".into(),
            created_at: 5,
            revoked: false,
        });
        assert!(taken.await.is_err(), "the name is taken");
        room.await.unwrap();
        token.await.unwrap();
        store
            .revoke_api_token("t-1".into(), "p-2".into())
            .await
            .unwrap();
        store.close().await;

        let (store, loaded) = place.open().await;
        let ids: Vec<&str> = loaded.players.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, vec!["p-1"], "registered players are loaded");
        assert_eq!(loaded.accounts.len(), 1);
        assert_eq!(loaded.accounts[0].hash, "hash-p-1");
        assert_eq!(loaded.rooms.len(), 1);
        assert!(!loaded.api_tokens[0].revoked, "another account's revoke");
        store
            .revoke_api_token("t-1".into(), "p-1".into())
            .await
            .unwrap();
        let bob = store.player_by_token("token-p-2".into()).await.unwrap();
        assert_eq!(bob.map(|p| p.name), Some("Bob".into()));
        assert!(store.player_by_token("x".into()).await.unwrap().is_none());
        store.close().await;
        let (store, loaded) = place.open().await;
        assert!(loaded.api_tokens[0].revoked);
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn a_rated_game_moves_both_ratings_and_the_leaderboards() {
    on_both(|place| async move {
        let (store, _) = place.open().await;
        for (id, name) in [("p-1", "Ada"), ("p-2", "Bob")] {
            store.save_player(player(id, name)).await.unwrap();
            let account = AccountRow {
                player_id: id.into(),
                name: name.into(),
                hash: "h".into(),
            };
            store.save_account(account).await.unwrap();
        }
        let now = crate::wall_clock::now_ms();
        let game = |id: &str| FinishedGame {
            id: id.into(),
            room_id: "r".into(),
            kind: "gomoku".into(),
            options: "{}".into(),
            players: "[]".into(),
            record: "{}".into(),
            result: "{}".into(),
            started_at: now - 1000,
            ended_at: now,
            humans: [Some("p-1".into()), Some("p-2".into())],
            rated: true,
            bots: [false, false],
            fixed: [None, None],
            winner: Some(Seat::First),
            room_state: Some("over".into()),
        };
        let changes = store.save_game(game("g-1")).await.unwrap();
        assert_eq!(changes.len(), 2);
        assert_eq!((changes[0].before, changes[1].before), (1500, 1500));
        assert!(
            changes[0].after > 1500 && changes[1].after < 1500,
            "{changes:?}"
        );
        let second = store.save_game(game("g-2")).await.unwrap();
        assert_eq!(second[0].before, changes[0].after, "the rating is kept");
        for period in [LeaderboardPeriod::AllTime, LeaderboardPeriod::Week] {
            let board = store
                .leaderboard(GameKind::Gomoku, period, false, now)
                .await
                .unwrap();
            let names: Vec<&str> = board.iter().map(|e| e.name.as_str()).collect();
            assert_eq!(names, vec!["Ada", "Bob"], "{period:?}");
            assert_eq!(board[0].games, 2);
            assert_eq!(board[0].rating, second[0].after);
        }
        assert!(
            store
                .leaderboard(GameKind::Backgammon, LeaderboardPeriod::AllTime, false, now)
                .await
                .unwrap()
                .is_empty()
        );
        // One player's rating, per game and pool.
        let ada = store.rating("p-1".into(), GameKind::Gomoku, false).await;
        assert_eq!(
            ada.unwrap().map(|r| r.round() as i32),
            Some(second[0].after)
        );
        for (kind, bot) in [(GameKind::Backgammon, false), (GameKind::Gomoku, true)] {
            assert_eq!(store.rating("p-1".into(), kind, bot).await.unwrap(), None);
        }
        // Stored games whose JSON is not a game are skipped, not fatal.
        let (total, page) = store.list_games("p-1".into(), 0, 10).await.unwrap();
        assert_eq!((total, page.len()), (2, 0));
        store.close().await;
        let (store, loaded) = place.open().await;
        assert_eq!(rooms(&loaded), vec![("r".into(), "over".into(), vec![])]);
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn puzzles_are_kept_once_chosen_by_rating_and_only_a_first_answer_is_rated() {
    on_both(|place| async move {
        let (store, _) = place.open().await;
        let row = |id: &str, theme: &str, at: i64| PuzzleRow {
            id: id.into(),
            theme: theme.into(),
            body: format!("body-{id}"),
            created_at: at,
        };
        let now = 10 * 86_400_000 + 5;
        store
            .save_puzzles(vec![
                row("z-a", "win_by_fours", 0),
                row("z-b", "best_play", 0),
                row("z-c", "win_by_fours", now),
            ])
            .await
            .unwrap();
        // The same position again is one puzzle, as it was.
        store
            .save_puzzles(vec![PuzzleRow {
                body: "other".into(),
                ..row("z-a", "win_by_fours", 0)
            }])
            .await
            .unwrap();
        let first = store.puzzle("z-a".into()).await.unwrap().unwrap();
        assert_eq!((first.body.as_str(), first.plays), ("body-z-a", 0));
        assert_eq!(first.rating, 1500.0);
        assert_eq!(store.puzzle_rating("p-1".into()).await.unwrap(), None);
        // A right first answer lifts the player and lowers the puzzle.
        let moved = store
            .answer_puzzle("p-1".into(), "z-a".into(), true, now)
            .await
            .unwrap();
        assert_eq!(moved.len(), 1);
        assert_eq!(moved[0].before, 1500);
        assert!(moved[0].after > 1500 && moved[0].provisional, "{moved:?}");
        let after = store.puzzle("z-a".into()).await.unwrap().unwrap();
        assert!(after.rating < 1500.0 && after.plays == 1, "{after:?}");
        // A second answer to it counts for nothing.
        let again = store
            .answer_puzzle("p-1".into(), "z-a".into(), false, now)
            .await
            .unwrap();
        assert!(again.is_empty());
        let (rating, _) = store.puzzle_rating("p-1".into()).await.unwrap().unwrap();
        assert_eq!(rating.round() as i32, moved[0].after);
        // An unknown puzzle moves nothing.
        let unknown = store
            .answer_puzzle("p-1".into(), "nope".into(), true, now)
            .await
            .unwrap();
        assert!(unknown.is_empty());
        // The next one is one not tried, of the theme asked for.
        let next = |theme: Option<&str>| {
            let store = store.clone();
            let theme = theme.map(str::to_string);
            async move {
                store
                    .next_puzzle("p-1".into(), theme)
                    .await
                    .unwrap()
                    .map(|l| l.body)
            }
        };
        assert_eq!(next(Some("best_play")).await.as_deref(), Some("body-z-b"));
        assert_eq!(
            next(Some("win_by_fours")).await.as_deref(),
            Some("body-z-c")
        );
        assert_eq!(next(Some("cube_action")).await, None);
        // The daily puzzle is one kept before the day began, the same all
        // day whatever is found meanwhile; the next day's is the next one.
        let today = store.daily_puzzle(now).await.unwrap().unwrap().body;
        assert_ne!(today, "body-z-c", "found today: not yet a daily puzzle");
        let later = store.daily_puzzle(now + 3_600_000).await.unwrap().unwrap();
        assert_eq!(later.body, today);
        let tomorrow = store.daily_puzzle(now + 86_400_000).await.unwrap();
        assert!(tomorrow.is_some());
        assert_eq!(store.daily_puzzle(0).await.unwrap(), None);
        store.close().await;
        // Kept over a restart.
        let (store, _) = place.open().await;
        assert_eq!(store.puzzle("z-a".into()).await.unwrap().unwrap().plays, 1);
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn a_second_server_on_the_same_store_waits_for_the_first() {
    on_both(|place| async move {
        let (first, _) = place.open().await;
        let refused = match &place {
            Place::Sqlite(dir) => Store::open(dir.path(), Duration::from_millis(100)).err(),
            Place::Postgres(url) => Store::connect(url, Duration::from_millis(100), None)
                .await
                .err(),
        };
        let refused = refused.expect("a second server is refused").to_string();
        assert!(refused.contains("another Tabula server"), "{refused}");
        first.close().await;
        let (second, _) = place.open().await;
        second.close().await;
    })
    .await;
}

/// Hundreds of writes queued at once (a few batches, pipelined on
/// PostgreSQL): full saves and moves of several rooms interleaved, and every
/// room comes back with exactly the moves after its last full save.
#[tokio::test]
async fn interleaved_saves_and_moves_keep_their_order() {
    on_both(|place| async move {
        let (store, _) = place.open().await;
        let mut writes: Vec<std::pin::Pin<Box<dyn Future<Output = _> + Send>>> = Vec::new();
        let mut expected: std::collections::BTreeMap<String, (String, Vec<String>)> =
            Default::default();
        for step in 0..300u64 {
            let room = format!("r{}", step % 7);
            let entry = expected.entry(room.clone()).or_default();
            if step % 11 == 0 || entry.0.is_empty() {
                let state = format!("{room}@{step}");
                writes.push(Box::pin(store.save_room(room.clone(), state.clone())));
                *entry = (state, Vec::new());
            } else {
                let index = entry.1.len() as u64;
                let a = action(&room, index);
                entry.1.push(a.action.clone());
                writes.push(Box::pin(store.append_action(a)));
            }
        }
        for w in writes {
            w.await.unwrap();
        }
        store.close().await;
        let (store, loaded) = place.open().await;
        let got = rooms(&loaded);
        let want: Vec<_> = expected
            .into_iter()
            .map(|(room, (state, actions))| (room, state, actions))
            .collect();
        assert_eq!(got, want);
        store.close().await;
    })
    .await;
}
