//! A Gomocup engine (`pbrain-*`) as an arena player: one process per
//! game, spoken to over stdin/stdout with the Gomocup protocol.
//!
//! The engine is told the time per move (`INFO timeout_turn`), an
//! unlimited match (`INFO timeout_match 0`), the rule and a memory cap.
//! Its first move of a game comes from `BOARD` (the opening and anything
//! played before), later ones from `TURN` with the opponent's last move.
//! An answer that is not a legal point, or that comes later than
//! [`Engine::FORFEIT_AFTER`] past the time per move, loses the game.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use tabula_shared::gomoku::{Point, Rule, Stone};

/// A running engine, for one game.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    budget: Duration,
    /// Whether the engine has seen the board since it started.
    told_board: bool,
}

/// Why an engine lost without a five.
#[derive(Debug)]
pub enum Fault {
    /// No answer within the time per move plus [`Engine::FORFEIT_AFTER`].
    Time(Duration),
    /// The answer was not a point (or the engine said `ERROR`).
    Answer(String),
    /// The process could not be started or closed its output.
    Gone(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Time(t) => write!(f, "no answer in {} ms", t.as_millis()),
            Fault::Answer(line) => write!(f, "answered {line:?}"),
            Fault::Gone(why) => write!(f, "gone: {why}"),
        }
    }
}

impl Engine {
    /// How late an answer may be before it loses on time.
    pub const FORFEIT_AFTER: Duration = Duration::from_millis(1000);

    /// Starts `command` (a program path, then its arguments, separated by
    /// spaces) for a game on a `size` board with `rule` and `budget` per move.
    pub fn start(command: &str, size: u8, rule: Rule, budget: Duration) -> Result<Engine, Fault> {
        let mut parts = command.split_whitespace();
        let program = parts.next().ok_or(Fault::Gone("no command".into()))?;
        let mut child = Command::new(program)
            .args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Fault::Gone(format!("{program}: {e}")))?;
        let stdin = child.stdin.take().ok_or(Fault::Gone("no stdin".into()))?;
        let stdout = child.stdout.take().ok_or(Fault::Gone("no stdout".into()))?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
            budget,
            told_board: false,
        };
        engine.send(&format!("START {size}"))?;
        let answer = engine.answer(Duration::from_secs(10))?;
        if !answer.trim().eq_ignore_ascii_case("OK") {
            return Err(Fault::Answer(answer));
        }
        let rule_bits = match rule {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
        };
        engine.send(&format!("INFO timeout_turn {}", budget.as_millis()))?;
        engine.send("INFO timeout_match 0")?;
        engine.send(&format!("INFO rule {rule_bits}"))?;
        engine.send("INFO max_memory 268435456")?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| Fault::Gone(e.to_string()))
    }

    /// The next line that is not a `MESSAGE`/`DEBUG` line, within `wait`.
    fn answer(&mut self, wait: Duration) -> Result<String, Fault> {
        let start = Instant::now();
        loop {
            let left = wait.saturating_sub(start.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let word = line.split_whitespace().next().unwrap_or("");
                    if !matches!(word, "MESSAGE" | "DEBUG" | "") {
                        return Ok(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(Fault::Time(start.elapsed())),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Fault::Gone("closed its output".into()));
                }
            }
        }
    }

    /// The engine's move as `me`, given every stone so far (in order) and
    /// how long it took to answer.
    pub fn play(
        &mut self,
        stones: &[(Point, Stone)],
        me: Stone,
    ) -> Result<(Point, Duration), Fault> {
        if self.told_board {
            let &(last, _) = stones.last().ok_or(Fault::Answer("no last move".into()))?;
            self.send(&format!("TURN {},{}", last.x, last.y))?;
        } else {
            self.send("BOARD")?;
            for &(p, s) in stones {
                let field = if s == me { 1 } else { 2 };
                self.send(&format!("{},{},{field}", p.x, p.y))?;
            }
            self.send("DONE")?;
            self.told_board = true;
        }
        let start = Instant::now();
        let line = self.answer(self.budget + Self::FORFEIT_AFTER)?;
        let took = start.elapsed();
        let point = line
            .trim()
            .split_once(',')
            .and_then(|(x, y)| Some(Point::new(x.trim().parse().ok()?, y.trim().parse().ok()?)))
            .ok_or(Fault::Answer(line.clone()))?;
        Ok((point, took))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("END");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
