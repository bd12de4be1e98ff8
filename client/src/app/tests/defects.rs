//! Unit tests of [`TabulaApp::apply`] and the events it reacts to for the
//! defects of issue 26 that show below the drawing.

use tabula_shared::protocol::{PROTOCOL_VERSION, ServerMessage};

use super::{app, queued, receive};
use crate::app::{Command, Danger};
use crate::net::{ConnState, NetCommand, NetEvent};

fn retrying() -> NetEvent {
    NetEvent::State(ConnState::Retrying {
        attempt: 1,
        reason: "IO error: Connection refused (os error 111)".into(),
        in_secs: 1,
    })
}

/// Issue 26 #9: with no server at the address, the client retried forever
/// and never said what to check.
#[test]
fn no_server_at_the_address_stops_and_says_what_to_check() {
    let (mut app, mut rx) = app();
    app.apply(Command::Connect);
    assert!(matches!(queued(&mut rx)[..], [NetCommand::Connect(_)]));
    app.handle_event(retrying());
    assert!(matches!(queued(&mut rx)[..], [NetCommand::Disconnect]));
    assert_eq!(*app.connection(), ConnState::Disconnected);
    let said = app.connect.unreachable_text().unwrap_or_default();
    assert!(
        said.contains("No Tabula server answered at 127.0.0.1:7878"),
        "{said}"
    );
    assert!(said.contains("Check that the server is running"), "{said}");
}

/// A server that has answered once is retried when the connection drops:
/// it may be restarting.
#[test]
fn a_server_that_answered_is_retried() {
    let (mut app, mut rx) = app();
    app.apply(Command::Connect);
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
    queued(&mut rx);
    app.handle_event(retrying());
    assert!(queued(&mut rx).is_empty());
    assert!(matches!(app.connection(), ConnState::Retrying { .. }));
    assert_eq!(app.connect.unreachable, None);
}

/// Issue 26 #1, #2: asking about a destructive action sends nothing; the
/// question's yes sends it.
#[test]
fn asking_before_resigning_sends_nothing() {
    let (mut app, mut rx) = app();
    super::join(&mut app, tabula_shared::protocol::Role::Player);
    app.apply(Command::Ask(Some(Danger::Resign(None))));
    assert!(queued(&mut rx).is_empty());
    assert_eq!(app.confirming(), Some(Danger::Resign(None)));
    app.apply(Command::Ask(None));
    assert_eq!(app.confirming(), None);
    app.apply(Danger::LeaveGame.command());
    assert!(app.room().is_none());
}

/// Issue 26 #12: the creator's clock ran while the room waited for an
/// opponent (9:47 after 13 s), then jumped back to 10:00.
#[test]
fn no_clock_runs_while_the_room_waits_for_an_opponent() {
    use std::time::{Duration, Instant};
    use tabula_shared::protocol::{BgAction, ClockState, RoomStatus};

    let (mut app, _rx) = app();
    super::join(&mut app, tabula_shared::protocol::Role::Player);
    let mut snapshot = super::bg_snapshot(vec![BgAction::OpeningRoll { white: 3, black: 1 }], None);
    snapshot.summary.status = RoomStatus::Waiting;
    snapshot.clock = Some(ClockState {
        remaining_ms: [600_000; 2],
        running: None,
    });
    receive(
        &mut app,
        None,
        ServerMessage::Snapshot {
            room_id: "r1".into(),
            snapshot: Box::new(snapshot),
        },
    );
    let room = app.room.room.as_mut().expect("in the room");
    let clock = room.clock.as_mut().expect("a clock");
    clock.1 = Instant::now() - Duration::from_secs(13);
    assert_eq!(room.clock_now(), Some(([600_000; 2], None)));
}

