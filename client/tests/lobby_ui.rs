//! The lobby's windows in the real app, driven headless by `egui_kittest`
//! against a real server running in this process on `127.0.0.1:0`:
//! accounts, the history and its replays, the leaderboard; and the data
//! directories for the screenshots.

mod common;

use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tabula_client::TabulaApp;
use tabula_client::net::ConnState;
use tabula_shared::backgammon::{GamePhase, Side};
use tabula_shared::game::LiveGame;
use tabula_shared::gomoku::Point;
use tabula_shared::protocol::RoomStatus;

use common::{
    Server, app, bg_phase, click_first_hop, click_label, click_menu_item, connect,
    create_gomoku_vs_ai, free_point, gomoku_moves, has_text, place, register, serve, start_server,
    type_into, wait_until,
};

// ----- accounts, history, replay, leaderboard -------------------------------

#[test]
fn register_then_sign_in_from_a_fresh_app() {
    let server = start_server();
    let mut h = app(&server, "Ada");
    connect(&mut h);
    assert!(!h.state().registered());
    assert!(has_text(&h, "as Ada (guest)"));

    // Too short: the server's typed error shows in the account window.
    click_label(&mut h, "Account…");
    type_into(&mut h, "New password", "short");
    type_into(&mut h, "Confirm password", "short");
    click_label(&mut h, "Register this name");
    wait_until(&mut h, "weak_password", |a| {
        matches!(
            a.account_note(),
            Some(tabula_client::app::AccountNote::Failed(_))
        )
    });
    h.step();
    assert!(
        has_text(&h, "Weak password"),
        "{:?}",
        h.state().account_note()
    );
    assert!(!h.state().registered());
    // The window is still open: register for real.
    type_into(&mut h, "New password", "correct horse");
    type_into(&mut h, "Confirm password", "correct horse");
    click_label(&mut h, "Register this name");
    wait_until(&mut h, "registered", |a| a.registered());
    h.step();
    assert!(has_text(&h, "Signed in as Ada"));
    assert!(has_text(&h, "as Ada (registered)"));

    // A fresh app (no token) cannot take the name as a guest...
    let mut fresh = app(&server, "Ada");
    fresh.step();
    click_label(&mut fresh, "Connect");
    wait_until(&mut fresh, "name_taken", |a| {
        matches!(a.connection(), ConnState::Refused(_))
    });
    fresh.step();
    assert!(
        has_text(&fresh, "is a registered name"),
        "{:?}",
        fresh.state().connection()
    );
    // ...nor with a wrong password...
    type_into(&mut fresh, "Account password", "wrong horse");
    click_label(&mut fresh, "Connect");
    wait_until(
        &mut fresh,
        "sign_in_failed",
        |a| matches!(a.connection(), ConnState::Refused(r) if r.contains("Sign-in failed")),
    );
    fresh.step();
    assert!(has_text(&fresh, "Sign-in failed"));
    // ...but signs in with the right one.
    type_into(&mut fresh, "Account password", "correct horse");
    click_label(&mut fresh, "Connect");
    wait_until(&mut fresh, "signed in", |a| {
        *a.connection() == ConnState::Connected && a.registered()
    });
    fresh.step();
    assert!(has_text(&fresh, "as Ada (registered)"));
    // The password is not in the settings that get saved.
    let saved = serde_json::to_string(&fresh.state().settings).expect("encode");
    assert!(!saved.contains("correct horse"));
}

fn replay_pos(a: &TabulaApp) -> Option<usize> {
    a.replay().map(|r| r.position())
}

fn open_history(h: &mut Harness<'_, TabulaApp>, games: u32) {
    click_label(h, "History");
    wait_until(h, "the history", |a| {
        a.history().is_some_and(|p| p.total == games)
    });
    h.step();
}

