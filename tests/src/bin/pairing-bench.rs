//! How long the Swiss pairing takes for big fields: an event of N players
//! (default 1,000 and 10,000) for 9 rounds, results drawn from a fixed
//! seed (the higher rated wins three games in four, one in ten is drawn);
//! prints each round's pairing time, the median of `--runs` events.
//!
//!     cargo run --release -p tabula-tests --bin pairing-bench

use std::time::Instant;

use clap::Parser;
use tabula_shared::seat::Seat;
use tabula_shared::tournament::swiss::{Float, SwissPlayer, SwissRules, pair_round};

#[derive(Parser)]
struct Args {
    /// Field sizes.
    #[arg(long, value_delimiter = ',', default_values_t = [1000u32, 10000])]
    players: Vec<u32>,
    #[arg(long, default_value_t = 9)]
    rounds: u32,
    /// Events per size (the median is printed).
    #[arg(long, default_value_t = 3)]
    runs: u32,
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn event(n: u32, rounds: u32, seed: u64) -> Vec<f64> {
    let mut rng = Rng(seed | 1);
    let mut players: Vec<SwissPlayer> = (1..=n).map(|i| SwissPlayer::entering(i, i)).collect();
    let mut times = Vec::new();
    for r in 1..=rounds {
        let rules = SwissRules {
            round: r,
            total_rounds: rounds,
            initial: Seat::First,
        };
        let t = Instant::now();
        let round = pair_round(&players, rules).expect("a pairing");
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        let before: Vec<u32> = players.iter().map(|p| p.score).collect();
        for (a, b) in round.games {
            let (ia, ib) = (a as usize - 1, b as usize - 1);
            let roll = rng.next() % 20;
            let favourite_first = a < b;
            let (sa, sb) = match roll {
                0 | 1 => (1, 1),
                2..=6 => {
                    if favourite_first {
                        (0, 2)
                    } else {
                        (2, 0)
                    }
                }
                _ => {
                    if favourite_first {
                        (2, 0)
                    } else {
                        (0, 2)
                    }
                }
            };
            players[ia].score += sa;
            players[ib].score += sb;
            players[ia].colours.push(Seat::First);
            players[ib].colours.push(Seat::Second);
            players[ia].opponents.push(b);
            players[ib].opponents.push(a);
            let (fa, fb) = match before[ia].cmp(&before[ib]) {
                std::cmp::Ordering::Greater => (Float::Down, Float::Up),
                std::cmp::Ordering::Less => (Float::Up, Float::Down),
                std::cmp::Ordering::Equal => (Float::None, Float::None),
            };
            players[ia].floats.push(fa);
            players[ib].floats.push(fb);
        }
        if let Some(b) = round.bye {
            let i = b as usize - 1;
            players[i].score += 2;
            players[i].byes += 1;
            players[i].floats.push(Float::Down);
        }
    }
    times
}

fn main() {
    let args = Args::parse();
    for &n in &args.players {
        let runs: Vec<Vec<f64>> = (0..args.runs)
            .map(|s| event(n, args.rounds, 0x5eed + u64::from(s)))
            .collect();
        let medians: Vec<f64> = (0..args.rounds as usize)
            .map(|r| {
                let mut v: Vec<f64> = runs.iter().map(|t| t[r]).collect();
                v.sort_by(f64::total_cmp);
                v[v.len() / 2]
            })
            .collect();
        let line: Vec<String> = medians.iter().map(|m| format!("{m:.1}")).collect();
        let worst = medians.iter().copied().fold(0.0, f64::max);
        println!(
            "{n} players, {} rounds, median of {} events: pairing ms by round [{}]; slowest round {worst:.1} ms",
            args.rounds,
            args.runs,
            line.join(", ")
        );
    }
}
