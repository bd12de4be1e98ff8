//! [`GameRecord`]: a game's options and every action played, in order; the
//! form in which a game is sent, saved and replayed.

use serde::{Deserialize, Serialize};

use super::{
    ActionRecord, BgAction, GameKind, GameOptions, LiveGame, ReplayError, apply_bg, apply_gomoku,
};
use crate::backgammon::{BgMatch, MatchConfig};
use crate::fair_dice::DiceProof;
use crate::gomoku::{Gomoku, GomokuAction, GomokuConfig};
use crate::seat::{Seat, side_of};

/// A whole game so far: its options and every action, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum GameRecord {
    /// A Gomoku game.
    Gomoku {
        /// Size, rule set, opening.
        config: GomokuConfig,
        /// Every stone and choice.
        actions: Vec<GomokuAction>,
    },
    /// A Backgammon match.
    Backgammon {
        /// Match length, cube, Jacoby, Crawford.
        config: MatchConfig,
        /// Every roll, play and cube action of every game.
        actions: Vec<BgAction>,
        /// The verifiable dice: the commitment to the server seed, the
        /// players' seeds and, once the match is over, the revealed server
        /// seed (see [`DiceProof`] and `docs/DICE.md`). `None` in records
        /// made before the scheme, and in records built without a server.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dice: Option<DiceProof>,
    },
}

impl GameRecord {
    /// An empty record for a new game with these options.
    pub fn new(options: &GameOptions) -> GameRecord {
        match options {
            GameOptions::Gomoku(config) => GameRecord::Gomoku {
                config: *config,
                actions: Vec::new(),
            },
            GameOptions::Backgammon(config) => GameRecord::Backgammon {
                config: *config,
                actions: Vec::new(),
                dice: None,
            },
        }
    }

    /// The options this record was started with.
    pub fn options(&self) -> GameOptions {
        match self {
            GameRecord::Gomoku { config, .. } => GameOptions::Gomoku(*config),
            GameRecord::Backgammon { config, .. } => GameOptions::Backgammon(*config),
        }
    }

    /// Which game the record is of.
    pub fn kind(&self) -> GameKind {
        match self {
            GameRecord::Gomoku { .. } => GameKind::Gomoku,
            GameRecord::Backgammon { .. } => GameKind::Backgammon,
        }
    }

    /// Appends one action without asking the rules; [`Game::apply`](super::Game::apply)
    /// is the checked way.
    ///
    /// # Errors
    /// [`ReplayError::WrongGame`] for an action of the other game; the
    /// record is then unchanged.
    pub fn push(&mut self, action: ActionRecord) -> Result<(), ReplayError> {
        match (self, action) {
            (GameRecord::Gomoku { actions, .. }, ActionRecord::Gomoku(a)) => actions.push(a),
            (GameRecord::Backgammon { actions, .. }, ActionRecord::Backgammon(a)) => {
                actions.push(a)
            }
            _ => return Err(ReplayError::WrongGame),
        }
        Ok(())
    }

    /// The action at `index`, if the record is that long.
    pub fn get(&self, index: usize) -> Option<ActionRecord> {
        match self {
            GameRecord::Gomoku { actions, .. } => actions.get(index).copied().map(Into::into),
            GameRecord::Backgammon { actions, .. } => actions.get(index).cloned().map(Into::into),
        }
    }

    /// The last action, if any.
    pub fn last(&self) -> Option<ActionRecord> {
        self.get(self.len().checked_sub(1)?)
    }

    /// Every action in order, as [`ActionRecord`]s.
    pub fn actions(&self) -> impl Iterator<Item = ActionRecord> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// The Gomoku actions, when this is a Gomoku record.
    pub fn gomoku_actions(&self) -> Option<&[GomokuAction]> {
        match self {
            GameRecord::Gomoku { actions, .. } => Some(actions),
            GameRecord::Backgammon { .. } => None,
        }
    }

    /// The Backgammon actions, when this is a Backgammon record.
    pub fn bg_actions(&self) -> Option<&[BgAction]> {
        match self {
            GameRecord::Backgammon { actions, .. } => Some(actions),
            GameRecord::Gomoku { .. } => None,
        }
    }

