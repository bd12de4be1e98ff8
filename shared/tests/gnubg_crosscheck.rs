//! Cross-check of move generation and Position IDs against GNU Backgammon.
//!
//! Runs `/usr/games/gnubg -t -q -p tests/gnubg/driver.py` (two processes in
//! parallel, each handling half of the positions). The driver samples
//! positions from gnubg 0-ply self-play with seeded dice and writes, per
//! position and for all 21 rolls, the set of resulting Position IDs of every
//! legal move gnubg's `hint` lists, as JSON lines to a file (gnubg's own
//! chatter stays on its stdout). This test compares them with
//! [`Position::legal_positions`] and also checks our Position ID encoding and
//! decoding of each sampled position against gnubg's.
//!
//! The test fails (does not skip) if gnubg is missing.
//!
//! Environment: `TABULA_CROSSCHECK_POSITIONS` (default 1000),
//! `TABULA_CROSSCHECK_SEED` (default 1), `TABULA_CROSSCHECK_PROCS` (default 2),
//! `TABULA_GNUBG` (default `/usr/games/gnubg`).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tabula_shared::backgammon::{Dice, Position};

fn env_num(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Our Position from gnubg's board tuple `(opponent, mover)`, each indexed
/// from its own side (0 = own 1-point, 24 = bar). Written independently of
/// the ID code.
fn from_gnubg_board(b: &Value) -> Position {
    let side = |k: usize| -> Vec<i64> {
        b[k].as_array()
            .expect("board side")
            .iter()
            .map(|v| v.as_i64().expect("int"))
            .collect()
    };
    let (opp, me) = (side(0), side(1));
    assert_eq!(opp.len(), 25);
    assert_eq!(me.len(), 25);
    let mut pips = [0i8; 26];
    for k in 1..=25 {
        pips[k] = me[k - 1] as i8;
    }
    for (i, &n) in opp.iter().enumerate().take(24) {
        if n > 0 {
            assert_eq!(pips[24 - i], 0, "overlap");
            pips[24 - i] = -(n as i8);
        }
    }
    pips[0] = -(opp[24] as i8);
    let x_off = 15 - me.iter().sum::<i64>() as u8;
    let o_off = 15 - opp.iter().sum::<i64>() as u8;
    Position::from_pips(pips, x_off, o_off).expect("valid gnubg board")
}

#[test]
fn movegen_and_ids_match_gnubg() {
    let t0 = Instant::now();
    let positions = env_num("TABULA_CROSSCHECK_POSITIONS", 1000);
    let seed = env_num("TABULA_CROSSCHECK_SEED", 1);
    let procs = env_num("TABULA_CROSSCHECK_PROCS", 2).max(1);
    let gnubg = std::env::var("TABULA_GNUBG").unwrap_or_else(|_| "/usr/games/gnubg".into());
    let driver = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/gnubg/driver.py");
    assert!(driver.exists(), "driver missing: {}", driver.display());
    let tmp = std::env::temp_dir().join(format!("tabula-crosscheck-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");

    let mut children = Vec::new();
    for shard in 0..procs {
        let out = tmp.join(format!("shard{shard}.jsonl"));
        let log = std::fs::File::create(tmp.join(format!("shard{shard}.log"))).expect("log");
        let child = Command::new(&gnubg)
            .args(["-t", "-q", "-p"])
            .arg(&driver)
            .env("TABULA_OUT", &out)
            .env("TABULA_SEED", seed.to_string())
            .env("TABULA_POSITIONS", positions.to_string())
            .env("TABULA_SHARD", shard.to_string())
            .env("TABULA_SHARDS", procs.to_string())
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("log"))
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run gnubg at {gnubg}: {e} (apt-get install gnubg)"));
        children.push((child, out));
    }
    let deadline = Instant::now() + Duration::from_secs(1800);
    for (child, _) in &mut children {
        loop {
            if let Some(status) = child.try_wait().expect("wait") {
                assert!(status.success(), "gnubg exited with {status}");
                break;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("gnubg timed out");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    let gnubg_secs = t0.elapsed().as_secs_f64();

    let mut cases = 0usize;
    let mut mismatches = 0usize;
    let mut id_mismatches = 0usize;
    let mut sampled = 0usize;
    let mut results_total = 0usize;
    let mut no_move = 0usize;
    let mut bar_positions = 0usize;
    let mut bearoff_positions = 0usize;
    let mut legal = Vec::new();
    for (_, out) in &children {
        let text = std::fs::read_to_string(out).expect("driver output");
        let mut done = false;
        for line in text.lines() {
            let v: Value = serde_json::from_str(line).expect("driver JSON");
            if let Some(e) = v.get("error") {
                panic!("driver error: {e}");
            }
            if v.get("done").is_some() {
                done = true;
                continue;
            }
            sampled += 1;
            let gid = v["id"].as_str().expect("id");
            let pos = from_gnubg_board(&v["board"]);
            if pos.position_id() != gid || Position::from_position_id(gid) != Ok(pos) {
                id_mismatches += 1;
                eprintln!("ID MISMATCH gnubg {gid} ours {}", pos.position_id());
            }
            bar_positions += usize::from(pos.x_bar() > 0);
            bearoff_positions += usize::from(pos.x_all_home());
            for (dice, _) in Dice::ALL_21 {
                let key = format!("{}{}", dice.low(), dice.high());
                let r = &v["rolls"][&key];
                let n = r["n"].as_u64().expect("n") as usize;
                let mut theirs: BTreeSet<String> = r["ids"]
                    .as_array()
                    .expect("ids")
                    .iter()
                    .map(|s| s.as_str().expect("id").to_string())
                    .collect();
                if theirs.is_empty() {
                    theirs.insert(gid.to_string());
                }
                pos.legal_positions_into(dice, false, &mut legal);
                let ours: BTreeSet<String> = legal.iter().map(|p| p.position_id()).collect();
                cases += 1;
                results_total += ours.len();
                no_move += usize::from(n == 0);
                let count_ok = n == 0 || n == ours.len();
                if ours != theirs || !count_ok || ours.len() != legal.len() {
                    mismatches += 1;
                    if mismatches <= 20 {
                        eprintln!(
                            "MISMATCH {gid} roll {key}: ours {} gnubg {} (hint entries {n})",
                            ours.len(),
                            theirs.len()
                        );
                        for id in ours.difference(&theirs) {
                            eprintln!("   only ours : {id}");
                        }
                        for id in theirs.difference(&ours) {
                            eprintln!("   only gnubg: {id}");
                        }
                    }
                }
            }
        }
        assert!(done, "driver output incomplete: {}", out.display());
    }
    println!(
        "gnubg cross-check: {sampled} positions ({bar_positions} with mover on the bar, \
         {bearoff_positions} bearing off), {cases} (position, roll) cases, {results_total} \
         distinct results, {no_move} no-move cases: {mismatches} move-set mismatches, \
         {id_mismatches} Position ID mismatches; gnubg {gnubg_secs:.1}s, total {:.1}s",
        t0.elapsed().as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&tmp);
    assert_eq!(sampled, positions, "sampled position count");
    assert!(cases >= 21 * positions);
    assert_eq!(id_mismatches, 0, "Position ID mismatches");
    assert_eq!(mismatches, 0, "move-set mismatches");
}
