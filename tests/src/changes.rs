//! [`ChangeScript`]: two players in a Gomoku room making every kind of
//! change a room saves, in a fixed cycle: moves, a draw offer and its
//! refusal, a takeback request and its acceptance, a resignation, and a
//! rematch (seats swapped). The script knows the room's state after each
//! step, so a test that kills the server or breaks its disk mid-script can
//! compare what the players were told with what a restart recovers.

use std::net::SocketAddr;

use serde_json::{Value, json};

use crate::{Client, gomoku_options, point};

/// Steps in one game of the cycle.
pub const STEPS_PER_GAME: usize = 11;

/// The pause between two steps: fast, but under the server's per-connection
/// request rate (30 a second), which a tight loop would hit.
pub const STEP_PAUSE: std::time::Duration = std::time::Duration::from_millis(15);

/// What a room's snapshot says, reduced to what the script changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomState {
    /// `playing` or `finished`.
    pub status: String,
    /// Actions in the current game's record.
    pub actions: usize,
    /// Kinds of the pending offers.
    pub offers: Vec<String>,
    /// Who sits in the first seat (swapped by each rematch).
    pub first: String,
}

impl RoomState {
    /// Reads it from a `snapshot` message.
    pub fn of_snapshot(snapshot: &Value) -> RoomState {
        let s = &snapshot["snapshot"];
        RoomState {
            status: s["summary"]["status"].as_str().unwrap_or("?").into(),
            actions: s["record"]["actions"].as_array().map_or(0, Vec::len),
            offers: s["offers"]
                .as_array()
                .map(|o| {
                    o.iter()
                        .map(|o| o["kind"].as_str().unwrap_or("?").to_string())
                        .collect()
                })
                .unwrap_or_default(),
            first: s["summary"]["seats"][0]["player"]["name"]
                .as_str()
                .unwrap_or("?")
                .into(),
        }
    }
}

/// Which player makes a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Who {
    First,
    Second,
}

/// One step: who sends what.
fn step(n: usize) -> (Who, Value) {
    let stone = |seat: Who, k: usize| json!({"kind": "place", "point": stone_point(seat, k)});
    match n % STEPS_PER_GAME {
        0 => (Who::First, stone(Who::First, 0)),
        1 => (Who::Second, stone(Who::Second, 0)),
        2 => (Who::First, json!({"type": "offer_draw"})),
        3 => (
            Who::Second,
            json!({"type": "answer", "request": "draw", "accept": false}),
        ),
        4 => (Who::First, stone(Who::First, 1)),
        5 => (Who::First, json!({"type": "request_takeback"})),
        6 => (
            Who::Second,
            json!({"type": "answer", "request": "takeback", "accept": true}),
        ),
        7 => (Who::First, stone(Who::First, 1)),
        8 => (Who::Second, json!({"type": "resign"})),
        9 => (Who::First, json!({"type": "rematch"})),
        _ => (Who::Second, json!({"type": "rematch"})),
    }
}

/// The `k`th stone of a seat: far apart, never five in a row.
fn stone_point(seat: Who, k: usize) -> Value {
    let k = k as u8;
    match seat {
        Who::First => point(3 + 4 * k, 3),
        Who::Second => point(3 + 4 * k, 11),
    }
}

/// Two players working through the cycle in one room.
pub struct ChangeScript {
    /// The room.
    pub room: String,
    /// Steps acknowledged so far.
    pub done: usize,
    names: [String; 2],
}

impl ChangeScript {
    /// A script for `room`, where `first` holds the first seat and
    /// `second` the other, before step 0.
    pub fn new(room: &str, first: &str, second: &str) -> ChangeScript {
        ChangeScript {
            room: room.into(),
            done: 0,
            names: [first.into(), second.into()],
        }
    }

    /// The room's state after `steps` steps of the cycle.
    pub fn state_after(&self, steps: usize) -> RoomState {
        let games = steps / STEPS_PER_GAME;
        let within = steps % STEPS_PER_GAME;
        let (actions, offers, status) = match within {
            0 => (0, vec![], "playing"),
            1 => (1, vec![], "playing"),
            2 => (2, vec![], "playing"),
            3 => (2, vec!["draw"], "playing"),
            4 => (2, vec![], "playing"),
            5 => (3, vec![], "playing"),
            6 => (3, vec!["takeback"], "playing"),
            7 => (2, vec![], "playing"),
            8 => (3, vec![], "playing"),
            9 => (3, vec![], "finished"),
            _ => (3, vec!["rematch"], "finished"),
        };
        RoomState {
            status: status.into(),
            actions,
            offers: offers.into_iter().map(String::from).collect(),
            first: self.names[games % 2].clone(),
        }
    }

