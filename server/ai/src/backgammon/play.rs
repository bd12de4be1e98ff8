//! Playing whole cubeless money games between two move choosers, with
//! mirrored ("duplicate") dice: each dice stream is played twice with the
//! seats swapped, which removes most of the luck from comparisons. Used by
//! the trainers, the arena and the tests.

use tabula_shared::backgammon::{Dice, GameResultKind, Position};

use crate::rng::{Rng, mix_seed};

/// Something that picks one of the legal results of a roll.
pub trait Chooser {
    /// Index into `candidates` (the distinct legal results of `dice` from
    /// `before`, mover's perspective, never empty).
    fn choose(&mut self, before: &Position, dice: Dice, candidates: &[Position]) -> usize;
}

/// Points of a finished game: 1, 2 or 3.
pub fn kind_points(kind: GameResultKind) -> i32 {
    kind.points() as i32
}

/// Plays one cubeless money game from the start; seat 0 moves first. The
/// dice come from `dice_seed` (the t-th roll of the game is the same for any
/// players). Returns the points won by seat 0 (negative if seat 1 won).
pub fn play_game(players: &mut [&mut dyn Chooser; 2], dice_seed: u64) -> i32 {
    let mut rng = Rng::new(dice_seed);
    let mut pos = Position::START;
    let mut seat = 0usize;
    let mut cands = Vec::with_capacity(64);
    for ply in 0..10_000 {
        let dice = if ply == 0 {
            rng.opening_dice()
        } else {
            rng.dice()
        };
        pos.legal_positions_into(dice, false, &mut cands);
        let next = match cands.len() {
            0 => pos,
            1 => cands[0],
            _ => {
                let i = players[seat].choose(&pos, dice, &cands);
                cands[i.min(cands.len() - 1)]
            }
        };
        if let Some(r) = next.game_result() {
            let pts = kind_points(r.kind);
            let mover_pts = if r.mover_wins { pts } else { -pts };
            return if seat == 0 { mover_pts } else { -mover_pts };
        }
        pos = next.switch_sides();
        seat ^= 1;
    }
    0
}

/// Result of a duplicate match.
#[derive(Debug, Clone, Copy)]
pub struct MatchStats {
    /// Games played (twice the number of dice streams).
    pub games: u64,
    /// Points per game won by the first player.
    pub ppg: f64,
    /// Half-width of the 95% confidence interval of `ppg` (pairs as units).
    pub ci95: f64,
    /// Fraction of games won by the first player.
    pub win_rate: f64,
}

/// Plays `pairs` dice streams twice each (seats swapped) between `a` and
/// `b`; reports from `a`'s side.
pub fn duplicate_match(
    a: &mut dyn Chooser,
    b: &mut dyn Chooser,
    pairs: u64,
    seed: u64,
) -> MatchStats {
    let mut sum = 0f64;
    let mut sum2 = 0f64;
    let mut wins = 0u64;
    for i in 0..pairs {
        let s = mix_seed(seed, i);
        let g1 = play_game(&mut [&mut *a, &mut *b], s);
        let g2 = -play_game(&mut [&mut *b, &mut *a], s);
        wins += u64::from(g1 > 0) + u64::from(g2 > 0);
        let pair = f64::from(g1 + g2) / 2.0;
        sum += pair;
        sum2 += pair * pair;
    }
    let n = pairs.max(1) as f64;
    let mean = sum / n;
    let var = if pairs > 1 {
        (sum2 - sum * sum / n) / (n - 1.0)
    } else {
        0.0
    };
    MatchStats {
        games: 2 * pairs,
        ppg: mean,
        ci95: 1.96 * (var / n).sqrt(),
        win_rate: wins as f64 / (2.0 * n),
    }
}

/// pubeval as a [`Chooser`].
#[derive(Debug, Default, Clone, Copy)]
pub struct Pubeval;

impl Chooser for Pubeval {
    fn choose(&mut self, before: &Position, _dice: Dice, candidates: &[Position]) -> usize {
        super::pubeval::best(before, candidates).unwrap_or(0)
    }
}
