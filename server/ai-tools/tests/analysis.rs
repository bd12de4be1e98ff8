//! The reviews of finished games and the hints, checked on games and
//! positions whose mistakes are known.

use std::time::Duration;

use tabula_ai::analysis::{self, GOMOKU_NODES};
use tabula_ai::{Level, gomoku};
use tabula_ai_tools::sample_games;
use tabula_shared::backgammon::{BgMatch, MatchConfig, Side};
use tabula_shared::game::{BgAction, LiveGame, apply_bg};
use tabula_shared::gomoku::{Gomoku, GomokuAction, GomokuConfig, Point};
use tabula_shared::protocol::{
    BgDecisionKind, ERROR_MP, GameAnalysis, GameRecord, GomokuMistake, INACCURACY_MP, Mark,
    PlayerAction,
};
use tabula_shared::seat::{Seat, seat_of};

/// A Gomoku record of `moves` (freestyle 15×15, no opening rule), each
/// `(x, y)` placed by the side to act.
fn gomoku_record(moves: &[(u8, u8)]) -> GameRecord {
    let config = GomokuConfig::default();
    let mut game = Gomoku::new(config).unwrap();
    let mut actions = Vec::new();
    for &(x, y) in moves {
        let seat = game.to_act().expect("someone to act");
        let action = GomokuAction::Place {
            seat,
            point: Point::new(x, y),
        };
        game.apply(action).unwrap();
        actions.push(action);
    }
    GameRecord::Gomoku { config, actions }
}

/// The AIs' budget per decision in the sample Backgammon games.
const BUDGET: Duration = Duration::from_millis(50);

fn gomoku_analysis(record: &GameRecord) -> tabula_shared::protocol::GomokuAnalysis {
    match analysis::analyse(record, 20_000, &mut |_, _| {}).unwrap() {
        GameAnalysis::Gomoku(a) => a,
        GameAnalysis::Backgammon(_) => panic!("a gomoku record gives a gomoku analysis"),
    }
}

#[test]
fn a_gomoku_review_finds_the_missed_block_and_the_missed_win() {
    // Black builds h8-i8-j8 (an open three) while White plays on the a
    // file; White's third stone lets Black make an open four, and Black
    // then plays elsewhere instead of the five; White makes its own five.
    let record = gomoku_record(&[
        (7, 7),  // B h8
        (0, 0),  // W a1
        (8, 7),  // B i8
        (0, 1),  // W a2
        (9, 7),  // B j8: an open three
        (0, 2),  // W a3: does not block it
        (10, 7), // B k8: an open four
        (0, 3),  // W a4: lost anyway
        (12, 0), // B m1: misses the five at g8 or l8
        (0, 4),  // W a5: five
    ]);
    let a = gomoku_analysis(&record);
    assert_eq!(a.moves.len(), 10, "every stone is reviewed");
    for (i, review) in a.moves.iter().enumerate() {
        assert_eq!(review.index, i);
    }
    for early in &a.moves[..5] {
        assert_eq!(early.mistake, None, "{early:?}");
    }
    assert_eq!(a.moves[5].mistake, Some(GomokuMistake::MissedBlock));
    assert!(
        !a.moves[5].line.is_empty(),
        "the missed block shows Black's winning line"
    );
    assert_eq!(
        a.moves[7].mistake, None,
        "a stone in a lost position is no mistake"
    );
    assert_eq!(a.moves[8].mistake, Some(GomokuMistake::MissedWin));
    let win = a.moves[8].line.first().copied().expect("the missed line");
    assert!(
        [Point::new(6, 7), Point::new(11, 7)].contains(&win),
        "the missed win starts with a five point, not {win}"
    );
    assert_eq!(a.moves[9].eval, -1.0, "White's five ends it");
    assert!(
        a.moves[6].eval > 0.99,
        "after the open four Black wins: {}",
        a.moves[6].eval
    );
}

#[test]
fn a_gomoku_review_is_reproducible() {
    let record = gomoku_record(&[(7, 7), (8, 8), (7, 8), (6, 9), (8, 6), (9, 5)]);
    assert_eq!(gomoku_analysis(&record), gomoku_analysis(&record));
}

#[test]
fn an_empty_board_still_gets_three_hints() {
    let record = gomoku_record(&[]);
    let hints = analysis::hints(&record.replay().unwrap(), Seat::First, 20_000);
    assert_eq!(hints.len(), 3, "{hints:?}");
    let PlayerAction::Place { point } = hints[0].action else {
        panic!("a stone")
    };
    assert!(
        point.x.abs_diff(7) <= 1 && point.y.abs_diff(7) <= 1,
        "next to the centre: {hints:?}"
    );
}

