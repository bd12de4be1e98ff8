//! Gomoku rooms in the real app, driven headless by `egui_kittest` against
//! a real server running in this process on `127.0.0.1:0`: games against
//! the AI, rematch, leaving and coming back, the end of a game, spectators
//! and reconnecting.

mod common;

use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tabula_client::app::Danger;
use tabula_client::net::ConnState;
use tabula_client::{Settings, TabulaApp};
use tabula_shared::game::LiveGame;
use tabula_shared::gomoku::Point;
use tabula_shared::protocol::Role;
use tabula_shared::seat::Seat;

use common::{
    Server, app, click_label, connect, create_gomoku_vs_ai, free_point, gomoku_moves, has_text,
    place, press_release, serve, start_server, wait_until,
};

/// Ada in a Gomoku room against the AI, after her stone on the centre (7, 7)
/// and the AI's answer.
fn first_exchange_with_the_ai(server: &Server) -> Harness<'static, TabulaApp> {
    let mut h = app(server, "Ada");
    connect(&mut h);
    create_gomoku_vs_ai(&mut h);
    place(&mut h, Point::new(7, 7));
    wait_until(&mut h, "the AI's answer", |a| gomoku_moves(a) >= 2);
    h
}

#[test]
fn gomoku_against_the_ai() {
    let server = start_server();
    let mut h = first_exchange_with_the_ai(&server);
    // Clicking an occupied point does nothing.
    place(&mut h, Point::new(7, 7));
    let free = free_point(&h);
    place(&mut h, free);
    wait_until(&mut h, "the AI's second answer", |a| gomoku_moves(a) >= 4);
    let Some(LiveGame::Gomoku(g)) = h.state().room().and_then(|r| r.live()) else {
        panic!("no game");
    };
    assert_eq!(g.moves()[0], Point::new(7, 7));
    assert_eq!(g.moves()[2], free);
}

#[test]
fn a_rematch_against_the_ai_swaps_colours_and_plays_on() {
    let server = start_server();
    let mut h = first_exchange_with_the_ai(&server);
    click_label(&mut h, "Resign");
    click_label(&mut h, "Yes, resign");
    wait_until(&mut h, "the game to end", |a| {
        a.room().is_some_and(|r| r.result.is_some())
    });
    click_label(&mut h, "Close");
    click_label(&mut h, "Rematch");
    // The AI has black now, and opens.
    wait_until(&mut h, "the AI's opening", |a| {
        a.room().is_some_and(|r| r.result.is_none()) && gomoku_moves(a) == 1
    });
    assert_eq!(h.state().room().and_then(|r| r.seat), Some(Seat::Second));
    let free = free_point(&h);
    place(&mut h, free);
    wait_until(&mut h, "our stone and the AI's answer", |a| {
        gomoku_moves(a) >= 3
    });
}

/// Resigns the Gomoku game against the AI and waits for the result.
fn resign_and_wait(h: &mut Harness<'_, TabulaApp>) {
    click_label(h, "Resign");
    click_label(h, "Yes, resign");
    wait_until(h, "the game to end", |a| {
        a.room().is_some_and(|r| r.result.is_some())
    });
}

