//! Tabula as a cluster, end to end: a real PostgreSQL and a real Redis
//! started for each test, and two or three `tabula-test-server` nodes on
//! them as child processes (so that one can be killed with SIGKILL).
//!
//! - Two players on different nodes play a full game with a spectator on
//!   each node; all four see the same numbered events, and the lobby of
//!   each node lists the room.
//! - The node that runs a game is killed at a random moment, again and
//!   again: the room moves to a surviving node within the lease, the
//!   players reconnect there and go on, and every acknowledged move is in
//!   the record.
//! - A node stopped gracefully hands its rooms over at once.
//! - Redis restarted mid-game: the game goes on and nothing is lost.
//! - A node frozen past its lease (SIGSTOP) and thawed: the room runs on the
//!   other node meanwhile, and the thawed node's late move is refused, never
//!   told as made.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tabula_test_postgres::TestPostgres;
use tabula_tests::redis::TestRedis;
use tabula_tests::{ChildServer, Client, gomoku_options, point, points_without_five};

/// A node's lease on a room in these tests (the nodes renew it every third).
const LEASE_MS: u64 = 2_000;

/// A cluster node on the database `url` and the Redis at `redis`.
fn node(dir: &Path, url: &str, redis: &str) -> ChildServer {
    let exe = env!("CARGO_BIN_EXE_tabula-test-server");
    let lease = LEASE_MS.to_string();
    ChildServer::start_with_args(
        exe,
        dir,
        &["--database", url, "--redis", redis, "--lease-ms", &lease],
    )
}

/// Two nodes on a PostgreSQL and a Redis of their own (dropped in this
/// order: the nodes first).
struct TwoNodes {
    a: ChildServer,
    b: ChildServer,
    redis: TestRedis,
    _pg: TestPostgres,
    _dirs: [tempfile::TempDir; 2],
}

fn two_nodes() -> TwoNodes {
    let pg = TestPostgres::start();
    let url = pg.database();
    let redis = TestRedis::start();
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    TwoNodes {
        a: node(dirs[0].path(), &url, &redis.url()),
        b: node(dirs[1].path(), &url, &redis.url()),
        redis,
        _pg: pg,
        _dirs: dirs,
    }
}

/// Ada (black, on node A, which runs the room) and Bob (on node B) seated
/// in a new Gomoku room.
async fn cross_node_game(nodes: &TwoNodes) -> (Client, Client, String) {
    let mut ada = guest(nodes.a.addr, "Ada", None).await;
    let mut bob = guest(nodes.b.addr, "Bob", None).await;
    let (room, _) = ada
        .create(gomoku_options(json!({"kind": "human"}), "black"))
        .await;
    join_when_there(&mut bob, &room, "player").await;
    (ada, bob, room)
}

/// A guest named `name` on `addr`, back with `token` when given.
async fn guest(addr: std::net::SocketAddr, name: &str, token: Option<&str>) -> Client {
    let mut client = Client::connect(addr).await;
    client.hello(name, token).await;
    client
}

/// Joins `room` in `role` on `client`, trying again while the room is
/// moving between nodes (`busy`) or not yet known to this node
/// (`not_found`: the news has not arrived), for up to 20 s. `None` when
/// the connection closed (the room moved while the request was on its way
/// to a node that died: the client reconnects).
async fn try_join(client: &mut Client, room: &str, role: &str) -> Option<Value> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let reply = client
            .try_request(json!({"type": "join_room", "room_id": room, "role": role}))
            .await?;
        if reply["type"] == "joined" {
            client.expect(|m| m["type"] == "snapshot").await;
            return Some(reply);
        }
        assert!(
            reply["code"] == "busy" || reply["code"] == "not_found",
            "joining {room}: {reply}"
        );
        assert!(Instant::now() < deadline, "{room} never came back: {reply}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `client` joins `room` in `role`, as [`try_join`], which must succeed.
async fn join_when_there(client: &mut Client, room: &str, role: &str) -> Value {
    try_join(client, room, role)
        .await
        .expect("the connection stays open")
}

/// Guest `name` (with `token`) back in `room` as a player through `addr`,
/// reconnecting as often as its connection is closed under it.
async fn rejoin(addr: std::net::SocketAddr, name: &str, token: &str, room: &str) -> Client {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let mut client = guest(addr, name, Some(token)).await;
        if try_join(&mut client, room, "player").await.is_some() {
            return client;
        }
        assert!(
            Instant::now() < deadline,
            "{name} never got back into {room}"
        );
    }
}

