//! The tournament screens in the real app, driven headless by
//! `egui_kittest` against a real server on `127.0.0.1:0`: a host creates a
//! Swiss event and adds AI levels, two players join it from its page, the
//! host starts it, the players are taken to their games, the host watches
//! one, and everyone's page shows the same standings once a game ends; the
//! finished game opens in the replay viewer from the page. A Gomoku round
//! robin takes its openings from the dialog, a bad line named.

mod common;

use egui_kittest::Harness;
use tabula_client::TabulaApp;
use tabula_shared::protocol::{Role, TournamentStatus};

use common::{app, click_label, connect, has_text, register, start_server, type_into, wait_until};

/// Steps every app once (each has its own connection to serve).
fn step_all(apps: &mut [&mut Harness<'_, TabulaApp>]) {
    for h in apps.iter_mut() {
        h.step();
    }
}

/// Opens the listed tournament `name` from the Tournaments tab.
fn open_from_list(h: &mut Harness<'_, TabulaApp>, name: &str) {
    click_label(h, "Tournaments");
    wait_until(h, "the tournament in the list", |a| {
        a.tournament_list().iter().any(|t| t.name == name)
    });
    click_label(h, "Open");
    wait_until(h, "its page", |a| a.tournament().is_some());
}

#[test]
fn host_a_swiss_join_it_play_and_watch() {
    let server = start_server();
    let mut ada = app(&server, "Ada");
    connect(&mut ada);
    register(&mut ada, "correct horse battery");

    // The host: a new Swiss from the dialog, two AI levels added.
    click_label(&mut ada, "Tournaments");
    assert!(has_text(
        &ada,
        "No tournaments yet. Register and host one for your club."
    ));
    click_label(&mut ada, "New tournament…");
    type_into(&mut ada, "Name", "Friday Swiss");
    click_label(&mut ada, "Create");
    wait_until(&mut ada, "the new tournament's page", |a| {
        a.tournament()
            .is_some_and(|t| t.spec.name == "Friday Swiss")
    });
    click_label(&mut ada, "Beginner");
    click_label(&mut ada, "Casual");
    wait_until(&mut ada, "two AI entrants", |a| {
        a.tournament().is_some_and(|t| t.entrants.len() == 2)
    });
    ada.step();
    assert!(has_text(&ada, "Taking entrants"));

    // Two players find it in the list and join from its page.
    let mut bo = app(&server, "Bo");
    let mut cy = app(&server, "Cy");
    for h in [&mut bo, &mut cy] {
        connect(h);
        open_from_list(h, "Friday Swiss");
        click_label(h, "Join");
        wait_until(h, "entered", |a| {
            a.tournament().is_some_and(|t| t.entrants.len() >= 3)
        });
    }
    wait_until(&mut ada, "four entrants", |a| {
        a.tournament().is_some_and(|t| t.entrants.len() == 4)
    });

    // The start: Bo and Cy are taken to their games' rooms, seated.
    click_label(&mut ada, "Start");
    wait_until(&mut ada, "round 1", |a| {
        a.tournament()
            .is_some_and(|t| t.status == TournamentStatus::Running && t.round == 1)
    });
    for _ in 0..600 {
        step_all(&mut [&mut ada, &mut bo, &mut cy]);
        let seated = |h: &Harness<'_, TabulaApp>| {
            h.state()
                .room()
                .is_some_and(|r| r.role == Role::Player && r.summary.is_some())
        };
        if seated(&bo) && seated(&cy) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let bo_room = bo.state().room().expect("Bo at his game").id.clone();
    assert!(cy.state().room().is_some(), "Cy at her game");
    let view = ada.state().tournament().expect("the page").clone();
    let rooms: Vec<_> = view
        .games
        .iter()
        .filter_map(|g| g.room_id.clone())
        .collect();
    assert_eq!(rooms.len(), 2, "two games in round 1: {:?}", view.games);
    assert!(rooms.contains(&bo_room));

    // The host watches Bo's game from the page.
    ada.step();
    assert!(has_text(&ada, "Games of round 1"));
    let bo_no = view
        .entrants
        .iter()
        .find(|e| e.player.name == "Bo")
        .expect("Bo entered")
        .no;
    let game = view
        .games
        .iter()
        .find(|g| g.first == bo_no || g.second == Some(bo_no))
        .expect("Bo's game");
    let label = format!(
        "{} – {}",
        name(&view, game.first),
        name(&view, game.second.expect("a game, not a bye"))
    );
    assert!(has_text(&ada, &label), "the pairing {label} on the page");
    click_watch_of(&mut ada, &label);
    wait_until(&mut ada, "watching Bo's game", |a| {
        a.room()
            .is_some_and(|r| r.id == bo_room && r.role == Role::Spectator)
    });

    // Bo resigns; everyone's page shows his 0 in the standings.
    click_label(&mut bo, "Resign");
    click_label(&mut bo, "Yes, resign");
    wait_until(&mut bo, "Bo's game over", |a| {
        a.room().is_some_and(|r| r.result.is_some())
    });
    click_label(&mut bo, "Close");
    click_label(&mut bo, "Leave room");
    let scored = move |a: &TabulaApp| {
        a.tournament().is_some_and(|t| {
            t.games
                .iter()
                .any(|g| g.room_id.as_deref() == Some(bo_room.as_str()) && g.first_score.is_some())
        })
    };
    wait_until(&mut bo, "Bo's game scored on his page", scored.clone());
    click_label(&mut ada, "Leave room");
    wait_until(&mut ada, "Bo's game scored on the host's page", scored);
    bo.step();
    ada.step();
    let seen = |h: &Harness<'_, TabulaApp>| h.state().tournament().expect("page").standings.clone();
    assert_eq!(seen(&ada), seen(&bo), "the same standings");
    let bo_line = seen(&ada)
        .into_iter()
        .find(|s| s.id == bo_no)
        .expect("Bo in the standings");
    assert_eq!((bo_line.score, bo_line.games), (0, 1));
    assert!(has_text(&ada, "Standings") && has_text(&ada, "Crosstable"));
    assert!(has_text(&bo, "You are entrant"));

    // The finished game opens in the replay viewer from the page, and
    // closing it comes back to the page.
    click_label(&mut bo, "Replay");
    wait_until(&mut bo, "the game in the replay viewer", |a| {
        a.replay().is_some() && a.screen() == tabula_client::app::Screen::Replay
    });
    click_label(&mut bo, "Close");
    wait_until(&mut bo, "back on the page", |a| {
        a.screen() == tabula_client::app::Screen::Tournaments
    });
}

/// An entrant's name by pairing number.
fn name(v: &tabula_shared::protocol::TournamentView, no: u32) -> String {
    v.entrants
        .iter()
        .find(|e| e.no == no)
        .expect("an entrant")
        .player
        .name
        .clone()
}

/// Clicks the Watch button on the row of the pairing `label`.
fn click_watch_of(h: &mut Harness<'_, TabulaApp>, label: &str) {
    use egui_kittest::kittest::Queryable;
    let row = h.get_by_label(label).rect();
    let watch = h
        .get_all_by_label("Watch")
        .find(|w| (w.rect().center().y - row.center().y).abs() < 8.0)
        .expect("a Watch button on the pairing's row")
        .rect()
        .center();
    common::press_release(h, watch);
    h.step();
}

#[test]
fn a_gomoku_round_robin_takes_its_openings_from_the_dialog() {
    let server = start_server();
    let mut ada = app(&server, "Ada");
    connect(&mut ada);
    register(&mut ada, "correct horse battery");
    click_label(&mut ada, "Tournaments");
    click_label(&mut ada, "New tournament…");
    type_into(&mut ada, "Name", "Opening night");
    click_label(&mut ada, "Round robin");
    let openings = "Openings, one move list a line (each played with both colours):";
    type_into(&mut ada, openings, "h8 z99");
    ada.step();
    assert!(has_text(
        &ada,
        "Opening on line 1: \"z99\" is not a point on this board: cannot read \"z99\" as a point (expected e.g. \"h8\" or \"7,7\")"
    ));
    type_into(&mut ada, openings, "h8 i9 j10");
    click_label(&mut ada, "Create");
    wait_until(&mut ada, "the round robin with its opening", |a| {
        a.tournament().is_some_and(|t| {
            t.spec.name == "Opening night"
                && t.spec.openings.len() == 1
                && t.spec.openings[0].len() == 3
        })
    });
}
