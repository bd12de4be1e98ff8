//! Hints in the room: whether we may ask (a room that allows them, our
//! seat, our turn), the "Hint" button, and the engine's top suggestions
//! for the position they were asked in (Backgammon: the play and its
//! equity; Gomoku: the point and the outlook). The suggestions are dropped
//! as soon as the position changes.

use egui::{Color32, RichText, Ui};
use rust_i18n::t;
use tabula_shared::game::LiveGame;
use tabula_shared::gomoku::Point;
use tabula_shared::protocol::{ClientMessage, Hint, PlayerAction, RoomStatus};

use super::Command;
use super::requests::Requests;
use super::room_screen::RoomScreen;

/// The colour of the first suggestion (the one drawn on the board).
const FIRST: Color32 = Color32::from_rgb(60, 140, 240);

/// The hints received, and the position they are for.
#[derive(Debug, Default)]
pub(super) struct Hints {
    /// The `hint` request waiting for its answer.
    pub(super) request: Option<u64>,
    /// The suggestions, with the length of the room's record they were
    /// made for.
    pub(super) received: Option<(usize, Vec<Hint>)>,
}

impl RoomScreen {
    /// The length of the room's record: the position hints belong to.
    fn record_len(&self) -> usize {
        self.room
            .as_ref()
            .and_then(|r| r.record())
            .map_or(0, |r| r.len())
    }

    /// Whether we may ask for a hint now: the room allows them, we sit in
    /// it, the game runs and it is our turn.
    pub(super) fn may_ask_hint(&self) -> bool {
        let Some(room) = &self.room else { return false };
        let Some(summary) = &room.summary else {
            return false;
        };
        summary.options.allows_hints()
            && summary.status == RoomStatus::Playing
            && room.is_player()
            && room.result.is_none()
            && room.seat.is_some()
            && room.to_act_seat() == room.seat
            && self.look_back.is_none()
    }

    /// Asks the server for hints, when we may.
    pub(super) fn ask_hint(&mut self, requests: &mut Requests) {
        if !self.may_ask_hint() {
            return;
        }
        let Some(room_id) = self.id() else { return };
        self.hints.request = Some(requests.send(ClientMessage::Hint { room_id }));
    }

    /// The server's suggestions for our room.
    pub(super) fn hints_received(&mut self, room_id: &str, hints: Vec<Hint>) {
        if self.room.as_ref().is_none_or(|r| r.id != room_id) {
            return;
        }
        self.hints.request = None;
        self.hints.received = Some((self.record_len(), hints));
    }

    /// Whether a refusal answers our last `hint` (the toast says why).
    pub(super) fn take_hint_error(&mut self, request_id: Option<u64>) -> bool {
        let ours = request_id.is_some() && request_id == self.hints.request;
        if ours {
            self.hints.request = None;
        }
        ours
    }

    /// The suggestions for the position on the board now, if any.
    pub(super) fn current_hints(&self) -> Option<&[Hint]> {
        let (len, hints) = self.hints.received.as_ref()?;
        (*len == self.record_len() && self.may_ask_hint()).then_some(hints.as_slice())
    }

    /// The point of the first suggestion, in a Gomoku room.
    pub(super) fn first_hint_point(&self) -> Option<Point> {
        match &self.current_hints()?.first()?.action {
            PlayerAction::Place { point } => Some(*point),
            _ => None,
        }
    }

    /// The "Hint" button and the suggestions.
    pub(super) fn hint_panel(&self, ui: &mut Ui) -> Vec<Command> {
        let mut out = Vec::new();
        if !self.may_ask_hint() {
            return out;
        }
        let waiting = self.hints.request.is_some();
        ui.horizontal(|ui| {
            let button = ui
                .add_enabled(!waiting, egui::Button::new(t!("hint.button")))
                .on_hover_text(t!("hint.button_hint"));
            if button.clicked() {
                out.push(Command::Hint);
            }
            if waiting {
                ui.spinner();
            }
        });
        let Some(hints) = self.current_hints() else {
            return out;
        };
        let backgammon = matches!(
            self.room.as_ref().and_then(|r| r.live()),
            Some(LiveGame::Backgammon(_))
        );
        if hints.is_empty() {
            ui.label(RichText::new(t!("hint.none")).weak());
        }
        for (n, hint) in hints.iter().enumerate() {
            let text = hint_text(hint, backgammon);
            let text = RichText::new(format!("{}. {text}", n + 1)).monospace();
            ui.label(if n == 0 {
                text.strong().color(FIRST)
            } else {
                text
            });
        }
        out
    }
}

/// One suggestion in words: "8/5 6/5  +0.112" (the mover's equity), or
/// "h8  outlook +0.35" (Gomoku, −1 to +1 for the mover).
pub(super) fn hint_text(hint: &Hint, backgammon: bool) -> String {
    let value = format!("{:+.3}", hint.value);
    if backgammon {
        t!("hint.backgammon", play = hint.label, value = value).into_owned()
    } else {
        let value = signed(hint.value);
        t!("hint.gomoku", point = hint.label, value = value).into_owned()
    }
}

/// An outlook to two places with its sign, and no "-0.00": a value that
/// rounds to nothing is even.
pub(super) fn signed(value: f32) -> String {
    let rounded = (value * 100.0).round() / 100.0;
    format!("{:+.2}", if rounded == 0.0 { 0.0 } else { rounded })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hint_reads_as_the_play_and_its_value() {
        let hint = Hint {
            action: PlayerAction::Roll,
            label: "8/5 6/5".into(),
            value: 0.1123,
        };
        assert_eq!(hint_text(&hint, true), "8/5 6/5  +0.112");
        let hint = Hint {
            action: PlayerAction::Place {
                point: Point::new(7, 7),
            },
            label: "h8".into(),
            value: -0.25,
        };
        assert_eq!(hint_text(&hint, false), "h8  outlook -0.25");
    }
}
