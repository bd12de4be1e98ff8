//! One game of either kind, the way shakmaty's `VariantPosition` wraps its
//! variants: a [`Game`] owns a game's record and the rules state replayed
//! from it, so the move list is kept in one place, and it answers who is to
//! act, what they may do, and how the game ended.
//!
//! The module also owns what a game is made of: its options
//! ([`GameOptions`]), the actions of both games ([`PlayerAction`],
//! [`ActionRecord`], [`BgAction`]), the record ([`GameRecord`]), the replayed
//! rules state ([`LiveGame`]), the result ([`GameResult`]) and why a record
//! does not replay ([`ReplayError`]). The wire protocol carries these types;
//! it does not define them.
//!
//! Nothing here rolls dice or reads a clock: dice come in with the actions
//! (see [`Game::action_for`]), so every game replays from its record.

mod action;
mod error;
mod live;
mod options;
mod record;
mod result;
#[cfg(test)]
mod tests;

pub use action::{ActionRecord, BgAction, PlayerAction, apply_bg, apply_gomoku};
pub use error::ReplayError;
pub use live::LiveGame;
pub use options::{GameKind, GameOptions};
pub use record::GameRecord;
pub use result::{EndReason, GameResult};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::backgammon::{BgMatch, GamePhase, Play};
use crate::gomoku::{Gomoku, GomokuAction, Outcome, Phase, Point, Swap2Choice};
use crate::seat::{Seat, seat_of, side_of};

/// What a game waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Next {
    /// This seat must act: place a stone or make a swap2 choice (Gomoku);
    /// roll or double, play its roll, or take or drop the cube (Backgammon).
    Seat(Seat),
    /// Backgammon: a game begins with the opening roll, one die each, which
    /// the host rolls ([`BgAction::OpeningRoll`]).
    OpeningRoll,
    /// Backgammon: a game of a match is over and the host starts the next
    /// one ([`BgAction::NextGame`]).
    NextGame,
    /// The game (or the match) is over; [`Game::outcome`] says how.
    Over,
}

/// A game of Gomoku or Backgammon: its record and the rules state replayed
/// from it, kept in step.
///
/// Every change goes through [`Game::apply`] (the rules check the action,
/// then it enters the record) or [`Game::truncate`] (the record is cut and
/// the state replayed), so the state is always the record's replay.
/// Serialises as its [`GameRecord`]; deserialising replays it, so a record
/// that breaks the rules is refused instead of loaded.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    /// Every action so far: what is sent, saved and replayed.
    record: GameRecord,
    /// The rules state after the whole record.
    live: LiveGame,
}

impl Game {
    /// A new game with these options.
    ///
    /// # Errors
    /// The rules refuse the options (a board size outside `9..=25`, a match
    /// too long), reported as for the record's first action.
    pub fn new(options: &GameOptions) -> Result<Game, ReplayError> {
        Game::from_record(GameRecord::new(options))
    }

    /// Rebuilds a game by replaying a record through the rules.
    ///
    /// # Errors
    /// [`ReplayError`] names the first action the rules refuse.
    pub fn from_record(record: GameRecord) -> Result<Game, ReplayError> {
        let live = record.replay()?;
        Ok(Game { record, live })
    }

    /// Checks one action with the rules and, when they accept it, appends
    /// it to the record. A refused action changes nothing.
    ///
    /// # Errors
    /// The rules' refusal (with the index the action would have had), or
    /// [`ReplayError::WrongGame`] for an action of the other game.
    pub fn apply(&mut self, action: ActionRecord) -> Result<(), ReplayError> {
        let index = self.record.len();
        match (&mut self.record, &mut self.live, action) {
            (
                GameRecord::Gomoku { actions, .. },
                LiveGame::Gomoku(game),
                ActionRecord::Gomoku(a),
            ) => {
                // Gomoku's rules check before they change anything: no copy.
                apply_gomoku(game, &a).map_err(|error| ReplayError::Gomoku { index, error })?;
                actions.push(a);
            }
            (
                GameRecord::Backgammon { actions, .. },
                LiveGame::Backgammon(game),
                ActionRecord::Backgammon(a),
            ) => {
                let mut next = game.clone();
                apply_bg(&mut next, &a)
                    .map_err(|error| ReplayError::Backgammon { index, error })?;
                *game = next;
                actions.push(a);
            }
            _ => return Err(ReplayError::WrongGame),
        }
        Ok(())
    }

