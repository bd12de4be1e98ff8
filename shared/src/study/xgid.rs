//! eXtreme Gammon's position ID, `XGID=…`, read and written for a
//! [`BgSetup`].
//!
//! `XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10` has ten fields
//! separated by colons (XG's own description of the format):
//!
//! 1. the checkers: 26 characters, the top player's bar, points 1 to 24
//!    in the bottom player's numbering, then the bottom player's bar; `-` is
//!    empty, `A`… the bottom player's checkers (`A` = 1), `a`… the top's;
//! 2. the cube value's log2; 3. the cube's place: 1 the bottom player's,
//!    −1 the top's, 0 the middle; 4. the turn: 1 the bottom player, −1 the
//!    top; 5. the dice: `00` not rolled, two digits rolled, `D` a double
//!    offered (the turn is then the player who must answer it);
//! 6. and 7. the bottom's and the top's scores; 8. in a match 1 for the
//!    Crawford game, in money play Jacoby (1) plus beavers (2);
//! 9. the match length (0 money); 10. the largest cube's log2.
//!
//! The bottom player is Tabula's Black (gnubg's player 1), as gnubg reads
//! an XGID (`set xgid`): XG's point 1 is Black's 1-point.

use super::{BgSetup, SetupError};
use crate::backgammon::{Board, Cube, MatchConfig, Side};

/// XG's bottom player.
const BOTTOM: Side = Side::Black;

const NAMES: [&str; 10] = [
    "checkers",
    "cube value",
    "cube position",
    "turn",
    "dice",
    "bottom player's score",
    "top player's score",
    "Crawford or Jacoby",
    "match length",
    "largest cube",
];

fn field_error(field: usize, reason: impl Into<String>) -> SetupError {
    SetupError::Xgid {
        field: (field + 1) as u8,
        name: NAMES[field].into(),
        reason: reason.into(),
    }
}

fn side_of(value: i32, field: usize) -> Result<Option<Side>, SetupError> {
    match value {
        1 => Ok(Some(BOTTOM)),
        -1 => Ok(Some(BOTTOM.opponent())),
        0 => Ok(None),
        _ => Err(field_error(field, format!("{value} is not 1, 0 or -1"))),
    }
}

fn number(fields: &[&str], field: usize) -> Result<i32, SetupError> {
    let text = fields[field].trim();
    text.parse()
        .map_err(|_| field_error(field, format!("{text:?} is not a number")))
}

/// Whether `text` looks like an XGID (with or without `XGID=`).
pub fn is_xgid(text: &str) -> bool {
    let t = text.trim();
    t.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("xgid="))
        || t.split(':').next().is_some_and(|p| {
            p.len() == 26 && p.chars().all(|c| c == '-' || c.is_ascii_alphabetic())
        })
}

impl BgSetup {
    /// Reads an XGID (`XGID=` optional; the tenth field optional).
    ///
    /// # Errors
    /// [`SetupError::Xgid`] naming the field that does not read, or the
    /// setup's own check (see [`BgSetup::to_match`]).
    pub fn from_xgid(text: &str) -> Result<BgSetup, SetupError> {
        let t = text.trim();
        let t = match t.get(..5) {
            Some(p) if p.eq_ignore_ascii_case("xgid=") => &t[5..],
            _ => t,
        };
        let fields: Vec<&str> = t.split(':').collect();
        if !(9..=10).contains(&fields.len()) {
            return Err(field_error(
                0,
                format!("an XGID has 10 fields, this has {}", fields.len()),
            ));
        }
        let board = read_checkers(fields[0].trim())?;
        let cube_log = number(&fields, 1)?;
        if !(0..=6).contains(&cube_log) {
            return Err(field_error(
                1,
                format!("a cube of 2^{cube_log} is not 1 to 64"),
            ));
        }
        let owner = side_of(number(&fields, 2)?, 2)?;
        let turn = side_of(number(&fields, 3)?, 3)?
            .ok_or_else(|| field_error(3, "the turn is 1 or -1"))?;
        let dice_text = fields[4].trim();
        let (dice, double_offered) = match dice_text.as_bytes() {
            b"00" => (None, false),
            b"D" | b"d" => (None, true),
            [a @ b'1'..=b'6', b @ b'1'..=b'6'] => (Some([a - b'0', b - b'0']), false),
            _ => {
                return Err(field_error(
                    4,
                    format!("{dice_text:?} is not 00, D or two dice 1 to 6"),
                ));
            }
        };
        let score_of = |field| {
            let n = number(&fields, field)?;
            u32::try_from(n).map_err(|_| field_error(field, format!("{n} is negative")))
        };
        // Field 6 is the bottom player's (Black's).
        let score = [score_of(6)?, score_of(5)?];
        let rules = number(&fields, 7)?;
        let length = score_of(8)?;
        if fields.len() == 10 {
            number(&fields, 9)?;
        }
        if !(0..=3).contains(&rules) {
            return Err(field_error(7, format!("{rules} is not 0 to 3")));
        }
        let setup = BgSetup {
            board,
            // While a double is offered the turn is the player answering it.
            on_roll: if double_offered {
                turn.opponent()
            } else {
                turn
            },
            dice,
            cube: Cube {
                value: 1 << cube_log,
                owner,
            },
            double_offered,
            config: MatchConfig {
                length,
                jacoby: length == 0 && rules & 1 == 1,
                ..MatchConfig::default()
            },
            score: if length == 0 { [0, 0] } else { score },
            crawford_game: length > 0 && rules == 1,
        };
        setup.to_match()?;
        Ok(setup)
    }

