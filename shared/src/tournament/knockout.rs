//! Knockout brackets seeded by rating: the field is filled up to a power of
//! two with byes, which go to the top seeds, and seeds meet in the standard
//! order (1 against the lowest, and 1 and 2 only in the final).

/// The first round's slots for `players` seeds (1 is the strongest), in
/// bracket order: pairs of slots meet, `None` is a bye.
pub fn first_round(players: u32) -> Vec<(Option<u32>, Option<u32>)> {
    let size = players.max(2).next_power_of_two();
    let order = seed_order(size);
    order
        .chunks(2)
        .map(|pair| {
            let slot = |s: u32| (s <= players).then_some(s);
            (slot(pair[0]), slot(pair[1]))
        })
        .collect()
}

/// Seeds in bracket order for a bracket of `size` (a power of two): each
/// round's pair of seeds sums to one more than the number of players left.
pub fn seed_order(size: u32) -> Vec<u32> {
    let mut order = vec![1u32];
    while (order.len() as u32) < size {
        let next = order.len() as u32 * 2 + 1;
        order = order.iter().flat_map(|&s| [s, next - s]).collect();
    }
    order
}

/// Rounds a knockout of `players` needs.
pub fn rounds(players: u32) -> u32 {
    players.max(2).next_power_of_two().trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_seeds_meet_in_the_standard_order() {
        assert_eq!(seed_order(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
        assert_eq!(seed_order(4), vec![1, 4, 2, 3]);
    }

    #[test]
    fn six_players_give_the_top_two_seeds_byes() {
        assert_eq!(
            first_round(6),
            vec![
                (Some(1), None),
                (Some(4), Some(5)),
                (Some(2), None),
                (Some(3), Some(6))
            ]
        );
        assert_eq!(rounds(6), 3);
        assert_eq!(rounds(8), 3);
        assert_eq!(rounds(2), 1);
    }
}
