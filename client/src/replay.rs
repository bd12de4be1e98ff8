//! The replay viewer's state: a finished game replayed once through the
//! shared rules into one position per record prefix, a cursor over them,
//! readable move-list lines, and which side the board is seen from.
//!
//! Nothing here draws; [`crate::app`] paints the current position with the
//! same board painters as a live room.

use rust_i18n::t;
use tabula_shared::backgammon::{BgMatch, GamePhase, ResignKind, Side};
use tabula_shared::game::{Game, GameKind, LiveGame, ReplayError};
use tabula_shared::gomoku::{Gomoku, GomokuAction, Stone, Swap2Choice};
use tabula_shared::protocol::{ActionRecord, BgAction, FinishedGame, GameOptions, GameRecord};
use tabula_shared::seat::Seat;
use tabula_shared::study::{BgSetup, GomokuSetup, StudyPosition};

use crate::dice_check::DiceCheck;
use crate::room::side_name;

/// A finished game being replayed.
#[derive(Debug, Clone)]
pub struct Replay {
    /// The game as the server sent it.
    pub game: FinishedGame,
    /// `states[k]` is the game after the first `k` actions.
    states: Vec<LiveGame>,
    /// One readable line per action that replayed.
    lines: Vec<String>,
    /// How many actions are applied in the position shown.
    pos: usize,
    /// The side the Backgammon board is seen from.
    viewer: Side,
    /// The Gomoku board is turned half a circle. It starts upright, as the
    /// live board is drawn, whichever colour we played.
    turned: bool,
    /// Set when the record stops replaying before its end.
    pub error: Option<String>,
    /// Backgammon: the check of the record's dice against its proof, made
    /// once when the game is opened.
    pub dice: Option<DiceCheck>,
}

impl Replay {
    /// Replays `game` (at the start position). `me` is our player id: the
    /// Backgammon board is first shown from our side when we played.
    pub fn new(game: FinishedGame, me: Option<&str>) -> Replay {
        let second = game.summary.seats.iter().any(|s| {
            s.seat == Seat::Second && s.player.as_ref().is_some_and(|p| Some(p.id.as_str()) == me)
        });
        let (states, lines, error) = replay_all(&game.record);
        let dice = match &game.record {
            GameRecord::Backgammon { actions, dice, .. } => {
                Some(DiceCheck::of(actions, dice.as_ref()))
            }
            GameRecord::Gomoku { .. } => None,
        };
        Replay {
            dice,
            game,
            states,
            lines,
            pos: 0,
            viewer: if second { Side::Black } else { Side::White },
            turned: false,
            error,
        }
    }

    /// How many actions can be stepped through.
    pub fn len(&self) -> usize {
        self.states.len() - 1
    }

    /// Whether the game has no action at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many actions the position shown includes (0 = the start).
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Shows the position after `n` actions (clamped to the record).
    pub fn go_to(&mut self, n: usize) {
        self.pos = n.min(self.len());
    }

    /// Steps `delta` actions forward (or back when negative), stopping at the ends.
    pub fn step(&mut self, delta: isize) {
        let n = self.pos.saturating_add_signed(delta);
        self.go_to(n);
    }

    /// The positions of the game the analysis board can hold (a side to
    /// decide; a Gomoku board at every stone), first to last, and which of
    /// them is at or before the position shown: "open on the board".
    pub fn study_line(&self) -> (Vec<StudyPosition>, usize) {
        let mut line: Vec<StudyPosition> = Vec::new();
        let mut at = 0;
        for (k, state) in self.states.iter().enumerate() {
            let position = match state {
                LiveGame::Backgammon(m) => BgSetup::of_match(m).map(StudyPosition::Backgammon),
                LiveGame::Gomoku(g) => {
                    GomokuSetup::from_moves(g.size(), g.config().rule, g.moves())
                        .ok()
                        .map(StudyPosition::Gomoku)
                }
            };
            if let Some(p) = position
                && line.last() != Some(&p)
            {
                line.push(p);
            }
            if k <= self.pos {
                at = line.len().saturating_sub(1);
            }
        }
        (line, at)
    }

