//! [`Bench`]: a server's shared state on a temporary SQLite store, with no
//! listener; [`Member`]: one connection's side of a room, its frames kept.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tabula_shared::protocol::ClientMessage;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use crate::config::Config;
use crate::handle::{Caller, ConnId, RoomCommand};
use crate::identity::Identity;
use crate::outlet::{Outlet, Relay, SendError};
use crate::registry::Shared;
use crate::store::Store;

/// How long a test waits for a frame it expects.
const PATIENCE: Duration = Duration::from_secs(10);

/// The frames a member was sent, in order.
#[derive(Default)]
struct Frames(Mutex<Vec<Value>>);

impl Relay for Frames {
    fn send_text(&self, text: &str) -> Result<(), SendError> {
        let frame = serde_json::from_str(text).expect("frames are JSON");
        self.0.lock().expect("frames").push(frame);
        Ok(())
    }
    fn close(&self, _code: CloseCode, _reason: String) {}
}

/// A server's shared state without a listener.
pub(super) struct Bench {
    pub(super) shared: Arc<Shared>,
    next_conn: ConnId,
    _dir: tempfile::TempDir,
}

impl Bench {
    /// The test settings of the end-to-end tests: fixed dice, no wait for
    /// dice seeds, a two-second grace period, a quick AI.
    pub(super) fn new() -> Bench {
        Bench::with(|_| {})
    }

    /// [`Bench::new`] with some settings changed.
    pub(super) fn with(change: impl FnOnce(&mut Config)) -> Bench {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut config = Config {
            data_dir: dir.path().to_path_buf(),
            dice_seed: Some(7),
            dice_seed_wait: Duration::ZERO,
            grace: Duration::from_secs(2),
            ai_budget: Duration::from_millis(50),
            ..Config::default()
        };
        change(&mut config);
        let (store, loaded) = Store::open(dir.path(), Duration::from_secs(1)).expect("store");
        let shared = Shared::new(
            config,
            store,
            None,
            loaded.players,
            loaded.accounts,
            loaded.api_tokens,
        );
        Bench {
            shared: Arc::new(shared),
            next_conn: 1,
            _dir: dir,
        }
    }

    /// A guest called `name` on a connection of its own.
    pub(super) fn member(&mut self, name: &str) -> Member {
        let conn = self.next_conn;
        self.next_conn += 1;
        let identity = Arc::new(Identity {
            id: format!("p-{}", name.to_lowercase()),
            token: format!("t-{}", name.to_lowercase()),
            name: name.to_string(),
            registered: false,
            bot: false,
        });
        self.shared.put_identity(identity.clone());
        Member {
            shared: self.shared.clone(),
            conn,
            identity,
            frames: Arc::new(Frames::default()),
            taken: std::collections::BTreeSet::new(),
            next_request: 1,
        }
    }

    /// `creator` makes a room with these options (JSON, as on the wire)
    /// and sits in it, as a connection's `create_room` does.
    pub(super) async fn create(&self, creator: &mut Member, options: Value) -> String {
        let options = serde_json::from_value(options).expect("room options");
        let room = super::super::create(&self.shared, &creator.identity, options)
            .await
            .expect("room created");
        creator
            .request(json!({"type": "join_room", "room_id": room, "role": "player"}))
            .await;
        room.to_string()
    }

    /// A Gomoku room (15×15 freestyle, no opening rule) of `black` against
    /// `white`, both seated and the game begun.
    pub(super) async fn gomoku(&mut self, extra: Value) -> (Member, Member, String) {
        let mut black = self.member("Black");
        let mut white = self.member("White");
        let mut options = gomoku_options(json!({"kind": "human"}), "black");
        merge(&mut options, extra);
        let room = self.create(&mut black, options).await;
        white
            .request(json!({"type": "join_room", "room_id": room, "role": "player"}))
            .await;
        black.event("game_started").await;
        white.event("game_started").await;
        (black, white, room)
    }
}

/// Gomoku options as JSON.
pub(super) fn gomoku_options(opponent: Value, colour: &str) -> Value {
    json!({
        "game": {"game": "gomoku", "size": 15, "rule": "freestyle", "opening": "none"},
        "opponent": opponent,
        "colour": colour,
    })
}

