//! Tests of the main search: the horizon's shortcut, the static cutoff
//! and the check during the search.

use tabula_shared::gomoku::{Board, Rule};

use super::super::{Node, Searcher, Settings};
use super::*;
use crate::gomoku::pos::Pos;
use crate::rng::Rng;

/// Calls `visit` with the Expert's searcher and the side to move at
/// each position of 300 random games of 6 to 45 stones, played in
/// the centre and often next to one another so that lines, threes
/// and fours come up; a game ends at its first five to make.
fn random_positions(mut visit: impl FnMut(&mut Searcher, Color)) {
    let mut rng = Rng::new(11);
    for game in 0..300 {
        let mut s = Searcher::new(
            Pos::from_board(&Board::new(15).unwrap(), Rule::Freestyle),
            Settings::EXPERT,
            game,
        );
        let stones = 6 + rng.below(40) as usize;
        for n in 0..stones {
            let me = n % 2;
            let i = loop {
                let (x, y) = (3 + rng.below(9) as usize, 3 + rng.below(9) as usize);
                let i = (y + 5) * s.pos.w + x + 5;
                if s.pos.cells[i] == 0 {
                    break i;
                }
            };
            if s.pos.count[me][usize::from(FIVE)] > 0 {
                break;
            }
            s.pos.make(i, me);
            visit(&mut s, 1 - me);
        }
    }
}

/// The horizon's shortcut decides every node as the full move
/// generation would: the same wins, and no value where the node needs
/// its moves (a five to block, a threat to answer in the quiescence).
#[test]
fn the_horizon_shortcut_agrees_with_the_move_generation() {
    let mut kinds = [0u32; 5];
    random_positions(|s, to_move| {
        let shortcut = s.leaf_without_moves(to_move, 0, 0, WIN + 1);
        let deep = s.leaf_without_moves(to_move, -2, 0, WIN + 1);
        match s.generate(to_move) {
            Node::Win(_) => {
                kinds[0] += 1;
                assert_eq!(shortcut, Some(WIN));
            }
            Node::WinSoon(_) => {
                kinds[1] += 1;
                assert_eq!(shortcut, Some(WIN - 2));
            }
            Node::Lost | Node::Forced(_) => {
                kinds[2] += 1;
                assert_eq!(shortcut, None);
            }
            Node::Moves(_, true) => {
                kinds[3] += 1;
                assert_eq!(shortcut, None);
                assert_eq!(deep, Some(s.pos.eval(to_move, s.settings.eval)));
            }
            Node::Moves(_, false) => {
                kinds[4] += 1;
                assert_eq!(shortcut, Some(s.horizon_value(to_move, false, 0, WIN + 1)));
                // A static value at or above beta is returned as it
                // is, with no VCF searched.
                let value = s.pos.eval(to_move, s.settings.eval);
                let nodes = s.nodes;
                assert_eq!(s.horizon_value(to_move, false, 0, value), value);
                assert_eq!(s.nodes, nodes);
            }
        }
    });
    assert!(
        kinds.iter().all(|&k| k > 5),
        "every kind of node was seen: {kinds:?}"
    );
}

/// The static cutoff returns the static value exactly where it
/// reaches beta by the margin for each ply left, within three plies of
/// the horizon, in a null window; never where the side to move has a
/// five to make or a five or an open four to answer.
#[test]
fn the_static_cutoff_applies_only_where_nothing_is_to_answer() {
    let margin = Settings::EXPERT.static_cutoff_margin;
    assert!(margin > 0);
    let (mut cut, mut threatened) = (0, 0);
    random_positions(|s, me| {
        let value = s.pos.eval(me, s.settings.eval);
        let beta_at = |depth: i32| value - margin * depth;
        match s.generate(me) {
            // An open four to make may meet one to answer: either way.
            Node::WinSoon(_) => {}
            Node::Moves(_, false) => {
                for depth in 1..=STATIC_CUTOFF_DEPTH {
                    let beta = beta_at(depth);
                    assert_eq!(s.static_cutoff(me, depth, beta - 1, beta), Some(value));
                    assert_eq!(s.static_cutoff(me, depth, beta, beta + 1), None);
                    // Not in a wider (principal variation) window.
                    assert_eq!(s.static_cutoff(me, depth, beta - 2, beta), None);
                    cut += 1;
                }
                for depth in [0, STATIC_CUTOFF_DEPTH + 1] {
                    let beta = beta_at(depth) - 1000;
                    assert_eq!(s.static_cutoff(me, depth, beta - 1, beta), None);
                }
            }
            Node::Win(_) | Node::Lost | Node::Forced(_) | Node::Moves(_, true) => {
                let beta = -WIN_THRESHOLD + 1;
                assert_eq!(s.static_cutoff(me, 1, beta - 1, beta), None);
                threatened += 1;
            }
        }
    });
    assert!(
        cut > 100 && threatened > 100,
        "{cut} cut, {threatened} threatened"
    );
}

/// On the tactics suite's defences, and on the positions taken out of
/// it where every move loses, the check during the search takes out
/// root moves after which the opponent has a threat win, and the
/// search then chooses among the others.
#[test]
fn the_check_during_the_search_takes_out_losing_moves() {
    use crate::gomoku::pos::{color_of, stone_of};
    use crate::gomoku::tactics::{Task, lost_defences, tactics, threat_win};
    let budget = Budget {
        nodes: 400_000,
        time: None,
        memory: None,
    };
    let mut refuted = 0;
    let defences = tactics().into_iter().filter(|t| t.task == Task::Defend);
    for t in defences.chain(lost_defences()) {
        let mut s = Searcher::new(
            Pos::from_board(&t.board, Rule::Freestyle),
            Settings::EXPERT,
            1,
        );
        let me = color_of(t.to_move);
        let chosen = s.think(me, budget).best;
        let losing = s.checked.iter().filter(|v| v.1 == Verdict::Loses);
        for &(m, _) in losing {
            assert_ne!(Some(m), chosen, "{}: a refuted move was played", t.name);
            let mut after = t.board.clone();
            after.place(s.pos.point(m), stone_of(me)).unwrap();
            assert!(
                threat_win(&after, t.to_move.opponent(), Rule::Freestyle, 400_000),
                "{}: {:?} was refuted, yet the opponent has no threat win after it",
                t.name,
                s.pos.point(m)
            );
            refuted += 1;
        }
    }
    assert!(refuted > 0, "the check during the search refuted some move");
}
