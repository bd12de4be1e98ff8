//! [`EngineProcess`]: one external engine running as a child process that
//! reads lines on its stdin and answers lines on its stdout, every answer
//! awaited with a deadline; and [`EngineFailure`], why an engine was given
//! up on. The child is killed when its `EngineProcess` is dropped.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::time::Instant;

use super::EngineSpec;

/// Longest line an engine may answer; a longer one is a failure (the
/// engine is not trusted to end its lines). [`EngineFailure::Overlong`]
/// names it.
const LINE_MAX: usize = 64 * 1024;

/// Why an engine's turn failed. Its text completes "<engine> failed: ..."
/// (but see [`EngineFailure::Missing`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineFailure {
    /// The program could not be started.
    #[error("it could not be started ({0})")]
    Start(String),
    /// The program ended, or closed its output.
    #[error("it stopped ({0})")]
    Exited(String),
    /// No answer before the deadline; the program was killed.
    #[error("no answer within {} ms", .0.as_millis())]
    TimedOut(Duration),
    /// An answer that is not a legal move here.
    #[error("it answered an illegal move ({0})")]
    Illegal(String),
    /// An `ERROR` or `UNKNOWN` answer, or anything else unexpected.
    #[error("it answered {0:?}")]
    Refused(String),
    /// An answer longer than 64 KiB, or one that never ends its line.
    #[error("it answered a line longer than 64 KiB")]
    Overlong,
    /// The host no longer runs this engine (a room saved before a restart).
    /// Its text follows the engine's name: "<engine> is not on ...".
    #[error("is not on this server any more")]
    Missing,
}

/// A running engine: its process and the two pipes.
pub struct EngineProcess {
    /// Held so the process is killed (`kill_on_drop`) and its exit status read.
    child: Child,
    /// Where requests go.
    stdin: ChildStdin,
    /// Where answers come from.
    stdout: BufReader<ChildStdout>,
}

impl EngineProcess {
    /// Starts `spec`'s program with piped stdin and stdout; its stderr is
    /// discarded.
    ///
    /// # Errors
    /// [`EngineFailure::Start`] when the program cannot be run.
    pub fn start(spec: &EngineSpec) -> Result<EngineProcess, EngineFailure> {
        let mut child = Command::new(&spec.program)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| EngineFailure::Start(e.to_string()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(EngineFailure::Start("no pipes".into()));
        };
        Ok(EngineProcess {
            child,
            stdin,
            stdout: BufReader::new(stdout),
        })
    }

    /// Sends `text` (one or more lines, each ending in `\n`) and flushes it.
    ///
    /// # Errors
    /// [`EngineFailure::Exited`] when the engine no longer reads.
    pub async fn send(&mut self, text: &str) -> Result<(), EngineFailure> {
        let written = async {
            self.stdin.write_all(text.as_bytes()).await?;
            self.stdin.flush().await
        }
        .await;
        match written {
            Ok(()) => Ok(()),
            Err(_) => Err(self.exited().await),
        }
    }

    /// The next line of the engine's output, without its line ending,
    /// if it comes before `deadline`.
    ///
    /// # Errors
    /// [`EngineFailure::TimedOut`] (after `waited`) at the deadline;
    /// [`EngineFailure::Exited`] when the output ends.
    pub async fn read_line(
        &mut self,
        deadline: Instant,
        waited: Duration,
    ) -> Result<String, EngineFailure> {
        match tokio::time::timeout_at(deadline, next_line(&mut self.stdout)).await {
            Err(_) => Err(EngineFailure::TimedOut(waited)),
            Ok(Ok(Some(line))) => Ok(line.trim_end_matches('\r').to_string()),
            Ok(Err(Overlong)) => Err(EngineFailure::Overlong),
            Ok(Ok(None)) => Err(self.exited().await),
        }
    }

    /// How the process ended, waiting briefly for it to do so.
    async fn exited(&mut self) -> EngineFailure {
        match tokio::time::timeout(Duration::from_millis(500), self.child.wait()).await {
            Ok(Ok(status)) => EngineFailure::Exited(status.to_string()),
            _ => EngineFailure::Exited("its output closed".into()),
        }
    }
}

/// A line longer than [`LINE_MAX`].
struct Overlong;

/// The next line of `reader` without its `\n` (`None` at the end of the
/// output or on a read error), as text with any invalid UTF-8 replaced.
/// Not cancel safe: a caller that gives up on it drops the process.
async fn next_line(reader: &mut BufReader<ChildStdout>) -> Result<Option<String>, Overlong> {
    let mut line = Vec::new();
    loop {
        let Ok(buf) = reader.fill_buf().await else {
            return Ok(None);
        };
        if buf.is_empty() {
            return Ok((!line.is_empty()).then(|| String::from_utf8_lossy(&line).into_owned()));
        }
        let (taken, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (buf.len(), false),
        };
        line.extend_from_slice(&buf[..taken]);
        reader.consume(if done { taken + 1 } else { taken });
        if line.len() > LINE_MAX {
            return Err(Overlong);
        }
        if done {
            return Ok(Some(String::from_utf8_lossy(&line).into_owned()));
        }
    }
}
