//! The Expert's searcher kept between moves ([`with_kept_searcher`]).
//!
//! A clocked Expert search leaves its hash tables full of what it learned
//! about the positions that follow its move: the opponent's likely reply
//! and our answers to it. Keeping the searcher, and so its tables, for the
//! next move lets that search start from those results instead of from
//! nothing (what the Gomocup engines call a transposition table that
//! survives between moves). The table's keys are Zobrist hashes of the
//! stones (and the side to move), the same for every position built on a
//! board of that size, so an entry from another game is never wrong, only
//! useless.
//!
//! One searcher is kept per process. A search that finds it in use (the
//! server thinking for two rooms at once) builds its own, as before.
//! Node-limited searches never use it: they must give the same move for
//! the same seed, whatever was searched before.

use std::sync::Mutex;

use super::{Searcher, Settings};
use crate::gomoku::pos::Pos;

/// The searcher kept from the last clocked Expert search.
static KEPT: Mutex<Option<Searcher>> = Mutex::new(None);

/// Runs `search` on a searcher over `pos`: the kept one when it is free and
/// was built for the same board size, rule and settings (its tables carried
/// over), otherwise a new one. The searcher is kept afterwards for the next move.
pub(crate) fn with_kept_searcher<R>(
    pos: Pos,
    settings: Settings,
    seed: u64,
    search: impl FnOnce(&mut Searcher) -> R,
) -> R {
    let Ok(mut kept) = KEPT.try_lock() else {
        let mut fresh = Searcher::new(pos, settings, seed);
        return search(&mut fresh);
    };
    let searcher = match kept.take() {
        Some(mut s) if s.fits(&pos, &settings) => {
            s.renew(pos, seed);
            s
        }
        _ => Searcher::new(pos, settings, seed),
    };
    let searcher = kept.insert(searcher);
    search(searcher)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tabula_shared::gomoku::{Board, Point, Rule, Stone};

    use super::super::table::EXACT;
    use super::super::{Budget, Searcher, Settings};
    use crate::gomoku::pos::Pos;
    use crate::gomoku::{Limits, expert_search};

    fn board(size: u8, stones: &[(&str, Stone)]) -> Board {
        let mut b = Board::new(size).unwrap();
        for &(p, s) in stones {
            b.place(Point::parse_on(p, size).unwrap(), s).unwrap();
        }
        b
    }

    fn opening() -> Board {
        board(
            15,
            &[
                ("h8", Stone::Black),
                ("i9", Stone::White),
                ("h9", Stone::Black),
                ("h10", Stone::White),
            ],
        )
    }

    /// The next move's search starts with the last one's results: after a
    /// clocked search, a renewed searcher still holds the table entries of
    /// the positions it searched.
    #[test]
    fn a_renewed_searcher_keeps_its_tables() {
        let b = opening();
        let mut s = Searcher::new(Pos::from_board(&b, Rule::Freestyle), Settings::EXPERT, 1);
        let budget = Budget {
            nodes: 200_000,
            time: None,
            memory: None,
        };
        let t = s.think(0, budget);
        let best = t.best.unwrap();
        let filled = s.tt.iter().filter(|e| e.flag != 0).count();
        assert!(filled > 1000, "{filled} entries");

        let mut next = b.clone();
        next.place(s.pos.point(best), Stone::Black).unwrap();
        s.renew(Pos::from_board(&next, Rule::Freestyle), 2);
        assert_eq!(s.nodes, 0);
        assert_eq!(s.tt.iter().filter(|e| e.flag != 0).count(), filled);
        // The position after the chosen move, white to move, was searched.
        let key = s.pos.hash ^ s.side_key[1];
        let e = s.tt_probe(key).expect("the chosen move's position is kept");
        assert!(e.flag == EXACT || e.depth >= 1, "{:?}", (e.flag, e.depth));
    }

    /// A node-limited search gives the same move and visits the same nodes
    /// whatever clocked searches ran before it, on whatever board.
    #[test]
    fn node_limited_searches_ignore_the_kept_searcher() {
        let b = opening();
        let first = expert_search(&b, Stone::Black, Rule::Freestyle, Limits::nodes(5_000), 7);
        for (other, rule) in [
            (opening(), Rule::Freestyle),
            (board(19, &[("j10", Stone::Black)]), Rule::Renju),
        ] {
            let clocked = expert_search(
                &other,
                Stone::White,
                rule,
                Limits::time(Duration::from_millis(30)),
                3,
            );
            assert!(other.is_empty_at(clocked.best.unwrap()));
            let again = expert_search(&b, Stone::Black, Rule::Freestyle, Limits::nodes(5_000), 7);
            assert_eq!(again, first);
        }
    }

    /// The kept searcher follows the board: a clocked search on another
    /// size or rule plays a legal point on that board.
    #[test]
    fn the_kept_searcher_follows_the_board_size_and_rule() {
        for (b, rule) in [
            (opening(), Rule::Freestyle),
            (board(19, &[("j10", Stone::Black)]), Rule::Renju),
            (opening(), Rule::Standard),
            (opening(), Rule::Freestyle),
        ] {
            let r = expert_search(
                &b,
                Stone::Black,
                rule,
                Limits::time(Duration::from_millis(30)),
                5,
            );
            let p = r.best.unwrap();
            assert!(p.x < b.size() && p.y < b.size(), "{p:?}");
            assert!(b.is_empty_at(p), "{p:?} on {rule:?}");
        }
    }
}
