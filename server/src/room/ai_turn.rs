//! The AI seats: asking the AI on the blocking pool (or the host's engine,
//! with the built-in Expert standing in for it) and playing what it
//! answers. Every call into [`tabula_ai`] and [`crate::engines`] from a room
//! is here.

use std::sync::Arc;

use tabula_shared::backgammon::{BgMatch, ResignKind};
use tabula_shared::protocol::{AiLevel, ErrorCode, GameKind, PlayerAction, PlayerInfo};
use tabula_shared::seat::Seat;
use tabula_shared::seat::side_of;

use super::{Room, idx};
use crate::engines::EnginePlayer;
use crate::handle::RoomCommand;
use crate::registry::Shared;
use tabula_ai as ai;

/// The player shown in an AI seat of `level`.
pub(super) fn ai_player(level: AiLevel) -> PlayerInfo {
    let name = match level {
        AiLevel::Beginner => "Beginner AI",
        AiLevel::Casual => "Casual AI",
        AiLevel::Intermediate => "Intermediate AI",
        AiLevel::Advanced => "Advanced AI",
        AiLevel::Expert => "Expert AI",
    };
    PlayerInfo {
        id: format!(
            "ai-{}",
            name.split(' ').next().unwrap_or("ai").to_lowercase()
        ),
        name: name.to_string(),
        ai: Some(level),
        bot: false,
    }
}

/// The player shown in the seat of the host's engine called `name`. It is
/// an AI seat at the Expert's level, the level that stands in for it.
pub(crate) fn engine_player(name: &str) -> PlayerInfo {
    let slug: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    PlayerInfo {
        id: format!("engine-{slug}"),
        name: name.to_string(),
        ai: Some(AiLevel::Expert),
        bot: false,
    }
}

/// The host's engines playing the `seats` of a room for `game`: a seat
/// whose player is an engine's ([`engine_player`]) gets one. An engine the
/// server no longer runs leaves the Expert playing, and the room is told on
/// its first move.
pub(super) fn engine_seats(
    shared: &Shared,
    game: GameKind,
    seats: &[Option<PlayerInfo>; 2],
) -> [Option<Arc<tokio::sync::Mutex<EnginePlayer>>>; 2] {
    seats.each_ref().map(|seat| {
        let player = seat.as_ref()?;
        if !player.id.starts_with("engine-") {
            return None;
        }
        let name = &player.name;
        let spec = shared
            .config
            .engines
            .iter()
            .find(|e| e.game == game && e.name == *name)
            .cloned();
        let slots = shared.engine_slots.clone();
        Some(Arc::new(tokio::sync::Mutex::new(EnginePlayer::new(
            name, spec, slots,
        ))))
    })
}

impl Room {
    /// The AI level playing `seat`, if an AI does.
    pub(super) fn ai_seat(&self, seat: Seat) -> Option<AiLevel> {
        self.seats[idx(seat)].as_ref().and_then(|p| p.ai)
    }

    /// Asks the AI for its action when an AI seat is to act and none is
    /// being thought about; the answer comes back as [`RoomCommand::AiMove`].
    pub(super) fn maybe_ask_ai(&mut self) {
        // While the store cannot save, the room's retry asks again later.
        if self.ai.thinking || self.backing_off() {
            return;
        }
        let Some(seat) = self.to_act() else { return };
        let Some(level) = self.ai_seat(seat) else {
            return;
        };
        self.ai.thinking = true;
        self.ai.generation += 1;
        let generation = self.ai.generation;
        let game = self.game.live().clone();
        let budget = self.shared.config.ai_budget;
        let seed = self.ai.seed ^ (self.game.len() as u64).wrapping_mul(0x9E37_79B9);
        let me = self.me.clone();
        let engine = self.ai.engines[idx(seat)].clone();
        let thinking = self.shared.thinking.clone();
        tokio::spawn(async move {
            // Counted as a busy core while it thinks; never waits for one.
            let core = thinking.ai_move();
            // The engine first, when there is one; the built-in AI for
            // what the engine does not decide, or when it fails.
            let turn = match engine {
                Some(engine) => engine.lock().await.decide(&game, seat, budget).await,
                None => Default::default(),
            };
            let action = match turn.action {
                Some(action) => Some(action),
                None => tokio::task::spawn_blocking(move || {
                    ai::choose(level, &game, seat, budget, seed)
                })
                .await
                .unwrap_or(None),
            };
            drop(core);
            if let Some(me) = me.upgrade() {
                let _ = me
                    .send(RoomCommand::AiMove {
                        generation,
                        action,
                        note: turn.note,
                    })
                    .await;
            }
        });
    }

    /// Whether the AI in `seat` accepts a resignation worth `value` in `game`.
    pub(super) fn ai_accepts_resignation(
        &self,
        game: &BgMatch,
        seat: Seat,
        value: ResignKind,
    ) -> bool {
        ai::accepts_resignation(game, side_of(seat), value)
    }

    /// Stops the room's engine processes, unless it is thinking (it then
    /// stays for the move it is asked): the game is over, or nobody is here
    /// to play it. Its next turn starts it again.
    pub(super) fn stop_engine(&self) {
        for engine in self.ai.engines.iter().flatten() {
            if let Ok(mut engine) = engine.try_lock() {
                engine.stop();
            }
        }
    }

    /// Makes any AI move still being thought about arrive as out of date,
    /// and lets [`Room::maybe_ask_ai`] ask again.
    pub(super) fn forget_ai_thought(&mut self) {
        self.ai.generation += 1;
        self.ai.thinking = false;
    }

    /// Plays the AI's answer, if its seat is still the one to act.
    pub(super) async fn on_ai_move(&mut self, action: Option<PlayerAction>) {
        let Some(seat) = self.to_act().filter(|&s| self.ai_seat(s).is_some()) else {
            return;
        };
        let Some(action) = action else {
            tracing::error!(room = %self.id, "the AI found no action");
            return;
        };
        match self.act(seat, action, None).await {
            Ok(()) => {}
            // Not saved: tried again by the room's back-off (see `backoff`),
            // which logged it once.
            Err((ErrorCode::Internal, _)) => self.tell_save_trouble(),
            Err((_, why)) => tracing::error!(room = %self.id, %why, "the AI's action was refused"),
        }
    }
}
