//! A small external engine for the end-to-end tests, in either protocol the
//! server's engines speak, that plays simply and fails on request.
//!
//! `test-engine gomocup|line [--fail crash|illegal|hang --after N] [--log FILE]
//! [--requests FILE]`
//!
//! - `gomocup`: a Gomocup brain that plays the empty point nearest the
//!   centre (by rings, then rows, then columns).
//! - `line`: a `bg-engine` line-protocol engine that plays as the built-in
//!   Beginner (a play of its own would make a test game long: the plays
//!   chosen simply, like the first in order, hit back and forth for
//!   hundreds of turns).
//!
//! After `N` good answers, `--fail` makes it exit with status 3 (`crash`),
//! answer an occupied point or an unchanged position (`illegal`), never
//! answer (`hang`), or write 100 KiB without ending the line (`flood`). Every good answer is appended to the `--log` file, so a
//! test can tell the engine's moves from the built-in AI's, and the first
//! word of every Gomocup command (not the lines of a board) to the
//! `--requests` file.

use std::collections::HashSet;
use std::io::{BufRead, Write};
use std::path::PathBuf;

use clap::{Parser, ValueEnum};
use tabula_ai::Level;
use tabula_ai::backgammon::choose_index;
use tabula_shared::backgammon::{Dice, Position};

/// The protocol to speak.
#[derive(Clone, Copy, ValueEnum)]
enum Protocol {
    /// Gomocup brain (Gomoku).
    Gomocup,
    /// `bg-engine`'s line protocol (Backgammon).
    Line,
}

/// How to fail.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Fail {
    /// Exit with status 3.
    Crash,
    /// Answer a move the rules do not allow.
    Illegal,
    /// Never answer.
    Hang,
    /// Write 100 KiB without a line end, then never answer.
    Flood,
}

#[derive(Parser)]
struct Args {
    /// The protocol.
    #[arg(value_enum)]
    protocol: Protocol,
    /// How to fail, once `after` answers were given.
    #[arg(long, value_enum)]
    fail: Option<Fail>,
    /// Good answers before failing.
    #[arg(long, default_value_t = 0)]
    after: u32,
    /// Appends each good answer here.
    #[arg(long)]
    log: Option<PathBuf>,
    /// Appends each Gomocup command's first word here.
    #[arg(long)]
    requests: Option<PathBuf>,
}

/// Appends `line` to the file at `path`, if there is one.
fn append(path: Option<&PathBuf>, line: &str) {
    if let Some(path) = path
        && let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
    {
        let _ = writeln!(f, "{line}");
    }
}

/// The engine's state across requests.
struct Engine {
    args: Args,
    /// Good answers so far.
    answers: u32,
    /// Gomoku: the board's side.
    size: u8,
    /// Gomoku: the occupied points.
    stones: HashSet<(u8, u8)>,
}

impl Engine {
    /// Fails now if asked to; `Some(answer)` for an illegal answer.
    fn maybe_fail(&self, illegal: impl FnOnce() -> String) -> Option<String> {
        if self.answers < self.args.after {
            return None;
        }
        match self.args.fail? {
            Fail::Crash => std::process::exit(3),
            Fail::Hang => loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            },
            Fail::Flood => {
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(&[b'x'; 100 * 1024]);
                let _ = out.flush();
                loop {
                    std::thread::sleep(std::time::Duration::from_secs(3600));
                }
            }
            Fail::Illegal => Some(illegal()),
        }
    }

    /// Records a good answer.
    fn answered(&mut self, answer: &str) {
        self.answers += 1;
        append(self.args.log.as_ref(), answer);
    }

    /// Gomoku: the stone to play now.
    fn place(&mut self) -> String {
        let occupied = || {
            self.stones
                .iter()
                .next()
                .map_or("99,99".to_string(), |(x, y)| format!("{x},{y}"))
        };
        if let Some(answer) = self.maybe_fail(occupied) {
            return answer;
        }
        let c = i32::from(self.size / 2);
        let best = (0..self.size)
            .flat_map(|y| (0..self.size).map(move |x| (x, y)))
            .filter(|p| !self.stones.contains(p))
            .min_by_key(|&(x, y)| {
                let ring = (i32::from(x) - c).abs().max((i32::from(y) - c).abs());
                (ring, y, x)
            });
        let Some((x, y)) = best else {
            return "ERROR the board is full".into();
        };
        self.stones.insert((x, y));
        let answer = format!("{x},{y}");
        self.answered(&answer);
        answer
    }

    /// Backgammon: the position after the play of `request`.
    fn play(&mut self, request: &str) -> String {
        let words: Vec<&str> = request.split_whitespace().collect();
        let parsed = match words.as_slice() {
            ["move", id, a, b] => Position::from_position_id(id).ok().zip(
                a.parse()
                    .ok()
                    .zip(b.parse().ok())
                    .and_then(|(a, b)| Dice::new(a, b).ok()),
            ),
            _ => None,
        };
        let Some((before, dice)) = parsed else {
            return "error".into();
        };
        let unchanged = || before.position_id();
        if let Some(answer) = self.maybe_fail(unchanged) {
            return answer;
        }
        let candidates = before.legal_positions(dice);
        let budget = std::time::Duration::from_millis(10);
        let answer = choose_index(Level::Beginner, &before, dice, &candidates, budget, 0)
            .map_or(before, |i| candidates[i])
            .position_id();
        self.answered(&answer);
        answer
    }

    /// Gomocup: the answer to one line, if it has one. `collecting` holds
    /// the stones of a `BOARD` being read.
    fn gomocup(&mut self, line: &str, collecting: &mut Option<Vec<(u8, u8)>>) -> Option<String> {
        let line = line.trim();
        if let Some(stones) = collecting {
            if line.eq_ignore_ascii_case("DONE") {
                self.stones = stones.drain(..).collect();
                *collecting = None;
                return Some(self.place());
            }
            let mut it = line.split(',').map(|s| s.trim().parse::<u8>());
            if let (Some(Ok(x)), Some(Ok(y))) = (it.next(), it.next()) {
                stones.push((x, y));
            }
            return None;
        }
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        append(self.args.requests.as_ref(), &cmd.to_ascii_uppercase());
        match cmd.to_ascii_uppercase().as_str() {
            "START" => match rest.trim().parse() {
                Ok(size) => {
                    self.size = size;
                    self.stones.clear();
                    Some("OK".into())
                }
                Err(_) => Some("ERROR bad size".into()),
            },
            "RESTART" => {
                self.stones.clear();
                Some("OK".into())
            }
            "INFO" => None,
            "BOARD" => {
                *collecting = Some(Vec::new());
                None
            }
            "BEGIN" => Some(self.place()),
            "TURN" => {
                let mut it = rest.split(',').map(|s| s.trim().parse::<u8>());
                if let (Some(Ok(x)), Some(Ok(y))) = (it.next(), it.next()) {
                    self.stones.insert((x, y));
                }
                Some(self.place())
            }
            "ABOUT" => Some(r#"name="test-engine", version="1""#.into()),
            "END" => std::process::exit(0),
            _ => Some(format!("UNKNOWN {line}")),
        }
    }
}

fn main() {
    let args = Args::parse();
    let protocol = args.protocol;
    let mut engine = Engine {
        args,
        answers: 0,
        size: 15,
        stones: HashSet::new(),
    };
    let mut collecting = None;
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let answer = match protocol {
            Protocol::Gomocup => engine.gomocup(&line, &mut collecting),
            Protocol::Line => Some(engine.play(&line)),
        };
        if let Some(answer) = answer {
            let _ = writeln!(out, "{answer}");
            let _ = out.flush();
        }
    }
}
