//! [`Move`] and [`Play`], and the standard move notation.
//!
//! Notation is always from the mover's side: `24/18 13/11`, `bar/22*`,
//! `6/off`, `8/5(2)`, `24/18*/13`. Printing sorts moves from high to low,
//! joins consecutive hops of one checker (`24/13`, or `24/18*/13` when the
//! intermediate point is a hit), merges identical moves as `(n)` and marks hits
//! with `*`. An empty play (no legal move) prints as the empty string; parsing
//! accepts `""` and `-` for it. `bar` may be written `25`, `off` may be `0`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::BgError;

/// One hop of one checker, in the mover's numbering: `from` 25 is the bar,
/// `to` 0 is off. Moves made by move generation are single-die hops; parsed
/// moves may span several dice (`24/13`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move {
    /// Start point, 1..=25 (25 = bar).
    pub from: u8,
    /// End point, 0..=24 (0 = off).
    pub to: u8,
    /// Whether the hop hit a blot (informational; applying a play hits any
    /// lone opposing checker on `to`).
    pub hit: bool,
}

/// A full play: the checker moves for one roll. Serialised as its notation.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Play {
    /// The hops, in the order they are played.
    pub moves: Vec<Move>,
}

const MAX_PARSED_MOVES: usize = 16;

fn fmt_point(p: u8, is_from: bool) -> String {
    match (p, is_from) {
        (25, true) => "bar".to_string(),
        (0, false) => "off".to_string(),
        _ => p.to_string(),
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Chains: start point, then (point, hit) for each hop. Any chain
        // ending where another starts is joined with it, whatever the order
        // the hops were played in.
        let mut chains: Vec<(u8, Vec<(u8, bool)>)> = self
            .moves
            .iter()
            .map(|m| (m.from, vec![(m.to, m.hit)]))
            .collect();
        'join: loop {
            for i in 0..chains.len() {
                let end = chains[i].1.last().map_or(0, |&(p, _)| p);
                if end == 0 {
                    continue;
                }
                if let Some(j) = (0..chains.len()).find(|&j| j != i && chains[j].0 == end) {
                    let (_, tail) = chains.remove(j);
                    let i = if j < i { i - 1 } else { i };
                    chains[i].1.extend(tail);
                    continue 'join;
                }
            }
            break;
        }
        // Drop intermediate points that are not hits.
        let mut items: Vec<(u8, Vec<(u8, bool)>)> = chains
            .into_iter()
            .map(|(from, hops)| {
                let n = hops.len();
                let kept = hops
                    .into_iter()
                    .enumerate()
                    .filter(|&(i, (_, hit))| hit || i + 1 == n)
                    .map(|(_, h)| h)
                    .collect();
                (from, kept)
            })
            .collect();
        items.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| b.1.cmp(&a.1)));
        let mut first = true;
        let mut i = 0;
        while i < items.len() {
            // At most four to a group, the most a roll moves and the most
            // the parser takes in one `(n)`.
            let mut n = 1;
            while n < 4 && i + n < items.len() && items[i + n] == items[i] {
                n += 1;
            }
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            let (from, hops) = &items[i];
            f.write_str(&fmt_point(*from, true))?;
            for &(p, hit) in hops {
                write!(f, "/{}{}", fmt_point(p, false), if hit { "*" } else { "" })?;
            }
            if n > 1 {
                write!(f, "({n})")?;
            }
            i += n;
        }
        Ok(())
    }
}

fn parse_point(s: &str, is_from: bool) -> Result<u8, BgError> {
    let bad = || BgError::BadNotation(format!("bad point '{s}'"));
    let lower = s.to_ascii_lowercase();
    match lower.as_str() {
        "bar" if is_from => return Ok(25),
        "off" if !is_from => return Ok(0),
        _ => {}
    }
    if s.is_empty() || s.len() > 2 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let n: u8 = s.parse().map_err(|_| bad())?;
    let ok = if is_from {
        (1..=25).contains(&n)
    } else {
        n <= 24
    };
    if ok { Ok(n) } else { Err(bad()) }
}

impl FromStr for Play {
    type Err = BgError;

