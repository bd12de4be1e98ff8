//! The match state machine: opening roll, cube, moves, resignation, scoring,
//! Crawford and Jacoby rules, and the absolute [`Board`] view.

use serde::{Deserialize, Serialize};

use super::ids::{GameState, MatchId};
use super::position::{BAR, OPP_BAR};
use super::{BgError, Dice, GameResultKind, Play, Position, Side};

/// The board in absolute terms, as shown to clients: `points[0]` is White's
/// 1-point (= Black's 24-point), `points[23]` White's 24-point. Positive
/// counts are White's checkers, negative counts Black's. `bar` and `off` are
/// indexed by [`Side::index`] (White 0, Black 1). White moves from
/// `points[23]` towards `points[0]`, Black the other way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    /// Checkers per point, White's numbering minus one.
    pub points: [i8; 24],
    /// Checkers on the bar: `[white, black]`.
    pub bar: [u8; 2],
    /// Checkers borne off: `[white, black]`.
    pub off: [u8; 2],
}

impl Board {
    /// The absolute board for a position seen from `mover`.
    pub fn from_position(pos: &Position, mover: Side) -> Board {
        let p = match mover {
            Side::White => *pos,
            Side::Black => pos.switch_sides(),
        };
        let mut points = [0i8; 24];
        points.copy_from_slice(&p.pips[1..=24]);
        Board {
            points,
            bar: [p.x_bar(), p.o_bar()],
            off: [p.x_off(), p.o_off()],
        }
    }

    /// The position seen from `mover`; fails on an invalid board.
    pub fn to_position(&self, mover: Side) -> Result<Position, BgError> {
        let bad = || BgError::BadPosition("bar count".into());
        let mut pips = [0i8; 26];
        pips[1..=24].copy_from_slice(&self.points);
        pips[BAR] = i8::try_from(self.bar[0]).map_err(|_| bad())?;
        pips[OPP_BAR] = -i8::try_from(self.bar[1]).map_err(|_| bad())?;
        let white = Position::from_pips(pips, self.off[0], self.off[1])?;
        Ok(match mover {
            Side::White => white,
            Side::Black => white.switch_sides(),
        })
    }
}

/// Match settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct MatchConfig {
    /// Match length in points; 0 = money play (a single game, no limit).
    pub length: u32,
    /// Whether the doubling cube is used.
    pub cube: bool,
    /// Jacoby rule (money play only): gammons and backgammons count as
    /// singles unless the cube has been turned.
    pub jacoby: bool,
    /// Crawford rule (match play only): no doubling in the game after a
    /// player first reaches match point.
    pub crawford: bool,
    /// Option: doubles are played twice instead of four times.
    pub doubles_twice: bool,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            length: 0,
            cube: true,
            jacoby: false,
            crawford: true,
            doubles_twice: false,
        }
    }
}

/// Largest match length (the Match ID field has 15 bits).
pub const MAX_MATCH_LENGTH: u32 = 32767;
/// Largest cube value.
pub const MAX_CUBE: u8 = 64;

/// The doubling cube.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cube {
    /// 1, 2, 4, ..., 64.
    pub value: u8,
    /// `None` when centred.
    pub owner: Option<Side>,
}

impl Default for Cube {
    fn default() -> Self {
        Cube {
            value: 1,
            owner: None,
        }
    }
}

/// What a resigning player gives up (times the cube).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResignKind {
    /// 1 point.
    Single,
    /// 2 points.
    Gammon,
    /// 3 points.
    Backgammon,
}

impl ResignKind {
    /// The multiplier: 1, 2 or 3.
    pub const fn points(self) -> u32 {
        self.result_kind().points()
    }

