//! Backgammon export checked by GNU Backgammon itself.
//!
//! Matches are played through [`BgMatch`] with seeded dice and simple
//! deterministic players (several games, taken and dropped doubles, a
//! redouble, hits, bear-offs, a gammon, a resignation, a Crawford game, a
//! money game). Each is exported as Jellyfish `.mat` and as gnubg SGF, and
//! `/usr/games/gnubg -t -q -p tests/gnubg/import_check.py` imports every
//! file (`import mat` / `load match`) and reports what it read: the games,
//! each game's actions (with gnubg's own reading of every move) and result.
//! The test then checks, game by game, that gnubg read the same number of
//! games, the same actions by the same players with the same dice, moves
//! that lead to the same positions, the same winners, points and
//! resignations, and the same final match score.
//!
//! The test fails (does not skip) if gnubg is missing. `TABULA_GNUBG`
//! overrides the path.

mod expected;
mod gnubg;
mod matches;

use std::collections::BTreeMap;

use tabula_shared::backgammon::{EndReason, GameResultKind, ResignKind, Side};
use tabula_shared::export::{ExportFormat, ExportMeta, export};
use tabula_shared::protocol::{BgAction, GameRecord};

use expected::{Exp, expected};
use gnubg::{compare, run_gnubg};
use matches::{Builder, Plan, config};

struct Case {
    name: &'static str,
    record: GameRecord,
}

fn cases() -> Vec<Case> {
    let plans = [
        Plan::DoubleTake { at: 6 },
        Plan::DoubleDrop { at: 4 },
        Plan::Plain,
        Plan::Resign {
            at: 12,
            kind: ResignKind::Gammon,
        },
        Plan::Redouble { at: 5, again: 9 },
    ];
    // A long match with a gammon won on the board, a redouble and a
    // Crawford game: the first seed that gives all three (deterministic).
    let mut long = None;
    for seed in 1..2000 {
        let record = Builder::new(config(9, true, false), seed).play_match(&plans, 40);
        let (games, _) = expected(&record);
        let gammon = games.iter().any(|g| {
            g.reason == Some(EndReason::BearOff) && g.kind != Some(GameResultKind::Single)
        });
        let crawford = games.iter().any(|g| g.crawford);
        let redouble = games.iter().any(|g| {
            g.actions
                .iter()
                .filter(|a| matches!(a, Exp::Take(_)))
                .count()
                >= 2
        });
        if gammon && crawford && redouble {
            long = Some(record);
            break;
        }
    }
    vec![
        Case {
            name: "match9",
            record: long.expect("no seed gives a gammon, a redouble and a Crawford game"),
        },
        Case {
            name: "match5",
            record: Builder::new(config(5, true, false), 7).play_match(&plans[1..], 40),
        },
        Case {
            name: "money",
            record: Builder::new(config(0, false, false), 3)
                .play_match(&[Plan::DoubleTake { at: 3 }], 1),
        },
        Case {
            name: "money_jacoby_resign",
            record: Builder::new(config(0, false, true), 11).play_match(
                &[Plan::Resign {
                    at: 9,
                    kind: ResignKind::Gammon,
                }],
                1,
            ),
        },
        Case {
            // gnubg's .mat reader assumes the Crawford rule unless told
            // otherwise: game 2 starts at match point with a double.
            name: "match3_no_crawford",
            record: Builder::new(config(3, false, false), 2)
                .play_match(&[Plan::DoubleDrop { at: 3 }, Plan::DoubleTake { at: 1 }], 5),
        },
        Case {
            name: "resign_facing_a_double",
            record: Builder::new(config(7, true, false), 4)
                .play_match(&[Plan::DoubleResign { at: 3 }, Plan::Plain], 2),
        },
        Case {
            // The record stops in the middle of game 2.
            name: "unfinished",
            record: {
                let full = Builder::new(config(7, true, false), 9)
                    .play_match(&[Plan::DoubleDrop { at: 3 }, Plan::Plain], 2);
                let GameRecord::Backgammon {
                    config, actions, ..
                } = full
                else {
                    unreachable!()
                };
                let next = actions
                    .iter()
                    .position(|a| *a == BgAction::NextGame)
                    .expect("two games");
                GameRecord::Backgammon {
                    config,
                    actions: actions[..next + 30].to_vec(),
                    dice: None,
                }
            },
        },
        Case {
            name: "one_point",
            record: Builder::new(config(1, true, false), 5).play_match(&[Plan::Plain], 1),
        },
    ]
}

