//! "Play on this computer": a Tabula server running inside the client, on
//! its own thread with its own tokio runtime.
//!
//! It binds `0.0.0.0:7878` so friends on the LAN can join, and falls back to
//! `127.0.0.1:0` when that port is taken. When a server already answers on
//! the default address, the client connects to that one instead.

use std::net::{SocketAddr, TcpStream, UdpSocket};
use std::path::PathBuf;
use std::time::Duration;

use tokio::sync::oneshot;

/// The default port of a Tabula server.
pub const DEFAULT_PORT: u16 = 7878;

/// How long "Play on this computer" waits for another server to let go of
/// the data directory (the window waits with it) before saying why it
/// cannot start.
const LOCK_WAIT: Duration = Duration::from_secs(1);

/// A server running inside this process; stops when dropped.
pub struct EmbeddedServer {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The address to give to friends on the local network, when one is known.
    pub lan_address: Option<String>,
    stop: Option<oneshot::Sender<()>>,
}

impl EmbeddedServer {
    /// Binds and starts a server with its data under `data_dir`.
    ///
    /// # Errors
    /// A readable reason when no port can be bound or the runtime cannot start.
    pub fn start(data_dir: PathBuf) -> Result<EmbeddedServer, String> {
        let (ready_tx, ready_rx) = std::sync::mpsc::channel::<Result<SocketAddr, String>>();
        let (stop, stopped) = oneshot::channel::<()>();
        std::thread::Builder::new()
            .name("tabula-server".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()
                {
                    Ok(r) => r,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e.to_string()));
                        return;
                    }
                };
                runtime.block_on(async move {
                    // The data first: a directory another server holds is
                    // reported here, not as a connection that fails later.
                    let config = tabula_server::Config {
                        data_dir,
                        lock_wait: LOCK_WAIT,
                        ..tabula_server::Config::default()
                    };
                    let server = match tabula_server::Server::open(config).await {
                        Ok(server) => server,
                        Err(e) => {
                            let _ = ready_tx.send(Err(e.to_string()));
                            return;
                        }
                    };
                    let listener =
                        match tokio::net::TcpListener::bind(("0.0.0.0", DEFAULT_PORT)).await {
                            Ok(l) => l,
                            Err(_) => match tokio::net::TcpListener::bind("127.0.0.1:0").await {
                                Ok(l) => l,
                                Err(e) => {
                                    let _ = ready_tx.send(Err(e.to_string()));
                                    return;
                                }
                            },
                        };
                    let addr = match listener.local_addr() {
                        Ok(a) => a,
                        Err(e) => {
                            let _ = ready_tx.send(Err(e.to_string()));
                            return;
                        }
                    };
                    let _ = ready_tx.send(Ok(addr));
                    server
                        .serve(listener, async {
                            let _ = stopped.await;
                        })
                        .await;
                });
            })
            .map_err(|e| e.to_string())?;
        let addr = ready_rx
            .recv_timeout(Duration::from_secs(15))
            .map_err(|_| rust_i18n::t!("host.did_not_start").into_owned())??;
        let lan_address = if addr.ip().is_unspecified() {
            lan_ip().map(|ip| format!("{ip}:{}", addr.port()))
        } else {
            None
        };
        Ok(EmbeddedServer {
            addr,
            lan_address,
            stop: Some(stop),
        })
    }

    /// The address this client itself connects to.
    pub fn local_address(&self) -> String {
        format!("127.0.0.1:{}", self.addr.port())
    }
}

impl Drop for EmbeddedServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// Whether something accepts connections at `address` (a quick probe).
pub fn server_answers(address: &str) -> bool {
    use std::net::ToSocketAddrs;
    let Ok(mut addrs) = address.to_socket_addrs() else {
        return false;
    };
    addrs.any(|a| TcpStream::connect_timeout(&a, Duration::from_millis(300)).is_ok())
}

/// This computer's address on the local network: the source address the OS
/// would use to reach the outside (no packet is sent).
pub fn lan_ip() -> Option<std::net::IpAddr> {
    let socket = UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

/// Where the embedded server keeps its data: the platform data directory
/// (`$XDG_DATA_HOME/tabula`, `~/.local/share/tabula`, `%APPDATA%\tabula`,
/// `~/Library/Application Support/tabula`), else `./tabula-data`.
pub fn data_dir() -> PathBuf {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let base = if cfg!(target_os = "windows") {
        std::env::var_os("APPDATA").map(PathBuf::from)
    } else if cfg!(target_os = "macos") {
        home.map(|h| h.join("Library/Application Support"))
    } else {
        std::env::var_os("XDG_DATA_HOME")
            .map(PathBuf::from)
            .or_else(|| home.map(|h| h.join(".local/share")))
    };
    base.map(|b| b.join("tabula").join("server"))
        .unwrap_or_else(|| PathBuf::from("./tabula-data"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_data_directory_in_use_is_reported_before_anyone_connects() {
        let dir = tempfile::tempdir().expect("dir");
        let first = EmbeddedServer::start(dir.path().to_path_buf()).expect("first starts");
        assert!(server_answers(&first.local_address()));
        let refused = EmbeddedServer::start(dir.path().to_path_buf())
            .err()
            .expect("a second server on the same data is refused");
        assert!(
            refused.contains("another Tabula server is using"),
            "{refused}"
        );
        // The first one still serves.
        assert!(server_answers(&first.local_address()));
    }
}
