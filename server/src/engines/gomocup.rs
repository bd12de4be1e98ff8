//! The Gomocup brain protocol, as a manager speaks it: `START size`, the
//! `INFO` settings, then each turn the whole position as `BOARD` ...
//! `DONE` (which also covers takebacks and rematches), answered by `x,y`.
//! Lines starting `MESSAGE`, `DEBUG` or `SUGGEST` are the brain talking to
//! the manager, and are skipped. Reference:
//! <https://plastovicka.github.io/protocl2en.htm>.

use std::fmt::Write as _;
use std::time::Duration;

use tabula_shared::gomoku::{Gomoku, Point, Rule};
use tabula_shared::seat::Seat;
use tokio::time::Instant;

use super::{EngineFailure, EngineProcess};

/// How long a brain may take to answer `START` (loading its weights, say).
const START_WAIT: Duration = Duration::from_secs(10);

/// The `INFO rule` value for `rule`: bit 1 exactly five, bit 4 renju.
fn rule_bits(rule: Rule) -> u8 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 4,
    }
}

/// The next answer that is not the brain talking to the manager.
async fn answer(
    process: &mut EngineProcess,
    deadline: Instant,
    waited: Duration,
) -> Result<String, EngineFailure> {
    loop {
        let line = process.read_line(deadline, waited).await?;
        let word = line.split_whitespace().next().unwrap_or("");
        let chatter = ["MESSAGE", "DEBUG", "SUGGEST"]
            .iter()
            .any(|w| word.eq_ignore_ascii_case(w));
        if !chatter && !line.trim().is_empty() {
            return Ok(line.trim().to_string());
        }
    }
}

/// Starts a game of `game`'s size and rule on a fresh brain, with
/// `budget` per move and no limit for the match.
///
/// # Errors
/// Any answer to `START` but `OK`, or none in time.
pub(super) async fn start(
    process: &mut EngineProcess,
    game: &Gomoku,
    budget: Duration,
) -> Result<(), EngineFailure> {
    process.send(&format!("START {}\n", game.size())).await?;
    let ok = answer(process, Instant::now() + START_WAIT, START_WAIT).await?;
    if !ok.eq_ignore_ascii_case("OK") {
        return Err(EngineFailure::Refused(ok));
    }
    let info = format!(
        "INFO timeout_turn {}\nINFO timeout_match 0\nINFO rule {}\n",
        budget.as_millis(),
        rule_bits(game.config().rule)
    );
    process.send(&info).await
}

/// The brain's stone for `seat` in `game` (in the main phase), within
/// `budget` plus `margin`, checked against the rules.
///
/// # Errors
/// A crash, no answer in time, an `ERROR` answer, or an illegal point.
pub(super) async fn place(
    process: &mut EngineProcess,
    game: &Gomoku,
    seat: Seat,
    budget: Duration,
    margin: Duration,
) -> Result<Point, EngineFailure> {
    let own = game.stone_to_play();
    let mut board = String::from("BOARD\n");
    for &p in game.moves() {
        let field = if game.get(p) == Some(own) { 1 } else { 2 };
        let _ = writeln!(board, "{},{},{field}", p.x, p.y);
    }
    board.push_str("DONE\n");
    process.send(&board).await?;
    let waited = budget + margin;
    let line = answer(process, Instant::now() + waited, waited).await?;
    let mut parts = line.split(',').map(str::trim);
    let point = match (parts.next(), parts.next(), parts.next()) {
        (Some(x), Some(y), None) => x.parse::<i64>().ok().zip(y.parse::<i64>().ok()),
        _ => None,
    };
    let Some((x, y)) = point else {
        return Err(EngineFailure::Refused(line));
    };
    let (Ok(px), Ok(py)) = (u8::try_from(x), u8::try_from(y)) else {
        return Err(EngineFailure::Illegal(format!("{x},{y} is off the board")));
    };
    let point = Point::new(px, py);
    game.is_legal(seat, point)
        .map_err(|e| EngineFailure::Illegal(format!("{x},{y}: {e}")))?;
    Ok(point)
}
