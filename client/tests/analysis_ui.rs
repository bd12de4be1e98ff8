//! Analysis and hints in the real app, driven headless by `egui_kittest`
//! against a real server running in this process on `127.0.0.1:0`: a
//! finished game analysed from the game-over dialog (the graph, the marked
//! mistakes, a click on the graph), and the Hint button where a room
//! allows hints and nowhere else.

use std::net::SocketAddr;
use std::time::Duration;

use egui::{Event, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tabula_client::analysis::AnalysisState;
use tabula_client::app::Command;
use tabula_client::net::ConnState;
use tabula_client::{Settings, TabulaApp};
use tabula_shared::game::LiveGame;
use tabula_shared::gomoku::Point;
use tabula_shared::protocol::{
    ColourChoice, GameAnalysis, GameKind, GomokuMistake, PlayerAction, RoomStatus,
};

/// A server on its own runtime thread, stopped when dropped.
struct Server {
    addr: SocketAddr,
    _stop: tokio::sync::oneshot::Sender<()>,
    _tmp: tempfile::TempDir,
}

/// A server whose Gomoku analyses search 20 000 nodes per position (quick).
fn start_server() -> Server {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (addr, stop) = serve(tmp.path(), "127.0.0.1:0");
    Server {
        addr,
        _stop: stop,
        _tmp: tmp,
    }
}

/// Runs a server with test settings on `addr` until the sender is dropped.
fn serve(data_dir: &std::path::Path, addr: &str) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let addr: SocketAddr = addr.parse().expect("an address");
    let config = tabula_server::Config {
        data_dir: data_dir.to_path_buf(),
        dice_seed: Some(7),
        dice_seed_wait: Duration::ZERO,
        ai_budget: Duration::from_millis(100),
        analysis_gomoku_nodes: 20_000,
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
        ..Settings::default()
    };
    let app = TabulaApp::new(settings, || {});
    Harness::builder()
        .with_size([1280.0, 800.0])
        .build_ui_state(|ui, app: &mut TabulaApp| app.frame(ui), app)
}