    /// Keeps the first `len` actions (all of them when there are fewer) and
    /// rebuilds the state by replaying them; returns the actions cut off, in
    /// order.
    ///
    /// # Errors
    /// The shortened record does not replay; the game is then unchanged.
    /// (Every prefix of a record built by [`Game::apply`] replays.)
    pub fn truncate(&mut self, len: usize) -> Result<Vec<ActionRecord>, ReplayError> {
        if len >= self.record.len() {
            return Ok(Vec::new());
        }
        let mut record = self.record.clone();
        let cut = record.split_off(len);
        self.live = record.replay()?;
        self.record = record;
        Ok(cut)
    }

    /// What the game waits for: a seat's action, an automatic Backgammon
    /// step, or nothing because it is over.
    pub fn next(&self) -> Next {
        match &self.live {
            LiveGame::Gomoku(game) => game.to_act().map_or(Next::Over, Next::Seat),
            LiveGame::Backgammon(game) => match *game.phase() {
                GamePhase::OpeningRoll => Next::OpeningRoll,
                GamePhase::AwaitingRoll { side } | GamePhase::Moving { side, .. } => {
                    Next::Seat(seat_of(side))
                }
                GamePhase::CubeOffered { by } => Next::Seat(seat_of(by.opponent())),
                GamePhase::GameOver { .. } if game.config().length > 0 => Next::NextGame,
                GamePhase::GameOver { .. } | GamePhase::MatchOver { .. } => Next::Over,
            },
        }
    }

    /// The seat that must act now: in Gomoku, who places the next stone or
    /// makes the swap2 choice; in Backgammon, who rolls (or doubles), who
    /// plays the roll, or who answers the cube. `None` during Backgammon's
    /// automatic steps (the opening roll, the start of a match's next game)
    /// and once the game is over.
    pub fn to_act(&self) -> Option<Seat> {
        match self.next() {
            Next::Seat(seat) => Some(seat),
            Next::OpeningRoll | Next::NextGame | Next::Over => None,
        }
    }

    /// How the game ended by the rules, once it has: five in a row or a full
    /// board (Gomoku); the match, or a money game, won by bearing off, a
    /// resignation or a dropped cube (Backgammon). Results decided outside
    /// the rules (agreed draws, time, abandonment) are the host's.
    pub fn outcome(&self) -> Option<GameResult> {
        match &self.live {
            LiveGame::Gomoku(game) => Some(match game.outcome()? {
                Outcome::Win { seat, line, .. } => GameResult {
                    winner: Some(*seat),
                    reason: EndReason::Rules,
                    line: line.clone(),
                    score: None,
                },
                Outcome::Draw => GameResult {
                    winner: None,
                    reason: EndReason::BoardFull,
                    line: Vec::new(),
                    score: None,
                },
            }),
            LiveGame::Backgammon(game) => {
                let winner = match *game.phase() {
                    GamePhase::MatchOver { winner } => winner,
                    GamePhase::GameOver { winner, .. } if game.config().length == 0 => winner,
                    _ => return None,
                };
                let reason = match self.record.bg_actions().and_then(<[_]>::last) {
                    Some(BgAction::Resign { .. }) => EndReason::Resigned,
                    Some(BgAction::Drop { .. }) => EndReason::Dropped,
                    _ => EndReason::Rules,
                };
                Some(GameResult {
                    winner: Some(seat_of(winner)),
                    reason,
                    line: Vec::new(),
                    score: Some(game.score()),
                })
            }
        }
    }

    /// Every action the seat to act may take now: stones on the legal
    /// points and the swap2 choices on offer (Gomoku); roll and double, the
    /// legal plays of the roll, or take and drop (Backgammon). Empty when no
    /// seat is to act.
    pub fn legal_actions(&self) -> Vec<PlayerAction> {
        match &self.live {
            LiveGame::Gomoku(game) => {
                let choices: &[Swap2Choice] = match game.phase() {
                    Phase::Swap2Choose => &[
                        Swap2Choice::PlayBlack,
                        Swap2Choice::PlayWhite,
                        Swap2Choice::PlaceTwo,
                    ],
                    Phase::Swap2FinalChoose => &[Swap2Choice::PlayBlack, Swap2Choice::PlayWhite],
                    _ => &[],
                };
                let choices = choices
                    .iter()
                    .map(|&choice| PlayerAction::Choose { choice });
                let places = self
                    .legal_points()
                    .into_iter()
                    .map(|point| PlayerAction::Place { point });
                choices.chain(places).collect()
            }
            LiveGame::Backgammon(game) => match *game.phase() {
                GamePhase::AwaitingRoll { side } => {
                    let mut actions = vec![PlayerAction::Roll];
                    if game.can_double(side) {
                        actions.push(PlayerAction::Double);
                    }
                    actions
                }
                GamePhase::Moving { .. } => game
                    .legal_plays()
                    .into_iter()
                    .map(|play| PlayerAction::Play { play })
                    .collect(),
                GamePhase::CubeOffered { .. } => vec![PlayerAction::Take, PlayerAction::Drop],
                _ => Vec::new(),
            },
        }
    }

