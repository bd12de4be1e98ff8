//! Drives the real `pbrain-tabula` binary through a pipe with Gomocup
//! protocol sessions (small `timeout_turn`, so each move is quick).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Brain {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Brain {
    fn start() -> Brain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-tabula"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn pbrain-tabula");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Brain {
            child,
            input,
            output,
        }
    }

    fn send(&mut self, line: &str) {
        write!(self.input, "{line}\r\n").unwrap();
        self.input.flush().unwrap();
    }

    fn recv(&mut self) -> String {
        let mut s = String::new();
        self.output.read_line(&mut s).unwrap();
        s.trim_end().to_string()
    }

    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.recv()
    }

    fn end(mut self) {
        self.send("END");
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }
}

fn point(answer: &str, size: u8) -> (u8, u8) {
    let (x, y) = answer
        .split_once(',')
        .unwrap_or_else(|| panic!("not a move: {answer:?}"));
    let (x, y): (u8, u8) = (x.parse().unwrap(), y.parse().unwrap());
    assert!(x < size && y < size, "{answer} off the board");
    (x, y)
}

fn setup(b: &mut Brain, size: u8) {
    b.send("INFO timeout_turn 200");
    b.send("INFO timeout_match 100000");
    b.send("INFO time_left 100000");
    b.send("INFO max_memory 83886080");
    assert_eq!(b.ask(&format!("START {size}")), "OK");
}

#[test]
fn about_start_begin_turn() {
    let mut b = Brain::start();
    assert_eq!(
        b.ask("ABOUT"),
        r#"name="pbrain-tabula", version="0.1", author="Tabula", country="Unknown""#
    );
    setup(&mut b, 15);
    let first = point(&b.ask("BEGIN"), 15);
    let mut taken = vec![first];
    for (x, y) in [(8u8, 8u8), (6, 9), (9, 5)] {
        if taken.contains(&(x, y)) {
            continue;
        }
        taken.push((x, y));
        let m = point(&b.ask(&format!("TURN {x},{y}")), 15);
        assert!(!taken.contains(&m), "played on an occupied point {m:?}");
        taken.push(m);
    }
    assert_eq!(b.ask("RESTART"), "OK");
    point(&b.ask("BEGIN"), 15);
    b.end();
}

#[test]
fn board_blocks_and_wins() {
    let mut b = Brain::start();
    setup(&mut b, 15);
    // Opponent (2) threatens five at (7,3); we (1) must block.
    b.send("BOARD");
    for l in [
        "2,3,1", "3,3,2", "4,3,2", "5,3,2", "6,3,2", "10,10,1", "11,11,1",
    ] {
        b.send(l);
    }
    assert_eq!(b.ask("DONE"), "7,3");
    // We have four in a row: take the five.
    b.send("BOARD");
    for l in [
        "5,7,1", "6,7,1", "7,7,1", "8,7,1", "1,1,2", "1,2,2", "9,7,2", "1,3,2",
    ] {
        b.send(l);
    }
    assert_eq!(b.ask("DONE"), "4,7");
    b.end();
}

#[test]
fn errors_unknown_and_takeback() {
    let mut b = Brain::start();
    assert!(b.ask("TURN 7,7").starts_with("ERROR"), "move before START");
    assert!(b.ask("START 3").starts_with("ERROR"));
    assert!(b.ask("START x").starts_with("ERROR"));
    setup(&mut b, 15);
    assert!(b.ask("FROBNICATE 1 2").starts_with("UNKNOWN"));
    assert!(b.ask("TURN 99,99").starts_with("ERROR"));
    assert!(b.ask("TURN a,b").starts_with("ERROR"));
    assert!(b.ask("TURN 7").starts_with("ERROR"));
    let m = b.ask("TURN 7,7");
    point(&m, 15);
    assert!(b.ask("TURN 7,7").starts_with("ERROR"), "occupied");
    assert_eq!(b.ask(&format!("TAKEBACK {m}")), "OK");
    assert_eq!(b.ask("TAKEBACK 7,7"), "OK");
    assert!(b.ask("TAKEBACK 7,7").starts_with("ERROR"));
    // Malformed BOARD lines give one ERROR at DONE, then all is well.
    b.send("BOARD");
    b.send("1,1,9");
    assert!(b.ask("DONE").starts_with("ERROR"));
    // Invalid UTF-8 and empty lines are tolerated.
    b.input.write_all(b"\xff\xfe\r\n\r\n").unwrap();
    assert!(b.recv().starts_with("UNKNOWN"));
    point(&b.ask("BEGIN"), 15);
    b.end();
}

