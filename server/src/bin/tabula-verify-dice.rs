//! `tabula-verify-dice`: checks, offline, every roll of a finished
//! Backgammon match against its revealed dice seeds (`docs/DICE.md`).
//!
//! Reads JSON from a file (or standard input with no argument or `-`): a
//! `get_game` answer, its `game` (a finished game: `summary` and `record`),
//! a bare match record, or any object with `actions` and `dice`. Prints
//! `dice verified (N rolls)` and exits 0, or names the first thing that does
//! not match and exits 1.

use std::io::Read;
use std::process::ExitCode;

use serde_json::Value;
use tabula_shared::fair_dice::{DiceProof, verify};
use tabula_shared::protocol::BgAction;

fn main() -> ExitCode {
    let path = std::env::args().nth(1);
    if matches!(path.as_deref(), Some("-h" | "--help")) {
        println!(
            "usage: tabula-verify-dice [FILE]\n\n\
             Checks every roll of a finished Backgammon match (JSON: a get_game answer,\n\
             its game, or a match record) against its revealed dice seeds."
        );
        return ExitCode::SUCCESS;
    }
    let text = match read(path.as_deref()) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("tabula-verify-dice: {e}");
            return ExitCode::from(2);
        }
    };
    match check(&text) {
        Ok(report) => {
            println!("{report}");
            ExitCode::SUCCESS
        }
        Err(why) => {
            println!("dice NOT verified: {why}");
            ExitCode::FAILURE
        }
    }
}

/// The input's text: the file at `path`, or standard input.
fn read(path: Option<&str>) -> std::io::Result<String> {
    match path {
        None | Some("-") => {
            let mut text = String::new();
            std::io::stdin().read_to_string(&mut text)?;
            Ok(text)
        }
        Some(path) => std::fs::read_to_string(path),
    }
}

/// Verifies the match in `text`; the line to print on success, the reason
/// on failure.
fn check(text: &str) -> Result<String, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let record = find_record(&value).ok_or("no match record (with `actions`) in the input")?;
    if record.get("game").and_then(Value::as_str) == Some("gomoku") {
        return Err("a Gomoku game has no dice".into());
    }
    let actions: Vec<BgAction> = serde_json::from_value(record["actions"].clone())
        .map_err(|e| format!("the record's actions do not read: {e}"))?;
    let dice = record
        .get("dice")
        .filter(|d| !d.is_null())
        .ok_or("the record has no dice proof (a match played before verifiable dice)")?;
    let proof: DiceProof = serde_json::from_value(dice.clone())
        .map_err(|e| format!("the dice proof does not read: {e}"))?;
    let rolls = verify(&actions, &proof).map_err(|e| e.to_string())?;
    let mut report = format!("dice verified ({rolls} rolls)");
    if proof.test_seed {
        report.push_str(
            "\nnote: a test seed (--dice-seed): whoever ran the server could foresee these dice",
        );
    }
    Ok(report)
}

/// The object holding `actions`: the input itself, its `record`, or its
/// `game.record` (a `get_game` answer).
fn find_record(value: &Value) -> Option<&Value> {
    [
        Some(value),
        value.get("record"),
        value.get("game").and_then(|g| g.get("record")),
    ]
    .into_iter()
    .flatten()
    .find(|v| v.get("actions").is_some_and(Value::is_array))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &str = include_str!("../../../shared/tests/dice/known_match.json");

    #[test]
    fn the_known_match_verifies_in_every_wrapping() {
        assert_eq!(check(KNOWN).as_deref(), Ok("dice verified (47 rolls)"));
        let mut record: Value = serde_json::from_str(KNOWN).unwrap();
        record["game"] = "backgammon".into();
        let game = serde_json::json!({"summary": {}, "record": record});
        assert!(
            check(&game.to_string())
                .unwrap()
                .starts_with("dice verified")
        );
        let answer = serde_json::json!({"type": "game", "game": game});
        assert!(
            check(&answer.to_string())
                .unwrap()
                .starts_with("dice verified")
        );
    }

    #[test]
    fn a_changed_roll_a_missing_proof_and_bad_input_fail() {
        let mut record: Value = serde_json::from_str(KNOWN).unwrap();
        let roll = record["actions"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|a| a["kind"] == "roll")
            .unwrap();
        let die = roll["dice"][0].as_u64().unwrap();
        roll["dice"][0] = (die % 6 + 1).into();
        let why = check(&record.to_string()).unwrap_err();
        assert!(why.contains("roll 1"), "{why}");
        record["dice"] = Value::Null;
        assert!(
            check(&record.to_string())
                .unwrap_err()
                .contains("no dice proof")
        );
        assert!(check("[1, 2]").is_err());
        assert!(check("not json").unwrap_err().starts_with("not JSON"));
    }
}
