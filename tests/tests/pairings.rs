//! Tabula's Swiss pairing against an outside implementation of the FIDE
//! Dutch system, `caissify-pairings` (checked by its authors against the
//! FIDE-endorsed bbpPairings): 300 random events, every round paired by
//! both from the same state (`tests/pairings/compare.py`).
//!
//! `.ci/run` installs the package into `target/pairing-python`
//! (`python3 -m pip install --target target/pairing-python
//! caissify-pairings==0.5.0`).

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

#[test]
fn swiss_pairings_agree_with_caissify_pairings_on_random_events() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let python_path = std::env::var_os("TABULA_PAIRING_PYTHONPATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/pairing-python"));
    assert!(
        python_path.join("caissify_pairings").is_dir(),
        "caissify-pairings is not in {}: run `python3 -m pip install --target \
         target/pairing-python caissify-pairings==0.5.0` (.ci/run does)",
        python_path.display()
    );
    let out = Command::new("python3")
        .arg(root.join("tests/pairings/compare.py"))
        .args(["--tool", env!("CARGO_BIN_EXE_swiss-pair")])
        .args(["--events", "300", "--seed", "7"])
        .env("PYTHONPATH", &python_path)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "compare.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Value = serde_json::from_slice(&out.stdout).expect("one JSON summary");
    let count = |k: &str| {
        summary[k]
            .as_u64()
            .unwrap_or_else(|| panic!("{k} in {summary}"))
    };
    let rounds = count("rounds");
    println!(
        "rounds {rounds}: same pairs {} ({:.1}%), same colours too {}, Tabula could not pair {} \
         (caissify could: {}), caissify gave a second bye {}; by round [same, all]: {}",
        count("same_pairs"),
        100.0 * count("same_pairs") as f64 / rounds as f64,
        count("same_colours"),
        count("tabula_failed"),
        count("tabula_failed_alone"),
        count("caissify_incomplete"),
        summary["by_round"]
    );
    assert!(rounds >= 1500, "thousands of rounds compared, not {rounds}");
    assert_eq!(
        count("illegal"),
        0,
        "a pairing broke an absolute rule: {summary}"
    );
    // Measured: 1679 of 1794 (93.6%) the same; Tabula fails 2 final rounds
    // of small events that caissify pairs (docs/TOURNAMENTS.md).
    assert!(
        count("same_pairs") * 100 >= rounds * 90,
        "fewer than 90% of rounds paired as caissify does: {summary}"
    );
    assert!(count("tabula_failed_alone") * 200 <= rounds, "{summary}");
}