#[test]
fn swap2_all_stages() {
    let mut b = Brain::start();
    setup(&mut b, 15);
    b.send("SWAP2BOARD");
    let three = b.ask("DONE");
    let moves: Vec<_> = three.split(' ').map(|m| point(m, 15)).collect();
    assert_eq!(moves.len(), 3, "{three}");
    assert_eq!(b.ask("RESTART"), "OK");
    b.send("SWAP2BOARD");
    for l in ["7,7", "8,7", "7,9"] {
        b.send(l);
    }
    let a = b.ask("DONE");
    let n = a.split(' ').count();
    assert!(a == "SWAP" || n == 1 || n == 2, "{a}");
    if a != "SWAP" {
        for m in a.split(' ') {
            point(m, 15);
        }
    }
    assert_eq!(b.ask("RESTART"), "OK");
    b.send("SWAP2BOARD");
    for l in ["7,7", "8,7", "7,9", "9,9", "6,8"] {
        b.send(l);
    }
    let a = b.ask("DONE");
    assert!(a == "SWAP" || a.split(' ').count() == 1, "{a}");
    if a != "SWAP" {
        point(&a, 15);
    } else {
        // We are black; the opponent plays white's move.
        point(&b.ask("TURN 10,10"), 15);
    }
    b.end();
}

#[test]
fn renju_and_standard_games_run() {
    for rule in [4, 1] {
        let mut b = Brain::start();
        b.send(&format!("INFO rule {rule}"));
        setup(&mut b, 15);
        let mut taken = vec![point(&b.ask("BEGIN"), 15)];
        let mut k = 0u8;
        for _ in 0..6 {
            // Opponent plays somewhere free on the edge rows.
            let mv = loop {
                let c = (k % 15, 14 - k / 15);
                k += 1;
                if !taken.contains(&c) {
                    break c;
                }
            };
            taken.push(mv);
            let m = point(&b.ask(&format!("TURN {},{}", mv.0, mv.1)), 15);
            assert!(!taken.contains(&m));
            taken.push(m);
        }
        b.end();
    }
}

#[test]
fn small_max_memory_still_plays_legal_moves() {
    // 200 KB: the hash tables shrink to fit in half of it.
    let mut b = Brain::start();
    b.send("INFO max_memory 200000");
    b.send("INFO timeout_turn 150");
    assert_eq!(b.ask("START 15"), "OK");
    let mut taken = vec![point(&b.ask("BEGIN"), 15)];
    // The opponent walks the 9x9 middle square row by row, skipping taken
    // points, so it never runs out of moves whatever the engine plays.
    let mut k = 0u8;
    for _ in 0..8 {
        let mv = loop {
            let c = (3 + k % 9, 3 + k / 9);
            k += 1;
            if !taken.contains(&c) {
                break c;
            }
        };
        taken.push(mv);
        let m = point(&b.ask(&format!("TURN {},{}", mv.0, mv.1)), 15);
        assert!(!taken.contains(&m), "played on an occupied point {m:?}");
        taken.push(m);
    }
    // A forced block still works with the small tables.
    b.send("BOARD");
    for l in [
        "2,3,1", "3,3,2", "4,3,2", "5,3,2", "6,3,2", "10,10,1", "11,11,1",
    ] {
        b.send(l);
    }
    assert_eq!(b.ask("DONE"), "7,3");
    b.end();
}
