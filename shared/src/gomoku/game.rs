//! The [`Gomoku`] game state machine.

use serde::{Deserialize, Serialize};

use super::board::five_at;
use super::{
    Board, GomokuConfig, GomokuError, Opening, Outcome, Phase, Point, Rule, Stone, Swap2Choice,
    renju,
};
use crate::seat::Seat;

/// One accepted action, as recorded in the game's history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum GomokuAction {
    /// `seat` placed the next stone on `point`.
    Place {
        /// Who placed it.
        seat: Seat,
        /// Where.
        point: Point,
    },
    /// `seat` made a swap2 choice.
    Choose {
        /// Who chose.
        seat: Seat,
        /// What.
        choice: Swap2Choice,
    },
}

/// The persistent form of a game: its settings and accepted actions. A
/// [`Gomoku`] serialises as this record and is rebuilt (and re-validated) by
/// replaying it when deserialised.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GomokuRecord {
    /// Settings.
    pub config: GomokuConfig,
    /// Actions in order.
    pub actions: Vec<GomokuAction>,
}

/// A Gomoku game: board, turn order, opening phases, outcome, history.
///
/// Serialises as a [`GomokuRecord`]; deserialising replays the record, so a
/// stored game that breaks the rules is rejected instead of loaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "GomokuRecord", into = "GomokuRecord")]
pub struct Gomoku {
    config: GomokuConfig,
    board: Board,
    actions: Vec<GomokuAction>,
    moves: Vec<Point>,
    /// Colour of [`Seat::First`], once decided.
    first_stone: Option<Stone>,
    phase: Phase,
    outcome: Option<Outcome>,
}

impl Gomoku {
    /// A new game. Fails with [`GomokuError::InvalidSize`] unless
    /// `config.size` is in `9..=25`.
    pub fn new(config: GomokuConfig) -> Result<Self, GomokuError> {
        let mut g = Gomoku {
            config,
            board: Board::new(config.size)?,
            actions: Vec::new(),
            moves: Vec::new(),
            first_stone: None,
            phase: Phase::Main,
            outcome: None,
        };
        g.refresh();
        Ok(g)
    }

    /// Rebuilds a game by replaying `actions` from the start; the first
    /// illegal action's error is returned.
    pub fn replay(config: GomokuConfig, actions: &[GomokuAction]) -> Result<Self, GomokuError> {
        let mut g = Gomoku::new(config)?;
        for a in actions {
            g.apply(*a)?;
        }
        Ok(g)
    }

    /// Applies one recorded action ([`Gomoku::play`] or [`Gomoku::choose`]).
    /// A refused action leaves the game unchanged (the server relies on it).
    pub fn apply(&mut self, action: GomokuAction) -> Result<(), GomokuError> {
        match action {
            GomokuAction::Place { seat, point } => self.play(seat, point),
            GomokuAction::Choose { seat, choice } => self.choose(seat, choice),
        }
    }

    /// The settings and accepted actions (what serde stores).
    pub fn record(&self) -> GomokuRecord {
        GomokuRecord {
            config: self.config,
            actions: self.actions.clone(),
        }
    }

    /// The settings.
    pub fn config(&self) -> &GomokuConfig {
        &self.config
    }

    /// Board side length.
    pub fn size(&self) -> u8 {
        self.config.size
    }

