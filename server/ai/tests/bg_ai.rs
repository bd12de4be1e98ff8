//! Correctness tests of the Backgammon AI (no timing assertions).

use std::time::Duration;

use tabula_ai::Level;
use tabula_ai::backgammon::bearoff::{self, BearoffDb};
use tabula_ai::backgammon::cube::{self, MatchState, Owner};
use tabula_ai::backgammon::expert::{self, Expert};
use tabula_ai::backgammon::nn::{self, Network, WeightsError};
use tabula_ai::backgammon::{self, Decision, EXPERT_WEIGHTS, best_position, choose};
use tabula_ai::rng::Rng;
use tabula_shared::backgammon::{BgMatch, Dice, GamePhase, MatchConfig, Position, Side};

const LEVELS: [Level; 5] = Level::ALL;

/// Plays a whole money game (cube in use) where every decision comes from
/// `choose`, checking each play against the legal results.
fn play_checked_game(seed: u64, levels: [Level; 2], budget: Duration) {
    let mut m = BgMatch::new(MatchConfig::default()).unwrap();
    let mut rng = Rng::new(seed);
    loop {
        let d = rng.opening_dice();
        if m.opening_roll(d.a, d.b).unwrap().is_some() {
            break;
        }
    }
    for _ in 0..2000 {
        let side = match *m.phase() {
            GamePhase::MatchOver { .. } | GamePhase::GameOver { .. } => return,
            _ => m.to_act().expect("someone acts"),
        };
        let other = side.opponent();
        let level = levels[side.index()];
        assert!(
            choose(level, &m, other, budget, seed).is_none(),
            "only the side to act decides"
        );
        let dec = choose(level, &m, side, budget, seed).expect("a decision");
        match (*m.phase(), dec) {
            (GamePhase::AwaitingRoll { .. }, Decision::Roll) => {
                m.roll(side, rng.dice()).unwrap();
            }
            (GamePhase::AwaitingRoll { .. }, Decision::Double) => {
                assert!(m.can_double(side));
                m.double(side).unwrap();
            }
            (GamePhase::CubeOffered { .. }, Decision::Take) => m.take(side).unwrap(),
            (GamePhase::CubeOffered { .. }, Decision::Drop) => m.drop_cube(side).unwrap(),
            (GamePhase::Moving { dice, .. }, Decision::Play(play)) => {
                let pos = m.position_for(side);
                let after = pos.apply(&play).expect("play applies");
                assert!(
                    pos.legal_positions(dice).contains(&after),
                    "illegal play {play} for {dice}"
                );
                assert!(
                    m.legal_plays().contains(&play),
                    "play is one of legal_plays"
                );
                m.play(side, &play).unwrap();
            }
            (phase, _) => panic!("decision does not fit phase {phase:?}"),
        }
    }
    panic!("game did not end");
}

#[test]
fn every_level_plays_legal_moves_in_whole_games() {
    for (i, pair) in [
        [Level::Beginner, Level::Intermediate],
        [Level::Expert, Level::Beginner],
        [Level::Intermediate, Level::Expert],
        [Level::Casual, Level::Advanced],
    ]
    .into_iter()
    .enumerate()
    {
        play_checked_game(100 + i as u64, pair, Duration::ZERO);
    }
    // Once with the Expert's 1-ply look-ahead on, once with its 2-ply.
    play_checked_game(7, [Level::Expert, Level::Expert], Duration::from_millis(50));
    play_checked_game(
        8,
        [Level::Expert, Level::Advanced],
        expert::TWO_PLY_MIN_BUDGET,
    );
}

/// The look-ahead's averages over the rolls, where they are exact: after
/// our play, our last checker is on our 1-point and the opponent's two are
/// on its 6-point. It bears both off only with 3-3, 4-4, 5-5 or 6-6; on
/// any other roll we finish next. No gammons either way.
#[test]
fn the_look_ahead_counts_the_rolls_of_a_race_to_the_end() {
    let x = Expert::new(backgammon::expert_network().expect("embedded weights"));
    let after = Position::from_points(&[(1, 1)], &[(19, 2)]).unwrap();
    let one = x.value_after_1ply(&after, &mut Vec::new());
    let two = x.value_after_2ply(&after, &mut [Vec::new(), Vec::new()]);
    for v in [one, two] {
        assert!((v[0] - 32.0 / 36.0).abs() < 1e-6, "{v:?}");
        assert_eq!(v[1..], [0.0; 4]);
    }
}

