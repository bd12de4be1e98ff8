//! Layout checks on the app drawn by `egui_kittest` at small window sizes,
//! with no server: what a narrow window must not overlap or break.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tabula_shared::protocol::{PROTOCOL_VERSION, ServerMessage};

use super::{app, receive};
use crate::app::TabulaApp;
use crate::net::{ConnState, NetEvent};

/// The app, welcomed as a guest, in a window of this size.
fn harness(size: [f32; 2]) -> Harness<'static, TabulaApp> {
    let (mut app, _commands) = app();
    app.handle_event(NetEvent::State(ConnState::Connected));
    receive(
        &mut app,
        None,
        ServerMessage::Welcome {
            player_id: "p-ada".into(),
            name: "Ada".into(),
            token: "t".into(),
            rooms: Vec::new(),
            protocol: PROTOCOL_VERSION,
            registered: false,
            bot: false,
            engines: Vec::new(),
        },
    );
    let mut h = Harness::builder()
        .with_size(size)
        .with_accessibility_check(false)
        .build_ui_state(|ui, app: &mut TabulaApp| app.draw(ui), app);
    h.run_steps(3);
    h
}

/// [`harness`] seated in a Backgammon room ("r1"), its snapshot drawn.
fn in_a_backgammon_room(size: [f32; 2]) -> Harness<'static, TabulaApp> {
    let mut h = harness(size);
    super::join(h.state_mut(), tabula_shared::protocol::Role::Player);
    receive(
        h.state_mut(),
        None,
        ServerMessage::Snapshot {
            room_id: "r1".into(),
            snapshot: Box::new(super::bg_snapshot(Vec::new(), None)),
        },
    );
    h.run_steps(3);
    h
}

/// Issue 26 #6: at 800×600 the host note was drawn over the Lobby, History
/// and Leaderboard buttons.
#[test]
fn the_top_bar_fits_at_800_by_600() {
    let mut h = harness([800.0, 600.0]);
    h.state_mut().session.host_note = Some(
        "Hosting: friends join at 192.168.100.200:7878 (this computer: 127.0.0.1:7878)".into(),
    );
    h.run_steps(3);
    let note = h.get_by_label_contains("Hosting: friends join").rect();
    let status = h.get_by_label_contains("Connected to").rect();
    for button in [
        "Lobby",
        "History",
        "Leaderboard",
        "Dice",
        "Account…",
        "Disconnect",
    ] {
        let rect = h.get_by_label(button).rect();
        assert!(
            !rect.intersects(note),
            "{button} {rect:?} under the note {note:?}"
        );
        assert!(
            !rect.intersects(status),
            "{button} {rect:?} under the status {status:?}"
        );
    }
}

/// At a phone's width (390 points) the top bar's buttons wrap onto their
/// own rows inside the window, over nothing.
#[test]
fn at_a_phones_width_the_top_bar_overlaps_nothing() {
    let h = harness([390.0, 844.0]);
    let status = h.get_by_label_contains("Connected to").rect();
    let title = h.get_by_label("Tabula").rect();
    let mut seen: Vec<(&str, egui::Rect)> = Vec::new();
    for button in ["Lobby", "History", "Leaderboard", "Account…", "Disconnect"] {
        let rect = h.get_by_label(button).rect();
        assert!(
            rect.left() >= 0.0 && rect.right() <= 390.0,
            "{button} {rect:?} outside the window"
        );
        assert!(
            !rect.intersects(status),
            "{button} {rect:?} over the status"
        );
        assert!(!rect.intersects(title), "{button} {rect:?} over the title");
        for (other, r) in &seen {
            assert!(!rect.intersects(*r), "{button} {rect:?} over {other} {r:?}");
        }
        seen.push((button, rect));
    }
}

