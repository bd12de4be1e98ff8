//! The board styles of the Settings, on the drawn app (`egui_kittest`): the
//! colours painted change with the setting, for both games.

use egui::{Color32, Shape};
use egui_kittest::Harness;
use tabula_shared::gomoku::GomokuConfig;
use tabula_shared::protocol::{
    BgAction, GameOptions, GameRecord, Role, RoomSnapshot, ServerMessage,
};

use super::{app, bg_snapshot, join, receive};
use crate::app::TabulaApp;
use crate::settings::{BgStyle, GomokuStyle};
use crate::{bg_view, gomoku_view};

/// The app seated in room "r1" with this snapshot, drawn.
fn seated(snapshot: RoomSnapshot) -> Harness<'static, TabulaApp> {
    let (mut app, _rx) = app();
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

/// The fill colours of the rectangles painted in the last frame.
fn painted_fills(h: &Harness<'_, TabulaApp>) -> Vec<Color32> {
    fn walk(shape: &Shape, out: &mut Vec<Color32>) {
        match shape {
            Shape::Rect(r) => out.push(r.fill),
            Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        walk(&clipped.shape, &mut out);
    }
    out
}

#[test]
fn the_gomoku_board_takes_the_chosen_colours() {
    let mut snapshot = bg_snapshot(Vec::new(), None);
    let config = GomokuConfig::default();
    snapshot.summary.options.game = GameOptions::Gomoku(config);
    snapshot.record = GameRecord::Gomoku {
        config,
        actions: Vec::new(),
    };
    let mut h = seated(snapshot);
    let styles = [GomokuStyle::Wood, GomokuStyle::Plain, GomokuStyle::Dark];
    for style in styles {
        h.state_mut().settings.gomoku_style = style;
        h.run_steps(2);
        let fills = painted_fills(&h);
        for other in styles {
            let board = gomoku_view::palette(other).board;
            assert_eq!(
                fills.contains(&board),
                other == style,
                "{style:?}: the board of {other:?} painted? {}",
                fills.contains(&board)
            );
        }
    }
}

#[test]
fn the_backgammon_board_takes_the_chosen_colours() {
    let opening = vec![BgAction::OpeningRoll { white: 3, black: 1 }];
    let mut h = seated(bg_snapshot(opening, None));
    let styles = [BgStyle::Classic, BgStyle::Ocean];
    for style in styles {
        h.state_mut().settings.bg_style = style;
        h.run_steps(2);
        let fills = painted_fills(&h);
        for other in styles {
            let felt = bg_view::palette(other).felt;
            assert_eq!(
                fills.contains(&felt),
                other == style,
                "{style:?} / {other:?}"
            );
        }
    }
}
