//! [`Position`]: the board seen from the side to move.

use serde::{Deserialize, Serialize};

use super::BgError;

/// Index of the mover's bar in [`Position::pips`].
pub(crate) const BAR: usize = 25;
/// Index of the opponent's bar in [`Position::pips`].
pub(crate) const OPP_BAR: usize = 0;

/// A position seen from the side to move ("x"; the other side is "o").
///
/// Layout (as in wildbg): `pips[1..=24]` are the mover's points (the mover
/// moves from 24 towards 1 and bears off from 1..=6), `pips[25]` is the mover's
/// bar, `pips[0]` is the opponent's bar. Positive counts are the mover's
/// checkers, negative counts the opponent's. The opponent moves from 1 towards
/// 24 in this numbering. `x_off` / `o_off` count borne-off checkers.
///
/// Every `Position` obtainable through the public API has 15 checkers per side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    pub(crate) pips: [i8; 26],
    pub(crate) x_off: u8,
    pub(crate) o_off: u8,
}

/// How many points a won game is worth before the cube.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResultKind {
    /// 1 point.
    Single,
    /// 2 points: the loser has borne off no checker.
    Gammon,
    /// 3 points: gammon, and the loser still has a checker on the bar or in
    /// the winner's home board.
    Backgammon,
}

impl GameResultKind {
    /// The multiplier: 1, 2 or 3.
    pub const fn points(self) -> u32 {
        match self {
            GameResultKind::Single => 1,
            GameResultKind::Gammon => 2,
            GameResultKind::Backgammon => 3,
        }
    }
}

/// A finished game as seen from a [`Position`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameResult {
    /// True if the side to move (x) has won, false if the opponent has.
    pub mover_wins: bool,
    /// Single, gammon or backgammon.
    pub kind: GameResultKind,
}

impl Position {
    /// The starting position.
    pub const START: Position = {
        let mut pips = [0i8; 26];
        pips[24] = 2;
        pips[13] = 5;
        pips[8] = 3;
        pips[6] = 5;
        pips[1] = -2;
        pips[12] = -5;
        pips[17] = -3;
        pips[19] = -5;
        Position {
            pips,
            x_off: 0,
            o_off: 0,
        }
    };

    /// The starting position (same as [`Position::START`]).
    pub const fn start() -> Position {
        Position::START
    }

    /// Builds a position from its raw layout (see the type docs) and checks
    /// it: bars have the right sign and each side has exactly 15 checkers.
    pub fn from_pips(pips: [i8; 26], x_off: u8, o_off: u8) -> Result<Position, BgError> {
        let p = Position { pips, x_off, o_off };
        p.validate()?;
        Ok(p)
    }

    /// Builds a position from lists of `(point, count)` in the mover's
    /// numbering: for x, point 25 is the bar; for o, point 0 is o's bar. The
    /// checkers not listed are borne off.
    pub fn from_points(x: &[(u8, u8)], o: &[(u8, u8)]) -> Result<Position, BgError> {
        let mut pips = [0i8; 26];
        let mut xs = 0u32;
        let mut os = 0u32;
        for &(p, n) in x {
            if !(1..=25).contains(&p) || n > 15 || pips[p as usize] != 0 {
                return Err(BgError::BadPosition(format!("bad x entry {p}:{n}")));
            }
            pips[p as usize] = n as i8;
            xs += u32::from(n);
        }
        for &(p, n) in o {
            if p > 24 || n > 15 || pips[p as usize] != 0 {
                return Err(BgError::BadPosition(format!("bad o entry {p}:{n}")));
            }
            pips[p as usize] = -(n as i8);
            os += u32::from(n);
        }
        if xs > 15 || os > 15 {
            return Err(BgError::BadPosition("more than 15 checkers".into()));
        }
        Position::from_pips(pips, (15 - xs) as u8, (15 - os) as u8)
    }

    fn validate(&self) -> Result<(), BgError> {
        if self.pips[BAR] < 0 || self.pips[OPP_BAR] > 0 {
            return Err(BgError::BadPosition("bar sign".into()));
        }
        let mut xs = u32::from(self.x_off);
        let mut os = u32::from(self.o_off);
        for &n in &self.pips {
            if n > 0 {
                xs += n as u32;
            } else {
                os += n.unsigned_abs() as u32;
            }
        }
        if xs != 15 || os != 15 {
            return Err(BgError::BadPosition(format!(
                "checker count {xs}/{os}, expected 15/15"
            )));
        }
        Ok(())
    }

    /// The raw layout (see the type docs).
    pub const fn pips(&self) -> &[i8; 26] {
        &self.pips
    }

    /// Checkers on `index` (0..=25, see the type docs): positive for the
    /// mover, negative for the opponent; 0 for an index out of range.
    pub fn checker(&self, index: usize) -> i8 {
        self.pips.get(index).copied().unwrap_or(0)
    }

    /// Mover's checkers on the bar.
    pub const fn x_bar(&self) -> u8 {
        self.pips[BAR] as u8
    }

