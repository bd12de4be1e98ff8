//! GNU Backgammon as the judge of checker plays: exports Backgammon records
//! as `.mat`, has `gnubg -t -q -p tests/gnubg/analyse.py` import and
//! `analyse match` each one (gnubg's own analysis settings: 2-ply in 1.07),
//! and reads back its verdict on every play. Shared by the analysis test
//! and `bg-ladder` (included with `#[path]`: the library itself runs no
//! processes).

use std::path::Path;
use std::process::{Command, Stdio};

use tabula_shared::export::{ExportFormat, ExportMeta, export};
use tabula_shared::protocol::GameRecord;

/// gnubg's verdict on one checker play.
#[derive(Debug, Clone)]
pub struct Judged {
    /// 0 for White (gnubg's X), 1 for Black.
    pub player: usize,
    /// The dice.
    pub dice: Vec<u64>,
    /// Plays gnubg considered.
    pub choices: usize,
    /// Equity of gnubg's best play minus the play made, in mp (`None`
    /// when gnubg did not analyse the play).
    pub loss_mp: Option<f32>,
    /// gnubg's mark: "doubtful", "bad", "very bad", or `None`.
    pub skill: Option<String>,
}

/// GNU Backgammon's path (`TABULA_GNUBG` overrides it).
pub fn gnubg_path() -> String {
    std::env::var("TABULA_GNUBG").unwrap_or_else(|_| "/usr/games/gnubg".into())
}

/// gnubg's verdicts on the plays of each record (in `dir`, which receives
/// the exported matches), one list per game of the record, the plays in
/// order (rolls that could not be played left out).
///
/// # Panics
/// When gnubg is missing or fails: a judge that cannot judge is an error.
pub fn judge(records: &[GameRecord], dir: &Path) -> Vec<Vec<Vec<Judged>>> {
    let meta = ExportMeta {
        players: ["White".into(), "Black".into()],
        date: None,
        event: None,
        result: None,
    };
    let paths: Vec<String> = records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let path = dir.join(format!("m{i}.mat"));
            let text = export(r, &meta, ExportFormat::Mat).expect("a backgammon record exports");
            std::fs::write(&path, text).expect("the match is written");
            path.to_string_lossy().into_owned()
        })
        .collect();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gnubg/analyse.py");
    let out = dir.join("gnubg-out.jsonl");
    let status = Command::new(gnubg_path())
        .args(["-t", "-q", "-p", script])
        .env("TABULA_OUT", &out)
        .env(
            "TABULA_FILES",
            serde_json::to_string(&paths).expect("paths"),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("cannot run gnubg: {e} (apt-get install gnubg)"));
    assert!(status.success(), "gnubg failed: {status}");
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&out)
        .expect("gnubg's report")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(
        lines.last().map(|l| l["done"].clone()),
        Some(serde_json::json!(true)),
        "gnubg's report: {lines:?}"
    );
    lines[..lines.len() - 1]
        .iter()
        .map(|file| {
            file["games"]
                .as_array()
                .expect("games")
                .iter()
                .map(|game| {
                    game.as_array()
                        .expect("plays")
                        .iter()
                        .map(|p| Judged {
                            player: p["player"].as_u64().unwrap_or(0) as usize,
                            dice: p["dice"]
                                .as_array()
                                .map(|d| d.iter().filter_map(|x| x.as_u64()).collect())
                                .unwrap_or_default(),
                            choices: p["choices"].as_u64().unwrap_or(0) as usize,
                            loss_mp: p["loss"].as_f64().map(|l| (l * 1000.0) as f32),
                            skill: p["skill"].as_str().map(str::to_string),
                        })
                        .collect()
                })
                .collect()
        })
        .collect()
}
