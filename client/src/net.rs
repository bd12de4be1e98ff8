//! The network worker: a tokio runtime on its own thread that owns the
//! WebSocket, says `hello`, keeps the resume token and reconnects with a
//! growing back-off when the connection drops.
//!
//! The UI talks to it through two channels: [`NetCommand`]s go in,
//! [`NetEvent`]s come out, and every event wakes the UI with
//! `request_repaint`. The UI thread never waits on the network.

use std::sync::mpsc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tabula_shared::protocol::{
    ClientFrame, ClientMessage, ErrorCode, PROTOCOL_VERSION, ServerFrame, ServerMessage,
};
use tokio::sync::mpsc as tmpsc;
use tokio_tungstenite::tungstenite::Message;

/// Where to connect and who to be.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// `host:port` of the server.
    pub address: String,
    /// Display name for `hello`.
    pub name: String,
    /// Server password, if the server has one.
    pub password: Option<String>,
    /// A resume token from an earlier run, to get the same identity back.
    pub token: Option<String>,
    /// Sign in to the registered account named `name` with this password.
    /// Kept in memory only, and dropped once the server has welcomed us:
    /// reconnects use the account's resume token instead.
    pub account_password: Option<String>,
}

/// A request from the UI to the worker.
#[derive(Debug, Clone)]
pub enum NetCommand {
    /// Connect to a server (dropping any current connection and identity).
    Connect(Target),
    /// Send one frame; dropped with a notice when not connected.
    Send(ClientFrame),
    /// Close the connection and stop reconnecting.
    Disconnect,
}

/// The connection as the UI shows it.
#[derive(Debug, Clone, PartialEq)]
pub enum ConnState {
    /// Not connected and not trying.
    Disconnected,
    /// Opening the socket (attempt number, from 1).
    Connecting(u32),
    /// Connected and welcomed.
    Connected,
    /// Lost; the next attempt starts after the given delay.
    Retrying {
        /// Attempt count so far.
        attempt: u32,
        /// Why the last attempt failed.
        reason: String,
        /// Seconds until the next attempt.
        in_secs: u64,
    },
    /// The server refused us for good (bad password, bad name...).
    Refused(String),
}

/// Something the worker reports to the UI.
#[derive(Debug, Clone)]
pub enum NetEvent {
    /// The connection state changed.
    State(ConnState),
    /// A server frame arrived.
    Frame(ServerFrame),
    /// A short message for a toast.
    Notice(String),
}

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
                    let _ = event_tx.send(NetEvent::Notice("cannot start networking".into()));
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

/// The back-off before reconnect attempt `attempt` (from 1): 1, 2, 4, 8 s, then 8 s.
pub fn backoff(attempt: u32) -> Duration {
    Duration::from_secs(1 << attempt.saturating_sub(1).min(3))
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
                out.send(NetEvent::Notice("not connected".into()));
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
    let url = format!("ws://{}/", target.address.trim());
    let connect = tokio_tungstenite::connect_async(url);
    let ws = match tokio::time::timeout(Duration::from_secs(5), connect).await {
        Ok(Ok((ws, _))) => ws,
        Ok(Err(e)) => return SessionEnd::Lost(short_error(&e.to_string())),
        Err(_) => return SessionEnd::Lost("timed out".into()),
    };
    let (mut sink, mut stream) = ws.split();
    let hello = ClientFrame {
        request_id: None,
        message: ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            name: target.name.clone(),
            token: token.clone(),
            password: target.password.clone().filter(|p| !p.is_empty()),
            account_password: target.account_password.clone(),
        },
    };
    if let Err(e) = sink.send(Message::Text(encode(&hello).into())).await {
        return SessionEnd::Lost(short_error(&e.to_string()));
    }
    let mut welcomed = false;
    loop {
        tokio::select! {
            message = stream.next() => match message {
                Some(Ok(Message::Text(text))) => {
                    let Ok(frame) = serde_json::from_str::<ServerFrame>(&text) else {
                        out.send(NetEvent::Notice("the server sent something unreadable".into()));
                        continue;
                    };
                    match &frame.message {
                        ServerMessage::Welcome { token: t, .. } => {
                            *token = Some(t.clone());
                            // The token now names the account: no need to keep its password.
                            target.account_password = None;
                            welcomed = true;
                            *attempt = 0;
                            out.send(NetEvent::State(ConnState::Connected));
                        }
                        ServerMessage::Error { code, message } if !welcomed => {
                            if *code == ErrorCode::AuthFailed && token.is_some()
                                && target.password.as_deref().unwrap_or("").is_empty()
                            {
                                // The server forgot our token: start afresh.
                                *token = None;
                                return SessionEnd::Lost("identity expired".into());
                            }
                            let signing_in = target.account_password.is_some();
                            if matches!(code, ErrorCode::LimitReached | ErrorCode::Internal)
                                || (*code == ErrorCode::RateLimited && !signing_in)
                            {
                                return SessionEnd::Lost(message.clone());
                            }
                            return SessionEnd::Refused(refusal_text(*code, message, &target.name));
                        }
                        _ => {}
                    }
                    out.send(NetEvent::Frame(frame));
                }
                Some(Ok(Message::Close(_))) | None => return SessionEnd::Lost("connection closed".into()),
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

/// A clear sentence for an error that refused our `hello`.
pub fn refusal_text(code: ErrorCode, message: &str, name: &str) -> String {
    match code {
        ErrorCode::SignInFailed => "Sign-in failed: wrong name or account password.".to_string(),
        ErrorCode::NameTaken => format!(
            "\"{name}\" is a registered name. Enter its account password to sign in, or pick another name."
        ),
        ErrorCode::RateLimited => {
            "Too many failed sign-ins. Wait a minute, then try again.".to_string()
        }
        ErrorCode::AuthFailed => format!("Wrong server password ({message})."),
        ErrorCode::InvalidName => format!("Invalid name: {message}."),
        _ => message.to_string(),
    }
}

fn encode(frame: &ClientFrame) -> String {
    serde_json::to_string(frame).unwrap_or_default()
}

fn short_error(text: &str) -> String {
    text.chars().take(80).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_then_caps() {
        assert_eq!(backoff(1), Duration::from_secs(1));
        assert_eq!(backoff(2), Duration::from_secs(2));
        assert_eq!(backoff(4), Duration::from_secs(8));
        assert_eq!(backoff(40), Duration::from_secs(8));
    }
}
