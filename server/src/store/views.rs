//! The protocol's views of stored rows, the same for every backend: a
//! finished game's summary, the dice tally, a leaderboard line, and the
//! names games and rating pools have in the database.

use tabula_shared::protocol::{
    DiceStats, DiceStatsReport, GameKind, GameRecord, GameResult, GameSummary, LeaderboardEntry,
    RoomOptions, SeatInfo,
};
use tabula_shared::seat::side_of;

use super::ratings::PROVISIONAL_DEVIATION;

/// One `games` row as the backends read it (JSON columns as text).
pub(super) struct GameColumns {
    pub(super) id: String,
    pub(super) options: String,
    pub(super) players: String,
    pub(super) result: String,
    pub(super) record: String,
    pub(super) started_at: i64,
    pub(super) ended_at: i64,
}

/// A stored game's summary and record; `None` when its JSON no longer
/// parses (an older format), so one bad row does not hide a player's whole
/// history.
pub(super) fn game_summary(row: GameColumns) -> Option<(GameSummary, GameRecord)> {
    let parsed = (|| -> serde_json::Result<_> {
        let options: RoomOptions = serde_json::from_str(&row.options)?;
        let seats: Vec<SeatInfo> = serde_json::from_str(&row.players)?;
        let result: GameResult = serde_json::from_str(&row.result)?;
        let record: GameRecord = serde_json::from_str(&row.record)?;
        Ok((options, seats, result, record))
    })();
    let Ok((options, seats, result, record)) = parsed else {
        tracing::warn!(game = %row.id, "a stored game does not parse; skipped");
        return None;
    };
    Some((
        GameSummary {
            game_id: row.id,
            options,
            seats,
            result,
            actions: record.len() as u32,
            started_at: row.started_at,
            ended_at: row.ended_at,
        },
        record,
    ))
}

/// Adds one finished Backgammon game's dice (`players` and `record` as
/// stored) to `report`: to everyone's, and to `player_id`'s own where they
/// held a seat.
pub(super) fn tally_dice(
    report: &mut DiceStatsReport,
    id: &str,
    players: &str,
    record: &str,
    player_id: &str,
) {
    let parsed = (|| -> serde_json::Result<_> {
        let seats: Vec<SeatInfo> = serde_json::from_str(players)?;
        let record: GameRecord = serde_json::from_str(record)?;
        Ok((seats, record))
    })();
    let Ok((seats, record)) = parsed else {
        tracing::warn!(game = %id, "a stored game does not parse; skipped");
        return;
    };
    let Some(actions) = record.bg_actions() else {
        return;
    };
    let by_side = DiceStats::by_side(actions);
    report.games += 1;
    for side in &by_side {
        report.all.merge(side);
    }
    let mine = seats
        .iter()
        .find(|s| s.player.as_ref().is_some_and(|p| p.id == player_id));
    if let Some(seat) = mine {
        report.yours.merge(&by_side[side_of(seat.seat).index()]);
    }
}

/// One leaderboard line as the backends read it.
pub(super) struct RankedColumns {
    pub(super) player_id: String,
    pub(super) name: String,
    pub(super) rating: f64,
    pub(super) deviation: f64,
    pub(super) games: u32,
    /// The rating gained over the period (the weekly board).
    pub(super) change: Option<f64>,
}

/// A leaderboard line at `rank` (0 = first).
pub(super) fn leaderboard_entry(rank: usize, row: RankedColumns) -> LeaderboardEntry {
    LeaderboardEntry {
        rank: rank as u32 + 1,
        player_id: row.player_id,
        name: row.name,
        rating: row.rating.round() as i32,
        deviation: row.deviation.round() as i32,
        provisional: row.deviation > PROVISIONAL_DEVIATION,
        games: row.games,
        change: row.change.map(|c| c.round() as i32),
    }
}

/// The name of a game's rating pool in the database: the players', or the
/// bots' (`gomoku-bots`, ...).
pub(super) fn rating_pool(kind: &str, bots: bool) -> String {
    if bots {
        format!("{kind}-bots")
    } else {
        kind.to_string()
    }
}

/// The name a game kind has in the database.
pub(super) fn kind_name(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Gomoku => "gomoku",
        GameKind::Backgammon => "backgammon",
    }
}

/// How far back the weekly leaderboard looks.
pub(super) const WEEK_MS: i64 = 7 * 24 * 3600 * 1000;
