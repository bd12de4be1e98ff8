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

mod auto_pass;
mod bg_clicks;
mod board_style;
mod challenges;
mod defects;
mod engines;
mod export_picker;
mod layout;
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

/// The server seed the dice tests commit to.
fn server_seed() -> ServerSeed {
    ServerSeed::from_bytes([42; 32])
}

/// Joins "r1" in `role` and receives a Backgammon snapshot, then runs a
/// frame's network step (where the app decides to send its seed).
fn join_bg(app: &mut TabulaApp, role: Role, actions: Vec<BgAction>, dice: Option<DiceProof>) {
    join(app, role);
    receive(
        app,
        None,
        ServerMessage::Snapshot {
            room_id: "r1".into(),
            snapshot: Box::new(bg_snapshot(actions, dice)),
        },
    );
    app.poll(&egui::Context::default());
}

/// The `dice_seed` messages among those sent.
fn seeds_sent(rx: &mut UnboundedReceiver<NetCommand>) -> Vec<String> {
    sent(rx)
        .into_iter()
        .filter_map(|m| match m {
            ClientMessage::DiceSeed { room_id, seed } => {
                assert_eq!(room_id, "r1");
                Some(seed)
            }
            _ => None,
        })
        .collect()
}

#[test]
fn a_seated_player_sends_a_random_dice_seed_once() {
    let (mut other, mut other_rx) = app();
    let (mut app, mut rx) = app();
    let proof = DiceProof::commit(&server_seed(), false);
    join_bg(&mut app, Role::Player, vec![], Some(proof.clone()));
    let seeds = seeds_sent(&mut rx);
    assert_eq!(seeds.len(), 1, "{seeds:?}");
    assert_eq!(check_player_seed(&seeds[0]), Ok(()));
    assert!(seeds[0].len() >= 16, "a seed worth the name: {}", seeds[0]);
    app.poll(&egui::Context::default());
    app.poll(&egui::Context::default());
    assert!(seeds_sent(&mut rx).is_empty(), "only once");

    // The server echoes it to the room; the record keeps it.
    receive(
        &mut app,
        None,
        ServerMessage::Event {
            room_id: "r1".into(),
            seq: 2,
            event: RoomEvent::DiceSeed {
                seat: Seat::First,
                seed: seeds[0].clone(),
            },
        },
    );
    let record = app.room().and_then(|r| r.record.as_ref());
    let kept = record.and_then(GameRecord::dice).map(|p| &p.player_seeds);
    assert_eq!(kept, Some(&[seeds[0].clone(), String::new()]));

    // Two fresh seeds differ.
    join_bg(&mut other, Role::Player, vec![], Some(proof));
    assert_ne!(seeds_sent(&mut other_rx), seeds);
}

#[test]
fn a_new_match_gets_a_new_seed() {
    let (mut app, mut rx) = app();
    let first = DiceProof::commit(&server_seed(), false);
    join_bg(&mut app, Role::Player, vec![], Some(first));
    assert_eq!(seeds_sent(&mut rx).len(), 1);
    let next = DiceProof::commit(&ServerSeed::from_bytes([43; 32]), false);
    let record = bg_snapshot(vec![], Some(next)).record;
    let event = RoomEvent::GameStarted {
        record,
        clock: None,
        turn: None,
    };
    let (room_id, seq) = ("r1".into(), 2);
    receive(
        &mut app,
        None,
        ServerMessage::Event {
            room_id,
            seq,
            event,
        },
    );
    app.poll(&egui::Context::default());
    assert_eq!(seeds_sent(&mut rx).len(), 1, "a rematch commits anew");
}

#[test]
fn no_dice_seed_from_a_spectator_after_the_first_roll_or_without_a_proof() {
    let proof = DiceProof::commit(&server_seed(), false);
    let (mut watcher, mut rx) = app();
    join_bg(&mut watcher, Role::Spectator, vec![], Some(proof.clone()));
    assert!(seeds_sent(&mut rx).is_empty(), "a spectator has no seat");

    let (mut late, mut rx) = app();
    let rolled = vec![BgAction::OpeningRoll { white: 3, black: 3 }];
    join_bg(&mut late, Role::Player, rolled, Some(proof.clone()));
    assert!(seeds_sent(&mut rx).is_empty(), "the dice are already fixed");

    let (mut given, mut rx) = app();
    let mut seeded = proof;
    seeded.player_seeds[0] = "mine".into();
    join_bg(&mut given, Role::Player, vec![], Some(seeded));
    assert!(seeds_sent(&mut rx).is_empty(), "our seed is already in");

    let (mut old, mut rx) = app();
    join_bg(&mut old, Role::Player, vec![], None);
    assert!(seeds_sent(&mut rx).is_empty(), "a room without a proof");
}

