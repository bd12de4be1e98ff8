//! Reads Swiss rounds to pair, one JSON object a line in the shape
//! `caissify-pairings` takes (players with `id`, `pairing_number`, `score`,
//! `color_hist`, `float_history`, `bye_count`; `previous_pairings`,
//! `round_number`, `total_rounds`, `initial_color`), pairs each with
//! Tabula's Dutch pairing and writes `{"games": [[first, second], ...],
//! "bye": id}` (or `{"error": ...}`) a line. `tests/pairings/compare.py`
//! drives it.

use std::io::{BufRead, Write};

use serde_json::{Value, json};
use tabula_shared::seat::Seat;
use tabula_shared::tournament::swiss::{Float, SwissPlayer, SwissRules, pair_round};

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for line in stdin.lock().lines() {
        let line = line.expect("stdin");
        if line.trim().is_empty() {
            continue;
        }
        let state: Value = serde_json::from_str(&line).expect("a JSON object a line");
        let answer = match pair(&state) {
            Ok(v) => v,
            Err(e) => json!({ "error": e }),
        };
        writeln!(out, "{answer}").expect("stdout");
    }
}

fn pair(state: &Value) -> Result<Value, String> {
    let seat = |s: &str| {
        if s == "white" {
            Seat::First
        } else {
            Seat::Second
        }
    };
    let mut players: Vec<SwissPlayer> = state["players"]
        .as_array()
        .ok_or("no players")?
        .iter()
        .map(|p| SwissPlayer {
            id: p["id"].as_u64().unwrap_or(0) as u32,
            rank: p["pairing_number"].as_u64().unwrap_or(0) as u32,
            score: (p["score"].as_f64().unwrap_or(0.0) * 2.0).round() as u32,
            colours: strings(&p["color_hist"])
                .into_iter()
                .filter(|c| c == "white" || c == "black")
                .map(|c| seat(&c))
                .collect(),
            floats: strings(&p["float_history"])
                .into_iter()
                .map(|f| match f.as_str() {
                    "up" => Float::Up,
                    "down" => Float::Down,
                    _ => Float::None,
                })
                .collect(),
            byes: p["bye_count"].as_u64().unwrap_or(0) as u32,
            opponents: Vec::new(),
        })
        .collect();
    for pair in state["previous_pairings"].as_array().into_iter().flatten() {
        let (a, b) = (
            pair[0].as_u64().unwrap_or(0) as u32,
            pair[1].as_u64().unwrap_or(0) as u32,
        );
        for p in players.iter_mut() {
            if p.id == a {
                p.opponents.push(b);
            } else if p.id == b {
                p.opponents.push(a);
            }
        }
    }
    let rules = SwissRules {
        round: state["round_number"].as_u64().unwrap_or(1) as u32,
        total_rounds: state["total_rounds"].as_u64().unwrap_or(1) as u32,
        initial: seat(state["initial_color"].as_str().unwrap_or("white")),
    };
    let round = pair_round(&players, rules).map_err(|e| e.to_string())?;
    Ok(json!({ "games": round.games, "bye": round.bye }))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s.as_str().map(str::to_owned))
        .collect()
}
