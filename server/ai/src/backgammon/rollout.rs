//! Rollouts: a position played out many times by the Expert at 0-ply, as
//! GNU Backgammon rolls out (cubeless, truncated where the bear-off
//! database knows the race).
//!
//! - **Candidates.** With a roll to play, the best [`SHOWN`](super::study::SHOWN) plays at 1-ply
//!   (the board's depth-1 list), each rolled out from the position after
//!   it with the other side to roll; before the roll, the position itself,
//!   and the cube decision worked out from its rolled-out chances.
//! - **The same dice for every candidate** (common random numbers): trial
//!   `t` of each candidate is played with one sequence of rolls, so the
//!   difference between two plays is far surer than either figure.
//! - **Quasi-random first rolls**: the first roll of trial `t` is
//!   `t mod 36` through a shuffled order of the 36 rolls and the second
//!   is shifted by `t / 36`, so every 36 trials deal each first roll once
//!   and every 1,296 each pair of first rolls once (gnubg's stratified
//!   dice); later rolls come from trial `t`'s own seeded stream.
//! - **Truncation**: once both sides have every checker home, a trial ends
//!   with the bear-off database's exact race odds (and the network's
//!   gammon chances) instead of dice.
//! - **Intervals**: each line's cubeless equity carries 1.96 standard
//!   errors of the trials' outcomes.
//!
//! Reproducible: the same position and seed give the same figures, and a
//! rollout played in chunks equals one played at once.

use tabula_shared::backgammon::{BgMatch, Dice, GamePhase, Play, Position, Side};
use tabula_shared::protocol::{BgRollout, BgRolloutLine, RolloutState};

use super::bearoff::{self, BearoffDb};
use super::expert::Expert;
use super::nn::{self, Probs};
use super::study::{chances, cube_line, cubeful_after_play, ranked_plays};
use crate::rng::{Rng, mix_seed};

/// Rolls stratified over the trials (the first two).
const QUASI_RANDOM_ROLLS: usize = 2;
/// 1.96: the 95% two-sided normal quantile.
const Z95: f64 = 1.96;

/// A rollout in progress for one position.
pub struct Rollout {
    m: BgMatch,
    /// The side the figures are for.
    side: Side,
    /// The plays rolled out; empty for the position before the roll.
    plays: Vec<Play>,
    /// Where each candidate's trials start, the side on roll there, and
    /// whether the figures are that side's opponent's.
    starts: Vec<Start>,
    stats: Vec<Tally>,
    seed: u64,
    /// Two shuffled orders of the 36 rolls.
    orders: [[u8; 36]; QUASI_RANDOM_ROLLS],
    trials_done: u32,
}

#[derive(Clone, Copy)]
enum Start {
    /// The game is over after the play: its exact value for the mover.
    Over(Probs),
    /// Trials start with `pos`'s side on roll; `flip` when the figures are
    /// for its opponent.
    Play { pos: Position, flip: bool },
}

/// Sums over a candidate's trials.
#[derive(Clone, Copy, Default)]
struct Tally {
    n: u32,
    probs: [f64; 5],
    equity: f64,
    equity_sq: f64,
}

impl Tally {
    fn add(&mut self, p: &Probs) {
        let e = f64::from(nn::equity(p));
        self.n += 1;
        for (s, v) in self.probs.iter_mut().zip(p) {
            *s += f64::from(*v);
        }
        self.equity += e;
        self.equity_sq += e * e;
    }

    fn mean(&self) -> Probs {
        let n = f64::from(self.n.max(1));
        self.probs.map(|s| (s / n) as f32)
    }

    fn mean_equity(&self) -> f64 {
        self.equity / f64::from(self.n.max(1))
    }

    /// 1.96 standard errors of the mean equity.
    fn ci(&self) -> f32 {
        if self.n < 2 {
            return 0.0;
        }
        let n = f64::from(self.n);
        let mean = self.equity / n;
        let var = ((self.equity_sq / n - mean * mean) * n / (n - 1.0)).max(0.0);
        (Z95 * (var / n).sqrt()) as f32
    }
}

impl Rollout {
    /// A rollout of the decision in `m` seeded with `seed`; `None` when
    /// nobody is to decide, or the Expert's weights fail their check.
    pub fn new(m: &BgMatch, seed: u64) -> Option<Rollout> {
        let net = super::expert_network().ok()?;
        let judge = Expert::new(net);
        let (side, plays, starts) = match *m.phase() {
            GamePhase::Moving { side, dice } => {
                let candidates = candidates(m, &judge, side, dice);
                let starts = candidates
                    .iter()
                    .map(|(_, after)| match nn::terminal(after) {
                        Some(t) => Start::Over(t),
                        None => Start::Play {
                            pos: after.switch_sides(),
                            flip: true,
                        },
                    })
                    .collect();
                (
                    side,
                    candidates.into_iter().map(|(p, _)| p).collect(),
                    starts,
                )
            }
            GamePhase::AwaitingRoll { side } => (side, Vec::new(), vec![before_roll(m, side)]),
            GamePhase::CubeOffered { by } => (by.opponent(), Vec::new(), vec![before_roll(m, by)]),
            _ => return None,
        };
        let mut rng = Rng::new(seed);
        let orders = std::array::from_fn(|_| shuffled_rolls(&mut rng));
        Some(Rollout {
            m: m.clone(),
            side,
            stats: vec![Tally::default(); starts.len()],
            plays,
            starts,
            seed,
            orders,
            trials_done: 0,
        })
    }

