//! Beginner: the seed's scoring table, done right.
//!
//! For every empty point `p` and each colour, and for each of the four
//! directions, walk outwards from `p` both ways:
//! * every consecutive stone of the colour scores **+10**;
//! * where a run ends, the cell after it adds **+1** if empty and **−2** if
//!   it holds an opposing stone. **The board edge counts as an opposing
//!   stone (−2)**: both block the line the same way.
//!
//! The four direction scores are sorted from highest to lowest (a real
//! sort, unlike the seed's) and combined as `d0·1000 + d1·100 + d2·10 + d3`
//! (all four diagonals walked with the same code, so no off-by-one on one of
//! them). A point that completes a winning five (per the rule) for the
//! colour scores [`WIN`].
//!
//! We score every point for both colours. If the opponent's best point
//! beats our best, we play there to block; otherwise we play our best point
//! to attack. Ties between equal points are broken by the seed. Under
//! renju, black never considers its forbidden points, and black's forbidden
//! points are no threat when black is the opponent.

use tabula_shared::gomoku::{Board, DIRECTIONS, Point, Rule, Stone, five_at, renju};

use crate::rng::Rng;

/// Score of a point that completes five.
pub const WIN: i64 = 1_000_000_000;

/// The score of one direction for `stone` at the empty point `p`.
fn direction_score(board: &Board, p: Point, stone: Stone, (dx, dy): (i8, i8)) -> i64 {
    let mut score = 0;
    for sign in [1i32, -1] {
        let (mut x, mut y) = (i32::from(p.x), i32::from(p.y));
        loop {
            x += sign * i32::from(dx);
            y += sign * i32::from(dy);
            let on = x >= 0 && y >= 0 && x < i32::from(board.size()) && y < i32::from(board.size());
            let cell = if on {
                board.get(Point::new(x as u8, y as u8))
            } else {
                None
            };
            match (on, cell) {
                (true, Some(s)) if s == stone => score += 10,
                (true, None) => {
                    score += 1;
                    break;
                }
                // An opposing stone or the board edge.
                _ => {
                    score -= 2;
                    break;
                }
            }
        }
    }
    score
}

/// The scoring-table value of the empty point `p` for `stone`.
pub fn point_score(board: &mut Board, p: Point, stone: Stone, rule: Rule) -> i64 {
    if board.place(p, stone).is_err() {
        return i64::MIN;
    }
    let five = five_at(board, p, stone, rule).is_some();
    board.remove(p);
    if five {
        return WIN;
    }
    let mut d = DIRECTIONS.map(|dir| direction_score(board, p, stone, dir));
    d.sort_unstable_by(|a, b| b.cmp(a));
    d[0] * 1000 + d[1] * 100 + d[2] * 10 + d[3]
}

/// Best points for `stone`: (score, points with that score).
fn best_points(board: &mut Board, stone: Stone, rule: Rule) -> (i64, Vec<Point>) {
    let mut best = i64::MIN;
    let mut points = Vec::new();
    let all: Vec<Point> = board.points().filter(|&p| board.is_empty_at(p)).collect();
    for p in all {
        if rule == Rule::Renju && stone == Stone::Black && renju::is_forbidden(board, p) {
            continue;
        }
        let s = point_score(board, p, stone, rule);
        if s > best {
            best = s;
            points.clear();
        }
        if s == best {
            points.push(p);
        }
    }
    (best, points)
}

/// The Beginner's move for `me` on `board`; `None` only when no legal point
/// is left.
pub fn choose(board: &Board, me: Stone, rule: Rule, seed: u64) -> Option<Point> {
    let mut b = board.clone();
    if b.stone_count() == 0 {
        let c = b.size() / 2;
        return Some(Point::new(c, c));
    }
    let mut rng = super::seeded_rng(seed);
    let (mine, my_points) = best_points(&mut b, me, rule);
    let (theirs, their_points) = best_points(&mut b, me.opponent(), rule);
    let pick = |rng: &mut Rng, v: &[Point]| v.get(rng.below_rem(v.len() as u64) as usize).copied();
    let legal_for_me = |b: &Board, p: Point| {
        !(rule == Rule::Renju && me == Stone::Black && renju::is_forbidden(b, p))
    };
    if mine == WIN {
        return pick(&mut rng, &my_points);
    }
    if theirs > mine {
        let blocks: Vec<Point> = their_points
            .into_iter()
            .filter(|&p| legal_for_me(&b, p))
            .collect();
        if !blocks.is_empty() {
            return pick(&mut rng, &blocks);
        }
    }
    pick(&mut rng, &my_points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_edges() {
        let b = Board::from_diagram(15, &["..........", ".XX.......", ".........."]).unwrap();
        let mut bb = b.clone();
        // (3,1) extends XX to the right: horizontal 2*10 + empty(+1) at
        // both ends.
        let s = point_score(&mut bb, Point::new(3, 1), Stone::Black, Rule::Freestyle);
        assert_eq!(s / 1000, 22);
        // Corner point: every direction meets the edge on one side.
        let s = direction_score(&b, Point::new(0, 0), Stone::Black, (1, 0));
        assert_eq!(s, -2 + 1);
    }
}