    /// The XGID of this setup, `XGID=` included.
    pub fn xgid(&self) -> String {
        let b = &self.board;
        let mut checkers = String::with_capacity(26);
        let letter = |n: u8, upper: bool| {
            if n == 0 {
                '-'
            } else {
                let base = if upper { b'A' } else { b'a' };
                char::from(base + n.min(26) - 1)
            }
        };
        // The top player's (White's) bar, Black's points 1 to 24 (White's
        // 24 to 1), Black's bar; Black's letters upper case.
        checkers.push(letter(b.bar[Side::White.index()], false));
        for &n in b.points.iter().rev() {
            checkers.push(letter(n.unsigned_abs(), n < 0));
        }
        checkers.push(letter(b.bar[Side::Black.index()], true));
        let sign = |side: Option<Side>| match side {
            Some(s) if s == BOTTOM => 1,
            Some(_) => -1,
            None => 0,
        };
        let (turn, dice) = match (self.double_offered, self.dice) {
            (true, _) => (self.on_roll.opponent(), "D".to_string()),
            (false, Some([a, b])) => (self.on_roll, format!("{a}{b}")),
            (false, None) => (self.on_roll, "00".to_string()),
        };
        let rules = if self.config.length == 0 {
            u32::from(self.config.jacoby)
        } else {
            u32::from(self.crawford_game)
        };
        format!(
            "XGID={checkers}:{}:{}:{}:{dice}:{}:{}:{rules}:{}:10",
            self.cube.value.max(1).trailing_zeros(),
            sign(self.cube.owner),
            sign(Some(turn)),
            self.score[1],
            self.score[0],
            self.config.length,
        )
    }
}

/// The board of XGID field 1.
fn read_checkers(text: &str) -> Result<Board, SetupError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 26 {
        return Err(field_error(
            0,
            format!("{} characters; the checkers take 26", chars.len()),
        ));
    }
    let count = |i: usize| -> Result<(Option<Side>, u8), SetupError> {
        match chars[i] {
            '-' => Ok((None, 0)),
            c @ 'A'..='P' => Ok((Some(BOTTOM), c as u8 - b'A' + 1)),
            c @ 'a'..='p' => Ok((Some(BOTTOM.opponent()), c as u8 - b'a' + 1)),
            c => Err(field_error(
                0,
                format!("character {} is {c:?}, not -, A to P or a to p", i + 1),
            )),
        }
    };
    let mut board = Board {
        points: [0; 24],
        bar: [0, 0],
        off: [0, 0],
    };
    // Character k (1 to 24) is Black's k-point: White's 25 - k.
    for k in 1..=24 {
        let (side, n) = count(k)?;
        board.points[24 - k] = match side {
            Some(Side::White) => n as i8,
            Some(Side::Black) => -(n as i8),
            None => 0,
        };
    }
    // Each bar holds one side's checkers: its letters are read in either
    // case.
    board.bar[Side::White.index()] = count(0)?.1;
    board.bar[Side::Black.index()] = count(25)?.1;
    for side in [Side::White, Side::Black] {
        let on = super::bg_setup::on_board(&board, side);
        if on > 15 {
            return Err(SetupError::CheckerCount { side, count: on });
        }
        board.off[side.index()] = (15 - on) as u8;
    }
    Ok(board)
}
