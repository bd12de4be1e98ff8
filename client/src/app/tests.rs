//! Unit tests for [`TabulaApp::apply`] and the frames it reacts to: the app
//! runs without a server, on a detached network handle whose command channel
//! shows every request the app queued.

use tabula_shared::backgammon::{MatchConfig, ResignKind};
use tabula_shared::fair_dice::{ServerSeed, check_player_seed};
use tabula_shared::gomoku::Point;
use tabula_shared::protocol::{
    BgAction, ClientMessage, ColourChoice, DiceProof, DiceStats, DiceStatsReport, EndReason,
    ErrorCode, GameKind, GameOptions, GameRecord, GameResult, LeaderboardPeriod, OfferKind,
    Opponent, PROTOCOL_VERSION, PlayerAction, PlayerInfo, Role, RoomEvent, RoomOptions,
    RoomSnapshot, RoomStatus, RoomSummary, SeatInfo, ServerFrame, ServerMessage, Turn,
};
use tabula_shared::seat::Seat;
use tokio::sync::mpsc::UnboundedReceiver;

mod analysis;
mod auto_pass;
mod bg_clicks;
mod board_style;
mod challenges;
mod defects;
mod dice_seeds;
mod engines;
mod export_picker;
mod hints;
mod layout;
mod resign_menu;
mod sounds;

use super::{AccountNote, Command, HISTORY_PAGE, Screen, TabulaApp};
use crate::dice_check::{DiceCheck, Verdict};
use crate::net::{NetCommand, NetEvent, Network};
use crate::settings::{DEFAULT_ADDRESS, Settings};

/// An app with no server behind it, and the receiver of its network commands.
fn app() -> (TabulaApp, UnboundedReceiver<NetCommand>) {
    let (net, commands) = Network::detached();
    let settings = Settings {
        name: "Ada".into(),
        ..Settings::default()
    };
    (TabulaApp::with_network(settings, net), commands)
}

/// Every network command queued since the last call.
fn queued(commands: &mut UnboundedReceiver<NetCommand>) -> Vec<NetCommand> {
    std::iter::from_fn(|| commands.try_recv().ok()).collect()
}

/// The messages of every request queued since the last call.
fn sent(commands: &mut UnboundedReceiver<NetCommand>) -> Vec<ClientMessage> {
    queued(commands)
        .into_iter()
        .filter_map(|c| match c {
            NetCommand::Send(frame) => Some(frame.message),
            _ => None,
        })
        .collect()
}

/// Hands the app a server message, as the network worker would.
fn receive(app: &mut TabulaApp, request_id: Option<u64>, message: ServerMessage) {
    app.handle_event(NetEvent::Frame(ServerFrame {
        request_id,
        message,
    }));
}

/// Seats the app in room "r1".
fn join(app: &mut TabulaApp, role: Role) {
    receive(
        app,
        None,
        ServerMessage::Joined {
            room_id: "r1".into(),
            role,
            seat: (role == Role::Player).then_some(Seat::First),
        },
    );
}

#[test]
fn place_stone_sends_a_place_action() {
    let (mut app, mut rx) = app();
    join(&mut app, Role::Player);
    let h8 = Point { x: 7, y: 7 };
    app.apply(Command::PlaceStone(h8));
    assert_eq!(
        sent(&mut rx),
        vec![ClientMessage::Act {
            room_id: "r1".into(),
            action: PlayerAction::Place { point: h8 },
        }]
    );
}

#[test]
fn room_commands_outside_a_room_send_nothing() {
    let (mut app, mut rx) = app();
    app.apply(Command::PlaceStone(Point { x: 0, y: 0 }));
    app.apply(Command::OfferDraw);
    app.apply(Command::Roll);
    app.apply(Command::ConfirmPlay);
    app.apply(Command::SendChat);
    assert!(queued(&mut rx).is_empty());
}