#[test]
fn a_refused_dice_seed_is_not_a_toast() {
    let (mut app, mut rx) = app();
    join_bg(
        &mut app,
        Role::Player,
        vec![],
        Some(DiceProof::commit(&server_seed(), false)),
    );
    let id = queued(&mut rx).into_iter().find_map(|c| match c {
        NetCommand::Send(frame) if matches!(frame.message, ClientMessage::DiceSeed { .. }) => {
            frame.request_id
        }
        _ => None,
    });
    assert!(id.is_some());
    receive(
        &mut app,
        id,
        ServerMessage::Error {
            code: ErrorCode::IllegalMove,
            message: "too late".into(),
            retry_after_ms: None,
        },
    );
    assert!(app.toasts().is_empty());
    assert!(app.room().is_some());
}

/// The opening rolls the committed seed deals for game 1, up to and
/// including the first that is not a tie (a record that replays).
fn dealt_opening(proof: &DiceProof) -> Vec<BgAction> {
    let stream = proof.stream_with(&server_seed());
    let mut actions = Vec::new();
    for [white, black] in stream.game(1) {
        actions.push(BgAction::OpeningRoll { white, black });
        if white != black {
            break;
        }
    }
    actions
}

/// The dice check of the room's record, as the game-over dialog shows it.
fn room_check(app: &TabulaApp) -> DiceCheck {
    match app.room().and_then(|r| r.record.as_ref()) {
        Some(GameRecord::Backgammon { actions, dice, .. }) => DiceCheck::of(actions, dice.as_ref()),
        other => panic!("no Backgammon record: {other:?}"),
    }
}

/// The game ends with the seed revealed on `game_over`.
fn game_over(app: &mut TabulaApp, revealed: DiceProof) {
    receive(
        app,
        None,
        ServerMessage::Event {
            room_id: "r1".into(),
            seq: 2,
            event: RoomEvent::GameOver {
                result: GameResult {
                    winner: Some(Seat::First),
                    reason: EndReason::Resigned,
                    line: vec![],
                    score: Some([1, 0]),
                },
                game_id: Some("g1".into()),
                ratings: vec![],
                dice: Some(revealed),
            },
        },
    );
}

#[test]
fn the_revealed_seed_verifies_the_record() {
    let (mut app, _rx) = app();
    let mut proof = DiceProof::commit(&server_seed(), false);
    proof.player_seeds = ["w-seed".into(), "b-seed".into()];
    let actions = dealt_opening(&proof);
    let rolls = actions.len();
    join_bg(&mut app, Role::Spectator, actions, Some(proof.clone()));
    let check = room_check(&app);
    assert_eq!(check.verdict(), Verdict::Neutral);
    assert!(check.text().starts_with("Dice committed: "), "{check:?}");

    proof.reveal(&server_seed());
    proof.test_seed = true;
    game_over(&mut app, proof);
    let check = room_check(&app);
    assert_eq!(check.verdict(), Verdict::Good);
    let expected = if rolls == 1 {
        "Dice verified: 1 roll matches the server's revealed seed".to_string()
    } else {
        format!("Dice verified: {rolls} rolls match the server's revealed seed")
    };
    assert_eq!(check.text(), expected);
    assert_eq!(
        check.note().as_deref(),
        Some("Test dice (--dice-seed): reproducible, not secret")
    );
}

#[test]
fn a_changed_roll_fails_the_check_and_is_named() {
    let mut proof = DiceProof::commit(&server_seed(), false);
    proof.player_seeds = ["w-seed".into(), String::new()];
    proof.reveal(&server_seed());
    let mut actions = dealt_opening(&proof);
    let last = actions.len() - 1;
    let BgAction::OpeningRoll { white, black } = actions[last] else {
        unreachable!()
    };
    // Swapped dice: the same roll, but not the one each side was dealt.
    actions[last] = BgAction::OpeningRoll {
        white: black,
        black: white,
    };
    let check = DiceCheck::of(&actions, Some(&proof));
    assert_eq!(check.verdict(), Verdict::Bad);
    assert_eq!(
        check.text(),
        format!(
            "Dice check FAILED: game 1 roll {last} (record entry {last}): \
             the seeds give {white}-{black}, the record has {black}-{white}"
        )
    );
    assert_eq!(check.note(), None);
}

#[test]
fn a_record_without_a_proof_says_so() {
    let (mut app, _rx) = app();
    join_bg(&mut app, Role::Player, vec![], None);
    let check = room_check(&app);
    assert_eq!(check, DiceCheck::NoProof);
    assert_eq!(check.text(), "This game has no dice proof");
    assert_eq!(check.verdict(), Verdict::Neutral);
}

#[test]
fn the_dice_screen_asks_for_the_statistics() {
    let (mut app, mut rx) = app();
    app.apply(Command::ShowScreen(Screen::Dice));
    assert_eq!(app.screen(), Screen::Dice);
    assert_eq!(sent(&mut rx), vec![ClientMessage::DiceStats]);
    let mut all = DiceStats::default();
    all.add_roll([6, 6]);
    let report = DiceStatsReport {
        games: 1,
        all,
        yours: DiceStats::default(),
    };
    receive(
        &mut app,
        Some(1),
        ServerMessage::DiceStats {
            report: Box::new(report.clone()),
        },
    );
    assert_eq!(app.dice_stats(), Some(&report));
}
