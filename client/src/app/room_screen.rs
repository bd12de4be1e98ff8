//! [`RoomScreen`]: the room we are in as the room view shows it: the room's
//! state, the play being built, the opponent's plays being animated, and the
//! view's own choices (flipped board, dismissed result, chat line). Its
//! panels live in `room_panel`, `board_panel` and `result_dialog`.

use std::collections::VecDeque;

use tabula_shared::backgammon::{GamePhase, Play, Position, Side};
use tabula_shared::fair_dice::RollPosition;
use tabula_shared::game::LiveGame;
use tabula_shared::gomoku::Point;
use tabula_shared::protocol::{
    BgAction, ClientMessage, GameRecord, PlayerAction, Role, RoomEvent, RoomSnapshot,
};
use tabula_shared::seat::Seat;

use super::bg_turn::{Anim, BgTurn};
use super::requests::Requests;
use super::toasts::Toasts;
use crate::bg_moves::TurnBuilder;
use crate::room::{Room, RoomUpdate, side_of};
use crate::settings::{BgStyle, GomokuStyle};

/// A random player seed: 32 hex digits (122 random bits) from the OS's generator
/// (`uuid` v4, which also works in a browser), well within what
/// `check_player_seed` allows.
pub(super) fn new_player_seed() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// The room view's state.
#[derive(Default)]
pub(super) struct RoomScreen {
    /// The room we are in (or joining).
    pub(super) room: Option<Room>,
    /// The chat line typed.
    pub(super) chat_input: String,
    /// The Backgammon play we are building, while it is our turn to move.
    pub(super) bg: Option<BgTurn>,
    /// Opponents' plays still to animate, oldest first.
    pub(super) anims: VecDeque<Anim>,
    /// A spectator turned the Backgammon board around.
    pub(super) flipped: bool,
    /// The game-over dialog was closed for this result.
    pub(super) result_dismissed: bool,
    /// Renju's forbidden points for black, with the move count they are for.
    pub(super) forbidden: Option<(usize, Vec<Point>)>,
    /// The commitment of the match we last sent our dice seed for: the seed
    /// goes once per match (a rematch brings a new commitment).
    pub(super) dice_seed_sent: Option<String>,
    /// The `request_id` of the last `dice_seed`, whose refusal (the first
    /// roll came first) is no news for the player.
    pub(super) dice_seed_request: Option<u64>,
    /// How fast opponents' checkers move (the setting, 0.5 to 3).
    pub(super) animation_speed: f32,
    /// The Gomoku board's colours (the setting).
    pub(super) gomoku_style: GomokuStyle,
    /// The Backgammon board's colours (the setting).
    pub(super) bg_style: BgStyle,
    /// The move list beside the board, for the record length it was built at.
    pub(super) moves: (usize, Vec<String>),
    /// The language the move list was built in.
    moves_locale: String,
    /// Looking back at the game after this many actions (the move list was
    /// clicked); the live game goes on underneath.
    pub(super) look_back: Option<(usize, LiveGame)>,
    /// The hints asked for and received.
    pub(super) hints: super::hint_panel::Hints,
}

impl RoomScreen {
    /// The id of the room we are in.
    pub(super) fn id(&self) -> Option<String> {
        self.room.as_ref().map(|r| r.id.clone())
    }

    /// Sends a request about our room, built from its id; nothing when we
    /// are in no room.
    pub(super) fn send(
        &self,
        requests: &mut Requests,
        message: impl FnOnce(String) -> ClientMessage,
    ) {
        if let Some(room_id) = self.id() {
            requests.send(message(room_id));
        }
    }

    /// Sends a move or another game action in our room.
    pub(super) fn act(&self, requests: &mut Requests, action: PlayerAction) {
        self.send(requests, |room_id| ClientMessage::Act { room_id, action });
    }

    /// Sends the Backgammon play being built, once it is complete.
    pub(super) fn confirm_play(&mut self, requests: &mut Requests) {
        let Some(room_id) = self.id() else { return };
        if let Some(play) = self.bg.as_mut().and_then(BgTurn::send) {
            requests.send(ClientMessage::Act {
                room_id,
                action: PlayerAction::Play { play },
            });
        }
    }

