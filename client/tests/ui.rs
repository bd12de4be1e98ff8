//! The real app, driven headless by `egui_kittest` against a real server
//! running in this process on `127.0.0.1:0`.

use std::net::SocketAddr;
use std::time::Duration;

use egui::{Event, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tabula_client::app::Danger;
use tabula_client::bg_view::Loc;
use tabula_client::net::ConnState;
use tabula_client::{Settings, TabulaApp};
use tabula_shared::backgammon::{GamePhase, Side};
use tabula_shared::game::LiveGame;
use tabula_shared::gomoku::Point;
use tabula_shared::protocol::{Role, RoomStatus};
use tabula_shared::seat::Seat;

/// A server on its own runtime thread, stopped when dropped.
struct Server {
    addr: SocketAddr,
    _stop: tokio::sync::oneshot::Sender<()>,
    _tmp: tempfile::TempDir,
}

fn start_server() -> Server {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (addr, stop) = serve(tmp.path(), "127.0.0.1:0".parse().expect("addr"));
    Server {
        addr,
        _stop: stop,
        _tmp: tmp,
    }
}

/// Runs a server with test settings on `addr` until the sender is dropped.
fn serve(
    data_dir: &std::path::Path,
    addr: SocketAddr,
) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let config = tabula_server::Config {
        data_dir: data_dir.to_path_buf(),
        dice_seed: Some(7),
        // These games start rolling at once, as they do for players who
        // send no seed; tests/dice_ui.rs covers the wait for the seeds.
        dice_seed_wait: Duration::ZERO,
        ai_budget: Duration::from_millis(100),
        ..tabula_server::Config::default()
    };
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().expect("runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind(addr).await.expect("bind");
            addr_tx
                .send(listener.local_addr().expect("addr"))
                .expect("send");
            let _ = tabula_server::run(listener, config, async {
                let _ = stopped.await;
            })
            .await;
        });
    });
    let addr = addr_rx
        .recv_timeout(Duration::from_secs(10))
        .expect("server up");
    (addr, stop)
}

fn app(server: &Server, name: &str) -> Harness<'static, TabulaApp> {
    let settings = Settings {
        name: name.into(),
        address: server.addr.to_string(),
        // These tests build a play by clicking a checker, then its target
        // (app/tests/bg_clicks.rs covers gnubg's die clicks).
        die_clicks: false,
        ..Settings::default()
    };
    let app = TabulaApp::new(settings, || {});
    Harness::builder()
        .with_size([1200.0, 800.0])
        .build_ui_state(|ui, app: &mut TabulaApp| app.frame(ui), app)
}

/// Steps frames, sleeping a little between them, until `cond` holds.
fn wait_until(h: &mut Harness<'_, TabulaApp>, what: &str, cond: impl Fn(&TabulaApp) -> bool) {
    for _ in 0..600 {
        h.step();
        if cond(h.state()) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!(
        "timed out waiting for {what}; toasts: {:?}",
        h.state().toasts()
    );
}

fn press_release(h: &mut Harness<'_, TabulaApp>, pos: Pos2) {
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.step();
    }
}

/// Clicks where `at` says, reading it again after the hover frame: the board
/// is placed by the layout of the frame before, which can still move (a panel
/// settling its width, a line of text appearing), so aim at where it is now.
fn click_where(h: &mut Harness<'_, TabulaApp>, at: impl Fn(&TabulaApp) -> Pos2) {
    h.step();
    let mut pos = at(h.state());
    for _ in 0..5 {
        h.hover_at(pos);
        h.step();
        let now = at(h.state());
        if now == pos {
            break;
        }
        pos = now;
    }
    press_release(h, pos);
}