    /// The position shown.
    pub fn current(&self) -> &LiveGame {
        &self.states[self.pos]
    }

    /// One line per action, in order.
    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    /// The side the Backgammon board is seen from.
    pub fn viewer(&self) -> Side {
        self.viewer
    }

    /// Turns the board around (for Gomoku, half a circle).
    pub fn flip(&mut self) {
        self.viewer = self.viewer.opponent();
        self.turned = !self.turned;
    }

    /// Whether the Gomoku board is shown turned half a circle.
    pub fn gomoku_turned(&self) -> bool {
        self.turned
    }

    /// Whether this is a Backgammon game (else Gomoku).
    pub fn is_backgammon(&self) -> bool {
        matches!(self.game.record, GameRecord::Backgammon { .. })
    }

    /// The Backgammon dice to show with the position: the roll being played,
    /// or the roll just played.
    pub fn dice(&self) -> Option<(Side, [u8; 2])> {
        let GameRecord::Backgammon { actions, .. } = &self.game.record else {
            return None;
        };
        if let LiveGame::Backgammon(game) = self.current()
            && let GamePhase::Moving { side, dice } = *game.phase()
        {
            return Some((side, [dice.a, dice.b]));
        }
        let applied = &actions[..self.pos];
        match applied.last()? {
            BgAction::Roll { side, dice } => Some((*side, *dice)),
            BgAction::OpeningRoll { white, black } => Some((Side::White, [*white, *black])),
            BgAction::Play { side, .. } => last_roll(applied).map(|dice| (*side, dice)),
            _ => None,
        }
    }

    /// The player names by seat (first, second).
    pub fn players(&self) -> [String; 2] {
        let name = |seat: Seat| {
            self.game
                .summary
                .seats
                .iter()
                .find(|s| s.seat == seat)
                .and_then(|s| s.player.as_ref())
                .map_or_else(|| "?".to_string(), crate::room::display_name)
        };
        [name(Seat::First), name(Seat::Second)]
    }
}

/// The dice of the last roll in `actions` (the opening roll's two dice
/// included).
fn last_roll(actions: &[BgAction]) -> Option<[u8; 2]> {
    actions.iter().rev().find_map(|a| match a {
        BgAction::Roll { dice, .. } => Some(*dice),
        BgAction::OpeningRoll { white, black } => Some([*white, *black]),
        _ => None,
    })
}

/// The last play of the game in progress, as "White 3-1: 8/5 6/5": in the
/// mover's own numbering (as the replay, the export and every backgammon
/// program write it), the higher die first. None before the game's first
/// play.
pub fn last_play(actions: &[BgAction]) -> Option<String> {
    let i = actions
        .iter()
        .rposition(|a| matches!(a, BgAction::Play { .. } | BgAction::NextGame))?;
    let BgAction::Play { side, play } = &actions[i] else {
        return None;
    };
    let [a, b] = last_roll(&actions[..i])?;
    let (high, low) = (a.max(b), a.min(b));
    if play.moves.is_empty() {
        return Some(
            t!(
                "moves.last_cannot_move",
                side = side_name(*side),
                high = high,
                low = low
            )
            .into_owned(),
        );
    }
    Some(
        t!(
            "moves.last_play",
            side = side_name(*side),
            high = high,
            low = low,
            play = play
        )
        .into_owned(),
    )
}

/// One readable line per action of `record`, as the replay lists them (the
/// live move list beside the board); stops at an action the rules refuse.
pub fn record_lines(record: &GameRecord) -> Vec<String> {
    replay_all(record).1
}

/// The game after the first `n` actions of `record`, if they replay.
pub fn state_after(record: &GameRecord, n: usize) -> Option<LiveGame> {
    replay_all(record).0.into_iter().nth(n)
}

