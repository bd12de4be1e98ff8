//! Verifiable dice: matches dealt from a [`DiceStream`] and played through the
//! rules verify from their revealed seeds; a changed roll or a wrong seed is
//! caught; a million derived rolls look like fair dice.

use tabula_shared::backgammon::{BgMatch, Dice, GamePhase, MatchConfig, Side};
use tabula_shared::fair_dice::{
    DiceProof, DiceStats, DiceStream, RollPosition, ServerSeed, VerifyError, recorded_rolls, verify,
};
use tabula_shared::protocol::{BgAction, GameRecord};

fn proof_for(seed: &ServerSeed) -> DiceProof {
    let mut proof = DiceProof::commit(seed, false);
    proof.set_player_seed(Side::White, "9f2c4e71aa03").unwrap();
    proof.set_player_seed(Side::Black, "").unwrap();
    proof
}

/// Plays `actions` on towards the end of the match, dealing every roll from
/// `stream` as a server would (the next roll after the record so far), and
/// choosing plays by a fixed rule. Stops after `limit` more actions or at the
/// end of the match.
fn play_on(m: &mut BgMatch, actions: &mut Vec<BgAction>, stream: &DiceStream, limit: usize) {
    for _ in 0..limit {
        let action = match *m.phase() {
            GamePhase::OpeningRoll => {
                let [white, black] = stream.next_roll(actions);
                m.opening_roll(white, black).unwrap();
                BgAction::OpeningRoll { white, black }
            }
            GamePhase::AwaitingRoll { side } => {
                // Now and then the side on roll doubles and the other side
                // drops: games end sooner that way.
                if m.can_double(side) && actions.len().is_multiple_of(7) {
                    m.double(side).unwrap();
                    BgAction::Double { side }
                } else {
                    let dice = stream.next_roll(actions);
                    m.roll(side, Dice::new(dice[0], dice[1]).unwrap()).unwrap();
                    BgAction::Roll { side, dice }
                }
            }
            GamePhase::CubeOffered { by } => {
                m.drop_cube(by.opponent()).unwrap();
                BgAction::Drop {
                    side: by.opponent(),
                }
            }
            GamePhase::Moving { side, .. } => {
                let plays = m.legal_plays();
                let play = plays[actions.len() % plays.len()].clone();
                m.play(side, &play).unwrap();
                BgAction::Play { side, play }
            }
            GamePhase::GameOver { .. } => {
                m.start_next_game().unwrap();
                BgAction::NextGame
            }
            GamePhase::MatchOver { .. } => return,
        };
        actions.push(action);
    }
}

fn played_match(seed: &ServerSeed, proof: &DiceProof) -> (MatchConfig, Vec<BgAction>) {
    let config = MatchConfig {
        length: 5,
        ..MatchConfig::default()
    };
    let mut m = BgMatch::new(config).unwrap();
    let mut actions = Vec::new();
    play_on(&mut m, &mut actions, &proof.stream_with(seed), 100_000);
    assert!(matches!(m.phase(), GamePhase::MatchOver { .. }));
    (config, actions)
}

#[test]
fn every_roll_of_a_played_match_recomputes_from_the_revealed_seeds() {
    let mut games = 0;
    let mut ties = 0;
    for byte in 1..=6u8 {
        let seed = ServerSeed::from_bytes([byte; 32]);
        let mut proof = proof_for(&seed);
        let (config, actions) = played_match(&seed, &proof);
        games += 1 + actions
            .iter()
            .filter(|a| matches!(a, BgAction::NextGame))
            .count();
        ties += actions
            .iter()
            .filter(|a| matches!(a, BgAction::OpeningRoll { white, black } if white == black))
            .count();
        // The record replays through the rules, and its rolls verify.
        let record = GameRecord::Backgammon {
            config,
            actions: actions.clone(),
            dice: None,
        };
        record.replay().unwrap();
        assert_eq!(verify(&actions, &proof), Err(VerifyError::NotRevealed));
        proof.reveal(&seed);
        let rolls = recorded_rolls(&actions).count();
        assert_eq!(verify(&actions, &proof), Ok(rolls));
        // And still after a trip through JSON, as a saved record would take.
        let json = serde_json::to_string(&proof).unwrap();
        let proof: DiceProof = serde_json::from_str(&json).unwrap();
        assert_eq!(verify(&actions, &proof), Ok(rolls));
    }
    assert!(games > 6, "matches of several games: {games}");
    assert!(ties > 0, "tied opening rolls, rolled again");
}