/// Issue 26 #11: after a dropped double the next game began with only the
/// score line changed; and the opponent's dice vanished after its play.
#[test]
fn a_dropped_double_is_announced_and_the_last_roll_stays() {
    use tabula_shared::backgammon::Side;
    use tabula_shared::protocol::{ActionRecord, BgAction, RoomEvent};

    let (mut app, _rx) = app();
    super::join(&mut app, tabula_shared::protocol::Role::Player);
    let mut snapshot = super::bg_snapshot(
        vec![
            BgAction::OpeningRoll { white: 3, black: 1 },
            BgAction::Play {
                side: Side::White,
                play: "8/5 6/5".parse().expect("play"),
            },
        ],
        None,
    );
    if let tabula_shared::protocol::GameOptions::Backgammon(c) = &mut snapshot.summary.options.game
    {
        c.length = 5;
    }
    if let tabula_shared::protocol::GameRecord::Backgammon { config, .. } = &mut snapshot.record {
        config.length = 5;
    }
    receive(
        &mut app,
        None,
        ServerMessage::Snapshot {
            room_id: "r1".into(),
            snapshot: Box::new(snapshot),
        },
    );
    let room = app.room.room.as_ref().expect("in the room");
    assert_eq!(
        crate::app::board_panel::last_roll(room),
        Some((Side::White, [3, 1])),
        "White's roll stays shown while Black is to roll"
    );
    for (seq, action) in [
        (2, BgAction::Double { side: Side::Black }),
        (3, BgAction::Drop { side: Side::White }),
    ] {
        receive(
            &mut app,
            None,
            ServerMessage::Event {
                room_id: "r1".into(),
                seq,
                event: RoomEvent::Action {
                    action: ActionRecord::Backgammon(action),
                    clock: None,
                    turn: None,
                },
            },
        );
    }
    assert_eq!(
        app.toasts().last().map(String::as_str),
        Some(
            "Black wins a single game (1 point): the double was dropped. Score: White 0 · Black 1"
        )
    );
}

/// Issue 26 #13: a too-short password cleared both fields (and went to the
/// server to be refused).
#[test]
fn a_short_password_is_refused_here_and_kept() {
    use crate::app::AccountNote;
    let (mut app, mut rx) = app();
    app.apply(Command::ShowAccount(true));
    app.account.password = "short".into();
    app.account.confirm = "short".into();
    app.apply(Command::Register);
    assert!(queued(&mut rx).is_empty());
    let Some(AccountNote::Failed(text)) = app.account_note() else {
        panic!("no failure shown: {:?}", app.account_note());
    };
    assert!(text.contains("8 to 128"), "{text}");
    assert_eq!(
        (app.account.password.as_str(), app.account.confirm.as_str()),
        ("short", "short")
    );
}

/// Issue 26 #13: the Save window stayed open across screens.
#[test]
fn the_save_window_closes_with_its_screen() {
    use crate::app::Screen;
    let (mut app, _rx) = app();
    let game = finished_gomoku();
    app.replay.replay = Some(crate::replay::Replay::new(game, None));
    app.apply(Command::ExportReplay);
    assert!(app.export_form().is_some());
    app.apply(Command::ShowScreen(Screen::Leaderboard));
    assert!(app.export_form().is_none());
}

/// A finished Gomoku game with no move, between Ada and Bob.
pub(super) fn finished_gomoku() -> tabula_shared::protocol::FinishedGame {
    use tabula_shared::gomoku::GomokuConfig;
    use tabula_shared::protocol::{
        ColourChoice, EndReason, FinishedGame, GameOptions, GameRecord, GameResult, GameSummary,
        Opponent, PlayerInfo, RoomOptions, SeatInfo,
    };
    use tabula_shared::seat::Seat;
    let seat = |seat, name: &str| SeatInfo {
        seat,
        player: Some(PlayerInfo {
            id: format!("p-{name}"),
            name: name.into(),
            ai: None,
            bot: false,
        }),
        connected: true,
        grace_ms: None,
    };
    FinishedGame {
        summary: GameSummary {
            game_id: "g-1".into(),
            options: RoomOptions {
                game: GameOptions::Gomoku(GomokuConfig::default()),
                opponent: Opponent::Human,
                colour: ColourChoice::Black,
                time_control: None,
                private: false,
                takebacks: true,
                rated: false,
                hints: false,
            },
            seats: vec![seat(Seat::First, "Ada"), seat(Seat::Second, "Bob")],
            result: GameResult {
                winner: Some(Seat::Second),
                reason: EndReason::Resigned,
                line: vec![],
                score: None,
            },
            actions: 0,
            started_at: 0,
            ended_at: 0,
        },
        record: GameRecord::Gomoku {
            config: GomokuConfig::default(),
            actions: vec![],
        },
    }
}