#[test]
fn a_gomoku_hint_finds_the_open_four() {
    let record = gomoku_record(&[(7, 7), (0, 0), (8, 7), (0, 1), (9, 7), (14, 14)]);
    let LiveGame::Gomoku(game) = record.replay().unwrap() else {
        panic!("gomoku")
    };
    let hints = analysis::hints(&LiveGame::Gomoku(game.clone()), Seat::First, GOMOKU_NODES);
    assert!(
        (1..=3).contains(&hints.len()),
        "one to three hints: {hints:?}"
    );
    let PlayerAction::Place { point } = hints[0].action else {
        panic!("a stone")
    };
    assert!(
        [Point::new(6, 7), Point::new(10, 7)].contains(&point),
        "the open four first: {hints:?}"
    );
    assert_eq!(hints[0].value, 1.0, "a forced win");
    assert!(hints.windows(2).all(|w| w[0].value >= w[1].value));
    assert!(
        analysis::hints(&LiveGame::Gomoku(game), Seat::Second, GOMOKU_NODES).is_empty(),
        "no hint for the side not to play"
    );
}

#[test]
fn a_backgammon_review_rates_the_beginner_below_the_expert() {
    let mut beginner = Vec::new();
    let mut expert = Vec::new();
    for seed in 1..=3 {
        let record = sample_games::backgammon(seed, [Level::Expert, Level::Beginner], BUDGET);
        let mut last = 0;
        let a = match analysis::analyse(&record, GOMOKU_NODES, &mut |done, total| {
            assert!(done > last && done <= total);
            last = done;
        })
        .unwrap()
        {
            GameAnalysis::Backgammon(a) => a,
            GameAnalysis::Gomoku(_) => panic!("backgammon"),
        };
        assert_eq!(last, analysis::steps(&record), "progress reaches the end");
        let actions = record.bg_actions().unwrap();
        for d in &a.decisions {
            assert!(d.loss_mp >= 0.0);
            assert_eq!(d.mark, Mark::from_loss_mp(d.loss_mp));
            assert!((d.equity_best - d.equity_played) * 1000.0 - d.loss_mp < 0.01);
            match d.kind {
                BgDecisionKind::Play => {
                    assert!(
                        matches!(&actions[d.index], BgAction::Play { side, play }
                            if *side == d.side && play.to_string() == d.played),
                        "{d:?} is the play at {}",
                        d.index
                    );
                    assert_eq!(d.candidates[0].play, d.best);
                    assert!(d.candidates.len() <= 3);
                }
                BgDecisionKind::Double => {
                    assert!(matches!(actions[d.index], BgAction::Double { .. }))
                }
                BgDecisionKind::NoDouble => {
                    assert!(matches!(actions[d.index], BgAction::Roll { .. }));
                    assert!(d.loss_mp > 0.0, "only wrong no-doubles are listed");
                }
                BgDecisionKind::Take => assert!(matches!(actions[d.index], BgAction::Take { .. })),
                BgDecisionKind::Drop => assert!(matches!(actions[d.index], BgAction::Drop { .. })),
            }
        }
        let rolls = actions
            .iter()
            .filter(|a| matches!(a, BgAction::Roll { .. }))
            .count();
        assert_eq!(a.rolls.len(), rolls, "every roll's luck");
        assert!(a.rolls.iter().all(|r| r.luck.abs() <= 3.0));
        let [white, black] = &a.players;
        assert_eq!((white.side, black.side), (Side::White, Side::Black));
        expert.push(white.error_rate_mp);
        beginner.push(black.error_rate_mp);
    }
    let mean = |v: &[f32]| v.iter().sum::<f32>() / v.len() as f32;
    assert!(
        mean(&beginner) > 2.0 * mean(&expert),
        "the Beginner errs more: {beginner:?} against {expert:?}"
    );
    assert!(
        mean(&expert) < 10.0,
        "the Expert agrees with itself: {expert:?}"
    );
}

