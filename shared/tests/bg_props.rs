//! Property tests: move generation against a plain brute-force generator,
//! Position ID, notation and board round trips.

use std::collections::HashSet;

use proptest::prelude::*;
use tabula_shared::backgammon::{Board, Dice, Play, Position, Side};

/// Small deterministic RNG (splitmix64) so cases are reproducible from a seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }
}

/// A position reached by random play from the start (both sides move).
fn random_game_position(rng: &mut Rng) -> Position {
    let mut pos = Position::START;
    let turns = rng.below(120);
    for _ in 0..turns {
        let dice = Dice {
            a: rng.die(),
            b: rng.die(),
        };
        let next = pos.legal_positions(dice);
        let pick = next[rng.below(next.len() as u64) as usize];
        if pick.game_result().is_some() {
            break;
        }
        pos = pick.switch_sides();
    }
    pos
}

/// A random layout: checkers scattered, biased to home boards and bars so
/// that bear-offs and bar entries are common.
fn random_layout(rng: &mut Rng) -> Position {
    let mut pips = [0i8; 26];
    let x_range = if rng.below(2) == 0 { 6 } else { 25 };
    let mut x_off = 0u8;
    for _ in 0..15 {
        if rng.below(8) == 0 {
            x_off += 1;
            continue;
        }
        let p = 1 + rng.below(x_range) as usize;
        pips[p] += 1;
    }
    let mut o_off = 0u8;
    for _ in 0..15 {
        if rng.below(8) == 0 {
            o_off += 1;
            continue;
        }
        // o's own home is our 19..=24; o's bar is 0.
        let p = if rng.below(2) == 0 {
            19 + rng.below(6) as usize
        } else {
            rng.below(25) as usize
        };
        if pips[p] > 0 {
            o_off += 1;
        } else {
            pips[p] -= 1;
        }
    }
    Position::from_pips(pips, x_off, o_off).expect("valid layout")
}

fn random_position(seed: u64) -> Position {
    let mut rng = Rng(seed);
    if rng.below(3) == 0 {
        random_layout(&mut rng)
    } else {
        random_game_position(&mut rng)
    }
}

/// Brute force, written plainly: try every order of the dice, every checker,
/// keep the plays that use the most dice (and the larger die if only one of
/// a mixed roll can be used).
fn brute_force(pos: &Position, dice: Dice, doubles_twice: bool) -> HashSet<Position> {
    type B = ([i8; 26], u8, u8);
    fn single(b: &B, die: i32) -> Vec<B> {
        let (pips, x_off, o_off) = *b;
        let mut out = Vec::new();
        for from in 1..=25i32 {
            if pips[from as usize] <= 0 {
                continue;
            }
            if pips[25] > 0 && from != 25 {
                continue;
            }
            let to = from - die;
            let mut n = pips;
            n[from as usize] -= 1;
            if to >= 1 {
                let t = to as usize;
                if n[t] < -1 {
                    continue;
                }
                if n[t] == -1 {
                    n[t] = 0;
                    n[0] -= 1;
                }
                n[t] += 1;
                out.push((n, x_off, o_off));
            } else {
                let all_home = (7..=25).all(|i| pips[i] <= 0);
                let higher = (from + 1..=25).any(|i| pips[i as usize] > 0);
                if all_home && (to == 0 || !higher) {
                    out.push((n, x_off + 1, o_off));
                }
            }
        }
        out
    }
    fn walk(b: &B, dice: &[i32], used: usize, first: i32, leaves: &mut Vec<(B, usize, i32)>) {
        let moves = if dice.is_empty() {
            Vec::new()
        } else {
            single(b, dice[0])
        };
        if moves.is_empty() {
            leaves.push((*b, used, first));
            return;
        }
        for m in moves {
            let f = if used == 0 { dice[0] } else { first };
            walk(&m, &dice[1..], used + 1, f, leaves);
        }
    }
    let start: B = (*pos.pips(), pos.x_off(), pos.o_off());
    let (a, b) = (i32::from(dice.a), i32::from(dice.b));
    let orders: Vec<Vec<i32>> = if a == b {
        vec![vec![a; if doubles_twice { 2 } else { 4 }]]
    } else {
        vec![vec![a, b], vec![b, a]]
    };
    let mut leaves = Vec::new();
    for order in &orders {
        walk(&start, order, 0, 0, &mut leaves);
    }
    let max = leaves.iter().map(|l| l.1).max().unwrap_or(0);
    let high = a.max(b);
    let high_single = a != b && max == 1 && leaves.iter().any(|l| l.1 == 1 && l.2 == high);
    leaves
        .into_iter()
        .filter(|l| l.1 == max && (!high_single || l.2 == high))
        .map(|(b, _, _)| Position::from_pips(b.0, b.1, b.2).expect("valid"))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn movegen_matches_brute_force(seed in any::<u64>(), a in 1u8..=6, b in 1u8..=6, twice in any::<bool>()) {
        let pos = random_position(seed);
        let dice = Dice { a, b };
        let mut ours = Vec::new();
        pos.legal_positions_into(dice, twice, &mut ours);
        if pos.game_result().is_some() {
            // A finished game (the random layout can push all 15 of a side off) has no plays.
            prop_assert!(ours.is_empty(), "{}", pos.position_id());
            return Ok(());
        }
        let set: HashSet<Position> = ours.iter().copied().collect();
        prop_assert_eq!(set.len(), ours.len(), "duplicates");
        prop_assert_eq!(&set, &brute_force(&pos, dice, twice), "{}", pos.position_id());
        // Plays: one per result, applying the play gives the result, and the
        // notation round-trips.
        let plays = pos.legal_plays_with(dice, twice);
        prop_assert_eq!(plays.len(), ours.len());
        for (play, result) in plays {
            prop_assert!(set.contains(&result));
            prop_assert_eq!(pos.apply(&play), Ok(result));
            let text = play.to_string();
            let parsed: Play = text.parse().expect("notation parses");
            prop_assert_eq!(pos.apply(&parsed), Ok(result), "{}", text);
            prop_assert_eq!(parsed.to_string(), text);
        }
    }

    #[test]
    fn ids_and_views_round_trip(seed in any::<u64>()) {
        let pos = random_position(seed);
        let id = pos.position_id();
        prop_assert_eq!(id.len(), 14);
        prop_assert_eq!(Position::from_position_id(&id), Ok(pos));
        prop_assert_eq!(pos.switch_sides().switch_sides(), pos);
        let (x, o) = pos.pip_count();
        prop_assert_eq!(pos.switch_sides().pip_count(), (o, x));
        for side in [Side::White, Side::Black] {
            let board = Board::from_position(&pos, side);
            prop_assert_eq!(board.to_position(side), Ok(pos));
        }
    }

    #[test]
    fn garbage_never_panics(s in "\\PC{0,30}", id in "[A-Za-z0-9+/=]{0,16}") {
        let _ = s.parse::<Play>();
        let _ = Position::from_position_id(&id);
        let _ = tabula_shared::backgammon::MatchId::decode(&id);
        if let Ok(p) = s.parse::<Play>() {
            let _ = Position::START.apply(&p);
        }
    }
}
