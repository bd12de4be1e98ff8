//! Thousands of mutated requests of every type, from a seated player, a
//! spectator and a client in the lobby, against a real server: each one gets
//! at most a typed reply, no connection drops, no request breaks the server
//! ("internal" errors count as failures), and afterwards the rooms still
//! replay and play on.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use tabula_tests::{TestServer, backgammon_options, point, replay_snapshot, test_config};

/// How many frames each client sends, and how many between two pings.
const FRAMES: usize = 1200;
const BATCH: usize = 30;

#[tokio::test]
async fn mutated_requests_get_typed_errors_and_nothing_breaks() {
    let dir = tempfile::tempdir().expect("dir");
    // No rate limit: the frames come as fast as the socket takes them.
    let config = tabula_server::Config {
        rate_burst: 1_000_000,
        rate_per_sec: 1_000_000,
        ..test_config(dir.path())
    };
    let server = TestServer::start_with(config).await;
    let (mut ada, mut bob, room) = server.pvp_gomoku().await;
    ada.event("game_started").await;
    assert_eq!(
        ada.act(&room, json!({"kind": "place", "point": point(7, 7)}))
            .await["type"],
        "event"
    );
    assert_eq!(
        bob.act(&room, json!({"kind": "place", "point": point(8, 8)}))
            .await["type"],
        "event"
    );
    let mut eve = server.client("Eve").await;
    eve.join(&room, "spectator").await;
    let mut lou = server.client("Lou").await;
    // A Backgammon room too, so its actions have somewhere to land.
    let (bg_room, _) = lou
        .create(backgammon_options(json!({"kind": "human"}), "white", 3))
        .await;

    let templates = templates(&room, &bg_room);
    // A fixed seed; `MUTATION_SEED=n` tries others (a failure prints its seed).
    let seed = std::env::var("MUTATION_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x7AB0_1A5E_ED00_0001_u64);
    eprintln!("mutation seed {seed}");
    let mut rng = Mutator {
        state: seed,
        rooms: vec![room.clone(), bg_room.clone(), "r-nope".into()],
    };
    let mut codes: BTreeMap<String, usize> = BTreeMap::new();
    for (name, client) in [("ada", &mut ada), ("eve", &mut eve), ("lou", &mut lou)] {
        let before = client.seen.len();
        for batch in 0..FRAMES / BATCH {
            for _ in 0..BATCH {
                let frame = rng.frame(&templates);
                client.send_text(frame).await;
            }
            // Replies come in order: once the ping's answer is back, every
            // frame before it has been handled, and the connection is open.
            let pong = client.request(json!({"type": "ping"})).await;
            assert_eq!(pong["type"], "pong", "{name}, batch {batch}: {pong}");
        }
        for m in &client.seen[before..] {
            if m["type"] == "error" {
                let code = m["code"].as_str().unwrap_or("").to_string();
                assert_ne!(code, "internal", "{name}: {m}");
                *codes.entry(code).or_default() += 1;
            }
        }
    }
    eprintln!("error codes: {codes:?}");
    // The frames reached the checks behind many kinds of request.
    let errors: usize = codes.values().sum();
    assert!(errors > FRAMES, "only {errors} errors: {codes:?}");
    for code in ["bad_json", "bad_request", "unknown_type", "not_in_room"] {
        assert!(codes.contains_key(code), "no {code}: {codes:?}");
    }
    assert!(codes.len() >= 8, "{codes:?}");

    // Both rooms still replay from their records, whatever was played, and
    // the player who sent nothing is still served.
    let mut wes = server.client("Wes").await;
    for r in [&room, &bg_room] {
        wes.join(r, "spectator").await;
        replay_snapshot(&wes.expect(|m| m["type"] == "snapshot").await);
    }
    assert_eq!(bob.request(json!({"type": "ping"})).await["type"], "pong");
    // The server carries on: a fresh game plays a move to the opponent.
    // (Not Ada and Bob again: a mutated `register` may have taken "Ada".)
    let (mut cy, mut di, fresh) = server.pvp_gomoku_between("Cy", "Di").await;
    cy.event("game_started").await;
    cy.act(&fresh, json!({"kind": "place", "point": point(7, 7)}))
        .await;
    assert_eq!(di.action().await["point"], point(7, 7));
    for c in [ada, bob, eve, lou, wes, cy, di] {
        c.close().await;
    }
    server.stop().await;
}

/// One valid request of every type, for the rooms in play.
fn templates(room: &str, bg_room: &str) -> Vec<Value> {
    let gomoku = json!({"game": {"game": "gomoku", "size": 15, "rule": "renju", "opening": "swap2"},
        "opponent": {"kind": "ai", "level": "beginner"}, "colour": "random",
        "time_control": {"initial_secs": 300, "increment_secs": 2}, "private": true, "takebacks": false});
    let backgammon = backgammon_options(json!({"kind": "human"}), "black", 5);
    vec![
        json!({"type": "hello", "protocol": 1, "name": "Zed", "token": "t-1"}),
        json!({"type": "register", "password": "a long password"}),
        json!({"type": "list_games", "offset": 0, "limit": 20}),
        json!({"type": "get_game", "game_id": "g-1"}),
        json!({"type": "get_leaderboard", "game": "gomoku", "period": "week"}),
        json!({"type": "list_rooms"}),
        json!({"type": "unwatch_lobby"}),
        json!({"type": "create_room", "options": gomoku}),
        json!({"type": "create_room", "options": backgammon}),
        json!({"type": "join_room", "room_id": room, "role": "player", "since": 1}),
        json!({"type": "join_room", "room_id": bg_room, "role": "spectator"}),
        json!({"type": "join_by_code", "code": "ABCD"}),
        json!({"type": "leave_room", "room_id": bg_room}),
        json!({"type": "sync", "room_id": room}),
        json!({"type": "act", "room_id": room, "action": {"kind": "place", "point": {"x": 9, "y": 9}}}),
        json!({"type": "act", "room_id": room, "action": {"kind": "choose", "choice": "place_two"}}),
        json!({"type": "act", "room_id": bg_room, "action": {"kind": "roll"}}),
        json!({"type": "act", "room_id": bg_room, "action": {"kind": "play", "play": "24/18 13/10"}}),
        json!({"type": "act", "room_id": bg_room, "action": {"kind": "double"}}),
        json!({"type": "resign", "room_id": bg_room, "kind": "gammon"}),
        json!({"type": "offer_draw", "room_id": room}),
        json!({"type": "request_takeback", "room_id": room}),
        json!({"type": "answer", "room_id": room, "request": "takeback", "accept": true}),
        json!({"type": "rematch", "room_id": room}),
        json!({"type": "claim_win", "room_id": room}),
        json!({"type": "chat", "room_id": room, "text": "hello"}),
        json!({"type": "mute_spectators", "room_id": room, "muted": true}),
        json!({"type": "ping"}),
    ]
}

/// Deterministic mutations (splitmix64), so a failure comes back on rerun.
struct Mutator {
    state: u64,
    /// Room ids to swap in for one another.
    rooms: Vec<String>,
}

impl Mutator {
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A template with one to three mutations, as text; now and then the
    /// text itself is cut or garbled.
    fn frame(&mut self, templates: &[Value]) -> String {
        let mut v = templates[self.below(templates.len())].clone();
        for _ in 0..1 + self.below(3) {
            if self.below(8) == 0 {
                self.change(&mut v);
            } else {
                self.mutate(&mut v, 0);
            }
        }
        let text = v.to_string();
        match self.below(10) {
            0 => {
                let mut cut = self.below(text.len().max(1));
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                text[..cut].to_string()
            }
            1 => text.replacen(['"', ':', ',', '}'][self.below(4)], "", 1),
            _ => text,
        }
    }

    /// Goes down a random path and changes what it finds there, never the
    /// whole frame: that is left to the rarer top-level [`Mutator::change`]
    /// in [`Mutator::frame`].
    fn mutate(&mut self, v: &mut Value, depth: usize) {
        let len = match v {
            Value::Object(m) => m.len(),
            Value::Array(a) => a.len(),
            _ => 0,
        };
        if len == 0 || (depth > 0 && self.below(3) == 0) {
            self.change(v);
            return;
        }
        let i = self.below(len);
        match v {
            Value::Object(m) => self.mutate(m.values_mut().nth(i).expect("in range"), depth + 1),
            Value::Array(a) => self.mutate(&mut a[i], depth + 1),
            _ => {}
        }
    }

    fn change(&mut self, node: &mut Value) {
        const NAMES: &[&str] = &[
            "type", "room_id", "action", "kind", "point", "x", "y", "play", "options", "game",
            "role", "since", "text", "name", "protocol", "token", "zzz",
        ];
        match (self.below(4), node) {
            (0, Value::Object(m)) if !m.is_empty() => {
                let i = self.below(m.len());
                let key = m.keys().nth(i).expect("in range").clone();
                m.remove(&key);
            }
            (1, Value::Object(m)) => {
                let key = NAMES[self.below(NAMES.len())];
                m.insert(key.to_string(), self.odd_value());
            }
            // Same type, other value: these reach the checks past decoding.
            (2 | 3, Value::String(s)) => {
                let types = [
                    "act",
                    "chat",
                    "join_room",
                    "hello",
                    "resign",
                    "sync",
                    "nope",
                ];
                *s = match self.below(4) {
                    0 => types[self.below(types.len())].to_string(),
                    1 => {
                        let i = self.below(self.rooms.len());
                        self.rooms[i].clone()
                    }
                    2 => format!("{s}{s}"),
                    _ => String::new(),
                };
            }
            (2 | 3, Value::Number(n)) => {
                let numbers = [0, 1, 2, 6, 14, 15, 19, 24, 25, 26, 255, 65_536, u64::MAX];
                *n = numbers[self.below(numbers.len())].into();
            }
            (2 | 3, Value::Bool(b)) => *b = !*b,
            (_, node) => *node = self.odd_value(),
        }
    }

    fn odd_value(&mut self) -> Value {
        match self.below(16) {
            0 => Value::Null,
            1 => json!(true),
            2 => json!(-1),
            3 => json!(0),
            4 => json!(u64::MAX),
            5 => json!(1.5),
            6 => json!(1e308),
            7 => json!(""),
            8 => json!("x".repeat(3000)),
            9 => json!("\u{0}\u{1b}[31m\u{7f}\u{202e}"),
            10 => json!("🦀 Ünïcödé"),
            11 => json!([]),
            12 => json!({}),
            13 => json!(24),
            14 => json!(["bar/22*", "6/off", "8/5(2)", "25/0", "13/-3"][self.below(5)]),
            _ => {
                let depth = if self.below(2) == 0 { 20 } else { 300 };
                (0..depth).fold(json!(1), |inner, _| json!([inner]))
            }
        }
    }
}