/// Issue 26 #13: the client remembered the server but did not reconnect on
/// launch.
#[test]
fn a_known_server_is_reconnected_on_launch() {
    let (mut app, mut rx) = app();
    app.resume_on_launch();
    assert!(queued(&mut rx).is_empty(), "never played there: wait");
    app.settings
        .tokens
        .insert(crate::settings::DEFAULT_ADDRESS.into(), "token".into());
    app.resume_on_launch();
    assert!(matches!(
        &queued(&mut rx)[..],
        [NetCommand::Connect(t)] if t.token.as_deref() == Some("token")
    ));
}

/// Auto-roll: with the setting on, the app rolls by itself when no double
/// is possible, once; with it off, it waits.
#[test]
fn auto_roll_rolls_once_when_no_double_is_possible() {
    use tabula_shared::backgammon::Side;
    use tabula_shared::protocol::{BgAction, ClientMessage, PlayerAction};
    let snapshot = || {
        let mut s = super::bg_snapshot(
            vec![
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
            ],
            None,
        );
        if let tabula_shared::protocol::GameOptions::Backgammon(c) = &mut s.summary.options.game {
            c.cube = false;
        }
        if let tabula_shared::protocol::GameRecord::Backgammon { config, .. } = &mut s.record {
            config.cube = false;
        }
        s
    };
    for auto in [false, true] {
        let (mut app, mut rx) = app();
        app.settings.auto_roll = auto;
        super::join(&mut app, tabula_shared::protocol::Role::Player);
        receive(
            &mut app,
            None,
            ServerMessage::Snapshot {
                room_id: "r1".into(),
                snapshot: Box::new(snapshot()),
            },
        );
        queued(&mut rx);
        app.autoplay();
        app.autoplay();
        let rolls = super::sent(&mut rx)
            .into_iter()
            .filter(|m| {
                matches!(
                    m,
                    ClientMessage::Act {
                        action: PlayerAction::Roll,
                        ..
                    }
                )
            })
            .count();
        assert_eq!(rolls, usize::from(auto), "auto-roll {auto}");
    }
}

/// The live move list: one line per action; a click looks back at that
/// position without leaving the game; the last play is marked on the
/// Backgammon board in the viewer's places.
#[test]
fn the_move_list_looks_back_and_the_last_play_is_marked() {
    use crate::bg_view::Loc;
    use tabula_shared::backgammon::Side;
    use tabula_shared::game::LiveGame;
    use tabula_shared::protocol::BgAction;
    let (mut app, _rx) = app();
    super::join(&mut app, tabula_shared::protocol::Role::Player);
    let snapshot = super::bg_snapshot(
        vec![
            BgAction::OpeningRoll { white: 3, black: 1 },
            BgAction::Play {
                side: Side::White,
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
    let lines = app.room.move_lines().to_vec();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[1].contains("8/5 6/5"), "{lines:?}");
    app.apply(Command::LookBack(Some(1)));
    let Some((1, LiveGame::Backgammon(game))) = &app.room.look_back else {
        panic!("not looking back at move 1");
    };
    // After the opening roll, before White's play.
    assert!(
        matches!(
            game.phase(),
            tabula_shared::backgammon::GamePhase::Moving {
                side: Side::White,
                ..
            }
        ),
        "{:?}",
        game.phase()
    );
    assert!(app.room().is_some(), "still in the game");
    app.apply(Command::LookBack(None));
    assert!(app.room.look_back.is_none());

    let room = app.room.room.as_ref().expect("room");
    let white = crate::app::board_panel::last_hops(room, Side::White);
    assert_eq!(
        white,
        vec![
            (Loc::Point(8), Loc::Point(5)),
            (Loc::Point(6), Loc::Point(5))
        ]
    );
    let black = crate::app::board_panel::last_hops(room, Side::Black);
    assert_eq!(
        black,
        vec![
            (Loc::Point(17), Loc::Point(20)),
            (Loc::Point(19), Loc::Point(20))
        ]
    );
}
