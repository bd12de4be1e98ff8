//! A throwaway Redis for the cluster tests: `redis-server` on a free port
//! of 127.0.0.1, keeping nothing on disk, stopped when dropped. It can be
//! restarted on the same port (a Redis restart in the middle of a game).

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `redis-server`.
pub struct TestRedis {
    port: u16,
    child: Option<Child>,
}

/// The `redis-server` program: `$TABULA_REDIS_SERVER`, else the one on
/// `PATH` or Debian's.
fn program() -> String {
    if let Ok(path) = std::env::var("TABULA_REDIS_SERVER") {
        return path;
    }
    if std::path::Path::new("/usr/bin/redis-server").exists() {
        return "/usr/bin/redis-server".into();
    }
    "redis-server".into()
}

impl TestRedis {
    /// Starts Redis on a free port and waits until it answers.
    pub fn start() -> TestRedis {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let mut redis = TestRedis { port, child: None };
        redis.launch();
        redis
    }

    fn launch(&mut self) {
        let child = Command::new(program())
            .args(["--port", &self.port.to_string()])
            .args(["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("redis-server starts (apt install redis-server)");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(20);
        while !self.answers() {
            assert!(Instant::now() < deadline, "redis-server did not answer");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether it answers PING.
    fn answers(&self) -> bool {
        use std::io::{Read, Write};
        let Ok(mut socket) = std::net::TcpStream::connect(("127.0.0.1", self.port)) else {
            return false;
        };
        let _ = socket.set_read_timeout(Some(Duration::from_secs(1)));
        let mut reply = [0u8; 7];
        socket.write_all(b"PING\r\n").is_ok()
            && socket.read_exact(&mut reply).is_ok()
            && &reply == b"+PONG\r\n"
    }

    /// Its URL, for `--redis`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// Stops it at once (SIGKILL) and starts it again on the same port.
    pub fn restart(&mut self) {
        self.stop();
        self.launch();
    }

    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for TestRedis {
    fn drop(&mut self) {
        self.stop();
    }
}