    /// Sends the chat line typed, if any, and clears it.
    pub(super) fn send_chat(&mut self, requests: &mut Requests) {
        let text = self.chat_input.trim().to_string();
        if text.is_empty() || self.room.is_none() {
            return;
        }
        self.send(requests, |room_id| ClientMessage::Chat { room_id, text });
        self.chat_input.clear();
    }

    /// Whether we should add our seed to the match's dice now: we sit at a
    /// Backgammon board whose server has committed to its seed, our seed is
    /// still empty, nothing has been rolled in the match yet, and we have
    /// not sent one for this match.
    pub(super) fn wants_dice_seed(&self) -> bool {
        (|| {
            let room = self.room.as_ref()?;
            let me = self.my_side()?;
            let Some(GameRecord::Backgammon {
                actions,
                dice: Some(proof),
                ..
            }) = room.record()
            else {
                return None;
            };
            let fresh = RollPosition::after(actions) == RollPosition::FIRST;
            let wanted = room.result.is_none()
                && fresh
                && !proof.is_revealed()
                && proof.player_seeds[me.index()].is_empty()
                && self.dice_seed_sent.as_ref() != Some(&proof.commitment);
            Some(wanted)
        })()
        .unwrap_or(false)
    }

    /// Sends a fresh random seed for our seat, once per match (see
    /// [`RoomScreen::wants_dice_seed`]).
    pub(super) fn send_dice_seed(&mut self, requests: &mut Requests) {
        if !self.wants_dice_seed() {
            return;
        }
        let Some(room) = &self.room else { return };
        self.dice_seed_sent = room
            .record()
            .and_then(GameRecord::dice)
            .map(|p| p.commitment.clone());
        let seed = new_player_seed();
        let room_id = room.id.clone();
        self.dice_seed_request = Some(requests.send(ClientMessage::DiceSeed { room_id, seed }));
    }

    /// Whether a refusal answers our last `dice_seed` (and is forgotten).
    pub(super) fn take_dice_seed_error(&mut self, request_id: Option<u64>) -> bool {
        let ours = request_id.is_some() && request_id == self.dice_seed_request;
        if ours {
            self.dice_seed_request = None;
        }
        ours
    }

    /// Leaves the room (telling the server) and drops the turn in progress.
    pub(super) fn leave(&mut self, requests: &mut Requests) {
        if let Some(room) = self.room.take() {
            requests.send(ClientMessage::LeaveRoom { room_id: room.id });
        }
        self.bg = None;
        self.anims.clear();
    }

    /// The server seated us (or let us watch) in a room.
    pub(super) fn joined(&mut self, room_id: String, role: Role, seat: Option<Seat>) {
        match &mut self.room {
            Some(room) if room.id == room_id => {
                room.role = role;
                room.seat = seat;
            }
            _ => {
                self.room = Some(Room::new(room_id, role, seat));
                self.bg = None;
                self.anims.clear();
                self.flipped = false;
                self.result_dismissed = false;
                self.forbidden = None;
                self.hints = Default::default();
            }
        }
    }

    /// The server took us out of a room.
    pub(super) fn left(&mut self, room_id: &str) {
        if self.room.as_ref().is_some_and(|r| r.id == room_id) {
            self.room = None;
        }
    }

    /// A full snapshot of our room.
    pub(super) fn snapshot(&mut self, room_id: &str, snapshot: RoomSnapshot) {
        let Some(room) = &mut self.room else { return };
        if room.id != room_id {
            return;
        }
        let was_over = room.result.is_some();
        room.apply_snapshot(snapshot);
        if !was_over || room.result.is_none() {
            self.result_dismissed = false;
        }
        self.bg = None;
        self.anims.clear();
        self.forbidden = None;
    }

    /// One numbered event in our room.
    pub(super) fn event(&mut self, room_id: &str, seq: u64, event: RoomEvent, toasts: &mut Toasts) {
        let Some(room) = &mut self.room else { return };
        if room.id != room_id {
            return;
        }
        for update in room.apply_event(seq, event) {
            match update {
                RoomUpdate::Notice(text) => toasts.push(text),
                RoomUpdate::Animate { side, start, play } => self.queue_anim(side, start, play),
            }
        }
        if self.room.as_ref().is_some_and(|r| r.result.is_none()) {
            self.result_dismissed = false;
        }
    }

