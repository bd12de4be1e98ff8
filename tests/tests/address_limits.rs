//! Limits per client address, with real connections from several loopback
//! addresses (127.0.0.2, 127.0.0.3, ...): a new connection or a fresh guest
//! identity does not reset them, and a client at one address does not lock
//! out a player at another.

use std::net::IpAddr;

use serde_json::{Value, json};
use tabula_tests::{Client, TestServer, gomoku_options, test_config};

const PASSWORD: &str = "correct horse battery";

fn ip(s: &str) -> IpAddr {
    s.parse().expect("address")
}

async fn hello_from(server: &TestServer, from: &str, msg: Value) -> (Client, Value) {
    let mut client = Client::connect_from(server.addr, ip(from)).await;
    let reply = client.request(msg).await;
    (client, reply)
}

fn hello(name: &str) -> Value {
    json!({"type": "hello", "protocol": 1, "name": name})
}

#[tokio::test]
async fn wrong_server_passwords_are_limited_per_address() {
    let tmp = tempfile::tempdir().expect("dir");
    let mut config = test_config(tmp.path());
    config.password = Some("sesame".into());
    let server = TestServer::start_with(config).await;
    let with = |password: &str| {
        let mut msg = hello("Eve");
        msg["password"] = json!(password);
        msg
    };
    // One guess per connection: a new connection does not reset the count.
    for i in 0..10 {
        let (_, reply) = hello_from(&server, "127.0.0.2", with(&format!("guess{i}"))).await;
        assert_eq!(reply["code"], "auth_failed", "{reply}");
    }
    let (_, reply) = hello_from(&server, "127.0.0.2", with("sesame")).await;
    assert_eq!(reply["code"], "rate_limited", "{reply}");
    // Another address is not affected.
    let (_, reply) = hello_from(&server, "127.0.0.3", with("sesame")).await;
    assert_eq!(reply["type"], "welcome", "{reply}");
    server.stop().await;
}

#[tokio::test]
async fn private_room_codes_are_limited_per_address() {
    let server = TestServer::start().await;
    let mut ada = server.client("Ada").await;
    let mut options = gomoku_options(json!({"kind": "human"}), "black");
    options["private"] = json!(true);
    ada.request(json!({"type": "create_room", "options": options}))
        .await;
    let snap = ada.expect(|m| m["type"] == "snapshot").await;
    let code = snap["snapshot"]["code"].as_str().expect("code").to_string();
    // Four connections, five wrong codes each (the limit per connection).
    for n in 0..4 {
        let (mut guesser, _) = hello_from(&server, "127.0.0.2", hello(&format!("G{n}"))).await;
        for i in 0..5 {
            let guess = format!("WRONG{n}{i}A");
            let wrong = guesser
                .request(json!({"type": "join_by_code", "code": guess}))
                .await;
            assert_eq!(wrong["code"], "not_found", "{wrong}");
        }
    }
    // A fifth connection from the same address starts with no budget.
    let (mut fresh, _) = hello_from(&server, "127.0.0.2", hello("G5")).await;
    let limited = fresh
        .request(json!({"type": "join_by_code", "code": code}))
        .await;
    assert_eq!(limited["code"], "rate_limited", "{limited}");
    let (mut bob, _) = hello_from(&server, "127.0.0.3", hello("Bob")).await;
    let joined = bob
        .request(json!({"type": "join_by_code", "code": code}))
        .await;
    assert_eq!(joined["type"], "joined", "{joined}");
    server.stop().await;
}

