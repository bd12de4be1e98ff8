//! The analysis of the game open in the replay viewer, as the client keeps
//! it: whether it was asked for, how far the server has got, why it was
//! refused, or what the engines found; and the lookups the viewer draws
//! from (the graph's points, the mark of each move, the review of the move
//! just played, each player's totals).
//!
//! Nothing here draws or talks to the network.

use rust_i18n::t;
use tabula_shared::gomoku::Stone;
use tabula_shared::protocol::{
    BgDecisionReview, GameAnalysis, GomokuMistake, GomokuMoveReview, Mark,
};

/// Where the analysis of the game in the viewer stands.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum AnalysisState {
    /// Nobody asked for it (and the server sent none with the game).
    #[default]
    NotAsked,
    /// Asked for with this `request_id`; `done` of `total` judged so far
    /// (`total` is 0 until the first progress arrives).
    Running {
        /// The `analyse` request whose replies these are.
        request_id: u64,
        /// Decisions judged.
        done: u32,
        /// Decisions to judge.
        total: u32,
    },
    /// The server's engines were busy; asking again makes sense after
    /// this many milliseconds.
    Busy {
        /// The server's `retry_after_ms` (0 when it gave none).
        retry_after_ms: u64,
    },
    /// Refused or failed, in words for the player.
    Failed(String),
    /// What the engines found.
    Done(Box<GameAnalysis>),
}

impl AnalysisState {
    /// The analysis, once it is there.
    pub fn analysis(&self) -> Option<&GameAnalysis> {
        match self {
            AnalysisState::Done(a) => Some(a),
            _ => None,
        }
    }

    /// Whether the player may press "Analyse" (nothing running or there).
    pub fn can_ask(&self) -> bool {
        matches!(
            self,
            AnalysisState::NotAsked | AnalysisState::Busy { .. } | AnalysisState::Failed(_)
        )
    }
}

/// "The server is busy analysing other games; try again in N s", with N
/// rounded up to whole seconds (at least 1).
pub fn busy_text(retry_after_ms: u64) -> String {
    let secs = retry_after_ms.div_ceil(1000).max(1);
    t!("analysis.busy", secs = secs).into_owned()
}

/// One point of the evaluation graph: `x` is the replay position after the
/// move (so a click on it shows that move), `y` the evaluation (Gomoku:
/// Black's outlook −1 to +1; Backgammon: White's equity).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GraphPoint {
    /// The replay position after the move.
    pub position: usize,
    /// The evaluation there.
    pub value: f32,
    /// How bad the move was, if it was marked.
    pub severity: Option<Severity>,
}

/// How bad a marked move was, in the terms the move list colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// `?!`
    Inaccuracy,
    /// `?`
    Error,
    /// `??`
    Blunder,
}

impl Severity {
    /// The mark written after the move: `?!`, `?` or `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Severity::Inaccuracy => "?!",
            Severity::Error => "?",
            Severity::Blunder => "??",
        }
    }

    /// A Backgammon decision's mark in these terms.
    pub fn of_mark(mark: Mark) -> Severity {
        match mark {
            Mark::Inaccuracy => Severity::Inaccuracy,
            Mark::Error => Severity::Error,
            Mark::Blunder => Severity::Blunder,
        }
    }

    /// A Gomoku mistake in these terms: each loses a won game or gives
    /// one away, so each is a blunder.
    pub fn of_gomoku(_: GomokuMistake) -> Severity {
        Severity::Blunder
    }
}

/// The graph's points, in game order.
pub fn graph_points(analysis: &GameAnalysis) -> Vec<GraphPoint> {
    match analysis {
        GameAnalysis::Gomoku(g) => g
            .moves
            .iter()
            .map(|m| GraphPoint {
                position: m.index + 1,
                value: m.eval,
                severity: m.mistake.map(Severity::of_gomoku),
            })
            .collect(),
        GameAnalysis::Backgammon(b) => b
            .decisions
            .iter()
            .map(|d| GraphPoint {
                position: d.index + 1,
                value: d.white_equity,
                severity: d.mark.map(Severity::of_mark),
            })
            .collect(),
    }
}

/// What the move list shows for one marked action: the mark, and the
/// engine's choice with what was played, for the hover.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveMark {
    /// How bad.
    pub severity: Severity,
    /// "Missed win" or "blunder, −0.197", and "best: k8" / "best: 8/5 6/5".
    pub note: String,
}

/// The mark of the action at `index` of the record (0-based), if the
/// analysis marked it.
pub fn move_mark(analysis: &GameAnalysis, index: usize) -> Option<MoveMark> {
    match analysis {
        GameAnalysis::Gomoku(g) => {
            let review = g.moves.iter().find(|m| m.index == index)?;
            let mistake = review.mistake?;
            let best = review.best.map(|p| p.to_string()).unwrap_or_default();
            Some(MoveMark {
                severity: Severity::of_gomoku(mistake),
                note: t!(
                    "analysis.gomoku_note",
                    mistake = mistake_name(mistake),
                    best = best
                )
                .into_owned(),
            })
        }
        GameAnalysis::Backgammon(b) => {
            // A roll with a missed double and the play after it are
            // separate actions; the worst mark of the action wins.
            let review = b
                .decisions
                .iter()
                .filter(|d| d.index == index && d.mark.is_some())
                .max_by(|a, c| a.loss_mp.total_cmp(&c.loss_mp))?;
            let mark = review.mark?;
            Some(MoveMark {
                severity: Severity::of_mark(mark),
                note: bg_note(review),
            })
        }
    }
}

/// "Blunder (−0.197): best 8/5 6/5".
pub fn bg_note(review: &BgDecisionReview) -> String {
    t!(
        "analysis.bg_note",
        mark = review.mark.map(mark_name).unwrap_or_default(),
        loss = format!("{:.3}", review.loss_mp / 1000.0),
        best = review.best
    )
    .into_owned()
}

