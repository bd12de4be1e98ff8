//! [`BgSetup`]: a Backgammon position as the analysis board holds it, and
//! its gnubg Position ID and Match ID.
//!
//! A setup is what gnubg's and XG's IDs carry: the checkers, the side on
//! roll, the dice (if rolled), the cube, a double being offered, the score
//! and match length, and the Crawford game. It is checked before it becomes
//! a [`BgMatch`], so the engines only see positions the rules allow.

use serde::{Deserialize, Serialize};

use super::SetupError;
use crate::backgammon::{
    BgError, BgMatch, Board, Cube, Dice, GamePhase, GameState, MAX_CUBE, MatchConfig, MatchId,
    Position, Side,
};

/// Largest match length the board sets up (gnubg's own limit is 64).
pub const MAX_STUDY_LENGTH: u32 = 64;

/// A Backgammon position to study.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BgSetup {
    /// The checkers, White's numbering (see [`Board`]).
    pub board: Board,
    /// The side on roll (the doubler while a double is offered).
    pub on_roll: Side,
    /// The roll, when the side on roll has rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<[u8; 2]>,
    /// The cube.
    #[serde(default)]
    pub cube: Cube,
    /// Whether the side on roll has doubled and the other must answer.
    #[serde(default)]
    pub double_offered: bool,
    /// Match length (0 = money), cube, Jacoby and Crawford rules.
    #[serde(default)]
    pub config: MatchConfig,
    /// Scores `[white, black]` (0-0 in money play).
    #[serde(default)]
    pub score: [u32; 2],
    /// Whether this is the Crawford game.
    #[serde(default)]
    pub crawford_game: bool,
}

impl BgSetup {
    /// The opening position, White on roll, not rolled, money play.
    pub fn start() -> BgSetup {
        BgSetup {
            board: Board::from_position(&Position::START, Side::White),
            on_roll: Side::White,
            dice: None,
            cube: Cube::default(),
            double_offered: false,
            config: MatchConfig::default(),
            score: [0, 0],
            crawford_game: false,
        }
    }

    /// The position seen from White, after checking the checkers.
    fn white_position(&self) -> Result<Position, SetupError> {
        let b = &self.board;
        for side in [Side::White, Side::Black] {
            let count = on_board(b, side) + u32::from(b.off[side.index()]);
            if count != 15 {
                return Err(SetupError::CheckerCount { side, count });
            }
        }
        b.to_position(Side::White)
            .map_err(|e| SetupError::Board(e.to_string()))
    }

    /// Checks the setup and builds the match it describes.
    ///
    /// # Errors
    /// The first part that is wrong, as a [`SetupError`].
    pub fn to_match(&self) -> Result<BgMatch, SetupError> {
        let white = self.white_position()?;
        for side in [Side::White, Side::Black] {
            if self.board.off[side.index()] >= 15 {
                return Err(SetupError::GameOver(format!(
                    "{side:?} has borne off all 15 checkers"
                )));
            }
        }
        let config = self.config;
        if config.length > MAX_STUDY_LENGTH {
            return Err(SetupError::Score(format!(
                "a match to {} points is longer than {MAX_STUDY_LENGTH}",
                config.length
            )));
        }
        let score = if config.length == 0 {
            [0, 0]
        } else {
            self.score
        };
        if config.length > 0 && score.iter().any(|&s| s >= config.length) {
            return Err(SetupError::Score(format!(
                "{}-{} in a match to {}: the match is over",
                score[0], score[1], config.length
            )));
        }
        let at_match_point = config.length > 0 && score.iter().any(|&s| s + 1 == config.length);
        if self.crawford_game && !(config.crawford && at_match_point) {
            return Err(SetupError::Score(
                "a Crawford game needs the Crawford rule and a player one point from winning"
                    .into(),
            ));
        }
        self.check_cube(at_match_point)?;
        let phase = self.phase()?;
        let mut m = BgMatch::at(config, score, self.cube, white, phase, self.crawford_game);
        if let Some([a, b]) = self.dice {
            // A roll with no legal play passes at once, as at the table.
            let dice = Dice::new(a, b).map_err(|e| SetupError::Dice(e.to_string()))?;
            m.roll(self.on_roll, dice)
                .map_err(|e| SetupError::Dice(e.to_string()))?;
        }
        Ok(m)
    }

    fn check_cube(&self, at_match_point: bool) -> Result<(), SetupError> {
        let cube = self.cube;
        let turned = cube.value > 1;
        if !cube.value.is_power_of_two() || cube.value > MAX_CUBE {
            return Err(SetupError::Cube(format!(
                "{} is not a cube value (1, 2, 4, … 64)",
                cube.value
            )));
        }
        if turned != cube.owner.is_some() {
            return Err(SetupError::Cube(if turned {
                format!("a cube on {} has an owner", cube.value)
            } else {
                "a cube on 1 is in the middle".into()
            }));
        }
        if !self.config.cube && (turned || self.double_offered) {
            return Err(SetupError::Cube(
                "this game is played without the cube".into(),
            ));
        }
        if self.crawford_game && (turned || self.double_offered) {
            return Err(SetupError::Cube(
                "there is no doubling in the Crawford game".into(),
            ));
        }
        if self.double_offered {
            if cube.owner == Some(self.on_roll.opponent()) {
                return Err(SetupError::Cube(
                    "the side doubling does not own the cube".into(),
                ));
            }
            if cube.value >= MAX_CUBE {
                return Err(SetupError::Cube("the cube is at 64 already".into()));
            }
            if self.config.length == 1 || (at_match_point && self.crawford_game) {
                return Err(SetupError::Cube("doubling is not allowed here".into()));
            }
        }
        Ok(())
    }

