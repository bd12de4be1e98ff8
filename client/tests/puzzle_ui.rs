//! The puzzle screen in the real app, driven headless by `egui_kittest`
//! against a real server on `127.0.0.1:0`: a "win by fours" puzzle
//! answered with a click on the board, a Backgammon best play picked from
//! the legal plays, each checked by the server and rated.

mod common;

use egui_kittest::Harness;
use tabula_client::TabulaApp;
use tabula_shared::protocol::{PuzzleAnswer, PuzzleTheme, SolvedPuzzle};
use tabula_shared::study::StudyPosition;

use common::{app, click_label, connect, place, start_server, wait_until};

/// The built-in set, to know the answers.
fn solution_of(id: &str) -> SolvedPuzzle {
    let all: Vec<SolvedPuzzle> =
        serde_json::from_str(include_str!("../../server/src/puzzles/seed.json")).expect("reads");
    all.into_iter()
        .find(|p| p.id() == id)
        .expect("a built-in puzzle")
}

/// Asks for a puzzle of `theme` and waits for it.
fn next_of(h: &mut Harness<'_, TabulaApp>, label: &str, theme: PuzzleTheme) -> SolvedPuzzle {
    click_label(h, label);
    click_label(h, "Next puzzle");
    wait_until(h, "a puzzle of the theme", |a| {
        a.puzzle().is_some_and(|p| p.theme == theme) && a.puzzle_outcome().is_none()
    });
    let id = h.state().puzzle().expect("puzzle").id.clone();
    solution_of(&id)
}

#[test]
fn puzzles_are_answered_on_the_board_and_in_the_panel() {
    let server = start_server();
    let mut h = app(&server, "Ada");
    connect(&mut h);
    click_label(&mut h, "Puzzles");
    wait_until(&mut h, "the first puzzle", |a| a.puzzle().is_some());

    let fours = next_of(&mut h, "Win by fours", PuzzleTheme::WinByFours);
    let PuzzleAnswer::Point { point } = fours.solution.answer else {
        panic!("a point")
    };
    place(&mut h, point);
    wait_until(&mut h, "the server's word", |a| {
        a.puzzle_outcome().is_some()
    });
    let (correct, rating) = h.state().puzzle_outcome().expect("outcome");
    assert!(correct);
    let rating = rating.expect("a first answer is rated");
    assert!(rating.after > rating.before, "{rating:?}");
    assert!(common::has_text(&h, "Right!"));

    let best = next_of(&mut h, "Best play", PuzzleTheme::BestPlay);
    let StudyPosition::Backgammon(setup) = &best.position else {
        panic!("backgammon")
    };
    let listed = setup
        .to_match()
        .expect("match")
        .legal_plays()
        .into_iter()
        .find(|play| best.check(&PuzzleAnswer::Play { play: play.clone() }) == Ok(true))
        .expect("the answer is listed");
    click_label(&mut h, &listed.to_string());
    click_label(&mut h, "Answer");
    wait_until(&mut h, "the server's word", |a| {
        a.puzzle_outcome().is_some()
    });
    assert_eq!(h.state().puzzle_outcome().map(|o| o.0), Some(true));
}