    /// The same as a [`GameResultKind`].
    pub const fn result_kind(self) -> GameResultKind {
        match self {
            ResignKind::Single => GameResultKind::Single,
            ResignKind::Gammon => GameResultKind::Gammon,
            ResignKind::Backgammon => GameResultKind::Backgammon,
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The winner bore off all checkers.
    BearOff,
    /// The loser resigned.
    Resigned,
    /// The loser dropped a double.
    Dropped,
}

/// The result of a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameOutcome {
    /// Who won.
    pub winner: Side,
    /// Points won (kind × cube, after the Jacoby rule).
    pub points: u32,
    /// Single, gammon or backgammon as scored (after the Jacoby rule).
    pub kind: GameResultKind,
    /// How the game ended.
    pub reason: EndReason,
}

/// Where the match stands and who is to act.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum GamePhase {
    /// Each side rolls one die; see [`BgMatch::opening_roll`].
    OpeningRoll,
    /// `side` may double or roll.
    AwaitingRoll {
        /// The side on roll.
        side: Side,
    },
    /// `side` has rolled `dice` and must play.
    Moving {
        /// The side to play.
        side: Side,
        /// The roll.
        dice: Dice,
    },
    /// `by` has doubled; the opponent must take or drop.
    CubeOffered {
        /// The doubler.
        by: Side,
    },
    /// A game is over but the match is not; see [`BgMatch::start_next_game`].
    GameOver {
        /// Who won the game.
        winner: Side,
        /// Points won.
        points: u32,
        /// Single, gammon or backgammon as scored.
        kind: GameResultKind,
    },
    /// The match is over (for money play: after its single game). Details of
    /// the last game are in [`BgMatch::last_result`].
    MatchOver {
        /// Who won the match (money play: who won the game).
        winner: Side,
    },
}

/// What happened on [`BgMatch::roll`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RollOutcome {
    /// The roller has at least one legal play and must now play.
    Moving,
    /// No legal play: the turn passed to the opponent, who is now to roll.
    Passed,
}

/// A backgammon match (or a single money game) as a state machine.
///
/// The rules never roll dice: the caller supplies them. Every action checks
/// phase and side and returns a [`BgError`] instead of changing state when it
/// is not allowed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BgMatch {
    config: MatchConfig,
    score: [u32; 2],
    cube: Cube,
    /// The position from White's point of view.
    white: Position,
    phase: GamePhase,
    on_roll: Side,
    crawford_game: bool,
    crawford_done: bool,
    game_number: u32,
    last: Option<GameOutcome>,
}

impl BgMatch {
    /// A new match at the opening roll of game 1.
    pub fn new(config: MatchConfig) -> Result<Self, BgError> {
        if config.length > MAX_MATCH_LENGTH {
            return Err(BgError::BadConfig(format!(
                "match length above {MAX_MATCH_LENGTH}"
            )));
        }
        Ok(BgMatch {
            config,
            score: [0, 0],
            cube: Cube::default(),
            white: Position::START,
            phase: GamePhase::OpeningRoll,
            on_roll: Side::White,
            crawford_game: false,
            crawford_done: false,
            game_number: 1,
            last: None,
        })
    }

    /// A match in the middle of a game, as the analysis board sets one up:
    /// game 1 at `score`, the position seen from White, `phase` one of
    /// awaiting a roll, moving or a double offered. The caller has checked
    /// the parts (see `study::BgSetup`).
    pub(crate) fn at(
        config: MatchConfig,
        score: [u32; 2],
        cube: Cube,
        white: Position,
        phase: GamePhase,
        crawford_game: bool,
    ) -> BgMatch {
        let on_roll = match phase {
            GamePhase::AwaitingRoll { side } | GamePhase::Moving { side, .. } => side,
            GamePhase::CubeOffered { by } => by,
            _ => Side::White,
        };
        let away = |s: u32| config.length.saturating_sub(s) == 1;
        BgMatch {
            config,
            score,
            cube,
            white,
            phase,
            on_roll,
            crawford_game,
            crawford_done: crawford_game || (config.length > 0 && score.iter().any(|&s| away(s))),
            game_number: 1,
            last: None,
        }
    }

    /// The settings.
    pub fn config(&self) -> &MatchConfig {
        &self.config
    }

    /// Scores `[white, black]`.
    pub fn score(&self) -> [u32; 2] {
        self.score
    }

    /// The cube.
    pub fn cube(&self) -> Cube {
        self.cube
    }

    /// The absolute board.
    pub fn board(&self) -> Board {
        Board::from_position(&self.white, Side::White)
    }

