//! The Gomocup brain protocol, as a manager speaks it: `START size` and
//! the `INFO` settings once; then, each turn, `TURN x,y` when the opponent's
//! stone is the only one the brain has not seen, and otherwise the whole
//! position (a takeback, a stone the built-in Expert played for it, a fresh
//! brain): `BEGIN` on an empty board, else `BOARD` ... `DONE`, after
//! `RESTART` when the brain has played in this process before. The brain
//! answers `x,y`. Lines starting `MESSAGE`, `DEBUG` or `SUGGEST` are the
//! brain talking to the manager, and are skipped. Reference:
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
    expect_ok(process, START_WAIT).await?;
    let info = format!(
        "INFO timeout_turn {}\nINFO timeout_match 0\nINFO rule {}\n",
        budget.as_millis(),
        rule_bits(game.config().rule)
    );
    process.send(&info).await
}

/// Expects `OK` to a command that has no other answer.
async fn expect_ok(process: &mut EngineProcess, wait: Duration) -> Result<(), EngineFailure> {
    let ok = answer(process, Instant::now() + wait, wait).await?;
    if ok.eq_ignore_ascii_case("OK") || ok.to_ascii_uppercase().starts_with("OK ") {
        Ok(())
    } else {
        Err(EngineFailure::Refused(ok))
    }
}

/// The request that gives the brain `game`'s position, when it last saw
/// `seen` (`None`: nothing since `START`): `TURN` with the one new stone,
/// or the whole board.
fn request(game: &Gomoku, seen: Option<&[Point]>) -> String {
    let moves = game.moves();
    if let Some(before) = seen
        && let Some((&last, earlier)) = moves.split_last()
        && earlier == before
    {
        return format!("TURN {},{}\n", last.x, last.y);
    }
    if moves.is_empty() {
        return "BEGIN\n".into();
    }
    let own = game.stone_to_play();
    let mut board = String::from("BOARD\n");
    for &p in moves {
        let field = if game.get(p) == Some(own) { 1 } else { 2 };
        let _ = writeln!(board, "{},{},{field}", p.x, p.y);
    }
    board.push_str("DONE\n");
    board
}

/// The brain's stone for `seat` in `game` (in the main phase), within
/// `budget` plus `margin`, checked against the rules. `seen` is the
/// position the brain knows (`None` right after `START`); it becomes the
/// position after the answer.
///
/// # Errors
/// A crash, no answer in time, an `ERROR` answer, or an illegal point.
pub(super) async fn place(
    process: &mut EngineProcess,
    seen: &mut Option<Vec<Point>>,
    game: &Gomoku,
    seat: Seat,
    budget: Duration,
    margin: Duration,
) -> Result<Point, EngineFailure> {
    let request = request(game, seen.as_deref());
    if seen.take().is_some() && !request.starts_with("TURN") {
        process.send("RESTART\n").await?;
        expect_ok(process, START_WAIT).await?;
    }
    process.send(&request).await?;
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
    let mut now = game.moves().to_vec();
    now.push(point);
    *seen = Some(now);
    Ok(point)
}