    /// Backgammon: the record's dice proof, if it has one.
    pub fn dice(&self) -> Option<&DiceProof> {
        match self {
            GameRecord::Backgammon { dice, .. } => dice.as_ref(),
            GameRecord::Gomoku { .. } => None,
        }
    }

    /// Backgammon: the record's dice proof, to fill in or reveal.
    pub fn dice_mut(&mut self) -> Option<&mut Option<DiceProof>> {
        match self {
            GameRecord::Backgammon { dice, .. } => Some(dice),
            GameRecord::Gomoku { .. } => None,
        }
    }

    /// Backgammon: the dice of the last roll (the opening roll's two dice
    /// included); `None` for Gomoku or before the first roll.
    pub fn last_roll(&self) -> Option<[u8; 2]> {
        self.bg_actions()?.iter().rev().find_map(BgAction::rolled)
    }

    /// Removes and returns the actions from `at` on (none when the record is
    /// shorter).
    pub fn split_off(&mut self, at: usize) -> Vec<ActionRecord> {
        let at = at.min(self.len());
        match self {
            GameRecord::Gomoku { actions, .. } => {
                actions.split_off(at).into_iter().map(Into::into).collect()
            }
            GameRecord::Backgammon { actions, .. } => {
                actions.split_off(at).into_iter().map(Into::into).collect()
            }
        }
    }

    /// How many actions the record holds.
    pub fn len(&self) -> usize {
        match self {
            GameRecord::Gomoku { actions, .. } => actions.len(),
            GameRecord::Backgammon { actions, .. } => actions.len(),
        }
    }

    /// Keeps the first `len` actions (all of them when there are fewer).
    pub fn truncate(&mut self, len: usize) {
        match self {
            GameRecord::Gomoku { actions, .. } => actions.truncate(len),
            GameRecord::Backgammon { actions, .. } => actions.truncate(len),
        }
    }

    /// Whether no action has been played.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Rebuilds the game by replaying every action through the rules.
    ///
    /// # Errors
    /// [`ReplayError`] names the first action the rules refuse.
    pub fn replay(&self) -> Result<LiveGame, ReplayError> {
        match self {
            GameRecord::Gomoku { config, actions } => {
                let mut game = Gomoku::new(*config)
                    .map_err(|error| ReplayError::Gomoku { index: 0, error })?;
                for (index, action) in actions.iter().enumerate() {
                    apply_gomoku(&mut game, action)
                        .map_err(|error| ReplayError::Gomoku { index, error })?;
                }
                Ok(LiveGame::Gomoku(game))
            }
            GameRecord::Backgammon {
                config, actions, ..
            } => {
                let mut game = BgMatch::new(*config)
                    .map_err(|error| ReplayError::Backgammon { index: 0, error })?;
                for (index, action) in actions.iter().enumerate() {
                    apply_bg(&mut game, action)
                        .map_err(|error| ReplayError::Backgammon { index, error })?;
                }
                Ok(LiveGame::Backgammon(game))
            }
        }
    }

    /// The length the record is cut back to when `seat` takes back its last
    /// decision: its last stone or swap2 choice (Gomoku); its last play in
    /// the game in progress, unless a cube action or a resignation came
    /// after it (Backgammon). `None` when there is nothing to take back.
    pub fn takeback_point(&self, seat: Seat) -> Option<usize> {
        match self {
            GameRecord::Gomoku { actions, .. } => actions.iter().rposition(|a| match a {
                GomokuAction::Place { seat: s, .. } | GomokuAction::Choose { seat: s, .. } => {
                    *s == seat
                }
            }),
            GameRecord::Backgammon { actions, .. } => {
                let side = side_of(seat);
                let game_start = actions
                    .iter()
                    .rposition(|a| matches!(a, BgAction::NextGame))
                    .map_or(0, |i| i + 1);
                let last = actions
                    .iter()
                    .rposition(|a| matches!(a, BgAction::Play { side: s, .. } if *s == side))?;
                // Not past a cube action or into an earlier game.
                let cube_after = actions[last..].iter().any(|a| {
                    matches!(
                        a,
                        BgAction::Double { .. }
                            | BgAction::Take { .. }
                            | BgAction::Drop { .. }
                            | BgAction::Resign { .. }
                    )
                });
                (last >= game_start && !cube_after).then_some(last)
            }
        }
    }
}
