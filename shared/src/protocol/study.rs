//! The analysis board on the wire: `study` asks for the engine's view of
//! any position (pasted as text or set up), `study_answer` gives it.
//!
//! Backgammon figures are for the side to decide (the side on roll; the
//! side answering while a double is offered), per unit of the cube:
//! equities in points (money) or money-equivalent match equity (a match,
//! gnubg's normalisation: winning the cube's value is +1). Chances are
//! fractions of 1. Gomoku values are the mover's outlook, −1 to +1.

use serde::{Deserialize, Serialize};

use crate::backgammon::{Play, Side};
use crate::gomoku::{Point, Stone};
use crate::study::StudyPosition;

/// Deepest Backgammon look-ahead the board offers, in plies (gnubg's
/// numbering: 0 = the network's own evaluation after the play).
pub const MAX_STUDY_DEPTH: u8 = 2;

/// The engine's view of a study position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum StudyAnswer {
    /// A Backgammon position.
    Backgammon(BgStudyAnswer),
    /// A Gomoku position.
    Gomoku(GomokuStudyAnswer),
}

/// A side's chances at the end of the game, from its own side.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct BgChances {
    /// Wins of any kind.
    pub win: f32,
    /// Wins by a gammon or more.
    pub win_gammon: f32,
    /// Wins by a backgammon.
    pub win_backgammon: f32,
    /// Losses by a gammon or more.
    pub lose_gammon: f32,
    /// Losses by a backgammon.
    pub lose_backgammon: f32,
}

/// The engine's view of a Backgammon position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BgStudyAnswer {
    /// What answered and how deep.
    pub engine: String,
    /// The plies the plays were looked at.
    pub depth: u8,
    /// The side the figures are for.
    pub side: Side,
    /// When a roll is to be played: the best plays, best first (at most
    /// five); empty otherwise, and for a roll with no legal play.
    pub plays: Vec<BgPlayLine>,
    /// When the side on roll may double, or a double is offered: the cube
    /// decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cube: Option<BgCubeLine>,
    /// The side's chances now (before its roll, or after its best play).
    pub chances: BgChances,
}

/// One candidate play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BgPlayLine {
    /// The play, as sent in `act`.
    pub play: Play,
    /// The play in notation, e.g. `8/5 6/5`.
    pub notation: String,
    /// Cubeful equity after the play (see the module docs).
    pub equity: f32,
    /// Cubeless equity after the play.
    pub cubeless: f32,
    /// The chances after the play.
    pub chances: BgChances,
}

/// The right cube action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CubeAction {
    /// Not good enough to double.
    NoDouble,
    /// Double; the other side should take.
    DoubleTake,
    /// Double; the other side should pass.
    DoublePass,
    /// Too good to double: play on for the gammon.
    TooGood,
}

/// The cube decision, from the doubler's side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BgCubeLine {
    /// The side that may double (or has doubled).
    pub doubler: Side,
    /// Equity without doubling.
    pub no_double: f32,
    /// Equity after a double and a take.
    pub double_take: f32,
    /// Equity after a double and a pass (1.0: the cube's value).
    pub double_pass: f32,
    /// What is right, by these equities.
    pub action: CubeAction,
    /// The doubler's chances before the roll.
    pub chances: BgChances,
}

/// The engine's view of a Gomoku position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GomokuStudyAnswer {
    /// What answered and with what budget.
    pub engine: String,
    /// The colour to move.
    pub to_move: Stone,
    /// A colour with five on the board already, when one has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<Stone>,
    /// The best stones, best first (at most three), each with its line.
    pub moves: Vec<GomokuMoveLine>,
    /// A forced win for the colour to move, when the solvers find one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win: Option<ForcedWin>,
    /// A forced win the other colour would have if it were its move: the
    /// threat to answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threat: Option<ForcedWin>,
}

/// One candidate stone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GomokuMoveLine {
    /// Where.
    pub point: Point,
    /// The mover's outlook after it, −1 to +1 (±1: a forced result).
    pub value: f32,
    /// The expected line from it, the stone first, colours alternating.
    pub line: Vec<Point>,
}

/// How a forced win wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForcedWinKind {
    /// Victory by continuous fours: every attacking stone a four.
    Vcf,
    /// Victory by continuous threats: fours and open threes.
    Vct,
}

/// A forced win and a line that plays it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ForcedWin {
    /// The attacking colour.
    pub attacker: Stone,
    /// VCF or VCT.
    pub kind: ForcedWinKind,
    /// Attacker and defender stones alternating, from the attacker's,
    /// ending with the attacker's five. A VCF's defences are forced; a
    /// VCT's are the engine's best replies.
    pub line: Vec<Point>,
}

/// The ways a study position is written, to copy and share.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct StudyIds {
    /// The board link's fragment (`#/board/…`).
    pub link: String,
    /// Backgammon: gnubg's Position ID.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position_id: Option<String>,
    /// Backgammon: gnubg's Match ID.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_id: Option<String>,
    /// Backgammon: the XGID.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xgid: Option<String>,
}

impl StudyIds {
    /// The ids of a position the rules accept.
    pub fn of(position: &StudyPosition) -> StudyIds {
        let mut ids = StudyIds {
            link: position.link(),
            ..StudyIds::default()
        };
        if let StudyPosition::Backgammon(setup) = position {
            if let Ok((pid, mid)) = setup.gnubg_ids() {
                ids.position_id = Some(pid);
                ids.match_id = Some(mid);
            }
            ids.xgid = Some(setup.xgid());
        }
        ids
    }
}
