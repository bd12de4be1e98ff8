//! Gomoku export: SGF and Piskvork PSQ written by `export` and read back by
//! `import` give the same record (several sizes, rule sets and swap2
//! openings), the text has the documented shape, and malformed files are
//! refused with an error, never a panic.

use proptest::prelude::*;
use tabula_shared::backgammon::MatchConfig;
use tabula_shared::export::{ExportError, ExportFormat, ExportMeta, ImportError, export, import};
use tabula_shared::game::ReplayError;
use tabula_shared::gomoku::{
    Gomoku, GomokuAction, GomokuConfig, Opening, Phase, Point, Rule, Swap2Choice,
};
use tabula_shared::protocol::{GameKind, GameRecord};
use tabula_shared::seat::Seat;

const FORMATS: [ExportFormat; 2] = [ExportFormat::GomokuSgf, ExportFormat::Psq];

fn cfg(size: u8, rule: Rule, opening: Opening) -> GomokuConfig {
    GomokuConfig {
        size,
        rule,
        opening,
    }
}

fn place(seat: Seat, s: &str) -> GomokuAction {
    GomokuAction::Place {
        seat,
        point: s.parse().unwrap(),
    }
}

fn choose(seat: Seat, choice: Swap2Choice) -> GomokuAction {
    GomokuAction::Choose { seat, choice }
}

use Seat::{First as F, Second as S};

/// Checks the record against the rules and wraps it.
fn record(config: GomokuConfig, actions: Vec<GomokuAction>) -> GameRecord {
    Gomoku::replay(config, &actions).expect("test record replays");
    GameRecord::Gomoku { config, actions }
}

fn meta() -> ExportMeta {
    ExportMeta {
        players: ["Alice [a]\\b".into(), "Bob, Jr.".into()],
        date: Some("2026-01-31".into()),
        event: Some("Room 12".into()),
        result: None,
    }
}

/// A random game: random empty points (skipping forbidden ones), random
/// swap2 choices, until the game ends or `max` stones are placed.
fn random_game(config: GomokuConfig, seed: u64, max: usize) -> GameRecord {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut g = Gomoku::new(config).unwrap();
    let n = u64::from(config.size);
    let mut stones = 0;
    while let Some(seat) = g.to_act() {
        match g.phase() {
            Phase::Swap2Choose | Phase::Swap2FinalChoose => {
                let options: &[Swap2Choice] = if g.phase() == Phase::Swap2Choose {
                    &[
                        Swap2Choice::PlayBlack,
                        Swap2Choice::PlayWhite,
                        Swap2Choice::PlaceTwo,
                    ]
                } else {
                    &[Swap2Choice::PlayBlack, Swap2Choice::PlayWhite]
                };
                let c = options[(next() % options.len() as u64) as usize];
                g.choose(seat, c).unwrap();
            }
            _ => {
                if stones >= max {
                    break;
                }
                for _ in 0..10_000 {
                    let p = Point::new((next() % n) as u8, (next() % n) as u8);
                    if g.play(seat, p).is_ok() {
                        stones += 1;
                        break;
                    }
                }
            }
        }
    }
    GameRecord::Gomoku {
        config,
        actions: g.actions().to_vec(),
    }
}

fn round_trip(rec: &GameRecord, meta: &ExportMeta) {
    for format in FORMATS {
        let text = export(rec, meta, format).unwrap_or_else(|e| panic!("{format:?}: {e}"));
        let back = import(&text, format).unwrap_or_else(|e| panic!("{format:?}: {e}\n{text}"));
        assert_eq!(&back.record, rec, "{format:?} record\n{text}");
        let mut want = meta.clone();
        if format == ExportFormat::Psq {
            // PSQ keeps only the names.
            want.date = None;
            want.event = None;
        }
        assert_eq!(back.meta, want, "{format:?} meta\n{text}");
        // Exporting the import again gives the same text.
        assert_eq!(
            export(&back.record, &back.meta, format).unwrap(),
            export(rec, &back.meta, format).unwrap()
        );
    }
}

