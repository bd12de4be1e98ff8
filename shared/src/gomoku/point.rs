//! Board coordinates: zero-based `(x, y)` pairs and the standard `h8` notation.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::GomokuError;

/// Largest column count that has a letter in the notation (`a` ..= `y`).
pub const NOTATION_MAX: u8 = 25;

/// A point on (or, for caller input, possibly off) the board.
///
/// `x` is the column (0 = `a`), `y` the row (0 = row `1`). Serialises as
/// `{"x":7,"y":7}`. [`Display`](fmt::Display) prints the standard notation
/// (`h8` for `x = 7, y = 7`); columns use the consecutive letters `a`, `b`, ...
/// `y` (no letter is skipped), rows are numbered from 1. Points whose
/// coordinates have no notation (`x` or `y` of 25 or more) print in the
/// zero-based form `(x,y)`. [`FromStr`] accepts both forms, so
/// `p.to_string().parse() == Ok(p)` for every point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Point {
    /// Column, zero-based (`0` = `a`).
    pub x: u8,
    /// Row, zero-based (`0` = row `1`).
    pub y: u8,
}

impl Point {
    /// Builds a point from zero-based coordinates.
    pub const fn new(x: u8, y: u8) -> Self {
        Point { x, y }
    }

    /// The standard notation of this point (`h8`), or the zero-based form
    /// `(x,y)` when a coordinate is 25 or more. Same text as `Display`.
    pub fn notation(&self) -> String {
        self.to_string()
    }

    /// Parses either form (`h8`, `H8`, `7,7`, `(7, 7)`) and checks that the
    /// point lies on a `size` x `size` board.
    ///
    /// Errors: [`GomokuError::BadNotation`] for text that is neither form,
    /// [`GomokuError::OffBoard`] for a well-formed point outside the board.
    pub fn parse_on(s: &str, size: u8) -> Result<Point, GomokuError> {
        let p: Point = s.parse()?;
        if p.x < size && p.y < size {
            Ok(p)
        } else {
            Err(GomokuError::OffBoard(p))
        }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.x < NOTATION_MAX && self.y < NOTATION_MAX {
            let letter = char::from(b'a' + self.x);
            write!(f, "{letter}{}", u32::from(self.y) + 1)
        } else {
            write!(f, "({},{})", self.x, self.y)
        }
    }
}

impl FromStr for Point {
    type Err = GomokuError;

    /// Parses `h8` notation (letters `a`..=`y`, either case; rows `1`..=`25`
    /// without leading zeros) or zero-based coordinates `x,y` / `(x,y)`
    /// (each `0..=255`, spaces allowed). It does not know the board size: use
    /// [`Point::parse_on`] to also check the point is on the board.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || GomokuError::BadNotation(s.chars().take(32).collect());
        let t = s.trim();
        if t.contains(',') {
            let inner = t
                .strip_prefix('(')
                .and_then(|r| r.strip_suffix(')'))
                .unwrap_or(t);
            let (a, b) = inner.split_once(',').ok_or_else(bad)?;
            let parse = |v: &str| -> Result<u8, GomokuError> {
                let v = v.trim();
                if v.is_empty() || !v.bytes().all(|c| c.is_ascii_digit()) {
                    return Err(bad());
                }
                v.parse::<u8>().map_err(|_| bad())
            };
            return Ok(Point::new(parse(a)?, parse(b)?));
        }
        let mut chars = t.chars();
        let letter = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        if !('a'..='y').contains(&letter) {
            return Err(bad());
        }
        let digits = chars.as_str();
        if digits.is_empty()
            || digits.len() > 2
            || digits.starts_with('0')
            || !digits.bytes().all(|c| c.is_ascii_digit())
        {
            return Err(bad());
        }
        let row: u8 = digits.parse().map_err(|_| bad())?;
        if !(1..=NOTATION_MAX).contains(&row) {
            return Err(bad());
        }
        // `letter` is in 'a'..='y', so the subtraction cannot underflow.
        let x = (letter as u32 - 'a' as u32) as u8;
        Ok(Point::new(x, row - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_is_h8() {
        assert_eq!(Point::new(7, 7).to_string(), "h8");
        assert_eq!("h8".parse::<Point>(), Ok(Point::new(7, 7)));
        assert_eq!("H8".parse::<Point>(), Ok(Point::new(7, 7)));
        assert_eq!(Point::new(7, 7).notation(), "h8");
    }

    #[test]
    fn corners() {
        assert_eq!(Point::new(0, 0).to_string(), "a1");
        assert_eq!(Point::new(14, 14).to_string(), "o15");
        assert_eq!(Point::new(24, 24).to_string(), "y25");
        assert_eq!("y25".parse::<Point>(), Ok(Point::new(24, 24)));
        assert_eq!("s19".parse::<Point>(), Ok(Point::new(18, 18)));
    }

    #[test]
    fn coordinate_form() {
        assert_eq!("7,7".parse::<Point>(), Ok(Point::new(7, 7)));
        assert_eq!("(3, 12)".parse::<Point>(), Ok(Point::new(3, 12)));
        assert_eq!(Point::new(30, 2).to_string(), "(30,2)");
        assert_eq!("(30,2)".parse::<Point>(), Ok(Point::new(30, 2)));
    }

    #[test]
    fn bad_input() {
        for s in [
            "", " ", "z99", "a0", "z1", "a26", "a01", "a", "8", "h8x", "hh", "a-1", "i", "é5",
            "(1,)", ",", "(-1,2)", "1,256", "(1,2", "a999",
        ] {
            assert!(
                matches!(s.parse::<Point>(), Err(GomokuError::BadNotation(_))),
                "{s:?} should not parse"
            );
        }
    }

    #[test]
    fn parse_on_checks_size() {
        assert_eq!(Point::parse_on("o15", 15), Ok(Point::new(14, 14)));
        assert_eq!(
            Point::parse_on("p1", 15),
            Err(GomokuError::OffBoard(Point::new(15, 0)))
        );
        assert_eq!(
            Point::parse_on("(15,0)", 15),
            Err(GomokuError::OffBoard(Point::new(15, 0)))
        );
        assert!(matches!(
            Point::parse_on("z99", 15),
            Err(GomokuError::BadNotation(_))
        ));
    }

    #[test]
    fn round_trip_all_points() {
        for x in 0..=u8::MAX {
            for y in 0..=u8::MAX {
                let p = Point::new(x, y);
                assert_eq!(p.to_string().parse::<Point>(), Ok(p));
            }
        }
    }

    #[test]
    fn serde_shape() {
        let j = serde_json::to_string(&Point::new(7, 7)).unwrap();
        assert_eq!(j, r#"{"x":7,"y":7}"#);
    }
}