/// When the opponent cannot move on any roll (on the bar against our
/// closed board), the 2-ply value is our own roll's look-ahead from the
/// same position.
#[test]
fn the_two_ply_look_ahead_rolls_again_when_the_opponent_cannot_move() {
    let x = Expert::new(backgammon::expert_network().expect("embedded weights"));
    let home: Vec<(u8, u8)> = (1..=6).map(|p| (p, 2)).chain([(8, 3)]).collect();
    let after = Position::from_points(&home, &[(0, 1), (20, 14)]).unwrap();
    let two = x.value_after_2ply(&after, &mut [Vec::new(), Vec::new()]);
    let again = x.probs_before_roll(&after);
    for k in 0..5 {
        assert!((two[k] - again[k]).abs() < 1e-5, "{two:?} vs {again:?}");
    }
    assert!(
        two[0] > 0.9,
        "a closed board with a checker on the bar: {two:?}"
    );
}

/// Random positions: random walks from the start with random plays.
fn random_positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut pos = Position::START;
    while out.len() < n {
        let c = pos.legal_positions(rng.dice());
        let next = c[rng.below(c.len() as u64) as usize];
        if next.game_result().is_some() {
            pos = Position::START;
            continue;
        }
        pos = next.switch_sides();
        if rng.below(3) == 0 {
            out.push(pos);
        }
    }
    out
}

#[test]
fn every_level_returns_a_legal_result_for_random_positions() {
    let mut rng = Rng::new(5);
    for pos in random_positions(60, 11) {
        let dice = rng.dice();
        let legal = pos.legal_positions(dice);
        for level in LEVELS {
            let p = best_position(level, &pos, dice, Duration::ZERO, 1).expect("some result");
            assert!(legal.contains(&p), "{level:?} chose an illegal result");
        }
    }
}

/// The levels on the first network lose equity in the order of their
/// names, judged by that network at 0-ply (the Intermediate's own choice,
/// so its loss is zero), and even the Beginner mostly plays the best play
/// or a close one: its mistakes are a person's, not a random mover's.
#[test]
fn noisy_levels_lose_equity_in_order_and_stay_plausible() {
    let net = backgammon::ladder_network().expect("embedded weights");
    let judge = tabula_ai::backgammon::expert::Expert {
        net,
        use_bearoff: false,
    };
    let mut rng = Rng::new(9);
    let decisions: Vec<(Position, Dice, Vec<Position>)> = random_positions(400, 21)
        .into_iter()
        .map(|pos| {
            let dice = rng.dice();
            (pos, dice, pos.legal_positions(dice))
        })
        .filter(|(_, _, cands)| cands.len() > 1)
        .collect();
    let value = |c: &Position| tabula_ai::backgammon::nn::equity(&judge.value_after(c));
    let mean_loss = |level: Level| {
        let mut total = 0.0f64;
        let mut random_total = 0.0f64;
        for (seed, (pos, dice, cands)) in decisions.iter().enumerate() {
            let best = cands.iter().map(value).fold(f32::NEG_INFINITY, f32::max);
            let i = backgammon::choose_index(level, pos, *dice, cands, Duration::ZERO, seed as u64)
                .expect("a play");
            total += f64::from(best - value(&cands[i]));
            let mean: f32 = cands.iter().map(value).sum::<f32>() / cands.len() as f32;
            random_total += f64::from(best - mean);
        }
        let n = decisions.len() as f64;
        (total / n, random_total / n)
    };
    let (intermediate, random) = mean_loss(Level::Intermediate);
    let (casual, _) = mean_loss(Level::Casual);
    let (beginner, _) = mean_loss(Level::Beginner);
    assert!(
        intermediate.abs() < 1e-6,
        "the Intermediate is the network at 0-ply: {intermediate}"
    );
    assert!(
        0.0 < casual && casual < beginner,
        "losses {casual} < {beginner}"
    );
    assert!(
        beginner < random / 4.0,
        "the Beginner ({beginner}) loses far less than a random mover ({random})"
    );
}

/// The Advanced plays the Expert's network at 0-ply: its choice is the
/// best by that network's equity, without the Expert's look-ahead.
#[test]
fn the_advanced_is_the_experts_network_at_0_ply() {
    let judge = Expert::new(backgammon::expert_network().expect("embedded weights"));
    let mut rng = Rng::new(11);
    for (seed, pos) in random_positions(200, 31).into_iter().enumerate() {
        let dice = rng.dice();
        let cands = pos.legal_positions(dice);
        if cands.len() < 2 {
            continue;
        }
        let value = |c: &Position| nn::equity(&judge.value_after(c));
        let best = cands.iter().map(value).fold(f32::NEG_INFINITY, f32::max);
        let i = backgammon::choose_index(
            Level::Advanced,
            &pos,
            dice,
            &cands,
            Duration::from_secs(1),
            seed as u64,
        )
        .expect("a play");
        assert!((best - value(&cands[i])).abs() < 1e-6, "{pos:?} {dice:?}");
    }
}

