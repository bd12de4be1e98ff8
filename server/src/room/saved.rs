//! What the store keeps of a room, and bringing a room back from it after
//! a restart.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tabula_shared::protocol::{
    ActionRecord, ChatLine, ClockState, ErrorCode, GameRecord, GameResult, PendingOffer,
    PlayerInfo, RoomEvent, RoomId, RoomOptions,
};

use super::clock::Clock;
use super::undo::Checkpoint;
use super::{Refusal, Room, now_ms, refuse, room_rng};
use crate::registry::Shared;
use crate::store::AppendedAction;
use crate::tournament_desk::TournamentLink;
use tabula_shared::fair_dice::ServerSeed;

/// How far a restored room's event numbers jump past the saved one: more than
/// the unsaved events (presence and spectator counts, rate-limited) a room
/// could number between two saves, and small enough that numbers stay far
/// below 2^53 (what a JSON number holds exactly) over millions of restarts.
const RESTORED_SEQ_GAP: u64 = 1 << 20;

/// What the store keeps of a room, enough to bring it back after a restart.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct SavedRoom {
    pub(super) id: RoomId,
    pub(super) options: RoomOptions,
    pub(super) code: Option<String>,
    pub(super) seats: [Option<PlayerInfo>; 2],
    pub(super) record: GameRecord,
    pub(super) result: Option<GameResult>,
    pub(super) seq: u64,
    pub(super) clock: Option<Clock>,
    pub(super) offers: Vec<PendingOffer>,
    pub(super) started_at: i64,
    pub(super) game_no: u32,
    pub(super) game_started: bool,
    /// Whether the players muted spectator chat (absent in rooms saved
    /// before it was kept).
    #[serde(default)]
    pub(super) spectators_muted: bool,
    /// Backgammon rolls a takeback cut, dealt again in order before any new
    /// roll (absent in rooms saved before they were kept).
    /// Only in rooms without a [`SavedRoom::dice_seed`] (Gomoku has no dice;
    /// a Backgammon match with a seed deals from its stream instead).
    #[serde(default)]
    pub(super) redeal: VecDeque<[u8; 2]>,
    /// The running Backgammon match's secret server seed, committed to in
    /// the record's proof: saved so that a restart deals the dice committed
    /// to. Never sent to anyone before the reveal. Absent in Gomoku rooms
    /// and in rooms saved before verifiable dice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) dice_seed: Option<ServerSeed>,
    /// Which seats have sent their dice seed in this match (the opening roll
    /// waits for the human ones).
    #[serde(default)]
    pub(super) seeds_given: [bool; 2],
    /// Since when (Unix ms) nobody has been in the room, so that a restart
    /// does not give a deserted game a fresh idle time-out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) empty_since_ms: Option<i64>,
    /// The room's last chat lines, so that a restart does not wipe the
    /// conversation (absent in rooms saved before chat was kept).
    #[serde(default, skip_serializing_if = "VecDeque::is_empty")]
    pub(super) chat: VecDeque<ChatLine>,
    /// The tournament the game was paired for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) tournament: Option<TournamentLink>,
}

/// The instant a Unix time in ms was, as near as `Instant` can say; now
/// when unknown (or in the future).
pub(super) fn instant_of_ms(ms: Option<i64>) -> Instant {
    let now = Instant::now();
    ms.and_then(|ms| {
        let ago = u64::try_from(now_ms() - ms).ok()?;
        now.checked_sub(Duration::from_millis(ago))
    })
    .unwrap_or(now)
}

/// Brings back a room saved before a restart: its last full state plus the
/// actions appended since.
pub fn restore(
    shared: &Arc<Shared>,
    state: &str,
    appended: &[AppendedAction],
) -> Result<RoomId, String> {
    let mut saved: SavedRoom = serde_json::from_str(state).map_err(|e| e.to_string())?;
    for a in appended {
        // A later row for an index the record already has replaces it and
        // what followed: the room undid that action (a write that timed out
        // but reached the disk later) and played another in its place.
        if (a.index as usize) < saved.record.len() {
            saved.record.truncate(a.index as usize);
        }
        if a.index as usize != saved.record.len() {
            continue;
        }
        let action: ActionRecord = serde_json::from_str(&a.action).map_err(|e| e.to_string())?;
        saved
            .record
            .push(action)
            .map_err(|_| "appended action is for the other game".to_string())?;
        saved.seq = a.seq;
        if let (Some(clock), Ok(Some(state))) = (
            &mut saved.clock,
            serde_json::from_str::<Option<ClockState>>(&a.clock),
        ) {
            clock.remaining_ms = state.remaining_ms;
            clock.running = state.running;
        }
    }
    // Events that are not saved (chat, presence, spectator counts) may have
    // used the numbers after the saved one before the server went down.
    // Numbering on from well past them, a restored room never hands out a
    // number twice: a client resuming with `since` gets a snapshot, and no
    // new event is taken for one it has already seen.
    saved.seq += RESTORED_SEQ_GAP;
    let rng = room_rng(shared, &format!("{}:{}", saved.id, saved.record.len()));
    let id = saved.id.clone();
    let mut room = Room::from_saved(shared.clone(), saved, rng).map_err(|e| e.to_string())?;
    room.list();
    let now = Instant::now();
    for i in 0..2 {
        if room.seats[i].as_ref().is_some_and(|p| p.ai.is_none()) {
            room.away_since[i] = Some(now);
        }
    }
    // A room still waiting for its opponent closes once nobody has been in
    // it for the grace period, and the restart (or takeover) is what sent
    // everyone away: its players get the grace period from now. (The saved
    // time is the creation's: the creator's joining is not saved.)
    if !room.game_started {
        room.empty_since = Some(now);
    }
    if let Some(clock) = &mut room.clock {
        // Time while the server was down is not charged.
        clock.since = now;
    }
    // A match restored before its first roll waits again for the seeds of
    // players coming back.
    room.start_seed_wait();
    // The tournament may not have heard of a game that ended just before
    // the restart (it ignores a result it has).
    if let Some(result) = room.result.clone() {
        room.report_to_tournament(&result, None);
    }
    room.spawn();
    Ok(id)
}