#[test]
fn a_backgammon_review_marks_a_plain_blunder() {
    // White's opening 3-1: 8/5 6/5 makes the 5 point; 6/2 takes a checker
    // out of play and leaves a blot deep in the home board for nothing
    // (gnubg rates it about 0.2 worse).
    let config = MatchConfig::default();
    let mut m = BgMatch::new(config).unwrap();
    let opening = BgAction::OpeningRoll { white: 3, black: 1 };
    apply_bg(&mut m, &opening).unwrap();
    let worst = m
        .legal_plays()
        .into_iter()
        .map(|p| p.to_string())
        .find(|p| p == "6/2")
        .unwrap_or_else(|| {
            panic!(
                "6/2 among {:?}",
                m.legal_plays()
                    .iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
            )
        });
    let play = worst.parse().unwrap();
    let record = GameRecord::Backgammon {
        config,
        actions: vec![
            opening,
            BgAction::Play {
                side: Side::White,
                play,
            },
        ],
        dice: None,
    };
    let GameAnalysis::Backgammon(a) = analysis::analyse(&record, 0, &mut |_, _| {}).unwrap() else {
        panic!("backgammon")
    };
    let d = &a.decisions[0];
    assert_eq!(d.best, "8/5 6/5");
    assert!(d.loss_mp >= ERROR_MP, "{d:?}");
    assert!(matches!(d.mark, Some(Mark::Error | Mark::Blunder)));
    assert_eq!(a.players[0].decisions, 1);
    assert_eq!(a.players[1].decisions, 0);
}

#[test]
fn backgammon_hints_are_the_best_plays_then_the_cube() {
    let mut m = BgMatch::new(MatchConfig::default()).unwrap();
    apply_bg(&mut m, &BgAction::OpeningRoll { white: 3, black: 1 }).unwrap();
    let live = LiveGame::Backgammon(m.clone());
    let hints = analysis::hints(&live, seat_of(Side::White), GOMOKU_NODES);
    assert_eq!(hints.len(), 3);
    assert_eq!(hints[0].label, "8/5 6/5");
    assert!(hints.windows(2).all(|w| w[0].value >= w[1].value));
    assert!(analysis::hints(&live, seat_of(Side::Black), GOMOKU_NODES).is_empty());
    // Black to roll with the cube centred: roll (no double) is best.
    let play = hints[0].action.clone();
    let PlayerAction::Play { play } = play else {
        panic!("a play")
    };
    apply_bg(
        &mut m,
        &BgAction::Play {
            side: Side::White,
            play,
        },
    )
    .unwrap();
    let before_roll = analysis::hints(&LiveGame::Backgammon(m), seat_of(Side::Black), 0);
    assert_eq!(before_roll.len(), 2, "{before_roll:?}");
    assert_eq!(before_roll[0].action, PlayerAction::Roll);
    assert_eq!(before_roll[1].action, PlayerAction::Double);
}

#[test]
fn the_expert_review_uses_the_engines_own_search_for_gomoku() {
    // The review's best move is the Expert's choice with the same nodes.
    let record = gomoku_record(&[(7, 7), (8, 8), (7, 8)]);
    let a = gomoku_analysis(&record);
    let LiveGame::Gomoku(game) = gomoku_record(&[(7, 7), (8, 8)]).replay().unwrap() else {
        panic!("gomoku")
    };
    let direct = gomoku::expert_search(
        game.board(),
        game.stone_to_play(),
        game.config().rule,
        gomoku::Limits::nodes(20_000),
        0,
    );
    assert_eq!(a.moves[2].best, direct.best);
}

// The test reads the checker plays' verdicts; bg-ladder also reads the cube
// statistics.
#[allow(dead_code)]
#[path = "../tools/gnubg_judge.rs"]
mod gnubg_judge;