/// What the cases cover, so that a change in the players does not quietly
/// drop a feature from the test.
fn coverage(cases: &[Case]) -> BTreeMap<&'static str, usize> {
    let mut c = BTreeMap::new();
    for case in cases {
        let GameRecord::Backgammon { actions, .. } = &case.record else {
            continue;
        };
        let (games, _) = expected(&case.record);
        *c.entry("games").or_default() += games.len();
        for g in &games {
            if g.crawford {
                *c.entry("Crawford games").or_default() += 1;
            }
            if g.actions
                .iter()
                .filter(|a| matches!(a, Exp::Take(_)))
                .count()
                >= 2
            {
                *c.entry("redoubles").or_default() += 1;
            }
            if g.reason == Some(EndReason::BearOff) {
                *c.entry("bear-off wins").or_default() += 1;
                if g.end.is_some_and(|(w, _, _)| w == Side::Black) {
                    *c.entry("bear-off wins by Black").or_default() += 1;
                }
                if g.kind != Some(GameResultKind::Single) {
                    *c.entry("gammons on the board").or_default() += 1;
                }
            }
            if g.reason == Some(EndReason::Resigned) {
                *c.entry("resignations").or_default() += 1;
            }
            for a in &g.actions {
                match a {
                    Exp::Take(_) => *c.entry("takes").or_default() += 1,
                    Exp::Drop(_) => *c.entry("drops").or_default() += 1,
                    Exp::Move { before, after, .. } => {
                        if after.o_bar() > before.o_bar() {
                            *c.entry("hits").or_default() += 1;
                        }
                        if before.x_bar() > 0 {
                            *c.entry("moves from the bar").or_default() += 1;
                        }
                        if before == after {
                            *c.entry("no-move rolls").or_default() += 1;
                        }
                    }
                    _ => {}
                }
            }
        }
        let _ = actions;
    }
    c
}

#[test]
fn gnubg_reads_our_mat_and_sgf() {
    let cases = cases();
    let cov = coverage(&cases);
    eprintln!("coverage: {cov:?}");
    for need in [
        "takes",
        "drops",
        "hits",
        "bear-off wins",
        "gammons on the board",
        "resignations",
        "moves from the bar",
        "no-move rolls",
        "Crawford games",
        "redoubles",
        "bear-off wins by Black",
    ] {
        assert!(
            cov.get(need).copied().unwrap_or(0) > 0,
            "no {need} in the cases"
        );
    }

    let dir = std::env::temp_dir().join(format!("tabula-export-gnubg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let meta = ExportMeta {
        players: ["Alice Smith".into(), "Bob".into()],
        date: Some("2026-01-31".into()),
        event: Some("Tabula test".into()),
        result: None,
    };
    let mut files = Vec::new();
    for case in &cases {
        assert_eq!(
            ExportFormat::for_record(&case.record),
            &[
                ExportFormat::Mat,
                ExportFormat::GnubgSgf,
                ExportFormat::TabulaJson
            ]
        );
        for (kind, format) in [("mat", ExportFormat::Mat), ("sgf", ExportFormat::GnubgSgf)] {
            let text = export(&case.record, &meta, format).unwrap();
            let path = dir.join(format!("{}.{}", case.name, format.extension()));
            std::fs::write(&path, text).unwrap();
            files.push((kind.to_string(), path));
        }
    }
    let results = run_gnubg(&dir, &files);
    let mut diffs = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let (games, score) = expected(&case.record);
        for (j, kind) in ["mat", "sgf"].iter().enumerate() {
            let got = &results[2 * i + j];
            let label = format!("{}.{kind}", case.name);
            let GameRecord::Backgammon { config, .. } = &case.record else {
                unreachable!()
            };
            // A .mat file cannot say "no Crawford rule": gnubg assumes it,
            // so there it marks a Crawford game the match did not have
            // (and still accepts the double played in it).
            let check_crawford = *kind == "sgf" || config.crawford || config.length == 0;
            diffs.extend(compare(&label, got, &games, score, check_crawford));
            let names = &got["names"];
            // gnubg 1.07 keeps the spaces in names read from the game
            // header lines of a .mat file.
            let want = ["Alice Smith", "Bob"];
            if names[0] != want[0] || names[1] != want[1] {
                diffs.push(format!("{label}: names {names}, expected {want:?}"));
            }
            let length = got["match_length"].as_u64();
            if length != Some(u64::from(config.length)) {
                diffs.push(format!(
                    "{label}: match length {length:?}, expected {}",
                    config.length
                ));
            }
        }
    }
    assert!(
        diffs.is_empty(),
        "gnubg disagrees (files in {}):\n{}",
        dir.display(),
        diffs.join("\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