/// A freestyle game on 15x15: black wins with a row on the 8th rank.
fn freestyle_win() -> GameRecord {
    record(
        cfg(15, Rule::Freestyle, Opening::None),
        vec![
            place(F, "h8"),
            place(S, "h9"),
            place(F, "i8"),
            place(S, "i9"),
            place(F, "j8"),
            place(S, "j9"),
            place(F, "k8"),
            place(S, "a15"),
            place(F, "l8"),
        ],
    )
}

/// Swap2: the second seat places two more, the first seat then takes white.
fn swap2_place_two() -> GameRecord {
    record(
        cfg(15, Rule::Freestyle, Opening::Swap2),
        vec![
            place(F, "h8"),
            place(F, "i9"),
            place(F, "g7"),
            choose(S, Swap2Choice::PlaceTwo),
            place(S, "j10"),
            place(S, "a1"),
            choose(F, Swap2Choice::PlayWhite),
            place(F, "o15"),
            place(S, "b2"),
        ],
    )
}

/// Swap2 on renju: the second seat takes white at once.
fn swap2_play_white() -> GameRecord {
    record(
        cfg(15, Rule::Renju, Opening::Swap2),
        vec![
            place(F, "h8"),
            place(F, "h9"),
            place(F, "i8"),
            choose(S, Swap2Choice::PlayWhite),
            place(S, "j8"),
            place(F, "g8"),
        ],
    )
}

#[test]
fn hand_made_games_round_trip() {
    for rec in [freestyle_win(), swap2_place_two(), swap2_play_white()] {
        round_trip(&rec, &meta());
    }
    // An empty game and a swap2 game stopped before the colours are known.
    round_trip(
        &record(cfg(19, Rule::Standard, Opening::None), vec![]),
        &meta(),
    );
    round_trip(
        &record(
            cfg(9, Rule::Renju, Opening::Swap2),
            vec![place(F, "e5"), place(F, "a1"), place(F, "i9")],
        ),
        &meta(),
    );
}

#[test]
fn random_games_round_trip() {
    let mut n = 0;
    for (size, rule, opening) in [
        (15, Rule::Freestyle, Opening::None),
        (15, Rule::Renju, Opening::None),
        (19, Rule::Standard, Opening::Swap2),
        (9, Rule::Freestyle, Opening::Swap2),
        (25, Rule::Renju, Opening::Swap2),
        (10, Rule::Standard, Opening::None),
    ] {
        for seed in 0..8 {
            let rec = random_game(cfg(size, rule, opening), seed, 400);
            round_trip(&rec, &meta());
            n += 1;
        }
    }
    assert_eq!(n, 48);
}

#[test]
fn sgf_shape() {
    let text = export(&freestyle_win(), &meta(), ExportFormat::GomokuSgf).unwrap();
    assert!(
        text.starts_with("(;FF[4]GM[4]CA[UTF-8]AP[Tabula:"),
        "{text}"
    );
    for part in [
        "SZ[15]",
        "RU[freestyle]",
        "PB[Alice [a\\]\\\\b]",
        "PW[Bob, Jr.]",
        "DT[2026-01-31]",
        "EV[Room 12]",
        "RE[B+]",
        // h8 is the centre; rows count from the top: h9 is "hg", a15 "aa".
        "\n;B[hh]\n;W[hg]",
        ";W[aa]",
    ] {
        assert!(text.contains(part), "{part:?} missing in\n{text}");
    }
    assert!(text.trim_end().ends_with(";B[lh])"), "{text}");

    // Swap2: choices are nodes of their own; PB is whoever ended up black.
    let text = export(&swap2_place_two(), &meta(), ExportFormat::GomokuSgf).unwrap();
    assert!(text.contains("RU[freestyle swap2]"), "{text}");
    assert!(text.contains("\n;SC[place_two]C["), "{text}");
    assert!(text.contains("\n;SC[play_white]C["), "{text}");
    // The first seat chose white, so the second seat (Bob) is black.
    assert!(text.contains("PB[Bob, Jr.]PW[Alice [a\\]\\\\b]"), "{text}");
    assert!(
        text.contains(";B[ao]"),
        "a1 is the bottom-left corner: {text}"
    );
    assert!(
        !text.contains("RE["),
        "unfinished game has no result: {text}"
    );
}