/// Steps frames, sleeping a little between them, until `cond` holds or
/// `secs` have passed.
fn wait_for(
    h: &mut Harness<'_, TabulaApp>,
    what: &str,
    secs: u64,
    cond: impl Fn(&TabulaApp) -> bool,
) {
    let deadline = std::time::Instant::now() + Duration::from_secs(secs);
    while std::time::Instant::now() < deadline {
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
    for _ in 0..100 {
        if h.query_by_label(label).is_some() {
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

fn has_text(h: &Harness<'_, TabulaApp>, text: &str) -> bool {
    h.query_all_by_label_contains(text).next().is_some()
}

fn connect(h: &mut Harness<'_, TabulaApp>) {
    h.step();
    click_label(h, "Connect");
    wait_for(h, "welcome", 10, |a| {
        *a.connection() == ConnState::Connected
    });
    h.step();
}

fn playing(a: &TabulaApp) -> bool {
    a.room()
        .and_then(|r| r.summary.as_ref())
        .is_some_and(|s| s.status == RoomStatus::Playing)
}

fn gomoku_moves(a: &TabulaApp) -> usize {
    match a.room().and_then(|r| r.live()) {
        Some(LiveGame::Gomoku(g)) => g.moves().len(),
        _ => 0,
    }
}

/// Ada (Black) and Bob (White) at a Gomoku board against each other; Ada
/// created the room, with hints allowed when `hints`.
fn pvp_gomoku(server: &Server, hints: bool) -> [Harness<'static, TabulaApp>; 2] {
    let mut ada = app(server, "Ada");
    connect(&mut ada);
    let form = &mut ada.state_mut().settings.create;
    form.game = GameKind::Gomoku;
    form.vs_ai = false;
    form.colour = ColourChoice::Black;
    click_label(&mut ada, "Create room…");
    if hints {
        // The checkbox of the create dialog, as a player sets it.
        click_label(&mut ada, "Allow hints");
        assert!(ada.state().settings.create.hints);
    }
    click_label(&mut ada, "Create");
    let mut bob = app(server, "Bob");
    connect(&mut bob);
    wait_for(&mut bob, "Ada's room", 10, |a| {
        a.lobby().any(|r| r.status == RoomStatus::Waiting)
    });
    click_label(&mut bob, "Join");
    wait_for(&mut ada, "the game", 10, playing);
    wait_for(&mut bob, "the game", 10, playing);
    [ada, bob]
}

/// Plays `stones` in turn, Black (Ada) first, through the app's commands.
fn play_stones(players: &mut [Harness<'static, TabulaApp>; 2], stones: &[(u8, u8)]) {
    for (i, &(x, y)) in stones.iter().enumerate() {
        let h = &mut players[i % 2];
        wait_for(h, "our turn", 10, |a| gomoku_moves(a) == i);
        h.state_mut().apply(Command::PlaceStone(Point::new(x, y)));
        wait_for(h, "the stone", 10, |a| gomoku_moves(a) == i + 1);
    }
}

fn press_release(h: &mut Harness<'_, TabulaApp>, pos: Pos2) {
    h.hover_at(pos);
    h.step();
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.step();
    }
    h.step();
}

/// A Gomoku game with known mistakes, Black first: White's sixth stone
/// (index 5) does not block Black's open three, Black's (12, 0) (index 8)
/// misses the win, and White wins.
const MISTAKES: [(u8, u8); 10] = [
    (7, 7),
    (0, 0),
    (8, 7),
    (0, 1),
    (9, 7),
    (0, 2),
    (10, 7),
    (0, 3),
    (12, 0),
    (0, 4),
];

/// The game of issue 30: White's sixth stone (index 5) does not block
/// Black's open three, Black's (12, 0) (index 8) misses the win, White
/// wins. Analysed from the game-over dialog: the replay viewer opens, the
/// progress runs, then the graph and the marks show, and a click on the
/// graph shows that move.
#[test]
fn a_finished_game_is_analysed_with_its_graph_and_marked_mistakes() {
    let server = start_server();
    let mut players = pvp_gomoku(&server, false);
    play_stones(&mut players, &MISTAKES);
    let [mut ada, _bob] = players;
    wait_for(&mut ada, "the game id", 10, |a| {
        a.room().is_some_and(|r| r.game_id.is_some())
    });
    click_label(&mut ada, "Analyse");
    wait_for(&mut ada, "the replay viewer", 10, |a| a.replay().is_some());
    wait_for(&mut ada, "the analysis", 180, |a| {
        matches!(a.analysis(), AnalysisState::Done(_))
    });
    ada.step();
    let Some(GameAnalysis::Gomoku(analysis)) = ada.state().analysis().analysis().cloned() else {
        panic!("a Gomoku analysis: {:?}", ada.state().analysis());
    };
    let mistake = |i: usize| analysis.moves.iter().find(|m| m.index == i)?.mistake;
    assert_eq!(mistake(5), Some(GomokuMistake::MissedBlock));
    assert_eq!(mistake(8), Some(GomokuMistake::MissedWin));

    // The summary, the marks on the move list, and the graph.
    assert!(has_text(&ada, "missed wins 1"), "Black's tally");
    assert!(
        ada.state().graph_point(6).is_some(),
        "the graph's point of White's missed block"
    );
    let marks = ada.query_all_by_label("??").count();
    assert!(marks >= 2, "{marks} marks on the move list");
    // A click on the graph's point of Black's missed win shows that move,
    // with what the engine preferred.
    ada.step();
    let point = ada.state().graph_point(9).expect("the graph's point");
    press_release(&mut ada, point);
    assert_eq!(ada.state().replay().map(|r| r.position()), Some(9));
    assert!(has_text(&ada, "Missed win"));
    assert!(has_text(&ada, "Played m1, best"));
}

fn hint_button(h: &Harness<'_, TabulaApp>) -> bool {
    h.query_by_label("Hint").is_some()
}

/// Against the AI the Hint button shows on our turn; pressing it shows
/// three suggestions, the first on the board, gone once the stone is down.
#[test]
fn hints_against_the_ai_on_our_turn() {
    let server = start_server();
    let mut ada = app(&server, "Ada");
    connect(&mut ada);
    let form = &mut ada.state_mut().settings.create;
    form.game = GameKind::Gomoku;
    form.vs_ai = true;
    form.colour = ColourChoice::Black;
    click_label(&mut ada, "Create room…");
    click_label(&mut ada, "Create");
    wait_for(&mut ada, "the game", 10, playing);
    ada.step();
    assert!(hint_button(&ada), "our turn against the AI");
    // On the empty board the engine knows one move only: the centre.
    ada.state_mut().apply(Command::PlaceStone(Point::new(7, 7)));
    wait_for(&mut ada, "the AI's answer", 30, |a| gomoku_moves(a) == 2);
    ada.step();
    assert!(hint_button(&ada), "our turn again");
    click_label(&mut ada, "Hint");
    wait_for(&mut ada, "the hints", 60, |a| a.hints().is_some());
    ada.step();
    let hints = ada.state().hints().expect("hints").to_vec();
    assert_eq!(hints.len(), 3, "{hints:?}");
    assert!(has_text(&ada, &format!("1. {}  outlook", hints[0].label)));
    assert!(has_text(&ada, &format!("3. {}  outlook", hints[2].label)));
    // Playing the first suggestion moves the game on: the hints are gone.
    let PlayerAction::Place { point } = hints[0].action else {
        panic!("a stone: {:?}", hints[0].action);
    };
    ada.state_mut().apply(Command::PlaceStone(point));
    wait_for(&mut ada, "the stone", 10, |a| gomoku_moves(a) >= 3);
    assert!(ada.state().hints().is_none());
    assert!(!has_text(&ada, "  outlook"));
}

/// Between two people the button shows only when the room's creator
/// allowed hints.
#[test]
fn hints_between_people_only_when_allowed() {
    let server = start_server();
    let [ada, bob] = pvp_gomoku(&server, false);
    assert!(playing(ada.state()) && gomoku_moves(ada.state()) == 0);
    assert!(!hint_button(&ada), "no hints allowed");
    assert!(!hint_button(&bob), "not Bob's turn");
    drop((ada, bob));
    let [mut ada, bob] = pvp_gomoku(&server, true);
    ada.step();
    assert!(hint_button(&ada), "hints allowed, Ada's turn");
    assert!(!hint_button(&bob), "not Bob's turn");
}

/// A rated room never shows the button, even against the AI.
#[test]
fn no_hints_in_a_rated_room() {
    let server = start_server();
    let mut ada = app(&server, "Ada");
    connect(&mut ada);
    click_label(&mut ada, "Account…");
    for label in ["New password", "Confirm password"] {
        for _ in 0..50 {
            if ada.query_by_label(label).is_some() {
                break;
            }
            ada.step();
        }
        ada.get_by_label(label).click();
        ada.step();
        ada.get_by_label(label).type_text("ada's long password");
        ada.step();
    }
    click_label(&mut ada, "Register this name");
    wait_for(&mut ada, "registered", 10, |a| a.registered());
    let form = &mut ada.state_mut().settings.create;
    form.game = GameKind::Gomoku;
    form.vs_ai = true;
    form.colour = ColourChoice::Black;
    form.rated = true;
    ada.state_mut().apply(Command::ShowAccount(false));
    click_label(&mut ada, "Create room…");
    click_label(&mut ada, "Create");
    wait_for(&mut ada, "the game", 10, playing);
    let rated = ada
        .state()
        .room()
        .and_then(|r| r.summary.as_ref())
        .is_some_and(|s| s.options.rated);
    assert!(rated, "a rated room");
    for _ in 0..5 {
        ada.step();
    }
    assert!(gomoku_moves(ada.state()) == 0, "Ada's turn");
    assert!(!hint_button(&ada), "no hints in a rated room");
}

/// Plays Ada's Backgammon game against the AI to its end through the app's
/// commands: rolls, takes every double, and makes the first offered hops.
fn play_bg_to_the_end(h: &mut Harness<'static, TabulaApp>) {
    use tabula_client::bg_view::{BoardInput, Loc};
    use tabula_shared::backgammon::{GamePhase, Side};
    for _ in 0..20_000 {
        h.step();
        let Some(room) = h.state().room() else {
            panic!("not in the room");
        };
        if room.result.is_some() {
            return;
        }
        if h.state().animating() {
            std::thread::sleep(Duration::from_millis(5));
            continue;
        }
        let phase = room.backgammon().map(|g| *g.phase());
        match phase {
            Some(GamePhase::AwaitingRoll { side: Side::White }) => {
                h.state_mut().apply(Command::Roll);
                wait_for(h, "the roll", 10, |a| {
                    a.room().and_then(|r| r.backgammon()).is_none_or(|g| {
                        !matches!(g.phase(), GamePhase::AwaitingRoll { side: Side::White })
                    })
                });
            }
            Some(GamePhase::CubeOffered { by: Side::Black }) => {
                h.state_mut().apply(Command::TakeCube);
                wait_for(h, "the take", 10, |a| {
                    a.room()
                        .and_then(|r| r.backgammon())
                        .is_none_or(|g| !matches!(g.phase(), GamePhase::CubeOffered { .. }))
                });
            }
            _ => {
                if let Some(turn) = h.state().turn() {
                    if turn.is_complete() {
                        h.state_mut().apply(Command::ConfirmPlay);
                        wait_for(h, "the play", 10, |a| a.turn().is_none());
                    } else {
                        let option = turn.options()[0];
                        for n in [option.from, option.to] {
                            let input = BoardInput::Click(Loc::from_number(n));
                            h.state_mut().apply(Command::Board(input));
                        }
                    }
                } else {
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
        }
    }
    panic!("the game did not end");
}

/// Fills a server's data directory for the analysis screenshots in
/// `docs/screenshots/` (`analysis-*`), then keeps serving it: the issue's
/// Gomoku game between Ada and Bob, and Ada's Backgammon money game
/// against the Beginner AI played to its end, both analysed. Ada's resume
/// token goes to `$TABULA_SEED_DIR/tokens.json`.
/// `TABULA_SEED_DIR=/tmp/analysis TABULA_SEED_ADDR=127.0.0.1:17879
/// TABULA_SEED_HOLD=900 cargo test -p tabula-client --test analysis_ui
/// analysis_screenshot -- --ignored`, then start the client with that token
/// (see client/README.md) and open the games from History.
#[test]
#[ignore = "writes a data directory for screenshots and serves it"]
fn analysis_screenshot_data() {
    let dir = std::env::var("TABULA_SEED_DIR").expect("TABULA_SEED_DIR");
    let addr = std::env::var("TABULA_SEED_ADDR").unwrap_or_else(|_| "127.0.0.1:0".into());
    let hold: u64 = std::env::var("TABULA_SEED_HOLD")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let (addr, _stop) = serve(std::path::Path::new(&dir), &addr);
    let server = Server {
        addr,
        _stop,
        _tmp: tempfile::tempdir().expect("temp dir"),
    };
    let mut players = pvp_gomoku(&server, false);
    play_stones(&mut players, &MISTAKES);
    let [mut ada, mut bob] = players;
    wait_for(&mut ada, "the game id", 10, |a| {
        a.room().is_some_and(|r| r.game_id.is_some())
    });
    click_label(&mut ada, "Analyse");
    wait_for(&mut ada, "the Gomoku analysis", 600, |a| {
        matches!(a.analysis(), AnalysisState::Done(_))
    });
    click_label(&mut bob, "Back to lobby");
    click_label(&mut ada, "Close");
    wait_for(&mut ada, "the room view", 10, |a| a.room().is_some());
    click_label(&mut ada, "Back to lobby");
    wait_for(&mut ada, "the lobby", 10, |a| a.room().is_none());

    let form = &mut ada.state_mut().settings.create;
    form.game = GameKind::Backgammon;
    form.length = 0;
    form.vs_ai = true;
    form.level = tabula_shared::protocol::AiLevel::Beginner;
    form.colour = ColourChoice::White;
    ada.state_mut().settings.die_clicks = false;
    click_label(&mut ada, "Create room…");
    click_label(&mut ada, "Create");
    wait_for(&mut ada, "the game", 10, playing);
    play_bg_to_the_end(&mut ada);
    wait_for(&mut ada, "the game id", 10, |a| {
        a.room().is_some_and(|r| r.game_id.is_some())
    });
    click_label(&mut ada, "Analyse");
    wait_for(&mut ada, "the Backgammon analysis", 900, |a| {
        a.replay().is_some_and(|r| r.is_backgammon())
            && matches!(a.analysis(), AnalysisState::Done(_))
    });
    let token = ada
        .state()
        .settings
        .tokens
        .get(&server.addr.to_string())
        .cloned()
        .expect("a token");
    let tokens = serde_json::json!({ "Ada": token, "address": server.addr.to_string() });
    std::fs::write(format!("{dir}/tokens.json"), tokens.to_string()).expect("write tokens");
    drop((ada, bob));
    std::thread::sleep(Duration::from_secs(hold));
}