/// Steps until a widget with this label shows up, then clicks it.
fn click_label(h: &mut Harness<'_, TabulaApp>, label: &str) {
    for _ in 0..50 {
        if h.query_by_label(label).is_some() {
            // A window shown for the first time settles its size and place
            // in the next frame: click where it is then.
            h.step();
            h.get_by_label(label).click();
            // The click is applied at the end of this frame; the next one shows it.
            h.step();
            h.step();
            return;
        }
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("no widget labelled {label:?}");
}

/// Opens the menu `menu` and clicks its item `item`, opening the menu again
/// (a few times) if the item does not show: these tests' two apps and the
/// server run on their own clocks, and a test should fail on a missing
/// item, not on a click that landed as the panel changed. (That events no
/// longer close an open menu is checked by the client's unit test
/// `the_resign_menu_stays_open_when_the_opponent_moves`.)
fn click_menu_item(h: &mut Harness<'_, TabulaApp>, menu: &str, item: &str) {
    for _ in 0..5 {
        click_label(h, menu);
        for _ in 0..20 {
            if h.query_by_label(item).is_some() {
                click_label(h, item);
                return;
            }
            h.step();
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    panic!("the menu {menu:?} never showed {item:?}");
}

fn connect(h: &mut Harness<'_, TabulaApp>) {
    h.step();
    click_label(h, "Connect");
    wait_until(h, "welcome", |a| *a.connection() == ConnState::Connected);
    wait_until(h, "lobby", |a| a.room().is_none());
    h.step();
}

fn gomoku_moves(a: &TabulaApp) -> usize {
    match a.room().and_then(|r| r.live()) {
        Some(LiveGame::Gomoku(g)) => g.moves().len(),
        _ => 0,
    }
}

fn create_gomoku_vs_ai(h: &mut Harness<'_, TabulaApp>) {
    click_label(h, "Create room…");
    click_label(h, "Gomoku");
    click_label(h, "AI");
    click_label(h, "Create");
    wait_until(h, "the game to start", |a| {
        a.room()
            .and_then(|r| r.summary.as_ref())
            .is_some_and(|s| s.status == RoomStatus::Playing)
    });
    h.step();
}

fn place(h: &mut Harness<'_, TabulaApp>, p: Point) {
    click_where(h, |a| a.gomoku_geometry.expect("board drawn").to_screen(p));
}

/// An empty point away from the centre, where the AIs open.
fn free_point(h: &Harness<'_, TabulaApp>) -> Point {
    [Point::new(3, 3), Point::new(11, 11), Point::new(3, 11)]
        .into_iter()
        .find(|p| match h.state().room().and_then(|r| r.live()) {
            Some(LiveGame::Gomoku(g)) => g.get(*p).is_none(),
            _ => false,
        })
        .expect("a free point")
}

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

fn bg_phase(a: &TabulaApp) -> Option<GamePhase> {
    a.room().and_then(|r| r.backgammon()).map(|g| *g.phase())
}

fn click_loc(h: &mut Harness<'_, TabulaApp>, loc: Loc) {
    click_where(h, |a| {
        let geo = a.bg_geometry.expect("board drawn");
        match loc {
            Loc::Point(n) => geo.checker_center(n, 0),
            Loc::Bar => geo.bar_center(true, 0),
            Loc::Off => geo.tray(true).center(),
        }
    });
}

/// Makes the first offered hop by clicking its checker, then its destination.
fn click_first_hop(h: &mut Harness<'_, TabulaApp>) {
    let option = h.state().turn().expect("our turn").options()[0];
    let before = h.state().turn().expect("our turn").hops().len();
    click_loc(h, Loc::from_number(option.from));
    click_loc(h, Loc::from_number(option.to));
    assert_eq!(
        h.state().turn().expect("our turn").hops().len(),
        before + 1,
        "hop {option:?} was not made"
    );
}

/// Makes the first offered hop by dragging its checker to its destination.
fn drag_first_hop(h: &mut Harness<'_, TabulaApp>) {
    let option = h.state().turn().expect("our turn").options()[0];
    let before = h.state().turn().expect("our turn").hops().len();
    let geo = h.state().bg_geometry.expect("board drawn");
    let from = match Loc::from_number(option.from) {
        Loc::Point(n) => geo.checker_center(n, 0),
        _ => geo.bar_center(true, 0),
    };
    let to = match Loc::from_number(option.to) {
        Loc::Point(n) => geo.checker_center(n, 0),
        _ => geo.tray(true).center(),
    };
    h.hover_at(from);
    h.step();
    h.drag_at(from);
    h.step();
    for t in [0.25, 0.5, 0.75, 1.0] {
        h.hover_at(from + (to - from) * t);
        h.step();
    }
    h.drop_at(to);
    h.step();
    assert_eq!(
        h.state().turn().expect("our turn").hops().len(),
        before + 1,
        "drag {option:?} was not made"
    );
}

#[test]
fn backgammon_turn_by_clicks_with_undo() {
    let server = start_server();
    let mut h = app(&server, "Bea");
    connect(&mut h);
    click_label(&mut h, "Create room…");
    click_label(&mut h, "Backgammon");
    click_label(&mut h, "AI");
    click_label(&mut h, "White");
    click_label(&mut h, "Create");

    // Wait for our turn to move; roll when asked.
    for _ in 0..600 {
        h.step();
        let phase = bg_phase(h.state());
        if matches!(
            phase,
            Some(GamePhase::Moving {
                side: Side::White,
                ..
            })
        ) && h.state().turn().is_some()
            && !h.state().animating()
        {
            break;
        }
        if matches!(phase, Some(GamePhase::AwaitingRoll { side: Side::White }))
            && !h.state().animating()
            && let Some(roll) = h.query_by_label("Roll")
        {
            roll.click();
        }
        if let Some(take) = h.query_by_label("Take") {
            take.click();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(h.state().turn().is_some(), "never got to move");
    let record_len = h
        .state()
        .room()
        .and_then(|r| r.record())
        .map_or(0, |r| r.len());

    click_first_hop(&mut h);
    click_label(&mut h, "Undo");
    assert!(h.state().turn().expect("turn").hops().is_empty());

    drag_first_hop(&mut h);
    for _ in 0..3 {
        if h.state().turn().expect("turn").is_complete() {
            break;
        }
        click_first_hop(&mut h);
    }
    assert!(h.state().turn().expect("turn").is_complete());
    let play = h.state().turn().expect("turn").play();
    click_label(&mut h, "Confirm");
    wait_until(&mut h, "our play in the record", |a| {
        a.room()
            .and_then(|r| r.record())
            .is_some_and(|r| r.len() > record_len)
    });
    let room = h.state().room().expect("room");
    let Some(tabula_shared::protocol::GameRecord::Backgammon { actions, .. }) = room.record()
    else {
        panic!("no record");
    };
    let tabula_shared::protocol::BgAction::Play { side, play: sent } = &actions[record_len] else {
        panic!("not a play: {:?}", actions[record_len]);
    };
    assert_eq!(*side, Side::White);
    assert_eq!(sent.to_string(), play.to_string());
    // The panel says what was played last (ours, or the AI's answer by now).
    h.step();
    assert!(has_text(&h, "Last move: "), "no last move shown");
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

// ----- accounts, history, replay, leaderboard -------------------------------

/// Types `text` into the text field labelled `label`, replacing what it held.
fn type_into(h: &mut Harness<'_, TabulaApp>, label: &str, text: &str) {
    for _ in 0..50 {
        if h.query_by_label(label).is_some() {
            break;
        }
        h.step();
    }
    h.get_by_label(label).click();
    h.step();
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.key_press(egui::Key::Backspace);
    h.step();
    h.get_by_label(label).type_text(text);
    h.step();
}

fn has_text(h: &Harness<'_, TabulaApp>, text: &str) -> bool {
    h.query_all_by_label_contains(text).next().is_some()
}

/// Registers the connected player's name through the account window.
fn register(h: &mut Harness<'_, TabulaApp>, password: &str) {
    click_label(h, "Account…");
    type_into(h, "New password", password);
    type_into(h, "Confirm password", password);
    click_label(h, "Register this name");
    wait_until(h, "registered", |a| a.registered());
    h.step();
}

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

/// A Backgammon resignation between two people: offered from the Resign
/// menu, refused from the offer box (the game goes on), offered again for
/// less and accepted.
#[test]
fn a_backgammon_resignation_is_offered_refused_and_accepted() {
    let server = start_server();
    let mut ada = app(&server, "Ada");
    connect(&mut ada);
    let mut bob = app(&server, "Bob");
    connect(&mut bob);

    ada.state_mut().settings.create.length = 0;
    click_label(&mut ada, "Create room…");
    click_label(&mut ada, "Backgammon");
    click_label(&mut ada, "Human");
    click_label(&mut ada, "White");
    click_label(&mut ada, "Create");
    wait_until(&mut bob, "the room in the lobby", |a| {
        a.lobby().count() == 1
    });
    bob.step();
    click_label(&mut bob, "Join");
    // Past the opening roll: the events that start a game change the
    // panel, and a menu opened while they arrive can close again.
    let playing = |a: &TabulaApp| {
        a.room().is_some_and(|r| {
            r.summary
                .as_ref()
                .is_some_and(|s| s.status == RoomStatus::Playing)
                && matches!(r.live(), Some(LiveGame::Backgammon(g)) if g.to_act().is_some())
        })
    };
    wait_until(&mut ada, "the game to start", playing);
    wait_until(&mut bob, "the game to start", playing);

    click_menu_item(&mut ada, "Resign", "Resign a gammon");
    click_label(&mut ada, "Yes, resign");
    wait_until(&mut bob, "the offer", |a| {
        a.room().is_some_and(|r| !r.offers.is_empty())
    });
    bob.step();
    assert!(has_text(&bob, "Ada offers to resign a gammon."));
    wait_until(&mut ada, "our offer shown", |a| {
        a.room().is_some_and(|r| !r.offers.is_empty())
    });
    ada.step();
    assert!(has_text(&ada, "You offered to resign a gammon; waiting"));

    click_label(&mut bob, "Decline");
    wait_until(&mut ada, "the refusal", |a| {
        a.room().is_some_and(|r| r.offers.is_empty())
    });
    ada.step();
    assert!(has_text(
        &ada,
        "Your resignation of a gammon was refused: play on"
    ));
    assert!(ada.state().room().is_some_and(|r| r.game_id.is_none()));

    click_menu_item(&mut ada, "Resign", "Resign a single game");
    click_label(&mut ada, "Yes, resign");
    wait_until(&mut bob, "the second offer", |a| {
        a.room().is_some_and(|r| !r.offers.is_empty())
    });
    bob.step();
    assert!(has_text(&bob, "Ada offers to resign a single game."));
    click_label(&mut bob, "Accept");
    for h in [&mut ada, &mut bob] {
        wait_until(h, "the end", |a| {
            a.room().is_some_and(|r| r.game_id.is_some())
        });
    }
    bob.step();
    assert!(has_text(&bob, "You win!"));
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
/// tabula-client --test ui seed -- --ignored`, then run `tabula-server
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
/// `TABULA_SEED_DIR=/tmp/rooms cargo test -p tabula-client --test ui
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