#[test]
fn the_backgammon_review_agrees_with_gnubg_on_the_blunders() {
    // Money games between the Beginner and the Intermediate: both make
    // plenty of errors for the two judges to agree or disagree on.
    let records: Vec<GameRecord> = (21..=26)
        .map(|seed| sample_games::backgammon(seed, [Level::Beginner, Level::Intermediate], BUDGET))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let reports = gnubg_judge::judge(&records, dir.path());
    assert_eq!(reports.len(), records.len());
    let (mut compared, mut gnubg_very_bad, mut seen_by_us, mut ours_blunders, mut confirmed) =
        (0, 0, 0, 0, 0);
    let mut disagreements = Vec::new();
    for (record, report) in records.iter().zip(&reports) {
        let GameAnalysis::Backgammon(ours) =
            analysis::analyse(record, GOMOKU_NODES, &mut |_, _| {}).unwrap()
        else {
            panic!("backgammon")
        };
        let actions = record.bg_actions().unwrap();
        // The record's plays in order, each with our review if it had one.
        let plays: Vec<(usize, &BgAction)> = actions
            .iter()
            .enumerate()
            .filter(|(_, a)| matches!(a, BgAction::Play { .. }))
            .collect();
        let theirs = &report.games[0];
        assert_eq!(theirs.len(), plays.len(), "gnubg read every play");
        for ((index, action), judged) in plays.iter().zip(theirs) {
            let BgAction::Play { side, play } = action else {
                unreachable!()
            };
            assert_eq!(judged.player, side.index(), "the same mover");
            let Some(gnubg_mp) = judged.loss_mp.filter(|_| judged.choices >= 2) else {
                // Forced: nothing to judge.
                continue;
            };
            let review = ours.decisions.iter().find(|d| d.index == *index);
            let our_loss = review.map_or(0.0, |d| d.loss_mp);
            compared += 1;
            let very_bad = judged.skill.as_deref() == Some("very bad");
            let our_blunder = review.is_some_and(|d| d.mark == Some(Mark::Blunder));
            if very_bad {
                gnubg_very_bad += 1;
                seen_by_us += usize::from(our_loss >= INACCURACY_MP);
            }
            if our_blunder {
                ours_blunders += 1;
                confirmed += usize::from(gnubg_mp >= INACCURACY_MP);
            }
            if (very_bad && our_loss < ERROR_MP) || (our_blunder && gnubg_mp < ERROR_MP) {
                disagreements.push(format!(
                    "{side:?} {play} ({:?}): gnubg {gnubg_mp:.0} mp {:?}, ours {our_loss:.0} mp",
                    judged.dice, judged.skill
                ));
            }
        }
    }
    eprintln!(
        "{compared} plays compared; gnubg's very bad: {gnubg_very_bad}, of which {seen_by_us} \
         are at least inaccuracies by ours; our blunders: {ours_blunders}, of which {confirmed} \
         are at least doubtful for gnubg; the plays one calls very bad (blunder) and the other \
         not even bad (error): {disagreements:#?}"
    );
    assert!(
        gnubg_very_bad >= 3 && ours_blunders >= 3,
        "the games have blunders to agree on"
    );
    // Our judge is the Expert's network at 1-ply, weaker than gnubg's
    // cubeful evaluation: three in four of gnubg's blunders or more are at
    // least inaccuracies for us (12 of 15 in these six games), and most of
    // ours are real for gnubg (15 of 15).
    assert!(
        seen_by_us * 4 >= gnubg_very_bad * 3,
        "gnubg's blunders that we miss: {disagreements:#?}"
    );
    assert!(
        confirmed * 4 >= ours_blunders * 3,
        "our blunders that gnubg does not see: {disagreements:#?}"
    );
}

/// The only stone that stops a four is never a mistake, even in a position
/// lost to the four-three behind it, and the outlook after the four is the
/// win it threatens, not even: the search answers a forced block at once
/// with a score of 0, and the review scores the position after the block.
#[test]
fn the_only_block_of_a_four_is_no_mistake_and_the_four_is_scored() {
    let record = gomoku_record(&[
        (5, 7), // B f8
        (0, 0), // W a1
        (6, 7), // B g8
        (0, 2), // W a3
        (7, 7), // B h8: an open three
        (4, 7), // W e8: closes one end
        (8, 5), // B i6
        (0, 4), // W a5
        (8, 6), // B i7
        (0, 6), // W a7: misses the four-three at i8
        (8, 7), // B i8: a four on row 8 and an open three on the i file
        (9, 7), // W j8: the only block of the four
        (8, 8), // B i9: an open four
        (8, 9), // W i10
        (8, 4), // B i5: five
    ]);
    let a = gomoku_analysis(&record);
    let block = &a.moves[11];
    assert_eq!(block.played, Point::new(9, 7));
    assert_eq!(block.best, Some(Point::new(9, 7)), "{block:?}");
    assert_eq!(block.mistake, None, "the only block: {block:?}");
    assert_eq!(
        a.moves[10].eval, 1.0,
        "after the four-three Black wins: {:?}",
        a.moves[10]
    );
    assert!(
        a.moves
            .iter()
            .all(|m| m.best != Some(m.played) || m.mistake.is_none()),
        "a stone the Expert plays itself is never a mistake: {:?}",
        a.moves
    );
}
