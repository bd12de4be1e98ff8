//! gnubg's die clicks on the drawn Backgammon board, by `egui_kittest`: a
//! click on a checker moves it by the larger die, a right click by the
//! smaller, each by the other die when that one cannot move it.

use egui::{Event, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use tabula_shared::backgammon::Side;
use tabula_shared::protocol::{BgAction, Role, ServerMessage};

use super::{app, bg_snapshot, join, receive};
use crate::app::TabulaApp;

/// The app seated as White in a Backgammon game whose opening roll gave
/// White 6 and Black 5: White to move 6-5.
fn white_to_move_6_5(die_clicks: bool) -> Harness<'static, TabulaApp> {
    let (mut app, _rx) = app();
    app.settings.die_clicks = die_clicks;
    join(&mut app, Role::Player);
    let opening = vec![BgAction::OpeningRoll { white: 6, black: 5 }];
    receive(
        &mut app,
        None,
        ServerMessage::Snapshot {
            room_id: "r1".into(),
            snapshot: Box::new(bg_snapshot(opening, None)),
        },
    );
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_accessibility_check(false)
        .build_ui_state(|ui, app: &mut TabulaApp| app.frame(ui), app);
    h.run_steps(3);
    let seat = h.state().room().and_then(|r| r.seat);
    assert_eq!(seat.map(tabula_shared::seat::side_of), Some(Side::White));
    assert!(h.state().turn().is_some(), "our turn to move");
    h
}

/// Clicks `button` on the top checker of our point `n`.
fn click_point(h: &mut Harness<'_, TabulaApp>, n: u8, button: PointerButton) {
    let at: Pos2 = h
        .state()
        .bg_geometry
        .expect("board drawn")
        .checker_center(n, 0);
    h.hover_at(at);
    h.step();
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos: at,
            button,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.step();
    }
    h.step();
}

fn play_so_far(h: &Harness<'_, TabulaApp>) -> String {
    h.state().turn().expect("our turn").play().to_string()
}

#[test]
fn a_click_moves_by_the_larger_die_and_a_right_click_by_the_smaller() {
    let mut h = white_to_move_6_5(true);
    click_point(&mut h, 13, PointerButton::Primary);
    assert_eq!(play_so_far(&h), "13/7", "a click: the larger die");
    click_point(&mut h, 13, PointerButton::Secondary);
    assert_eq!(
        play_so_far(&h),
        "13/8 13/7",
        "a right click: the smaller die"
    );
    assert!(h.state().turn().expect("turn").is_complete());
}

#[test]
fn a_die_that_cannot_move_the_checker_gives_way_to_the_other() {
    let mut h = white_to_move_6_5(true);
    // 24/19 is blocked (Black's six-point): the right click uses the 6.
    click_point(&mut h, 24, PointerButton::Secondary);
    assert_eq!(play_so_far(&h), "24/18");
    // Only the 5 is left: a click uses it though it is the smaller.
    click_point(&mut h, 13, PointerButton::Primary);
    assert_eq!(play_so_far(&h), "24/18 13/8");
}

#[test]
fn with_die_clicks_off_a_click_selects_and_a_second_click_moves() {
    let mut h = white_to_move_6_5(false);
    click_point(&mut h, 13, PointerButton::Primary);
    assert_eq!(play_so_far(&h), "", "selected, not moved");
    click_point(&mut h, 8, PointerButton::Primary);
    assert_eq!(play_so_far(&h), "13/8");
}
