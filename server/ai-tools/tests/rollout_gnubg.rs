//! Tabula's rollouts against GNU Backgammon's own: the same positions
//! rolled out by both (cubeless, 0-ply, 1,296 trials, money), each figure
//! with its standard error. Each figure must agree with gnubg's within the
//! 99% interval of their difference (2.58 standard errors of it), though
//! the two engines play the trials differently. Both sides are seeded, so
//! the run is the same every time.

use std::io::Write;
use std::process::{Command, Stdio};

use tabula_ai::backgammon::rollout::Rollout;
use tabula_shared::protocol::RolloutState;
use tabula_shared::study::BgSetup;

const TRIALS: u32 = 1296;
/// The two-sided 99% normal quantile.
const Z99: f64 = 2.58;

/// Positions (XGID, no dice: the side on roll before its roll), money,
/// the cube out of play.
const POSITIONS: [(&str, &str); 5] = [
    (
        "the opening",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    ),
    (
        "a race, 72 pips to 68",
        "XGID=-ABBBCB-B-A------b-ccbbba-:0:0:1:00:0:0:0:0:10",
    ),
    (
        "bearing in against an anchor",
        "XGID=-b---BCCCCA--------cccbb--:0:0:1:00:0:0:0:0:10",
    ),
    (
        "a five-point prime, a checker on the bar",
        "XGID=-a-BBBBB-A----Cd-cb-bc---A:0:0:1:00:0:0:0:0:10",
    ),
    (
        // The Expert's 1-ply gives the prime 53% here; gnubg's 2-ply 48%.
        "a six-point prime holding two checkers",
        "XGID=-----bBBBBBB---A-----bdd--:0:0:1:00:0:0:0:0:10",
    ),
];

/// gnubg's rollout of `xgid`: (win, cubeless equity), each with its SE.
fn gnubg_rollout(xgid: &str) -> ((f64, f64), (f64, f64)) {
    let gnubg = std::env::var("TABULA_GNUBG").unwrap_or_else(|_| "/usr/games/gnubg".into());
    let commands = format!(
        "set threads 1\nset rollout trials {TRIALS}\nset rollout cubeful off\n\
         set rollout chequerplay plies 0\nset rollout varredn off\n\
         set rollout seed 1\nnew game\nset xgid {xgid}\nrollout\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("commands");
    std::fs::File::create(&input)
        .unwrap()
        .write_all(commands.as_bytes())
        .unwrap();
    // gnubg prints a rollout's results only to a terminal: `script` gives
    // it one.
    let out = Command::new("script")
        .args(["-qec"])
        .arg(format!("{gnubg} -t -q < {}", input.display()))
        .arg("/dev/null")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run gnubg through script: {e}"));
    let text = String::from_utf8_lossy(&out.stdout);
    // The last "Current Position:" block: the means, then the SEs.
    let block = text
        .rsplit("Current Position:")
        .next()
        .filter(|_| text.contains("Rollout done"))
        .unwrap_or_else(|| panic!("no rollout in gnubg's output:\n{text}"));
    let mut lines = block.lines().map(str::trim).filter(|l| !l.is_empty());
    let numbers = |line: &str| -> Vec<f64> {
        line.replace(['[', ']'], " ")
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect()
    };
    let means = numbers(lines.next().unwrap());
    let ses = numbers(lines.next().unwrap());
    // "w wg wbg - l lg lbg CL e" gives 7 numbers: 6 chances and the equity.
    assert_eq!(means.len(), 7, "{block}");
    assert_eq!(ses.len(), 7, "{block}");
    ((means[0], ses[0]), (means[6], ses[6]))
}

#[test]
fn rollouts_agree_with_gnubgs_within_their_intervals() {
    let mut report = String::new();
    let mut failures = Vec::new();
    for (name, xgid) in POSITIONS {
        let m = BgSetup::from_xgid(xgid).unwrap().to_match().unwrap();
        let mut rollout = Rollout::new(&m, 1).unwrap();
        rollout.run(TRIALS);
        let ours = rollout.report(TRIALS, RolloutState::Finished);
        let line = &ours.lines[0];
        let ((g_win, g_win_se), (g_eq, g_eq_se)) = gnubg_rollout(xgid);
        let our_eq_se = f64::from(line.cubeless_ci) / 1.96;
        // The binomial SE of our win share bounds its SE (truncated trials
        // count fractions, which only lowers it).
        let win = f64::from(line.chances.win);
        let our_win_se = (win * (1.0 - win) / f64::from(TRIALS)).sqrt();
        let eq_gap = (f64::from(line.cubeless) - g_eq).abs();
        let win_gap = (win - g_win).abs();
        let eq_allowed = Z99 * (our_eq_se.powi(2) + g_eq_se.powi(2)).sqrt();
        let win_allowed = Z99 * (our_win_se.powi(2) + g_win_se.powi(2)).sqrt();
        report += &format!(
            "{name}: equity {:+.3} ± {:.3} vs gnubg {g_eq:+.3} ± {:.3} (gap {eq_gap:.3}, \
             allowed {eq_allowed:.3}); win {win:.3} vs {g_win:.3} (gap {win_gap:.3}, allowed \
             {win_allowed:.3})\n",
            line.cubeless,
            1.96 * our_eq_se,
            1.96 * g_eq_se,
        );
        if eq_gap > eq_allowed || win_gap > win_allowed {
            failures.push(name);
        }
    }
    println!("{report}");
    assert!(failures.is_empty(), "{failures:?} disagree:\n{report}");
}
