//! The two servers, each run as a child process of the tool, and the
//! tool's handle on one of them.

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

pub async fn serve_tabula(data_dir: std::path::PathBuf, database: Option<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    println!("LISTENING {}", listener.local_addr().expect("addr"));
    let config = tabula_server::Config {
        database,
        ..tabula_tests::load_config(&data_dir)
    };
    tabula_server::run(listener, config, std::future::pending::<()>())
        .await
        .expect("server");
}

/// A bare relay: one task per connection, small read buffers. The first text
/// frame names a room; every later frame goes to everyone else in that room.
pub async fn serve_relay() {
    type Rooms = Arc<Mutex<std::collections::HashMap<String, Vec<(u64, mpsc::Sender<Message>)>>>>;
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    println!("LISTENING {}", listener.local_addr().expect("addr"));
    let rooms: Rooms = Arc::default();
    let mut next = 0u64;
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        next += 1;
        let id = next;
        let rooms = rooms.clone();
        tokio::spawn(async move {
            let config = WebSocketConfig::default()
                .read_buffer_size(4096)
                .write_buffer_size(0);
            let Ok(mut ws) =
                tokio_tungstenite::accept_async_with_config(stream, Some(config)).await
            else {
                return;
            };
            let (tx, mut rx) = mpsc::channel::<Message>(256);
            let mut room: Option<String> = None;
            loop {
                tokio::select! {
                    frame = ws.next() => match frame {
                        Some(Ok(Message::Text(text))) => match &room {
                            None => {
                                let name = text.to_string();
                                rooms.lock().expect("lock").entry(name.clone()).or_default().push((id, tx.clone()));
                                room = Some(name);
                            }
                            Some(name) => {
                                let peers: Vec<_> = rooms.lock().expect("lock").get(name).map(|v| v.iter().filter(|(i, _)| *i != id).map(|(_, t)| t.clone()).collect()).unwrap_or_default();
                                for peer in peers {
                                    let _ = peer.try_send(Message::Text(text.clone()));
                                }
                            }
                        },
                        Some(Ok(_)) => {}
                        _ => break,
                    },
                    out = rx.recv() => match out {
                        Some(m) => if ws.send(m).await.is_err() { break },
                        None => break,
                    }
                }
            }
            if let Some(name) = room
                && let Some(v) = rooms.lock().expect("lock").get_mut(&name)
            {
                v.retain(|(i, _)| *i != id);
            }
        });
    }
}

pub struct Target {
    pub name: &'static str,
    pub tabula: bool,
    pub addr: SocketAddr,
    pub child: Child,
    _dir: Option<tempfile::TempDir>,
}

/// An environment variable: a command to run the Tabula server under.
const WRAP: &str = "LOADTEST_WRAP";

impl Drop for Target {
    fn drop(&mut self) {
        if self.tabula && std::env::var_os(WRAP).is_some() {
            // A profiler writes its report at exit, which SIGKILL skips.
            let _ = Command::new("kill")
                .arg("-TERM")
                .arg(self.child.id().to_string())
                .status();
            std::thread::sleep(Duration::from_secs(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the relay (`tabula` false) or a Tabula server, on `database`
/// when given.
pub fn start(tabula: bool, database: Option<&str>) -> Target {
    let exe = std::env::current_exe().expect("exe");
    let mut cmd = match std::env::var(WRAP) {
        // For profiling: `LOADTEST_WRAP="valgrind --tool=callgrind"` runs
        // the Tabula server under that command.
        Ok(wrap) if tabula => {
            let mut words = wrap.split_whitespace();
            let mut cmd = Command::new(words.next().expect("a wrapper command"));
            cmd.args(words).arg(exe);
            cmd
        }
        _ => Command::new(exe),
    };
    let dir = tabula.then(|| tempfile::tempdir().expect("dir"));
    match &dir {
        Some(d) => cmd.arg("serve-tabula").arg("--data-dir").arg(d.path()),
        None => cmd.arg("serve-relay"),
    };
    if let Some(url) = database {
        cmd.arg("--database").arg(url);
    }
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let addr = tabula_tests::listening_addr(&mut child);
    Target {
        name: match (tabula, database) {
            (false, _) => "relay",
            (true, None) => "tabula",
            (true, Some(_)) => "postgres",
        },
        tabula,
        addr,
        child,
        _dir: dir,
    }
}
