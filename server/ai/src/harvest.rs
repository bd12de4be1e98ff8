//! Puzzles from a finished game: every position of its record where a side
//! decides, through the harvesters of each game
//! ([`crate::gomoku::harvest`]: "win by fours" with a proven unique first
//! four, "win by threats" with the only first threat the threat search
//! finds winning, "find the only defence" against a threat of fours;
//! [`crate::backgammon::harvest`]: a best play or cube action clearly
//! better than the rest), as the server runs it after a game and the
//! puzzle tool runs it over sample games.
//!
//! A game gives at most one Gomoku puzzle of each theme per colour (the
//! first position that makes it: the later ones are the same win,
//! shorter), one puzzle a position, and at most [`MOST_PER_GAME`]
//! Backgammon puzzles.

use tabula_shared::game::Game;
use tabula_shared::protocol::{
    GameRecord, PuzzleAnswer, PuzzleSolution, PuzzleTheme, SolvedPuzzle,
};
use tabula_shared::study::{BgSetup, GomokuSetup, StudyPosition};

use crate::backgammon::harvest::{DEPTH, cube_puzzle, play_puzzle};
use crate::gomoku::harvest::defence::defence_puzzle;
use crate::gomoku::harvest::threats::vct_puzzle;
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

/// The themes a position may make a puzzle of: Gomoku's three, or the
/// Backgammon question of the position (a play with dice, a cube action
/// without).
pub fn themes(position: &StudyPosition) -> &'static [PuzzleTheme] {
    match position {
        StudyPosition::Gomoku(_) => &[
            PuzzleTheme::WinByFours,
            PuzzleTheme::OnlyDefence,
            PuzzleTheme::WinByThreats,
        ],
        StudyPosition::Backgammon(setup) if setup.dice.is_some() => &[PuzzleTheme::BestPlay],
        StudyPosition::Backgammon(_) => &[PuzzleTheme::CubeAction],
    }
}

/// The puzzle of `theme` in one position, if it makes one.
pub fn puzzle_at(position: &StudyPosition, theme: PuzzleTheme) -> Option<SolvedPuzzle> {
    let solution = match position {
        StudyPosition::Gomoku(setup) => {
            let board = setup.board().ok()?;
            let (me, rule) = (setup.to_move, setup.rule);
            let (answer, line) = match theme {
                PuzzleTheme::WinByFours => {
                    let p = vcf_puzzle(&board, me, rule, GOMOKU_NODES).ok()?;
                    (*p.solution.first()?, p.solution)
                }
                PuzzleTheme::WinByThreats => {
                    let p = vct_puzzle(&board, me, rule, GOMOKU_NODES).ok()?;
                    (*p.solution.first()?, p.solution)
                }
                PuzzleTheme::OnlyDefence => {
                    let p = defence_puzzle(&board, me, rule, GOMOKU_NODES).ok()?;
                    (p.defence, vec![p.defence])
                }
                PuzzleTheme::BestPlay | PuzzleTheme::CubeAction => return None,
            };
            PuzzleSolution {
                answer: PuzzleAnswer::Point { point: answer },
                line: line.iter().map(ToString::to_string).collect(),
                margin: None,
                depth: None,
            }
        }
        StudyPosition::Backgammon(setup) => {
            let m = setup.to_match().ok()?;
            match theme {
                PuzzleTheme::BestPlay if setup.dice.is_some() => {
                    let p = play_puzzle(&m)?;
                    PuzzleSolution {
                        line: vec![p.best.to_string()],
                        answer: PuzzleAnswer::Play { play: p.best },
                        margin: Some(p.margin),
                        depth: Some(DEPTH),
                    }
                }
                PuzzleTheme::CubeAction if setup.dice.is_none() => {
                    let c = cube_puzzle(&m)?;
                    PuzzleSolution {
                        answer: PuzzleAnswer::Cube { action: c.action },
                        line: Vec::new(),
                        margin: Some(c.margin),
                        depth: Some(DEPTH),
                    }
                }
                _ => return None,
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
    harvest_themes(record, game_id, &PuzzleTheme::ALL, step)
}

/// [`harvest`] for the puzzles of `wanted` themes only.
pub fn harvest_themes(
    record: &GameRecord,
    game_id: Option<&str>,
    wanted: &[PuzzleTheme],
    step: &mut dyn FnMut(),
) -> Vec<SolvedPuzzle> {
    let mut out: Vec<SolvedPuzzle> = Vec::new();
    // The Gomoku themes found for each colour to move.
    let mut gomoku_found: [Vec<PuzzleTheme>; 2] = [Vec::new(), Vec::new()];
    for position in positions(record) {
        let colour = match &position {
            StudyPosition::Gomoku(setup) => Some(setup.to_move as usize),
            StudyPosition::Backgammon(_) => {
                if out.len() >= MOST_PER_GAME {
                    break;
                }
                None
            }
        };
        for &theme in themes(&position) {
            if !wanted.contains(&theme) || colour.is_some_and(|c| gomoku_found[c].contains(&theme))
            {
                continue;
            }
            step();
            if let Some(mut p) = puzzle_at(&position, theme) {
                if let Some(c) = colour {
                    gomoku_found[c].push(theme);
                }
                p.game_id = game_id.map(str::to_string);
                out.push(p);
                // One puzzle a position.
                break;
            }
        }
    }
    out
}
