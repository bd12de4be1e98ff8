//! The analysis board in the real app, driven headless by `egui_kittest`
//! against a real server on `127.0.0.1:0`: an XGID pasted, the engine's
//! plays shown, a rollout started and stopped, and one play played on the
//! board; a Gomoku move list pasted, a
//! stone clicked on the board and the engine's answer for the new
//! position; a bad paste refused with the reason; a finished game opened
//! on the board from the replay viewer; positions of both games set up by
//! hand, and one the rules refuse.

mod common;

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tabula_client::TabulaApp;
use tabula_shared::protocol::{RolloutState, StudyAnswer};
use tabula_shared::study::StudyPosition;

use common::{
    app, click_label, connect, create_gomoku_vs_ai, place, start_server, type_into, wait_until,
};

/// Steps frames until `cond` holds, for at most `secs` seconds (the
/// engine's answers take longer than a frame).
fn wait_for(
    h: &mut Harness<'_, TabulaApp>,
    what: &str,
    secs: u64,
    cond: impl Fn(&TabulaApp) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < deadline {
        h.step();
        if cond(h.state()) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let a = h.state();
    panic!(
        "timed out waiting for {what}; at {:?}, error {:?}, answer {:?}",
        a.study_position(),
        a.study_error(),
        a.study_answer().is_some()
    );
}

/// Clicks the first of the buttons labelled `label` (one beside each line).
fn click_first(h: &mut Harness<'_, TabulaApp>, label: &str) {
    h.step();
    h.get_all_by_label(label).next().expect(label).click();
    h.step();
}

const PASTE: &str = "Paste a gnubg Position ID and Match ID, an XGID, a Gomoku move list, PSQ or SGF, or a board link:";

#[test]
fn paste_read_play_on_and_branch() {
    let server = start_server();
    let mut h = app(&server, "Ada");
    connect(&mut h);
    click_label(&mut h, "Board");

    type_into(
        &mut h,
        PASTE,
        "XGID=-b--BBC-C---eC---c-e----B-:0:0:1:31:0:0:0:0:10",
    );
    click_label(&mut h, "Open");
    wait_until(
        &mut h,
        "the backgammon answer",
        |a| matches!(a.study_answer(), Some(StudyAnswer::Backgammon(bg)) if !bg.plays.is_empty()),
    );
    // A rollout: started, reporting, stopped.
    click_label(&mut h, "5184");
    click_label(&mut h, "Roll out");
    wait_for(&mut h, "a running rollout report", 60, |a| {
        a.study_rollout()
            .is_some_and(|r| r.state == RolloutState::Running && !r.lines.is_empty())
    });
    click_label(&mut h, "Stop");
    wait_for(&mut h, "the rollout stopped", 60, |a| {
        a.study_rollout()
            .is_some_and(|r| r.state == RolloutState::Stopped && r.trials_done < 5184)
    });
    let before = h.state().study_position().clone();
    click_first(&mut h, "Play");
    wait_for(&mut h, "the next position and its answer", 60, |a| {
        a.study_position() != &before && a.study_answer().is_some()
    });
    let StudyPosition::Backgammon(after) = h.state().study_position() else {
        panic!("backgammon");
    };
    let StudyPosition::Backgammon(was) = &before else {
        panic!("backgammon");
    };
    assert_eq!(
        after.on_roll,
        was.on_roll.opponent(),
        "the other side is on roll"
    );
    assert_eq!(after.dice, None);

    // A Gomoku line, a stone clicked on the board.
    type_into(&mut h, PASTE, "h8 i9 j10");
    click_label(&mut h, "Open");
    wait_until(
        &mut h,
        "the gomoku answer",
        |a| matches!(a.study_answer(), Some(StudyAnswer::Gomoku(g)) if g.moves.len() == 3),
    );
    place(&mut h, "g7".parse().expect("point"));
    wait_for(&mut h, "the stone and the new answer", 60, |a| {
        matches!(a.study_position(), StudyPosition::Gomoku(g) if g.white.len() == 2)
            && a.study_answer().is_some()
    });

    type_into(
        &mut h,
        PASTE,
        "XGID=-A----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    );
    click_label(&mut h, "Open");
    h.step();
    let error = h.state().study_error().unwrap_or_default().to_string();
    assert!(error.contains("16 checkers"), "{error}");
}

#[test]
fn a_finished_game_opens_on_the_board() {
    let server = start_server();
    let mut h = app(&server, "Ada");
    connect(&mut h);
    create_gomoku_vs_ai(&mut h);
    place(&mut h, "h8".parse().expect("point"));
    wait_until(&mut h, "the AI's reply", |a| common::gomoku_moves(a) >= 2);
    click_label(&mut h, "Resign");
    click_label(&mut h, "Yes, resign");
    wait_until(&mut h, "the game to end with its id", |a| {
        a.room()
            .is_some_and(|r| r.result.is_some() && r.game_id.is_some())
    });
    click_label(&mut h, "Analyse");
    wait_until(&mut h, "the replay", |a| a.replay().is_some());
    click_label(&mut h, "Open on the board");
    wait_for(&mut h, "the game on the board with an answer", 60, |a| {
        matches!(a.study_position(), StudyPosition::Gomoku(_)) && a.study_answer().is_some()
    });
}

#[test]
fn positions_are_set_up_by_hand() {
    use tabula_client::bg_view::Loc;
    use tabula_shared::backgammon::Side;
    let server = start_server();
    let mut h = app(&server, "Ada");
    connect(&mut h);
    click_label(&mut h, "Board");

    // Gomoku: three black stones and none of White's, White to move (no
    // game reaches it: only a set-up does).
    click_label(&mut h, "New gomoku board");
    click_label(&mut h, "Set up");
    click_label(&mut h, "Black stone");
    for p in ["h8", "i9", "j10"] {
        place(&mut h, p.parse().expect("point"));
    }
    // A click on a stone of the tool's colour takes it off again.
    place(&mut h, "j10".parse().expect("point"));
    place(&mut h, "g7".parse().expect("point"));
    click_first(&mut h, "White");
    click_label(&mut h, "Done");
    wait_for(&mut h, "the set-up position and its answer", 60, |a| {
        matches!(a.study_position(), StudyPosition::Gomoku(g)
            if g.black.len() == 3 && g.white.is_empty()
                && g.to_move == tabula_shared::gomoku::Stone::White
                && !g.black.contains(&"j10".parse().expect("point")))
            && a.study_answer().is_some()
    });

    // Five in a row is refused, and the set-up stays open.
    click_label(&mut h, "Set up");
    click_label(&mut h, "Black stone");
    for p in ["j10", "f6"] {
        place(&mut h, p.parse().expect("point"));
    }
    click_label(&mut h, "Done");
    assert!(
        common::has_text(&h, "Five in a row is already on the board"),
        "the refusal is shown"
    );
    click_label(&mut h, "Cancel");

    // Backgammon: a bear-off of one checker each, Black on roll.
    click_label(&mut h, "New backgammon board");
    click_label(&mut h, "Set up");
    click_label(&mut h, "Clear the board");
    click_label(&mut h, "White checker");
    common::click_loc(&mut h, Loc::Point(6));
    common::click_loc(&mut h, Loc::Point(6));
    click_label(&mut h, "Black checker");
    common::click_loc(&mut h, Loc::Point(19));
    click_first(&mut h, "Black");
    // Rolled: the editor's dice start at 3-1.
    click_label(&mut h, "Rolled:");
    click_label(&mut h, "Done");
    wait_for(&mut h, "the set-up position and its plays", 60, |a| {
        let set_up = matches!(a.study_position(), StudyPosition::Backgammon(b)
            if b.on_roll == Side::Black
                && b.dice == Some([3, 1])
                && b.board.off == [13, 14]
                && b.board.points[5] == 2
                && b.board.points[18] == -1);
        let answered =
            matches!(a.study_answer(), Some(StudyAnswer::Backgammon(bg)) if !bg.plays.is_empty());
        set_up && answered
    });
}
