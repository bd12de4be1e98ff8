//! A room's chat: checking and cleaning a line, and the recent lines a
//! snapshot carries.

use tabula_shared::protocol::{ChatLine, ErrorCode, RoomEvent};

use super::{Refusal, Room, refuse};
use crate::handle::Caller;

/// How many chat lines a snapshot carries.
const CHAT_LINES: usize = 50;
/// Longest chat line, in characters.
const CHAT_MAX: usize = 500;

/// Whether `c` may not appear in a chat line: control characters (which
/// could clear or move a terminal's screen) and the invisible marks that
/// change the direction of text (which make a line read as something else).
fn unwanted(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// A chat line as others see it: without control and direction-override
/// characters, and trimmed.
pub(super) fn clean_chat(text: &str) -> String {
    let kept: String = text.chars().filter(|&c| !unwanted(c)).collect();
    kept.trim().to_string()
}

impl Room {
    /// `caller` says `text` in the room's chat.
    ///
    /// # Errors
    /// `bad_request` for an empty or too long line (after cleaning);
    /// `forbidden` for a spectator while spectators are muted.
    pub(super) async fn chat(
        &mut self,
        caller: &Caller,
        spectator: bool,
        text: &str,
    ) -> Result<(), Refusal> {
        let text = clean_chat(text);
        if text.is_empty() || text.chars().count() > CHAT_MAX {
            return Err(refuse(
                ErrorCode::BadRequest,
                "chat lines are 1 to 500 characters",
            ));
        }
        if spectator && self.muted {
            return Err(refuse(
                ErrorCode::Forbidden,
                "the players muted spectator chat",
            ));
        }
        let line = ChatLine {
            from: caller.identity.name.clone(),
            spectator,
            text,
        };
        let before = self.chat.clone();
        self.remember(line.clone());
        // Saved with the room, so that a restart keeps the chat; a line
        // that cannot be saved is told to no one.
        if let Err(refusal) = self.seq_save_and_emit(RoomEvent::Chat { line }).await {
            self.chat = before;
            return Err(refusal);
        }
        Ok(())
    }

    /// Tells a line from the server itself (a notice that saving fails, say):
    /// kept among the recent lines, not saved.
    pub(super) fn say(&mut self, line: ChatLine) {
        self.remember(line.clone());
        self.emit(RoomEvent::Chat { line });
    }

    /// Keeps `line` among the recent ones.
    fn remember(&mut self, line: ChatLine) {
        self.chat.push_back(line);
        if self.chat.len() > CHAT_LINES {
            self.chat.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::clean_chat;

    #[test]
    fn control_and_direction_override_characters_are_taken_out_of_chat() {
        assert_eq!(clean_chat("a\u{0}b\u{1b}[2Jc"), "ab[2Jc");
        assert_eq!(clean_chat("evil\u{202E}txt.exe"), "eviltxt.exe");
        assert_eq!(clean_chat("\u{2066}x\u{2069} \n"), "x");
        assert_eq!(clean_chat("\u{7}\u{8}"), "");
        // Letters of every script stay.
        assert_eq!(clean_chat("שלום, مرحبا, 你好"), "שלום, مرحبا, 你好");
    }
}
