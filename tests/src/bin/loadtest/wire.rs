//! The WebSocket side: connecting, sending, and reading until a frame matches.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::target::Target;

pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

async fn connect(addr: SocketAddr) -> Option<Ws> {
    let config = WebSocketConfig::default().read_buffer_size(4096);
    match tokio_tungstenite::connect_async_with_config(format!("ws://{addr}/"), Some(config), false)
        .await
    {
        Ok((ws, _)) => Some(ws),
        Err(e) => {
            say_why("connect", &e.to_string());
            None
        }
    }
}

/// Prints why a connection could not be opened: the first few times only.
fn say_why(what: &str, why: &str) {
    static SAID: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    if SAID.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < 5 {
        eprintln!("{what} failed: {why}");
    }
}

pub async fn send(ws: &mut Ws, v: Value) -> bool {
    send_text(ws, v.to_string()).await
}

pub async fn send_text(ws: &mut Ws, text: String) -> bool {
    ws.send(Message::Text(text.into())).await.is_ok()
}

/// Reads until a text frame matches `pred`; None on close or after 10 s.
pub async fn until(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Option<Value> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        match tokio::time::timeout_at(deadline, ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                if let Ok(v) = serde_json::from_str::<Value>(t.as_str())
                    && pred(&v)
                {
                    return Some(v);
                }
            }
            Ok(Some(Ok(_))) => {}
            _ => return None,
        }
    }
}

/// Like [`until`], but tests the raw text: the measured loops use it so that
/// the tool spends as little CPU as it can on frames, for both servers alike.
pub async fn until_text(ws: &mut Ws, mut pred: impl FnMut(&str) -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        match tokio::time::timeout_at(deadline, ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                if pred(t.as_str()) {
                    return true;
                }
            }
            Ok(Some(Ok(_))) => {}
            _ => return false,
        }
    }
}

/// Whether a Tabula frame is a game action event.
pub fn is_action_event(text: &str) -> bool {
    text.starts_with("{\"type\":\"event\"") && text.contains("\"event\":{\"kind\":\"action\"")
}

/// A connection that has said hello (Tabula) or joined `room` (relay).
pub async fn open(target: &Target, room: &str) -> Option<Ws> {
    open_as(target, room, "load").await
}

/// [`open`] as the guest `name`.
pub async fn open_as(target: &Target, room: &str, name: &str) -> Option<Ws> {
    let mut ws = connect(target.addr).await?;
    if target.tabula {
        send(
            &mut ws,
            json!({"type": "hello", "protocol": 1, "name": name}),
        )
        .await;
        if until(&mut ws, |v| v["type"] == "welcome").await.is_none() {
            say_why("hello", "no welcome within 10 s");
            return None;
        }
    } else {
        ws.send(Message::Text(room.to_string().into())).await.ok()?;
    }
    Some(ws)
}
