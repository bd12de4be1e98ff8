//! A challenge from another player, on the drawn app (`egui_kittest`): the
//! window names the challenger and the game; Accept answers yes and joins
//! the room the server names, Decline answers no.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tabula_shared::protocol::{
    ClientMessage, ColourChoice, GameOptions, Opponent, PROTOCOL_VERSION, PlayerInfo, Role,
    RoomOptions, ServerMessage,
};

use super::{app, receive, sent};
use crate::app::TabulaApp;
use crate::net::{ConnState, NetEvent};

fn challenged(id: &str) -> ServerMessage {
    ServerMessage::Challenged {
        challenge_id: id.into(),
        from: PlayerInfo {
            id: "p-bot".into(),
            name: "DeepGammon".into(),
            ai: None,
            bot: true,
        },
        options: RoomOptions {
            game: GameOptions::Backgammon(Default::default()),
            opponent: Opponent::Human,
            colour: ColourChoice::Random,
            time_control: None,
            private: false,
            takebacks: true,
            rated: false,
            hints: false,
        },
    }
}

#[test]
fn a_challenge_is_accepted_or_declined_from_its_window() {
    let (mut app, mut rx) = app();
    receive(&mut app, None, challenged("c-1"));
    receive(&mut app, None, challenged("c-2"));
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_accessibility_check(false)
        .build_ui_state(|ui, app: &mut TabulaApp| app.draw(ui), app);
    h.run_steps(3);
    assert!(
        h.query_by_label_contains("DeepGammon [bot] challenges you to Backgammon")
            .is_some(),
        "the window names the bot and the game"
    );
    h.get_by_label("Accept").click();
    h.run_steps(2);
    assert_eq!(
        sent(&mut rx),
        vec![ClientMessage::AnswerChallenge {
            challenge_id: "c-1".into(),
            accept: true,
        }]
    );
    // The next one waits its turn in the same window.
    h.get_by_label("Decline").click();
    h.run_steps(2);
    assert_eq!(
        sent(&mut rx),
        vec![ClientMessage::AnswerChallenge {
            challenge_id: "c-2".into(),
            accept: false,
        }]
    );
    h.run_steps(2);
    assert!(h.query_by_label("Accept").is_none(), "no challenge is left");

    // Our own challenge accepted: we join the room it made.
    receive(
        h.state_mut(),
        None,
        ServerMessage::ChallengeAnswered {
            challenge_id: "c-9".into(),
            accepted: true,
            room_id: Some("r-9".into()),
        },
    );
    assert_eq!(
        sent(&mut rx),
        vec![ClientMessage::JoinRoom {
            room_id: "r-9".into(),
            role: Role::Player,
            since: None,
        }]
    );
}

#[test]
fn the_lobby_lists_the_bots_online_and_challenges_one() {
    let (mut app, mut rx) = app();
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
    sent(&mut rx);
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_accessibility_check(false)
        .build_ui_state(|ui, app: &mut TabulaApp| app.draw(ui), app);
    h.run_steps(2);
    assert!(
        sent(&mut rx).contains(&ClientMessage::ListBots),
        "the lobby asks which bots are online"
    );
    let bot = PlayerInfo {
        id: "p-bot".into(),
        name: "DeepGammon".into(),
        ai: None,
        bot: true,
    };
    receive(
        h.state_mut(),
        None,
        ServerMessage::BotsOnline { bots: vec![bot] },
    );
    h.run_steps(2);
    assert!(
        h.query_by_label("DeepGammon [bot]").is_some(),
        "the bot is listed"
    );
    let buttons: Vec<_> = h.query_all_by_label("Challenge").collect();
    assert_eq!(buttons.len(), 2, "one by name, one for the bot");
    buttons[1].click();
    h.run_steps(2);
    let challenges: Vec<ClientMessage> = sent(&mut rx)
        .into_iter()
        .filter(|m| matches!(m, ClientMessage::Challenge { .. }))
        .collect();
    let [ClientMessage::Challenge { to, options }] = challenges.as_slice() else {
        panic!("one challenge sent: {challenges:?}");
    };
    assert_eq!(to, "DeepGammon");
    assert_eq!(options.opponent, Opponent::Human);
}