#[test]
fn psq_shape() {
    let text = export(&freestyle_win(), &meta(), ExportFormat::Psq).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Piskvorky 15x15, 11:11, 0");
    // h8 -> 8,8 ; h9 is one row up: y counts from the top.
    assert_eq!(lines[1], "8,8,0");
    assert_eq!(lines[2], "8,7,0");
    assert_eq!(lines[8], "1,1,0"); // a15 is the top-left corner
    assert_eq!(lines[10], "Alice [a]\\b");
    assert_eq!(lines[11], "Bob, Jr.");
    assert_eq!(lines[12], "rule freestyle");
    assert_eq!(lines.len(), 13);

    let text = export(&swap2_place_two(), &meta(), ExportFormat::Psq).unwrap();
    assert!(
        text.contains("\nopening swap2\nchoice 3 place_two\nchoice 5 play_white\n"),
        "{text}"
    );
    assert!(
        text.contains("\n1,15,0\n"),
        "a1 is the bottom-left corner: {text}"
    );

    // A name that would read as a move line loses its commas.
    let m = ExportMeta {
        players: ["1,2,3".into(), "".into()],
        ..ExportMeta::default()
    };
    let text = export(&freestyle_win(), &m, ExportFormat::Psq).unwrap();
    let back = import(&text, ExportFormat::Psq).unwrap();
    assert_eq!(back.record, freestyle_win());
    assert_eq!(
        back.meta.players,
        ["1 2 3".to_string(), "Player 2".to_string()]
    );
}

#[test]
fn reads_foreign_files() {
    // An SGF from elsewhere: FF[3]-style lowercase identifiers, spaces,
    // a variation (the main line is read), no RU (freestyle).
    let sgf = "(;GaMe[4]SZ[15]PB[x]PW[y] ;B[hh] ;W[ih] (;B[jj];W[kk]) (;B[aa]))";
    let g = import(sgf, ExportFormat::GomokuSgf).unwrap();
    let GameRecord::Gomoku { config, actions } = &g.record else {
        panic!()
    };
    assert_eq!(*config, cfg(15, Rule::Freestyle, Opening::None));
    assert_eq!(actions.len(), 4);
    assert_eq!(g.meta.players, ["x".to_string(), "y".to_string()]);

    // A Gomocup-style PSQ: Windows line ends, brain names, "-1".
    let psq = "Piskvorky 20x20, 11:11, 0\r\n10,10,1000\r\n11,11,2000\r\n9,9,500\r\npbrain-a.zip\r\npbrain-b.zip\r\n-1\r\n";
    let g = import(psq, ExportFormat::Psq).unwrap();
    let GameRecord::Gomoku { config, actions } = &g.record else {
        panic!()
    };
    assert_eq!(*config, cfg(20, Rule::Freestyle, Opening::None));
    assert_eq!(
        actions[0],
        GomokuAction::Place {
            seat: F,
            point: Point::new(9, 10)
        }
    );
    assert_eq!(actions.len(), 3);
    assert_eq!(
        g.meta.players,
        ["pbrain-a.zip".to_string(), "pbrain-b.zip".to_string()]
    );
}

