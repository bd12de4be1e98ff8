//! Backgammon rooms in the real app, driven headless by `egui_kittest`
//! against a real server running in this process on `127.0.0.1:0`: a turn
//! made by clicks and by dragging, and a resignation between two people.

mod common;

use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tabula_client::TabulaApp;
use tabula_client::bg_view::Loc;
use tabula_shared::backgammon::{GamePhase, Side};
use tabula_shared::game::LiveGame;
use tabula_shared::protocol::RoomStatus;

use common::{
    app, bg_phase, click_first_hop, click_label, click_menu_item, connect, has_text, start_server,
    wait_until,
};

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