    fn phase(&self) -> Result<GamePhase, SetupError> {
        Ok(match (self.dice, self.double_offered) {
            (Some(_), true) => {
                return Err(SetupError::Dice(
                    "the dice are rolled but a double is offered".into(),
                ));
            }
            (_, true) => GamePhase::CubeOffered { by: self.on_roll },
            _ => GamePhase::AwaitingRoll { side: self.on_roll },
        })
    }

    /// The setup of `m` when a side is to roll, play or answer a double;
    /// `None` at the opening roll or when a game is over.
    pub fn of_match(m: &BgMatch) -> Option<BgSetup> {
        let (on_roll, dice, double_offered) = match *m.phase() {
            GamePhase::AwaitingRoll { side } => (side, None, false),
            GamePhase::Moving { side, dice } => (side, Some([dice.a, dice.b]), false),
            GamePhase::CubeOffered { by } => (by, None, true),
            _ => return None,
        };
        Some(BgSetup {
            board: m.board(),
            on_roll,
            dice,
            cube: m.cube(),
            double_offered,
            config: *m.config(),
            score: m.score(),
            crawford_game: m.is_crawford_game(),
        })
    }

    /// The gnubg Position ID and Match ID, as gnubg shows them.
    ///
    /// # Errors
    /// See [`BgSetup::to_match`].
    pub fn gnubg_ids(&self) -> Result<(String, String), SetupError> {
        let m = self.to_match()?;
        let mut fields = m.match_id_fields();
        if let Some([a, b]) = self.dice {
            // A roll that passed at once is still shown as rolled.
            fields.dice = (a, b);
            fields.turn = self.on_roll;
            fields.on_roll = self.on_roll;
        }
        let pos = m.position_for(self.on_roll);
        Ok((pos.position_id(), fields.encode()))
    }

    /// Reads a gnubg Position ID and, when there is one, its Match ID
    /// (without it: money play, White on roll, cube in the middle, not
    /// rolled).
    ///
    /// # Errors
    /// [`SetupError::PositionId`] or [`SetupError::MatchId`] naming what is
    /// wrong, or the setup's own check (see [`BgSetup::to_match`]).
    pub fn from_gnubg(position_id: &str, match_id: Option<&str>) -> Result<BgSetup, SetupError> {
        let pid = position_id.trim();
        let pos = Position::from_position_id(pid).map_err(|e| SetupError::PositionId {
            id: pid.into(),
            reason: position_id_reason(pid, &e),
        })?;
        let Some(mid) = match_id.map(str::trim) else {
            let mut setup = BgSetup::start();
            setup.board = Board::from_position(&pos, Side::White);
            setup.to_match()?;
            return Ok(setup);
        };
        let ids = MatchId::decode(mid).map_err(|_| SetupError::MatchId {
            id: mid.into(),
            reason: match_id_reason(mid),
        })?;
        let bad = |reason: String| SetupError::MatchId {
            id: mid.into(),
            reason,
        };
        match ids.game_state {
            GameState::NoGame | GameState::Playing => {}
            _ => return Err(bad("its game is over".into())),
        }
        let cube = u8::try_from(ids.cube)
            .ok()
            .filter(|&v| v <= MAX_CUBE)
            .ok_or_else(|| bad(format!("a cube on {} is above 64", ids.cube)))?;
        let setup = BgSetup {
            board: Board::from_position(&pos, ids.on_roll),
            on_roll: ids.on_roll,
            dice: (ids.dice.0 > 0).then_some([ids.dice.0, ids.dice.1]),
            cube: Cube {
                value: cube,
                owner: ids.cube_owner,
            },
            double_offered: ids.double_offered,
            config: MatchConfig {
                length: ids.match_length,
                jacoby: ids.match_length == 0 && ids.jacoby,
                ..MatchConfig::default()
            },
            score: ids.score,
            crawford_game: ids.crawford,
        };
        setup.to_match()?;
        Ok(setup)
    }
}

/// `side`'s checkers on the points and the bar of `board`.
pub(super) fn on_board(board: &Board, side: Side) -> u32 {
    let sign: i8 = if side == Side::White { 1 } else { -1 };
    let on_points: u32 = board
        .points
        .iter()
        .filter(|&&n| n.signum() == sign)
        .map(|&n| u32::from(n.unsigned_abs()))
        .sum();
    on_points + u32::from(board.bar[side.index()])
}

/// What is wrong with the form of an ID that should have `len` base64
/// characters (`name`: Position ID or Match ID), if its form is wrong.
fn form_reason(id: &str, len: usize, name: &str) -> Option<String> {
    if id.len() != len {
        Some(format!(
            "it has {} characters; a {name} has {len}",
            id.chars().count()
        ))
    } else {
        id.chars()
            .find(|c| !(c.is_ascii_alphanumeric() || *c == '+' || *c == '/'))
            .map(|c| format!("{c:?} is not a base64 character"))
    }
}

/// Why a Position ID does not decode, in words.
fn position_id_reason(id: &str, error: &BgError) -> String {
    form_reason(id, 14, "Position ID").unwrap_or_else(|| match error {
        BgError::BadPosition(why) => why.clone(),
        _ => "it does not give each side 15 checkers".into(),
    })
}

/// Why a Match ID does not decode, in words.
fn match_id_reason(id: &str) -> String {
    form_reason(id, 12, "Match ID")
        .unwrap_or_else(|| "a field is out of range (cube owner, game state or dice)".into())
}
