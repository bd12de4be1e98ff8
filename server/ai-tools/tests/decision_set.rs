//! The decision-set tools against the real GNU Backgammon:
//! `tools/decisions.py` (inside gnubg) builds a small set from gnubg's
//! self-play, every play of which must be exactly our move generator's
//! legal results, and `tools/rate_plays.py` rates `bg-engine` on it, the
//! Expert making fewer errors than the Beginner.

use std::collections::BTreeSet;
use std::process::{Command, Stdio};

use tabula_shared::backgammon::{Dice, Position};

const TOOLS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tools");

// For gnubg's path, shared with the analysis test and bg-ladder.
#[allow(dead_code)]
#[path = "../tools/gnubg_judge.rs"]
mod gnubg_judge;

/// The mean error in mp that `rate_plays.py` prints for `level`.
fn rate(set: &std::path::Path, level: &str) -> f64 {
    let out = Command::new("python3")
        .arg(format!("{TOOLS}/rate_plays.py"))
        .arg("--decisions")
        .arg(set)
        .args(["--", env!("CARGO_BIN_EXE_bg-engine"), "--level", level])
        .stderr(Stdio::inherit())
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "rate_plays.py failed for {level}");
    let text = String::from_utf8(out.stdout).unwrap();
    eprintln!("{level}: {text}");
    let all = text.split("all ").nth(1).expect("an 'all' figure");
    all.split_whitespace()
        .next()
        .unwrap()
        .parse()
        .expect("a number")
}

#[test]
fn gnubgs_decision_set_matches_our_moves_and_ranks_the_levels() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("decisions.jsonl");
    let status = Command::new(gnubg_judge::gnubg_path())
        .args(["-t", "-q", "-p", &format!("{TOOLS}/decisions.py")])
        .env("TABULA_OUT", &set)
        .env("TABULA_DECISIONS", "40")
        .env("TABULA_SEED", "test")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("cannot run gnubg: {e} (apt-get install gnubg)"));
    assert!(status.success(), "decisions.py failed: {status}");
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&set)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 40);
    for d in &lines {
        let pos = Position::from_position_id(d["id"].as_str().unwrap()).unwrap();
        let dice = Dice::new(
            d["dice"][0].as_u64().unwrap() as u8,
            d["dice"][1].as_u64().unwrap() as u8,
        )
        .unwrap();
        let ours: BTreeSet<String> = pos
            .legal_positions(dice)
            .iter()
            .map(Position::position_id)
            .collect();
        let plays = d["plays"].as_array().unwrap();
        let theirs: BTreeSet<String> = plays
            .iter()
            .map(|p| p["id"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(ours, theirs, "the legal plays of {} with {dice}", d["id"]);
        let equities: Vec<f64> = plays
            .iter()
            .map(|p| p["equity"].as_f64().unwrap())
            .collect();
        assert!(
            equities.windows(2).all(|w| w[0] >= w[1]),
            "plays best first"
        );
        assert!(equities.iter().all(|e| (-3.0..=3.0).contains(e)));
    }
    let expert = rate(&set, "expert");
    let beginner = rate(&set, "beginner");
    assert!(
        expert < beginner,
        "the Expert errs less than the Beginner: {expert} against {beginner} mp"
    );
}
