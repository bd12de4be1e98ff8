//! The HTTP side of the game port: a request that is not a WebSocket upgrade
//! gets the web client's page or files (`GET`/`HEAD` only), or a short error.
//! The request head is read with `peek`, so an upgrade is left untouched for
//! the WebSocket handshake.

use std::io::Read;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::web_client::{self, Asset};

/// The longest request head read; browsers send well under this.
const MAX_HEAD: usize = 8 * 1024;
/// Most header lines in a request head: as many as the WebSocket
/// handshake's parser takes (tungstenite's 124), well past what browsers
/// behind a chain of proxies send.
const MAX_HEADERS: usize = 124;
/// The WebSocket protocol version spoken (RFC 6455).
const WEBSOCKET_VERSION: &str = "13";

/// What a new connection asks for.
pub enum Route {
    /// A WebSocket upgrade: hand the untouched stream to the game protocol.
    /// With the client's address as a proxy in front put it in
    /// `X-Forwarded-For` (the last entry: the one that proxy added).
    WebSocket {
        /// That address, when the header has one.
        forwarded_for: Option<std::net::IpAddr>,
    },
    /// A plain HTTP request, answered (the connection is done).
    Answered,
    /// Nothing usable arrived in time, or the peer left.
    Dropped,
}

/// A parsed request line and the headers that matter here.
struct Request {
    method: String,
    path: String,
    upgrade: bool,
    /// `Sec-WebSocket-Version`, when sent.
    websocket_version: Option<String>,
    /// Whether `Sec-WebSocket-Key` was sent.
    websocket_key: bool,
    gzip: bool,
    forwarded_for: Option<std::net::IpAddr>,
    head_len: usize,
}

/// Reads the request head (without consuming an upgrade) and answers a
/// plain HTTP request.
pub async fn route(stream: &mut TcpStream, wait: Duration) -> Route {
    let request = match tokio::time::timeout(wait, peek_head(stream)).await {
        Ok(Ok(Some(request))) => request,
        Ok(Ok(None)) => {
            let _ = respond_error(stream, 400, "Bad Request").await;
            return Route::Answered;
        }
        Ok(Err(_)) | Err(_) => return Route::Dropped,
    };
    if request.upgrade {
        // RFC 6455 4.2.2: a version not spoken gets 426 with the one that
        // is; an upgrade without a key is a bad request. Either is answered
        // before the handshake, which would only close the connection.
        if request.websocket_version.as_deref() != Some(WEBSOCKET_VERSION) {
            let _ = respond(
                stream,
                426,
                "Upgrade Required",
                &format!("Sec-WebSocket-Version: {WEBSOCKET_VERSION}\r\n"),
            )
            .await;
            return Route::Answered;
        }
        if !request.websocket_key {
            let _ = respond(
                stream,
                400,
                "Bad Request",
                &format!("Sec-WebSocket-Version: {WEBSOCKET_VERSION}\r\n"),
            )
            .await;
            return Route::Answered;
        }
        return Route::WebSocket {
            forwarded_for: request.forwarded_for,
        };
    }
    let mut head = vec![0; request.head_len];
    if stream.read_exact(&mut head).await.is_err() {
        return Route::Dropped;
    }
    let _ = answer(stream, &request).await;
    Route::Answered
}

/// Peeks until a whole head is buffered. `Ok(None)`: not HTTP, or too long.
async fn peek_head(stream: &TcpStream) -> std::io::Result<Option<Request>> {
    let mut buf = vec![0; MAX_HEAD];
    let mut seen = 0;
    loop {
        let n = stream.peek(&mut buf).await?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut parsed = httparse::Request::new(&mut headers);
        match parsed.parse(&buf[..n]) {
            Ok(httparse::Status::Complete(head_len)) => {
                return Ok(Some(Request::from_parsed(&parsed, head_len)));
            }
            Ok(httparse::Status::Partial) if n < MAX_HEAD => {}
            _ => return Ok(None),
        }
        // `peek` returns at once while bytes wait unread: give the rest of
        // the head a moment to arrive instead of spinning.
        if n == seen {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        seen = n;
    }
}

impl Request {
    fn from_parsed(parsed: &httparse::Request<'_, '_>, head_len: usize) -> Request {
        let header = |name: &str| {
            parsed
                .headers
                .iter()
                .filter(|h| h.name.eq_ignore_ascii_case(name))
                .map(|h| String::from_utf8_lossy(h.value).to_ascii_lowercase())
                .collect::<Vec<_>>()
                .join(",")
        };
        let target = parsed.path.unwrap_or("");
        Request {
            method: parsed.method.unwrap_or("").to_string(),
            path: target.split(['?', '#']).next().unwrap_or("").to_string(),
            upgrade: header("upgrade").contains("websocket"),
            websocket_version: Some(header("sec-websocket-version"))
                .filter(|v| !v.is_empty())
                .map(|v| v.trim().to_string()),
            websocket_key: !header("sec-websocket-key").trim().is_empty(),
            gzip: header("accept-encoding")
                .split(',')
                .any(|coding| coding.trim().starts_with("gzip")),
            forwarded_for: header("x-forwarded-for")
                .rsplit(',')
                .next()
                .and_then(|last| last.trim().parse().ok()),
            head_len,
        }
    }
}

async fn answer(stream: &mut TcpStream, request: &Request) -> std::io::Result<()> {
    let head_only = match request.method.as_str() {
        "GET" => false,
        "HEAD" => true,
        _ => return respond_error(stream, 405, "Method Not Allowed").await,
    };
    let Some(asset) = web_client::asset(&request.path) else {
        return respond_error(stream, 404, "Not Found").await;
    };
    let (body, encoding) = body_for(asset, request.gzip);
    let mut head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: {}\r\n\
         Vary: Accept-Encoding\r\nX-Content-Type-Options: nosniff\r\n\
         Referrer-Policy: no-referrer\r\nConnection: close\r\n",
        asset.content_type,
        body.len(),
        asset.cache_control,
    );
    if encoding {
        head.push_str("Content-Encoding: gzip\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await?;
    if !head_only {
        stream.write_all(&body).await?;
    }
    stream.shutdown().await
}

/// The bytes to send, and whether they are gzipped: as stored when the
/// browser takes gzip, inflated otherwise.
fn body_for(asset: Asset, gzip: bool) -> (std::borrow::Cow<'static, [u8]>, bool) {
    if gzip {
        return (asset.gzipped.into(), true);
    }
    let mut plain = Vec::new();
    let _ = flate2::read::GzDecoder::new(asset.gzipped).read_to_end(&mut plain);
    (plain.into(), false)
}

async fn respond_error(stream: &mut TcpStream, status: u16, reason: &str) -> std::io::Result<()> {
    respond(stream, status, reason, "").await
}

/// A short plain-text answer with `extra` header lines (each ending in CRLF).
async fn respond(
    stream: &mut TcpStream,
    status: u16,
    reason: &str,
    extra: &str,
) -> std::io::Result<()> {
    let body = format!("{status} {reason}\n");
    let head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Length: {}\r\nX-Content-Type-Options: nosniff\r\n{extra}Connection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body.as_bytes()).await?;
    stream.shutdown().await
}
