//! A throwaway PostgreSQL server for Tabula's tests: a fresh cluster made by
//! `initdb` in a temporary directory, listening on a free port of
//! `127.0.0.1`, trusting local connections, and stopped (and deleted) when
//! the [`TestPostgres`] is dropped. Each test asks it for a database of its
//! own ([`TestPostgres::database`]).
//!
//! PostgreSQL refuses to run as root; when the tests run as root, the
//! server's programs run as the `postgres` user (which Debian's
//! `postgresql` package creates), and the temporary directory is given to it.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A PostgreSQL server for one test process; stopped when dropped.
pub struct TestPostgres {
    /// The cluster's files (and the server's socket and log).
    dir: tempfile::TempDir,
    /// Where `initdb`, `postgres`, `createdb` and `pg_isready` are.
    bin: PathBuf,
    /// The TCP port it listens on at `127.0.0.1`.
    port: u16,
    /// The server process.
    server: Child,
    /// The databases made so far (for unique names).
    made: std::sync::atomic::AtomicU32,
}

/// The role every test connects as (the cluster's superuser).
const USER: &str = "tabula";

impl TestPostgres {
    /// Makes and starts a fresh PostgreSQL cluster.
    ///
    /// # Panics
    /// When PostgreSQL is not installed (`.ci/run` installs Debian's
    /// `postgresql`) or does not start.
    pub fn start() -> TestPostgres {
        let bin = find_bin().unwrap_or_else(|| {
            panic!(
                "PostgreSQL's programs (initdb, postgres) were not found on PATH or in \
                 /usr/lib/postgresql/*/bin: install the `postgresql` package"
            )
        });
        let dir = tempfile::Builder::new()
            .prefix("tabula-pg-")
            .tempdir()
            .expect("a temporary directory");
        give_to_postgres_user(dir.path());
        let status = command(&bin, "initdb")
            .arg("-D")
            .arg(dir.path().join("data"))
            .args(["-U", USER, "--auth=trust", "--encoding=UTF8", "--no-locale"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .expect("initdb runs");
        assert!(
            status.status.success(),
            "initdb failed: {}",
            String::from_utf8_lossy(&status.stderr)
        );
        for _attempt in 0..5 {
            let port = free_port();
            let mut server = spawn_server(&bin, dir.path(), port);
            if wait_ready(&mut server, &bin, port, Duration::from_secs(30)) {
                return TestPostgres {
                    dir,
                    bin,
                    port,
                    server,
                    made: Default::default(),
                };
            }
            // The port was taken meanwhile, most likely: try another.
            let _ = server.kill();
            let _ = server.wait();
        }
        let log = std::fs::read_to_string(dir.path().join("server.log")).unwrap_or_default();
        panic!("PostgreSQL did not start:\n{log}");
    }

    /// Stops the server at once (PostgreSQL's immediate shutdown: every
    /// connection is cut, nothing is flushed that was not committed) and
    /// starts it again on the same port and files.
    ///
    /// # Panics
    /// When it does not come back.
    pub fn restart(&mut self) {
        self.stop_now();
        self.server = spawn_server(&self.bin, self.dir.path(), self.port);
        assert!(
            wait_ready(
                &mut self.server,
                &self.bin,
                self.port,
                Duration::from_secs(30)
            ),
            "PostgreSQL did not come back:\n{}",
            self.log()
        );
    }

    /// Immediate shutdown (SIGQUIT), waiting for the server to exit.
    fn stop_now(&mut self) {
        // SAFETY: kill only sends a signal to our own child.
        unsafe {
            libc::kill(self.server.id() as libc::pid_t, libc::SIGQUIT);
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.server.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.server.kill();
        let _ = self.server.wait();
    }

    /// Makes a new, empty database and returns its URL
    /// (`postgres://tabula@127.0.0.1:PORT/NAME`).
    ///
    /// # Panics
    /// When `createdb` fails.
    pub fn database(&self) -> String {
        let n = self.made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!("tabula_{n}");
        let out = Command::new(self.bin.join("createdb"))
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", USER])
            .arg(&name)
            .output()
            .expect("createdb runs");
        assert!(
            out.status.success(),
            "createdb failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        self.url(&name)
    }

    /// The URL of database `name` on this server.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://{USER}@127.0.0.1:{}/{name}", self.port)
    }

    /// The TCP port the server listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The server's log so far (for a failing test's message).
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("server.log")).unwrap_or_default()
    }
}

impl Drop for TestPostgres {
    fn drop(&mut self) {
        self.stop_now();
    }
}

/// Starts `postgres` on the cluster in `dir` (its `data`), listening on
/// `port` of 127.0.0.1, logging to `dir/server.log`.
fn spawn_server(bin: &Path, dir: &Path, port: u16) -> Child {
    let log_path = dir.join("server.log");
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .expect("a log file");
    give_to_postgres_user(&log_path);
    command(bin, "postgres")
        .arg("-D")
        .arg(dir.join("data"))
        .args(["-p", &port.to_string(), "-c", "listen_addresses=127.0.0.1"])
        .arg("-k")
        .arg(dir)
        // Enough connections for several servers and their readers.
        .args(["-c", "max_connections=200"])
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("postgres starts")
}

/// Waits until the server accepts connections; false if it exited or did
/// not within `limit`.
fn wait_ready(server: &mut Child, bin: &Path, port: u16, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if let Ok(Some(_)) = server.try_wait() {
            return false;
        }
        let ready = Command::new(bin.join("pg_isready"))
            .args(["-h", "127.0.0.1", "-p", &port.to_string(), "-U", USER])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ready {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// A command running one of PostgreSQL's programs, as the `postgres` user
/// when we are root.
fn command(bin: &Path, program: &str) -> Command {
    let path = bin.join(program);
    let mut command = Command::new(&path);
    if let Some((uid, gid)) = postgres_user() {
        use std::os::unix::process::CommandExt;
        command.uid(uid).gid(gid);
        command.env("HOME", "/tmp");
    }
    command
}

/// The `postgres` user's ids, when we run as root (and so must not run
/// PostgreSQL as ourselves).
fn postgres_user() -> Option<(u32, u32)> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return None;
    }
    let id = |flag: &str| -> u32 {
        let out = Command::new("id")
            .args([flag, "postgres"])
            .output()
            .expect("`id` runs");
        assert!(
            out.status.success(),
            "running as root needs a `postgres` user (Debian's postgresql package makes one)"
        );
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse()
            .expect("a numeric id")
    };
    Some((id("-u"), id("-g")))
}

/// Gives `path` to the `postgres` user when we are root.
fn give_to_postgres_user(path: &Path) {
    if let Some((uid, gid)) = postgres_user() {
        std::os::unix::fs::chown(path, Some(uid), Some(gid)).expect("chown to postgres");
    }
}

/// The directory holding `initdb` and `postgres`: `$TABULA_PG_BIN`, then
/// PATH, then the newest `/usr/lib/postgresql/*/bin` (Debian keeps them
/// off PATH).
fn find_bin() -> Option<PathBuf> {
    let has = |dir: &Path| dir.join("initdb").is_file() && dir.join("postgres").is_file();
    if let Some(dir) = std::env::var_os("TABULA_PG_BIN").map(PathBuf::from) {
        return has(&dir).then_some(dir);
    }
    let debian = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|d| has(d))
        .max_by_key(|d| {
            d.parent()
                .and_then(|v| v.file_name())
                .and_then(|v| v.to_str())
                .and_then(|v| v.parse::<u32>().ok())
                .unwrap_or(0)
        });
    if debian.is_some() {
        return debian;
    }
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .find(|d| has(d))
}

/// A TCP port free on `127.0.0.1` a moment ago.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_starts_and_makes_databases() {
        let pg = TestPostgres::start();
        let a = pg.database();
        let b = pg.database();
        assert_ne!(a, b);
        assert!(a.starts_with("postgres://tabula@127.0.0.1:"), "{a}");
    }
}
