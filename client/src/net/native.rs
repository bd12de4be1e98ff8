//! The desktop worker: a tokio runtime on its own thread that owns the
//! WebSocket (tokio-tungstenite); every event wakes the UI.

use std::sync::mpsc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc as tmpsc;
use tokio_tungstenite::tungstenite::Message;

use tabula_shared::protocol::ServerFrame;

use super::handshake::{self, Step, encode, short_error};
use super::{ConnState, NetCommand, NetEvent, Target, backoff, ws_url};

/// The UI's handle on the network worker.
pub struct Network {
    commands: tmpsc::UnboundedSender<NetCommand>,
    events: mpsc::Receiver<NetEvent>,
}

impl Network {
    /// Starts the worker thread; `wake` is called after every event (the UI
    /// passes `ctx.request_repaint()`).
    pub fn start(wake: impl Fn() + Send + Sync + 'static) -> Network {
        let (commands, command_rx) = tmpsc::unbounded_channel();
        let (event_tx, events) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("tabula-net".into())
            .spawn(move || {
                let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                else {
                    let _ = event_tx.send(NetEvent::Notice(
                        rust_i18n::t!("notice.no_network").into_owned(),
                    ));
                    return;
                };
                let out = Outbox {
                    tx: event_tx,
                    wake: Box::new(wake),
                };
                runtime.block_on(worker(command_rx, out));
            });
        if spawned.is_err() {
            // The commands go nowhere; the UI shows "Disconnected" forever,
            // which is the honest state.
        }
        Network { commands, events }
    }

    /// A handle with no worker behind it, for tests: the commands the app
    /// gives arrive on the returned receiver, and no event ever comes back.
    #[cfg(test)]
    pub(crate) fn detached() -> (Network, tmpsc::UnboundedReceiver<NetCommand>) {
        let (commands, command_rx) = tmpsc::unbounded_channel();
        let (_, events) = mpsc::channel();
        (Network { commands, events }, command_rx)
    }

    /// Queues a command for the worker.
    pub fn command(&self, command: NetCommand) {
        let _ = self.commands.send(command);
    }

    /// Every event that arrived since the last call.
    pub fn poll(&self) -> Vec<NetEvent> {
        self.events.try_iter().collect()
    }
}

struct Outbox {
    tx: mpsc::Sender<NetEvent>,
    wake: Box<dyn Fn() + Send + Sync>,
}

impl Outbox {
    fn send(&self, event: NetEvent) {
        let _ = self.tx.send(event);
        (self.wake)();
    }
}

/// How a session ended.
enum SessionEnd {
    /// The socket dropped (or never opened): retry.
    Lost(String),
    /// The server refused us for good: stop.
    Refused(String),
    /// The UI asked for something else.
    Command(NetCommand),
    /// The UI is gone.
    Quit,
}

async fn worker(mut commands: tmpsc::UnboundedReceiver<NetCommand>, out: Outbox) {
    let mut target: Option<Target> = None;
    let mut token: Option<String> = None;
    let mut attempt = 0u32;
    let mut pending: Option<NetCommand> = None;
    loop {
        let command = match pending.take() {
            Some(c) => Some(c),
            None if target.is_none() => match commands.recv().await {
                Some(c) => Some(c),
                None => return,
            },
            None => None,
        };
        match command {
            Some(NetCommand::Connect(t)) => {
                token = t.token.clone();
                target = Some(t);
                attempt = 0;
            }
            Some(NetCommand::Disconnect) => {
                target = None;
                out.send(NetEvent::State(ConnState::Disconnected));
                continue;
            }
            Some(NetCommand::Send(_)) => {
                out.send(NetEvent::Notice(
                    rust_i18n::t!("notice.not_connected").into_owned(),
                ));
                continue;
            }
            None => {}
        }
        let Some(t) = target.as_mut() else { continue };
        attempt += 1;
        out.send(NetEvent::State(ConnState::Connecting(attempt)));
        match session(t, &mut token, &mut commands, &out, &mut attempt).await {
            SessionEnd::Quit => return,
            SessionEnd::Command(c) => pending = Some(c),
            SessionEnd::Refused(reason) => {
                target = None;
                out.send(NetEvent::State(ConnState::Refused(reason)));
            }
            SessionEnd::Lost(reason) => {
                let wait = backoff(attempt);
                out.send(NetEvent::State(ConnState::Retrying {
                    attempt,
                    reason,
                    in_secs: wait.as_secs(),
                }));
                tokio::select! {
                    () = tokio::time::sleep(wait) => {}
                    c = commands.recv() => match c {
                        None => return,
                        Some(NetCommand::Send(_)) => {}
                        Some(c) => pending = Some(c),
                    }
                }
            }
        }
    }
}

async fn session(
    target: &mut Target,
    token: &mut Option<String>,
    commands: &mut tmpsc::UnboundedReceiver<NetCommand>,
    out: &Outbox,
    attempt: &mut u32,
) -> SessionEnd {
    let url = ws_url(&target.address);
    let connect = tokio_tungstenite::connect_async(url);
    let ws = match tokio::time::timeout(Duration::from_secs(5), connect).await {
        Ok(Ok((ws, _))) => ws,
        Ok(Err(e)) => return SessionEnd::Lost(short_error(&e.to_string())),
        Err(_) => return SessionEnd::Lost(rust_i18n::t!("net.timed_out").into_owned()),
    };
    let (mut sink, mut stream) = ws.split();
    let hello = handshake::hello(target, token.as_deref());
    if let Err(e) = sink.send(Message::Text(encode(&hello).into())).await {
        return SessionEnd::Lost(short_error(&e.to_string()));
    }
    let mut welcomed = false;
    loop {
        tokio::select! {
            message = stream.next() => match message {
                Some(Ok(Message::Text(text))) => {
                    let Ok(frame) = serde_json::from_str::<ServerFrame>(&text) else {
                        out.send(NetEvent::Notice(rust_i18n::t!("notice.unreadable").into_owned()));
                        continue;
                    };
                    match handshake::on_frame(&frame, target, token, welcomed) {
                        Step::Forward => {}
                        Step::Welcomed => {
                            welcomed = true;
                            *attempt = 0;
                            out.send(NetEvent::State(ConnState::Connected));
                        }
                        Step::Lost(reason) => return SessionEnd::Lost(reason),
                        Step::Refused(reason) => return SessionEnd::Refused(reason),
                    }
                    out.send(NetEvent::Frame(frame));
                }
                Some(Ok(Message::Close(_))) | None => return SessionEnd::Lost(rust_i18n::t!("net.closed").into_owned()),
                Some(Err(e)) => return SessionEnd::Lost(short_error(&e.to_string())),
                Some(Ok(_)) => {}
            },
            command = commands.recv() => match command {
                None => return SessionEnd::Quit,
                Some(NetCommand::Send(frame)) => {
                    if let Err(e) = sink.send(Message::Text(encode(&frame).into())).await {
                        return SessionEnd::Lost(short_error(&e.to_string()));
                    }
                }
                Some(other) => {
                    let _ = sink.send(Message::Close(None)).await;
                    return SessionEnd::Command(other);
                }
            }
        }
    }
}