/// Issue 26 #6: toasts broke words apart ("Remat/ch: seats/swapp/ed").
#[test]
fn a_toast_keeps_its_words_whole() {
    let mut h = harness([800.0, 600.0]);
    // A short toast first: the corner area remembers its narrow size.
    h.state_mut().toasts.push("Hi");
    h.run_steps(3);
    h.state_mut().toasts.push("Rematch: seats swapped");
    h.run_steps(3);
    let toast = h.get_by_label("Rematch: seats swapped").rect();
    let row = h.get_by_label("Lobby").rect().height();
    assert!(
        toast.height() < row * 1.5,
        "one line expected, got {toast:?} (a button row is {row})"
    );
}

/// Issue 26 #13: the create dialog jumped when the "Rated" row appeared,
/// so the next click landed on the wrong row.
#[test]
fn the_create_dialog_keeps_its_rows_in_place() {
    let mut h = harness([1280.0, 800.0]);
    h.state_mut().apply(crate::app::Command::ShowCreate(true));
    h.run_steps(3);
    let private = || "Private (join by code)";
    let before = h.get_by_label(private()).rect();
    h.state_mut().settings.create.vs_ai = false;
    h.run_steps(3);
    assert_eq!(h.get_by_label(private()).rect(), before);
    h.state_mut().settings.create.game = tabula_shared::protocol::GameKind::Backgammon;
    h.run_steps(3);
    assert!(h.get_by_label("Create").rect().top() > before.top());
    assert_eq!(
        h.get_by_label("Gomoku").rect().top(),
        h.get_by_label("Backgammon").rect().top(),
        "the game row stays at the top"
    );
}

/// Issue 26 #13: the chat line being typed moved down with each message.
#[test]
fn the_chat_input_stays_put_as_messages_come() {
    use tabula_shared::protocol::{ChatLine, RoomEvent};
    let mut h = in_a_backgammon_room([1280.0, 800.0]);
    let input = || "Send";
    let before = h.get_by_label(input()).rect();
    for seq in 2..6 {
        receive(
            h.state_mut(),
            None,
            ServerMessage::Event {
                room_id: "r1".into(),
                seq,
                event: RoomEvent::Chat {
                    line: ChatLine {
                        from: "p2".into(),
                        spectator: false,
                        text: format!("message {seq}"),
                    },
                },
            },
        );
        h.run_steps(2);
        assert_eq!(h.get_by_label(input()).rect(), before, "after {seq}");
    }
}

/// Issue 63 #9: at 800×600 a Backgammon room's panel did not fit, and the
/// chat was below the window with no way to scroll to it: it keeps the
/// bottom of the panel, inside the window.
#[test]
fn the_chat_stays_in_the_window_at_800_by_600() {
    let h = in_a_backgammon_room([800.0, 600.0]);
    let send = h.get_by_label("Send").rect();
    assert!(
        send.bottom() <= 600.0 && send.top() >= 0.0,
        "the chat's Send button at {send:?}, outside the window"
    );
}

/// Keyboard: R rolls on our turn to roll, F1 opens the list of keys.
#[test]
fn keys_roll_and_open_the_help() {
    use tabula_shared::backgammon::Side;
    use tabula_shared::protocol::{BgAction, ClientMessage, PlayerAction, Role};
    let (mut app, mut rx) = app();
    super::join(&mut app, Role::Player);
    let snapshot = super::bg_snapshot(
        vec![
            BgAction::OpeningRoll { white: 1, black: 3 },
            BgAction::Play {
                side: Side::Black,
                play: "8/5 6/5".parse().expect("play"),
            },
        ],
        None,
    );
    receive(
        &mut app,
        None,
        ServerMessage::Snapshot {
            room_id: "r1".into(),
            snapshot: Box::new(snapshot),
        },
    );
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_accessibility_check(false)
        .build_ui_state(|ui, app: &mut TabulaApp| app.draw(ui), app);
    h.run_steps(3);
    super::queued(&mut rx);
    h.key_press(egui::Key::R);
    h.run_steps(2);
    assert!(super::sent(&mut rx).contains(&ClientMessage::Act {
        room_id: "r1".into(),
        action: PlayerAction::Roll,
    }));
    h.key_press(egui::Key::F1);
    h.run_steps(3);
    assert!(h.query_by_label("Keyboard shortcuts").is_some());
    assert!(h.query_by_label("Roll the dice").is_some());
}
