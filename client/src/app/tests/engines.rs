//! The server's external engines in the create dialog, drawn by
//! `egui_kittest`: offered next to the AI levels for their game, and
//! chosen as the opponent of a new room.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tabula_shared::protocol::{
    ClientMessage, EngineInfo, GameKind, Opponent, PROTOCOL_VERSION, ServerMessage,
};

use super::{app, receive, sent};
use crate::app::{Command, TabulaApp};
use crate::net::{ConnState, NetEvent};

#[test]
fn the_create_dialog_offers_the_servers_engines_and_creates_a_room_against_one() {
    let (mut app, mut commands) = app();
    app.handle_event(NetEvent::State(ConnState::Connected));
    let engine = |game, name: &str| EngineInfo {
        game,
        name: name.into(),
    };
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
            engines: vec![
                engine(GameKind::Gomoku, "Rapfi"),
                engine(GameKind::Backgammon, "GNU"),
            ],
        },
    );
    sent(&mut commands);
    app.apply(Command::ShowCreate(true));
    let mut h = Harness::builder()
        .with_size([1200.0, 800.0])
        .with_accessibility_check(false)
        .build_ui_state(|ui, app: &mut TabulaApp| app.draw(ui), app);
    h.run_steps(3);
    // The AI's list: the levels, then this game's engines only.
    h.get_by_value("Intermediate").click();
    h.run_steps(3);
    assert!(
        h.query_by_label("Rapfi").is_some(),
        "the Gomoku engine is offered"
    );
    assert!(h.query_by_label("GNU").is_none(), "not the Backgammon one");
    h.get_by_label("Rapfi").click();
    h.run_steps(3);
    h.get_by_label("Create").click();
    h.run_steps(3);
    let created: Vec<Opponent> = sent(&mut commands)
        .into_iter()
        .filter_map(|m| match m {
            ClientMessage::CreateRoom { options } => Some(options.opponent),
            _ => None,
        })
        .collect();
    assert_eq!(
        created,
        [Opponent::Engine {
            name: "Rapfi".into()
        }]
    );
}