    /// How many steps a recovered room shows: everything acknowledged, or
    /// one more when the step in flight (unanswered at a kill, or refused
    /// because its commit failed with its outcome unknown) also landed.
    /// `None` for any other state: something acknowledged was lost, or
    /// something never asked for appeared.
    pub fn recovered(&self, state: &RoomState) -> Option<usize> {
        (self.done..=self.done + 1).find(|&k| self.state_after(k) == *state)
    }

    /// The name of the player who makes step `n`.
    pub fn mover(&self, n: usize) -> &str {
        let games = n / STEPS_PER_GAME;
        let (who, _) = step(n);
        let first = games % 2;
        match who {
            Who::First => &self.names[first],
            Who::Second => &self.names[1 - first],
        }
    }

    /// Makes the next step with `client` (who must be [`ChangeScript::mover`]).
    /// `Some(true)` once it is acknowledged, `Some(false)` when it is refused
    /// (with the refusal's code in `refusal`), `None` when the connection
    /// ended first (the outcome unknown).
    pub async fn next(&mut self, client: &mut Client, refusal: &mut String) -> Option<bool> {
        let (_, msg) = step(self.done);
        let reply = if msg.get("kind").is_some() {
            client.try_act(&self.room, msg).await?
        } else {
            let mut msg = msg;
            msg["room_id"] = json!(self.room);
            client.try_request(msg).await?
        };
        if reply["type"] == "error" {
            *refusal = reply["code"].as_str().unwrap_or("?").into();
            return Some(false);
        }
        self.done += 1;
        tokio::time::sleep(STEP_PAUSE).await;
        Some(true)
    }
}

/// Ada and Bob, each on a fresh connection to the server at `addr`, seated
/// in the script's room. With no script yet they arrive as new players
/// (their tokens go into `tokens`), Ada creates a Gomoku room and Bob joins;
/// later they come back with their tokens and the script resumes from what
/// the room shows, which must be the state after every acknowledged step
/// (or one more: see [`ChangeScript::recovered`]); `when` names the moment
/// in the failure message.
pub async fn seat_players(
    addr: SocketAddr,
    script: Option<ChangeScript>,
    tokens: &mut [String; 2],
    when: &str,
) -> (Client, Client, ChangeScript) {
    let mut ada = Client::connect(addr).await;
    let mut bob = Client::connect(addr).await;
    let script = match script {
        None => {
            ada.hello("Ada", None).await;
            bob.hello("Bob", None).await;
            *tokens = [ada.token.clone(), bob.token.clone()];
            let (room, _) = ada
                .create(gomoku_options(json!({"kind": "human"}), "black"))
                .await;
            bob.join(&room, "player").await;
            ChangeScript::new(&room, "Ada", "Bob")
        }
        Some(mut s) => {
            ada.hello("Ada", Some(&tokens[0])).await;
            bob.hello("Bob", Some(&tokens[1])).await;
            ada.join(&s.room, "player").await;
            bob.join(&s.room, "player").await;
            let sync = ada
                .request(json!({"type": "sync", "room_id": s.room}))
                .await;
            let state = RoomState::of_snapshot(&sync);
            s.done = s.recovered(&state).unwrap_or_else(|| {
                panic!(
                    "{when}: after {} acknowledged steps ({:?}) came back {state:?}",
                    s.done,
                    s.state_after(s.done)
                )
            });
            s
        }
    };
    (ada, bob, script)
}

/// Plays the script with Ada and Bob, at most `limit` steps, until a step
/// is refused (its error code is returned) or the connection ends (`None`).
pub async fn play(
    mut script: ChangeScript,
    mut ada: Client,
    mut bob: Client,
    limit: usize,
) -> (ChangeScript, Option<String>) {
    let mut refusal = String::new();
    for _ in 0..limit {
        let mover = if script.mover(script.done) == "Ada" {
            &mut ada
        } else {
            &mut bob
        };
        match script.next(mover, &mut refusal).await {
            Some(true) => {}
            Some(false) => return (script, Some(refusal)),
            None => break,
        }
    }
    (script, None)
}