#[test]
fn finished_games_are_in_the_history_and_replay() {
    let server = start_server();
    let mut h = app(&server, "Gus");
    connect(&mut h);

    // A short Gomoku game, resigned.
    create_gomoku_vs_ai(&mut h);
    place(&mut h, Point::new(7, 7));
    wait_until(&mut h, "the AI's answer", |a| gomoku_moves(a) >= 2);
    let free = free_point(&h);
    place(&mut h, free);
    wait_until(&mut h, "the AI's second answer", |a| gomoku_moves(a) >= 4);
    // What was played (a click may land a point off when the layout moves).
    let played = match h.state().room().and_then(|r| r.live()) {
        Some(LiveGame::Gomoku(g)) => g.moves().to_vec(),
        _ => panic!("no game"),
    };
    assert_eq!(played.len(), 4);
    let free = played[2];
    click_label(&mut h, "Resign");
    click_label(&mut h, "Yes, resign");
    wait_until(&mut h, "the game id", |a| {
        a.room().is_some_and(|r| r.game_id.is_some())
    });
    click_label(&mut h, "Back to lobby");
    wait_until(&mut h, "the lobby", |a| a.room().is_none());

    open_history(&mut h, 1);
    assert!(has_text(&h, "Lost (resigned)"));
    assert!(has_text(&h, "Intermediate AI"));
    click_label(&mut h, "Replay");
    wait_until(&mut h, "the replay viewer", |a| a.replay().is_some());
    h.step();
    assert!(has_text(&h, "Move 0 of 4"));
    click_label(&mut h, "Forward");
    click_label(&mut h, "Forward");
    assert_eq!(replay_pos(h.state()), Some(2));
    assert!(has_text(&h, "Move 2 of 4"));
    let stones = |a: &TabulaApp| match a.replay().map(|r| r.current()) {
        Some(LiveGame::Gomoku(g)) => g.moves().to_vec(),
        _ => Vec::new(),
    };
    assert_eq!(stones(h.state()).len(), 2);
    assert_eq!(stones(h.state()), played[..2]);
    click_label(&mut h, "Last");
    assert!(has_text(&h, "Move 4 of 4"));
    assert_eq!(stones(h.state()), played);
    // Jump by clicking a line of the move list.
    click_label(&mut h, &format!("3. Black {free}"));
    assert_eq!(replay_pos(h.state()), Some(3));
    assert!(has_text(&h, "Move 3 of 4"));
    h.key_press(egui::Key::ArrowLeft);
    h.step();
    h.step();
    assert_eq!(replay_pos(h.state()), Some(2));
    click_label(&mut h, "First");
    assert_eq!(replay_pos(h.state()), Some(0));
    assert!(stones(h.state()).is_empty());
    // Turn the board around and back: a1 moves to the upper right.
    click_label(&mut h, "Flip board");
    assert!(has_text(&h, "Board turned around"));
    let geo = h.state().gomoku_geometry.expect("board drawn");
    assert!(geo.flipped);
    let (a1, o15) = (
        geo.to_screen(Point::new(0, 0)),
        geo.to_screen(Point::new(14, 14)),
    );
    assert!(a1.x > o15.x && a1.y < o15.y, "{a1:?} {o15:?}");
    click_label(&mut h, "Flip board");
    assert!(!h.state().gomoku_geometry.expect("board drawn").flipped);

    // Save it from the replay viewer, as SGF and as Piskvork .psq.
    let dir = tempfile::tempdir().expect("temp dir");
    click_label(&mut h, "Save export…");
    let proposed = h
        .state()
        .export_form()
        .expect("the export window")
        .path
        .clone();
    assert!(
        // Named after the date and the players, not the game id (issue 26 #13).
        proposed.ends_with(".sgf") && proposed.contains("tabula 20") && proposed.contains("Gus vs"),
        "{proposed}"
    );
    let sgf = dir.path().join("gomoku.sgf");
    type_into(&mut h, "File", &sgf.display().to_string());
    click_label(&mut h, "Save");
    assert!(
        has_text(&h, "Saved to "),
        "{:?}",
        h.state().export_form().map(|f| &f.outcome)
    );
    let text = std::fs::read_to_string(&sgf).expect("the SGF file");
    assert!(text.contains("GM[4]") && text.contains("Gus"), "{text}");
    click_label(&mut h, "Piskvork .psq");
    let psq = h.state().export_form().expect("form").path.clone();
    assert!(psq.ends_with("gomoku.psq"), "{psq}");
    click_label(&mut h, "Save");
    assert!(std::path::Path::new(&psq).exists());
    h.state_mut().apply(tabula_client::Command::CloseExport);
    h.step();

    click_label(&mut h, "Close");
    wait_until(&mut h, "the history again", |a| {
        a.screen() == tabula_client::app::Screen::History
    });

    // A one-point Backgammon match, resigned as a backgammon: dice, and a
    // board that flips.
    click_label(&mut h, "Lobby");
    h.state_mut().settings.create.length = 1;
    click_label(&mut h, "Create room…");
    click_label(&mut h, "Backgammon");
    click_label(&mut h, "AI");
    click_label(&mut h, "White");
    click_label(&mut h, "Create");
    wait_until(&mut h, "the opening roll", |a| {
        a.room()
            .and_then(|r| r.record())
            .is_some_and(|r| !r.is_empty())
    });
    click_menu_item(&mut h, "Resign", "Resign a backgammon");
    click_label(&mut h, "Yes, resign");
    wait_until(&mut h, "the game id", |a| {
        a.room().is_some_and(|r| r.game_id.is_some())
    });
    let recorded = h
        .state()
        .room()
        .and_then(|r| r.record())
        .map_or(0, |r| r.len());
    // Save the match from the game-over dialog (Jellyfish .mat by default).
    click_label(&mut h, "Save export…");
    wait_until(&mut h, "the export window", |a| a.export_form().is_some());
    h.step();
    let mat = dir.path().join("match.mat");
    type_into(&mut h, "File", &mat.display().to_string());
    click_label(&mut h, "Save");
    assert!(has_text(&h, "Saved to "));
    let text = std::fs::read_to_string(&mat).expect("the .mat file");
    assert!(
        text.contains("1 point match") && text.contains("Gus"),
        "{text}"
    );
    h.state_mut().apply(tabula_client::Command::CloseExport);
    click_label(&mut h, "Back to lobby");
    wait_until(&mut h, "the lobby", |a| a.room().is_none());
    open_history(&mut h, 2);
    // Newest first: the Backgammon match heads the list.
    let first = &h.state().history().expect("page").games[0];
    assert_eq!(
        first.options.game.kind(),
        tabula_shared::protocol::GameKind::Backgammon
    );
    h.get_all_by_label("Replay")
        .next()
        .expect("a Replay button")
        .click();
    wait_until(&mut h, "the replay viewer", |a| {
        a.replay().is_some_and(|r| r.is_backgammon())
    });
    h.step();
    assert_eq!(h.state().replay().map(|r| r.len()), Some(recorded));
    assert!(has_text(&h, &format!("Move 0 of {recorded}")));
    assert!(has_text(&h, "Seen from White"));
    click_label(&mut h, "Flip board");
    assert_eq!(h.state().replay().map(|r| r.viewer()), Some(Side::Black));
    assert!(has_text(&h, "Seen from Black"));
    click_label(&mut h, "Forward");
    assert_eq!(replay_pos(h.state()), Some(1));
    assert!(has_text(&h, "Opening roll: White"));
    assert!(h.state().replay().and_then(|r| r.dice()).is_some());
    h.key_press(egui::Key::End);
    h.step();
    h.step();
    assert_eq!(replay_pos(h.state()), Some(recorded));
    assert!(has_text(&h, "White resigns a backgammon — Black wins"));
}

