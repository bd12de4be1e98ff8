//! The rules: a game driven by the fuzzer's bytes, each byte choosing one
//! of the actions the rules offer. Every offered action is accepted, and the
//! record replays to exactly the game played.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_shared::backgammon::BgAction;
use tabula_shared::game::{Game, Next};
use tabula_shared::protocol::GameOptions;

/// The games played: Gomoku under each rule and opening, and Backgammon
/// money games and matches.
const OPTIONS: [&str; 6] = [
    r#"{"game":"gomoku","size":15,"rule":"freestyle","opening":"none"}"#,
    r#"{"game":"gomoku","size":15,"rule":"renju","opening":"none"}"#,
    r#"{"game":"gomoku","size":9,"rule":"standard","opening":"swap2"}"#,
    r#"{"game":"backgammon","length":0,"cube":true,"jacoby":true,"crawford":true,"doubles_twice":false}"#,
    r#"{"game":"backgammon","length":3,"cube":true,"jacoby":false,"crawford":true,"doubles_twice":false}"#,
    r#"{"game":"backgammon","length":1,"cube":false,"jacoby":false,"crawford":false,"doubles_twice":false}"#,
];

fuzz_target!(|data: &[u8]| {
    let Some((&which, choices)) = data.split_first() else {
        return;
    };
    let options: GameOptions =
        serde_json::from_str(OPTIONS[usize::from(which) % OPTIONS.len()]).expect("options");
    let mut game = Game::new(&options).expect("a new game");
    let mut bytes = choices.iter().copied();
    while let Some(choice) = bytes.next() {
        let seat = match game.next() {
            Next::Seat(seat) => seat,
            Next::Over => break,
            Next::OpeningRoll => {
                // The host's roll, one die each (equal dice roll again).
                let white = choice % 6 + 1;
                let black = bytes.next().map_or(1, |b| b % 6 + 1);
                let roll = BgAction::OpeningRoll { white, black };
                game.apply(roll.into())
                    .expect("an opening roll is accepted");
                continue;
            }
            Next::NextGame => {
                game.apply(BgAction::NextGame.into())
                    .expect("the next game of a match starts");
                continue;
            }
        };
        assert_eq!(game.to_act(), Some(seat));
        let legal = game.legal_actions();
        if legal.is_empty() {
            break;
        }
        let action = legal[usize::from(choice) % legal.len()].clone();
        let mut die = || bytes.next().map_or(1, |b| b % 6 + 1);
        let dice = [die(), die()];
        let entry = game
            .action_for(seat, action.clone(), || dice)
            .expect("an offered action is for this game");
        if let Err(e) = game.apply(entry) {
            panic!("an offered action was refused: {action:?}: {e}");
        }
    }
    let replayed = Game::from_record(game.record().clone()).expect("the record replays");
    assert_eq!(replayed, game, "replaying the record gives another game");
    // Saved and loaded (as the server's store does), the game is the same;
    // a play's moves may come back in their written form's order (8/3 for
    // 8/5 5/3, say), so the record is compared by length, the game whole.
    let json = serde_json::to_string(game.record()).expect("encodes");
    let again: Game = serde_json::from_str(&json).expect("a saved record loads");
    assert_eq!(
        again.live(),
        game.live(),
        "a saved record loads another game"
    );
    assert_eq!(again.len(), game.len());
});