    fn from_str(s: &str) -> Result<Play, BgError> {
        let s = s.trim();
        if s.is_empty() || s == "-" {
            return Ok(Play::default());
        }
        let mut moves = Vec::new();
        for token in s.split_whitespace() {
            let (body, count) = match token.find('(') {
                Some(i) => {
                    let rest = &token[i + 1..];
                    let num = rest
                        .strip_suffix(')')
                        .ok_or_else(|| BgError::BadNotation(format!("bad count in '{token}'")))?;
                    let n: usize = num
                        .parse()
                        .map_err(|_| BgError::BadNotation(format!("bad count in '{token}'")))?;
                    if !(1..=4).contains(&n) {
                        return Err(BgError::BadNotation(format!("bad count in '{token}'")));
                    }
                    (&token[..i], n)
                }
                None => (token, 1),
            };
            let mut parts = body.split('/');
            let first = parts.next().unwrap_or("");
            let mut from = parse_point(first, true)?;
            let mut hops = Vec::new();
            for part in parts {
                let (p, hit) = match part.strip_suffix('*') {
                    Some(p) => (p, true),
                    None => (part, false),
                };
                let to = parse_point(p, false)?;
                if to >= from {
                    return Err(BgError::BadNotation(format!(
                        "'{token}' does not move forward"
                    )));
                }
                hops.push(Move { from, to, hit });
                from = to;
            }
            if hops.is_empty() {
                return Err(BgError::BadNotation(format!("'{token}' has no '/'")));
            }
            for _ in 0..count {
                if moves.len() + hops.len() > MAX_PARSED_MOVES {
                    return Err(BgError::BadNotation("too many moves".into()));
                }
                moves.extend_from_slice(&hops);
            }
        }
        Ok(Play { moves })
    }
}

impl Serialize for Play {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Play {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(from: u8, to: u8, hit: bool) -> Move {
        Move { from, to, hit }
    }

    #[test]
    fn prints_standard_forms() {
        let p = Play {
            moves: vec![mv(13, 11, false), mv(24, 18, false)],
        };
        assert_eq!(p.to_string(), "24/18 13/11");
        let p = Play {
            moves: vec![mv(25, 22, true)],
        };
        assert_eq!(p.to_string(), "bar/22*");
        let p = Play {
            moves: vec![mv(6, 0, false)],
        };
        assert_eq!(p.to_string(), "6/off");
        let p = Play {
            moves: vec![mv(8, 5, false), mv(8, 5, false)],
        };
        assert_eq!(p.to_string(), "8/5(2)");
        let p = Play {
            moves: vec![mv(24, 18, true), mv(18, 13, false)],
        };
        assert_eq!(p.to_string(), "24/18*/13");
        let p = Play {
            moves: vec![mv(24, 18, false), mv(18, 13, false)],
        };
        assert_eq!(p.to_string(), "24/13");
        let p = Play {
            moves: vec![
                mv(13, 10, false),
                mv(13, 10, false),
                mv(10, 7, false),
                mv(10, 7, false),
            ],
        };
        assert_eq!(p.to_string(), "13/7(2)");
        assert_eq!(Play::default().to_string(), "");
    }

    #[test]
    fn parses_standard_forms() {
        let p: Play = "24/18*/13 bar/22".parse().unwrap();
        assert_eq!(
            p.moves,
            vec![mv(24, 18, true), mv(18, 13, false), mv(25, 22, false)]
        );
        let p: Play = "8/5(2) 6/off".parse().unwrap();
        assert_eq!(
            p.moves,
            vec![mv(8, 5, false), mv(8, 5, false), mv(6, 0, false)]
        );
        let p: Play = "25/22* 3/0".parse().unwrap();
        assert_eq!(p.moves, vec![mv(25, 22, true), mv(3, 0, false)]);
        assert_eq!("".parse::<Play>().unwrap(), Play::default());
    }

    #[test]
    fn rejects_garbage() {
        for s in [
            "24",
            "24/",
            "/5",
            "5/8",
            "26/20",
            "off/5",
            "bar/bar",
            "24/18(9)",
            "24/18(",
            "x/y",
            "8/5(0)",
            "24/18**",
            "999/1",
            "13/7(4) 13/7(4) 13/7(4) 13/7(4) 13/7(4)",
            "\u{1F600}/5",
        ] {
            assert!(s.parse::<Play>().is_err(), "{s}");
        }
    }

    /// Found by the `notation` fuzz target: six identical hops printed as
    /// `8/2(6)`, which the parser refuses.
    #[test]
    fn a_play_of_more_than_four_like_moves_prints_as_parseable_groups() {
        let p: Play = "8/2(2) 6/4(1)\t8/2(2) 6/4(1)\t8/2(2) 6/4(1)"
            .parse()
            .unwrap();
        let printed = p.to_string();
        assert_eq!(printed, "8/2(4) 8/2(2) 6/4(3)");
        let again: Play = printed.parse().expect("a printed play parses");
        assert_eq!(again.to_string(), printed);
    }

    #[test]
    fn serde_as_string() {
        let p: Play = "bar/22* 13/11".parse().unwrap();
        let j = serde_json::to_string(&p).unwrap();
        assert_eq!(j, "\"bar/22* 13/11\"");
        let q: Play = serde_json::from_str(&j).unwrap();
        assert_eq!(p, q);
    }
}
