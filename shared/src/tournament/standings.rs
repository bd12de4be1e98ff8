//! Standings of a Swiss or round robin: score, then the tie-breaks
//! Buchholz (the sum of the opponents' scores) and Sonneborn-Berger (the
//! scores of the opponents beaten, and half of those drawn with), then the
//! pairing number.
//!
//! A bye scores a win and adds nothing to either tie-break; an opponent's
//! score counts as it stands at the end (FIDE Handbook C.07, without the
//! virtual opponent for unplayed rounds).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

/// A finished game of the event (or a game scored without play).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    pub first: u32,
    pub second: u32,
    /// The first seat's half points: 2, 1 or 0.
    pub first_score: u32,
    /// The second seat's: 2 less the first's, or 0 when neither came.
    pub second_score: u32,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub id: u32,
    /// Half points.
    pub score: u32,
    /// Half points.
    pub buchholz: u32,
    /// Quarter points (a half-point score times a half-point result).
    pub sonneborn_berger: u32,
    pub games: u32,
}

/// Standings of `entrants` (id, pairing number) from the games and byes so
/// far, best first.
pub fn standings(entrants: &[(u32, u32)], games: &[Played], byes: &[u32]) -> Vec<Standing> {
    let mut score: HashMap<u32, u32> = entrants.iter().map(|&(id, _)| (id, 0)).collect();
    for g in games {
        *score.entry(g.first).or_default() += g.first_score;
        *score.entry(g.second).or_default() += g.second_score;
    }
    for b in byes {
        *score.entry(*b).or_default() += 2;
    }
    let mut rows: Vec<(Standing, u32)> = entrants
        .iter()
        .map(|&(id, rank)| {
            let mut row = Standing {
                id,
                score: score[&id],
                buchholz: 0,
                sonneborn_berger: 0,
                games: 0,
            };
            for g in games {
                let (opponent, result) = if g.first == id {
                    (g.second, g.first_score)
                } else if g.second == id {
                    (g.first, g.second_score)
                } else {
                    continue;
                };
                let theirs = score.get(&opponent).copied().unwrap_or(0);
                row.games += 1;
                row.buchholz += theirs;
                row.sonneborn_berger += result * theirs;
            }
            (row, rank)
        })
        .collect();
    rows.sort_by_key(|(s, rank)| {
        (
            std::cmp::Reverse(s.score),
            std::cmp::Reverse(s.buchholz),
            std::cmp::Reverse(s.sonneborn_berger),
            *rank,
        )
    });
    rows.into_iter().map(|(s, _)| s).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tie_breaks_by_hand() {
        // 1 beat 2, 3 drew 4; then 1 drew 3, 2 beat 4.
        let games = [
            Played {
                first: 1,
                second: 2,
                first_score: 2,
                second_score: 0,
            },
            Played {
                first: 3,
                second: 4,
                first_score: 1,
                second_score: 1,
            },
            Played {
                first: 1,
                second: 3,
                first_score: 1,
                second_score: 1,
            },
            Played {
                first: 2,
                second: 4,
                first_score: 2,
                second_score: 0,
            },
        ];
        let s = standings(&[(1, 1), (2, 2), (3, 3), (4, 4)], &games, &[]);
        // Scores (half points): 1: 3, 2: 2, 3: 2, 4: 1.
        // Buchholz: 1: 2+2 = 4, 2: 3+1 = 4, 3: 1+3 = 4, 4: 2+2 = 4.
        // SB (quarters): 1: 2*2 + 1*2 = 6; 2: 0*3 + 2*1 = 2; 3: 1*1 + 1*3 = 4; 4: 1*2 + 0 = 2.
        let ids: Vec<u32> = s.iter().map(|r| r.id).collect();
        assert_eq!(ids, vec![1, 3, 2, 4]);
        assert_eq!(s[0].sonneborn_berger, 6);
        assert_eq!(s[1].sonneborn_berger, 4);
        assert!(s.iter().all(|r| r.buchholz == 4));
    }

    #[test]
    fn a_bye_scores_a_win_without_tie_break() {
        let games = [Played {
            first: 1,
            second: 2,
            first_score: 0,
            second_score: 2,
        }];
        let s = standings(&[(1, 1), (2, 2), (3, 3)], &games, &[3]);
        assert_eq!((s[0].id, s[0].score, s[0].buchholz), (2, 2, 0));
        assert_eq!(
            (s[1].id, s[1].score, s[1].buchholz, s[1].games),
            (3, 2, 0, 0)
        );
    }
}