    /// Opponent's checkers on the bar.
    pub const fn o_bar(&self) -> u8 {
        self.pips[OPP_BAR].unsigned_abs()
    }

    /// Mover's checkers borne off.
    pub const fn x_off(&self) -> u8 {
        self.x_off
    }

    /// Opponent's checkers borne off.
    pub const fn o_off(&self) -> u8 {
        self.o_off
    }

    /// The same position seen from the opponent's side.
    pub fn switch_sides(&self) -> Position {
        let mut pips = [0i8; 26];
        for (i, p) in pips.iter_mut().enumerate() {
            *p = -self.pips[25 - i];
        }
        Position {
            pips,
            x_off: self.o_off,
            o_off: self.x_off,
        }
    }

    /// Pip counts `(mover, opponent)`; a checker on the bar counts 25.
    pub fn pip_count(&self) -> (u32, u32) {
        let mut x = 0u32;
        let mut o = 0u32;
        for (i, &n) in self.pips.iter().enumerate() {
            if n > 0 {
                x += n as u32 * i as u32;
            } else if n < 0 {
                o += n.unsigned_abs() as u32 * (25 - i) as u32;
            }
        }
        (x, o)
    }

    /// Whether all the mover's checkers are in the home board (or off).
    pub fn x_all_home(&self) -> bool {
        self.pips[7..=25].iter().all(|&n| n <= 0)
    }

    /// Whether the two sides can no longer hit each other (a pure race).
    pub fn is_race(&self) -> bool {
        let highest_o = (0..=25).filter(|&i| self.pips[i] < 0).min();
        let highest_x = (0..=25).rev().find(|&i| self.pips[i] > 0);
        match (highest_x, highest_o) {
            (Some(x), Some(o)) => o > x,
            _ => true,
        }
    }

    /// The result if one side has borne off all 15 checkers, else `None`.
    pub fn game_result(&self) -> Option<GameResult> {
        if self.x_off >= 15 {
            let kind = if self.o_off > 0 {
                GameResultKind::Single
            } else if self.pips[0..=6].iter().any(|&n| n < 0) {
                GameResultKind::Backgammon
            } else {
                GameResultKind::Gammon
            };
            Some(GameResult {
                mover_wins: true,
                kind,
            })
        } else if self.o_off >= 15 {
            let kind = if self.x_off > 0 {
                GameResultKind::Single
            } else if self.pips[19..=25].iter().any(|&n| n > 0) {
                GameResultKind::Backgammon
            } else {
                GameResultKind::Gammon
            };
            Some(GameResult {
                mover_wins: false,
                kind,
            })
        } else {
            None
        }
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::START
    }
}

impl Serialize for Position {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.position_id())
    }
}

impl<'de> Deserialize<'de> for Position {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Position::from_position_id(&s).map_err(serde::de::Error::custom)
    }
}

/// Builds a [`Position`] for tests: `bg_pos!(x 24:2, 13:5; o 1:2)`.
///
/// Points are in the mover's numbering; x's bar is 25, o's bar is 0.
/// Checkers not listed are borne off.
///
/// # Panics
/// If the position is invalid (this macro is meant for tests).
#[macro_export]
macro_rules! bg_pos {
    (x $($xp:literal : $xn:literal),* ; o $($op:literal : $on:literal),* $(,)?) => {
        $crate::backgammon::Position::from_points(
            &[$(($xp, $xn)),*],
            &[$(($op, $on)),*],
        ).expect("bg_pos!: invalid position")
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_symmetric() {
        assert_eq!(Position::START.switch_sides(), Position::START);
        assert_eq!(Position::START.pip_count(), (167, 167));
        assert!(Position::START.game_result().is_none());
    }

    #[test]
    fn results() {
        let p = bg_pos!(x ; o 1:1, 20:14);
        assert_eq!(
            p.game_result(),
            Some(GameResult {
                mover_wins: true,
                kind: GameResultKind::Backgammon
            })
        );
        let p = bg_pos!(x ; o 0:1, 20:14);
        assert_eq!(p.game_result().unwrap().kind, GameResultKind::Backgammon);
        let p = bg_pos!(x ; o 7:15);
        assert_eq!(p.game_result().unwrap().kind, GameResultKind::Gammon);
        let p = bg_pos!(x ; o 1:14);
        assert_eq!(p.game_result().unwrap().kind, GameResultKind::Single);
        let p = bg_pos!(x 24:15; o).switch_sides();
        assert_eq!(
            p.game_result(),
            Some(GameResult {
                mover_wins: true,
                kind: GameResultKind::Backgammon
            })
        );
        let p = bg_pos!(x 24:15; o);
        assert_eq!(
            p.game_result(),
            Some(GameResult {
                mover_wins: false,
                kind: GameResultKind::Backgammon
            })
        );
    }

    #[test]
    fn bad_positions() {
        assert!(Position::from_points(&[(24, 16)], &[]).is_err());
        assert!(Position::from_points(&[(24, 1)], &[(24, 1)]).is_err());
        assert!(Position::from_points(&[(26, 1)], &[]).is_err());
        assert!(Position::from_pips([0; 26], 14, 15).is_err());
    }
}