/// Replays a record through [`Game`] into every intermediate position and
/// its move list. Stops at the first action the rules refuse, with the
/// reason.
fn replay_all(record: &GameRecord) -> (Vec<LiveGame>, Vec<String>, Option<String>) {
    let mut lines = Vec::new();
    let mut game = match Game::new(&record.options()) {
        Ok(game) => game,
        Err(e) => {
            // Unplayable options: show the game's default board and say why.
            let default = match record.kind() {
                GameKind::Gomoku => GameOptions::Gomoku(Default::default()),
                GameKind::Backgammon => GameOptions::Backgammon(Default::default()),
            };
            let game = Game::new(&default).expect("the default options are valid");
            return (vec![game.live().clone()], lines, Some(e.to_string()));
        }
    };
    let mut states = vec![game.live().clone()];
    let mut stones = 0;
    for (i, action) in record.actions().enumerate() {
        let cube_before = game.backgammon().map_or(1, |g| g.cube().value);
        if let Err(e) = game.apply(action.clone()) {
            let why = match e {
                ReplayError::Gomoku { error, .. } => format!("move {}: {error}", i + 1),
                ReplayError::Backgammon { error, .. } => format!("action {}: {error}", i + 1),
                other => other.to_string(),
            };
            return (states, lines, Some(why));
        }
        lines.push(match (&action, game.live()) {
            (ActionRecord::Gomoku(action), LiveGame::Gomoku(after)) => {
                gomoku_line(action, after, &mut stones)
            }
            (ActionRecord::Backgammon(action), LiveGame::Backgammon(after)) => {
                bg_line(action, after, cube_before)
            }
            _ => String::new(),
        });
        states.push(game.live().clone());
    }
    (states, lines, None)
}

/// The move-list line of a Gomoku action, with the game `after` it;
/// `stones` counts the stones placed.
fn gomoku_line(action: &GomokuAction, after: &Gomoku, stones: &mut usize) -> String {
    match action {
        GomokuAction::Place { point, .. } => {
            *stones += 1;
            let colour = match after.get(*point) {
                Some(Stone::Black) => t!("side.black"),
                Some(Stone::White) => t!("side.white"),
                None => "".into(),
            };
            format!("{stones}. {colour} {point}")
        }
        GomokuAction::Choose { seat, choice } => {
            let who = if *seat == Seat::First {
                t!("moves.first_player")
            } else {
                t!("moves.second_player")
            };
            let what = match choice {
                Swap2Choice::PlayBlack => t!("moves.plays_black"),
                Swap2Choice::PlayWhite => t!("moves.plays_white"),
                Swap2Choice::PlaceTwo => t!("moves.places_two"),
            };
            t!("moves.chooses", who = who, what = what).into_owned()
        }
    }
}

/// The move-list line of a Backgammon action, with the match `after` it
/// and the cube's value before it.
fn bg_line(action: &BgAction, after: &BgMatch, cube_before: u8) -> String {
    let mut line = match action {
        BgAction::OpeningRoll { white, black } => {
            if white == black {
                t!("moves.opening_tie", white = white, black = black).into_owned()
            } else {
                t!("moves.opening", white = white, black = black).into_owned()
            }
        }
        BgAction::Roll { side, dice } => {
            let key = if matches!(after.phase(), GamePhase::Moving { .. }) {
                "moves.rolls"
            } else {
                "moves.rolls_no_move"
            };
            t!(key, side = side_name(*side), a = dice[0], b = dice[1]).into_owned()
        }
        BgAction::Play { side, play } => {
            if play.moves.is_empty() {
                t!("moves.cannot_move", side = side_name(*side)).into_owned()
            } else {
                t!("moves.play", side = side_name(*side), play = play).into_owned()
            }
        }
        BgAction::Double { side } => t!(
            "moves.doubles",
            side = side_name(*side),
            value = u32::from(cube_before) * 2
        )
        .into_owned(),
        BgAction::Take { side } => t!("moves.takes", side = side_name(*side)).into_owned(),
        BgAction::Drop { side } => t!("moves.drops", side = side_name(*side)).into_owned(),
        BgAction::Resign { side, value } => t!(
            "moves.resigns",
            side = side_name(*side),
            what = match value {
                ResignKind::Single => t!("moves.a_single"),
                ResignKind::Gammon => t!("moves.a_gammon"),
                ResignKind::Backgammon => t!("moves.a_backgammon"),
            }
        )
        .into_owned(),
        BgAction::NextGame => t!("moves.game_begins", n = after.game_number()).into_owned(),
    };
    match *after.phase() {
        GamePhase::GameOver { winner, points, .. } => {
            let key = if points == 1 {
                "moves.wins_point"
            } else {
                "moves.wins_points"
            };
            line.push_str(&t!(key, side = side_name(winner), points = points));
        }
        GamePhase::MatchOver { winner } => {
            let points = after.last_result().map_or(0, |r| r.points);
            let key = if points == 1 {
                "moves.wins_point_match"
            } else {
                "moves.wins_points_match"
            };
            line.push_str(&t!(key, side = side_name(winner), points = points));
        }
        _ => {}
    }
    line
}

