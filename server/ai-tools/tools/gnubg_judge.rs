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

/// gnubg's statistics of one player's cube decisions over a match.
#[derive(Debug, Clone, Default)]
pub struct CubeStats {
    /// Decisions gnubg counts as close (where an error was possible).
    pub close: u32,
    /// Total equity lost on cube decisions (gnubg's "error-skill").
    pub error: f32,
    /// Missed doubles (below and above the cash point).
    pub missed_doubles: u32,
    /// Wrong doubles (below the double point and above too good).
    pub wrong_doubles: u32,
    /// Wrong takes.
    pub wrong_takes: u32,
    /// Wrong drops (passes).
    pub wrong_drops: u32,
}

impl CubeStats {
    fn from_json(v: &serde_json::Value) -> CubeStats {
        let n = |k: &str| v[k].as_u64().unwrap_or(0) as u32;
        CubeStats {
            close: n("close-cube"),
            error: v["error-skill"].as_f64().unwrap_or(0.0) as f32,
            missed_doubles: n("missed-double-below-cp") + n("missed-double-above-cp"),
            wrong_doubles: n("wrong-double-below-dp") + n("wrong-double-above-tg"),
            wrong_takes: n("wrong-take"),
            wrong_drops: n("wrong-drop"),
        }
    }

    /// Adds `other`'s counts and errors.
    pub fn add(&mut self, other: &CubeStats) {
        self.close += other.close;
        self.error += other.error;
        self.missed_doubles += other.missed_doubles;
        self.wrong_doubles += other.wrong_doubles;
        self.wrong_takes += other.wrong_takes;
        self.wrong_drops += other.wrong_drops;
    }
}

/// gnubg's verdict on one exported record.
#[derive(Debug, Clone)]
pub struct JudgedMatch {
    /// Its checker plays, one list per game, in order.
    pub games: Vec<Vec<Judged>>,
    /// Each player's cube statistics (White's, Black's).
    pub cube: [CubeStats; 2],
}

/// GNU Backgammon's path (`TABULA_GNUBG` overrides it).
pub fn gnubg_path() -> String {
    std::env::var("TABULA_GNUBG").unwrap_or_else(|_| "/usr/games/gnubg".into())
}

/// gnubg's verdicts on each record (in `dir`, which receives the exported
/// matches): the plays, one list per game of the record, in order (rolls
/// that could not be played left out), and the cube statistics.
///
/// # Panics
/// When gnubg is missing or fails: a judge that cannot judge is an error.
pub fn judge(records: &[GameRecord], dir: &Path) -> Vec<JudgedMatch> {
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
        .map(|file| JudgedMatch {
            games: file["games"]
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
                .collect(),
            cube: [
                CubeStats::from_json(&file["cube"][0]),
                CubeStats::from_json(&file["cube"][1]),
            ],
        })
        .collect()
}