#[test]
fn a_rated_game_updates_the_leaderboard() {
    let server = start_server();
    let mut ada = app(&server, "Ada");
    connect(&mut ada);
    register(&mut ada, "ada's long password");
    let mut bob = app(&server, "Bob");
    connect(&mut bob);
    register(&mut bob, "bob's long password");

    click_label(&mut ada, "Create room…");
    click_label(&mut ada, "Gomoku");
    click_label(&mut ada, "Human");
    click_label(&mut ada, "Rated");
    click_label(&mut ada, "Create");
    wait_until(&mut ada, "the room", |a| {
        a.room().and_then(|r| r.summary.as_ref()).is_some()
    });
    assert!(
        ada.state()
            .room()
            .and_then(|r| r.summary.as_ref())
            .is_some_and(|s| s.options.rated),
        "a rated room"
    );
    wait_until(&mut bob, "the rated room in the lobby", |a| {
        a.lobby().any(|r| r.options.rated)
    });
    bob.step();
    // The "Rated" column header and the room's mark.
    assert!(bob.query_all_by_label("Rated").count() >= 2);
    click_label(&mut bob, "Join");
    wait_until(&mut ada, "the game to start", |a| {
        a.room()
            .and_then(|r| r.summary.as_ref())
            .is_some_and(|s| s.status == RoomStatus::Playing)
    });
    ada.step();
    click_label(&mut ada, "Resign");
    click_label(&mut ada, "Yes, resign");
    wait_until(&mut ada, "the rating changes", |a| {
        a.room().is_some_and(|r| r.ratings.len() == 2)
    });
    ada.step();
    assert!(
        has_text(&ada, "1500 to "),
        "the game-over dialog shows the ratings"
    );
    assert!(has_text(&ada, "provisional"));
    click_label(&mut ada, "Back to lobby");
    wait_until(&mut ada, "the lobby", |a| a.room().is_none());

    click_label(&mut ada, "Leaderboard");
    wait_until(&mut ada, "the leaderboard", |a| {
        a.leaderboard().is_some_and(|b| b.entries.len() == 2)
    });
    ada.step();
    let board = ada.state().leaderboard().expect("board");
    assert_eq!(board.entries[0].name, "Bob", "the winner leads");
    assert_eq!(board.entries[1].name, "Ada");
    assert!(board.entries.iter().all(|e| e.provisional && e.games == 1));
    let bob_rating = board.entries[0].rating;
    assert!(
        has_text(&ada, &format!("{bob_rating}?")),
        "provisional marker"
    );
    assert!(has_text(&ada, "Expert AI"), "the AI levels for comparison");

    click_label(&mut ada, "Last 7 days");
    wait_until(&mut ada, "the weekly list", |a| {
        a.leaderboard().is_some_and(|b| {
            b.period == tabula_shared::protocol::LeaderboardPeriod::Week && b.entries.len() == 2
        })
    });
    ada.step();
    let week = ada.state().leaderboard().expect("board");
    assert!(week.entries[0].change.is_some_and(|c| c > 0));
    assert!(has_text(
        &ada,
        &format!("{:+}", week.entries[0].change.unwrap_or(0))
    ));

    click_label(&mut ada, "Backgammon");
    wait_until(&mut ada, "the Backgammon list", |a| {
        a.leaderboard()
            .is_some_and(|b| b.game == tabula_shared::protocol::GameKind::Backgammon)
    });
    ada.step();
    assert!(has_text(&ada, "Nobody played a rated game"));
}

