//! Glicko-2 rating maths: the `skillratings` crate's formulas, one game as
//! one rating period, tau 0.5. The backend reads and writes the ratings;
//! this module only computes them.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use tabula_shared::protocol::RatingChange;
use tabula_shared::seat::Seat;

/// A deviation above this marks a rating as provisional (as on lichess).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// Both seats' ratings after one rated result (`None` = draw).
pub(super) fn rate(before: [Glicko2Rating; 2], winner: Option<Seat>) -> [Glicko2Rating; 2] {
    let outcome = match winner {
        Some(Seat::First) => Outcomes::WIN,
        Some(Seat::Second) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let (a, b) = glicko2(&before[0], &before[1], &outcome, &Glicko2Config::new());
    [a, b]
}

/// How sure a fixed rating (an AI level's) is taken to be: a small
/// deviation, so a result against it counts like one against a well-known
/// player.
const FIXED_DEVIATION: f64 = 60.0;

/// An AI level's fixed rating as a Glicko-2 rating.
pub(super) fn fixed(rating: f64) -> Glicko2Rating {
    Glicko2Rating {
        rating,
        deviation: FIXED_DEVIATION,
        ..Glicko2Rating::default()
    }
}

/// How one seat's rating moved, as the players are told.
pub(super) fn change(
    seat: Seat,
    player: &str,
    old: &Glicko2Rating,
    new: &Glicko2Rating,
) -> RatingChange {
    RatingChange {
        seat,
        player_id: player.to_string(),
        before: old.rating.round() as i32,
        after: new.rating.round() as i32,
        provisional: new.deviation > PROVISIONAL_DEVIATION,
    }
}

/// The rating pool a player's puzzle rating is kept in (one for both
/// games, as on lichess).
pub(super) const PUZZLE_POOL: &str = "puzzles";

/// A player's and a puzzle's ratings after one first answer: a right
/// answer is a win against the puzzle, a wrong one a loss.
pub(super) fn rate_puzzle(
    player: Glicko2Rating,
    puzzle: Glicko2Rating,
    correct: bool,
) -> [Glicko2Rating; 2] {
    rate(
        [player, puzzle],
        Some(if correct { Seat::First } else { Seat::Second }),
    )
}
