//! Running gnubg on the exported files, and comparing what it read with
//! what it should have read.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tabula_shared::backgammon::{Move, Play, Position, Side};

use super::expected::{Exp, ExpGame};

fn gnubg_path() -> String {
    std::env::var("TABULA_GNUBG").unwrap_or_else(|_| "/usr/games/gnubg".into())
}

pub fn run_gnubg(dir: &Path, files: &[(String, PathBuf)]) -> Vec<Value> {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/gnubg/import_check.py");
    assert!(script.exists(), "script missing: {}", script.display());
    let out = dir.join("gnubg-out.jsonl");
    let list: Vec<Value> = files
        .iter()
        .map(|(kind, path)| serde_json::json!({"kind": kind, "path": path}))
        .collect();
    let log = std::fs::File::create(dir.join("gnubg.log")).unwrap();
    let gnubg = gnubg_path();
    let mut child = Command::new(&gnubg)
        .args(["-t", "-q", "-p"])
        .arg(&script)
        .env("TABULA_OUT", &out)
        .env("TABULA_FILES", serde_json::to_string(&list).unwrap())
        .stdin(Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run gnubg at {gnubg}: {e} (apt-get install gnubg)"));
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "gnubg exited with {status}");
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("gnubg timed out");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let text = std::fs::read_to_string(&out).expect("gnubg output");
    let mut results = Vec::new();
    let mut done = false;
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).expect("JSON from gnubg");
        if let Some(e) = v.get("error") {
            panic!("gnubg script error: {}", e.as_str().unwrap_or_default());
        }
        if v.get("done").is_some() {
            done = true;
        } else {
            results.push(v);
        }
    }
    assert!(done, "gnubg script did not finish; see {}", dir.display());
    assert_eq!(results.len(), files.len());
    // gnubg reports what it does not like on its own output.
    let log = std::fs::read_to_string(dir.join("gnubg.log")).unwrap_or_default();
    let complaints: Vec<&str> = log
        .lines()
        .filter(|l| {
            let l = l.to_ascii_lowercase();
            [
                "warning",
                "unrecognised",
                "invalid",
                "illegal",
                "not a valid",
                "doesn't follow",
                "error",
            ]
            .iter()
            .any(|w| l.contains(w))
        })
        .collect();
    assert!(
        complaints.is_empty(),
        "gnubg complained while importing (files in {}):\n{}",
        dir.display(),
        complaints.join("\n")
    );
    results
}

// ---------------------------------------------------------------------------
// Comparing

fn side_of_player(v: &Value) -> Side {
    match v.as_u64() {
        Some(0) => Side::White,
        Some(1) => Side::Black,
        _ => panic!("bad player {v}"),
    }
}

/// gnubg's hops applied to `before`, one by one.
fn apply_gnubg_move(before: &Position, hops: &Value) -> Position {
    let moves: Vec<Move> = hops
        .as_array()
        .map(|a| {
            a.iter()
                .map(|h| Move {
                    from: h[0].as_u64().unwrap() as u8,
                    to: h[1].as_u64().unwrap() as u8,
                    hit: false,
                })
                .collect()
        })
        .unwrap_or_default();
    before.apply(&Play { moves }).expect("gnubg's move applies")
}

/// Compares gnubg's reading of one file with the record. Returns a list of
/// differences (empty when they agree).
pub fn compare(
    label: &str,
    got: &Value,
    games: &[ExpGame],
    final_score: [u32; 2],
    check_crawford: bool,
) -> Vec<String> {
    let mut diffs = Vec::new();
    let gg = got["games"].as_array().cloned().unwrap_or_default();
    if gg.len() != games.len() {
        diffs.push(format!(
            "{label}: gnubg read {} games, expected {}",
            gg.len(),
            games.len()
        ));
        return diffs;
    }
    let mut score = [0u32; 2];
    for (i, (g, e)) in gg.iter().zip(games).enumerate() {
        let label = format!("{label} game {}", i + 1);
        let gs = [
            g["score"][0].as_u64().unwrap_or(999) as u32,
            g["score"][1].as_u64().unwrap_or(999) as u32,
        ];
        if gs != e.score {
            diffs.push(format!(
                "{label}: score before {gs:?}, expected {:?}",
                e.score
            ));
        }
        let crawford = g["crawford"].as_bool().unwrap_or(false);
        if check_crawford && crawford != e.crawford {
            diffs.push(format!(
                "{label}: Crawford game {crawford}, expected {}",
                e.crawford
            ));
        }
        // gnubg's actions, without its bookkeeping records.
        let acts: Vec<&Value> = g["actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| {
                matches!(
                    a[0].as_str(),
                    Some("move" | "double" | "take" | "drop" | "resign")
                )
            })
            .collect();
        let others: Vec<&str> = g["actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|a| a[0].as_str())
            .filter(|a| !matches!(*a, "move" | "double" | "take" | "drop" | "resign"))
            .collect();
        if !others.is_empty() {
            diffs.push(format!("{label}: unexpected gnubg records {others:?}"));
        }
        if acts.len() != e.actions.len() {
            diffs.push(format!(
                "{label}: gnubg read {} actions, expected {}",
                acts.len(),
                e.actions.len()
            ));
        }
        for (k, (a, x)) in acts.iter().zip(&e.actions).enumerate() {
            let kind = a[0].as_str().unwrap_or("");
            let side = side_of_player(&a[1]);
            let ok = match x {
                Exp::Move {
                    side: s,
                    dice,
                    before,
                    after,
                } => {
                    let mut d: Vec<u8> = a[2]
                        .as_array()
                        .map(|v| v.iter().map(|x| x.as_u64().unwrap() as u8).collect())
                        .unwrap_or_default();
                    d.sort_unstable_by(|a, b| b.cmp(a));
                    kind == "move"
                        && side == *s
                        && d == dice.to_vec()
                        && apply_gnubg_move(before, &a[3]) == *after
                }
                Exp::Double(s) => kind == "double" && side == *s,
                Exp::Take(s) => kind == "take" && side == *s,
                Exp::Drop(s) => kind == "drop" && side == *s,
                Exp::Resign(s) => kind == "resign" && side == *s,
            };
            if !ok {
                diffs.push(format!(
                    "{label} action {k}: gnubg read {a}, expected {x:?}"
                ));
                break;
            }
        }
        let winner = g["winner"].as_u64();
        match e.end {
            Some((w, points, resigned)) => {
                let got_end = (
                    winner,
                    g["points"].as_u64().unwrap_or(0) as u32,
                    g["resigned"].as_bool().unwrap_or(false),
                );
                let want = (Some(w.index() as u64), points, resigned);
                if got_end != want {
                    diffs.push(format!("{label}: result {got_end:?}, expected {want:?}"));
                }
                score[w.index()] += points;
            }
            None => {
                if winner.is_some() {
                    diffs.push(format!("{label}: gnubg has a winner, expected none"));
                }
            }
        }
    }
    if score != final_score {
        diffs.push(format!(
            "{label}: gnubg's final score {score:?}, expected {final_score:?}"
        ));
    }
    diffs
}
