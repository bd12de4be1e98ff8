//! `pbrain-tabula`: the Tabula Expert Gomoku AI as a Gomocup engine.
//!
//! Speaks the Gomocup protocol on stdin/stdout (LF or CRLF): `START n`,
//! `RECTSTART w,h` (square only), `RESTART`, `BEGIN`, `TURN x,y`,
//! `BOARD` ... `DONE` (`x,y,field`: 1 own, 2 opponent, 3 treated as an
//! opponent stone), `TAKEBACK x,y`, `SWAP2BOARD` ... `DONE`, `INFO key
//! value` (`timeout_turn`, `timeout_match`, `time_left`, `max_memory`,
//! `rule`: bit 1 exactly five, bit 4 renju), `ABOUT`, `END`. With a
//! `max_memory` (bytes, 0 for none) the hash tables are sized to at most
//! half of it. Coordinates are zero-based `x,y`. Unknown commands get
//! `UNKNOWN ...`, malformed ones `ERROR ...`; every answer is flushed.
//!
//! Swap2: with 0 stones it answers three stones; with 3 stones `SWAP`
//! (it takes black and the opponent plays white's move), one move (it
//! plays white) or two more stones; with 5 stones `SWAP` (black) or a move
//! (white).
//!
//! `pbrain-tabula --level NAME` plays as the level `NAME` (`beginner`,
//! `casual`, `intermediate`, `advanced`; `expert` by default), so that a
//! host can enter several of them in an engine-only event.
//!
//! Time per move: `min(timeout_turn, time_left / moves_left)` minus a
//! safety margin (5%, at least 30 ms), where `moves_left` is estimated
//! from the empty points.

use std::io::{BufRead, Write};
use std::time::Duration;

use tabula_ai::Level;
use tabula_ai::gomoku::{Decision, Limits, best_move, choose_with};
use tabula_shared::gomoku::{
    Board, Gomoku, GomokuConfig, Opening, Point, Rule, Stone, Swap2Choice,
};
use tabula_shared::seat::Seat;

/// Engine state.
struct Engine {
    /// The level it plays at.
    level: Level,
    size: Option<u8>,
    /// Stones in order, with their colours.
    stones: Vec<(Point, Stone)>,
    rule_bits: u32,
    timeout_turn: u64,
    timeout_match: u64,
    time_left: Option<u64>,
    /// `INFO max_memory` in bytes (0: no limit).
    max_memory: u64,
    /// Collecting `BOARD` / `SWAP2BOARD` lines.
    collecting: Option<Collect>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Board,
    Swap2,
}

struct Collect {
    kind: Kind,
    lines: Vec<(Point, u8)>,
    bad: Option<String>,
}

impl Engine {
    fn new(level: Level) -> Engine {
        Engine {
            level,
            size: None,
            stones: Vec::new(),
            rule_bits: 0,
            timeout_turn: 1000,
            timeout_match: 0,
            time_left: None,
            max_memory: 0,
            collecting: None,
        }
    }

    fn rule(&self) -> Rule {
        if self.rule_bits & 4 != 0 {
            Rule::Renju
        } else if self.rule_bits & 1 != 0 {
            Rule::Standard
        } else {
            Rule::Freestyle
        }
    }

    fn board(&self) -> Option<Board> {
        let mut b = Board::new(self.size?).ok()?;
        for &(p, s) in &self.stones {
            b.place(p, s).ok()?;
        }
        Some(b)
    }

    fn to_play(&self) -> Stone {
        if self.stones.len().is_multiple_of(2) {
            Stone::Black
        } else {
            Stone::White
        }
    }

    /// Milliseconds for this move.
    fn budget(&self) -> Duration {
        let size = u64::from(self.size.unwrap_or(15));
        let empty = (size * size).saturating_sub(self.stones.len() as u64);
        let moves_left = (empty / 4).clamp(10, 40);
        let mut ms = if self.timeout_turn == 0 {
            50
        } else {
            self.timeout_turn
        };
        if let Some(left) = self.time_left
            && self.timeout_match > 0
        {
            ms = ms.min(left / moves_left);
        }
        let margin = (ms / 20).max(30);
        Duration::from_millis(ms.saturating_sub(margin).max(10))
    }

    /// Search limits for this move: the time budget, and hash tables of
    /// at most half of `max_memory` (the rest is left for the program).
    fn limits(&self) -> Limits {
        Limits {
            memory: (self.max_memory > 0)
                .then(|| usize::try_from(self.max_memory / 2).unwrap_or(usize::MAX)),
            ..Limits::time(self.budget())
        }
    }

