//! Line patterns: what one stone does along one line.
//!
//! For an empty cell, a colour and a direction, the *line key* encodes the
//! five cells on each side (each empty, own, or blocked = opponent or
//! edge) in base 3. A precomputed table maps the key to the [`Pat`] the
//! colour would make by playing the cell:
//!
//! * `Five`: the stone completes a winning run (exactly five in "exact"
//!   mode, five or more otherwise); `Overline` (exact mode only): it makes
//!   six or more.
//! * `F4` (open four): afterwards at least two different empty points of
//!   the line complete a five through the stone (`.XXXX.`, `X.XXX.X`): it
//!   cannot be stopped by one move.
//! * `B4` (four): exactly one such point.
//! * `F3` / `B3` (open three / three): one more stone can make an `F4` /
//!   a `B4`; `F2`/`B2`, `F1`/`B1` likewise one level down.
//! * `Dead`: no five can ever be made through the stone on this line.
//!
//! The classification is recursive ("one more stone makes ..."), computed
//! once per rule mode with memoisation over the 3^10 keys.

use std::sync::OnceLock;

/// A line pattern (see the module docs). Ordered by strength, except
/// `Overline`, which is a separate marker.
pub(crate) type Pat = u8;
pub(crate) const DEAD: Pat = 0;
pub(crate) const B1: Pat = 1;
pub(crate) const F1: Pat = 2;
pub(crate) const B2: Pat = 3;
pub(crate) const F2: Pat = 4;
pub(crate) const B3: Pat = 5;
pub(crate) const F3: Pat = 6;
pub(crate) const B4: Pat = 7;
pub(crate) const F4: Pat = 8;
pub(crate) const FIVE: Pat = 9;
pub(crate) const OVERLINE: Pat = 10;
/// Number of pattern codes.
pub(crate) const NPAT: usize = 11;

/// Number of line keys: 10 neighbours, 3 states each.
pub(crate) const NKEYS: usize = 59_049;

/// `3^i` for the neighbour positions.
pub(crate) const POW3: [u16; 10] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683];

/// Digit position in the key of the neighbour `k` steps away (`k` in
/// `-5..=5`, not 0).
#[inline]
pub(crate) const fn key_pos(k: i32) -> usize {
    if k < 0 {
        (k + 5) as usize
    } else {
        (k + 4) as usize
    }
}

/// Neighbour state digits.
const EMPTY: u8 = 0;
const OWN: u8 = 1;

fn decode(key: usize) -> [u8; 11] {
    let mut line = [0u8; 11];
    let mut k = key;
    for (i, slot) in line.iter_mut().enumerate() {
        if i == 5 {
            *slot = OWN;
            continue;
        }
        *slot = (k % 3) as u8;
        k /= 3;
    }
    line
}

fn encode(line: &[u8; 11]) -> usize {
    let mut key = 0usize;
    let mut mul = 1usize;
    for (i, &v) in line.iter().enumerate() {
        if i == 5 {
            continue;
        }
        key += usize::from(v) * mul;
        mul *= 3;
    }
    key
}

/// Length of the own run through the centre.
fn run_len(line: &[u8; 11]) -> usize {
    let mut n = 1;
    let mut i = 4usize;
    loop {
        if line[i] != OWN {
            break;
        }
        n += 1;
        if i == 0 {
            break;
        }
        i -= 1;
    }
    for &v in &line[6..] {
        if v != OWN {
            break;
        }
        n += 1;
    }
    n
}

fn wins(len: usize, exact: bool) -> bool {
    if exact { len == 5 } else { len >= 5 }
}

fn classify(line: &mut [u8; 11], exact: bool, memo: &mut [u8]) -> Pat {
    let key = encode(line);
    if memo[key] != u8::MAX {
        return memo[key];
    }
    let len = run_len(line);
    let result = if wins(len, exact) {
        FIVE
    } else if exact && len > 5 {
        OVERLINE
    } else {
        let mut fives = 0;
        for e in 0..11 {
            if e == 5 || line[e] != EMPTY {
                continue;
            }
            line[e] = OWN;
            if wins(run_len(line), exact) {
                fives += 1;
            }
            line[e] = EMPTY;
        }
        if fives >= 2 {
            F4
        } else if fives == 1 {
            B4
        } else {
            let mut best = DEAD;
            for e in 0..11 {
                if e == 5 || line[e] != EMPTY {
                    continue;
                }
                line[e] = OWN;
                let sub = classify(line, exact, memo);
                line[e] = EMPTY;
                let down = match sub {
                    F4 => F3,
                    B4 => B3,
                    F3 => F2,
                    B3 => B2,
                    F2 => F1,
                    B2 => B1,
                    _ => DEAD,
                };
                best = best.max(down);
            }
            best
        }
    };
    memo[key] = result;
    result
}

fn build(exact: bool) -> Vec<u8> {
    let mut memo = vec![u8::MAX; NKEYS];
    for key in 0..NKEYS {
        let mut line = decode(key);
        classify(&mut line, exact, &mut memo);
    }
    memo
}

/// The pattern table: `exact` for "exactly five wins" (standard, renju
/// black), otherwise "five or more wins".
pub(crate) fn table(exact: bool) -> &'static [u8] {
    static EXACT: OnceLock<Vec<u8>> = OnceLock::new();
    static LONG: OnceLock<Vec<u8>> = OnceLock::new();
    if exact {
        EXACT.get_or_init(|| build(true))
    } else {
        LONG.get_or_init(|| build(false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pat(s: &str, exact: bool) -> Pat {
        // `s` is 11 chars, centre at index 5 must be 'X'.
        let mut line = [0u8; 11];
        for (i, c) in s.chars().enumerate() {
            line[i] = match c {
                'X' => 1,
                '.' => 0,
                _ => 2,
            };
        }
        table(exact)[encode(&line)]
    }

    #[test]
    fn shapes() {
        assert_eq!(pat("...XXXXX...", false), FIVE);
        assert_eq!(pat("..XXXXXX...", true), OVERLINE);
        assert_eq!(pat("..XXXXXX...", false), FIVE);
        assert_eq!(pat("...XXXX....", false), F4);
        assert_eq!(pat("..OXXXX....", false), B4);
        assert_eq!(pat("..X.XXX.X..", false), F4);
        assert_eq!(pat("....XXX....", false), F3);
        assert_eq!(pat("...OXXX....", false), B3);
        assert_eq!(pat("...X.XX....", false), F3);
        assert_eq!(pat(".....X.....", false), F1);
        assert_eq!(pat("OOOOOXOOOOO", false), DEAD);
        assert_eq!(pat("...O.X..O..", false), DEAD);
        // Exact five: the left completion would make six.
        assert_eq!(pat("X.XXXX.....", true), B4);
        assert_eq!(pat("X.XXXX.....", false), F4);
    }
}
