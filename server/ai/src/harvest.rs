//! Puzzles from a finished game: every position of its record where a side
//! decides, through the harvesters of each game
//! ([`crate::gomoku::harvest`]: "win by fours" with a proven unique first
//! four; [`crate::backgammon::harvest`]: a best play or cube action clearly
//! better than the rest), as the server runs it after a game and the
//! puzzle tool runs it over sample games.
//!
//! A game gives at most one Gomoku puzzle per colour (the first position
//! where it wins by fours: the later ones are the same win, shorter) and
//! at most [`MOST_PER_GAME`] Backgammon puzzles.

use tabula_shared::game::Game;
use tabula_shared::protocol::{
    GameRecord, PuzzleAnswer, PuzzleSolution, PuzzleTheme, SolvedPuzzle,
};
use tabula_shared::study::{BgSetup, GomokuSetup, StudyPosition};

use crate::backgammon::harvest::{DEPTH, cube_puzzle, play_puzzle};
use crate::gomoku::harvest::vcf_puzzle;

/// Nodes a Gomoku proof may search (each "no other four wins" too).
pub const GOMOKU_NODES: u64 = 200_000;
/// Most Backgammon puzzles kept from one game.
pub const MOST_PER_GAME: usize = 4;

/// Every position of `record` where a side decides, first to last, as the
/// analysis board sets it up: before each action, and the last one when
/// the rules had not ended the game there (a resignation, a time-out).
/// A record that stops replaying ends there.
pub fn positions(record: &GameRecord) -> Vec<StudyPosition> {
    let mut out = Vec::new();
    let Ok(mut game) = Game::new(&record.options()) else {
        return out;
    };
    let at = |game: &Game| {
        if let Some(m) = game.backgammon() {
            return BgSetup::of_match(m).map(StudyPosition::Backgammon);
        }
        let g = game.gomoku()?;
        GomokuSetup::from_moves(g.size(), g.config().rule, g.moves())
            .ok()
            .map(StudyPosition::Gomoku)
    };
    for action in record.actions() {
        out.extend(at(&game));
        if game.apply(action).is_err() {
            return out;
        }
    }
    if game.outcome().is_none() {
        out.extend(at(&game));
    }
    out
}

/// The puzzle in one position, if it makes one.
pub fn puzzle_at(position: &StudyPosition) -> Option<SolvedPuzzle> {
    let (theme, solution) = match position {
        StudyPosition::Gomoku(setup) => {
            let board = setup.board().ok()?;
            let p = vcf_puzzle(&board, setup.to_move, setup.rule, GOMOKU_NODES).ok()?;
            let solution = PuzzleSolution {
                answer: PuzzleAnswer::Point {
                    point: *p.solution.first()?,
                },
                line: p.solution.iter().map(ToString::to_string).collect(),
                margin: None,
                depth: None,
            };
            (PuzzleTheme::WinByFours, solution)
        }
        StudyPosition::Backgammon(setup) => {
            let m = setup.to_match().ok()?;
            if setup.dice.is_some() {
                let p = play_puzzle(&m)?;
                let solution = PuzzleSolution {
                    line: vec![p.best.to_string()],
                    answer: PuzzleAnswer::Play { play: p.best },
                    margin: Some(p.margin),
                    depth: Some(DEPTH),
                };
                (PuzzleTheme::BestPlay, solution)
            } else {
                let c = cube_puzzle(&m)?;
                let solution = PuzzleSolution {
                    answer: PuzzleAnswer::Cube { action: c.action },
                    line: Vec::new(),
                    margin: Some(c.margin),
                    depth: Some(DEPTH),
                };
                (PuzzleTheme::CubeAction, solution)
            }
        }
    };
    Some(SolvedPuzzle {
        theme,
        position: position.clone(),
        solution,
        game_id: None,
    })
}

/// The puzzles of a finished game. `step` is called before each position
/// is looked at (the server waits there for an idle core).
pub fn harvest(
    record: &GameRecord,
    game_id: Option<&str>,
    step: &mut dyn FnMut(),
) -> Vec<SolvedPuzzle> {
    let mut out: Vec<SolvedPuzzle> = Vec::new();
    let mut gomoku_found = [false; 2];
    for position in positions(record) {
        let colour = match &position {
            StudyPosition::Gomoku(setup) => {
                let c = setup.to_move as usize;
                if gomoku_found[c] {
                    continue;
                }
                Some(c)
            }
            StudyPosition::Backgammon(_) => {
                if out.len() >= MOST_PER_GAME {
                    break;
                }
                None
            }
        };
        step();
        if let Some(mut p) = puzzle_at(&position) {
            if let Some(c) = colour {
                gomoku_found[c] = true;
            }
            p.game_id = game_id.map(str::to_string);
            out.push(p);
        }
    }
    out
}
