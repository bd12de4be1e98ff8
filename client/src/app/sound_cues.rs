//! [`SoundCues`]: which [`Sound`]s the room's changes call for. Each frame
//! it compares the room with what it saw the frame before: a new stone or
//! play (a hit when a checker went to the bar), our turn coming, our clock
//! running low, the game ending. Joining a room, or a snapshot of it,
//! sets what it compares with and sounds nothing.

use tabula_shared::backgammon::GamePhase;
use tabula_shared::game::LiveGame;
use tabula_shared::gomoku::GomokuAction;
use tabula_shared::protocol::{BgAction, GameRecord, RoomId};

use crate::room::{Room, seat_index};
use crate::sound::{LOW_TIME_MS, Sound};

/// What the room looked like when last seen.
#[derive(Debug, Default)]
pub(super) struct SoundCues {
    /// The room seen (None: no room).
    room: Option<RoomId>,
    /// How many actions its record had.
    actions: usize,
    /// Checkers on the bar (Backgammon), both sides together: a play that
    /// adds one hit.
    on_bar: u32,
    /// It was our turn.
    my_turn: bool,
    /// The game was over (a game of a Backgammon match included).
    ended: bool,
    /// Our clock has already sounded low on this turn.
    warned: bool,
}

impl SoundCues {
    /// The sounds for what changed in `room` since the last call.
    pub(super) fn observe(&mut self, room: Option<&Room>) -> Vec<Sound> {
        let Some(room) = room else {
            *self = SoundCues::default();
            return Vec::new();
        };
        let actions = room.record().map_or(0, GameRecord::len);
        let on_bar = match room.live() {
            Some(LiveGame::Backgammon(g)) => g.board().bar.iter().map(|&n| u32::from(n)).sum(),
            _ => 0,
        };
        let mine = room.is_player().then_some(room.seat).flatten();
        let my_turn = mine.is_some() && room.to_act_seat() == mine;
        // A game of a match ends before the next one begins: that end
        // sounds too, not only the match's.
        let game_over = match room.live() {
            Some(LiveGame::Backgammon(g)) => matches!(
                g.phase(),
                GamePhase::GameOver { .. } | GamePhase::MatchOver { .. }
            ),
            _ => false,
        };
        let ended = room.result.is_some() || game_over;
        let low = match (mine, room.clock_now()) {
            (Some(seat), Some((ms, Some(running)))) if running == seat => {
                Some(ms[seat_index(seat)] < LOW_TIME_MS)
            }
            _ => None,
        };
        let mut out = Vec::new();
        if self.room.as_ref() == Some(&room.id) {
            if actions > self.actions && moved(room.record(), self.actions) {
                out.push(if on_bar > self.on_bar {
                    Sound::Hit
                } else {
                    Sound::Move
                });
            }
            if ended && !self.ended {
                out.push(Sound::GameEnd);
            } else if my_turn && !self.my_turn {
                out.push(Sound::YourTurn);
            }
            if low == Some(true) && !self.warned {
                out.push(Sound::LowTime);
            }
        }
        *self = SoundCues {
            room: Some(room.id.clone()),
            actions,
            on_bar,
            my_turn,
            ended,
            warned: match low {
                Some(true) => true,
                // A warning is once a turn: it may sound again when our
                // clock runs low once more after the opponent's turn.
                None => false,
                Some(false) => self.warned && my_turn,
            },
        };
        out
    }
}

/// Whether the actions of `record` after the first `from` place a stone or
/// move a checker.
fn moved(record: Option<&GameRecord>, from: usize) -> bool {
    match record {
        Some(GameRecord::Gomoku { actions, .. }) => actions
            .iter()
            .skip(from)
            .any(|a| matches!(a, GomokuAction::Place { .. })),
        Some(GameRecord::Backgammon { actions, .. }) => actions
            .iter()
            .skip(from)
            .any(|a| matches!(a, BgAction::Play { play, .. } if !play.moves.is_empty())),
        None => false,
    }
}
