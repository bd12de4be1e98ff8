//! End-to-end test helpers for Tabula: a real server on `127.0.0.1:0` (in
//! process, or as a child process that can be killed), and a small WebSocket
//! client that speaks the protocol as JSON, the way a bot would.

pub mod browser;
pub mod changes;
pub mod loop_disk;
pub mod process_stats;
pub mod redis;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long a test waits for any one expected message.
pub const WAIT: Duration = Duration::from_secs(20);

/// A server running inside the test process.
pub struct TestServer {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its data directory.
    pub data_dir: PathBuf,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
    _tmp: Option<tempfile::TempDir>,
}

/// Test settings: fixed dice, no wait for dice seeds, short grace period, quick AI, and a rate limit
/// high enough for bots that sync after every move.
pub fn test_config(data_dir: &Path) -> tabula_server::Config {
    tabula_server::Config {
        data_dir: data_dir.to_path_buf(),
        rate_burst: 500,
        rate_per_sec: 500,
        dice_seed: Some(7),
        // The opening roll does not wait for dice seeds that older tests
        // never send.
        dice_seed_wait: Duration::ZERO,
        grace: Duration::from_secs(2),
        ai_budget: Duration::from_millis(100),
        // Every test client comes from 127.0.0.1.
        connections_per_address: 10_000,
        ..tabula_server::Config::default()
    }
}

impl TestServer {
    /// Starts a server with [`test_config`] in a fresh temporary directory.
    pub async fn start() -> TestServer {
        let tmp = tempfile::tempdir().expect("temp dir");
        let config = test_config(tmp.path());
        let mut server = TestServer::start_with(config).await;
        server._tmp = Some(tmp);
        server
    }

    /// Starts a server with the given settings.
    pub async fn start_with(config: tabula_server::Config) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (stop, stopped) = oneshot::channel::<()>();
        let data_dir = config.data_dir.clone();
        let task = tokio::spawn(async move {
            tabula_server::run(listener, config, async {
                let _ = stopped.await;
            })
            .await
            .expect("server runs");
        });
        TestServer {
            addr,
            data_dir,
            stop: Some(stop),
            task: Some(task),
            _tmp: None,
        }
    }

    /// Shuts the server down gracefully and waits for it.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = tokio::time::timeout(WAIT, task).await;
        }
    }

    /// Ada (black, first seat) and Bob (white) in a fresh PvP Gomoku room
    /// whose game has started: (ada, bob, room id).
    pub async fn pvp_gomoku(&self) -> (Client, Client, String) {
        self.pvp_gomoku_between("Ada", "Bob").await
    }

    /// [`TestServer::pvp_gomoku`] between two other names.
    pub async fn pvp_gomoku_between(&self, black: &str, white: &str) -> (Client, Client, String) {
        pvp_gomoku_at(self.addr, black, white).await
    }

    /// A connected client that has said hello.
    pub async fn client(&self, name: &str) -> Client {
        guest_at(self.addr, name).await
    }
}

/// A guest named `name`, connected to the server at `addr` and welcomed.
pub async fn guest_at(addr: SocketAddr, name: &str) -> Client {
    let mut client = Client::connect(addr).await;
    client.hello(name, None).await;
    client
}

/// A guest at `addr` who registers their name with `password`.
pub async fn registered_at(addr: SocketAddr, name: &str, password: &str) -> Client {
    let mut client = guest_at(addr, name).await;
    let reply = client
        .request(serde_json::json!({"type": "register", "password": password}))
        .await;
    assert_eq!(reply["type"], "registered", "{reply}");
    client
}

/// Guests `black` (the first seat) and `white` in a fresh PvP Gomoku room
/// on the server at `addr`, its game started: (black, white, room id).
pub async fn pvp_gomoku_at(addr: SocketAddr, black: &str, white: &str) -> (Client, Client, String) {
    let mut first = guest_at(addr, black).await;
    let mut second = guest_at(addr, white).await;
    let (room, _) = first
        .create(gomoku_options(json!({"kind": "human"}), "black"))
        .await;
    second.join(&room, "player").await;
    (first, second, room)
}

/// A WebSocket client speaking JSON.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// From `welcome`.
    pub player_id: String,
    /// From `welcome`.
    pub token: String,
    /// From `welcome`: rooms where this player holds a seat.
    pub rooms: Vec<String>,
    /// Every server message received except snapshots, in order.
    pub seen: Vec<Value>,
    /// Received but not yet consumed by `next` or `expect`.
    pending: std::collections::VecDeque<Value>,
    next_request: u64,
}

