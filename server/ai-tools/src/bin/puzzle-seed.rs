//! Writes the server's built-in puzzle set (`server/src/puzzles/seed.json`):
//! the puzzles the harvest ([`tabula_ai::harvest`]) finds in sample games
//! between AI levels, the same harvest the server runs on its own finished
//! games. A fresh server serves these until its games give more.
//!
//! `puzzle-seed > server/src/puzzles/seed.json` (20,000 Gomoku games: the
//! first 300 from the empty board and also harvested for "win by
//! threats", the rest each from a three-stone opening of its own; 40
//! Backgammon games; at most 60 puzzles a theme, the first by id) prints
//! one puzzle per line of a JSON array, and on stderr how many of each
//! theme were found.

use std::collections::BTreeMap;
use std::time::Duration;

use clap::Parser;
use tabula_ai::Level;
use tabula_ai::harvest::{harvest, harvest_themes};
use tabula_ai_tools::sample_games;
use tabula_shared::protocol::PuzzleTheme;

#[derive(Parser)]
#[command(about = "Harvest the built-in puzzle set from sample games")]
struct Cli {
    /// Casual-against-Casual Gomoku games (freestyle, 15x15; after the
    /// first `threat_games`, each from a three-stone opening of its own).
    #[arg(long, default_value_t = 20_000)]
    gomoku_games: u64,
    /// Of those, how many are also harvested for "win by threats" (its
    /// checks take most of the time; the other themes are cheap, and "only
    /// defence" is rare: a few in a thousand games).
    #[arg(long, default_value_t = 300)]
    threat_games: u64,
    /// Expert-against-Intermediate Backgammon money games.
    #[arg(long, default_value_t = 40)]
    backgammon_games: u64,
    /// First seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Most puzzles kept of each theme (the first by id).
    #[arg(long, default_value_t = 60)]
    most_per_theme: usize,
}

fn main() {
    let cli = Cli::parse();
    let mut found = Vec::new();
    for s in cli.seed..cli.seed + cli.gomoku_games {
        // The first games from the empty board, the rest each from an
        // opening of three stones of its own (the empty board's games
        // repeat one another).
        let opening = if s < cli.seed + cli.threat_games {
            0
        } else {
            3
        };
        let record =
            sample_games::gomoku_opened(s, [Level::Casual, Level::Casual], 20_000, opening);
        let themes: &[PuzzleTheme] = if s < cli.seed + cli.threat_games {
            &PuzzleTheme::ALL
        } else {
            &[PuzzleTheme::WinByFours, PuzzleTheme::OnlyDefence]
        };
        found.extend(harvest_themes(&record, None, themes, &mut || {}));
    }
    for s in cli.seed..cli.seed + cli.backgammon_games {
        let record =
            sample_games::backgammon(s, [Level::Expert, Level::Intermediate], Duration::ZERO);
        found.extend(harvest(&record, None, &mut || {}));
    }
    // One puzzle per id (the same position from two games is one).
    let mut by_id = BTreeMap::new();
    for p in found {
        by_id.entry(p.id()).or_insert(p);
    }
    let mut themes: BTreeMap<&str, usize> = BTreeMap::new();
    let lines: Vec<String> = by_id
        .values()
        .filter(|p| {
            let kept = themes.entry(p.theme.name()).or_default();
            *kept += 1;
            *kept <= cli.most_per_theme
        })
        .map(|p| serde_json::to_string(p).expect("a puzzle serialises"))
        .collect();
    println!("[\n{}\n]", lines.join(",\n"));
    eprintln!(
        "{} puzzles found, by theme {themes:?}; {} kept (at most {} a theme)",
        by_id.len(),
        lines.len(),
        cli.most_per_theme
    );
}
