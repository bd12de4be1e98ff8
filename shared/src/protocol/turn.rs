//! [`Turn`]: who acts next in a room's game and what is expected of them,
//! carried by every snapshot and every action event, so that a client (a
//! bot above all) knows whose move it is without implementing the rules.

use serde::{Deserialize, Serialize};

use crate::backgammon::GamePhase;
use crate::game::LiveGame;
use crate::gomoku::{Phase, Point, Stone, Swap2Choice};
use crate::seat::{Seat, seat_of};

/// What the game waits for next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expect {
    /// Gomoku: place a stone (`{"kind":"place"}`), in the main game or the
    /// swap2 opening's placing steps.
    Place,
    /// Gomoku swap2: make the opening choice (`{"kind":"choose"}`).
    Choose,
    /// Backgammon: roll (`{"kind":"roll"}`), or double first when
    /// [`Turn::may_double`] says so.
    Roll,
    /// Backgammon: play the rolled [`Turn::dice`] (`{"kind":"play"}`).
    Play,
    /// Backgammon: answer the double (`{"kind":"take"}` or `{"kind":"drop"}`).
    TakeOrDrop,
    /// Nobody: the server's own step comes next (Backgammon's opening roll,
    /// or the next game of a match), announced by its own action event.
    Server,
    /// Nobody: the game is over, or it has not started (a seat is free).
    Nothing,
}

/// Whose turn it is and what they may do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// The seat that must act; absent when [`Turn::expect`] is `server` or
    /// `nothing`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// What is expected.
    pub expect: Expect,
    /// Gomoku: the colour of the next stone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stone: Option<Stone>,
    /// Gomoku under renju, Black to place: the empty points where a black
    /// stone is forbidden now (a double three, a double four, an overline).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forbidden: Vec<Point>,
    /// Gomoku swap2, `choose`: the choices open at this step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<Swap2Choice>,
    /// Backgammon, `play`: the dice to play, as rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<[u8; 2]>,
    /// Backgammon, `roll`: whether the seat may double instead of rolling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub may_double: Option<bool>,
    /// Backgammon: the gnubg Position ID, from the side on roll (the doubler
    /// while a double is offered), as gnubg shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position_id: Option<String>,
    /// Backgammon: the gnubg Match ID (cube, score, dice, whose turn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_id: Option<String>,
    /// Backgammon: the match score, `[first, second]` (a money game: 0-0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<[u32; 2]>,
    /// Backgammon: the cube's value (1 while it has not been turned).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cube: Option<u8>,
    /// Backgammon: who owns the cube; absent while it is centred.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cube_owner: Option<Seat>,
    /// Backgammon: whether this is the Crawford game (no doubling).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crawford: Option<bool>,
}

impl Turn {
    /// Nobody acts.
    pub fn nothing() -> Turn {
        Turn::expecting(None, Expect::Nothing)
    }

    fn expecting(seat: Option<Seat>, expect: Expect) -> Turn {
        Turn {
            seat,
            expect,
            stone: None,
            forbidden: Vec::new(),
            choices: Vec::new(),
            dice: None,
            may_double: None,
            position_id: None,
            match_id: None,
            score: None,
            cube: None,
            cube_owner: None,
            crawford: None,
        }
    }