    /// The current phase.
    pub fn phase(&self) -> &GamePhase {
        &self.phase
    }

    /// Whether the current game is the Crawford game.
    pub fn is_crawford_game(&self) -> bool {
        self.crawford_game
    }

    /// The game number, from 1.
    pub fn game_number(&self) -> u32 {
        self.game_number
    }

    /// The side on roll (the last one to move once a game is over; White
    /// before the first opening roll).
    pub fn on_roll(&self) -> Side {
        self.on_roll
    }

    /// The result of the last finished game.
    pub fn last_result(&self) -> Option<GameOutcome> {
        self.last
    }

    /// The side that must act now, if any (None at the opening roll, where
    /// both roll, and when a game or the match is over).
    pub fn to_act(&self) -> Option<Side> {
        match self.phase {
            GamePhase::AwaitingRoll { side } | GamePhase::Moving { side, .. } => Some(side),
            GamePhase::CubeOffered { by } => Some(by.opponent()),
            _ => None,
        }
    }

    /// The position seen from `side`.
    pub fn position_for(&self, side: Side) -> Position {
        match side {
            Side::White => self.white,
            Side::Black => self.white.switch_sides(),
        }
    }

    /// The position seen from the side to act (the taker while a double is
    /// offered; otherwise the side on roll).
    pub fn position(&self) -> Position {
        self.position_for(self.to_act().unwrap_or(self.on_roll))
    }

    fn jacoby_applies(&self) -> bool {
        self.config.length == 0 && self.config.jacoby && self.cube.value <= 1
    }

    fn end_game(&mut self, winner: Side, kind: GameResultKind, reason: EndReason) {
        let kind = if self.jacoby_applies() {
            GameResultKind::Single
        } else {
            kind
        };
        let points = kind
            .points()
            .saturating_mul(u32::from(self.cube.value.max(1)));
        let w = winner.index();
        self.score[w] = self.score[w].saturating_add(points);
        self.last = Some(GameOutcome {
            winner,
            points,
            kind,
            reason,
        });
        self.phase = if self.config.length == 0 || self.score[w] >= self.config.length {
            GamePhase::MatchOver { winner }
        } else {
            GamePhase::GameOver {
                winner,
                points,
                kind,
            }
        };
    }

    /// The opening roll: each side rolls one die. On a tie nothing changes
    /// and `Ok(None)` asks for another roll. Otherwise the higher die's side
    /// moves first, playing both dice (`Moving`, dice `{a: white_die, b:
    /// black_die}`), and is returned.
    pub fn opening_roll(&mut self, white_die: u8, black_die: u8) -> Result<Option<Side>, BgError> {
        if self.phase != GamePhase::OpeningRoll {
            return Err(BgError::WrongPhase);
        }
        let dice = Dice::new(white_die, black_die)?;
        if white_die == black_die {
            return Ok(None);
        }
        let side = if white_die > black_die {
            Side::White
        } else {
            Side::Black
        };
        self.on_roll = side;
        self.phase = GamePhase::Moving { side, dice };
        Ok(Some(side))
    }

    /// Whether `side` may double now: cube in use, not a 1-point match, not
    /// the Crawford game, `side` is on roll and has not rolled, the cube is
    /// centred or owned by `side`, and its value is below 64.
    pub fn can_double(&self, side: Side) -> bool {
        self.phase == GamePhase::AwaitingRoll { side } && self.cube_usable_by(side)
    }