/// `(year, month, day, hour, minute)` in UTC of a Unix time in milliseconds.
pub fn utc(ms: i64) -> (i64, u32, u32, u32, u32) {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        year,
        month,
        day,
        (rem / 3600) as u32,
        ((rem % 3600) / 60) as u32,
    )
}

/// `YYYY-MM-DD` (UTC) of a Unix time in milliseconds.
pub fn date_text(ms: i64) -> String {
    let (y, m, d, _, _) = utc(ms);
    format!("{y:04}-{m:02}-{d:02}")
}

/// `YYYY-MM-DD HH:MM` (UTC) of a Unix time in milliseconds.
pub fn date_time_text(ms: i64) -> String {
    let (y, m, d, h, min) = utc(ms);
    format!("{y:04}-{m:02}-{d:02} {h:02}:{min:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_shared::backgammon::{MatchConfig, Play};
    use tabula_shared::fair_dice::RollPosition;
    use tabula_shared::gomoku::{GomokuConfig, Point};
    use tabula_shared::protocol::{
        ColourChoice, EndReason, GameOptions, GameResult, GameSummary, Opponent, PlayerInfo,
        RoomOptions, SeatInfo,
    };

    fn finished(record: GameRecord) -> FinishedGame {
        let game = match &record {
            GameRecord::Gomoku { config, .. } => GameOptions::Gomoku(*config),
            GameRecord::Backgammon { config, .. } => GameOptions::Backgammon(*config),
        };
        let seat = |seat, id: &str| SeatInfo {
            seat,
            player: Some(PlayerInfo {
                id: id.into(),
                name: id.to_uppercase(),
                ai: None,
                bot: false,
            }),
            connected: true,
            grace_ms: None,
        };
        FinishedGame {
            summary: GameSummary {
                game_id: "g-1".into(),
                options: RoomOptions {
                    game,
                    opponent: Opponent::Human,
                    colour: ColourChoice::Black,
                    time_control: None,
                    private: false,
                    takebacks: true,
                    rated: false,
                    hints: false,
                },
                seats: vec![seat(Seat::First, "p-a"), seat(Seat::Second, "p-b")],
                result: GameResult {
                    winner: Some(Seat::First),
                    reason: EndReason::Resigned,
                    line: vec![],
                    score: None,
                },
                actions: 0,
                started_at: 0,
                ended_at: 0,
            },
            record,
        }
    }

    fn gomoku(points: &[(u8, u8)]) -> FinishedGame {
        let actions = points
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| GomokuAction::Place {
                seat: if i % 2 == 0 {
                    Seat::First
                } else {
                    Seat::Second
                },
                point: Point::new(x, y),
            })
            .collect();
        finished(GameRecord::Gomoku {
            config: GomokuConfig::default(),
            actions,
        })
    }

    fn stones(r: &Replay) -> usize {
        match r.current() {
            LiveGame::Gomoku(g) => g.moves().len(),
            LiveGame::Backgammon(_) => usize::MAX,
        }
    }

    #[test]
    fn steps_jumps_and_stops_at_the_ends() {
        let mut r = Replay::new(gomoku(&[(7, 7), (8, 8), (7, 8), (9, 9)]), Some("p-a"));
        assert_eq!((r.len(), r.position(), stones(&r)), (4, 0, 0));
        r.step(-1);
        assert_eq!(r.position(), 0, "no step before the start");
        r.step(1);
        r.step(1);
        assert_eq!((r.position(), stones(&r)), (2, 2));
        r.go_to(99);
        assert_eq!((r.position(), stones(&r)), (4, 4));
        r.step(1);
        assert_eq!(r.position(), 4, "no step past the end");
        r.go_to(1);
        let LiveGame::Gomoku(g) = r.current() else {
            panic!()
        };
        assert_eq!(g.moves(), &[Point::new(7, 7)]);
        r.step(-5);
        assert_eq!(r.position(), 0);
        assert_eq!(r.lines()[0], "1. Black h8");
        assert_eq!(r.lines()[1], "2. White i9");
        assert!(r.error.is_none());
        assert!(!r.is_backgammon());
    }

    /// Issue 26 #8: a Gomoku game we played as White (the second seat)
    /// opened turned half a circle, unlike the live board.
    #[test]
    fn a_gomoku_replay_opens_upright_whichever_colour_we_played() {
        let mut r = Replay::new(gomoku(&[(7, 7), (8, 8)]), Some("p-b"));
        assert!(!r.gomoku_turned(), "upright, as the live board");
        r.flip();
        assert!(r.gomoku_turned());
        r.flip();
        assert!(!r.gomoku_turned());
    }

    #[test]
    fn an_illegal_action_stops_the_replay_with_a_reason() {
        // The second stone lands on the first.
        let r = Replay::new(gomoku(&[(7, 7), (7, 7), (1, 1)]), None);
        assert_eq!(r.len(), 1);
        assert!(r.error.as_deref().is_some_and(|e| e.starts_with("move 2")));
    }

    #[test]
    fn backgammon_lines_dice_cube_and_flip() {
        let play = |side, text: &str| BgAction::Play {
            side,
            play: text.parse::<Play>().expect("play"),
        };
        let record = GameRecord::Backgammon {
            config: MatchConfig {
                length: 0,
                cube: true,
                ..MatchConfig::default()
            },
            actions: vec![
                BgAction::OpeningRoll { white: 3, black: 1 },
                play(Side::White, "8/5 6/5"),
                BgAction::Double { side: Side::Black },
                BgAction::Take { side: Side::White },
                BgAction::Roll {
                    side: Side::Black,
                    dice: [6, 4],
                },
                play(Side::Black, "24/18 13/9"),
                BgAction::Double { side: Side::White },
                BgAction::Drop { side: Side::Black },
            ],
            dice: None,
        };
        let mut r = Replay::new(finished(record), Some("p-b"));
        assert_eq!(r.viewer(), Side::Black, "seen from our side");
        r.flip();
        assert_eq!(r.viewer(), Side::White);
        assert!(r.is_backgammon());
        assert_eq!(r.len(), 8);
        assert_eq!(r.lines()[0], "Opening roll: White 3, Black 1");
        assert_eq!(r.lines()[1], "White 8/5 6/5");
        assert_eq!(r.lines()[2], "Black Doubles to 2");
        assert_eq!(r.lines()[3], "White Takes");
        assert_eq!(r.lines()[6], "White Doubles to 4");
        assert!(r.lines()[7].starts_with("Black Drops — White wins 2 points"));
        r.go_to(1);
        assert_eq!(
            r.dice(),
            Some((Side::White, [3, 1])),
            "the opening roll is played"
        );
        r.go_to(2);
        assert_eq!(
            r.dice(),
            Some((Side::White, [3, 1])),
            "the roll just played"
        );
        r.go_to(4);
        let LiveGame::Backgammon(g) = r.current() else {
            panic!()
        };
        assert_eq!(g.cube().value, 2);
        assert_eq!(g.cube().owner, Some(Side::White));
        assert_eq!(r.dice(), None);
        r.go_to(5);
        assert_eq!(r.dice(), Some((Side::Black, [6, 4])));
    }

    #[test]
    fn the_last_play_with_its_roll_until_the_next_game_begins() {
        let play = |side, text: &str| BgAction::Play {
            side,
            play: text.parse::<Play>().expect("play"),
        };
        let last = |actions: &[BgAction]| last_play(actions);
        let mut actions = vec![BgAction::OpeningRoll { white: 3, black: 1 }];
        assert_eq!(last(&actions), None);
        actions.push(play(Side::White, "8/5 6/5"));
        assert_eq!(last(&actions).as_deref(), Some("White 3-1: 8/5 6/5"));
        actions.push(BgAction::Roll {
            side: Side::Black,
            dice: [6, 4],
        });
        assert_eq!(
            last(&actions).as_deref(),
            Some("White 3-1: 8/5 6/5"),
            "still, while Black is to play"
        );
        actions.push(play(Side::Black, "bar/21 13/9"));
        assert_eq!(
            last(&actions).as_deref(),
            Some("Black 6-4: bar/21 13/9"),
            "in the mover's numbering, whoever looks"
        );
        actions.push(BgAction::Roll {
            side: Side::White,
            dice: [6, 6],
        });
        actions.push(BgAction::Play {
            side: Side::White,
            play: Play { moves: Vec::new() },
        });
        assert_eq!(last(&actions).as_deref(), Some("White 6-6: cannot move"));
        actions.push(BgAction::NextGame);
        assert_eq!(last(&actions), None, "a new game has no last play");
    }

    /// Issue 26 #4: the panel's last move said "Black 2-3: 12/14 1/4"
    /// (the viewer's numbers, the low die first).
    #[test]
    fn the_last_play_is_in_the_movers_numbers_high_die_first() {
        let actions = vec![
            BgAction::OpeningRoll { white: 2, black: 3 },
            BgAction::Play {
                side: Side::Black,
                play: "13/11 24/21".parse::<Play>().expect("play"),
            },
        ];
        assert_eq!(
            last_play(&actions).as_deref(),
            Some("Black 3-2: 24/21 13/11")
        );
    }

    #[test]
    fn the_replay_checks_the_dice_once() {
        use crate::dice_check::Verdict;
        use tabula_shared::fair_dice::{DiceProof, ServerSeed};

        let seed = ServerSeed::from_bytes([8; 32]);
        let mut proof = DiceProof::commit(&seed, false);
        proof.reveal(&seed);
        let [white, black] = proof.stream().unwrap().roll(RollPosition::FIRST);
        let record = |dice| GameRecord::Backgammon {
            config: MatchConfig::default(),
            actions: vec![BgAction::OpeningRoll { white, black }],
            dice,
        };
        let r = Replay::new(finished(record(Some(proof))), None);
        let check = r.dice.expect("a Backgammon record is checked");
        assert_eq!(check.verdict(), Verdict::Good, "{}", check.text());
        let r = Replay::new(finished(record(None)), None);
        assert_eq!(
            r.dice.map(|c| c.text()).as_deref(),
            Some("This game has no dice proof")
        );
        let gomoku = GameRecord::Gomoku {
            config: GomokuConfig::default(),
            actions: vec![],
        };
        assert_eq!(Replay::new(finished(gomoku), None).dice, None);
    }

    #[test]
    fn dates_in_utc() {
        assert_eq!(date_time_text(0), "1970-01-01 00:00");
        assert_eq!(date_time_text(1_795_862_460_000), "2026-11-28 10:41");
        assert_eq!(date_text(951_782_400_000), "2000-02-29");
    }
}