    /// The bare board (for display and for AI search on a clone).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The stone on `p`; `None` for an empty or off-board point.
    pub fn get(&self, p: Point) -> Option<Stone> {
        self.board.get(p)
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Who must act now (place a stone or make a swap2 choice); `None` when
    /// the game is over.
    pub fn to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::Over => None,
            Phase::Swap2PlaceThree | Phase::Swap2FinalChoose => Some(Seat::First),
            Phase::Swap2Choose | Phase::Swap2PlaceTwo => Some(Seat::Second),
            Phase::Main => Some(if self.first_stone == Some(self.stone_to_play()) {
                Seat::First
            } else {
                Seat::Second
            }),
        }
    }

    /// Colour of the next stone placed: stones alternate black, white, ...
    /// from the first stone, in every phase.
    pub fn stone_to_play(&self) -> Stone {
        if self.moves.len() & 1 == 0 {
            Stone::Black
        } else {
            Stone::White
        }
    }

    /// The colour `seat` plays; `None` while swap2 has not decided it.
    pub fn stone_of(&self, seat: Seat) -> Option<Stone> {
        self.first_stone.map(|s| match seat {
            Seat::First => s,
            Seat::Second => s.opponent(),
        })
    }

    /// The seat playing `stone`; `None` while swap2 has not decided it.
    pub fn seat_of(&self, stone: Stone) -> Option<Seat> {
        self.first_stone.map(|s| {
            if s == stone {
                Seat::First
            } else {
                Seat::Second
            }
        })
    }

    /// Checks whether `seat` may place the next stone on `p`, without doing
    /// it. Errors, in this order: [`GomokuError::GameOver`],
    /// [`GomokuError::WrongPhase`] (a swap2 choice is pending),
    /// [`GomokuError::NotYourTurn`], [`GomokuError::OffBoard`],
    /// [`GomokuError::Occupied`], [`GomokuError::Forbidden`] (renju, black).
    pub fn is_legal(&self, seat: Seat, p: Point) -> Result<(), GomokuError> {
        match self.phase {
            Phase::Over => return Err(GomokuError::GameOver),
            Phase::Swap2Choose | Phase::Swap2FinalChoose => {
                return Err(GomokuError::WrongPhase(self.phase));
            }
            Phase::Swap2PlaceThree | Phase::Swap2PlaceTwo | Phase::Main => {}
        }
        if self.to_act() != Some(seat) {
            return Err(GomokuError::NotYourTurn(seat));
        }
        if !self.board.contains(p) {
            return Err(GomokuError::OffBoard(p));
        }
        if self.board.get(p).is_some() {
            return Err(GomokuError::Occupied(p));
        }
        if self.stone_to_play() == Stone::Black && self.is_forbidden(p) {
            return Err(GomokuError::Forbidden(p));
        }
        Ok(())
    }

    /// `seat` places the next stone (colour [`Gomoku::stone_to_play`]) on
    /// `p`. Errors as [`Gomoku::is_legal`]; on error nothing changes. A five
    /// (per the rule) ends the game with [`Outcome::Win`], a full board with
    /// [`Outcome::Draw`].
    pub fn play(&mut self, seat: Seat, p: Point) -> Result<(), GomokuError> {
        self.is_legal(seat, p)?;
        let stone = self.stone_to_play();
        self.board.place(p, stone)?;
        self.moves.push(p);
        self.actions.push(GomokuAction::Place { seat, point: p });
        if let Some(line) = five_at(&self.board, p, stone, self.config.rule) {
            self.outcome = Some(Outcome::Win { stone, seat, line });
        } else if self.board.is_full() {
            self.outcome = Some(Outcome::Draw);
        }
        self.refresh();
        Ok(())
    }

    /// A swap2 decision. In [`Phase::Swap2Choose`] the second seat may pick
    /// any [`Swap2Choice`]; in [`Phase::Swap2FinalChoose`] the first seat
    /// picks `PlayBlack` or `PlayWhite` ([`GomokuError::InvalidChoice`] for
    /// `PlaceTwo`). Other errors: [`GomokuError::GameOver`],
    /// [`GomokuError::WrongPhase`] when no choice is pending,
    /// [`GomokuError::NotYourTurn`].
    pub fn choose(&mut self, seat: Seat, choice: Swap2Choice) -> Result<(), GomokuError> {
        let chooser = match self.phase {
            Phase::Over => return Err(GomokuError::GameOver),
            Phase::Swap2Choose => Seat::Second,
            Phase::Swap2FinalChoose => Seat::First,
            Phase::Swap2PlaceThree | Phase::Swap2PlaceTwo | Phase::Main => {
                return Err(GomokuError::WrongPhase(self.phase));
            }
        };
        if seat != chooser {
            return Err(GomokuError::NotYourTurn(seat));
        }
        if self.phase == Phase::Swap2FinalChoose && choice == Swap2Choice::PlaceTwo {
            return Err(GomokuError::InvalidChoice(choice));
        }
        self.actions.push(GomokuAction::Choose { seat, choice });
        self.refresh();
        Ok(())
    }

    /// Takes back the last stone, together with any swap2 choice made after
    /// it (see the module docs), and clears the outcome. Returns the point
    /// freed, or `None` (and no change) when no stone has been placed.
    pub fn undo(&mut self) -> Option<Point> {
        let pos = self
            .actions
            .iter()
            .rposition(|a| matches!(a, GomokuAction::Place { .. }))?;
        let p = self.moves.pop()?;
        self.actions.truncate(pos);
        self.board.remove(p);
        self.outcome = None;
        self.refresh();
        Some(p)
    }

    /// Stones in the order they were placed.
    pub fn moves(&self) -> &[Point] {
        &self.moves
    }

    /// Every accepted action (placements and choices) in order.
    pub fn actions(&self) -> &[GomokuAction] {
        &self.actions
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Renju only: would a black stone on the empty point `p` be forbidden
    /// now? Always `false` under the other rules, and for occupied or
    /// off-board points.
    pub fn is_forbidden(&self, p: Point) -> bool {
        self.config.rule == Rule::Renju && renju::is_forbidden(&self.board, p)
    }

    /// Renju only: all empty points forbidden for black now (row by row);
    /// empty under the other rules.
    pub fn forbidden_points(&self) -> Vec<Point> {
        if self.config.rule == Rule::Renju {
            renju::forbidden_points(&self.board)
        } else {
            Vec::new()
        }
    }

    /// Recomputes the phase and colours from the history and outcome.
    fn refresh(&mut self) {
        let n = self.moves.len();
        let (phase, first) = match self.config.opening {
            Opening::None => (Phase::Main, Some(Stone::Black)),
            Opening::Swap2 => {
                let mut choices = self.actions.iter().filter_map(|a| match a {
                    GomokuAction::Choose { choice, .. } => Some(*choice),
                    GomokuAction::Place { .. } => None,
                });
                let colour = |c: Swap2Choice| {
                    if c == Swap2Choice::PlayBlack {
                        Stone::Black
                    } else {
                        Stone::White
                    }
                };
                match (choices.next(), choices.next()) {
                    (None, _) if n < 3 => (Phase::Swap2PlaceThree, None),
                    (None, _) => (Phase::Swap2Choose, None),
                    (Some(Swap2Choice::PlaceTwo), None) if n < 5 => (Phase::Swap2PlaceTwo, None),
                    (Some(Swap2Choice::PlaceTwo), None) => (Phase::Swap2FinalChoose, None),
                    // The first seat made the final choice for itself.
                    (Some(Swap2Choice::PlaceTwo), Some(c)) => (Phase::Main, Some(colour(c))),
                    // The second seat chose for itself; the first gets the other colour.
                    (Some(c), _) => (Phase::Main, Some(colour(c).opponent())),
                }
            }
        };
        self.first_stone = first;
        self.phase = if self.outcome.is_some() {
            Phase::Over
        } else {
            phase
        };
    }
}

impl TryFrom<GomokuRecord> for Gomoku {
    type Error = GomokuError;

    fn try_from(r: GomokuRecord) -> Result<Self, Self::Error> {
        Gomoku::replay(r.config, &r.actions)
    }
}

impl From<Gomoku> for GomokuRecord {
    fn from(g: Gomoku) -> Self {
        GomokuRecord {
            config: g.config,
            actions: g.actions,
        }
    }
}
