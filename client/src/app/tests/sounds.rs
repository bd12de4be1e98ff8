//! The sounds the app queues, on the drawn app (`egui_kittest`, no audio
//! device: the queue is read, not played).

use egui_kittest::Harness;
use tabula_shared::backgammon::Side;
use tabula_shared::gomoku::{GomokuAction, GomokuConfig, Point};
use tabula_shared::protocol::{
    ActionRecord, BgAction, ClockState, GameOptions, GameRecord, Role, RoomEvent, RoomSnapshot,
    ServerMessage,
};
use tabula_shared::seat::Seat;

use super::{app, bg_snapshot, join, receive};
use crate::app::TabulaApp;
use crate::sound::Sound;

/// A Gomoku room where we (first seat, black) placed h8.
fn gomoku_after_our_stone() -> RoomSnapshot {
    let mut snapshot = bg_snapshot(Vec::new(), None);
    let config = GomokuConfig::default();
    snapshot.summary.options.game = GameOptions::Gomoku(config);
    snapshot.record = GameRecord::Gomoku {
        config,
        actions: vec![GomokuAction::Place {
            seat: Seat::First,
            point: Point::new(7, 7),
        }],
    };
    snapshot
}

/// The app seated in "r1" with `snapshot`, drawn, with `sound` on or off.
fn seated(snapshot: RoomSnapshot, sound: bool) -> Harness<'static, TabulaApp> {
    let (mut app, _rx) = app();
    app.settings.sound = sound;
    join(&mut app, Role::Player);
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
        .build_ui_state(|ui, app: &mut TabulaApp| app.frame(ui), app);
    h.run_steps(3);
    h
}

fn action(
    h: &mut Harness<'_, TabulaApp>,
    seq: u64,
    action: ActionRecord,
    clock: Option<ClockState>,
) {
    receive(
        h.state_mut(),
        None,
        ServerMessage::Event {
            room_id: "r1".into(),
            seq,
            event: RoomEvent::Action {
                action,
                clock,
                turn: None,
            },
        },
    );
    h.run_steps(2);
}

fn opponents_stone() -> ActionRecord {
    ActionRecord::Gomoku(GomokuAction::Place {
        seat: Seat::Second,
        point: Point::new(8, 8),
    })
}

#[test]
fn the_opponents_stone_sounds_a_move_then_our_turn() {
    let mut h = seated(gomoku_after_our_stone(), true);
    assert!(h.state().queued_sounds().is_empty(), "joining is silent");
    action(&mut h, 2, opponents_stone(), None);
    assert_eq!(h.state().queued_sounds(), [Sound::Move, Sound::YourTurn]);
    assert_eq!(h.state_mut().take_sounds().len(), 2);
    h.run_steps(3);
    assert!(h.state().queued_sounds().is_empty(), "each sound once");
}

#[test]
fn muted_queues_nothing() {
    let mut h = seated(gomoku_after_our_stone(), false);
    action(&mut h, 2, opponents_stone(), None);
    assert!(h.state().queued_sounds().is_empty());
}

#[test]
fn our_clock_sounds_low_once() {
    let mut h = seated(gomoku_after_our_stone(), true);
    let clock = ClockState {
        remaining_ms: [5_000, 60_000],
        running: Some(Seat::First),
    };
    action(&mut h, 2, opponents_stone(), Some(clock));
    assert_eq!(
        h.state().queued_sounds(),
        [Sound::Move, Sound::YourTurn, Sound::LowTime]
    );
    h.run_steps(3);
    assert_eq!(h.state().queued_sounds().len(), 3, "low time sounds once");
}

#[test]
fn a_hit_sounds_as_a_hit() {
    // White 3-1 makes its five-point; Black 6-4 hits nothing; White 6-5
    // from 24 hits Black's blot on 18 (Black's 7 after 24/18).
    let opening = vec![
        BgAction::OpeningRoll { white: 3, black: 1 },
        BgAction::Play {
            side: Side::White,
            play: "8/5 6/5".parse().expect("play"),
        },
        BgAction::Roll {
            side: Side::Black,
            dice: [6, 4],
        },
        BgAction::Play {
            side: Side::Black,
            play: "24/18 13/9".parse().expect("play"),
        },
        BgAction::Roll {
            side: Side::White,
            dice: [6, 1],
        },
    ];
    let mut h = seated(bg_snapshot(opening, None), true);
    assert!(h.state().queued_sounds().is_empty());
    // Black's 18 is White's 7: 13/7* hits it.
    let hit = ActionRecord::Backgammon(BgAction::Play {
        side: Side::White,
        play: "13/7* 8/7".parse().expect("play"),
    });
    action(&mut h, 2, hit, None);
    assert_eq!(h.state().queued_sounds().first(), Some(&Sound::Hit));
}

#[test]
fn a_dropped_double_ends_a_game_of_the_match_with_its_sound() {
    let opening = vec![
        BgAction::OpeningRoll { white: 3, black: 1 },
        BgAction::Play {
            side: Side::White,
            play: "8/5 6/5".parse().expect("play"),
        },
        BgAction::Double { side: Side::Black },
    ];
    let mut h = seated(bg_snapshot(opening, None), true);
    assert!(h.state().queued_sounds().is_empty());
    let drop = ActionRecord::Backgammon(BgAction::Drop { side: Side::White });
    action(&mut h, 2, drop, None);
    assert_eq!(h.state().queued_sounds(), [Sound::GameEnd]);
}