#[test]
fn a_changed_roll_is_named() {
    let seed = ServerSeed::from_bytes([0x17; 32]);
    let mut proof = proof_for(&seed);
    let (_, mut actions) = played_match(&seed, &proof);
    proof.reveal(&seed);
    // Change a roll of the second game.
    let second_game = actions
        .iter()
        .position(|a| matches!(a, BgAction::NextGame))
        .unwrap();
    let (index, side, dice) = actions
        .iter()
        .enumerate()
        .skip(second_game)
        .find_map(|(i, a)| match a {
            BgAction::Roll { side, dice } => Some((i, *side, *dice)),
            _ => None,
        })
        .unwrap();
    let changed = [dice[0] % 6 + 1, dice[1]];
    actions[index] = BgAction::Roll {
        side,
        dice: changed,
    };
    let err = verify(&actions, &proof).unwrap_err();
    let VerifyError::RollMismatch {
        index: at_index,
        at,
        expected,
        recorded,
    } = err.clone()
    else {
        panic!("{err}");
    };
    assert_eq!(at_index, index);
    assert_eq!(at, RollPosition::after(&actions[..index]));
    assert_eq!(at.game, 2);
    assert_eq!(expected, dice);
    assert_eq!(recorded, changed);
    assert!(
        err.to_string()
            .contains(&format!("game 2 roll {} (record entry {index})", at.roll)),
        "{err}"
    );
}

#[test]
fn a_wrong_seed_fails_the_commitment() {
    let seed = ServerSeed::from_bytes([0x21; 32]);
    let mut proof = proof_for(&seed);
    let (_, actions) = played_match(&seed, &proof);
    let other = ServerSeed::from_bytes([0x22; 32]);
    proof.reveal(&other);
    assert_eq!(
        verify(&actions, &proof),
        Err(VerifyError::CommitmentMismatch {
            commitment: seed.commitment(),
            computed: other.commitment(),
        })
    );
    // A commitment swapped to fit the other seed passes the hash check but
    // not the dice.
    proof.commitment = other.commitment();
    assert!(matches!(
        verify(&actions, &proof),
        Err(VerifyError::RollMismatch { .. })
    ));
}

/// A takeback cuts rolls from the record; dealing from the record's place in
/// the stream deals them again, in order, as the server's re-deal queue does.
#[test]
fn rolls_cut_by_a_takeback_are_dealt_again() {
    let seed = ServerSeed::for_tests(42, "room-1");
    let mut proof = DiceProof::commit(&seed, true);
    let stream = proof.stream_with(&seed);
    // No cube, so that the first game is still on after 40 actions (a
    // takeback never reaches into an earlier game).
    let config = MatchConfig {
        length: 3,
        cube: false,
        ..MatchConfig::default()
    };
    let mut m = BgMatch::new(config).unwrap();
    let mut actions = Vec::new();
    play_on(&mut m, &mut actions, &stream, 40);
    assert!(!actions.contains(&BgAction::NextGame));
    // Back to the fourth play from the end: several rolls are cut.
    let plays: Vec<usize> = actions
        .iter()
        .enumerate()
        .filter(|(_, a)| matches!(a, BgAction::Play { .. }))
        .map(|(i, _)| i)
        .collect();
    let cut = plays[plays.len() - 4];
    let cut_rolls: Vec<[u8; 2]> = actions[cut..]
        .iter()
        .filter_map(|a| match a {
            BgAction::Roll { dice, .. } => Some(*dice),
            _ => None,
        })
        .collect();
    actions.truncate(cut);
    let mut m = match (GameRecord::Backgammon {
        config,
        actions: actions.clone(),
        dice: None,
    })
    .replay()
    .unwrap()
    {
        tabula_shared::game::LiveGame::Backgammon(m) => m,
        tabula_shared::game::LiveGame::Gomoku(_) => unreachable!(),
    };
    play_on(&mut m, &mut actions, &stream, 100_000);
    let dealt_again: Vec<[u8; 2]> = actions[cut..]
        .iter()
        .filter_map(|a| match a {
            BgAction::Roll { dice, .. } => Some(*dice),
            _ => None,
        })
        .take(cut_rolls.len())
        .collect();
    assert!(cut_rolls.len() >= 3);
    assert_eq!(dealt_again, cut_rolls);
    proof.reveal(&seed);
    assert!(proof.test_seed);
    assert_eq!(
        verify(&actions, &proof),
        Ok(recorded_rolls(&actions).count())
    );
}