#[test]
fn bearoff_small_positions_match_hand_values() {
    let mut db = BearoffDb::lazy();
    // One checker on the 1-point: off in exactly one roll.
    let e = db.get_mut(&[1, 0, 0, 0, 0, 0]).unwrap();
    assert!((e.mean - 1.0).abs() < 1e-6 && (e.dist[1] - 1.0).abs() < 1e-6);
    // Two checkers on the 1-point: still one roll.
    assert!((db.get_mut(&[2, 0, 0, 0, 0, 0]).unwrap().mean - 1.0).abs() < 1e-6);
    // One checker on the 6-point: misses only with 11, 21, 31, 41, 32 (9/36).
    let e = db.get_mut(&[0, 0, 0, 0, 0, 1]).unwrap();
    assert!((e.dist[1] - 27.0 / 36.0).abs() < 1e-6);
    assert!((e.mean - 1.25).abs() < 1e-6);
    // One checker on the 5-point: misses with 11, 21, 31 (5/36).
    let e5 = db.get_mut(&[0, 0, 0, 0, 1, 0]).unwrap();
    assert!((e5.dist[1] - 31.0 / 36.0).abs() < 1e-6);
    // Empty board: done.
    assert_eq!(db.get_mut(&[0; 6]).unwrap().mean, 0.0);
    // Last roll: 31/36 for the side on roll against a sure winner.
    let sure = db.get_mut(&[1, 0, 0, 0, 0, 0]).unwrap();
    assert!((bearoff::win_prob(&e5, &sure) - 31.0 / 36.0).abs() < 1e-5);
    // More than 15 checkers is rejected.
    assert!(bearoff::index(&[15, 1, 0, 0, 0, 0]).is_none());
}