#[tokio::test]
async fn sign_ins_are_limited_per_address_and_others_cannot_lock_a_name() {
    let server = TestServer::start().await;
    let mut ada = server.client("Ada").await;
    let reply = ada
        .request(json!({"type": "register", "password": PASSWORD}))
        .await;
    assert_eq!(reply["type"], "registered", "{reply}");
    let sign_in = |name: &str, password: &str| {
        let mut msg = hello(name);
        msg["account_password"] = json!(password);
        msg
    };
    // Someone else fails five times on Ada's name...
    let mut attacker = Client::connect_from(server.addr, ip("127.0.0.2")).await;
    for _ in 0..5 {
        let reply = attacker.request(sign_in("Ada", "guess guess")).await;
        assert_eq!(reply["code"], "sign_in_failed", "{reply}");
    }
    let (_, reply) = hello_from(&server, "127.0.0.2", sign_in("Ada", PASSWORD)).await;
    assert_eq!(reply["code"], "rate_limited", "{reply}");
    // ...and Ada, elsewhere, still signs in with her password.
    let (_, reply) = hello_from(&server, "127.0.0.1", sign_in("Ada", PASSWORD)).await;
    assert_eq!(reply["type"], "welcome", "{reply}");
    // Made-up names over many connections from one address: after twenty
    // attempts a minute the address is refused before any hashing.
    for n in 0..20 {
        let (_, reply) =
            hello_from(&server, "127.0.0.3", sign_in(&format!("Nobody{n}"), "x")).await;
        assert_eq!(reply["code"], "sign_in_failed", "{reply}");
    }
    let (_, reply) = hello_from(&server, "127.0.0.3", sign_in("Ada", PASSWORD)).await;
    assert_eq!(reply["code"], "rate_limited", "{reply}");
    server.stop().await;
}

#[tokio::test]
async fn new_guests_and_rooms_are_limited_per_address() {
    let tmp = tempfile::tempdir().expect("dir");
    let mut config = test_config(tmp.path());
    config.new_players_per_address = 5;
    config.rooms_per_address = 3;
    let server = TestServer::start_with(config).await;
    let mut tokens = Vec::new();
    for n in 0..5 {
        let (_, reply) = hello_from(&server, "127.0.0.2", hello(&format!("P{n}"))).await;
        assert_eq!(reply["type"], "welcome", "{reply}");
        tokens.push(reply["token"].as_str().expect("token").to_string());
    }
    let (_, reply) = hello_from(&server, "127.0.0.2", hello("P6")).await;
    assert_eq!(reply["code"], "rate_limited", "{reply}");
    // Coming back with a token is not a new guest.
    let mut back = Client::connect_from(server.addr, ip("127.0.0.2")).await;
    back.hello("P0", Some(&tokens[0])).await;
    // Three rooms from this address, then no more, whoever asks.
    let options = gomoku_options(json!({"kind": "ai", "level": "beginner"}), "black");
    for _ in 0..3 {
        back.create(options.clone()).await;
    }
    let mut other = Client::connect_from(server.addr, ip("127.0.0.2")).await;
    other.hello("P1", Some(&tokens[1])).await;
    let more = other
        .request(json!({"type": "create_room", "options": options}))
        .await;
    assert_eq!(more["code"], "limit_reached", "{more}");
    // Another address is not affected.
    let (mut carol, _) = hello_from(&server, "127.0.0.3", hello("Carol")).await;
    carol.create(options.clone()).await;
    server.stop().await;
}

#[tokio::test]
async fn behind_a_trusted_proxy_the_forwarded_address_is_counted() {
    let tmp = tempfile::tempdir().expect("dir");
    let mut config = test_config(tmp.path());
    config.new_players_per_address = 2;
    // The proxy is 127.0.0.1; 127.0.0.2 is not trusted.
    config.trusted_proxies = vec![ip("127.0.0.1")];
    let server = TestServer::start_with(config).await;
    // Through the proxy: two new guests per forwarded client address
    // (the last entry, the one the proxy added), not for the proxy itself.
    for client in ["10.0.0.5", "10.0.0.6", "203.0.113.9, 10.0.0.7"] {
        for n in 0..2 {
            let mut c = Client::connect_forwarded(server.addr, client).await;
            let reply = c.request(hello(&format!("G{n}"))).await;
            assert_eq!(reply["type"], "welcome", "{client}: {reply}");
        }
        let mut c = Client::connect_forwarded(server.addr, client).await;
        let reply = c.request(hello("G3")).await;
        assert_eq!(reply["code"], "rate_limited", "{client}: {reply}");
    }
    // A header from anyone else is not believed: 127.0.0.2 is counted.
    for n in 0..2 {
        let mut c = Client::connect_from(server.addr, ip("127.0.0.2")).await;
        let reply = c.request(hello(&format!("H{n}"))).await;
        assert_eq!(reply["type"], "welcome", "{reply}");
    }
    let (_, reply) = hello_from(&server, "127.0.0.2", hello("H3")).await;
    assert_eq!(reply["code"], "rate_limited", "{reply}");
    server.stop().await;
}

