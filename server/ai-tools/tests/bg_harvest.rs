//! Backgammon puzzles harvested from engine games: each best-play puzzle's
//! answer is the 2-ply best by at least the margin, and a rollout of the
//! position (the same dice for every play) ranks it first too; each cube
//! puzzle's action is the board's at 2-ply with both halves clear.

use std::time::Duration;

use tabula_ai::Level;
use tabula_ai::backgammon::harvest::{MARGIN, cube_puzzle, play_puzzle};
use tabula_ai::backgammon::rollout::Rollout;
use tabula_ai_tools::sample_games;
use tabula_shared::backgammon::BgMatch;
use tabula_shared::game::apply_bg;
use tabula_shared::protocol::{GameRecord, RolloutState};

/// Every position of a Backgammon record.
fn positions(record: &GameRecord) -> Vec<BgMatch> {
    let GameRecord::Backgammon {
        config, actions, ..
    } = record
    else {
        panic!("a backgammon record");
    };
    let mut m = BgMatch::new(*config).expect("the record's config");
    let mut out = Vec::new();
    for a in actions {
        out.push(m.clone());
        apply_bg(&mut m, a).expect("the record replays");
    }
    out
}

#[test]
fn harvested_backgammon_puzzles_stand_out_and_a_rollout_agrees() {
    let (mut plays, mut cubes, mut decisions) = (0, 0, 0);
    let mut rollout_disagrees = Vec::new();
    // One game, every other position: a 2-ply answer for each.
    for seed in 1..=1 {
        let record =
            sample_games::backgammon(seed, [Level::Expert, Level::Beginner], Duration::ZERO);
        for m in positions(&record).into_iter().step_by(2) {
            decisions += 1;
            if let Some(p) = play_puzzle(&m) {
                plays += 1;
                assert!(p.margin >= MARGIN, "{p:?}");
                let mut r = Rollout::new(&m, 1).expect("a rollout");
                r.run(324);
                let report = r.report(324, RolloutState::Finished);
                let first = report.lines[0].play.as_ref().expect("a play");
                let after = |play| {
                    let mut m = m.clone();
                    m.play(p.side, play).expect("legal");
                    m.board()
                };
                if after(first) != after(&p.best) {
                    rollout_disagrees.push((p, report));
                }
            }
            if let Some(c) = cube_puzzle(&m) {
                cubes += 1;
                assert!(c.margin >= MARGIN, "{c:?}");
                assert!(c.wins >= tabula_ai::backgammon::harvest::CUBE_WINS, "{c:?}");
            }
        }
    }
    println!(
        "{plays} best-play and {cubes} cube puzzles from {decisions} positions; the rollout \
         disagrees on {}",
        rollout_disagrees.len()
    );
    assert!(plays > 0, "the games give best-play puzzles");
    assert!(rollout_disagrees.is_empty(), "{rollout_disagrees:#?}");
}