#[test]
fn bearoff_index_is_a_bijection() {
    let mut seen = vec![false; bearoff::N_POSITIONS];
    let mut count = 0;
    for a in 0..=15u8 {
        for b in 0..=15 - a {
            for c in 0..=15 - a - b {
                for d in 0..=15 - a - b - c {
                    for e in 0..=15 - a - b - c - d {
                        for f in 0..=15 - a - b - c - d - e {
                            let i = bearoff::index(&[a, b, c, d, e, f]).unwrap();
                            assert!(!seen[i]);
                            seen[i] = true;
                            count += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(count, bearoff::N_POSITIONS);
}

#[test]
fn embedded_weights_load() {
    let expert = backgammon::expert_network().expect("the Expert's weights are valid");
    let ladder = backgammon::ladder_network().expect("the levels' weights are valid");
    assert_eq!((expert.inputs(), expert.hidden()), (nn::N_INPUTS, 256));
    assert_eq!((ladder.inputs(), ladder.hidden()), (nn::BASE_INPUTS, 80));
    for net in [expert, ladder] {
        let p = net.eval(&Position::START);
        assert!(p.iter().all(|v| (0.0..=1.0).contains(v)));
        // The start is close to even for the side on roll.
        assert!((0.4..0.6).contains(&p[0]), "{p:?}");
    }
}

/// A network widened to read the contact features (as `bg-train distill`
/// makes them) evaluates as the one it came from, and its file, with every
/// input, loads back to the same network.
#[test]
fn a_widened_network_keeps_its_function_and_its_file_round_trips() {
    let net = backgammon::ladder_network().expect("embedded weights are valid");
    assert_eq!(net.inputs(), nn::BASE_INPUTS);
    let wide = net.widened(96, 7);
    assert_eq!((wide.inputs(), wide.hidden()), (nn::N_INPUTS, 96));
    let back = Network::from_bytes(&wide.to_bytes()).expect("a widened file loads");
    for pos in random_positions(40, 3) {
        let (a, b, c) = (net.eval(&pos), wide.eval(&pos), back.eval(&pos));
        for k in 0..5 {
            assert!((a[k] - b[k]).abs() < 1e-5, "{a:?} vs {b:?}");
        }
        assert_eq!(b, c);
    }
}

#[test]
fn corrupt_weights_are_rejected() {
    let good = EXPERT_WEIGHTS.to_vec();
    assert!(Network::from_bytes(&good).is_ok());
    // A flipped byte in the weights.
    let mut bad = good.clone();
    bad[100] ^= 0x40;
    let e = Network::from_bytes(&bad).unwrap_err();
    assert!(matches!(e, WeightsError::Checksum), "{e}");
    assert!(e.to_string().contains("checksum"));
    // Truncated.
    let e = Network::from_bytes(&good[..good.len() - 10]).unwrap_err();
    assert!(matches!(e, WeightsError::BadShape { .. }), "{e}");
    let e = Network::from_bytes(&good[..20]).unwrap_err();
    assert!(matches!(e, WeightsError::Truncated(20)), "{e}");
    // Wrong magic and version.
    let mut bad = good.clone();
    bad[0] = b'X';
    assert!(matches!(
        Network::from_bytes(&bad),
        Err(WeightsError::BadMagic)
    ));
    let mut bad = good.clone();
    bad[8] = 9;
    assert!(matches!(
        Network::from_bytes(&bad),
        Err(WeightsError::BadVersion(9))
    ));
    // Missing file: a clear I/O error naming the path.
    let e = Network::load(std::path::Path::new("/nonexistent/bg.bin")).unwrap_err();
    assert!(e.to_string().contains("/nonexistent/bg.bin"));
    // Round trip.
    let net = Network::from_bytes(&good).unwrap();
    assert_eq!(net.to_bytes(), good);
}

#[test]
fn cube_money_textbook_positions() {
    // A solid race lead: 72% wins, few gammons -> double, take.
    let p = [0.72, 0.05, 0.0, 0.03, 0.0];
    assert!(cube::money_should_double(&p, Owner::Centered, false));
    assert!(cube::money_should_take(&p));
    // Too good: 92% wins with 60% gammons -> play on for the gammon.
    let p = [0.92, 0.60, 0.05, 0.0, 0.0];
    assert!(!cube::money_should_double(&p, Owner::Centered, false));
    // With the Jacoby rule the same position is a double (and a pass).
    assert!(cube::money_should_double(&p, Owner::Centered, true));
    assert!(!cube::money_should_take(&p));
    // Clear pass: 85% wins -> double, drop.
    let p = [0.85, 0.05, 0.0, 0.01, 0.0];
    assert!(cube::money_should_double(&p, Owner::Centered, false));
    assert!(!cube::money_should_take(&p));
    // Last roll, one checker on the 5-point (31/36) against a sure winner:
    // double, pass.
    let mut db = BearoffDb::lazy();
    let x = db.get_mut(&[0, 0, 0, 0, 1, 0]).unwrap();
    let o = db.get_mut(&[1, 0, 0, 0, 0, 0]).unwrap();
    let p = [bearoff::win_prob(&x, &o), 0.0, 0.0, 0.0, 0.0];
    assert!(cube::money_should_double(&p, Owner::Centered, false));
    assert!(!cube::money_should_take(&p));
    // Even game: no double.
    let p = [0.5, 0.12, 0.01, 0.12, 0.01];
    assert!(!cube::money_should_double(&p, Owner::Centered, false));
}

#[test]
fn cube_match_play() {
    // Post-Crawford, 4-away trailer vs 1-away leader: the trailer doubles
    // at once and the leader takes.
    let ms = MatchState {
        me_away: 4,
        opp_away: 1,
        cube: 1,
        crawford_used: true,
    };
    let p = [0.5, 0.1, 0.0, 0.1, 0.0];
    assert!(ms.should_double(&p, Owner::Centered));
    assert!(ms.should_take(&p));
    // 5-away each, 85% single wins: double and pass.
    let ms = MatchState {
        me_away: 5,
        opp_away: 5,
        cube: 1,
        crawford_used: false,
    };
    let p = [0.85, 0.0, 0.0, 0.0, 0.0];
    assert!(ms.should_double(&p, Owner::Centered));
    assert!(!ms.should_take(&p));
    // 3-away each: 59% with ordinary gammons is far from a double (the
    // Expert of the first version doubled here on its second move; gnubg:
    // "wrong double, very bad"), and 70% is a double and a take.
    let ms = MatchState {
        me_away: 3,
        opp_away: 3,
        cube: 1,
        crawford_used: false,
    };
    let early = [0.59, 0.15, 0.01, 0.10, 0.005];
    assert!(!ms.should_double(&early, Owner::Centered));
    assert!(ms.should_take(&early));
    let strong = [0.70, 0.15, 0.005, 0.06, 0.002];
    assert!(ms.should_double(&strong, Owner::Centered));
    assert!(ms.should_take(&strong));
    // 2-away each with the cube on 2 (a side owns it): nobody can gain from
    // redoubling, so the owner never does.
    let ms = MatchState {
        me_away: 2,
        opp_away: 2,
        cube: 2,
        crawford_used: false,
    };
    assert!(!ms.should_double(&strong, Owner::Me));
}

#[test]
fn no_decision_at_the_opening_roll() {
    let m = BgMatch::new(MatchConfig::default()).unwrap();
    for level in LEVELS {
        for side in [Side::White, Side::Black] {
            assert!(choose(level, &m, side, Duration::ZERO, 1).is_none());
        }
    }
}

#[test]
fn pubeval_matches_the_reference_implementation() {
    use tabula_ai::backgammon::pubeval;
    // Values from the reference pubeval in Python (`score()` in the
    // bgharness benchmark harness's `pubeval.py`).
    let start = Position::from_position_id("4HPwATDgc/ABMA").unwrap();
    assert_eq!(start, Position::START);
    assert!((pubeval::score(&start, false) - 6.84055).abs() < 1e-4);
    assert!((pubeval::score(&start, true) - 9.93903).abs() < 1e-4);
    // Mover: bar 1, 24:2, 13:1, 8:3, 6:4, 5:1 (3 off); opponent: bar 2 and
    // its 2:2, 10:1, 11:5, 16:3 (2 off).
    let p = Position::from_position_id("BuiDAxj0HATAAg").unwrap();
    assert_eq!((p.x_bar(), p.o_bar(), p.x_off(), p.o_off()), (1, 2, 3, 2));
    assert!((pubeval::score(&p, false) - 7.793215).abs() < 1e-4);
    assert!((pubeval::score(&p, true) - 11.14708).abs() < 1e-4);
}

/// The side that leaves as many blots as it can and never hits: the one
/// that resigns in [`resignations_are_judged_by_what_playing_on_is_worth`].
fn worst_play(m: &BgMatch, side: Side) -> tabula_shared::backgammon::Play {
    let pos = m.position_for(side);
    let GamePhase::Moving { dice, .. } = *m.phase() else {
        panic!("not moving")
    };
    pos.legal_plays(dice)
        .into_iter()
        .max_by_key(|(play, after)| {
            let blots = (1..=24).filter(|&p| after.checker(p) == 1).count() as i64;
            let (_, theirs) = after.pip_count();
            (5 * blots - i64::from(theirs), play.to_string())
        })
        .map(|(play, _)| play)
        .expect("a play")
}

#[test]
fn resignations_are_judged_by_what_playing_on_is_worth() {
    use tabula_ai::backgammon::accepts_resignation;
    let config = MatchConfig {
        cube: false,
        ..MatchConfig::default()
    };
    let mut refused_a_single = false;
    let mut accepted_a_single_later = false;
    for seed in 1..=6u64 {
        let mut m = BgMatch::new(config).unwrap();
        let mut rng = Rng::new(seed);
        loop {
            let d = rng.opening_dice();
            if m.opening_roll(d.a, d.b).unwrap().is_some() {
                break;
            }
        }
        // At the start a single game is more than White expects.
        assert!(accepts_resignation(&m, Side::White, 1));
        for turn in 0..2000 {
            match *m.phase() {
                GamePhase::GameOver { .. } | GamePhase::MatchOver { .. } => break,
                GamePhase::AwaitingRoll { side } => {
                    if side == Side::Black {
                        // A backgammon is all a game can bring: always taken.
                        assert!(accepts_resignation(&m, Side::White, 3));
                        let single = accepts_resignation(&m, Side::White, 1);
                        let pos = m.position_for(Side::Black);
                        if pos.x_off() > 0 {
                            // No gammon left to play for.
                            assert!(single, "seed {seed} turn {turn}");
                        }
                        refused_a_single |= !single;
                        accepted_a_single_later |= single && turn > 10;
                        // Refusing a gammon means more than a gammon expected.
                        if !accepts_resignation(&m, Side::White, 2) {
                            assert!(!single);
                        }
                    }
                    m.roll(side, rng.dice()).unwrap();
                }
                GamePhase::Moving { side, .. } => {
                    let play = if side == Side::White {
                        let Some(Decision::Play(play)) =
                            choose(Level::Beginner, &m, side, Duration::ZERO, seed)
                        else {
                            panic!("no play")
                        };
                        play
                    } else {
                        worst_play(&m, side)
                    };
                    m.play(side, &play).unwrap();
                }
                phase => panic!("unexpected phase {phase:?}"),
            }
        }
    }
    assert!(
        refused_a_single,
        "a crushed side's single-game resignation was never refused"
    );
    assert!(accepted_a_single_later);
}