    /// Trials played so far.
    pub fn trials_done(&self) -> u32 {
        self.trials_done
    }

    /// Plays the next `trials` trials of every candidate.
    pub fn run(&mut self, trials: u32) {
        let Ok(net) = super::expert_network() else {
            return;
        };
        let judge = Expert::new(net);
        let mut buf = Vec::with_capacity(64);
        for _ in 0..trials {
            let t = self.trials_done;
            for (start, tally) in self.starts.iter().zip(&mut self.stats) {
                let p = match *start {
                    Start::Over(p) => p,
                    Start::Play { pos, flip } => {
                        let mut dice = TrialDice::new(self.seed, t, &self.orders);
                        let p = play_out(&judge, pos, &mut dice, &mut buf);
                        if flip { nn::flip(&p) } else { p }
                    }
                };
                tally.add(&p);
            }
            self.trials_done += 1;
        }
    }

    /// The report now, for `trials` asked for, in `state`.
    pub fn report(&self, trials: u32, state: RolloutState) -> BgRollout {
        let mut lines: Vec<BgRolloutLine> = self
            .stats
            .iter()
            .enumerate()
            .map(|(i, tally)| {
                let p = nn::sanitize(&tally.mean());
                let play = self.plays.get(i).cloned();
                let equity = match &play {
                    Some(_) => cubeful_after_play(&self.m, self.side, &p),
                    None => tally.mean_equity() as f32,
                };
                BgRolloutLine {
                    notation: play.as_ref().map(ToString::to_string).unwrap_or_default(),
                    play,
                    chances: chances(&p),
                    cubeless: tally.mean_equity() as f32,
                    cubeless_ci: tally.ci(),
                    equity,
                }
            })
            .collect();
        lines.sort_by(|a, b| b.equity.total_cmp(&a.equity));
        let cube = match *self.m.phase() {
            GamePhase::AwaitingRoll { side } if self.m.can_double(side) => {
                cube_line(&self.m, side, &nn::sanitize(&self.stats[0].mean()))
            }
            GamePhase::CubeOffered { by } => {
                cube_line(&self.m, by, &nn::sanitize(&self.stats[0].mean()))
            }
            _ => None,
        };
        // A double offered: the figures are the doubler's, turned round for
        // the side to answer.
        if let (GamePhase::CubeOffered { .. }, Some(line)) = (*self.m.phase(), lines.first_mut()) {
            let p = nn::flip(&nn::sanitize(&self.stats[0].mean()));
            line.chances = chances(&p);
            line.cubeless = -line.cubeless;
            line.equity = -line.equity;
        }
        BgRollout {
            engine: "Tabula Backgammon Expert, 0-ply trials".into(),
            side: self.side,
            trials_done: self.trials_done,
            trials,
            state,
            lines,
            cube,
        }
    }
}

/// The position before `side`'s roll, played out with it on roll.
fn before_roll(m: &BgMatch, side: Side) -> Start {
    Start::Play {
        pos: m.position_for(side),
        flip: false,
    }
}

/// The plays of `dice` worth rolling out: the board's depth-1 list.
fn candidates(m: &BgMatch, judge: &Expert, side: Side, dice: Dice) -> Vec<(Play, Position)> {
    let plays = m
        .position_for(side)
        .legal_plays_with(dice, m.config().doubles_twice);
    ranked_plays(m, judge, side, dice, 1)
        .into_iter()
        .filter_map(|line| plays.iter().find(|(p, _)| *p == line.play).cloned())
        .collect()
}

/// The 36 rolls (as `6 × (a − 1) + (b − 1)`) in a shuffled order.
fn shuffled_rolls(rng: &mut Rng) -> [u8; 36] {
    let mut order: [u8; 36] = std::array::from_fn(|i| i as u8);
    for i in (1..36).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        order.swap(i, j);
    }
    order
}

fn roll_of(index: u8) -> Dice {
    Dice {
        a: index / 6 + 1,
        b: index % 6 + 1,
    }
}

/// The rolls of one trial: stratified first rolls, then its own stream.
struct TrialDice<'a> {
    trial: u32,
    orders: &'a [[u8; 36]; QUASI_RANDOM_ROLLS],
    rolled: usize,
    rng: Rng,
}