impl Room {
    /// The room as the store keeps it.
    pub(super) fn saved(&self) -> SavedRoom {
        let mut clock = self.clock.clone();
        if let Some(c) = &mut clock {
            let view = c.view();
            c.remaining_ms = view.remaining_ms;
        }
        SavedRoom {
            id: self.id.clone(),
            options: self.options.clone(),
            code: self.code.clone(),
            seats: self.seats.clone(),
            record: self.game.record().clone(),
            result: self.result.clone(),
            seq: self.history.last(),
            clock,
            offers: self.offers.clone(),
            started_at: self.started_at,
            game_no: self.game_no,
            game_started: self.game_started,
            spectators_muted: self.muted,
            redeal: self.dice.redeal.clone(),
            dice_seed: self.dice.seed.clone(),
            seeds_given: self.dice.seeds_given,
            empty_since_ms: self
                .empty_since
                .map(|t| now_ms() - t.elapsed().as_millis() as i64),
            chat: self.chat.clone(),
            tournament: self.tournament.clone(),
        }
    }

    /// Saves the room's whole state.
    ///
    /// # Errors
    /// `internal` when the store could not save it.
    pub(super) async fn save(&mut self) -> Result<(), Refusal> {
        self.save_ahead(0).await
    }

    /// Saves the room numbered as if its next `events` events were out: a
    /// change is saved before the events that tell it.
    ///
    /// # Errors
    /// `internal` when the store could not save it.
    pub(super) async fn save_ahead(&mut self, events: u64) -> Result<(), Refusal> {
        let Some(state) = self.state_ahead(events) else {
            return Err(refuse(ErrorCode::Internal, "the room could not be encoded"));
        };
        let saved = self.shared.store.save_room(self.id.clone(), state).await;
        self.saved_or_not(saved, "saving a room")
    }

    /// The room's saved state as JSON, numbered `events` past now.
    pub(super) fn state_ahead(&self, events: u64) -> Option<String> {
        let mut saved = self.saved();
        saved.seq += events;
        serde_json::to_string(&saved)
            .inspect_err(|e| tracing::error!(room = %self.id, error = %e, "encoding a room failed"))
            .ok()
    }

    /// Saves the room as it will be once `event` is out, then emits it;
    /// emits nothing when the save fails.
    ///
    /// # Errors
    /// `internal` when the store could not save it.
    pub(super) async fn seq_save_and_emit(&mut self, event: RoomEvent) -> Result<(), Refusal> {
        self.save_and_emit(vec![event]).await
    }

    /// Saves the room as it will be once `events` are out, then emits them;
    /// emits nothing when the save fails.
    ///
    /// # Errors
    /// `internal` when the store could not save it.
    pub(super) async fn save_and_emit(&mut self, events: Vec<RoomEvent>) -> Result<(), Refusal> {
        // The events' numbers are part of the saved state, so save with them.
        self.save_ahead(events.len() as u64).await?;
        for event in events {
            self.emit(event);
        }
        Ok(())
    }

    /// Saves the room after `change` made it from `before`, then emits
    /// `events`; when the save fails, the room is put back to `before` and
    /// nothing is told.
    ///
    /// # Errors
    /// `internal` when the store could not save it.
    pub(super) async fn save_or_undo(
        &mut self,
        before: Checkpoint,
        events: Vec<RoomEvent>,
    ) -> Result<(), Refusal> {
        let saved = self.save_and_emit(events).await;
        if saved.is_err() {
            self.roll_back(before);
        }
        saved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Backgammon room as a server from before verifiable dice saved it.
    const OLD_ROOM: &str = r#"{"id":"r-1","options":{"game":{"game":"backgammon","length":1,"cube":true,"jacoby":false,"crawford":true,"doubles_twice":false},"opponent":{"kind":"human"},"colour":"white","private":false,"takebacks":true},"code":null,"seats":[null,null],"record":{"game":"backgammon","config":{"length":1,"cube":true,"jacoby":false,"crawford":true,"doubles_twice":false},"actions":[{"kind":"opening_roll","white":3,"black":1}]},"result":null,"seq":4,"clock":null,"offers":[],"started_at":0,"game_no":1,"game_started":true,"redeal":[[6,5]]}"#;

    #[test]
    fn an_old_room_has_no_seed_and_keeps_its_redeal_queue() {
        let saved: SavedRoom = serde_json::from_str(OLD_ROOM).unwrap();
        assert!(saved.dice_seed.is_none());
        assert!(saved.record.dice().is_none());
        assert_eq!(saved.seeds_given, [false, false]);
        assert_eq!(saved.redeal, VecDeque::from([[6, 5]]));
    }

    #[test]
    fn the_seed_is_saved_for_a_restart_and_never_shown_by_debug() {
        let mut saved: SavedRoom = serde_json::from_str(OLD_ROOM).unwrap();
        let seed = ServerSeed::from_bytes([9; 32]);
        saved.dice_seed = Some(seed.clone());
        saved.seeds_given = [true, false];
        let json = serde_json::to_string(&saved).unwrap();
        assert!(json.contains(&seed.to_hex()));
        let again: SavedRoom = serde_json::from_str(&json).unwrap();
        assert_eq!(again.dice_seed, Some(seed.clone()));
        assert_eq!(again.seeds_given, [true, false]);
        assert!(!format!("{saved:?}").contains(&seed.to_hex()));
    }
}
