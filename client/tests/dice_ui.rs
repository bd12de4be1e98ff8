//! Verifiable dice in the real app, driven headless by `egui_kittest`
//! against a real server in this process: both players' seeds go in before
//! the first roll, the game-over dialog checks the dice against the revealed
//! seed (and so does the replay viewer), and the dice statistics screen
//! shows the server's counts.
//!
//! The helpers are copies of the few in `common/mod.rs` that this needs.

use std::net::SocketAddr;
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tabula_client::net::ConnState;
use tabula_client::{Settings, TabulaApp};
use tabula_shared::protocol::{GameRecord, RoomStatus};

/// A server on its own runtime thread, stopped when dropped.
struct Server {
    addr: SocketAddr,
    _stop: tokio::sync::oneshot::Sender<()>,
    _tmp: tempfile::TempDir,
}

/// Starts a server with the test dice seed (so its games say "test dice")
/// and a wait for the players' seeds long enough for both to arrive.
fn start_server() -> Server {
    let tmp = tempfile::tempdir().expect("temp dir");
    let config = tabula_server::Config {
        data_dir: tmp.path().to_path_buf(),
        dice_seed: Some(7),
        ai_budget: Duration::from_millis(100),
        ..tabula_server::Config::default()
    };
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().expect("runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind");
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
    Server {
        addr,
        _stop: stop,
        _tmp: tmp,
    }
}

/// An app named `name`, set to connect to `server`.
fn app(server: &Server, name: &str) -> Harness<'static, TabulaApp> {
    let settings = Settings {
        name: name.into(),
        address: server.addr.to_string(),
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

/// Steps until a widget with this label shows up, then clicks it.
fn click_label(h: &mut Harness<'_, TabulaApp>, label: &str) {
    // Up to about 5 s: on a loaded machine the server's answers that bring
    // a control up can take a while.
    for _ in 0..500 {
        if h.query_by_label(label).is_some() {
            // A window shown for the first time settles in the next frame.
            h.step();
            h.get_by_label(label).click();
            h.step();
            h.step();
            return;
        }
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("no widget labelled {label:?}");
}

/// Connects and waits for the lobby.
fn connect(h: &mut Harness<'_, TabulaApp>) {
    h.step();
    click_label(h, "Connect");
    wait_until(h, "welcome", |a| *a.connection() == ConnState::Connected);
    wait_until(h, "lobby", |a| a.room().is_none());
    h.step();
}

/// Whether some widget's label contains `text`.
fn has_text(h: &Harness<'_, TabulaApp>, text: &str) -> bool {
    h.query_all_by_label_contains(text).next().is_some()
}

/// The player seeds in the room's record, `[white, black]`.
fn player_seeds(a: &TabulaApp) -> Option<[String; 2]> {
    a.room()
        .and_then(|r| r.record())
        .and_then(GameRecord::dice)
        .map(|p| p.player_seeds.clone())
}

#[test]
fn both_seeds_go_in_and_the_game_over_dialog_verifies_the_dice() {
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
    let playing = |a: &TabulaApp| {
        a.room()
            .and_then(|r| r.summary.as_ref())
            .is_some_and(|s| s.status == RoomStatus::Playing)
    };
    wait_until(&mut ada, "the game to start", playing);
    wait_until(&mut bob, "the game to start", playing);

    // Each client sent a seed of its own by itself, and both see both.
    let both = |a: &TabulaApp| player_seeds(a).is_some_and(|s| s.iter().all(|s| !s.is_empty()));
    wait_until(&mut ada, "both seeds", both);
    wait_until(&mut bob, "both seeds", both);
    let seeds = player_seeds(ada.state()).expect("a proof");
    assert_ne!(seeds[0], seeds[1], "two random seeds");
    assert_eq!(player_seeds(bob.state()), Some(seeds));
    ada.step();
    assert!(has_text(&ada, "Dice committed: "), "the room panel says so");

    click_label(&mut ada, "Resign");
    click_label(&mut ada, "Resign a single game");
    click_label(&mut ada, "Yes, resign");
    wait_until(&mut bob, "the offer", |a| {
        a.room().is_some_and(|r| !r.offers.is_empty())
    });
    bob.step();
    click_label(&mut bob, "Accept");
    for h in [&mut ada, &mut bob] {
        wait_until(h, "the end", |a| {
            a.room().is_some_and(|r| r.game_id.is_some())
        });
        h.step();
        assert!(
            has_text(h, "match the server's revealed seed")
                || has_text(h, "matches the server's revealed seed"),
            "the dice are verified"
        );
        assert!(has_text(h, "Dice verified: "));
        assert!(has_text(
            h,
            "Test dice (--dice-seed): reproducible, not secret"
        ));
    }

    // The replay viewer checks the stored game's dice too.
    click_label(&mut bob, "Replay");
    wait_until(&mut bob, "the replay", |a| a.replay().is_some());
    bob.step();
    assert!(has_text(&bob, "Dice verified: "));

    // The dice statistics count the finished game.
    click_label(&mut ada, "Back to lobby");
    wait_until(&mut ada, "the lobby", |a| a.room().is_none());
    click_label(&mut ada, "Dice");
    wait_until(&mut ada, "the statistics", |a| {
        a.dice_stats().is_some_and(|r| r.games >= 1)
    });
    ada.step();
    assert!(has_text(&ada, "Dice statistics"));
    assert!(has_text(&ada, "All rolls on this server"));
    assert!(has_text(&ada, "Your rolls"));
    assert!(has_text(&ada, "a p-value above 0.01"));
}
