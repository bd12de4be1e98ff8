//! What the app does by itself for the player when the settings ask it to:
//! roll when no double is possible (auto-roll), make the only play a roll
//! allows (forced plays), and send a complete Backgammon play without
//! waiting for Confirm (move confirmation off).

use tabula_shared::backgammon::GamePhase;

use super::{Command, TabulaApp};

impl TabulaApp {
    /// Rolls or sends the play when the settings say so; once per
    /// position (the record's length), so a refusal is not repeated.
    pub(super) fn autoplay(&mut self) {
        let Some(me) = self.room.my_side() else {
            return;
        };
        if !self.room.anims.is_empty() {
            return;
        }
        let Some(room) = &self.room.room else { return };
        if room.result.is_some() {
            return;
        }
        let key = room.record().map_or(0, |r| r.len());
        if self.autoplayed == Some(key) {
            return;
        }
        let Some(game) = room.backgammon() else {
            return;
        };
        let roll = self.settings.auto_roll
            && *game.phase() == GamePhase::AwaitingRoll { side: me }
            && !game.can_double(me);
        let forced = match game.legal_plays().as_slice() {
            [only] if self.settings.auto_forced => Some(only.clone()),
            _ => None,
        };
        if let (Some(play), Some(turn)) = (forced, self.room.bg.as_mut())
            && turn.make(&play)
        {
            self.autoplayed = Some(key);
            if !self.settings.confirm_moves {
                self.apply(Command::ConfirmPlay);
            }
            return;
        }
        let send = !self.settings.confirm_moves
            && self
                .room
                .bg
                .as_ref()
                .is_some_and(|t| t.builder.is_complete() && !t.sent);
        if roll {
            self.autoplayed = Some(key);
            self.apply(Command::Roll);
        } else if send {
            self.autoplayed = Some(key);
            self.apply(Command::ConfirmPlay);
        }
    }
}