/// Derives `rolls` rolls and checks that they look like fair dice: each
/// face, each of the 21 distinct rolls and the doubles within 5 standard
/// deviations of their expected counts, and chi-square p-values that are not
/// tiny.
fn check_fair(rolls: u32) {
    let seed = ServerSeed::from_bytes(std::array::from_fn(|i| (i * 7 + 1) as u8));
    let stream = DiceStream::new(&seed, ["white", "black"]);
    let mut stats = DiceStats::default();
    for dice in stream.game(1).take(rolls as usize) {
        stats.add_roll(dice);
    }
    let n = f64::from(rolls);
    assert_eq!(stats.roll_count(), u64::from(rolls));
    // Each count within 5 standard deviations of its expectation.
    let within = |observed: u64, p: f64, trials: f64| {
        let sd = (trials * p * (1.0 - p)).sqrt();
        (observed as f64 - trials * p).abs() < 5.0 * sd
    };
    for (face, &count) in stats.faces.iter().enumerate() {
        assert!(
            within(count, 1.0 / 6.0, 2.0 * n),
            "face {}: {count}",
            face + 1
        );
    }
    for ((dice, weight), &count) in Dice::ALL_21.iter().zip(&stats.rolls) {
        let p = f64::from(*weight) / 36.0;
        assert!(within(count, p, n), "roll {dice}: {count}");
    }
    assert!(within(stats.doubles(), 1.0 / 6.0, n));
    for test in [stats.face_test(), stats.roll_test(), stats.doubles_test()] {
        let test = test.unwrap();
        assert!(test.p_value > 1e-4, "{test:?}");
    }
}

/// A debug build derives a million rolls in about 4 s of CPU time.
#[test]
fn a_million_derived_rolls_look_fair() {
    check_fair(1_000_000);
}

/// A 1-point match as an export keeps it: the config, the actions and the
/// dice proof. The Python procedure in docs/DICE.md verifies the same file
/// (47 rolls).
#[test]
fn known_record_verifies() {
    #[derive(serde::Deserialize)]
    struct Export {
        config: MatchConfig,
        actions: Vec<BgAction>,
        dice: DiceProof,
    }
    let export: Export = serde_json::from_str(include_str!("dice/known_match.json")).unwrap();
    let record = GameRecord::Backgammon {
        config: export.config,
        actions: export.actions.clone(),
        dice: None,
    };
    record.replay().unwrap();
    assert!(!export.dice.test_seed);
    assert_eq!(verify(&export.actions, &export.dice), Ok(47));
}

/// The exports keep the proof: the `.mat` file in comment lines, gnubg's SGF
/// in each game's root comment, with the revealed server seed and both
/// player seeds, so that the match can be checked from the file.
#[test]
fn exports_keep_the_dice_proof() {
    use tabula_shared::export::{ExportFormat, ExportMeta, export};
    #[derive(serde::Deserialize)]
    struct Export {
        config: MatchConfig,
        actions: Vec<BgAction>,
        dice: DiceProof,
    }
    let known: Export = serde_json::from_str(include_str!("dice/known_match.json")).unwrap();
    let seed = known.dice.server_seed.clone().expect("revealed");
    let record = GameRecord::Backgammon {
        config: known.config,
        actions: known.actions,
        dice: Some(known.dice.clone()),
    };
    let meta = ExportMeta {
        players: ["Ada".into(), "Bob".into()],
        ..ExportMeta::default()
    };
    let mat = export(&record, &meta, ExportFormat::Mat).unwrap();
    for line in [
        "; [Dice Scheme \"tabula-dice-v1\"]".to_string(),
        format!("; [Dice Commitment \"{}\"]", known.dice.commitment),
        format!("; [Dice Server Seed \"{seed}\"]"),
        format!("; [Dice White Seed \"{}\"]", known.dice.player_seeds[0]),
        format!("; [Dice Black Seed \"{}\"]", known.dice.player_seeds[1]),
    ] {
        assert!(mat.lines().any(|l| l == line), "{line} missing from\n{mat}");
    }
    // The proof is in the header, before the match line.
    let header = mat.split(" point match").next().unwrap();
    assert!(header.contains("Dice Commitment"));
    let sgf = export(&record, &meta, ExportFormat::GnubgSgf).unwrap();
    assert!(sgf.contains(&format!("Dice server seed: {seed}")), "{sgf}");
    assert!(sgf.contains(&format!("Dice commitment: {}", known.dice.commitment)));
}

/// The JSON export is the record itself, dice proof included: every roll
/// verifies from the file alone.
#[test]
fn the_json_export_alone_verifies_the_dice() {
    use tabula_shared::export::{ExportFormat, ExportMeta, export};
    #[derive(serde::Deserialize)]
    struct Export {
        config: MatchConfig,
        actions: Vec<BgAction>,
        dice: DiceProof,
    }
    let known: Export = serde_json::from_str(include_str!("dice/known_match.json")).unwrap();
    let record = GameRecord::Backgammon {
        config: known.config,
        actions: known.actions,
        dice: Some(known.dice),
    };
    let text = export(&record, &ExportMeta::default(), ExportFormat::TabulaJson).unwrap();
    let read: GameRecord = serde_json::from_str(&text).unwrap();
    let GameRecord::Backgammon { actions, dice, .. } = read else {
        panic!("not a Backgammon record");
    };
    assert_eq!(verify(&actions, &dice.expect("proof kept")), Ok(47));
}