#[test]
fn malformed_files_are_refused() {
    let sgf_bad = [
        "",
        "no tree here",
        "(",
        "(;",
        "()",
        "(;GM[4]",
        "(;GM[4]SZ[15];B[hh]",
        "(;GM[4]SZ[15];B[hh)",
        "(;GM[1]SZ[19];B[dd])",
        "(;GM[4]SZ[15:13];B[hh])",
        "(;GM[4]SZ[abc];B[hh])",
        "(;GM[4]SZ[8];B[dd])",
        "(;GM[4]SZ[99];B[dd])",
        "(;GM[4]SZ[15]RU[chess];B[hh])",
        "(;GM[4]SZ[15];B[zz])",
        "(;GM[4]SZ[15];B[h])",
        "(;GM[4]SZ[15];B[])",
        "(;GM[4]SZ[15];B[hh];B[ii])",
        "(;GM[4]SZ[15];W[hh])",
        "(;GM[4]SZ[15];B[hh];W[hh])",
        "(;GM[4]SZ[15];B[hh]W[ii])",
        "(;GM[4]SZ[15]AB[hh])",
        "(;GM[4]SZ[15];SC[play_white])",
        "(;GM[4]SZ[15]RU[swap2];B[hh];W[ii];B[jj];SC[dance])",
        "(;GM[4]SZ[15]RU[swap2];B[hh];W[ii];B[jj];W[kk])",
        "(;GM[4]SZ[15];B[hh]X)",
        "(;GM[4]SZ[15];B[hh]\\",
        "(;GM[4]SZ[15];B[aa];W[ab];B[ba];W[bb];B[ca];W[cb];B[da];W[db];B[ea];W[eb])",
    ];
    for s in sgf_bad {
        assert!(
            import(s, ExportFormat::GomokuSgf).is_err(),
            "SGF {s:?} was accepted"
        );
    }
    let psq_bad = [
        "",
        "Gomoku 15x15",
        "Piskvorky",
        "Piskvorky 15",
        "Piskvorky 15x13, 11:11, 0",
        "Piskvorky axb, 11:11, 0",
        "Piskvorky 8x8, 11:11, 0",
        "Piskvorky 9999x9999, 11:11, 0",
        "Piskvorky 15x15, 11:11, 0\n0,1,0",
        "Piskvorky 15x15, 11:11, 0\n16,1,0",
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0",
        "Piskvorky 15x15, 11:11, 0\n8,8,0\na\nb\nrule chess",
        "Piskvorky 15x15, 11:11, 0\n8,8,0\na\nb\nopening swap9",
        "Piskvorky 15x15, 11:11, 0\n8,8,0\na\nb\nopening swap2\nchoice 1 play_white",
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n7,7,0\na\nb\nopening swap2\nchoice 3 dance",
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n7,7,0\na\nb\nopening swap2\nchoice 9 play_white",
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n7,7,0\na\nb\nopening swap2\nchoice x play_white",
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n7,7,0\na\nb\nopening swap2\nchoice 3 place_two\nchoice 3 play_white",
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n7,7,0\na\nb\nrule renju extra",
        "Piskvorky 15x15, 11:11, 0\n1,1,0\n1,2,0\n2,1,0\n2,2,0\n3,1,0\n3,2,0\n4,1,0\n4,2,0\n5,1,0\n5,2,0",
    ];
    for s in psq_bad {
        assert!(
            import(s, ExportFormat::Psq).is_err(),
            "PSQ {s:?} was accepted"
        );
    }
    // The Backgammon formats are not read back.
    assert_eq!(
        import("", ExportFormat::Mat),
        Err(ImportError::NotSupported(ExportFormat::Mat))
    );
}