impl<'a> TrialDice<'a> {
    fn new(seed: u64, trial: u32, orders: &'a [[u8; 36]; QUASI_RANDOM_ROLLS]) -> TrialDice<'a> {
        TrialDice {
            trial,
            orders,
            rolled: 0,
            rng: Rng::new(mix_seed(seed, u64::from(trial))),
        }
    }

    fn next(&mut self) -> Dice {
        let t = self.trial as usize;
        let k = self.rolled;
        self.rolled += 1;
        match k {
            0 => roll_of(self.orders[0][t % 36]),
            1 => roll_of(self.orders[1][(t % 36 + t / 36) % 36]),
            _ => self.rng.dice(),
        }
    }
}

/// One trial from `pos` with its side on roll: that side's outcome, exact
/// at the end of the game or the race odds where it is truncated.
fn play_out(
    judge: &Expert,
    mut pos: Position,
    dice: &mut TrialDice,
    buf: &mut Vec<Position>,
) -> Probs {
    let mut mine = true;
    loop {
        if bearoff::homes(&pos).is_some() && BearoffDb::global().race_win(&pos).is_some() {
            let p = judge.probs_on_roll(&pos);
            return if mine { p } else { nn::flip(&p) };
        }
        pos.legal_positions_into(dice.next(), false, buf);
        let Some(best) = judge.best_0ply_play(buf) else {
            // No legal positions: only for a finished game, which a trial
            // never plays into; value it as it stands.
            let p = judge.probs_on_roll(&pos);
            return if mine { p } else { nn::flip(&p) };
        };
        if let Some(t) = nn::terminal(&best) {
            return if mine { t } else { nn::flip(&t) };
        }
        pos = best.switch_sides();
        mine = !mine;
    }
}

#[cfg(test)]
mod tests {
    use super::super::study::SHOWN;
    use super::*;
    use tabula_shared::study::BgSetup;

    fn at(xgid: &str) -> BgMatch {
        BgSetup::from_xgid(xgid).unwrap().to_match().unwrap()
    }

    #[test]
    fn first_rolls_are_stratified() {
        let mut rng = Rng::new(5);
        let orders = std::array::from_fn(|_| shuffled_rolls(&mut rng));
        let mut firsts = [0u32; 36];
        let mut pairs = std::collections::HashSet::new();
        for t in 0..1296 {
            let mut d = TrialDice::new(9, t, &orders);
            let (a, b) = (d.next(), d.next());
            let idx = |x: Dice| usize::from((x.a - 1) * 6 + x.b - 1);
            if t < 36 {
                firsts[idx(a)] += 1;
            }
            pairs.insert((idx(a), idx(b)));
        }
        assert!(
            firsts.iter().all(|&n| n == 1),
            "each first roll once in 36 trials"
        );
        assert_eq!(
            pairs.len(),
            1296,
            "each pair of first rolls once in 1296 trials"
        );
    }

    #[test]
    fn chunks_give_what_one_run_gives_and_the_seed_names_the_figures() {
        // The opening position, Black to play 3-1.
        let m = at("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10");
        let mut whole = Rollout::new(&m, 7).unwrap();
        whole.run(72);
        let mut parts = Rollout::new(&m, 7).unwrap();
        parts.run(36);
        parts.run(36);
        let a = whole.report(72, RolloutState::Finished);
        assert_eq!(a, parts.report(72, RolloutState::Finished));
        assert_eq!(a.trials_done, 72);
        assert!(a.lines.len() > 1 && a.lines.len() <= SHOWN);
        // 72 trials cannot tell the plays apart; the best at 1-ply is
        // among them.
        assert!(
            a.lines.iter().any(|l| l.notation == "8/5 6/5"),
            "{:?}",
            a.lines
        );
        for l in &a.lines {
            assert!(l.cubeless_ci > 0.0 && l.cubeless_ci < 0.5, "{l:?}");
            assert!((0.3..0.8).contains(&l.chances.win), "{l:?}");
        }
        let mut other = Rollout::new(&m, 8).unwrap();
        other.run(72);
        assert_ne!(a, other.report(72, RolloutState::Finished));
    }

    #[test]
    fn a_home_race_ends_at_the_databases_exact_odds() {
        // Both sides home, Black on roll with no dice: every trial is
        // truncated at once, so the figure is the database's and exact.
        let m = at("XGID=-BBB------------------bbb-:0:0:1:00:0:0:0:0:10");
        let mut r = Rollout::new(&m, 1).unwrap();
        r.run(10);
        let report = r.report(10, RolloutState::Finished);
        let line = &report.lines[0];
        let pos = m.position_for(Side::Black);
        let exact = BearoffDb::global().race_win(&pos).unwrap();
        assert!(
            (line.chances.win - exact).abs() < 1e-6,
            "{line:?} vs {exact}"
        );
        assert_eq!(line.cubeless_ci, 0.0);
        assert!(
            report.cube.is_some(),
            "money, centred cube: the decision too"
        );
    }
}