    fn parse_point(&self, s: &str) -> Result<Point, String> {
        let size = self.size.ok_or("no game started (send START first)")?;
        let mut it = s.split(',').map(str::trim);
        let (Some(x), Some(y)) = (it.next(), it.next()) else {
            return Err(format!("expected x,y, got {s:?}"));
        };
        let x: u8 = x.parse().map_err(|_| format!("bad x in {s:?}"))?;
        let y: u8 = y.parse().map_err(|_| format!("bad y in {s:?}"))?;
        if x >= size || y >= size {
            return Err(format!("{x},{y} is off the {size}x{size} board"));
        }
        Ok(Point::new(x, y))
    }

    /// Our move for the current position; records it.
    fn think(&mut self) -> String {
        let Some(board) = self.board() else {
            return "ERROR no game started (send START first)".into();
        };
        let stone = self.to_play();
        let seed = self.stones.len() as u64;
        match best_move(self.level, &board, stone, self.rule(), self.limits(), seed) {
            Some(p) => {
                self.stones.push((p, stone));
                format!("{},{}", p.x, p.y)
            }
            None => "ERROR no legal move left".into(),
        }
    }

    fn handle(&mut self, line: &str) -> Option<String> {
        let line = line.trim();
        if self.collecting.is_some() {
            if line.eq_ignore_ascii_case("DONE") {
                let c = self.collecting.take()?;
                return Some(self.finish(c));
            }
            if line.is_empty() {
                return None;
            }
            let mut parts = line.split(',').map(str::trim);
            let (x, y, f) = (parts.next(), parts.next(), parts.next());
            let field = match f {
                None => 0,
                Some(f) => f.parse::<u8>().unwrap_or(u8::MAX),
            };
            let parsed = match (x, y) {
                (Some(x), Some(y)) => self.parse_point(&format!("{x},{y}")),
                _ => Err(format!("bad line {line:?}")),
            };
            let c = self.collecting.as_mut()?;
            match parsed {
                Ok(p) if field <= 3 => c.lines.push((p, field)),
                Ok(_) => c.bad = Some(format!("bad field in {line:?}")),
                Err(e) => c.bad = Some(e),
            }
            return None;
        }
        if line.is_empty() {
            return None;
        }
        let (cmd, rest) = line
            .split_once(char::is_whitespace)
            .map(|(a, b)| (a, b.trim()))
            .unwrap_or((line, ""));
        match cmd.to_ascii_uppercase().as_str() {
            "START" => match rest.parse::<u8>() {
                Ok(n) if Board::new(n).is_ok() => {
                    self.size = Some(n);
                    self.stones.clear();
                    Some("OK".into())
                }
                Ok(n) => Some(format!("ERROR unsupported board size {n} (9 to 25)")),
                Err(_) => Some(format!("ERROR bad size {rest:?}")),
            },
            "RECTSTART" => {
                let mut it = rest.split(',').map(|v| v.trim().parse::<u8>());
                match (it.next(), it.next()) {
                    (Some(Ok(w)), Some(Ok(h))) if w == h && Board::new(w).is_ok() => {
                        self.size = Some(w);
                        self.stones.clear();
                        Some("OK".into())
                    }
                    _ => Some(format!(
                        "ERROR unsupported board {rest:?} (square 9 to 25 only)"
                    )),
                }
            }
            "RESTART" => {
                if self.size.is_none() {
                    return Some("ERROR no game started (send START first)".into());
                }
                self.stones.clear();
                Some("OK".into())
            }
            "BEGIN" => Some(self.think()),
            "TURN" => match self.parse_point(rest) {
                Ok(p) if self.stones.iter().any(|s| s.0 == p) => {
                    Some(format!("ERROR {},{} is occupied", p.x, p.y))
                }
                Ok(p) => {
                    let s = self.to_play();
                    self.stones.push((p, s));
                    Some(self.think())
                }
                Err(e) => Some(format!("ERROR {e}")),
            },
            "BOARD" | "SWAP2BOARD" => {
                if self.size.is_none() {
                    return Some("ERROR no game started (send START first)".into());
                }
                self.collecting = Some(Collect {
                    kind: if cmd.eq_ignore_ascii_case("BOARD") {
                        Kind::Board
                    } else {
                        Kind::Swap2
                    },
                    lines: Vec::new(),
                    bad: None,
                });
                None
            }
            "TAKEBACK" => match self.parse_point(rest) {
                Ok(p) => match self.stones.iter().rposition(|s| s.0 == p) {
                    Some(i) => {
                        self.stones.remove(i);
                        Some("OK".into())
                    }
                    None => Some(format!("ERROR no stone at {},{}", p.x, p.y)),
                },
                Err(e) => Some(format!("ERROR {e}")),
            },
            "INFO" => {
                let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                let v = value.trim().parse::<i64>().ok();
                match (key.to_ascii_lowercase().as_str(), v) {
                    ("timeout_turn", Some(v)) => self.timeout_turn = v.max(0) as u64,
                    ("timeout_match", Some(v)) => self.timeout_match = v.max(0) as u64,
                    ("time_left", Some(v)) => self.time_left = Some(v.max(0) as u64),
                    ("max_memory", Some(v)) => self.max_memory = v.max(0) as u64,
                    ("rule", Some(v)) => self.rule_bits = v.max(0) as u32,
                    _ => {}
                }
                None
            }
            "ABOUT" => Some(
                "name=\"pbrain-tabula\", version=\"0.1\", author=\"Tabula\", country=\"Unknown\""
                    .into(),
            ),
            _ => Some(format!("UNKNOWN command {cmd}")),
        }
    }

