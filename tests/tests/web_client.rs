//! The web client as the server serves it over plain HTTP on the game port:
//! the page and its two files with their types and cache headers, gzip when
//! the browser takes it, and a 404 for everything else, traversal included.

use std::net::SocketAddr;

use tabula_tests::TestServer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One raw HTTP/1.1 exchange: the status, the headers (names lower-cased)
/// and the body.
async fn fetch(addr: SocketAddr, request: &str) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut raw = Vec::new();
    tokio::time::timeout(tabula_tests::WAIT, stream.read_to_end(&mut raw))
        .await
        .expect("the server answers and closes")
        .expect("read");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a complete head");
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let body = raw[split + 4..].to_vec();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (status, headers, body)
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

fn get(path: &str, gzip: bool) -> String {
    let encoding = if gzip {
        "Accept-Encoding: gzip, deflate\r\n"
    } else {
        ""
    };
    format!("GET {path} HTTP/1.1\r\nHost: tabula\r\n{encoding}\r\n")
}

#[tokio::test]
async fn the_page_and_its_files_are_served_with_their_types() {
    assert!(
        tabula_server::web_client::included(),
        "built with the web client"
    );
    let server = TestServer::start().await;
    let (status, headers, body) = fetch(server.addr, &get("/", false)).await;
    assert_eq!(status, 200);
    assert_eq!(
        header(&headers, "content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(header(&headers, "cache-control"), Some("no-cache"));
    assert_eq!(header(&headers, "content-encoding"), None);
    assert_eq!(
        header(&headers, "content-length"),
        Some(body.len().to_string().as_str())
    );
    let page = String::from_utf8(body).expect("utf-8 page");
    assert!(page.contains("<canvas id=\"tabula\">"), "{page}");
    let [script, wasm] = tabula_server::web_client::asset_paths();
    assert!(page.contains(&script) && page.contains(&wasm), "{page}");

    let (status, headers, body) = fetch(server.addr, &get(&script, false)).await;
    assert_eq!(status, 200);
    assert_eq!(
        header(&headers, "content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert!(
        header(&headers, "cache-control")
            .unwrap_or("")
            .contains("immutable")
    );
    assert!(String::from_utf8_lossy(&body).contains("WebAssembly"));

    let (status, headers, body) = fetch(server.addr, &get(&wasm, false)).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-type"), Some("application/wasm"));
    assert_eq!(&body[..4], b"\0asm", "a WebAssembly module");
    let plain = body.len();

    // A browser that takes gzip gets the stored, compressed bytes.
    let (status, headers, body) = fetch(server.addr, &get(&wasm, true)).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-encoding"), Some("gzip"));
    assert_eq!(&body[..2], &[0x1f, 0x8b], "gzip magic");
    assert!(body.len() * 2 < plain, "{} of {plain} bytes", body.len());

    // HEAD: the same head, no body.
    let head = format!("HEAD {wasm} HTTP/1.1\r\nHost: tabula\r\n\r\n");
    let (status, headers, body) = fetch(server.addr, &head).await;
    assert_eq!(status, 200);
    assert_eq!(
        header(&headers, "content-length"),
        Some(plain.to_string().as_str())
    );
    assert!(body.is_empty());

    // The game protocol still answers on the same port.
    let mut player = server.client("Ann").await;
    let list = player
        .request(serde_json::json!({"type": "list_rooms"}))
        .await;
    assert_eq!(list["type"], "room_list");
    server.stop().await;
}

#[tokio::test]
async fn anything_else_is_not_found_and_no_path_reaches_the_disk() {
    let server = TestServer::start().await;
    for path in [
        "/../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/..%2f..%2fCargo.toml",
        "//etc/passwd",
        "/index.html/..",
        "/web/index.html",
        "/server/web/index.html",
        "/tabula-0000000000000000.js",
        "/tabula-.wasm",
        "/favicon.ico",
        "/Cargo.toml",
    ] {
        let (status, headers, body) = fetch(server.addr, &get(path, true)).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(
            header(&headers, "content-type"),
            Some("text/plain; charset=utf-8")
        );
        assert_eq!(body, b"404 Not Found\n", "{path}");
    }
    let (status, _, _) = fetch(
        server.addr,
        "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n",
    )
    .await;
    assert_eq!(status, 405);
    let (status, _, _) = fetch(server.addr, "HELLO THERE\r\n\r\n").await;
    assert_eq!(status, 400);
    server.stop().await;
}

#[tokio::test]
async fn a_private_server_still_serves_its_page_but_gates_the_game() {
    let tmp = tempfile::tempdir().expect("dir");
    let config = tabula_server::Config {
        password: Some("club-secret".into()),
        ..tabula_tests::test_config(tmp.path())
    };
    let server = TestServer::start_with(config).await;
    let (status, _, body) = fetch(server.addr, &get("/", false)).await;
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&body).contains("<canvas id=\"tabula\">"));
    let mut stranger = tabula_tests::Client::connect(server.addr).await;
    stranger
        .send(serde_json::json!({"type": "hello", "protocol": 1, "name": "Eve"}))
        .await;
    let refused = stranger.expect(|m| m["type"] == "error").await;
    assert_eq!(refused["code"], "auth_failed", "{refused}");
    server.stop().await;
}

/// A browser behind a chain of proxies sends many header lines: 100 are
/// still a request like any other, not a 400.
#[tokio::test]
async fn a_request_with_a_hundred_headers_is_served() {
    let server = TestServer::start().await;
    let mut request = String::from("GET / HTTP/1.1\r\nHost: tabula\r\n");
    for i in 0..99 {
        request.push_str(&format!("X-Extra-{i}: {i}\r\n"));
    }
    request.push_str("\r\n");
    let (status, _, _) = fetch(server.addr, &request).await;
    assert_eq!(status, 200);
    server.stop().await;
}

/// RFC 6455 4.2.2: a WebSocket version the server does not speak gets 426
/// naming the one it does, and an upgrade without a key gets 400; neither
/// is left with a closed connection and no answer.
#[tokio::test]
async fn a_handshake_of_another_version_or_without_a_key_is_answered() {
    let server = TestServer::start().await;
    let upgrade = |extra: &str| {
        format!(
            "GET /ws HTTP/1.1\r\nHost: tabula\r\nUpgrade: websocket\r\n\
             Connection: Upgrade\r\n{extra}\r\n"
        )
    };
    let (status, headers, _) = fetch(
        server.addr,
        &upgrade("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n"),
    )
    .await;
    assert_eq!(status, 426);
    assert_eq!(header(&headers, "sec-websocket-version"), Some("13"));
    let (status, headers, _) = fetch(server.addr, &upgrade("Sec-WebSocket-Key: abc=\r\n")).await;
    assert_eq!(status, 426, "no version at all is not version 13 either");
    assert_eq!(header(&headers, "sec-websocket-version"), Some("13"));
    let (status, headers, _) = fetch(server.addr, &upgrade("Sec-WebSocket-Version: 13\r\n")).await;
    assert_eq!(status, 400);
    assert_eq!(header(&headers, "sec-websocket-version"), Some("13"));
    server.stop().await;
}
