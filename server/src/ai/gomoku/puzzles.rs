//! VCF puzzles for tests and benchmarks.
//!
//! The positions were found by `gomoku-arena --find-vcf`: random dense
//! positions (15x15, black to move, white without a VCF of its own) whose
//! *shortest* VCF for black, by iterative deepening of the VCF solver, is
//! long. Each is listed with that shortest number of fours (counting the
//! final open four or five). Row `y = 0` comes first.
//!
//! (Hand-built chains of fours, e.g. a "snake" of fours each through the
//! previous four's stone, always had shortcuts through diagonals of the
//! prepared stones, so the set is generated instead.)

use tabula_shared::gomoku::{Board, Stone};

/// A VCF puzzle: black to move wins by continuous fours.
#[derive(Debug, Clone)]
pub struct Puzzle {
    /// Short description.
    pub name: String,
    /// The position (black to move).
    pub board: Board,
    /// The attacking colour (always black here).
    pub attacker: Stone,
    /// Fours in the shortest solution (including the final one).
    pub fours: usize,
}

/// (shortest number of fours, diagram rows from `y = 0`).
const PUZZLES: &[(usize, &[&str])] = &[
    (
        5,
        &[
            "...............",
            "...............",
            "...............",
            "......O.O.OX...",
            "........O......",
            "...............",
            "....OX..XX.....",
            "...X...O..OX...",
            "......X........",
            "....X.....X....",
            "....O.....OX...",
        ],
    ),
    (
        5,
        &[
            "...............",
            "...............",
            "...............",
            "...........O...",
            ".......X.OX....",
            "....X.OX.......",
            "....OO.........",
            "........X..X...",
            "...X.O.X...O...",
            ".........O.....",
            "......O.XX.....",
            "...XO..O.......",
        ],
    ),
    (
        6,
        &[
            "...............",
            "...............",
            "...............",
            "...O.O.........",
            "........X......",
            ".....O...X.X...",
            "....X....X.....",
            "......O...O....",
            "...X.X.........",
            "....OOXX.O.....",
            "....XX..OXO....",
            "...O...........",
        ],
    ),
    (
        6,
        &[
            "...............",
            "...............",
            "...............",
            ".....OXX.OO....",
            "...OO...O..X...",
            "...X...........",
            "...O.X....O....",
            "....OXO.O......",
            "......O........",
            "...........O...",
            "....X..XX......",
            "...X..X.X.X....",
        ],
    ),
    (
        7,
        &[
            "...............",
            "...............",
            "...............",
            "...O.....O.....",
            ".....O...OOX...",
            "...O..X.X..X...",
            "...X...O..X....",
            "....X..........",
            ".....O.X.......",
            "....X..O..X....",
            ".....O.........",
            "....X.O..XOX...",
        ],
    ),
    (
        7,
        &[
            "...............",
            "...............",
            "...............",
            "......OX.......",
            "..........X....",
            "...............",
            ".......XO......",
            "...O.XX..XOX...",
            ".........OO....",
            "...X.XO..O.....",
            ".........O.O...",
            "....X......X...",
        ],
    ),
    (
        8,
        &[
            "...............",
            "...............",
            "...............",
            ".....OO..O.....",
            "......XX.......",
            "...............",
            "...X....X......",
            "...XO.O..XOX...",
            "....OX.X.O.....",
            ".....O..X..O...",
            ".....X.O..O....",
            ".....X..OX.....",
        ],
    ),
    (
        8,
        &[
            "...............",
            "...............",
            "...............",
            "...O...........",
            "...........X...",
            ".........OO....",
            "....O..O...X...",
            "......O.O.X....",
            ".....XX........",
            "...XXO..X......",
            ".......OX..X...",
            "........O.XO...",
        ],
    ),
];

/// The puzzle set, ordered by length.
pub fn vcf_puzzles() -> Vec<Puzzle> {
    PUZZLES
        .iter()
        .enumerate()
        .filter_map(|(i, &(fours, rows))| {
            Some(Puzzle {
                name: format!("vcf-{}-{}", fours, i + 1),
                board: Board::from_diagram(15, rows).ok()?,
                attacker: Stone::Black,
                fours,
            })
        })
        .collect()
}
