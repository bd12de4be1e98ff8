//! The analysis requests of the replay viewer, on a detached network: what
//! "Analyse" sends, how progress, the analysis and a refusal change the
//! viewer, and what the panel then says.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tabula_shared::gomoku::{Point, Stone};
use tabula_shared::protocol::{
    ClientMessage, ErrorCode, GameAnalysis, GomokuAnalysis, GomokuMoveReview, ServerMessage,
};

use super::defects::finished_gomoku;
use super::{app, receive, sent};
use crate::analysis::AnalysisState;
use crate::app::{Command, Screen, TabulaApp};

/// An analysis of the test game ("g-1"): one stone, no mistake.
fn analysis() -> Box<GameAnalysis> {
    Box::new(GameAnalysis::Gomoku(GomokuAnalysis {
        engine: "test engine".into(),
        moves: vec![GomokuMoveReview {
            index: 0,
            stone: Stone::Black,
            played: Point::new(7, 7),
            best: Some(Point::new(7, 7)),
            eval: 0.1,
            mistake: None,
            line: Vec::new(),
        }],
    }))
}

/// The app with "g-1" open in the replay viewer (request 1 was its
/// `get_game`); `with` is the analysis the server sent along.
fn replaying(
    with: Option<Box<GameAnalysis>>,
) -> (TabulaApp, super::UnboundedReceiver<crate::net::NetCommand>) {
    let (mut app, mut rx) = app();
    app.apply(Command::OpenGame("g-1".into()));
    receive(
        &mut app,
        Some(1),
        ServerMessage::Game {
            game: Box::new(finished_gomoku()),
            analysis: with,
        },
    );
    assert_eq!(app.screen(), Screen::Replay);
    let _ = sent(&mut rx);
    (app, rx)
}

#[test]
fn analyse_sends_the_request_and_follows_its_progress_to_the_analysis() {
    let (mut app, mut rx) = replaying(None);
    assert_eq!(app.analysis(), &AnalysisState::NotAsked);
    app.apply(Command::Analyse);
    assert_eq!(
        sent(&mut rx),
        vec![ClientMessage::Analyse {
            game_id: "g-1".into()
        }]
    );
    // Pressing again while it runs asks nothing more.
    app.apply(Command::Analyse);
    assert!(sent(&mut rx).is_empty());
    let progress = |game_id: &str, done| ServerMessage::AnalysisProgress {
        game_id: game_id.into(),
        done,
        total: 10,
    };
    receive(&mut app, Some(2), progress("g-1", 3));
    // Another game's progress is not ours.
    receive(&mut app, Some(2), progress("g-other", 9));
    assert_eq!(
        app.analysis(),
        &AnalysisState::Running {
            request_id: 2,
            done: 3,
            total: 10
        }
    );
    receive(
        &mut app,
        Some(2),
        ServerMessage::Analysis {
            game_id: "g-1".into(),
            analysis: analysis(),
        },
    );
    assert_eq!(app.analysis().analysis(), Some(&*analysis()));
}

#[test]
fn a_game_that_comes_with_its_analysis_shows_it_without_asking() {
    let (app, mut rx) = replaying(Some(analysis()));
    assert_eq!(app.analysis().analysis(), Some(&*analysis()));
    assert!(sent(&mut rx).is_empty());
}

#[test]
fn analyse_from_the_game_over_dialog_opens_the_game_then_asks() {
    let (mut app, mut rx) = app();
    app.apply(Command::AnalyseGame("g-1".into()));
    assert_eq!(
        sent(&mut rx),
        vec![ClientMessage::GetGame {
            game_id: "g-1".into()
        }]
    );
    receive(
        &mut app,
        Some(1),
        ServerMessage::Game {
            game: Box::new(finished_gomoku()),
            analysis: None,
        },
    );
    assert_eq!(app.screen(), Screen::Replay);
    assert_eq!(
        sent(&mut rx),
        vec![ClientMessage::Analyse {
            game_id: "g-1".into()
        }]
    );
}

/// `busy` says when to try again, in the panel, and "Analyse" is back.
#[test]
fn a_busy_server_says_when_to_try_again() {
    let (mut app, mut rx) = replaying(None);
    app.apply(Command::Analyse);
    let _ = sent(&mut rx);
    receive(
        &mut app,
        Some(2),
        ServerMessage::Error {
            code: ErrorCode::Busy,
            message: "the engines are busy".into(),
            retry_after_ms: Some(4_200),
        },
    );
    assert_eq!(
        app.analysis(),
        &AnalysisState::Busy {
            retry_after_ms: 4_200
        }
    );
    assert!(app.toasts().is_empty(), "said in the panel, not a toast");
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_accessibility_check(false)
        .build_ui_state(|ui, app: &mut TabulaApp| app.draw(ui), app);
    h.run_steps(3);
    assert!(
        h.query_by_label("The server is busy analysing other games; try again in 5 s")
            .is_some()
    );
    h.get_by_label("Analyse").click();
    h.run_steps(2);
    assert_eq!(
        sent(&mut rx),
        vec![ClientMessage::Analyse {
            game_id: "g-1".into()
        }]
    );
}

/// Any other refusal is shown with the server's words.
#[test]
fn a_failed_analysis_says_why() {
    let (mut app, _rx) = replaying(None);
    app.apply(Command::Analyse);
    receive(
        &mut app,
        Some(2),
        ServerMessage::Error {
            code: ErrorCode::RateLimited,
            message: "one analysis at a time".into(),
            retry_after_ms: None,
        },
    );
    assert_eq!(
        app.analysis(),
        &AnalysisState::Failed("one analysis at a time".into())
    );
}