/// The Gomoku review of the stone that led to `position` (the stone at
/// index `position − 1`).
pub fn gomoku_review(analysis: &GameAnalysis, position: usize) -> Option<&GomokuMoveReview> {
    let GameAnalysis::Gomoku(g) = analysis else {
        return None;
    };
    let index = position.checked_sub(1)?;
    g.moves.iter().find(|m| m.index == index)
}

/// The Backgammon decisions made by the action that led to `position`.
pub fn bg_reviews(analysis: &GameAnalysis, position: usize) -> Vec<&BgDecisionReview> {
    let GameAnalysis::Backgammon(b) = analysis else {
        return Vec::new();
    };
    let Some(index) = position.checked_sub(1) else {
        return Vec::new();
    };
    b.decisions.iter().filter(|d| d.index == index).collect()
}

/// One colour's Gomoku mistakes: missed wins, missed blocks, allowed wins
/// and other stones that lost much of the outlook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GomokuTally {
    /// Forced wins not played.
    pub missed_wins: u32,
    /// Forced wins of the opponent not stopped.
    pub missed_blocks: u32,
    /// Forced wins handed to the opponent.
    pub allowed_wins: u32,
    /// Stones that lost much of the outlook, with no forced line.
    pub mistakes: u32,
}

impl GomokuTally {
    /// All the mistakes.
    pub fn total(&self) -> u32 {
        self.missed_wins + self.missed_blocks + self.allowed_wins + self.mistakes
    }
}

/// Black's and White's mistakes, in that order.
pub fn gomoku_tally(analysis: &GameAnalysis) -> [GomokuTally; 2] {
    let mut out = [GomokuTally::default(); 2];
    if let GameAnalysis::Gomoku(g) = analysis {
        for m in &g.moves {
            let tally = &mut out[usize::from(m.stone == Stone::White)];
            match m.mistake {
                Some(GomokuMistake::MissedWin) => tally.missed_wins += 1,
                Some(GomokuMistake::MissedBlock) => tally.missed_blocks += 1,
                Some(GomokuMistake::AllowedWin) => tally.allowed_wins += 1,
                Some(GomokuMistake::Mistake) => tally.mistakes += 1,
                None => {}
            }
        }
    }
    out
}

/// A Gomoku mistake in words.
pub fn mistake_name(mistake: GomokuMistake) -> String {
    match mistake {
        GomokuMistake::MissedWin => t!("analysis.missed_win"),
        GomokuMistake::MissedBlock => t!("analysis.missed_block"),
        GomokuMistake::AllowedWin => t!("analysis.allowed_win"),
        GomokuMistake::Mistake => t!("analysis.mistake"),
    }
    .into_owned()
}

/// A Backgammon mark in words.
pub fn mark_name(mark: Mark) -> String {
    match mark {
        Mark::Inaccuracy => t!("analysis.inaccuracy"),
        Mark::Error => t!("analysis.error"),
        Mark::Blunder => t!("analysis.blunder"),
    }
    .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_shared::gomoku::Point;
    use tabula_shared::protocol::GomokuAnalysis;

    fn stone(index: usize, stone: Stone, mistake: Option<GomokuMistake>) -> GomokuMoveReview {
        GomokuMoveReview {
            index,
            stone,
            played: Point::new(0, index as u8),
            best: Some(Point::new(7, 7)),
            eval: if mistake.is_some() { 1.0 } else { 0.0 },
            mistake,
            line: Vec::new(),
        }
    }

    #[test]
    fn busy_says_when_to_try_again_in_whole_seconds() {
        assert_eq!(
            busy_text(4_200),
            "The server is busy analysing other games; try again in 5 s"
        );
        assert_eq!(
            busy_text(0),
            "The server is busy analysing other games; try again in 1 s"
        );
        assert_eq!(
            t!("analysis.busy", locale = "zh-CN", secs = 3),
            "服务器正忙于分析其他对局，请 3 秒后再试"
        );
    }

    #[test]
    fn gomoku_marks_tally_and_positions() {
        let analysis = GameAnalysis::Gomoku(GomokuAnalysis {
            engine: "test".into(),
            moves: vec![
                stone(0, Stone::Black, None),
                stone(1, Stone::White, Some(GomokuMistake::MissedBlock)),
                stone(2, Stone::Black, Some(GomokuMistake::MissedWin)),
            ],
        });
        let points = graph_points(&analysis);
        assert_eq!(
            points.iter().map(|p| p.position).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        assert_eq!(points[1].severity, Some(Severity::Blunder));
        assert_eq!(move_mark(&analysis, 0), None);
        let mark = move_mark(&analysis, 2).expect("a mark");
        assert_eq!(mark.severity.symbol(), "??");
        assert_eq!(mark.note, "Missed win; best: h8");
        assert_eq!(gomoku_review(&analysis, 2).map(|r| r.index), Some(1));
        assert_eq!(gomoku_review(&analysis, 0), None);
        let [black, white] = gomoku_tally(&analysis);
        assert_eq!((black.missed_wins, black.total()), (1, 1));
        assert_eq!((white.missed_blocks, white.total()), (1, 1));
        assert_eq!(Point::new(7, 7).to_string(), "h8");
    }

    #[test]
    fn only_a_failure_or_nothing_lets_the_player_ask_again() {
        assert!(AnalysisState::NotAsked.can_ask());
        assert!(AnalysisState::Busy { retry_after_ms: 1 }.can_ask());
        assert!(AnalysisState::Failed("x".into()).can_ask());
        let running = AnalysisState::Running {
            request_id: 1,
            done: 0,
            total: 0,
        };
        assert!(!running.can_ask());
    }
}