    fn finish(&mut self, c: Collect) -> String {
        if let Some(e) = c.bad {
            return format!("ERROR {e}");
        }
        let mut seen = Vec::new();
        for &(p, _) in &c.lines {
            if seen.contains(&p) {
                return format!("ERROR {},{} listed twice", p.x, p.y);
            }
            seen.push(p);
        }
        match c.kind {
            Kind::Board => {
                let total = c.lines.len();
                let me = if total.is_multiple_of(2) {
                    Stone::Black
                } else {
                    Stone::White
                };
                self.stones = c
                    .lines
                    .iter()
                    .map(|&(p, f)| (p, if f == 1 { me } else { me.opponent() }))
                    .collect();
                self.think()
            }
            Kind::Swap2 => {
                self.stones = c
                    .lines
                    .iter()
                    .enumerate()
                    .map(|(i, &(p, _))| {
                        (
                            p,
                            if i.is_multiple_of(2) {
                                Stone::Black
                            } else {
                                Stone::White
                            },
                        )
                    })
                    .collect();
                self.swap2()
            }
        }
    }

    fn swap2(&mut self) -> String {
        let Some(size) = self.size else {
            return "ERROR no game started (send START first)".into();
        };
        let cfg = GomokuConfig {
            size,
            rule: self.rule(),
            opening: Opening::Swap2,
        };
        let Ok(mut g) = Gomoku::new(cfg) else {
            return "ERROR unsupported board".into();
        };
        let n = self.stones.len();
        if !matches!(n, 0 | 3 | 5) {
            return format!("ERROR SWAP2BOARD needs 0, 3 or 5 stones, got {n}");
        }
        for (i, &(p, _)) in self.stones.iter().enumerate() {
            let seat = if i < 3 { Seat::First } else { Seat::Second };
            if i == 3 && g.choose(Seat::Second, Swap2Choice::PlaceTwo).is_err() {
                return "ERROR bad swap2 position".into();
            }
            if g.play(seat, p).is_err() {
                return format!("ERROR illegal swap2 stone {},{}", p.x, p.y);
            }
        }
        let limits = self.limits();
        let mut placed = Vec::new();
        for k in 0..4u64 {
            let Some(seat) = g.to_act() else { break };
            match choose_with(self.level, &g, seat, limits, k) {
                Some(Decision::Place(p)) => {
                    if g.play(seat, p).is_err() {
                        return "ERROR internal: illegal move".into();
                    }
                    placed.push(p);
                    // Three opening stones, two "place two" stones, or one
                    // move as white: then it is the opponent's turn.
                    let done = match n {
                        0 => placed.len() == 3,
                        3 => placed.len() == 2 || g.phase() == tabula_shared::gomoku::Phase::Main,
                        _ => true,
                    };
                    if done {
                        break;
                    }
                }
                Some(Decision::Choose(Swap2Choice::PlayBlack)) => return "SWAP".into(),
                Some(Decision::Choose(c)) => {
                    if g.choose(seat, c).is_err() {
                        return "ERROR internal: illegal choice".into();
                    }
                }
                None => break,
            }
        }
        let stone_at = |i: usize| {
            if i.is_multiple_of(2) {
                Stone::Black
            } else {
                Stone::White
            }
        };
        for &p in &placed {
            let s = stone_at(self.stones.len());
            self.stones.push((p, s));
        }
        placed
            .iter()
            .map(|p| format!("{},{}", p.x, p.y))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The level named after `--level`, the Expert without one.
fn level_from_args() -> Level {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().position(|a| a == "--level") {
        None => Level::Expert,
        Some(i) => {
            let name = args.get(i + 1).map(String::as_str).unwrap_or("");
            Level::from_name(name).unwrap_or_else(|| {
                eprintln!("pbrain-tabula: unknown level {name:?} (beginner, casual, intermediate, advanced, expert)");
                std::process::exit(2);
            })
        }
    }
}

fn main() {
    let level = level_from_args();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut engine = Engine::new(level);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim_end_matches(['\r', '\n']);
        if line.trim().eq_ignore_ascii_case("END") {
            break;
        }
        if let Some(answer) = engine.handle(line) {
            let mut out = stdout.lock();
            if writeln!(out, "{answer}").and_then(|_| out.flush()).is_err() {
                break;
            }
        }
    }
}