    /// The server refused a request: a play we sent is rebuilt, and a join
    /// that failed (room gone, full...) takes us back to the lobby.
    pub(super) fn refused(&mut self) {
        if let Some(turn) = &mut self.bg
            && turn.sent
        {
            turn.key = usize::MAX;
        }
        if self.room.as_ref().is_some_and(|r| r.summary.is_none()) {
            self.room = None;
        }
    }

    /// Asks for a snapshot when the room's events had a gap.
    pub(super) fn sync(&mut self, requests: &mut Requests) {
        if let Some(room) = &mut self.room
            && room.needs_sync
            && room.summary.is_some()
        {
            room.needs_sync = false;
            let room_id = room.id.clone();
            requests.send(ClientMessage::Sync { room_id });
        }
    }

    /// The move list, rebuilt when the record has grown or shrunk, or the
    /// language changed.
    pub(super) fn move_lines(&mut self) -> &[String] {
        let record = self.room.as_ref().and_then(|r| r.record());
        let len = record.map_or(0, GameRecord::len);
        let locale = rust_i18n::locale().to_string();
        if self.moves.0 != len
            || (len > 0 && self.moves.1.is_empty())
            || self.moves_locale != locale
        {
            self.moves = (
                len,
                record.map(crate::replay::record_lines).unwrap_or_default(),
            );
            self.moves_locale = locale;
        }
        &self.moves.1
    }

    /// Shows the position after `n` actions instead of the live one, or the
    /// live one again (`None`).
    pub(super) fn look_back(&mut self, n: Option<usize>) {
        let record = self.room.as_ref().and_then(|r| r.record());
        self.look_back = match (n, record) {
            (Some(n), Some(record)) if n < record.len() => {
                crate::replay::state_after(record, n).map(|g| (n, g))
            }
            _ => None,
        };
    }

    /// Whether something on screen changes with time (a clock, a grace period).
    pub(super) fn ticking(&self) -> bool {
        self.room
            .as_ref()
            .is_some_and(|r| r.clock.is_some() || r.grace_until.iter().any(Option::is_some))
    }

    /// Our side when we sit at a Backgammon board.
    pub(super) fn my_side(&self) -> Option<Side> {
        let room = self.room.as_ref()?;
        room.is_player().then_some(())?;
        room.seat.map(side_of)
    }

    /// The side whose view the Backgammon board shows: ours when seated, else
    /// White, or Black when flipped.
    pub(super) fn bg_viewer(&self) -> Side {
        match self.my_side() {
            Some(side) => side,
            None if self.flipped => Side::Black,
            None => Side::White,
        }
    }

    /// Queues an opponent's play for animation (our own plays are not animated).
    fn queue_anim(&mut self, side: Side, start: Position, play: Play) {
        if Some(side) == self.my_side() {
            return;
        }
        let dice = self.room.as_ref().and_then(|r| match r.record() {
            Some(GameRecord::Backgammon { actions, .. }) => {
                actions.iter().rev().find_map(|a| match a {
                    BgAction::Roll { dice, .. } => Some(*dice),
                    BgAction::OpeningRoll { white, black } => Some([*white, *black]),
                    _ => None,
                })
            }
            _ => None,
        });
        if let Some(anim) = Anim::new(side, start, play, dice) {
            self.anims.push_back(anim);
        }
    }

    /// Keeps the play builder in step with the game: one exists exactly
    /// while it is our turn to move a checker.
    pub(super) fn sync_bg_turn(&mut self) {
        let want = (|| {
            let room = self.room.as_ref()?;
            let me = self.my_side()?;
            let game = room.backgammon()?;
            let key = room.record()?.len();
            match game.phase() {
                GamePhase::Moving { side, dice } if *side == me => Some((
                    key,
                    game.position_for(me),
                    *dice,
                    game.config().doubles_twice,
                )),
                _ => None,
            }
        })();
        match want {
            None => self.bg = None,
            Some((key, pos, dice, twice)) => {
                if self.bg.as_ref().is_none_or(|b| b.key != key) {
                    self.bg = Some(BgTurn::new(key, TurnBuilder::new(pos, dice, twice)));
                }
            }
        }
    }
}