/// Issue 26 #1: a double click on Rematch in the panel resigned the new
/// game, whose Resign button took Rematch's place.
#[test]
fn a_double_click_on_rematch_does_not_resign_the_new_game() {
    let server = start_server();
    let mut h = first_exchange_with_the_ai(&server);
    resign_and_wait(&mut h);
    click_label(&mut h, "Close");
    h.step();
    let spot = h.get_by_label("Rematch").rect().center();
    press_release(&mut h, spot);
    wait_until(&mut h, "the new game", |a| {
        a.room().is_some_and(|r| r.result.is_none()) && gomoku_moves(a) == 1
    });
    h.step();
    // The second click of a double click lands on whatever is there now:
    // before the fix, the new game's Resign, which resigned at once. Click
    // Resign itself, where it is now, to be sure to hit it.
    let spot = h.get_by_label("Resign").rect().center();
    press_release(&mut h, spot);
    h.step();
    h.step();
    assert_eq!(h.state().confirming(), Some(Danger::Resign(None)));
    assert!(
        !h.get_by_label("Yes, resign").rect().contains(spot),
        "the question is away from the button that asked it"
    );
    for _ in 0..20 {
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(h.state().room().is_some_and(|r| r.result.is_none()));
    // A third click there (the backdrop) drops the question; the game goes on.
    press_release(&mut h, spot);
    h.step();
    assert_eq!(h.state().confirming(), None);
    assert!(h.state().room().is_some_and(|r| r.result.is_none()));
}

/// Issue 26 #2: "Leave room" in a running game gave up the seat at once.
#[test]
fn leaving_a_running_game_asks_first() {
    let server = start_server();
    let mut h = first_exchange_with_the_ai(&server);
    click_label(&mut h, "Leave room");
    assert_eq!(h.state().confirming(), Some(Danger::LeaveGame));
    h.step();
    assert!(has_text(&h, "Leave the game?"));
    click_label(&mut h, "Cancel");
    assert_eq!(h.state().confirming(), None);
    for _ in 0..10 {
        h.step();
    }
    assert!(h.state().room().is_some_and(|r| r.result.is_none()));
    click_label(&mut h, "Leave room");
    click_label(&mut h, "Yes, leave");
    wait_until(&mut h, "the lobby", |a| a.room().is_none());
}

/// A player who left a running game finds it in the lobby, not only as a
/// game to watch, and one click seats them again; the game goes on.
#[test]
fn a_game_left_is_taken_up_again_from_the_lobby() {
    let server = start_server();
    let mut h = first_exchange_with_the_ai(&server);
    click_label(&mut h, "Leave room");
    click_label(&mut h, "Yes, leave");
    wait_until(&mut h, "the lobby", |a| a.room().is_none());
    click_label(&mut h, "Return to your game");
    wait_until(&mut h, "back in the seat", |a| {
        a.room()
            .is_some_and(|r| r.is_player() && r.result.is_none() && gomoku_moves(a) == 2)
    });
    let p = free_point(&h);
    place(&mut h, p);
    wait_until(&mut h, "the AI's answer", |a| gomoku_moves(a) == 4);
}

/// Issue 26 #5: the game-over dialog sat in the middle of the board, and
/// once closed the panel said "Game over" without a winner.
#[test]
fn the_game_over_dialog_leaves_the_board_centre_and_the_panel_names_the_winner() {
    let server = start_server();
    let mut h = first_exchange_with_the_ai(&server);
    resign_and_wait(&mut h);
    for _ in 0..3 {
        h.step();
    }
    // From the title to the buttons of the last row.
    let dialog = h
        .get_by_label("Game over")
        .rect()
        .union(h.get_by_label("Close").rect());
    let centre = h
        .state()
        .gomoku_geometry
        .expect("board drawn")
        .to_screen(Point::new(7, 7));
    assert!(!dialog.contains(centre), "{dialog:?} covers {centre:?}");
    click_label(&mut h, "Close");
    assert!(has_text(
        &h,
        "Game over — Intermediate AI wins (by resignation)"
    ));
}

#[test]
fn a_spectator_sees_the_moves() {
    let server = start_server();
    let mut player = app(&server, "Cy");
    connect(&mut player);
    create_gomoku_vs_ai(&mut player);

    let mut watcher = app(&server, "Dee");
    connect(&mut watcher);
    wait_until(&mut watcher, "the room in the lobby", |a| {
        a.lobby().count() == 1
    });
    watcher.step();
    click_label(&mut watcher, "Watch");
    wait_until(&mut watcher, "the snapshot", |a| {
        a.room().is_some_and(|r| r.summary.is_some())
    });
    assert_eq!(
        watcher.state().room().map(|r| r.role),
        Some(Role::Spectator)
    );

    place(&mut player, Point::new(7, 7));
    wait_until(&mut player, "the AI's answer", |a| gomoku_moves(a) >= 2);
    wait_until(&mut watcher, "both moves", |a| gomoku_moves(a) >= 2);
    watcher.get_by_label("Flip board");
    assert!(
        watcher
            .state()
            .room()
            .is_some_and(|r| r.summary.as_ref().is_some_and(|s| s.spectators == 1))
    );
}

#[test]
fn reconnects_and_rejoins_after_the_server_restarts() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (addr, stop) = serve(tmp.path(), "127.0.0.1:0".parse().expect("addr"));
    let settings = Settings {
        name: "Eve".into(),
        address: addr.to_string(),
        ..Settings::default()
    };
    let mut h = Harness::builder()
        .with_size([1200.0, 800.0])
        .build_ui_state(
            |ui, app: &mut TabulaApp| app.frame(ui),
            TabulaApp::new(settings, || {}),
        );
    connect(&mut h);
    create_gomoku_vs_ai(&mut h);
    place(&mut h, Point::new(7, 7));
    wait_until(&mut h, "the AI's answer", |a| gomoku_moves(a) >= 2);

    drop(stop);
    wait_until(&mut h, "the drop to be noticed", |a| {
        matches!(a.connection(), ConnState::Retrying { .. })
    });
    // Same address, same data: the room and our seat come back.
    let (_, _stop) = serve(tmp.path(), addr);
    wait_until(&mut h, "the reconnect", |a| {
        *a.connection() == ConnState::Connected
    });
    wait_until(&mut h, "the room again", |a| {
        a.room().is_some_and(|r| r.summary.is_some()) && gomoku_moves(a) == 2
    });
    place(&mut h, Point::new(3, 3));
    wait_until(&mut h, "play to go on", |a| gomoku_moves(a) >= 4);
}
