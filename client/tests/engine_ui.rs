//! A host's external engine chosen as the opponent in the real app, driven
//! headless by `egui_kittest` against a real server (in this process, on
//! `127.0.0.1:0`) that runs a small Gomocup brain written in POSIX sh.

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tabula_client::net::ConnState;
use tabula_client::{Settings, TabulaApp};
use tabula_server::engines::EngineSpec;
use tabula_shared::game::LiveGame;
use tabula_shared::gomoku::Point;
use tabula_shared::protocol::{GameKind, RoomStatus};
use tabula_shared::seat::Seat;

/// A Gomocup brain: answers `START` with `OK`, and each `BOARD` with the
/// first point of its list that is free, which it also appends to the log
/// file named by its first argument.
const BRAIN: &str = r#"log=$1
board=" "
collecting=0
while IFS= read -r line; do
  line=$(printf '%s' "$line" | tr -d '\r')
  case "$line" in
    START*) echo OK ;;
    BOARD*) board=" "; collecting=1 ;;
    DONE*)
      collecting=0
      for p in 7,7 6,6 8,8 6,8 8,6 5,5 9,9 5,9 9,5; do
        case "$board" in
          *" $p "*) ;;
          *) echo "$p"; echo "$p" >> "$log"; break ;;
        esac
      done ;;
    INFO*) ;;
    END*) exit 0 ;;
    *) if [ "$collecting" = 1 ]; then board="$board${line%,*} "; fi ;;
  esac
done
"#;

/// Runs a server offering the sh brain as "Shell Brain" until the sender
/// is dropped.
fn serve(dir: &Path) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let script = dir.join("brain.sh");
    std::fs::write(&script, BRAIN).expect("brain written");
    let config = tabula_server::Config {
        data_dir: dir.join("data"),
        dice_seed: Some(7),
        ai_budget: Duration::from_millis(100),
        engines: vec![EngineSpec {
            game: GameKind::Gomoku,
            name: "Shell Brain".into(),
            program: "/bin/sh".into(),
            args: vec![
                script.display().to_string(),
                dir.join("brain.log").display().to_string(),
            ],
        }],
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
    (addr, stop)
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

/// Steps until a widget labelled (or showing the value) `text` shows up,
/// then clicks it.
fn click(h: &mut Harness<'_, TabulaApp>, text: &str) {
    for _ in 0..50 {
        if h.query_by_label(text).is_some() || h.query_by_value(text).is_some() {
            // A window shown for the first time settles in the next frame.
            h.step();
            match h.query_by_label(text) {
                Some(node) => node.click(),
                None => h.get_by_value(text).click(),
            }
            h.step();
            h.step();
            return;
        }
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("no widget labelled {text:?}");
}

#[test]
fn a_player_chooses_the_hosts_engine_and_it_plays() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (addr, _stop) = serve(tmp.path());
    let settings = Settings {
        name: "Ada".into(),
        address: addr.to_string(),
        ..Settings::default()
    };
    let mut h = Harness::builder()
        .with_size([1200.0, 800.0])
        .build_ui_state(
            |ui, app: &mut TabulaApp| app.frame(ui),
            TabulaApp::new(settings, || {}),
        );
    h.step();
    click(&mut h, "Connect");
    wait_until(&mut h, "welcome", |a| {
        *a.connection() == ConnState::Connected
    });
    click(&mut h, "Create room…");
    click(&mut h, "Gomoku");
    click(&mut h, "AI");
    // The AI's list, with the level chosen now; the engine is in it.
    click(&mut h, "Intermediate");
    click(&mut h, "Shell Brain");
    click(&mut h, "Create");
    wait_until(&mut h, "the game to start", |a| {
        a.room()
            .and_then(|r| r.summary.as_ref())
            .is_some_and(|s| s.status == RoomStatus::Playing)
    });
    let room = |a: &TabulaApp| a.room().map(|r| r.player_name(Seat::Second));
    assert_eq!(room(h.state()).as_deref(), Some("Shell Brain"));
    // Ada (black) opens; the brain answers with the first point of its list.
    h.step();
    let at = h
        .state()
        .gomoku_geometry
        .expect("board drawn")
        .to_screen(Point::new(0, 0));
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
    }
    let stones = |a: &TabulaApp| match a.room().and_then(|r| r.live()) {
        Some(LiveGame::Gomoku(g)) => g.moves().to_vec(),
        _ => Vec::new(),
    };
    wait_until(&mut h, "the engine's answer", |a| stones(a).len() >= 2);
    assert_eq!(stones(h.state())[1], Point::new(7, 7));
    let log = std::fs::read_to_string(tmp.path().join("brain.log")).expect("the brain played");
    assert_eq!(log.lines().collect::<Vec<_>>(), ["7,7"]);
}
