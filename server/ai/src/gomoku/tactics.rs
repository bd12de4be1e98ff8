//! The tactics suite: positions taken from arena games where the side to
//! move must find a threat win (a VCT that is not a VCF) or the one or two
//! moves that stop the opponent's. `gomoku-arena --harvest` finds them in
//! games between the Expert and the first Expert; `gomoku-arena --tactics`
//! times the solvers and the Expert on each and checks its move with
//! [`solves`].
//!
//! Checking a move: for a win, after it every reply near the stones must
//! leave the mover a VCF or VCT; for a defence, after it the opponent must
//! have neither. The VCT solver's defences are a superset of the real
//! ones, so a check is very likely right rather than proven.
//!
//! 39 positions of the 42 harvested remain. Three defences had no
//! solution: in defend-10 and defend-41 every move loses to a VCT that the
//! checks' 200,000 nodes did not reach when they were harvested (a larger
//! search finds it), and in defend-1 to one that begins with a three which
//! also blocks the defender's open three, which the VCT did not try then.
//! They are kept apart ([`lost_defences`]) for tests that need a move to
//! lose.

use tabula_shared::gomoku::{Board, Point, Rule, Stone};

use super::{find_vcf, find_vct};

mod defences;
mod wins;

use defences::{DEFENCES, LOST};
use wins::WINS;

/// What the side to move must do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// Win by continuous threats (there is no VCF).
    Win,
    /// Stop the opponent's threat win (it has a VCF or VCT if we pass).
    Defend,
}

/// One position of the suite.
#[derive(Debug, Clone)]
pub struct Tactic {
    /// Short description (task, then where it came from).
    pub name: String,
    /// The position.
    pub board: Board,
    /// The side to move.
    pub to_move: Stone,
    /// What it must do.
    pub task: Task,
}

/// Nodes for each threat search of a check.
const CHECK_NODES: u64 = 200_000;
/// Threats deep for the VCT searches of a check.
const CHECK_DEPTH: i32 = 8;

/// Does `attacker` (to move) win by threats: a five, a VCF or a VCT
/// (each search within `nodes`)?
pub fn threat_win(board: &Board, attacker: Stone, rule: Rule, nodes: u64) -> bool {
    find_vcf(board, attacker, rule, nodes).is_some()
        || find_vct(board, attacker, rule, CHECK_DEPTH, nodes).is_some()
}

/// The empty points within two of a stone: the replies a check tries.
pub use super::harvest::near_points;

/// Is `mv` a solution of `t` (see the module docs)?
pub fn solves(t: &Tactic, mv: Point, rule: Rule) -> bool {
    solves_within(t, mv, rule, CHECK_NODES)
}

/// [`solves`] with `nodes` for each threat search.
pub fn solves_within(t: &Tactic, mv: Point, rule: Rule, nodes: u64) -> bool {
    let mut board = t.board.clone();
    if board.place(mv, t.to_move).is_err() {
        return false;
    }
    if tabula_shared::gomoku::five_at(&board, mv, t.to_move, rule).is_some() {
        return t.task == Task::Win;
    }
    let opponent = t.to_move.opponent();
    match t.task {
        Task::Defend => !threat_win(&board, opponent, rule, nodes),
        Task::Win => {
            if find_vcf(&board, opponent, rule, nodes).is_some() {
                return false;
            }
            near_points(&board).into_iter().all(|r| {
                let mut after = board.clone();
                if after.place(r, opponent).is_err() {
                    return true;
                }
                if tabula_shared::gomoku::five_at(&after, r, opponent, rule).is_some() {
                    return false;
                }
                threat_win(&after, t.to_move, rule, nodes)
            })
        }
    }
}

/// (number, task, side to move, game it came from, diagram rows from
/// `y = 0`). The numbers are the positions' names; they stay as they were
/// when positions are taken out.
type Entry = (usize, Task, Stone, &'static str, &'static [&'static str]);

/// The suite, in the order it was listed in (by number): the wins
/// (`tactics/wins.rs`) and the defences (`tactics/defences.rs`) merged.
pub fn tactics() -> Vec<Tactic> {
    let mut suite = [WINS, DEFENCES].concat();
    suite.sort_by_key(|&(number, ..)| number);
    read(&suite)
}

/// The three positions taken out of the suite because every move loses
/// (named `defend-N` as they were).
pub fn lost_defences() -> Vec<Tactic> {
    read(LOST)
}

fn read(entries: &[Entry]) -> Vec<Tactic> {
    entries
        .iter()
        .filter_map(|&(number, task, to_move, from, rows)| {
            let kind = match task {
                Task::Win => "vct",
                Task::Defend => "defend",
            };
            Some(Tactic {
                name: format!("{kind}-{number} ({from})"),
                board: Board::from_diagram(15, rows).ok()?,
                to_move,
                task,
            })
        })
        .collect()
}