#[test]
fn game_intents_become_their_messages() {
    let (mut app, mut rx) = app();
    join(&mut app, Role::Player);
    let room_id = || "r1".to_string();
    app.apply(Command::OfferDraw);
    app.apply(Command::Roll);
    app.apply(Command::Double);
    app.apply(Command::TakeCube);
    app.apply(Command::DropCube);
    app.apply(Command::Resign(Some(ResignKind::Gammon)));
    app.apply(Command::Resign(None));
    app.apply(Command::RequestTakeback);
    app.apply(Command::Rematch);
    app.apply(Command::ClaimWin);
    app.apply(Command::AnswerOffer {
        kind: OfferKind::Draw,
        accept: true,
    });
    app.apply(Command::MuteSpectators(true));
    let act = |action| ClientMessage::Act {
        room_id: room_id(),
        action,
    };
    assert_eq!(
        sent(&mut rx),
        vec![
            ClientMessage::OfferDraw { room_id: room_id() },
            act(PlayerAction::Roll),
            act(PlayerAction::Double),
            act(PlayerAction::Take),
            act(PlayerAction::Drop),
            ClientMessage::Resign {
                room_id: room_id(),
                kind: Some(ResignKind::Gammon),
            },
            ClientMessage::Resign {
                room_id: room_id(),
                kind: None,
            },
            ClientMessage::RequestTakeback { room_id: room_id() },
            ClientMessage::Rematch { room_id: room_id() },
            ClientMessage::ClaimWin { room_id: room_id() },
            ClientMessage::Answer {
                room_id: room_id(),
                request: OfferKind::Draw,
                accept: true,
            },
            ClientMessage::MuteSpectators {
                room_id: room_id(),
                muted: true,
            },
        ]
    );
}