#[tokio::test]
async fn the_last_tenth_of_the_rooms_is_kept_for_registered_players() {
    let tmp = tempfile::tempdir().expect("dir");
    let mut config = test_config(tmp.path());
    config.max_rooms = 10;
    let server = TestServer::start_with(config).await;
    let options = gomoku_options(json!({"kind": "ai", "level": "beginner"}), "black");
    let mut guest = server.client("Guest").await;
    for _ in 0..9 {
        guest.create(options.clone()).await;
    }
    let mut other = server.client("Other").await;
    let refused = other
        .request(json!({"type": "create_room", "options": options}))
        .await;
    assert_eq!(refused["code"], "limit_reached", "{refused}");
    let reply = other
        .request(json!({"type": "register", "password": PASSWORD}))
        .await;
    assert_eq!(reply["type"], "registered", "{reply}");
    other.create(options.clone()).await;
    server.stop().await;
}

#[tokio::test]
async fn waiting_rooms_left_empty_close_after_the_grace_period_and_free_the_address() {
    let tmp = tempfile::tempdir().expect("dir");
    let mut config = test_config(tmp.path());
    config.rooms_per_address = 2;
    let server = TestServer::start_with(config).await;
    let options = gomoku_options(json!({"kind": "human"}), "black");
    let mut watcher = server.client("Watcher").await;
    watcher.request(json!({"type": "list_rooms"})).await;
    // Two rooms waiting for an opponent, from one address, then the creators go.
    let mut rooms = Vec::new();
    for name in ["P1", "P2"] {
        let (mut creator, _) = hello_from(&server, "127.0.0.4", hello(name)).await;
        rooms.push(creator.create(options.clone()).await.0);
        let (mut more, _) = hello_from(&server, "127.0.0.4", hello("P3")).await;
        if rooms.len() == 2 {
            let refused = more
                .request(json!({"type": "create_room", "options": options}))
                .await;
            assert_eq!(refused["code"], "limit_reached", "{refused}");
        }
        more.close().await;
        creator.close().await;
    }
    // Nobody is in them: they close once the grace period (2 s here) is over.
    for room in &rooms {
        let removed = watcher
            .expect(|m| m["type"] == "room_removed" && m["room_id"] == json!(room))
            .await;
        assert_eq!(removed["room_id"], json!(room));
    }
    // And the address may open rooms again.
    let (mut back, _) = hello_from(&server, "127.0.0.4", hello("P4")).await;
    back.create(options.clone()).await;
    server.stop().await;
}

/// Opens a TCP connection from `from` that never starts its handshake.
async fn half_open(server: &TestServer, from: &str) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket
        .bind(std::net::SocketAddr::new(ip(from), 0))
        .expect("bind");
    socket.connect(server.addr).await.expect("tcp connects")
}

/// Whether a WebSocket client at `from` gets through its handshake.
async fn handshake_from(server: &TestServer, from: &str) -> bool {
    let tcp = half_open(server, from).await;
    let shaken = tokio_tungstenite::client_async(
        format!("ws://{}/", server.addr),
        tokio_tungstenite::MaybeTlsStream::Plain(tcp),
    );
    matches!(
        tokio::time::timeout(tabula_tests::WAIT, shaken).await,
        Ok(Ok(_))
    )
}

/// One address holding its share of connections, half-open handshakes
/// included, is refused more, while a player at another address connects;
/// the share comes back when its connections go.
#[tokio::test]
async fn one_address_cannot_take_every_connection() {
    let tmp = tempfile::tempdir().expect("dir");
    let mut config = test_config(tmp.path());
    config.connections_per_address = 5;
    config.max_connections = 50;
    let server = TestServer::start_with(config).await;
    let mut held = Vec::new();
    for _ in 0..60 {
        held.push(half_open(&server, "127.0.0.2").await);
    }
    assert!(
        !handshake_from(&server, "127.0.0.2").await,
        "a sixth connection from the address that holds five"
    );
    assert!(
        handshake_from(&server, "127.0.0.3").await,
        "a player at another address is not shut out"
    );
    let mut player = Client::connect_from(server.addr, ip("127.0.0.3")).await;
    assert_eq!(player.request(hello("Ada")).await["type"], "welcome");
    drop(held);
    // The server notices the closed sockets and gives their slots back.
    let deadline = tokio::time::Instant::now() + tabula_tests::WAIT;
    while !handshake_from(&server, "127.0.0.2").await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the slots came back"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    server.stop().await;
}
