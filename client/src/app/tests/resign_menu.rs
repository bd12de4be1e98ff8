//! The Backgammon *Resign* menu, by `egui_kittest`: it stays open while
//! the game moves on, although the widgets drawn above it (the last move,
//! the Roll button) come and go with every event.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tabula_shared::backgammon::Side;
use tabula_shared::protocol::{BgAction, Role, ServerMessage};

use super::{app, bg_snapshot, join, receive};
use crate::app::TabulaApp;

fn snapshot(actions: Vec<BgAction>) -> ServerMessage {
    ServerMessage::Snapshot {
        room_id: "r1".into(),
        snapshot: Box::new(bg_snapshot(actions, None)),
    }
}

#[test]
fn the_resign_menu_stays_open_when_the_opponent_moves() {
    // Seated as White; Black won the opening roll and is to move.
    let opening = vec![BgAction::OpeningRoll { white: 1, black: 6 }];
    let (mut app, _rx) = app();
    join(&mut app, Role::Player);
    receive(&mut app, None, snapshot(opening.clone()));
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_accessibility_check(false)
        .build_ui_state(|ui, app: &mut TabulaApp| app.frame(ui), app);
    h.run_steps(3);
    assert!(h.state().turn().is_none(), "Black to move");
    h.get_by_label("Resign").click();
    h.run_steps(2);
    assert!(h.query_by_label("Resign a gammon").is_some(), "menu open");

    // Black plays: now White is to roll, and the panel shows Black's move
    // and the Roll button above the menu.
    let mut moved = opening;
    moved.push(BgAction::Play {
        side: Side::Black,
        play: "13/7 8/7".parse().expect("play"),
    });
    receive(h.state_mut(), None, snapshot(moved));
    h.run_steps(3);
    assert!(h.query_by_label("Roll").is_some(), "White to roll");
    assert!(
        h.query_by_label("Resign a gammon").is_some(),
        "the menu closed when the opponent moved"
    );
}
