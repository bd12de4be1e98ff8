//! Hints in a Backgammon room, on a detached network: asked only where the
//! room allows them and on our turn, shown for the position they were
//! made for, and a refusal told as a toast.

use tabula_shared::backgammon::Side;
use tabula_shared::protocol::{
    ActionRecord, BgAction, ClientMessage, ErrorCode, Hint, PlayerAction, Role, RoomEvent,
    ServerMessage,
};

use super::{app, bg_snapshot, join, receive, sent};
use crate::app::Command;

/// Seats the app as White after the opening 3-1 (White to move), in a room
/// that allows hints or not.
fn white_to_move(
    hints: bool,
) -> (
    crate::app::TabulaApp,
    super::UnboundedReceiver<crate::net::NetCommand>,
) {
    let (mut app, mut rx) = app();
    join(&mut app, Role::Player);
    let mut snapshot = bg_snapshot(vec![BgAction::OpeningRoll { white: 3, black: 1 }], None);
    snapshot.summary.options.hints = hints;
    receive(
        &mut app,
        None,
        ServerMessage::Snapshot {
            room_id: "r1".into(),
            snapshot: Box::new(snapshot),
        },
    );
    app.poll(&egui::Context::default());
    let _ = sent(&mut rx);
    (app, rx)
}

fn suggestion(play: &str, value: f32) -> Hint {
    Hint {
        action: PlayerAction::Play {
            play: play.parse().expect("a play"),
        },
        label: play.into(),
        value,
    }
}

#[test]
fn no_hint_is_asked_where_the_room_does_not_allow_them() {
    let (mut app, mut rx) = white_to_move(false);
    app.apply(Command::Hint);
    assert!(sent(&mut rx).is_empty());
}

#[test]
fn hints_are_for_the_position_they_were_asked_in() {
    let (mut app, mut rx) = white_to_move(true);
    app.apply(Command::Hint);
    assert_eq!(
        sent(&mut rx),
        vec![ClientMessage::Hint {
            room_id: "r1".into()
        }]
    );
    let hints = vec![
        suggestion("8/5 6/5", 0.112),
        suggestion("24/23 8/5", -0.004),
        suggestion("13/10 6/5", -0.021),
    ];
    receive(
        &mut app,
        Some(2),
        ServerMessage::Hints {
            room_id: "r1".into(),
            hints: hints.clone(),
        },
    );
    assert_eq!(app.hints(), Some(hints.as_slice()));
    // White plays: the position changed, the hints are gone.
    receive(
        &mut app,
        None,
        ServerMessage::Event {
            room_id: "r1".into(),
            seq: 2,
            event: RoomEvent::Action {
                action: ActionRecord::Backgammon(BgAction::Play {
                    side: Side::White,
                    play: "8/5 6/5".parse().expect("a play"),
                }),
                clock: None,
                turn: None,
            },
        },
    );
    assert_eq!(app.hints(), None);
}

#[test]
fn a_refused_hint_is_a_toast_with_the_servers_words() {
    let (mut app, _rx) = white_to_move(true);
    app.apply(Command::Hint);
    receive(
        &mut app,
        Some(2),
        ServerMessage::Error {
            code: ErrorCode::RateLimited,
            message: "too many hints; the next in 12 s".into(),
            retry_after_ms: Some(12_000),
        },
    );
    assert_eq!(app.toasts(), vec!["too many hints; the next in 12 s"]);
    assert!(app.room().is_some(), "still in the room");
}
