//! [`GomokuSetup`]: a Gomoku position as the analysis board holds it: the
//! stones of each colour, the colour to move and the rule. Read from a move
//! list, a Piskvork PSQ file or an SGF record, or set by hand.

use serde::{Deserialize, Serialize};

use super::SetupError;
use crate::export::{ExportFormat, ImportError, import};
use crate::gomoku::{
    Board, GomokuAction, GomokuConfig, MAX_SIZE, MIN_SIZE, Opening, Point, Rule, Stone, scan_fives,
};
use crate::protocol::GameRecord;

/// A Gomoku position to study.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GomokuSetup {
    /// Board side, 9 to 25.
    pub size: u8,
    /// Which lines win; black's forbidden points under renju.
    #[serde(default)]
    pub rule: Rule,
    /// Black's stones.
    #[serde(default)]
    pub black: Vec<Point>,
    /// White's stones.
    #[serde(default)]
    pub white: Vec<Point>,
    /// The colour to move.
    pub to_move: Stone,
}

impl GomokuSetup {
    /// An empty board, black to move.
    pub fn empty(size: u8, rule: Rule) -> GomokuSetup {
        GomokuSetup {
            size,
            rule,
            black: Vec::new(),
            white: Vec::new(),
            to_move: Stone::Black,
        }
    }

    /// The stones of `moves` placed in turn from black, and the colour whose
    /// turn follows.
    ///
    /// # Errors
    /// [`SetupError::Occupied`] for a point played twice, and the checks of
    /// [`GomokuSetup::board`].
    pub fn from_moves(size: u8, rule: Rule, moves: &[Point]) -> Result<GomokuSetup, SetupError> {
        let mut setup = GomokuSetup::empty(size, rule);
        for &p in moves {
            setup = setup.play(p)?;
        }
        setup.board()?;
        Ok(setup)
    }

    /// The setup after the colour to move places a stone on `p`.
    ///
    /// # Errors
    /// [`SetupError::Point`] off the board, [`SetupError::Occupied`] on a
    /// stone.
    pub fn play(&self, p: Point) -> Result<GomokuSetup, SetupError> {
        if p.x >= self.size || p.y >= self.size {
            return Err(SetupError::Point {
                text: p.to_string(),
                reason: format!("the board is {0}×{0}", self.size),
            });
        }
        if self.black.contains(&p) || self.white.contains(&p) {
            return Err(SetupError::Occupied(p));
        }
        let mut next = self.clone();
        match self.to_move {
            Stone::Black => next.black.push(p),
            Stone::White => next.white.push(p),
        }
        next.to_move = self.to_move.opponent();
        Ok(next)
    }

    /// The board, after checking the size and that every stone is on it
    /// and alone on its point.
    ///
    /// # Errors
    /// [`SetupError::Size`], [`SetupError::Point`], [`SetupError::Occupied`].
    pub fn board(&self) -> Result<Board, SetupError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&self.size) {
            return Err(SetupError::Size(self.size));
        }
        let mut board = Board::new(self.size).map_err(|_| SetupError::Size(self.size))?;
        for (stones, stone) in [(&self.black, Stone::Black), (&self.white, Stone::White)] {
            for &p in stones {
                if !board.contains(p) {
                    return Err(SetupError::Point {
                        text: p.to_string(),
                        reason: format!("the board is {0}×{0}", self.size),
                    });
                }
                if !board.is_empty_at(p) {
                    return Err(SetupError::Occupied(p));
                }
                board.place(p, stone).map_err(|_| SetupError::Occupied(p))?;
            }
        }
        Ok(board)
    }

    /// The colour with five (or a winning line under the rule) on the
    /// board, if one has.
    pub fn winner(&self) -> Option<Stone> {
        let board = self.board().ok()?;
        scan_fives(&board, self.rule).first().map(|(s, _)| *s)
    }

    /// Reads a move list: points in `h8` notation (or `x,y`), separated by
    /// spaces, commas, semicolons or nothing (`h8i9j10`), numbered or not
    /// (`1. h8 2. i9`), placed in turn from black.
    ///
    /// # Errors
    /// [`SetupError::Point`] naming the first token that is not a point on
    /// the board, [`SetupError::Occupied`] for a point played twice.
    pub fn parse_moves(text: &str, size: u8, rule: Rule) -> Result<Vec<Point>, SetupError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(SetupError::Size(size));
        }
        let mut moves = Vec::new();
        for token in move_tokens(text) {
            let p = Point::parse_on(&token, size).map_err(|e| SetupError::Point {
                text: token.clone(),
                reason: e.to_string(),
            })?;
            moves.push(p);
        }
        GomokuSetup::from_moves(size, rule, &moves)?;
        Ok(moves)
    }

    /// Reads a Piskvork PSQ file or an SGF record: its size, rule (SGF) and
    /// stones in order (the swap2 choices of a record are skipped: the
    /// stones still alternate from black).
    ///
    /// # Errors
    /// [`SetupError::Record`] with the reader's reason.
    pub fn parse_record(
        text: &str,
        format: ExportFormat,
    ) -> Result<(GomokuConfig, Vec<Point>), SetupError> {
        let label = match format {
            ExportFormat::Psq => "PSQ",
            _ => "SGF",
        };
        let record = import(text, format).map_err(|e: ImportError| SetupError::Record {
            format: label.into(),
            reason: e.to_string(),
        })?;
        let GameRecord::Gomoku { config, actions } = record.record else {
            return Err(SetupError::Record {
                format: label.into(),
                reason: "it is not a Gomoku game".into(),
            });
        };
        let moves = actions
            .iter()
            .filter_map(|a| match a {
                GomokuAction::Place { point, .. } => Some(*point),
                GomokuAction::Choose { .. } => None,
            })
            .collect();
        Ok((
            GomokuConfig {
                opening: Opening::None,
                ..config
            },
            moves,
        ))
    }
}

/// The tokens of a move list: each a point in `h8` or `x,y` form.
fn move_tokens(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    for word in text.split(|c: char| c.is_whitespace() || c == ';') {
        let word = word.trim_matches(|c: char| c == ',' || c == '.');
        if word.is_empty() {
            continue;
        }
        // Move numbers ("1." or "12") are skipped.
        if word.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        if word.starts_with('(') || word.starts_with(|c: char| c.is_ascii_digit()) {
            tokens.push(word.to_string());
            continue;
        }
        // "h8,i9" and "h8i9j10": a letter then its digits, over and over.
        for part in word.split(',').filter(|p| !p.is_empty()) {
            let mut current = String::new();
            for c in part.chars() {
                if c.is_ascii_alphabetic() && !current.is_empty() {
                    tokens.push(std::mem::take(&mut current));
                }
                current.push(c);
            }
            if !current.is_empty() {
                tokens.push(current);
            }
        }
    }
    tokens
}