#[test]
fn export_errors() {
    let bg = GameRecord::Backgammon {
        config: MatchConfig::default(),
        actions: vec![],
        dice: None,
    };
    for format in FORMATS {
        assert!(matches!(
            export(&bg, &meta(), format),
            Err(ExportError::WrongGame {
                expected: GameKind::Gomoku,
                got: GameKind::Backgammon,
                ..
            })
        ));
    }
    let go = freestyle_win();
    assert!(matches!(
        export(&go, &meta(), ExportFormat::Mat),
        Err(ExportError::WrongGame { .. })
    ));
    // A stone on an occupied point: the record does not replay.
    let bad = GameRecord::Gomoku {
        config: GomokuConfig::default(),
        actions: vec![place(F, "h8"), place(S, "h8")],
    };
    for format in FORMATS {
        assert!(matches!(
            export(&bad, &meta(), format),
            Err(ExportError::Replay(ReplayError::Gomoku { index: 1, .. }))
        ));
    }
    assert_eq!(ExportFormat::for_record(&go), &FORMATS);
    assert_eq!(
        ExportFormat::for_record(&bg),
        &[
            ExportFormat::Mat,
            ExportFormat::GnubgSgf,
            ExportFormat::TabulaJson
        ]
    );
    let twice = GameRecord::Backgammon {
        config: MatchConfig {
            doubles_twice: true,
            ..MatchConfig::default()
        },
        actions: vec![],
        dice: None,
    };
    assert!(ExportFormat::for_record(&twice).is_empty());
    assert!(matches!(
        export(&twice, &meta(), ExportFormat::Mat),
        Err(ExportError::Unsupported(_))
    ));
    for f in ExportFormat::ALL {
        assert!(!f.extension().is_empty() && !f.label().is_empty());
        let j = serde_json::to_string(&f).unwrap();
        assert_eq!(serde_json::from_str::<ExportFormat>(&j).unwrap(), f);
    }
    assert_eq!(
        serde_json::to_string(&ExportFormat::GnubgSgf).unwrap(),
        "\"gnubg_sgf\""
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any text: the parsers answer, they do not panic.
    #[test]
    fn parsers_never_panic_on_any_text(s in "\\PC{0,300}") {
        let _ = import(&s, ExportFormat::GomokuSgf);
        let _ = import(&s, ExportFormat::Psq);
    }

    /// Text made of the formats' own characters, more likely to get deep.
    #[test]
    fn parsers_never_panic_on_near_misses(
        s in "[();\\[\\]\\\\A-Z a-z0-9,:\n-]{0,300}",
        psq_tail in "[0-9,\n a-z_]{0,200}",
    ) {
        let _ = import(&s, ExportFormat::GomokuSgf);
        let _ = import(&format!("(;GM[4]SZ[15]{s}"), ExportFormat::GomokuSgf);
        let _ = import(&format!("Piskvorky 15x15, 11:11, 0\n{psq_tail}"), ExportFormat::Psq);
    }

    /// A valid export with one character changed, removed or inserted:
    /// either an error or a record the rules accept.
    #[test]
    fn mutated_exports_never_panic(
        seed in 0u64..1000,
        swap2 in any::<bool>(),
        pos in any::<prop::sample::Index>(),
        byte in 32u8..127,
        op in 0u8..3,
    ) {
        let opening = if swap2 { Opening::Swap2 } else { Opening::None };
        let rec = random_game(cfg(15, Rule::Renju, opening), seed, 60);
        for format in FORMATS {
            let text = export(&rec, &ExportMeta::default(), format).unwrap();
            let mut chars: Vec<char> = text.chars().collect();
            let i = pos.index(chars.len().max(1)).min(chars.len().saturating_sub(1));
            match op {
                0 if !chars.is_empty() => chars[i] = char::from(byte),
                1 if !chars.is_empty() => { chars.remove(i); }
                _ => chars.insert(i, char::from(byte)),
            }
            let mutated: String = chars.into_iter().collect();
            if let Ok(g) = import(&mutated, format) {
                prop_assert!(g.record.replay().is_ok());
            }
        }
    }

    /// Random games of every size and rule round-trip through both formats.
    #[test]
    fn random_games_round_trip_prop(
        seed in any::<u64>(),
        size in 9u8..=25,
        rule in prop_oneof![Just(Rule::Freestyle), Just(Rule::Standard), Just(Rule::Renju)],
        swap2 in any::<bool>(),
        max in 0usize..120,
    ) {
        let opening = if swap2 { Opening::Swap2 } else { Opening::None };
        let rec = random_game(cfg(size, rule, opening), seed, max);
        round_trip(&rec, &meta());
    }
}

#[test]
fn a_resignation_known_to_the_caller_is_written_as_re() {
    use tabula_shared::protocol::{EndReason, GameResult};
    use tabula_shared::seat::Seat;
    let record = GameRecord::Gomoku {
        config: GomokuConfig::default(),
        actions: vec![GomokuAction::Place {
            seat: Seat::First,
            point: Point::new(7, 7),
        }],
    };
    let resigned = |winner| ExportMeta {
        result: Some(GameResult {
            winner,
            reason: EndReason::Resigned,
            line: Vec::new(),
            score: None,
        }),
        ..meta()
    };
    let text = export(
        &record,
        &resigned(Some(Seat::Second)),
        ExportFormat::GomokuSgf,
    )
    .unwrap();
    assert!(text.contains("RE[W+R]"), "{text}");
    let text = export(
        &record,
        &resigned(Some(Seat::First)),
        ExportFormat::GomokuSgf,
    )
    .unwrap();
    assert!(text.contains("RE[B+R]"), "{text}");
    let text = export(&record, &meta(), ExportFormat::GomokuSgf).unwrap();
    assert!(
        !text.contains("RE["),
        "nothing known, nothing written: {text}"
    );
    // It still reads back as the same moves.
    let back = import(&text, ExportFormat::GomokuSgf).unwrap();
    assert_eq!(back.record, record);
}
