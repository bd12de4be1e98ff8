//! Arenas as lichess runs them: for a fixed time, a player is paired again
//! as soon as their game ends; a win is 2 points, a draw 1; after two wins
//! in a row a player is "on fire" and scores double until they fail to
//! win; a berserk win (half the clock) earns one point more.

use serde::{Deserialize, Serialize};

/// One finished arena game, from a player's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaGame {
    /// Half points: 2 a win, 1 a draw, 0 a loss.
    pub result: u32,
    pub berserk: bool,
}

/// A player's arena score after these games, oldest first.
pub fn points(games: &[ArenaGame]) -> u32 {
    let mut streak = 0;
    let mut total = 0;
    for g in games {
        let on_fire = streak >= 2;
        let mut p = g.result;
        if on_fire {
            p *= 2;
        }
        if g.result == 2 && g.berserk {
            p += 1;
        }
        total += p;
        streak = if g.result == 2 { streak + 1 } else { 0 };
    }
    total
}

/// Whether the next game scores double.
pub fn on_fire(games: &[ArenaGame]) -> bool {
    games.iter().rev().take_while(|g| g.result == 2).count() >= 2
}

/// A player waiting for a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    pub id: u32,
    pub points: u32,
    pub rating: i32,
    /// Whom they played last, not to be met again at once.
    pub last_opponent: Option<u32>,
}

/// Pairs waiting players near their own standing: by points, then rating,
/// neighbours meet, never two who have just played each other. A player
/// left over waits for the next pairing.
pub fn pair(waiting: &[Waiting]) -> Vec<(u32, u32)> {
    let mut order: Vec<&Waiting> = waiting.iter().collect();
    order.sort_by_key(|w| {
        (
            std::cmp::Reverse(w.points),
            std::cmp::Reverse(w.rating),
            w.id,
        )
    });
    let mut taken = vec![false; order.len()];
    let mut pairs = Vec::new();
    for i in 0..order.len() {
        if taken[i] {
            continue;
        }
        let rematch = |j: usize| {
            order[i].last_opponent == Some(order[j].id)
                || order[j].last_opponent == Some(order[i].id)
        };
        if let Some(j) = (i + 1..order.len()).find(|&j| !taken[j] && !rematch(j)) {
            taken[i] = true;
            taken[j] = true;
            pairs.push((order[i].id, order[j].id));
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(result: u32) -> ArenaGame {
        ArenaGame {
            result,
            berserk: false,
        }
    }

    #[test]
    fn two_wins_light_the_fire_and_a_draw_puts_it_out() {
        // win 2, win 2, win on fire 4, draw on fire 2, win 2 (fire out).
        assert_eq!(points(&[g(2), g(2), g(2), g(1), g(2)]), 12);
        assert!(on_fire(&[g(0), g(2), g(2)]));
        assert!(!on_fire(&[g(2), g(2), g(1)]));
        let berserk = ArenaGame {
            result: 2,
            berserk: true,
        };
        assert_eq!(points(&[berserk, g(0), berserk]), 6);
    }

    #[test]
    fn neighbours_meet_but_not_the_last_opponent_again() {
        let w = |id, points, last| Waiting {
            id,
            points,
            rating: 1500,
            last_opponent: last,
        };
        let pairs = pair(&[
            w(1, 10, Some(2)),
            w(2, 9, Some(1)),
            w(3, 8, None),
            w(4, 1, None),
        ]);
        assert_eq!(pairs, vec![(1, 3), (2, 4)]);
        // Two who just met wait rather than meet again at once.
        assert!(pair(&[w(1, 0, Some(2)), w(2, 0, Some(1))]).is_empty());
        assert_eq!(
            pair(&[w(1, 0, None), w(2, 0, None), w(3, 0, None)]).len(),
            1
        );
    }
}