    /// Why `side` may not turn the cube now, in words (for a refused
    /// double); `None` when the cube is theirs to turn.
    pub fn cube_refusal(&self, side: Side) -> Option<&'static str> {
        Some(if !self.config.cube {
            "this match is played without the doubling cube"
        } else if self.config.length == 1 {
            "a 1-point match has no doubling"
        } else if self.crawford_game {
            "there is no doubling in the Crawford game"
        } else if self.cube.value >= MAX_CUBE {
            "the cube is at its highest value"
        } else if self.cube.owner == Some(side.opponent()) {
            "your opponent owns the cube"
        } else if self.phase != (GamePhase::AwaitingRoll { side }) {
            "you may double only before your roll"
        } else {
            return None;
        })
    }

    fn cube_usable_by(&self, side: Side) -> bool {
        self.config.cube
            && self.config.length != 1
            && !self.crawford_game
            && self.cube.value < MAX_CUBE
            && self.cube.owner != Some(side.opponent())
    }

    /// Offers a double (see [`BgMatch::can_double`]).
    pub fn double(&mut self, side: Side) -> Result<(), BgError> {
        match self.phase {
            GamePhase::AwaitingRoll { side: s } if s == side => {}
            GamePhase::AwaitingRoll { .. } => return Err(BgError::NotYourTurn),
            _ => return Err(BgError::WrongPhase),
        }
        if !self.cube_usable_by(side) {
            return Err(BgError::CubeNotAllowed);
        }
        self.phase = GamePhase::CubeOffered { by: side };
        Ok(())
    }

    fn check_taker(&self, side: Side) -> Result<Side, BgError> {
        match self.phase {
            GamePhase::CubeOffered { by } if by != side => Ok(by),
            GamePhase::CubeOffered { .. } => Err(BgError::NotYourTurn),
            _ => Err(BgError::WrongPhase),
        }
    }

    /// Takes the double: the cube doubles and `side` owns it; the doubler
    /// is then to roll.
    pub fn take(&mut self, side: Side) -> Result<(), BgError> {
        let by = self.check_taker(side)?;
        self.cube = Cube {
            value: self.cube.value.saturating_mul(2),
            owner: Some(side),
        };
        self.phase = GamePhase::AwaitingRoll { side: by };
        Ok(())
    }

    /// Drops the double: the doubler wins the current cube value.
    pub fn drop_cube(&mut self, side: Side) -> Result<(), BgError> {
        let by = self.check_taker(side)?;
        self.end_game(by, GameResultKind::Single, EndReason::Dropped);
        Ok(())
    }

    /// Rolls for `side` (the dice come from the caller). If no legal play
    /// exists, the turn passes to the opponent at once and
    /// [`RollOutcome::Passed`] is returned; otherwise `side` must now
    /// [`play`](BgMatch::play).
    pub fn roll(&mut self, side: Side, dice: Dice) -> Result<RollOutcome, BgError> {
        match self.phase {
            GamePhase::AwaitingRoll { side: s } if s == side => {}
            GamePhase::AwaitingRoll { .. } => return Err(BgError::NotYourTurn),
            _ => return Err(BgError::WrongPhase),
        }
        let dice = Dice::new(dice.a, dice.b)?;
        let pos = self.position_for(side);
        let mut legal = Vec::new();
        pos.legal_positions_into(dice, self.config.doubles_twice, &mut legal);
        if legal.len() <= 1 && legal.first().is_none_or(|p| *p == pos) {
            self.on_roll = side.opponent();
            self.phase = GamePhase::AwaitingRoll {
                side: side.opponent(),
            };
            return Ok(RollOutcome::Passed);
        }
        self.phase = GamePhase::Moving { side, dice };
        Ok(RollOutcome::Moving)
    }

    /// The legal plays (one per distinct result) while a side is moving;
    /// empty otherwise.
    pub fn legal_plays(&self) -> Vec<Play> {
        match self.phase {
            GamePhase::Moving { side, dice } => self
                .position_for(side)
                .legal_plays_with(dice, self.config.doubles_twice)
                .into_iter()
                .map(|(p, _)| p)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Plays for `side`. The play is applied hop by hop and accepted if the
    /// resulting position is one of the legal results for the dice, so any
    /// equivalent order or notation of the same play is accepted. Ends the
    /// game when `side` bears off its last checker.
    pub fn play(&mut self, side: Side, play: &Play) -> Result<(), BgError> {
        let dice = match self.phase {
            GamePhase::Moving { side: s, dice } if s == side => dice,
            GamePhase::Moving { .. } => return Err(BgError::NotYourTurn),
            _ => return Err(BgError::WrongPhase),
        };
        let pos = self.position_for(side);
        let result = pos.apply(play)?;
        let mut legal = Vec::new();
        pos.legal_positions_into(dice, self.config.doubles_twice, &mut legal);
        if !legal.contains(&result) {
            return Err(BgError::IllegalPlay);
        }
        self.white = match side {
            Side::White => result,
            Side::Black => result.switch_sides(),
        };
        if let Some(r) = result.game_result() {
            let winner = if r.mover_wins { side } else { side.opponent() };
            self.end_game(winner, r.kind, EndReason::BearOff);
        } else {
            self.on_roll = side.opponent();
            self.phase = GamePhase::AwaitingRoll {
                side: side.opponent(),
            };
        }
        Ok(())
    }

    /// `side` resigns, at any time during a game; the opponent wins
    /// `kind.points()` × cube (a gammon or backgammon counts as a single
    /// under the Jacoby rule with the cube not turned).
    pub fn resign(&mut self, side: Side, kind: ResignKind) -> Result<(), BgError> {
        match self.phase {
            GamePhase::GameOver { .. } | GamePhase::MatchOver { .. } => {
                return Err(BgError::WrongPhase);
            }
            _ => {}
        }
        self.end_game(side.opponent(), kind.result_kind(), EndReason::Resigned);
        Ok(())
    }

    /// Starts the next game after [`GamePhase::GameOver`]: fresh board,
    /// centred cube, opening roll; decides whether it is the Crawford game.
    pub fn start_next_game(&mut self) -> Result<(), BgError> {
        match self.phase {
            GamePhase::GameOver { .. } => {}
            GamePhase::MatchOver { .. } => return Err(BgError::MatchOver),
            _ => return Err(BgError::WrongPhase),
        }
        let len = self.config.length;
        let at_match_point = len > 1 && self.score.iter().any(|&s| s + 1 == len);
        self.crawford_game = self.config.crawford && !self.crawford_done && at_match_point;
        if self.crawford_game {
            self.crawford_done = true;
        }
        self.white = Position::START;
        self.cube = Cube::default();
        self.game_number = self.game_number.saturating_add(1);
        self.phase = GamePhase::OpeningRoll;
        Ok(())
    }

    /// The decoded Match ID of the current state (see [`MatchId`]). The
    /// opening roll is reported as "no game"; resignations are immediate, so
    /// the resignation field is always 0.
    pub fn match_id_fields(&self) -> MatchId {
        let game_state = match (self.phase, self.last) {
            (GamePhase::OpeningRoll, _) => GameState::NoGame,
            (GamePhase::GameOver { .. } | GamePhase::MatchOver { .. }, Some(l)) => match l.reason {
                EndReason::BearOff => GameState::GameOver,
                EndReason::Resigned => GameState::Resigned,
                EndReason::Dropped => GameState::Dropped,
            },
            (GamePhase::GameOver { .. } | GamePhase::MatchOver { .. }, None) => GameState::GameOver,
            _ => GameState::Playing,
        };
        let dice = match self.phase {
            GamePhase::Moving { dice, .. } => (dice.a, dice.b),
            _ => (0, 0),
        };
        // After a drop gnubg leaves the turn with the side that dropped.
        let turn = match (self.to_act(), self.last) {
            (Some(side), _) => side,
            (None, Some(l))
                if l.reason == EndReason::Dropped && self.phase != GamePhase::OpeningRoll =>
            {
                l.winner.opponent()
            }
            _ => self.on_roll,
        };
        MatchId {
            cube: u32::from(self.cube.value.max(1)),
            cube_owner: self.cube.owner,
            on_roll: self.on_roll,
            crawford: self.crawford_game,
            game_state,
            turn,
            double_offered: matches!(self.phase, GamePhase::CubeOffered { .. }),
            resign: 0,
            dice,
            match_length: self.config.length,
            score: self.score,
            jacoby: self.config.length == 0 && self.config.jacoby,
        }
    }

    /// The gnubg Match ID of the current state.
    pub fn match_id(&self) -> String {
        self.match_id_fields().encode()
    }

    /// The gnubg Position ID, as gnubg shows it: from the side on roll (the
    /// doubler while a double is offered).
    pub fn position_id(&self) -> String {
        self.position_for(self.on_roll).position_id()
    }
}
