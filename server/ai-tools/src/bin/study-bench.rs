//! Times the analysis board's answers (`study`), as the server computes
//! them, and counts the Gomoku forced wins it finds.
//!
//! `study-bench --games 4` plays that many Backgammon money games (Expert
//! against Beginner) and Gomoku games (Expert against Intermediate), sets
//! up every position where a side decides (Backgammon: a roll to play or a
//! cube to turn; Gomoku: every `--every`-th stone), and prints the answer
//! time at each Backgammon depth and for Gomoku (median, 90th percentile),
//! with the share of Gomoku positions where a VCF or VCT was found; then
//! rolls out `--rollouts` of the Backgammon positions `--trials` times on
//! one core and prints the trials (games) per second, median over them;
//! then harvests "win by fours" puzzles from `--harvest-games`
//! Casual-against-Casual Gomoku games and prints the share of candidates
//! (positions with a VCF of two fours or more) whose first four the solver
//! proves unique.

use std::time::{Duration, Instant};

use clap::Parser;
use tabula_ai::Level;
use tabula_ai::analysis::GOMOKU_NODES;
use tabula_ai::harvest::positions;
use tabula_ai_tools::sample_games;
use tabula_shared::protocol::{MAX_STUDY_DEPTH, StudyAnswer};
use tabula_shared::study::StudyPosition;

#[derive(Parser)]
#[command(about = "Time the analysis board's answers in both games")]
struct Cli {
    /// Games of each kind.
    #[arg(long, default_value_t = 4)]
    games: u64,
    /// First seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Nodes per Gomoku search (the server's `--analysis-nodes`).
    #[arg(long, default_value_t = GOMOKU_NODES)]
    nodes: u64,
    /// Every how many positions one is timed.
    #[arg(long, default_value_t = 4)]
    every: usize,
    /// Backgammon positions rolled out.
    #[arg(long, default_value_t = 10)]
    rollouts: usize,
    /// Trials of each rollout.
    #[arg(long, default_value_t = 324)]
    trials: u32,
    /// Casual-against-Casual Gomoku games harvested for puzzles.
    #[arg(long, default_value_t = 200)]
    harvest_games: u64,
    /// Of those, how many are also harvested for "win by threats".
    #[arg(long, default_value_t = 40)]
    threat_games: u64,
}

fn summary(label: &str, mut times: Vec<Duration>) {
    if times.is_empty() {
        return;
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize].as_secs_f64() * 1000.0;
    println!(
        "{label}: median {:.1} ms, p90 {:.1} ms over {} positions",
        at(0.5),
        at(0.9),
        times.len()
    );
}

fn main() {
    let cli = Cli::parse();
    let seeds = cli.seed..cli.seed + cli.games;
    let mut bg = Vec::new();
    let mut gomoku = Vec::new();
    for s in seeds {
        let record = sample_games::backgammon(s, [Level::Expert, Level::Beginner], Duration::ZERO);
        bg.extend(positions(&record).into_iter().step_by(cli.every.max(1)));
        let record = sample_games::gomoku(s, [Level::Expert, Level::Intermediate], 50_000);
        gomoku.extend(positions(&record).into_iter().step_by(cli.every.max(1)));
    }
    for depth in 0..=MAX_STUDY_DEPTH {
        let times = bg
            .iter()
            .map(|p| {
                let start = Instant::now();
                tabula_ai::study::study(p, depth, cli.nodes).expect("an answer");
                start.elapsed()
            })
            .collect();
        summary(&format!("backgammon {depth}-ply"), times);
    }
    let (mut wins, mut threats) = (0, 0);
    let times = gomoku
        .iter()
        .map(|p| {
            let start = Instant::now();
            let answer = tabula_ai::study::study(p, 0, cli.nodes).expect("an answer");
            let took = start.elapsed();
            if let StudyAnswer::Gomoku(a) = answer {
                wins += usize::from(a.win.is_some());
                threats += usize::from(a.threat.is_some());
            }
            took
        })
        .collect();
    summary(&format!("gomoku, {} nodes a search", cli.nodes), times);
    println!(
        "gomoku forced wins: {wins} of {} positions for the side to move, {threats} for the other side",
        gomoku.len()
    );
    rollout_speed(&bg, cli.rollouts, cli.trials);
    bg_puzzle_share(&bg);
    harvest_share(cli.seed, cli.harvest_games, cli.threat_games);
}