/// Plays our Backgammon turns (rolling, taking, making the first offered
/// hops) until `turns` plays of ours are in the record.
fn play_bg_turns(h: &mut Harness<'_, TabulaApp>, turns: usize) {
    let mine = |a: &TabulaApp| match a.room().and_then(|r| r.record()) {
        Some(tabula_shared::protocol::GameRecord::Backgammon { actions, .. }) => actions
            .iter()
            .filter(|x| {
                matches!(
                    x,
                    tabula_shared::protocol::BgAction::Play {
                        side: Side::White,
                        ..
                    }
                )
            })
            .count(),
        _ => 0,
    };
    for _ in 0..3000 {
        h.step();
        if mine(h.state()) >= turns {
            return;
        }
        let phase = bg_phase(h.state());
        if h.state().animating() {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        if matches!(phase, Some(GamePhase::AwaitingRoll { side: Side::White }))
            && let Some(roll) = h.query_by_label("Roll")
        {
            roll.click();
        }
        if let Some(take) = h.query_by_label("Take") {
            take.click();
        }
        if let Some(turn) = h.state().turn() {
            if turn.is_complete() {
                let before = mine(h.state());
                h.get_by_label("Confirm").click();
                // Until the play is in, the buttons below move under the pointer.
                wait_until(h, "the play", |a| mine(a) > before);
            } else {
                click_first_hop(h);
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!(
        "could not play {turns} turns: {:?} turn {:?} toasts {:?}",
        bg_phase(h.state()),
        h.state().turn().map(|t| t.hops().len()),
        h.state().toasts()
    );
}

/// Fills a server's data directory with games for the screenshots in
/// `docs/screenshots/`: `TABULA_SEED_DIR=/tmp/seed cargo test -p
/// tabula-client --test lobby_ui seed -- --ignored`, then run `tabula-server
/// --data-dir /tmp/seed` and sign in as Ada (password "ada's long password").
#[test]
#[ignore = "writes a data directory for screenshots"]
fn seed_screenshot_data() {
    let dir = std::env::var("TABULA_SEED_DIR").expect("TABULA_SEED_DIR");
    let (addr, _stop) = serve(
        std::path::Path::new(&dir),
        "127.0.0.1:0".parse().expect("addr"),
    );
    let server = Server {
        addr,
        _stop,
        _tmp: tempfile::tempdir().expect("temp dir"),
    };
    let mut ada = app(&server, "Ada");
    connect(&mut ada);
    register(&mut ada, "ada's long password");
    click_label(&mut ada, "Account…");
    let mut bob = app(&server, "Bob");
    connect(&mut bob);
    register(&mut bob, "bob's long password");
    click_label(&mut bob, "Account…");

    // Two rated Gomoku games: Ada wins with a row, then Bob by resignation.
    for round in 0..2 {
        let form = &mut ada.state_mut().settings.create;
        form.game = tabula_shared::protocol::GameKind::Gomoku;
        form.vs_ai = false;
        form.rated = round == 0;
        form.colour = tabula_shared::protocol::ColourChoice::Black;
        click_label(&mut ada, "Create room…");
        click_label(&mut ada, "Create");
        wait_until(&mut bob, "the room", |a| {
            a.lobby().any(|r| r.status == RoomStatus::Waiting)
        });
        bob.step();
        click_label(&mut bob, "Join");
        wait_until(&mut ada, "the game", |a| {
            a.room()
                .and_then(|r| r.summary.as_ref())
                .is_some_and(|s| s.status == RoomStatus::Playing)
        });
        wait_until(&mut bob, "the game", |a| {
            a.room()
                .and_then(|r| r.summary.as_ref())
                .is_some_and(|s| s.status == RoomStatus::Playing)
        });
        let black = [(7, 7), (8, 8), (6, 6), (9, 9), (5, 5)];
        let white = [(8, 7), (7, 8), (9, 8), (6, 7)];
        let moves = if round == 0 { 9 } else { 6 };
        for i in 0..moves {
            let (h, (x, y)) = if i % 2 == 0 {
                (&mut ada, black[i / 2])
            } else {
                (&mut bob, white[i / 2])
            };
            wait_until(h, "our turn", |a| gomoku_moves(a) == i);
            for _ in 0..5 {
                h.step();
                place(h, Point::new(x, y));
                for _ in 0..50 {
                    h.step();
                    std::thread::sleep(Duration::from_millis(10));
                }
                if gomoku_moves(h.state()) == i + 1 {
                    break;
                }
            }
            wait_until(h, "the stone", |a| gomoku_moves(a) == i + 1);
        }
        if round == 1 {
            click_label(&mut ada, "Resign");
            click_label(&mut ada, "Yes, resign");
        }
        wait_until(&mut ada, "the end", |a| {
            a.room().is_some_and(|r| r.game_id.is_some())
        });
        click_label(&mut ada, "Back to lobby");
        wait_until(&mut bob, "the end", |a| {
            a.room().is_some_and(|r| r.game_id.is_some())
        });
        click_label(&mut bob, "Back to lobby");
        wait_until(&mut ada, "the lobby", |a| a.room().is_none());
        wait_until(&mut bob, "the lobby", |a| a.room().is_none());
    }

    // A Backgammon money game against the AI: a few turns, then a resignation.
    let form = &mut ada.state_mut().settings.create;
    form.game = tabula_shared::protocol::GameKind::Backgammon;
    form.length = 0;
    form.vs_ai = true;
    form.colour = tabula_shared::protocol::ColourChoice::White;
    click_label(&mut ada, "Create room…");
    click_label(&mut ada, "Create");
    play_bg_turns(&mut ada, 4);
    wait_until(&mut ada, "our roll", |a| {
        !a.animating()
            && matches!(
                bg_phase(a),
                Some(GamePhase::AwaitingRoll { side: Side::White })
            )
    });
    click_menu_item(&mut ada, "Resign", "Resign a single game");
    click_label(&mut ada, "Yes, resign");
    wait_until(&mut ada, "the end", |a| {
        a.room().is_some_and(|r| r.game_id.is_some())
    });
}

/// Fills a server's data directory with two games in progress for the room
/// screenshots in `docs/screenshots/` (`room-*`): Ada's Gomoku against the
/// AI and Bea's Backgammon against the AI, each waiting for its player.
/// Their resume tokens go to `$TABULA_SEED_DIR/tokens.json`; a client that
/// has a token for the server rejoins its room on launch:
/// `TABULA_SEED_DIR=/tmp/rooms cargo test -p tabula-client --test lobby_ui
/// room_screenshot -- --ignored`, then `tabula-server --data-dir /tmp/rooms`.
#[test]
#[ignore = "writes a data directory for screenshots"]
fn room_screenshot_data() {
    let dir = std::env::var("TABULA_SEED_DIR").expect("TABULA_SEED_DIR");
    let (addr, _stop) = serve(
        std::path::Path::new(&dir),
        "127.0.0.1:0".parse().expect("addr"),
    );
    let server = Server {
        addr,
        _stop,
        _tmp: tempfile::tempdir().expect("temp dir"),
    };
    let mut ada = app(&server, "Ada");
    connect(&mut ada);
    create_gomoku_vs_ai(&mut ada);
    for p in [(7, 7), (8, 6), (6, 8), (9, 7), (6, 6)] {
        let p = Point::new(p.0, p.1);
        let taken = |a: &TabulaApp| match a.room().and_then(|r| r.live()) {
            Some(LiveGame::Gomoku(g)) => g.get(p).is_some(),
            _ => true,
        };
        if taken(ada.state()) {
            continue;
        }
        let before = gomoku_moves(ada.state());
        place(&mut ada, p);
        wait_until(&mut ada, "the AI's answer", |a| {
            gomoku_moves(a) >= before + 2
        });
    }
    let mut bea = app(&server, "Bea");
    connect(&mut bea);
    let form = &mut bea.state_mut().settings.create;
    form.game = tabula_shared::protocol::GameKind::Backgammon;
    form.vs_ai = true;
    form.colour = tabula_shared::protocol::ColourChoice::White;
    click_label(&mut bea, "Create room…");
    click_label(&mut bea, "Create");
    play_bg_turns(&mut bea, 3);
    wait_until(&mut bea, "our roll", |a| {
        !a.animating()
            && matches!(
                bg_phase(a),
                Some(GamePhase::AwaitingRoll { side: Side::White })
            )
    });
    click_label(&mut bea, "Roll");
    wait_until(&mut bea, "our dice", |a| a.turn().is_some());
    let token = |h: &Harness<'_, TabulaApp>| {
        h.state()
            .settings
            .tokens
            .get(&server.addr.to_string())
            .cloned()
            .expect("a token")
    };
    let tokens = serde_json::json!({ "Ada": token(&ada), "Bea": token(&bea) });
    std::fs::write(format!("{dir}/tokens.json"), tokens.to_string()).expect("write tokens");
}