    /// Gomoku: the points where the seat to act may place the next stone
    /// (empty, and not forbidden to black under renju). Empty for
    /// Backgammon, during a swap2 choice and once the game is over.
    pub fn legal_points(&self) -> Vec<Point> {
        let Some(game) = self.gomoku() else {
            return Vec::new();
        };
        let Some(seat) = game.to_act() else {
            return Vec::new();
        };
        game.board()
            .points()
            .filter(|&p| game.is_legal(seat, p).is_ok())
            .collect()
    }

    /// Backgammon: the legal plays (one per distinct result) for the roll
    /// being played. Empty for Gomoku and when no roll is being played.
    pub fn legal_plays(&self) -> Vec<Play> {
        self.backgammon()
            .map(BgMatch::legal_plays)
            .unwrap_or_default()
    }

    /// The record entry that `seat`'s request stands for; `roll` gives the
    /// dice when the request is a Backgammon roll. A Backgammon play is
    /// recorded with the hits the board makes, whatever its notation said,
    /// so that the record replays to the same position. Nothing is checked
    /// against the rules here: [`Game::apply`] does that.
    ///
    /// # Errors
    /// [`ReplayError::WrongGame`] for a request of the other game.
    pub fn action_for(
        &self,
        seat: Seat,
        action: PlayerAction,
        roll: impl FnOnce() -> [u8; 2],
    ) -> Result<ActionRecord, ReplayError> {
        let side = side_of(seat);
        let entry = match (&self.live, action) {
            (LiveGame::Gomoku(_), PlayerAction::Place { point }) => {
                GomokuAction::Place { seat, point }.into()
            }
            (LiveGame::Gomoku(_), PlayerAction::Choose { choice }) => {
                GomokuAction::Choose { seat, choice }.into()
            }
            (LiveGame::Backgammon(_), PlayerAction::Roll) => {
                BgAction::Roll { side, dice: roll() }.into()
            }
            (LiveGame::Backgammon(game), PlayerAction::Play { play }) => BgAction::Play {
                side,
                play: game.position_for(side).mark_hits(&play),
            }
            .into(),
            (LiveGame::Backgammon(_), PlayerAction::Double) => BgAction::Double { side }.into(),
            (LiveGame::Backgammon(_), PlayerAction::Take) => BgAction::Take { side }.into(),
            (LiveGame::Backgammon(_), PlayerAction::Drop) => BgAction::Drop { side }.into(),
            _ => return Err(ReplayError::WrongGame),
        };
        Ok(entry)
    }

    /// Where a takeback by `seat` cuts the record; see
    /// [`GameRecord::takeback_point`].
    pub fn takeback_point(&self, seat: Seat) -> Option<usize> {
        self.record.takeback_point(seat)
    }

    /// The record: the options and every action so far.
    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    /// The record, giving up the game.
    pub fn into_record(self) -> GameRecord {
        self.record
    }

    /// Backgammon: the match's dice proof, to fill in or reveal (it is no
    /// part of the rules state: the rolls are in the record); `None` for
    /// Gomoku.
    pub fn dice_mut(&mut self) -> Option<&mut Option<crate::fair_dice::DiceProof>> {
        self.record.dice_mut()
    }

    /// The rules state of either game.
    pub fn live(&self) -> &LiveGame {
        &self.live
    }

    /// The Gomoku state, when this is a Gomoku game.
    pub fn gomoku(&self) -> Option<&Gomoku> {
        match &self.live {
            LiveGame::Gomoku(game) => Some(game),
            LiveGame::Backgammon(_) => None,
        }
    }

    /// The Backgammon match, when this is a Backgammon game.
    pub fn backgammon(&self) -> Option<&BgMatch> {
        match &self.live {
            LiveGame::Backgammon(game) => Some(game),
            LiveGame::Gomoku(_) => None,
        }
    }

    /// Which game this is.
    pub fn kind(&self) -> GameKind {
        self.record.kind()
    }

    /// The options the game was started with.
    pub fn options(&self) -> GameOptions {
        self.record.options()
    }

    /// How many actions the record holds.
    pub fn len(&self) -> usize {
        self.record.len()
    }

    /// Whether no action has been played.
    pub fn is_empty(&self) -> bool {
        self.record.is_empty()
    }
}

impl Serialize for Game {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.record.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Game {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Game, D::Error> {
        let record = GameRecord::deserialize(deserializer)?;
        Game::from_record(record).map_err(serde::de::Error::custom)
    }
}

impl TryFrom<GameRecord> for Game {
    type Error = ReplayError;

    fn try_from(record: GameRecord) -> Result<Game, ReplayError> {
        Game::from_record(record)
    }
}