impl Client {
    /// Opens a WebSocket to the server.
    pub async fn connect(addr: SocketAddr) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/"))
            .await
            .expect("websocket connects");
        Client::over(ws)
    }

    /// A client on an open WebSocket that has not said hello yet.
    /// Connects as a load balancer would pass a client on: with
    /// `X-Forwarded-For: forwarded_for`.
    pub async fn connect_forwarded(addr: SocketAddr, forwarded_for: &str) -> Client {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = format!("ws://{addr}/")
            .into_client_request()
            .expect("request");
        request.headers_mut().insert(
            "X-Forwarded-For",
            forwarded_for.parse().expect("header value"),
        );
        let (ws, _) = tokio_tungstenite::connect_async(request)
            .await
            .expect("websocket connects");
        Client::over(ws)
    }

    fn over(ws: WebSocketStream<MaybeTlsStream<TcpStream>>) -> Client {
        Client {
            ws,
            player_id: String::new(),
            token: String::new(),
            rooms: Vec::new(),
            seen: Vec::new(),
            pending: std::collections::VecDeque::new(),
            next_request: 1,
        }
    }

    /// Opens a WebSocket to the server from the local address `from` (any
    /// of 127.0.0.0/8 on Linux): a client at another address, for the
    /// limits per address.
    pub async fn connect_from(addr: SocketAddr, from: std::net::IpAddr) -> Client {
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket
            .bind(SocketAddr::new(from, 0))
            .expect("bind the local address");
        let tcp = socket.connect(addr).await.expect("tcp connects");
        let (ws, _) =
            tokio_tungstenite::client_async(format!("ws://{addr}/"), MaybeTlsStream::Plain(tcp))
                .await
                .expect("websocket connects");
        Client::over(ws)
    }

    /// Says hello (optionally resuming with a token) and waits for `welcome`.
    pub async fn hello(&mut self, name: &str, token: Option<&str>) -> Value {
        let mut msg = json!({"type": "hello", "protocol": 1, "name": name});
        if let Some(token) = token {
            msg["token"] = json!(token);
        }
        let welcome = self.request(msg).await;
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        self.player_id = welcome["player_id"].as_str().unwrap_or_default().into();
        self.token = welcome["token"].as_str().unwrap_or_default().into();
        self.rooms = welcome["rooms"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        welcome
    }

    /// Sends one JSON message.
    pub async fn send(&mut self, msg: Value) {
        self.send_text(msg.to_string()).await;
    }

    /// Sends a raw text frame.
    pub async fn send_text(&mut self, text: String) {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .expect("send");
    }

    /// Sends a raw message of any kind.
    pub async fn send_raw(&mut self, message: Message) -> Result<(), String> {
        self.ws.send(message).await.map_err(|e| e.to_string())
    }

    /// Sends a request with a fresh `request_id` and returns the reply that echoes it.
    pub async fn request(&mut self, mut msg: Value) -> Value {
        let id = self.next_request;
        self.next_request += 1;
        msg["request_id"] = json!(id);
        self.send(msg).await;
        self.expect(|m| m["request_id"] == json!(id)).await
    }

    /// `request`, sent again after the server's `retry_after_ms` for as long
    /// as the answer is `rate_limited`: for tests that play fast loops and
    /// test something other than the limits.
    pub async fn request_patiently(&mut self, msg: Value) -> Value {
        loop {
            let reply = self.request(msg.clone()).await;
            if reply["code"] != "rate_limited" {
                return reply;
            }
            let wait = reply["retry_after_ms"].as_u64().unwrap_or(500).max(20);
            tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
        }
    }

    /// The next text message not yet consumed, or `None` when the connection closed.
    pub async fn next(&mut self) -> Option<Value> {
        match self.pending.pop_front() {
            Some(v) => Some(v),
            None => self.receive().await,
        }
    }

    /// Reads the next text message off the socket.
    async fn receive(&mut self) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let frame = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .expect("a message in time");
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let value: Value =
                        serde_json::from_str(text.as_str()).expect("server sends JSON");
                    // Every server frame must decode as a typed ServerFrame too.
                    let typed: Result<tabula_shared::protocol::ServerFrame, _> =
                        serde_json::from_str(text.as_str());
                    assert!(typed.is_ok(), "server frame does not decode: {text}");
                    // Snapshots are large; keep only the smaller messages for inspection.
                    if value["type"] != "snapshot" {
                        self.seen.push(value.clone());
                    }
                    return Some(value);
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(_)) => continue,
            }
        }
    }

    /// Waits for the close frame and returns its code (None if closed without one).
    pub async fn closed_with(&mut self) -> Option<u16> {
        loop {
            let frame = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("closed in time");
            match frame {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
                Some(Ok(_)) => continue,
                None | Some(Err(_)) => return None,
            }
        }
    }

    /// The first message (consumed or not yet read) that matches; the ones
    /// skipped stay available to later calls.
    pub async fn expect(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(v) = self
            .pending
            .iter()
            .position(&pred)
            .and_then(|i| self.pending.remove(i))
        {
            return v;
        }
        loop {
            match self.receive().await {
                Some(v) if pred(&v) => return v,
                Some(v) => self.pending.push_back(v),
                None => panic!(
                    "connection closed while waiting; last seen: {:?}",
                    self.seen.last()
                ),
            }
        }
    }

    /// Waits for a room event of this kind.
    pub async fn event(&mut self, kind: &str) -> Value {
        let kind = kind.to_string();
        self.expect(move |m| m["type"] == "event" && m["event"]["kind"] == kind.as_str())
            .await
    }

    /// Waits for an `action` event and returns the action.
    pub async fn action(&mut self) -> Value {
        self.event("action").await["event"]["action"].clone()
    }

    /// Waits for an `action` event whose action matches.
    pub async fn action_where(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        self.expect(|m| {
            m["type"] == "event" && m["event"]["kind"] == "action" && pred(&m["event"]["action"])
        })
        .await["event"]["action"]
            .clone()
    }

    /// Creates a room and returns (room id, seat).
    pub async fn create(&mut self, options: Value) -> (String, String) {
        let joined = self
            .request(json!({"type": "create_room", "options": options}))
            .await;
        assert_eq!(joined["type"], "joined", "{joined}");
        let room = joined["room_id"].as_str().expect("room id").to_string();
        let seat = joined["seat"].as_str().expect("seat").to_string();
        self.expect(|m| m["type"] == "snapshot").await;
        (room, seat)
    }

    /// Joins a room in a role and returns the `joined` reply.
    /// The host adds the AI `level` to tournament `id` (asserted `ok`).
    pub async fn add_ai_entrant(&mut self, id: &str, level: &str) {
        let added = self
            .request(json!({"type": "manage_tournament", "tournament_id": id,
                "action": {"do": "add", "entrant": {"ai": level}}}))
            .await;
        assert_eq!(added["type"], "ok", "{added}");
    }

    pub async fn join(&mut self, room: &str, role: &str) -> Value {
        let joined = self
            .request(json!({"type": "join_room", "room_id": room, "role": role}))
            .await;
        assert_eq!(joined["type"], "joined", "{joined}");
        joined
    }

    /// Sends an `act` request and returns the reply: the action's event, or an `error`.
    pub async fn act(&mut self, room: &str, action: Value) -> Value {
        let reply = self
            .request(json!({"type": "act", "room_id": room, "action": action}))
            .await;
        if reply["type"] == "event" {
            // An accepted action is answered by its own event: it stays
            // available to `event` and `action`, like every other event.
            self.pending.push_back(reply.clone());
        }
        reply
    }

    /// Like [`Client::act`], but `None` when the connection ends first (a
    /// server killed mid-request) instead of a panic.
    pub async fn try_act(&mut self, room: &str, action: Value) -> Option<Value> {
        self.try_request(json!({"type": "act", "room_id": room, "action": action}))
            .await
    }

    /// Like [`Client::request`], but `None` when the connection ends before
    /// the reply (a server killed mid-request) instead of a panic.
    pub async fn try_request(&mut self, mut msg: Value) -> Option<Value> {
        let id = self.next_request;
        self.next_request += 1;
        msg["request_id"] = json!(id);
        self.ws
            .send(Message::Text(msg.to_string().into()))
            .await
            .ok()?;
        loop {
            let v = self.receive().await?;
            if v["request_id"] == json!(id) {
                return Some(v);
            }
        }
    }

    /// How many actions `room`'s record holds now (from a `sync`).
    pub async fn record_len(&mut self, room: &str) -> usize {
        let sync = self.request(json!({"type": "sync", "room_id": room})).await;
        sync["snapshot"]["record"]["actions"]
            .as_array()
            .map_or(0, Vec::len)
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// The address a server started as a child process prints first
/// (`LISTENING <addr>` on its piped stdout).
pub fn listening_addr(child: &mut std::process::Child) -> SocketAddr {
    use std::io::BufRead;
    let stdout = child.stdout.take().expect("the server's stdout is piped");
    let mut line = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .expect("server prints its address");
    line.trim()
        .strip_prefix("LISTENING ")
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
}

/// The points of one colour class, `(x + 2y) % 5` in `classes`, as JSON
/// points. A set missing one class of that sum has no five in a row in any
/// direction: two players on two such sets never end their game.
pub fn points_without_five(classes: [u8; 2]) -> Vec<Value> {
    let mut out = Vec::new();
    for y in 0..15u8 {
        for x in 0..15u8 {
            if classes.contains(&((x + 2 * y) % 5)) {
                out.push(point(x, y));
            }
        }
    }
    out
}

/// Checks that the events of `room` among `seen` (a client's messages,
/// from the snapshot it joined with on) are numbered once each and without
/// gaps, as a client that follows `seq` needs them, and that each snapshot
/// is numbered as the last event before it; returns the last number.
pub fn assert_numbered_once(seen: &[Value], room: &str) -> u64 {
    let mut last: Option<u64> = None;
    for message in seen {
        let seq = match message["type"].as_str() {
            Some("event") if message["room_id"] == room => message["seq"].as_u64(),
            Some("snapshot") if message["room_id"] == room => {
                let at = message["snapshot"]["seq"].as_u64();
                if let Some(last) = last {
                    assert_eq!(at, Some(last), "a snapshot after event {last}: {message}");
                }
                last = at;
                continue;
            }
            _ => continue,
        };
        let seq = seq.unwrap_or_else(|| panic!("an event without seq: {message}"));
        if let Some(last) = last {
            assert_eq!(seq, last + 1, "event {seq} after {last}: {message}");
        }
        last = Some(seq);
    }
    last.unwrap_or(0)
}

/// Settings for load tools: limits far above what their bots reach, since
/// every bot comes from this machine's one address and moves far faster
/// than people do (the default 30 requests/s per connection would make a
/// load test a rate-limit test).
pub fn load_config(data_dir: &Path) -> tabula_server::Config {
    tabula_server::Config {
        data_dir: data_dir.to_path_buf(),
        max_connections: 100_000,
        max_rooms: 100_000,
        rate_burst: 1_000,
        rate_per_sec: 1_000,
        new_players_per_address: u32::MAX,
        rooms_per_address: usize::MAX,
        connections_per_address: usize::MAX,
        ..tabula_server::Config::default()
    }
}

/// Gomoku options as JSON.
pub fn gomoku_options(opponent: Value, colour: &str) -> Value {
    json!({
        "game": {"game": "gomoku", "size": 15, "rule": "freestyle", "opening": "none"},
        "opponent": opponent,
        "colour": colour,
    })
}

/// Backgammon money-game options as JSON.
pub fn backgammon_options(opponent: Value, colour: &str, length: u32) -> Value {
    json!({
        "game": {"game": "backgammon", "length": length, "cube": true, "jacoby": false, "crawford": true, "doubles_twice": false},
        "opponent": opponent,
        "colour": colour,
    })
}

/// A point as JSON.
pub fn point(x: u8, y: u8) -> Value {
    json!({"x": x, "y": y})
}

/// A child-process server (`tabula-test-server`) that can be killed with SIGKILL.
pub struct ChildServer {
    /// Where it listens.
    pub addr: SocketAddr,
    child: std::process::Child,
}

impl ChildServer {
    /// Starts the binary at `exe` on `127.0.0.1:0` (or `bind`) with `data_dir`.
    pub fn start(exe: &str, data_dir: &Path, bind: Option<SocketAddr>) -> ChildServer {
        let bind = bind.map(|b| b.to_string());
        let args: Vec<&str> = match &bind {
            Some(b) => vec!["--bind", b],
            None => vec![],
        };
        ChildServer::start_with_args(exe, data_dir, &args)
    }

    /// Starts the binary at `exe` with `data_dir` and more arguments.
    pub fn start_with_args(exe: &str, data_dir: &Path, args: &[&str]) -> ChildServer {
        let mut cmd = std::process::Command::new(exe);
        cmd.arg("--data-dir").arg(data_dir).args(args);
        let mut child = cmd
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("server process starts");
        let addr = listening_addr(&mut child);
        ChildServer { addr, child }
    }

    /// Starts a graceful stop (closes its stdin): it saves its rooms and,
    /// as a cluster node, hands them over; [`ChildServer::wait_stopped`]
    /// waits for it to exit.
    pub fn begin_stop(&mut self) {
        drop(self.child.stdin.take());
    }

    /// Waits up to 30 s for the server to exit after [`ChildServer::begin_stop`].
    pub fn wait_stopped(&mut self) {
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while std::time::Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("the server did not stop within 30 s of its stdin closing");
    }

    /// Sends the server a signal (`STOP`, `CONT`, ...) with `kill`.
    pub fn signal(&self, signal: &str) {
        let sent = std::process::Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(self.child.id().to_string())
            .status()
            .expect("kill runs");
        assert!(sent.success(), "kill -{signal} failed");
    }

    /// SIGKILL: no chance to save anything.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ChildServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Rebuilds a room's game from a `snapshot` reply.
pub fn replay_snapshot(snapshot: &Value) -> tabula_shared::game::LiveGame {
    let record: tabula_shared::protocol::GameRecord =
        serde_json::from_value(snapshot["snapshot"]["record"].clone()).expect("record decodes");
    record.replay().expect("record replays")
}