/// The numbered events of `room` a client saw: (seq, event).
fn events_seen(client: &Client, room: &str) -> Vec<(u64, Value)> {
    client
        .seen
        .iter()
        .filter(|m| m["type"] == "event" && m["room_id"] == room)
        .map(|m| (m["seq"].as_u64().expect("seq"), m["event"].clone()))
        .collect()
}

#[tokio::test]
async fn players_and_spectators_on_two_nodes_see_one_game() {
    let nodes = two_nodes();
    let (a, b) = (&nodes.a, &nodes.b);
    let mut ada = guest(a.addr, "Ada", None).await;
    let mut bob = guest(b.addr, "Bob", None).await;
    let mut sam = guest(a.addr, "Sam", None).await;
    let mut sue = guest(b.addr, "Sue", None).await;
    let (room, _) = ada
        .create(gomoku_options(json!({"kind": "human"}), "black"))
        .await;

    // Node B's lobby lists the room node A runs.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let list = bob.request(json!({"type": "list_rooms"})).await;
        let rooms = list["rooms"].as_array().expect("rooms");
        if rooms.iter().any(|r| r["room_id"] == room.as_str()) {
            break;
        }
        assert!(Instant::now() < deadline, "node B never listed {room}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    join_when_there(&mut bob, &room, "player").await;
    join_when_there(&mut sam, &room, "spectator").await;
    join_when_there(&mut sue, &room, "spectator").await;

    // Ada (node A) makes five on row 0; Bob (node B) plays row 5.
    for i in 0..4u8 {
        let reply = ada
            .act(&room, json!({"kind": "place", "point": point(i, 0)}))
            .await;
        assert_eq!(reply["type"], "event", "{reply}");
        let reply = bob
            .act(&room, json!({"kind": "place", "point": point(i, 5)}))
            .await;
        assert_eq!(reply["type"], "event", "{reply}");
    }
    let reply = ada
        .act(&room, json!({"kind": "place", "point": point(4, 0)}))
        .await;
    assert_eq!(reply["type"], "event", "{reply}");
    for client in [&mut ada, &mut bob, &mut sam, &mut sue] {
        let over = client.event("game_over").await;
        assert_eq!(over["event"]["result"]["winner"], "first", "{over}");
    }

    // All four saw the same numbered events, from the moment the four were
    // in: the nine moves and the end.
    let ada_saw = events_seen(&ada, &room);
    let last = ada_saw.last().expect("events").0;
    let tail = |saw: Vec<(u64, Value)>| -> Vec<(u64, Value)> {
        saw.into_iter()
            .filter(|(seq, _)| *seq + 10 > last)
            .collect()
    };
    let ada_saw = tail(ada_saw);
    assert_eq!(ada_saw.len(), 10, "{ada_saw:?}");
    for (who, client) in [("Bob", &bob), ("Sam", &sam), ("Sue", &sue)] {
        assert_eq!(
            tail(events_seen(client, &room)),
            ada_saw,
            "{who} saw otherwise"
        );
    }

    // Sam (node A) challenges Sue (node B) by name; she accepts on node B,
    // which runs the new room, and Sam joins it through node A.
    let options = gomoku_options(json!({"kind": "human"}), "black");
    let sent = sam
        .request(json!({"type": "challenge", "to": "sue", "options": options}))
        .await;
    assert_eq!(sent["type"], "challenge_sent", "{sent}");
    let got = sue.expect(|m| m["type"] == "challenged").await;
    assert_eq!(got["from"]["name"], "Sam", "{got}");
    let joined = sue
        .request(json!({"type": "answer_challenge",
                        "challenge_id": sent["challenge_id"], "accept": true}))
        .await;
    assert_eq!(joined["type"], "joined", "{joined}");
    let answered = sam.expect(|m| m["type"] == "challenge_answered").await;
    assert_eq!(answered["accepted"], true, "{answered}");
    let challenge_room = answered["room_id"].as_str().expect("room").to_string();
    join_when_there(&mut sam, &challenge_room, "player").await;
    let started = sue.event("game_started").await;
    assert_eq!(started["room_id"], json!(challenge_room));

    // An account registered on node A signs in on node B.
    let reply = ada
        .request(json!({"type": "register", "password": "correct horse battery"}))
        .await;
    assert_eq!(reply["type"], "registered", "{reply}");
    let mut signed_in = None;
    for wait_ms in [100, 1_000] {
        tokio::time::sleep(Duration::from_millis(wait_ms)).await;
        let mut again = Client::connect(b.addr).await;
        let welcome = again
            .request(json!({"type": "hello", "protocol": 1, "name": "Ada",
                            "account_password": "correct horse battery"}))
            .await;
        if welcome["type"] == "welcome" {
            signed_in = Some(welcome);
            break;
        }
    }
    let welcome = signed_in.expect("Ada signs in on node B");
    assert_eq!(welcome["player_id"], ada.player_id.as_str(), "{welcome}");

    // Tournaments run on a server alone for now: refused with a type on a
    // cluster, not run twice by two nodes.
    let refused = ada
        .request(json!({"type": "create_tournament", "spec": {
            "name": "Cluster cup",
            "format": {"kind": "swiss", "rounds": 3},
            "game": {"game": "gomoku", "size": 15, "rule": "freestyle", "opening": "none"},
            "time_control": {"initial_secs": 300, "increment_secs": 0},
            "max_entrants": 8
        }}))
        .await;
    assert_eq!(refused["code"], "bad_request", "{refused}");

    // The finished game is in each player's history, whichever node asks.
    for client in [&mut ada, &mut bob] {
        let games = client
            .request(json!({"type": "list_games", "offset": 0, "limit": 10}))
            .await;
        assert_eq!(games["total"], 1, "{games}");
    }
}

/// Plays alternate moves as fast as the server answers, from move `start`
/// until a move is not acknowledged (its node died); returns how many were.
async fn play_until_cut(
    ada: &mut Client,
    bob: &mut Client,
    room: &str,
    start: usize,
    black: &[Value],
    white: &[Value],
) -> usize {
    let mut done = 0;
    for i in start..start + 40 {
        let (mover, stones) = if i % 2 == 0 {
            (&mut *ada, black)
        } else {
            (&mut *bob, white)
        };
        let place = json!({"kind": "place", "point": stones[i / 2]});
        match mover.try_act(room, place).await {
            Some(reply) if reply["type"] == "event" => done += 1,
            // The room's node died: the relaying node says so, or the
            // connection closes.
            Some(reply) if reply["code"] == "busy" => break,
            Some(reply) => panic!("move {i} refused: {reply}"),
            None => break,
        }
    }
    done
}

/// An arbitrary delay of 100–700 ms from a small xorshift.
fn next_delay(rng: &mut u64) -> Duration {
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    Duration::from_millis(100 + *rng % 600)
}

/// Ada and Bob back in `room` as players, both through `addr`.
async fn back_in(addr: std::net::SocketAddr, tokens: &[String; 2], room: &str) -> (Client, Client) {
    let ada = rejoin(addr, "Ada", &tokens[0], room).await;
    let bob = rejoin(addr, "Bob", &tokens[1], room).await;
    (ada, bob)
}

#[tokio::test]
async fn a_killed_nodes_rooms_move_to_another_node_with_every_acknowledged_move() {
    let pg = TestPostgres::start();
    let url = pg.database();
    let redis = TestRedis::start();
    let fresh_node = || {
        let dir = tempfile::tempdir().unwrap();
        let node = node(dir.path(), &url, &redis.url());
        (node, dir)
    };
    // `owner` runs the room (Ada plays there); `other` relays Bob's moves.
    let (mut owner, mut owner_dir) = fresh_node();
    let (mut other, mut other_dir) = fresh_node();
    let black = points_without_five([0, 1]);
    let white = points_without_five([2, 3]);
    let mut ada = guest(owner.addr, "Ada", None).await;
    let mut bob = guest(other.addr, "Bob", None).await;
    let tokens = [ada.token.clone(), bob.token.clone()];
    let (room, _) = ada
        .create(gomoku_options(json!({"kind": "human"}), "black"))
        .await;
    join_when_there(&mut bob, &room, "player").await;

    let mut acked = 0usize;
    let mut rng: u64 = 0x2545_F491_4F6C_DD1D;
    for round in 0..4 {
        // The room's node is killed at an arbitrary moment while the two
        // play on it and through the other node.
        let delay = next_delay(&mut rng);
        let victim = owner;
        let (done, ()) = tokio::join!(
            play_until_cut(&mut ada, &mut bob, &room, acked, &black, &white),
            async move {
                tokio::time::sleep(delay).await;
                victim.kill();
            }
        );
        acked += done;
        drop((ada, bob));
        // Both reconnect to the surviving node, which takes the room over
        // once the lease runs out, and find every acknowledged move.
        let started = Instant::now();
        let (mut ada_back, bob_back) = back_in(other.addr, &tokens, &room).await;
        let moved_in = started.elapsed();
        // The lease runs out at most a lease after its last renewal, and
        // the survivor claims within a third of a lease after that.
        eprintln!("round {round}: back in the room {moved_in:?} after the kill");
        assert!(
            moved_in < Duration::from_millis(LEASE_MS * 2),
            "round {round}: the room took {moved_in:?} to move"
        );
        let held = ada_back.record_len(&room).await;
        assert!(
            held >= acked && held <= acked + 1,
            "round {round}: {acked} moves acknowledged, {held} recovered"
        );
        acked = held;
        // A new node joins; Bob moves to it, so the next game is cross-node
        // again, and the survivor (which runs the room now) is next to die.
        drop(bob_back);
        owner = other;
        owner_dir = std::mem::replace(&mut other_dir, tempfile::tempdir().unwrap());
        (other, other_dir) = fresh_node();
        ada = ada_back;
        bob = rejoin(other.addr, "Bob", &tokens[1], &room).await;
    }
    drop(owner_dir);
    assert!(acked > 8, "moves were made: {acked}");

    // They finish the game: Bob resigns; the record holds every move.
    let resigned = bob
        .request(json!({"type": "resign", "room_id": room}))
        .await;
    assert_eq!(resigned["type"], "ok", "{resigned}");
    let over = ada.event("game_over").await;
    let game_id = over["event"]["game_id"].as_str().expect("game id");
    let game = bob
        .request(json!({"type": "get_game", "game_id": game_id}))
        .await;
    let moves = game["game"]["record"]["actions"]
        .as_array()
        .map_or(0, Vec::len);
    assert_eq!(moves, acked, "{game}");
    drop(owner);
}

/// What the players were told of, room by room: rooms made (the creator
/// was told `joined`), seats taken (the joiner was told `joined`) and
/// rematches started (the second asker was told `ok`); and the room whose
/// rematch was asked for when the node died, unanswered (it may have been
/// saved before the kill, or not).
#[derive(Default, Debug)]
struct Told {
    created: Vec<String>,
    joined: Vec<String>,
    rematched: Vec<String>,
    rematch_in_flight: Option<String>,
}

/// Ada (on the room's node) makes a room, Bob (through the other node)
/// takes its second seat, Black wins in five and both ask for a rematch;
/// again and again, until a request goes unanswered (its node died).
async fn make_rooms_until_cut(ada: &mut Client, bob: &mut Client, told: &mut Told) {
    // Six a round: Ada may have at most 20 games going.
    for _ in 0..6 {
        let options = gomoku_options(json!({"kind": "human"}), "black");
        let Some(made) = ada
            .try_request(json!({"type": "create_room", "options": options}))
            .await
        else {
            return;
        };
        if made["type"] != "joined" {
            return;
        }
        let room = made["room_id"].as_str().expect("room id").to_string();
        told.created.push(room.clone());
        // Bob's node hears of the room a moment later.
        let mut seated = false;
        for _ in 0..100 {
            let Some(reply) = bob
                .try_request(json!({"type": "join_room", "room_id": room, "role": "player"}))
                .await
            else {
                return;
            };
            match reply["type"].as_str() {
                Some("joined") => {
                    seated = true;
                    break;
                }
                _ if reply["code"] == "not_found" || reply["code"] == "busy" => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                _ => panic!("joining {room}: {reply}"),
            }
        }
        if !seated {
            return;
        }
        told.joined.push(room.clone());
        for x in 0..5u8 {
            let stone = json!({"kind": "place", "point": point(x, 7)});
            if ada
                .try_act(&room, stone)
                .await
                .is_none_or(|r| r["type"] != "event")
            {
                return;
            }
            if x == 4 {
                break;
            }
            let stone = json!({"kind": "place", "point": point(x, 9)});
            if bob
                .try_act(&room, stone)
                .await
                .is_none_or(|r| r["type"] != "event")
            {
                return;
            }
        }
        for asker in [&mut *ada, &mut *bob] {
            let asked = asker
                .try_request(json!({"type": "rematch", "room_id": room}))
                .await;
            if asked.is_none() {
                told.rematch_in_flight = Some(room);
                return;
            }
            if asked.is_some_and(|r| r["type"] != "ok") {
                return;
            }
        }
        told.rematched.push(room);
    }
}

/// Rooms made, joined and rematched while their node is killed: every one
/// whose player was told is on the node that takes over, as told (a room
/// is saved before its creator, the lobby or the other nodes hear of it).
#[tokio::test]
async fn rooms_made_joined_and_rematched_at_a_kill_are_there_as_told() {
    let pg = TestPostgres::start();
    let url = pg.database();
    let redis = TestRedis::start();
    let fresh_node = || {
        let dir = tempfile::tempdir().unwrap();
        let node = node(dir.path(), &url, &redis.url());
        (node, dir)
    };
    let (mut owner, mut owner_dir) = fresh_node();
    let (mut other, mut other_dir) = fresh_node();
    let mut ada = guest(owner.addr, "Ada", None).await;
    let mut bob = guest(other.addr, "Bob", None).await;
    let tokens = [ada.token.clone(), bob.token.clone()];
    let mut rng: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut totals = [0usize; 3];
    for round in 0..3 {
        let mut told = Told::default();
        // A cycle takes about 100 ms: the kill falls within the first four.
        let delay = next_delay(&mut rng) / 2;
        let victim = owner;
        tokio::join!(
            make_rooms_until_cut(&mut ada, &mut bob, &mut told),
            async move {
                tokio::time::sleep(delay).await;
                victim.kill();
            }
        );
        drop((ada, bob));
        // Every room Ada was told of is back on the survivor, with Bob in
        // the seat he was told he took and the rematch he was told of.
        // A room still waiting for its second player closes once nobody
        // has been in it for the grace period (2 s on these nodes), from
        // when the survivor took it over: those are looked at first.
        let mut rooms = told.created.clone();
        rooms.sort_by_key(|room| told.joined.contains(room));
        for room in &rooms {
            let mut back = rejoin(other.addr, "Ada", &tokens[0], room).await;
            let synced = back.request(json!({"type": "sync", "room_id": room})).await;
            let seats = &synced["snapshot"]["summary"]["seats"];
            let names: Vec<&str> = (0..2)
                .map(|i| seats[i]["player"]["name"].as_str().unwrap_or(""))
                .collect();
            let expected = if told.rematched.contains(room) {
                vec!["Bob", "Ada"]
            } else if told.joined.contains(room) {
                vec!["Ada", "Bob"]
            } else {
                vec!["Ada", ""]
            };
            // The rematch asked for as the node died: done or not.
            let in_flight =
                told.rematch_in_flight.as_ref() == Some(room) && names == ["Bob", "Ada"];
            if !in_flight {
                assert_eq!(names, expected, "round {round}, {room}: {synced}");
            }
            if told.rematched.contains(room) {
                assert!(synced["snapshot"]["result"].is_null(), "{synced}");
            }
        }
        eprintln!(
            "round {round}: {} rooms made, {} joined, {} rematched, all back",
            told.created.len(),
            told.joined.len(),
            told.rematched.len()
        );
        totals[0] += told.created.len();
        totals[1] += told.joined.len();
        totals[2] += told.rematched.len();
        owner = other;
        owner_dir = std::mem::replace(&mut other_dir, tempfile::tempdir().unwrap());
        (other, other_dir) = fresh_node();
        ada = guest(owner.addr, "Ada", Some(&tokens[0])).await;
        bob = guest(other.addr, "Bob", Some(&tokens[1])).await;
    }
    drop(owner_dir);
    assert!(
        totals[0] > 3 && totals[2] > 0,
        "rooms were made and rematched: {totals:?}"
    );
    drop(owner);
}

/// A room that closes takes its lease with it: PostgreSQL keeps no lease of
/// a room that is gone (they piled up by the hundred).
#[tokio::test]
async fn a_closed_room_leaves_no_lease_behind() {
    let pg = TestPostgres::start();
    let url = pg.database();
    let redis = TestRedis::start();
    let dir = tempfile::tempdir().unwrap();
    let node = node(dir.path(), &url, &redis.url());
    let mut ada = guest(node.addr, "Ada", None).await;
    let (room, _) = ada
        .create(gomoku_options(json!({"kind": "human"}), "black"))
        .await;
    let (db, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .expect("connect to the test database");
    tokio::spawn(connection);
    let leases = |room: String| {
        let db = &db;
        async move {
            db.query_one(
                "SELECT count(*) FROM room_leases WHERE room_id = $1",
                &[&room],
            )
            .await
            .expect("count leases")
            .get::<_, i64>(0)
        }
    };
    assert_eq!(leases(room.clone()).await, 1, "the node holds the room");
    // Left empty before anyone joined, the room closes after the grace period.
    let left = ada
        .request(json!({"type": "leave_room", "room_id": room}))
        .await;
    assert_eq!(left["type"], "left", "{left}");
    let deadline = Instant::now() + Duration::from_secs(15);
    while leases(room.clone()).await > 0 {
        assert!(
            Instant::now() < deadline,
            "the closed room's lease is still there"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let rooms: i64 = db
        .query_one("SELECT count(*) FROM rooms WHERE id = $1", &[&room])
        .await
        .expect("count rooms")
        .get(0);
    assert_eq!(rooms, 0, "the room itself is gone too");
    drop(node);
}

#[tokio::test]
async fn a_node_stopped_gracefully_hands_its_rooms_over_at_once() {
    let mut nodes = two_nodes();
    let (mut ada, mut bob, room) = cross_node_game(&nodes).await;
    let tokens = [ada.token.clone(), bob.token.clone()];
    for (mover, p) in [(&mut ada, point(7, 7)), (&mut bob, point(8, 8))] {
        let reply = mover.act(&room, json!({"kind": "place", "point": p})).await;
        assert_eq!(reply["type"], "event", "{reply}");
    }
    // The leases would last 2 s more; a graceful stop hands over at once.
    let stopped = Instant::now();
    nodes.a.begin_stop();
    // Bob's node closes his connection: the room moved.
    assert_eq!(bob.closed_with().await, Some(1012));
    let (mut ada, _bob) = back_in(nodes.b.addr, &tokens, &room).await;
    let moved_in = stopped.elapsed();
    eprintln!("back in the room {moved_in:?} after the graceful stop began");
    assert!(
        moved_in < Duration::from_millis(LEASE_MS),
        "the room took {moved_in:?} to move"
    );
    assert_eq!(ada.record_len(&room).await, 2);
    nodes.a.wait_stopped();
}

#[tokio::test]
async fn a_game_goes_on_when_redis_restarts() {
    let mut nodes = two_nodes();
    let (mut ada, mut bob, room) = cross_node_game(&nodes).await;
    let black = points_without_five([0, 1]);
    let white = points_without_five([2, 3]);
    let mut acked = 0;
    for i in 0..6 {
        let (mover, stones) = if i % 2 == 0 {
            (&mut ada, &black)
        } else {
            (&mut bob, &white)
        };
        let reply = mover
            .act(&room, json!({"kind": "place", "point": stones[i / 2]}))
            .await;
        assert_eq!(reply["type"], "event", "{reply}");
        acked += 1;
    }
    nodes.redis.restart();
    // Bob's node lost its link: it closes his connection, and he comes back.
    assert_eq!(bob.closed_with().await, Some(1012));
    let mut bob = rejoin(nodes.b.addr, "Bob", &bob.token.clone(), &room).await;
    // The game goes on across the two nodes, from where it was.
    for i in 6..12 {
        let (mover, stones) = if i % 2 == 0 {
            (&mut ada, &black)
        } else {
            (&mut bob, &white)
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let reply = mover
                .act(&room, json!({"kind": "place", "point": stones[i / 2]}))
                .await;
            if reply["type"] == "event" {
                break;
            }
            assert_eq!(reply["code"], "busy", "{reply}");
            assert!(Instant::now() < deadline, "move {i}: {reply}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        acked += 1;
    }
    assert_eq!(ada.record_len(&room).await, acked);
    assert_eq!(bob.record_len(&room).await, acked);
}

#[tokio::test]
async fn a_node_thawed_after_its_room_moved_cannot_play_in_it() {
    let nodes = two_nodes();
    let (mut ada, mut bob, room) = cross_node_game(&nodes).await;
    let tokens = [ada.token.clone(), bob.token.clone()];
    for (mover, p) in [(&mut ada, point(7, 7)), (&mut bob, point(8, 8))] {
        let reply = mover.act(&room, json!({"kind": "place", "point": p})).await;
        assert_eq!(reply["type"], "event", "{reply}");
    }
    // Node A stalls past its lease: node B takes the room over (and closes
    // Bob's connection to send him to it).
    nodes.a.signal("STOP");
    assert_eq!(bob.closed_with().await, Some(1012));
    // Ada's move waits in node A's socket while it is frozen; thawed, node A
    // may try to play it before it finds out that it lost the room.
    ada.send(json!({"type": "act", "room_id": room, "request_id": 999,
                    "action": {"kind": "place", "point": point(7, 8)}}))
        .await;
    nodes.a.signal("CONT");
    loop {
        match ada.next().await {
            None => break,
            Some(m) if m["request_id"] == 999 => {
                assert_eq!(
                    m["type"], "error",
                    "a move told as made on a stale node: {m}"
                );
                break;
            }
            Some(_) => {}
        }
    }
    // Where the room runs now, it holds the two moves and not the third.
    let mut bob = rejoin(nodes.b.addr, "Bob", &tokens[1], &room).await;
    assert_eq!(bob.record_len(&room).await, 2);
    let mut ada = rejoin(nodes.b.addr, "Ada", &tokens[0], &room).await;
    let reply = ada
        .act(&room, json!({"kind": "place", "point": point(7, 8)}))
        .await;
    assert_eq!(reply["type"], "event", "{reply}");
    assert_eq!(bob.record_len(&room).await, 3);
}