    /// The turn in `game` (a game that is running: the caller says
    /// [`Turn::nothing`] before the start and after the end).
    pub fn of(game: &LiveGame) -> Turn {
        match game {
            LiveGame::Gomoku(g) => {
                let expect = match g.phase() {
                    Phase::Over => return Turn::nothing(),
                    Phase::Swap2Choose | Phase::Swap2FinalChoose => Expect::Choose,
                    Phase::Main | Phase::Swap2PlaceThree | Phase::Swap2PlaceTwo => Expect::Place,
                };
                let stone = g.stone_to_play();
                let forbidden = if g.phase() == Phase::Main && stone == Stone::Black {
                    g.forbidden_points()
                } else {
                    Vec::new()
                };
                let choices = match g.phase() {
                    Phase::Swap2Choose => vec![
                        Swap2Choice::PlayBlack,
                        Swap2Choice::PlayWhite,
                        Swap2Choice::PlaceTwo,
                    ],
                    Phase::Swap2FinalChoose => {
                        vec![Swap2Choice::PlayBlack, Swap2Choice::PlayWhite]
                    }
                    _ => Vec::new(),
                };
                Turn {
                    stone: Some(stone),
                    forbidden,
                    choices,
                    ..Turn::expecting(g.to_act(), expect)
                }
            }
            LiveGame::Backgammon(g) => {
                let mut turn = match *g.phase() {
                    GamePhase::OpeningRoll => Turn::expecting(None, Expect::Server),
                    GamePhase::AwaitingRoll { side } => Turn {
                        may_double: Some(g.can_double(side)),
                        ..Turn::expecting(Some(seat_of(side)), Expect::Roll)
                    },
                    GamePhase::Moving { side, dice } => Turn {
                        dice: Some([dice.a, dice.b]),
                        ..Turn::expecting(Some(seat_of(side)), Expect::Play)
                    },
                    GamePhase::CubeOffered { by } => {
                        Turn::expecting(Some(seat_of(by.opponent())), Expect::TakeOrDrop)
                    }
                    GamePhase::GameOver { .. } if g.config().length > 0 => {
                        Turn::expecting(None, Expect::Server)
                    }
                    GamePhase::GameOver { .. } | GamePhase::MatchOver { .. } => Turn::nothing(),
                };
                turn.position_id = Some(g.position_id());
                turn.match_id = Some(g.match_id());
                turn.score = Some(g.score());
                turn.cube = Some(g.cube().value.max(1));
                turn.cube_owner = g.cube().owner.map(seat_of);
                turn.crawford = Some(g.is_crawford_game());
                turn
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameOptions, GameRecord};

    #[test]
    fn a_new_gomoku_game_expects_black_to_place() {
        let options: GameOptions = serde_json::from_str(
            r#"{"game":"gomoku","size":15,"rule":"freestyle","opening":"none"}"#,
        )
        .unwrap();
        let live = GameRecord::new(&options).replay().unwrap();
        let turn = Turn::of(&live);
        assert_eq!(turn.seat, Some(Seat::First));
        assert_eq!(turn.expect, Expect::Place);
        assert_eq!(turn.stone, Some(Stone::Black));
        let json = serde_json::to_string(&turn).unwrap();
        assert_eq!(json, r#"{"seat":"first","expect":"place","stone":"black"}"#);
    }

    /// Under renju the turn names Black's forbidden points, so that a bot
    /// that knows no rules does not play one; in swap2 it names the choices.
    #[test]
    fn renju_forbidden_points_and_swap2_choices_are_in_the_turn() {
        let options: GameOptions =
            serde_json::from_str(r#"{"game":"gomoku","size":15,"rule":"renju","opening":"none"}"#)
                .unwrap();
        let mut record = GameRecord::new(&options);
        let GameRecord::Gomoku { actions, .. } = &mut record else {
            panic!("gomoku")
        };
        // Black on h6 h7 and f8 g8; h8 would make two open threes.
        for (i, (x, y)) in [
            (7, 5),
            (0, 0),
            (7, 6),
            (0, 14),
            (5, 7),
            (14, 0),
            (6, 7),
            (14, 14),
        ]
        .into_iter()
        .enumerate()
        {
            let seat = if i % 2 == 0 {
                Seat::First
            } else {
                Seat::Second
            };
            actions.push(crate::gomoku::GomokuAction::Place {
                seat,
                point: Point::new(x, y),
            });
        }
        let turn = Turn::of(&record.replay().unwrap());
        assert_eq!(turn.stone, Some(Stone::Black));
        assert!(turn.forbidden.contains(&Point::new(7, 7)), "{turn:?}");
        assert!(turn.choices.is_empty());

        let swap2: GameOptions = serde_json::from_str(
            r#"{"game":"gomoku","size":15,"rule":"freestyle","opening":"swap2"}"#,
        )
        .unwrap();
        let mut record = GameRecord::new(&swap2);
        let GameRecord::Gomoku { actions, .. } = &mut record else {
            panic!("gomoku")
        };
        for (x, y) in [(7, 7), (8, 8), (7, 9)] {
            actions.push(crate::gomoku::GomokuAction::Place {
                seat: Seat::First,
                point: Point::new(x, y),
            });
        }
        let turn = Turn::of(&record.replay().unwrap());
        assert_eq!(turn.expect, Expect::Choose);
        assert_eq!(turn.seat, Some(Seat::Second));
        assert_eq!(
            turn.choices,
            [
                Swap2Choice::PlayBlack,
                Swap2Choice::PlayWhite,
                Swap2Choice::PlaceTwo
            ]
        );
        assert!(turn.forbidden.is_empty());
    }

    #[test]
    fn a_backgammon_match_waits_for_the_servers_opening_roll_and_carries_gnubg_ids() {
        let options: GameOptions = serde_json::from_str(
            r#"{"game":"backgammon","length":3,"cube":true,"jacoby":false,"crawford":true,"doubles_twice":false}"#,
        )
        .unwrap();
        let live = GameRecord::new(&options).replay().unwrap();
        let turn = Turn::of(&live);
        assert_eq!(turn.seat, None);
        assert_eq!(turn.expect, Expect::Server);
        assert_eq!(turn.position_id.as_deref(), Some("4HPwATDgc/ABMA"));
        assert!(turn.match_id.is_some());
    }
}
