//! Verifiable dice in the app: the seed a seated player sends once per
//! match, and the check of a finished match's revealed seed against its
//! record (the dice screen too).

use super::*;

/// The server seed the dice tests commit to.
fn server_seed() -> ServerSeed {
    ServerSeed::from_bytes([42; 32])
}

/// Joins "r1" in `role` and receives a Backgammon snapshot, then runs a
/// frame's network step (where the app decides to send its seed).
fn join_bg(app: &mut TabulaApp, role: Role, actions: Vec<BgAction>, dice: Option<DiceProof>) {
    join(app, role);
    receive(
        app,
        None,
        ServerMessage::Snapshot {
            room_id: "r1".into(),
            snapshot: Box::new(bg_snapshot(actions, dice)),
        },
    );
    app.poll(&egui::Context::default());
}

/// The `dice_seed` messages among those sent.
fn seeds_sent(rx: &mut UnboundedReceiver<NetCommand>) -> Vec<String> {
    sent(rx)
        .into_iter()
        .filter_map(|m| match m {
            ClientMessage::DiceSeed { room_id, seed } => {
                assert_eq!(room_id, "r1");
                Some(seed)
            }
            _ => None,
        })
        .collect()
}

#[test]
fn a_seated_player_sends_a_random_dice_seed_once() {
    let (mut other, mut other_rx) = app();
    let (mut app, mut rx) = app();
    let proof = DiceProof::commit(&server_seed(), false);
    join_bg(&mut app, Role::Player, vec![], Some(proof.clone()));
    let seeds = seeds_sent(&mut rx);
    assert_eq!(seeds.len(), 1, "{seeds:?}");
    assert_eq!(check_player_seed(&seeds[0]), Ok(()));
    assert!(seeds[0].len() >= 16, "a seed worth the name: {}", seeds[0]);
    app.poll(&egui::Context::default());
    app.poll(&egui::Context::default());
    assert!(seeds_sent(&mut rx).is_empty(), "only once");

    // The server echoes it to the room; the record keeps it.
    receive(
        &mut app,
        None,
        ServerMessage::Event {
            room_id: "r1".into(),
            seq: 2,
            event: RoomEvent::DiceSeed {
                seat: Seat::First,
                seed: seeds[0].clone(),
            },
        },
    );
    let record = app.room().and_then(|r| r.record());
    let kept = record.and_then(GameRecord::dice).map(|p| &p.player_seeds);
    assert_eq!(kept, Some(&[seeds[0].clone(), String::new()]));

    // Two fresh seeds differ.
    join_bg(&mut other, Role::Player, vec![], Some(proof));
    assert_ne!(seeds_sent(&mut other_rx), seeds);
}

#[test]
fn a_new_match_gets_a_new_seed() {
    let (mut app, mut rx) = app();
    let first = DiceProof::commit(&server_seed(), false);
    join_bg(&mut app, Role::Player, vec![], Some(first));
    assert_eq!(seeds_sent(&mut rx).len(), 1);
    let next = DiceProof::commit(&ServerSeed::from_bytes([43; 32]), false);
    let record = bg_snapshot(vec![], Some(next)).record;
    let event = RoomEvent::GameStarted {
        record,
        clock: None,
        turn: None,
    };
    let (room_id, seq) = ("r1".into(), 2);
    receive(
        &mut app,
        None,
        ServerMessage::Event {
            room_id,
            seq,
            event,
        },
    );
    app.poll(&egui::Context::default());
    assert_eq!(seeds_sent(&mut rx).len(), 1, "a rematch commits anew");
}

#[test]
fn no_dice_seed_from_a_spectator_after_the_first_roll_or_without_a_proof() {
    let proof = DiceProof::commit(&server_seed(), false);
    let (mut watcher, mut rx) = app();
    join_bg(&mut watcher, Role::Spectator, vec![], Some(proof.clone()));
    assert!(seeds_sent(&mut rx).is_empty(), "a spectator has no seat");

    let (mut late, mut rx) = app();
    let rolled = vec![BgAction::OpeningRoll { white: 3, black: 3 }];
    join_bg(&mut late, Role::Player, rolled, Some(proof.clone()));
    assert!(seeds_sent(&mut rx).is_empty(), "the dice are already fixed");

    let (mut given, mut rx) = app();
    let mut seeded = proof;
    seeded.player_seeds[0] = "mine".into();
    join_bg(&mut given, Role::Player, vec![], Some(seeded));
    assert!(seeds_sent(&mut rx).is_empty(), "our seed is already in");

    let (mut old, mut rx) = app();
    join_bg(&mut old, Role::Player, vec![], None);
    assert!(seeds_sent(&mut rx).is_empty(), "a room without a proof");
}

