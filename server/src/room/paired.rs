//! Rooms a tournament pairs: both seats named from the start, no creator,
//! and a game that a player who does not come loses (both lose when
//! neither comes).

use std::sync::Arc;

use tabula_shared::gomoku::GomokuAction;
use tabula_shared::protocol::{EndReason, GameRecord, GameResult, PlayerInfo, RoomId, RoomOptions};
use tabula_shared::seat::Seat;

use super::{NewRoom, Refusal, Room, dice, idx, launch, room_rng};
use crate::registry::Shared;
use crate::tournament_desk::{GameScore, TournamentLink};

/// Makes the room of a tournament game between `seats` (first, second),
/// its Gomoku game starting with the `opening`'s stones: an AI seat plays
/// at once, a player's seat waits `link.forfeit_secs` for them.
///
/// # Errors
/// `internal` when the store could not save it; `bad_request` for options
/// the rules refuse.
pub async fn create_paired(
    shared: &Arc<Shared>,
    options: RoomOptions,
    seats: [PlayerInfo; 2],
    link: TournamentLink,
    opening: Vec<GomokuAction>,
) -> Result<RoomId, Refusal> {
    let mut record = GameRecord::new(&options.game);
    if let GameRecord::Gomoku { actions, .. } = &mut record {
        actions.extend(opening);
    }
    let id = format!("r-{}", &uuid::Uuid::new_v4().simple().to_string()[..10]);
    let salt = format!("room-{}", shared.next_room_number());
    let rng = room_rng(shared, &salt);
    let dice_seed = dice::commit_dice(shared, record.dice_mut(), &salt);
    let away = [0, 1].map(|i| seats[i].ai.is_none());
    let [first, second] = seats;
    let room = NewRoom {
        id,
        options,
        code: None,
        seats: [Some(first), Some(second)],
        record,
        dice_seed,
        away,
        tournament: Some(link),
    };
    launch(shared, room, rng).await
}

impl Room {
    /// A tournament game whose player (or both) stayed away for the whole
    /// forfeit time before it began: scored as lost by whoever did not
    /// come. True when it ended.
    pub(super) async fn forfeit_if_absent(&mut self) -> bool {
        if self.tournament.is_none() || self.game_started || self.result.is_some() {
            return false;
        }
        let wait = self.seat_wait();
        let absent = [Seat::First, Seat::Second]
            .map(|s| self.away_since[idx(s)].is_some_and(|t| t.elapsed() >= wait));
        let winner = match absent {
            [true, false] => Some(Seat::Second),
            [false, true] => Some(Seat::First),
            [true, true] => None,
            [false, false] => return false,
        };
        let result = GameResult {
            winner,
            reason: EndReason::Abandoned,
            line: Vec::new(),
            score: None,
        };
        if self.finish(result).await.is_err() {
            self.tell_save_trouble();
            return false;
        }
        self.publish();
        true
    }

    /// Tells the room's tournament how its game ended.
    pub(super) fn report_to_tournament(&self, result: &GameResult, game_id: Option<String>) {
        let Some(link) = &self.tournament else { return };
        // Only a forfeit ends a game that never began.
        let forfeit = !self.game_started && result.reason == EndReason::Abandoned;
        let absent = match (forfeit, result.winner) {
            (false, _) => [false, false],
            (true, Some(Seat::First)) => [false, true],
            (true, Some(Seat::Second)) => [true, false],
            (true, None) => [true, true],
        };
        let points = match result.winner {
            Some(Seat::First) => [2, 0],
            Some(Seat::Second) => [0, 2],
            None if forfeit => [0, 0],
            None => [1, 1],
        };
        self.shared.tournament_desk.report(
            link,
            self.id.clone(),
            GameScore {
                points,
                absent,
                game_id,
            },
        );
    }
}