/// Backgammon options as JSON (`length` 0: a money game).
pub(super) fn backgammon_options(opponent: Value, colour: &str, length: u32) -> Value {
    json!({
        "game": {"game": "backgammon", "length": length, "cube": true, "jacoby": false, "crawford": true, "doubles_twice": false},
        "opponent": opponent,
        "colour": colour,
    })
}

/// Copies the fields of `extra` (an object) into `options`.
fn merge(options: &mut Value, extra: Value) {
    if let (Some(o), Value::Object(e)) = (options.as_object_mut(), extra) {
        o.extend(e);
    }
}

/// A stone at `(x, y)` as an `act` request's action.
pub(super) fn place(x: u8, y: u8) -> Value {
    json!({"kind": "place", "point": {"x": x, "y": y}})
}

/// One connection's side of the rooms it is in.
pub(super) struct Member {
    shared: Arc<Shared>,
    conn: ConnId,
    pub(super) identity: Arc<Identity>,
    frames: Arc<Frames>,
    /// The frames a test has taken (by index).
    taken: std::collections::BTreeSet<usize>,
    next_request: u64,
}

impl Member {
    /// Sends a request to its room, as the connection forwards it, and
    /// returns its request id.
    pub(super) async fn send(&mut self, message: Value) -> u64 {
        let id = self.next_request;
        self.next_request += 1;
        let message: ClientMessage = serde_json::from_value(message).expect("a client message");
        let room = message.room_id().expect("a room's request").clone();
        let handle = self.shared.lobby.room(&room).expect("the room is open");
        let caller = Caller {
            conn: self.conn,
            tx: Outlet::relay(self.frames.clone()),
            identity: self.identity.clone(),
            request_id: Some(id),
        };
        handle
            .send(RoomCommand::Request { caller, message })
            .await
            .expect("the room takes commands");
        id
    }

    /// Sends a request and waits for its answer (the frame carrying its
    /// request id).
    pub(super) async fn request(&mut self, message: Value) -> Value {
        let id = self.send(message).await;
        self.expect(|f| f["request_id"] == id).await
    }

    /// [`Member::request`] for an `act` in `room`.
    pub(super) async fn act(&mut self, room: &str, action: Value) -> Value {
        self.request(json!({"type": "act", "room_id": room, "action": action}))
            .await
    }

    /// The connection drops, as a closed socket tells the room.
    pub(super) async fn disconnect(&self, room: &str) {
        let handle = self.shared.lobby.room(room).expect("the room is open");
        handle
            .send(RoomCommand::Disconnected { conn: self.conn })
            .await
            .expect("the room takes commands");
    }

    /// Waits for the first frame not yet taken that matches `pred`, and
    /// takes it (frames before it stay for later calls).
    pub(super) async fn expect(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let found = {
                let frames = self.frames.0.lock().expect("frames");
                (0..frames.len())
                    .find(|&i| !self.taken.contains(&i) && pred(&frames[i]))
                    .map(|i| (i, frames[i].clone()))
            };
            if let Some((at, frame)) = found {
                self.taken.insert(at);
                return frame;
            }
            if tokio::time::Instant::now() >= deadline {
                let frames = self.frames.0.lock().expect("frames");
                let left: Vec<&Value> = (0..frames.len())
                    .filter(|i| !self.taken.contains(i))
                    .map(|i| &frames[i])
                    .collect();
                panic!("{} waited in vain; not taken: {left:?}", self.identity.name);
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Waits for a room event of this kind and returns the frame.
    pub(super) async fn event(&mut self, kind: &str) -> Value {
        self.expect(|f| f["type"] == "event" && f["event"]["kind"] == kind)
            .await
    }

    /// Every frame so far, taken or not.
    pub(super) fn all(&self) -> Vec<Value> {
        self.frames.0.lock().expect("frames").clone()
    }

    /// The room's snapshot, asked for with `sync`.
    pub(super) async fn sync(&mut self, room: &str) -> Value {
        self.request(json!({"type": "sync", "room_id": room})).await
    }
}