/// Rollout games per second on this core: each of the first `count`
/// positions rolled out `trials` times (every candidate play counts).
fn rollout_speed(positions: &[StudyPosition], count: usize, trials: u32) {
    let mut rates: Vec<f64> = positions
        .iter()
        .filter_map(|p| match p {
            StudyPosition::Backgammon(setup) => setup.to_match().ok(),
            StudyPosition::Gomoku(_) => None,
        })
        .take(count)
        .filter_map(|m| {
            let mut rollout = tabula_ai::backgammon::rollout::Rollout::new(&m, 1)?;
            let start = Instant::now();
            rollout.run(trials);
            let games = rollout
                .report(trials, tabula_shared::protocol::RolloutState::Finished)
                .lines
                .len() as f64
                * f64::from(trials);
            Some(games / start.elapsed().as_secs_f64())
        })
        .collect();
    if rates.is_empty() {
        return;
    }
    rates.sort_by(f64::total_cmp);
    println!(
        "rollout: {:.0} games per second on one core (median of {} positions, {trials} trials each; min {:.0}, max {:.0})",
        rates[rates.len() / 2],
        rates.len(),
        rates[0],
        rates[rates.len() - 1]
    );
}

/// The share of harvested Gomoku candidates of each theme that survive
/// the uniqueness check, over `games` Casual-against-Casual games from
/// `seed` (the win by threats over the first `threat_games` of them: its
/// checks take most of the time).
fn harvest_share(seed: u64, games: u64, threat_games: u64) {
    use tabula_ai::gomoku::harvest::defence::defence_puzzle;
    use tabula_ai::gomoku::harvest::threats::vct_puzzle;
    use tabula_ai::gomoku::harvest::{Rejected, vcf_puzzle};
    use tabula_shared::gomoku::Rule;
    const NODES: u64 = 200_000;
    // Kept, not unique, unproven; games looked at; time taken.
    let mut tally = [[0usize; 3]; 3];
    let mut looked = [0u64; 3];
    let mut took = [Duration::ZERO; 3];
    let names = ["win by fours", "only defence", "win by threats"];
    for s in seed..seed + games {
        let record = sample_games::gomoku(s, [Level::Casual, Level::Casual], 20_000);
        let themes = if s < seed + threat_games { 3 } else { 2 };
        for n in looked.iter_mut().take(themes) {
            *n += 1;
        }
        for position in positions(&record) {
            let StudyPosition::Gomoku(setup) = position else {
                continue;
            };
            let Ok(board) = setup.board() else {
                continue;
            };
            let me = setup.to_move;
            for k in 0..themes {
                let start = Instant::now();
                let r = match k {
                    0 => vcf_puzzle(&board, me, Rule::Freestyle, NODES).map(|_| ()),
                    1 => defence_puzzle(&board, me, Rule::Freestyle, NODES).map(|_| ()),
                    _ => vct_puzzle(&board, me, Rule::Freestyle, NODES).map(|_| ()),
                };
                took[k] += start.elapsed();
                match r {
                    Ok(()) => tally[k][0] += 1,
                    Err(Rejected::NotUnique(_)) => tally[k][1] += 1,
                    Err(Rejected::Unproven) => tally[k][2] += 1,
                    Err(_) => {}
                }
            }
        }
    }
    for (k, [kept, not_unique, unproven]) in tally.iter().enumerate() {
        let candidates = kept + not_unique + unproven;
        println!(
            "gomoku {} puzzles: {kept} of {candidates} candidates kept ({:.0}%; {not_unique} not unique, {unproven} unproven) from {} games in {:.1} s",
            names[k],
            100.0 * *kept as f64 / candidates.max(1) as f64,
            looked[k],
            took[k].as_secs_f64(),
        );
    }
}

/// How many of the Backgammon positions make a best-play or cube puzzle.
fn bg_puzzle_share(positions: &[StudyPosition]) {
    use tabula_ai::backgammon::harvest::{cube_puzzle, play_puzzle};
    let (mut plays, mut play_positions, mut cubes, mut cube_positions) = (0, 0, 0, 0);
    for p in positions {
        let StudyPosition::Backgammon(setup) = p else {
            continue;
        };
        let Ok(m) = setup.to_match() else {
            continue;
        };
        if setup.dice.is_some() {
            play_positions += 1;
            plays += usize::from(play_puzzle(&m).is_some());
        } else {
            cube_positions += 1;
            cubes += usize::from(cube_puzzle(&m).is_some());
        }
    }
    println!(
        "backgammon puzzles: {plays} best-play of {play_positions} rolls to play, {cubes} cube of {cube_positions} cube decisions"
    );
}