#[test]
fn a_refused_dice_seed_is_not_a_toast() {
    let (mut app, mut rx) = app();
    join_bg(
        &mut app,
        Role::Player,
        vec![],
        Some(DiceProof::commit(&server_seed(), false)),
    );
    let id = queued(&mut rx).into_iter().find_map(|c| match c {
        NetCommand::Send(frame) if matches!(frame.message, ClientMessage::DiceSeed { .. }) => {
            frame.request_id
        }
        _ => None,
    });
    assert!(id.is_some());
    receive(
        &mut app,
        id,
        ServerMessage::Error {
            code: ErrorCode::IllegalMove,
            message: "too late".into(),
            retry_after_ms: None,
        },
    );
    assert!(app.toasts().is_empty());
    assert!(app.room().is_some());
}

/// The opening rolls the committed seed deals for game 1, up to and
/// including the first that is not a tie (a record that replays).
fn dealt_opening(proof: &DiceProof) -> Vec<BgAction> {
    let stream = proof.stream_with(&server_seed());
    let mut actions = Vec::new();
    for [white, black] in stream.game(1) {
        actions.push(BgAction::OpeningRoll { white, black });
        if white != black {
            break;
        }
    }
    actions
}

/// The dice check of the room's record, as the game-over dialog shows it.
fn room_check(app: &TabulaApp) -> DiceCheck {
    match app.room().and_then(|r| r.record()) {
        Some(GameRecord::Backgammon { actions, dice, .. }) => DiceCheck::of(actions, dice.as_ref()),
        other => panic!("no Backgammon record: {other:?}"),
    }
}

/// The game ends with the seed revealed on `game_over`.
fn game_over(app: &mut TabulaApp, revealed: DiceProof) {
    receive(
        app,
        None,
        ServerMessage::Event {
            room_id: "r1".into(),
            seq: 2,
            event: RoomEvent::GameOver {
                result: GameResult {
                    winner: Some(Seat::First),
                    reason: EndReason::Resigned,
                    line: vec![],
                    score: Some([1, 0]),
                },
                game_id: Some("g1".into()),
                ratings: vec![],
                dice: Some(revealed),
            },
        },
    );
}

#[test]
fn the_revealed_seed_verifies_the_record() {
    let (mut app, _rx) = app();
    let mut proof = DiceProof::commit(&server_seed(), false);
    proof.player_seeds = ["w-seed".into(), "b-seed".into()];
    let actions = dealt_opening(&proof);
    let rolls = actions.len();
    join_bg(&mut app, Role::Spectator, actions, Some(proof.clone()));
    let check = room_check(&app);
    assert_eq!(check.verdict(), Verdict::Neutral);
    assert!(check.text().starts_with("Dice committed: "), "{check:?}");

    proof.reveal(&server_seed());
    proof.test_seed = true;
    game_over(&mut app, proof);
    let check = room_check(&app);
    assert_eq!(check.verdict(), Verdict::Good);
    let expected = if rolls == 1 {
        "Dice verified: 1 roll matches the server's revealed seed".to_string()
    } else {
        format!("Dice verified: {rolls} rolls match the server's revealed seed")
    };
    assert_eq!(check.text(), expected);
    assert_eq!(
        check.note().as_deref(),
        Some("Test dice (--dice-seed): reproducible, not secret")
    );
}

#[test]
fn a_changed_roll_fails_the_check_and_is_named() {
    let mut proof = DiceProof::commit(&server_seed(), false);
    proof.player_seeds = ["w-seed".into(), String::new()];
    proof.reveal(&server_seed());
    let mut actions = dealt_opening(&proof);
    let last = actions.len() - 1;
    let BgAction::OpeningRoll { white, black } = actions[last] else {
        unreachable!()
    };
    // Swapped dice: the same roll, but not the one each side was dealt.
    actions[last] = BgAction::OpeningRoll {
        white: black,
        black: white,
    };
    let check = DiceCheck::of(&actions, Some(&proof));
    assert_eq!(check.verdict(), Verdict::Bad);
    assert_eq!(
        check.text(),
        format!(
            "Dice check FAILED: game 1 roll {last} (record entry {last}): \
             the seeds give {white}-{black}, the record has {black}-{white}"
        )
    );
    assert_eq!(check.note(), None);
}

#[test]
fn a_record_without_a_proof_says_so() {
    let (mut app, _rx) = app();
    join_bg(&mut app, Role::Player, vec![], None);
    let check = room_check(&app);
    assert_eq!(check, DiceCheck::NoProof);
    assert_eq!(check.text(), "This game has no dice proof");
    assert_eq!(check.verdict(), Verdict::Neutral);
}

#[test]
fn the_dice_screen_asks_for_the_statistics() {
    let (mut app, mut rx) = app();
    app.apply(Command::ShowScreen(Screen::Dice));
    assert_eq!(app.screen(), Screen::Dice);
    assert_eq!(sent(&mut rx), vec![ClientMessage::DiceStats]);
    let mut all = DiceStats::default();
    all.add_roll([6, 6]);
    let report = DiceStatsReport {
        games: 1,
        all,
        yours: DiceStats::default(),
    };
    receive(
        &mut app,
        Some(1),
        ServerMessage::DiceStats {
            report: Box::new(report.clone()),
        },
    );
    assert_eq!(app.dice_stats(), Some(&report));
}
