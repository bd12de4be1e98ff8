//! Helpers for the UI tests: a real server running in this process on
//! `127.0.0.1:0`, and the real app driven headless by `egui_kittest`.

// Each test file uses some of these, not all.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

use egui::{Event, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tabula_client::bg_view::Loc;
use tabula_client::net::ConnState;
use tabula_client::{Settings, TabulaApp};
use tabula_shared::backgammon::GamePhase;
use tabula_shared::game::LiveGame;
use tabula_shared::gomoku::Point;
use tabula_shared::protocol::RoomStatus;

/// A server on its own runtime thread, stopped when dropped.
pub struct Server {
    pub addr: SocketAddr,
    pub _stop: tokio::sync::oneshot::Sender<()>,
    pub _tmp: tempfile::TempDir,
}

pub fn start_server() -> Server {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (addr, stop) = serve(tmp.path(), "127.0.0.1:0".parse().expect("addr"));
    Server {
        addr,
        _stop: stop,
        _tmp: tmp,
    }
}

/// Runs a server with test settings on `addr` until the sender is dropped.
pub fn serve(
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

pub fn app(server: &Server, name: &str) -> Harness<'static, TabulaApp> {
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
pub fn wait_until(h: &mut Harness<'_, TabulaApp>, what: &str, cond: impl Fn(&TabulaApp) -> bool) {
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

pub fn press_release(h: &mut Harness<'_, TabulaApp>, pos: Pos2) {
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
pub fn click_where(h: &mut Harness<'_, TabulaApp>, at: impl Fn(&TabulaApp) -> Pos2) {
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
pub fn click_label(h: &mut Harness<'_, TabulaApp>, label: &str) {
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
pub fn click_menu_item(h: &mut Harness<'_, TabulaApp>, menu: &str, item: &str) {
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

pub fn connect(h: &mut Harness<'_, TabulaApp>) {
    h.step();
    click_label(h, "Connect");
    wait_until(h, "welcome", |a| *a.connection() == ConnState::Connected);
    wait_until(h, "lobby", |a| a.room().is_none());
    h.step();
}

pub fn gomoku_moves(a: &TabulaApp) -> usize {
    match a.room().and_then(|r| r.live()) {
        Some(LiveGame::Gomoku(g)) => g.moves().len(),
        _ => 0,
    }
}

pub fn create_gomoku_vs_ai(h: &mut Harness<'_, TabulaApp>) {
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

pub fn place(h: &mut Harness<'_, TabulaApp>, p: Point) {
    click_where(h, |a| a.gomoku_geometry.expect("board drawn").to_screen(p));
}

/// An empty point away from the centre, where the AIs open.
pub fn free_point(h: &Harness<'_, TabulaApp>) -> Point {
    [Point::new(3, 3), Point::new(11, 11), Point::new(3, 11)]
        .into_iter()
        .find(|p| match h.state().room().and_then(|r| r.live()) {
            Some(LiveGame::Gomoku(g)) => g.get(*p).is_none(),
            _ => false,
        })
        .expect("a free point")
}

pub fn bg_phase(a: &TabulaApp) -> Option<GamePhase> {
    a.room().and_then(|r| r.backgammon()).map(|g| *g.phase())
}

pub fn click_loc(h: &mut Harness<'_, TabulaApp>, loc: Loc) {
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
pub fn click_first_hop(h: &mut Harness<'_, TabulaApp>) {
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

pub fn has_text(h: &Harness<'_, TabulaApp>, text: &str) -> bool {
    h.query_all_by_label_contains(text).next().is_some()
}

/// Types `text` into the text field labelled `label`, replacing what it held.
pub fn type_into(h: &mut Harness<'_, TabulaApp>, label: &str, text: &str) {
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

/// Registers the connected player's name through the account window.
pub fn register(h: &mut Harness<'_, TabulaApp>, password: &str) {
    click_label(h, "Account…");
    type_into(h, "New password", password);
    type_into(h, "Confirm password", password);
    click_label(h, "Register this name");
    wait_until(h, "registered", |a| a.registered());
    h.step();
}
