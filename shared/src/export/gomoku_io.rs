//! What the two Gomoku formats share: replaying a record for export, and
//! rebuilding a record from a list of stones and choices on import.

use crate::game::GameRecord;
use crate::gomoku::{
    Gomoku, GomokuAction, GomokuConfig, Opening, Outcome, Point, Rule, Stone, Swap2Choice,
};
use crate::seat::Seat;

use super::{ExportError, ExportMeta, ImportError, ImportedGame};

/// Replays an exported record, naming the first action the rules refuse.
pub(crate) fn replay(
    config: &GomokuConfig,
    actions: &[GomokuAction],
) -> Result<Gomoku, ExportError> {
    let mut game = Gomoku::new(*config).map_err(|e| ExportError::gomoku(0, e))?;
    for (index, action) in actions.iter().enumerate() {
        game.apply(*action)
            .map_err(|e| ExportError::gomoku(index, e))?;
    }
    Ok(game)
}

/// The seat that ended up with black (the first seat while swap2 has not
/// decided the colours).
pub(crate) fn black_seat(game: &Gomoku) -> Seat {
    game.seat_of(Stone::Black).unwrap_or(Seat::First)
}

/// The rule's name in files.
pub(crate) fn rule_name(rule: Rule) -> &'static str {
    match rule {
        Rule::Freestyle => "freestyle",
        Rule::Standard => "standard",
        Rule::Renju => "renju",
    }
}

/// The rule for a name, case-insensitively.
pub(crate) fn rule_from_name(s: &str) -> Option<Rule> {
    match s.to_ascii_lowercase().as_str() {
        "freestyle" => Some(Rule::Freestyle),
        "standard" => Some(Rule::Standard),
        "renju" => Some(Rule::Renju),
        _ => None,
    }
}

/// The opening's name in files (`None` has none).
pub(crate) fn opening_name(opening: Opening) -> Option<&'static str> {
    match opening {
        Opening::None => None,
        Opening::Swap2 => Some("swap2"),
    }
}

/// A swap2 choice's name in files.
pub(crate) fn choice_name(choice: Swap2Choice) -> &'static str {
    match choice {
        Swap2Choice::PlayBlack => "play_black",
        Swap2Choice::PlayWhite => "play_white",
        Swap2Choice::PlaceTwo => "place_two",
    }
}

/// The choice for a name, case-insensitively.
pub(crate) fn choice_from_name(s: &str) -> Option<Swap2Choice> {
    match s.trim().to_ascii_lowercase().as_str() {
        "play_black" => Some(Swap2Choice::PlayBlack),
        "play_white" => Some(Swap2Choice::PlayWhite),
        "place_two" => Some(Swap2Choice::PlaceTwo),
        _ => None,
    }
}

/// A readable sentence for a choice, for SGF comments.
pub(crate) fn choice_sentence(choice: Swap2Choice, seat: Seat) -> String {
    let who = match seat {
        Seat::First => "The first player",
        Seat::Second => "The second player",
    };
    match choice {
        Swap2Choice::PlayBlack => format!("{who} chooses black."),
        Swap2Choice::PlayWhite => format!("{who} chooses white."),
        Swap2Choice::PlaceTwo => format!("{who} places two more stones."),
    }
}

/// The winner's colour, or `None` for a draw or an unfinished game.
pub(crate) fn result(game: &Gomoku) -> Option<Option<Stone>> {
    match game.outcome()? {
        Outcome::Win { stone, .. } => Some(Some(*stone)),
        Outcome::Draw => Some(None),
    }
}

/// One thing read from a file, in order.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Item {
    /// A stone; `colour` when the file says which colour it is.
    Stone {
        point: Point,
        colour: Option<Stone>,
        line: usize,
    },
    /// A swap2 choice.
    Choice { choice: Swap2Choice },
}

/// Names as the file gives them: by colour (SGF) or by seat (PSQ).
pub(crate) enum Names {
    ByColour { black: String, white: String },
    BySeat([String; 2]),
}

/// Builds the record: each stone and choice is made by the seat the rules
/// say must act, and checked by the rules.
pub(crate) fn rebuild(
    config: GomokuConfig,
    items: &[Item],
    names: Names,
    date: Option<String>,
    event: Option<String>,
) -> Result<ImportedGame, ImportError> {
    let mut game = Gomoku::new(config).map_err(|e| ImportError::Unsupported(e.to_string()))?;
    for (index, item) in items.iter().enumerate() {
        let illegal = |error| ImportError::Illegal { index, error };
        let seat = match game.to_act() {
            Some(seat) => seat,
            None => return Err(illegal(crate::gomoku::GomokuError::GameOver)),
        };
        match *item {
            Item::Stone {
                point,
                colour,
                line,
            } => {
                if let Some(c) = colour
                    && c != game.stone_to_play()
                {
                    return Err(ImportError::Syntax {
                        line,
                        message: format!(
                            "a {} stone where {} is to play",
                            stone_name(c),
                            stone_name(game.stone_to_play())
                        ),
                    });
                }
                game.apply(GomokuAction::Place { seat, point })
                    .map_err(illegal)?;
            }
            Item::Choice { choice } => {
                game.apply(GomokuAction::Choose { seat, choice })
                    .map_err(illegal)?;
            }
        }
    }
    let players = match names {
        Names::BySeat(p) => p,
        Names::ByColour { black, white } => match black_seat(&game) {
            Seat::First => [black, white],
            Seat::Second => [white, black],
        },
    };
    Ok(ImportedGame {
        record: GameRecord::Gomoku {
            config,
            actions: game.actions().to_vec(),
        },
        meta: ExportMeta {
            players,
            date,
            event,
            result: None,
        },
    })
}

fn stone_name(s: Stone) -> &'static str {
    match s {
        Stone::Black => "black",
        Stone::White => "white",
    }
}

/// A `YYYY-MM-DD` date, if `s` starts with one.
pub(crate) fn date_prefix(s: &str) -> Option<String> {
    let d: String = s.trim().chars().take(10).collect();
    let meta = ExportMeta {
        date: Some(d.clone()),
        ..ExportMeta::default()
    };
    meta.ymd().map(|_| d)
}
