//! The browser worker: the page's WebSocket (through `ewebsock`), driven from
//! the UI's frame loop. Socket events wake the UI; a timer wakes it for the
//! next reconnect attempt.

use std::cell::RefCell;
use std::sync::Arc;

use ewebsock::{WsEvent, WsMessage, WsReceiver, WsSender};
use tabula_shared::protocol::ServerFrame;
use web_time::Instant;

use super::handshake::{self, Step, encode, short_error};
use super::{ConnState, NetCommand, NetEvent, Target, backoff, ws_url};

/// The UI's handle on the connection.
pub struct Network {
    inner: RefCell<Worker>,
}

/// The state between frames.
struct Worker {
    wake: Arc<dyn Fn() + Send + Sync>,
    target: Option<Target>,
    token: Option<String>,
    attempt: u32,
    socket: Option<(WsSender, WsReceiver)>,
    welcomed: bool,
    retry_at: Option<Instant>,
    events: Vec<NetEvent>,
}

impl Network {
    /// A connection handle; `wake` is called whenever something arrives.
    pub fn start(wake: impl Fn() + Send + Sync + 'static) -> Network {
        Network {
            inner: RefCell::new(Worker {
                wake: Arc::new(wake),
                target: None,
                token: None,
                attempt: 0,
                socket: None,
                welcomed: false,
                retry_at: None,
                events: Vec::new(),
            }),
        }
    }

    /// Carries out a command.
    pub fn command(&self, command: NetCommand) {
        let w = &mut *self.inner.borrow_mut();
        match command {
            NetCommand::Connect(target) => {
                w.close();
                w.token = target.token.clone();
                w.target = Some(target);
                w.attempt = 0;
                w.open();
            }
            NetCommand::Disconnect => {
                w.close();
                w.target = None;
                w.retry_at = None;
                w.events.push(NetEvent::State(ConnState::Disconnected));
            }
            NetCommand::Send(frame) => match (&mut w.socket, w.welcomed) {
                (Some((sender, _)), true) => sender.send(WsMessage::Text(encode(&frame))),
                _ => w.events.push(NetEvent::Notice(
                    rust_i18n::t!("notice.not_connected").into_owned(),
                )),
            },
        }
    }

    /// Every event since the last call (and a reconnect when one is due).
    pub fn poll(&self) -> Vec<NetEvent> {
        let mut w = self.inner.borrow_mut();
        w.pump();
        if w.retry_at.is_some_and(|at| at <= Instant::now()) {
            w.retry_at = None;
            w.open();
        }
        std::mem::take(&mut w.events)
    }
}

impl Worker {
    fn open(&mut self) {
        let Some(target) = &self.target else { return };
        self.attempt += 1;
        self.welcomed = false;
        self.events
            .push(NetEvent::State(ConnState::Connecting(self.attempt)));
        let wake = self.wake.clone();
        match ewebsock::connect_with_wakeup(
            ws_url(&target.address),
            ewebsock::Options::default(),
            move || wake(),
        ) {
            Ok(socket) => self.socket = Some(socket),
            Err(e) => self.lost(short_error(&e)),
        }
    }

    fn close(&mut self) {
        if let Some((mut sender, _)) = self.socket.take() {
            sender.close();
        }
        self.welcomed = false;
    }

    /// Reads what the socket delivered.
    fn pump(&mut self) {
        while let Some(event) = self.socket.as_ref().and_then(|(_, rx)| rx.try_recv()) {
            match event {
                WsEvent::Opened => {
                    let Some(target) = &self.target else { continue };
                    let hello = handshake::hello(target, self.token.as_deref());
                    if let Some((sender, _)) = &mut self.socket {
                        sender.send(WsMessage::Text(encode(&hello)));
                    }
                }
                WsEvent::Message(WsMessage::Text(text)) => self.on_text(&text),
                WsEvent::Message(_) => {}
                WsEvent::Error(e) => return self.lost(short_error(&e)),
                WsEvent::Closed => return self.lost(rust_i18n::t!("net.closed").into_owned()),
            }
        }
    }

    fn on_text(&mut self, text: &str) {
        let Ok(frame) = serde_json::from_str::<ServerFrame>(text) else {
            self.events.push(NetEvent::Notice(
                rust_i18n::t!("notice.unreadable").into_owned(),
            ));
            return;
        };
        let Some(target) = self.target.as_mut() else {
            return;
        };
        match handshake::on_frame(&frame, target, &mut self.token, self.welcomed) {
            Step::Forward => {}
            Step::Welcomed => {
                self.welcomed = true;
                self.attempt = 0;
                self.events.push(NetEvent::State(ConnState::Connected));
            }
            Step::Lost(reason) => return self.lost(reason),
            Step::Refused(reason) => {
                self.close();
                self.target = None;
                self.events
                    .push(NetEvent::State(ConnState::Refused(reason)));
                return;
            }
        }
        self.events.push(NetEvent::Frame(frame));
    }

    /// The socket is gone: try again after the back-off.
    fn lost(&mut self, reason: String) {
        self.close();
        if self.target.is_none() {
            return;
        }
        let wait = backoff(self.attempt.max(1));
        self.retry_at = Some(Instant::now() + wait);
        self.events.push(NetEvent::State(ConnState::Retrying {
            attempt: self.attempt,
            reason,
            in_secs: wait.as_secs(),
        }));
        wake_after(self.wake.clone(), wait);
    }
}

/// Calls `wake` once after `wait` (a browser timer).
fn wake_after(wake: Arc<dyn Fn() + Send + Sync>, wait: std::time::Duration) {
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;
    let Some(window) = web_sys::window() else {
        return;
    };
    let callback = Closure::once_into_js(move || wake());
    let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
        callback.unchecked_ref(),
        i32::try_from(wait.as_millis()).unwrap_or(i32::MAX),
    );
}