#[test]
fn requests_are_numbered_in_order() {
    let (mut app, mut rx) = app();
    join(&mut app, Role::Player);
    app.apply(Command::OfferDraw);
    app.apply(Command::Rematch);
    let ids: Vec<Option<u64>> = queued(&mut rx)
        .into_iter()
        .map(|c| match c {
            NetCommand::Send(frame) => frame.request_id,
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(ids, vec![Some(1), Some(2)]);
}

#[test]
fn join_room_as_spectator() {
    let (mut app, mut rx) = app();
    app.apply(Command::JoinRoom {
        room_id: "r7".into(),
        role: Role::Spectator,
    });
    assert_eq!(
        sent(&mut rx),
        vec![ClientMessage::JoinRoom {
            room_id: "r7".into(),
            role: Role::Spectator,
            since: None,
        }]
    );
    join(&mut app, Role::Spectator);
    assert_eq!(app.room().map(|r| r.role), Some(Role::Spectator));
}

#[test]
fn join_by_code_cleans_up_the_code() {
    let (mut app, mut rx) = app();
    app.apply(Command::JoinByCode);
    assert!(sent(&mut rx).is_empty(), "no code typed");
    app.lobby.join_code = "  ab12cd34 ".into();
    app.apply(Command::JoinByCode);
    assert_eq!(
        sent(&mut rx),
        vec![ClientMessage::JoinByCode {
            code: "AB12CD34".into()
        }]
    );
}

#[test]
fn leave_leaves_the_room_and_lists_rooms() {
    let (mut app, mut rx) = app();
    join(&mut app, Role::Player);
    assert!(app.room().is_some());
    app.apply(Command::Leave);
    assert!(app.room().is_none());
    assert_eq!(
        sent(&mut rx),
        vec![
            ClientMessage::LeaveRoom {
                room_id: "r1".into()
            },
            ClientMessage::ListRooms,
        ]
    );
}

#[test]
fn chat_sends_the_line_typed_and_clears_it() {
    let (mut app, mut rx) = app();
    join(&mut app, Role::Player);
    app.room.chat_input = "   ".into();
    app.apply(Command::SendChat);
    assert!(sent(&mut rx).is_empty(), "a blank line is not sent");
    app.room.chat_input = " good game ".into();
    app.apply(Command::SendChat);
    assert_eq!(
        sent(&mut rx),
        vec![ClientMessage::Chat {
            room_id: "r1".into(),
            text: "good game".into(),
        }]
    );
    assert!(app.room.chat_input.is_empty());
}

#[test]
fn flip_and_dismiss_change_the_room_view_only() {
    let (mut app, mut rx) = app();
    join(&mut app, Role::Spectator);
    app.apply(Command::Flip);
    app.apply(Command::DismissResult);
    assert!(app.room.flipped);
    assert!(app.room.result_dismissed);
    assert!(queued(&mut rx).is_empty());
}

#[test]
fn screens_ask_for_their_data() {
    let (mut app, mut rx) = app();
    app.apply(Command::ShowScreen(Screen::History));
    assert_eq!(app.screen(), Screen::History);
    app.apply(Command::ShowScreen(Screen::Leaderboard));
    assert_eq!(app.screen(), Screen::Leaderboard);
    app.apply(Command::ShowLeaderboard(
        GameKind::Backgammon,
        LeaderboardPeriod::Week,
    ));
    app.apply(Command::ShowScreen(Screen::Lobby));
    assert_eq!(app.screen(), Screen::Lobby);
    assert_eq!(
        sent(&mut rx),
        vec![
            ClientMessage::ListGames {
                offset: 0,
                limit: HISTORY_PAGE,
            },
            ClientMessage::GetLeaderboard {
                game: GameKind::Gomoku,
                period: LeaderboardPeriod::AllTime,
                bots: false,
            },
            ClientMessage::GetLeaderboard {
                game: GameKind::Backgammon,
                period: LeaderboardPeriod::Week,
                bots: false,
            },
            ClientMessage::ListRooms,
        ]
    );
}

#[test]
fn the_replay_screen_needs_a_replay() {
    let (mut app, mut rx) = app();
    app.apply(Command::ShowScreen(Screen::Replay));
    assert_eq!(app.screen(), Screen::Lobby);
    assert!(queued(&mut rx).is_empty());
}

#[test]
fn history_pages_remember_the_offset() {
    let (mut app, mut rx) = app();
    app.apply(Command::HistoryPage(40));
    app.apply(Command::ShowScreen(Screen::History));
    assert_eq!(
        sent(&mut rx),
        vec![
            ClientMessage::ListGames {
                offset: 40,
                limit: HISTORY_PAGE,
            };
            2
        ]
    );
}

#[test]
fn a_game_that_cannot_be_fetched_says_so() {
    let (mut app, mut rx) = app();
    app.apply(Command::OpenGame("g1".into()));
    assert_eq!(
        sent(&mut rx),
        vec![ClientMessage::GetGame {
            game_id: "g1".into()
        }]
    );
    receive(
        &mut app,
        Some(1),
        ServerMessage::Error {
            code: ErrorCode::NotFound,
            message: "no such game".into(),
            retry_after_ms: None,
        },
    );
    assert_eq!(app.toasts(), vec!["Could not open the game: no such game"]);
    assert_eq!(app.screen(), Screen::Lobby);
}

#[test]
fn register_checks_the_passwords_then_waits_for_the_answer() {
    let (mut app, mut rx) = app();
    app.apply(Command::ShowAccount(true));
    app.account.password = "secret-one".into();
    app.account.confirm = "secret-two".into();
    app.apply(Command::Register);
    assert!(matches!(app.account_note(), Some(AccountNote::Failed(_))));
    assert!(queued(&mut rx).is_empty());

    app.account.password = "correct horse".into();
    app.account.confirm = "correct horse".into();
    app.apply(Command::Register);
    assert_eq!(app.account_note(), Some(&AccountNote::Pending));
    assert_eq!(
        sent(&mut rx),
        vec![ClientMessage::Register {
            password: "correct horse".into()
        }]
    );
    receive(
        &mut app,
        Some(1),
        ServerMessage::Error {
            code: ErrorCode::NameTaken,
            message: "taken".into(),
            retry_after_ms: None,
        },
    );
    assert!(matches!(app.account_note(), Some(AccountNote::Failed(_))));
    assert!(
        app.toasts().is_empty(),
        "the account window says it, not a toast"
    );
}

#[test]
fn guests_create_unrated_rooms() {
    let (mut app, mut rx) = app();
    app.settings.create.vs_ai = false;
    app.settings.create.rated = true;
    app.apply(Command::ShowCreate(true));
    app.apply(Command::CreateRoom);
    assert!(!app.lobby.create_open);
    match sent(&mut rx).as_slice() {
        [ClientMessage::CreateRoom { options }] => assert!(!options.rated),
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn connect_targets_the_settings_address() {
    let (mut app, mut rx) = app();
    app.settings.address = " example.org:7878 ".into();
    app.connect.account_password = "pw".into();
    app.apply(Command::Connect);
    match queued(&mut rx).as_slice() {
        [NetCommand::Connect(target)] => {
            assert_eq!(target.address, "example.org:7878");
            assert_eq!(target.name, "Ada");
            assert_eq!(target.account_password.as_deref(), Some("pw"));
            assert_eq!(target.password, None);
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn a_bad_name_does_not_connect() {
    let (mut app, mut rx) = app();
    app.settings.name = "  ".into();
    app.apply(Command::Connect);
    assert!(queued(&mut rx).is_empty());
    // Said beside the name field, not in a toast far from it (issue 26 #13).
    assert!(app.toasts().is_empty());
    assert!(app.connect.name_error.is_some());
}

/// The "name is empty" line under the field went away only at the next
/// attempt, so it stood beside the name just typed.
#[test]
fn typing_a_name_takes_the_complaint_about_it_away() {
    use egui_kittest::kittest::Queryable;
    let (mut app, _rx) = app();
    app.settings.name = String::new();
    app.apply(Command::Connect);
    let mut h = egui_kittest::Harness::builder()
        .with_size([1280.0, 800.0])
        .with_accessibility_check(false)
        .build_ui_state(|ui, app: &mut TabulaApp| app.draw(ui), app);
    h.run_steps(2);
    assert!(h.query_by_label_contains("the name is empty").is_some());
    let name = || egui::accesskit::Role::TextInput;
    h.query_all_by_role(name())
        .next()
        .expect("the name field")
        .click();
    h.run_steps(2);
    h.query_all_by_role(name())
        .next()
        .expect("the name field")
        .type_text("Ada");
    h.run_steps(2);
    assert_eq!(h.state().settings.name, "Ada");
    assert!(h.query_by_label_contains("the name is empty").is_none());
}

#[test]
fn disconnect_forgets_the_room_and_the_screens() {
    let (mut app, mut rx) = app();
    join(&mut app, Role::Player);
    app.apply(Command::HistoryPage(20));
    app.screen = Screen::History;
    queued(&mut rx);
    app.apply(Command::Disconnect);
    assert!(matches!(
        queued(&mut rx).as_slice(),
        [NetCommand::Disconnect]
    ));
    assert!(app.room().is_none());
    assert_eq!(app.screen(), Screen::Lobby);
    assert_eq!(app.history.offset, 0);
}

#[test]
fn a_refused_join_goes_back_to_the_lobby() {
    let (mut app, _rx) = app();
    join(&mut app, Role::Player);
    receive(
        &mut app,
        Some(3),
        ServerMessage::Error {
            code: ErrorCode::RoomFull,
            message: "the room is full".into(),
            retry_after_ms: None,
        },
    );
    assert!(app.room().is_none());
    assert_eq!(app.toasts(), vec!["the room is full"]);
}

#[test]
fn welcome_keeps_the_token_and_rejoins_the_seated_room() {
    let (mut app, mut rx) = app();
    app.connect.account_password = "pw".into();
    receive(
        &mut app,
        None,
        ServerMessage::Welcome {
            protocol: PROTOCOL_VERSION,
            player_id: "p1".into(),
            name: "Ada".into(),
            token: "t1".into(),
            rooms: vec!["r9".into()],
            registered: true,
            bot: false,
            engines: Vec::new(),
        },
    );
    assert_eq!(
        app.settings.tokens.get(DEFAULT_ADDRESS).map(String::as_str),
        Some("t1")
    );
    assert!(app.session.identity_unsaved);
    assert!(app.registered());
    assert!(app.connect.account_password.is_empty());
    assert_eq!(
        sent(&mut rx),
        vec![
            ClientMessage::JoinRoom {
                room_id: "r9".into(),
                role: Role::Player,
                since: None,
            },
            ClientMessage::ListRooms,
        ]
    );
}

/// A client restarted mid-game returns to the room that was open when it
/// closed, not to the first of its seats (an older game it had left); the
/// room a player leaves is forgotten.
#[test]
fn a_restarted_client_returns_to_the_room_that_was_open() {
    let (mut app, mut rx) = app();
    let welcome = |rooms: Vec<String>| ServerMessage::Welcome {
        protocol: PROTOCOL_VERSION,
        player_id: "p1".into(),
        name: "Ada".into(),
        token: "t1".into(),
        rooms,
        registered: false,
        bot: false,
        engines: Vec::new(),
    };
    receive(
        &mut app,
        None,
        ServerMessage::Joined {
            room_id: "r-bg".into(),
            role: Role::Player,
            seat: Some(Seat::First),
        },
    );
    // The saved settings, as the next launch reads them.
    let saved = app.settings.clone();
    let (mut app, mut rx2) = self::app();
    app.settings = saved;
    receive(&mut app, None, welcome(vec!["r-old".into(), "r-bg".into()]));
    assert_eq!(
        sent(&mut rx2)[0],
        ClientMessage::JoinRoom {
            room_id: "r-bg".into(),
            role: Role::Player,
            since: None,
        }
    );
    app.apply(Command::Leave);
    assert!(
        app.settings.open_rooms.is_empty(),
        "{:?}",
        app.settings.open_rooms
    );
    drop(sent(&mut rx));
}

/// A host who closed the client while hosting hosts again at launch.
#[test]
fn hosting_is_remembered_until_disconnect() {
    let (mut app, _rx) = app();
    app.settings.hosting = true;
    app.apply(Command::Disconnect);
    assert!(!app.settings.hosting, "a disconnect ends hosting");
}

/// A Backgammon room's snapshot for "r1" (White and Black seated, playing)
/// with this record.
fn bg_snapshot(actions: Vec<BgAction>, dice: Option<DiceProof>) -> RoomSnapshot {
    let config = MatchConfig::default();
    let seat = |seat, id: &str| SeatInfo {
        seat,
        player: Some(PlayerInfo {
            id: id.into(),
            name: id.into(),
            ai: None,
            bot: false,
        }),
        connected: true,
        grace_ms: None,
    };
    RoomSnapshot {
        summary: RoomSummary {
            room_id: "r1".into(),
            options: RoomOptions {
                game: GameOptions::Backgammon(config),
                opponent: Opponent::Human,
                colour: ColourChoice::Random,
                time_control: None,
                private: false,
                takebacks: false,
                rated: false,
                hints: false,
            },
            seats: vec![seat(Seat::First, "p1"), seat(Seat::Second, "p2")],
            status: RoomStatus::Playing,
            spectators: 0,
        },
        seq: 1,
        record: GameRecord::Backgammon {
            config,
            actions,
            dice,
        },
        result: None,
        clock: None,
        offers: vec![],
        spectators_muted: false,
        chat: vec![],
        code: None,
        turn: Turn::nothing(),
        your_seat: None,
    }
}
