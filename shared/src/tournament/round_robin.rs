//! Round robins by the FIDE Berger tables (Handbook C.05, Annex 1): with an
//! odd number of players the last number is a bye; a double round robin
//! plays the table again with colours reversed.

/// The games of `round` (from 1) for players numbered `1..=players`:
/// (first seat, second seat), board order; a player drawn against the
/// missing number of an odd field sits out (the bye is the other number).
pub fn berger_round(players: u32, round: u32) -> BergerRound {
    let n = players + players % 2;
    let cycle = n - 1;
    let in_cycle = (round - 1) % cycle;
    let reversed = (round - 1) / cycle % 2 == 1;
    let half = n / 2;
    let seq: Vec<u32> = (0..cycle)
        .map(|j| (in_cycle * half + j) % cycle + 1)
        .collect();
    let mut games = Vec::new();
    let mut bye = None;
    let mut push = |a: u32, b: u32| {
        let (a, b) = if reversed { (b, a) } else { (a, b) };
        if a > players {
            bye = Some(b);
        } else if b > players {
            bye = Some(a);
        } else {
            games.push((a, b));
        }
    };
    if in_cycle.is_multiple_of(2) {
        push(seq[0], n);
    } else {
        push(n, seq[0]);
    }
    for j in 1..half as usize {
        push(seq[j], seq[cycle as usize - j]);
    }
    BergerRound { games, bye }
}

/// One round of a Berger table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BergerRound {
    pub games: Vec<(u32, u32)>,
    pub bye: Option<u32>,
}

/// Rounds in a round robin of `players`, single or double.
pub fn rounds(players: u32, double: bool) -> u32 {
    let single = players + players % 2 - 1;
    if double { 2 * single } else { single }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_players_match_the_handbook_table() {
        // FIDE Handbook C.05 Annex 1, 5 or 6 players.
        let table = [
            vec![(1, 6), (2, 5), (3, 4)],
            vec![(6, 4), (5, 3), (1, 2)],
            vec![(2, 6), (3, 1), (4, 5)],
            vec![(6, 5), (1, 4), (2, 3)],
            vec![(3, 6), (4, 2), (5, 1)],
        ];
        for (r, games) in table.iter().enumerate() {
            assert_eq!(
                berger_round(6, r as u32 + 1).games,
                *games,
                "round {}",
                r + 1
            );
        }
    }

    #[test]
    fn four_players_match_the_handbook_table_and_five_give_byes() {
        let table = [
            vec![(1, 4), (2, 3)],
            vec![(4, 3), (1, 2)],
            vec![(2, 4), (3, 1)],
        ];
        for (r, games) in table.iter().enumerate() {
            assert_eq!(berger_round(4, r as u32 + 1).games, *games);
        }
        let byes: Vec<u32> = (1..=5).map(|r| berger_round(5, r).bye.unwrap()).collect();
        let mut sorted = byes.clone();
        sorted.sort();
        assert_eq!(
            sorted,
            vec![1, 2, 3, 4, 5],
            "each of five sits out once: {byes:?}"
        );
    }

    #[test]
    fn every_pair_meets_once_per_cycle_with_colours_reversed_in_the_second() {
        for players in 2..=12 {
            let total = rounds(players, true);
            let mut met = std::collections::HashMap::new();
            for r in 1..=total {
                let round = berger_round(players, r);
                let mut seen = std::collections::HashSet::new();
                for &(a, b) in &round.games {
                    assert!(
                        seen.insert(a) && seen.insert(b),
                        "{players}: twice in round {r}"
                    );
                    met.entry((a.min(b), a.max(b)))
                        .or_insert_with(Vec::new)
                        .push((a, r));
                }
                assert_eq!(seen.len() as u32 + u32::from(round.bye.is_some()), players);
            }
            assert_eq!(met.len() as u32, players * (players - 1) / 2);
            for (pair, games) in met {
                assert_eq!(games.len(), 2, "{players}: {pair:?}");
                assert_ne!(
                    games[0].0, games[1].0,
                    "{players}: {pair:?} same first seat twice"
                );
            }
        }
    }
}
