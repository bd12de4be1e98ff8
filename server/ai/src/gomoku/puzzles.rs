//! VCF puzzles for tests and benchmarks. Row `y = 0` comes first; black
//! is to move and wins by continuous fours. Each puzzle is listed with the
//! number of black moves of its *shortest* VCF (every one a four, the last
//! an open four or double four, after which the five cannot be stopped),
//! as proven by iterative deepening of the VCF solver
//! ([`super::vcf_min_fours`]).
//!
//! * 5 to 8 fours: random dense positions found by
//!   `gomoku-arena --find-vcf` (white without a VCF of its own).
//! * 10, 12 and 15 fours: chains built by `gomoku-arena --chain-vcf N
//!   --seed S` (the seed is listed). Each four goes through the stone of
//!   the previous four on a new line (with two prepared black stones), and
//!   the last black move makes an open four. Random chains always have
//!   shortcuts through the prepared stones, so the builder puts white
//!   stones (never on the chain's own cells) on the first moves and lines
//!   of every shorter VCF the solver finds until there is none, then adds
//!   white stones until the counts are equal.

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
const RANDOM: &[(usize, &[&str])] = &[
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

/// (shortest number of fours, `--chain-vcf` seed, diagram rows from
/// `y = 0`).
const CHAINS: &[(usize, u64, &[&str])] = &[
    (
        10,
        1,
        &[
            ".X.............",
            "...............",
            ".X.O...........",
            "..XX.O....X....",
            "...O.X...X...O.",
            "..X....O.......",
            ".O.X.XO...O....",
            "..O.....X......",
            "........O..O...",
            "....OXO........",
            "...OX.XO.......",
            ".O...X...X.....",
            "...X.O....X....",
            ".OX.XO....OX...",
            "............O..",
        ],
    ),
    (
        10,
        2,
        &[
            "...............",
            "......O.O......",
            "..O............",
            ".OX....O.......",
            "...X....OOO....",
            ".....OOXX.X....",
            "....X..X...O...",
            "....XX.OO..X...",
            "....O....X.....",
            "..XX....XOX..X.",
            ".OX.X.....X....",
            "..O.X..XO......",
            "......O........",
            "........O.O....",
        ],
    ),
    (
        12,
        3,
        &[
            "...............",
            "....OO.........",
            "....X..X.......",
            ".O..O.....X..X.",
            "...XX.OOOX..X..",
            ".X.OX........X.",
            "...X.....X..O..",
            ".XO.....O......",
            ".O...OX.XO...O.",
            "..XXO..XO......",
            ".......O.......",
            ".OX..OX......O.",
            "...O.X.X.......",
            "..O..XO.O......",
            "......X........",
        ],
    ),
    (
        12,
        6,
        &[
            ".XO........O...",
            "..X....O.......",
            "..X...OX.XOXX..",
            "...O.X...X.....",
            ".X.OO..X....X..",
            "XO.XXO.O......X",
            "..XO.OX........",
            "..OXOX.........",
            ".........O.....",
            "...O..XO.......",
            "..O..X.........",
            ".....XOX.......",
            "..O.OX.O..O....",
            ".....O.........",
        ],
    ),
    (
        15,
        5,
        &[
            "...X..X.X....X.",
            "......XO.O.....",
            "....OO.XXO.OXX.",
            "....OXO..X....X",
            "....XX.O...O..X",
            "..OOXX.X.OO.XOO",
            ".X.X..O.OX..OX.",
            "......O.XO.X..X",
            "...O.XX..O.....",
            "....OO.X.X.O...",
            ".......OOX.....",
            "...............",
            "...........O...",
            "..O..........O.",
        ],
    ),
    (
        15,
        7,
        &[
            ".........X.....",
            ".....O.X.X..O..",
            ".....OXOO..XXO.",
            ".O..O.XX..O..O.",
            "....OX..X......",
            "....O.O.XOX...X",
            ".....OO..OXOXX.",
            "..X...XXO......",
            "...X.....X.OOXX",
            ".........OX.X..",
            ".O.....X.OXO.O.",
            ".........OOX.O.",
            "............X..",
            ".......O..XX...",
            "..............O",
        ],
    ),
];

/// The puzzle set, ordered by length.
pub fn vcf_puzzles() -> Vec<Puzzle> {
    let random = RANDOM
        .iter()
        .enumerate()
        .map(|(i, &(fours, rows))| (format!("vcf-{}-{}", fours, i + 1), fours, rows));
    let chains = CHAINS
        .iter()
        .map(|&(fours, seed, rows)| (format!("chain-{fours}-seed{seed}"), fours, rows));
    random
        .chain(chains)
        .filter_map(|(name, fours, rows)| {
            Some(Puzzle {
                name,
                board: Board::from_diagram(15, rows).ok()?,
                attacker: Stone::Black,
                fours,
            })
        })
        .collect()
}
