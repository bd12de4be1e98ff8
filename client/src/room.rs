//! The client's copy of one room: summary, record, replayed game, clock,
//! offers and chat, kept up to date from snapshots and numbered events.
//!
//! Nothing here draws or talks to the network; [`Room::apply_event`] says
//! what the UI should know (notices, moves to animate) and sets
//! [`Room::needs_sync`] when the local copy cannot be trusted any more.

use rust_i18n::t;
use std::time::Duration;
use web_time::Instant;

use tabula_shared::backgammon::{BgMatch, GamePhase, Play, Position, ResignKind, Side};
use tabula_shared::game::{Game, LiveGame};
use tabula_shared::protocol::{
    ActionRecord, AiLevel, BgAction, ChatLine, ClockState, GameOptions, GameRecord, GameResult,
    OfferKind, PendingOffer, PlayerInfo, RatingChange, Role, RoomEvent, RoomId, RoomSnapshot,
    RoomStatus, RoomSummary,
};
use tabula_shared::seat::Seat;

/// What the UI should do after an event.
#[derive(Debug, Clone, PartialEq)]
pub enum RoomUpdate {
    /// Show a short notice.
    Notice(String),
    /// Animate a Backgammon play made by `side` from `start` (seen from `side`).
    Animate {
        /// Who moved.
        side: Side,
        /// The position before the play, from `side`'s view.
        start: Position,
        /// The play.
        play: Play,
    },
}

/// One room the client is in.
#[derive(Debug, Clone)]
pub struct Room {
    /// The room's id.
    pub id: RoomId,
    /// Player or spectator.
    pub role: Role,
    /// Our seat, when we play.
    pub seat: Option<Seat>,
    /// Options, seats and status, once the snapshot arrived.
    pub summary: Option<RoomSummary>,
    /// The current game: its record and the rules state replayed from it
    /// (`None` before the first snapshot, or when the server's record did
    /// not replay here: a sync is asked for).
    pub game: Option<Game>,
    /// The result, once the game is over.
    pub result: Option<GameResult>,
    /// The clock and when it was received (to count down locally).
    pub clock: Option<(ClockState, Instant)>,
    /// Requests waiting for an answer.
    pub offers: Vec<PendingOffer>,
    /// Chat, oldest first.
    pub chat: Vec<ChatLine>,
    /// The private room's join code (players only).
    pub code: Option<String>,
    /// Whether spectator chat is muted.
    pub spectators_muted: bool,
    /// The last event number applied.
    pub seq: u64,
    /// Set when the local copy went wrong; the app asks for a snapshot.
    pub needs_sync: bool,
    /// When each seat's reconnect grace period ends, for a dropped player.
    pub grace_until: [Option<Instant>; 2],
    /// The stored game's id, from the `game_over` event (for replay and export).
    pub game_id: Option<String>,
    /// Rated rooms: how both ratings moved, from the `game_over` event.
    pub ratings: Vec<RatingChange>,
}

/// Index of a seat in two-element arrays.
pub fn seat_index(seat: Seat) -> usize {
    match seat {
        Seat::First => 0,
        Seat::Second => 1,
    }
}

pub use tabula_shared::seat::side_of;

impl Room {
    /// A room we just joined; the snapshot follows.
    pub fn new(id: RoomId, role: Role, seat: Option<Seat>) -> Room {
        Room {
            id,
            role,
            seat,
            summary: None,
            game: None,
            result: None,
            clock: None,
            offers: Vec::new(),
            chat: Vec::new(),
            code: None,
            spectators_muted: false,
            seq: 0,
            needs_sync: false,
            grace_until: [None, None],
            game_id: None,
            ratings: Vec::new(),
        }
    }

    /// Whether we sit at the board (and may act).
    pub fn is_player(&self) -> bool {
        self.role == Role::Player && self.seat.is_some()
    }

    /// Replaces everything with a snapshot.
    pub fn apply_snapshot(&mut self, snapshot: RoomSnapshot) {
        let now = Instant::now();
        self.grace_until = [None, None];
        for s in &snapshot.summary.seats {
            if let Some(ms) = s.grace_ms {
                self.grace_until[seat_index(s.seat)] = Some(now + Duration::from_millis(ms));
            }
        }
        self.summary = Some(snapshot.summary);
        self.seq = snapshot.seq;
        self.set_record(snapshot.record);
        self.result = snapshot.result;
        if self.result.is_none() {
            // A new game: the last one's id and ratings belong to the past.
            self.game_id = None;
            self.ratings.clear();
        }
        self.clock = snapshot.clock.map(|c| (c, now));
        self.offers = snapshot.offers;
        self.chat = snapshot.chat;
        self.code = snapshot.code.or(self.code.take());
        self.spectators_muted = snapshot.spectators_muted;
        self.needs_sync = false;
    }

    fn set_record(&mut self, record: GameRecord) {
        self.game = Game::from_record(record).ok();
        if self.game.is_none() {
            self.needs_sync = true;
        }
    }

    /// The current game's record.
    pub fn record(&self) -> Option<&GameRecord> {
        self.game.as_ref().map(Game::record)
    }

    /// The rules state of the current game.
    pub fn live(&self) -> Option<&LiveGame> {
        self.game.as_ref().map(Game::live)
    }

    /// Applies one numbered event. Old numbers are ignored; a gap asks for a
    /// snapshot instead of guessing.
    pub fn apply_event(&mut self, seq: u64, event: RoomEvent) -> Vec<RoomUpdate> {
        if self.summary.is_none() {
            // Events before the first snapshot (a resume with `since`) are
            // fine only if they continue where we were.
            if self.game.is_none() {
                self.needs_sync = true;
                return Vec::new();
            }
        }
        if seq <= self.seq {
            return Vec::new();
        }
        if seq > self.seq + 1 {
            self.needs_sync = true;
            return Vec::new();
        }
        self.seq = seq;
        let mut updates = Vec::new();
        match event {
            RoomEvent::Action { action, clock, .. } => {
                if let Some(c) = clock {
                    self.clock = Some((c, Instant::now()));
                }
                self.apply_action(action, &mut updates);
            }
            RoomEvent::SeatTaken { seat, player } => {
                updates.push(RoomUpdate::Notice(
                    t!("notice.sat_down", name = player.name).into(),
                ));
                if let Some(s) = self.seat_mut(seat) {
                    s.player = Some(player);
                    s.connected = true;
                    s.grace_ms = None;
                }
            }
            RoomEvent::SeatLeft { seat } => {
                if let Some(s) = self.seat_mut(seat) {
                    s.player = None;
                    s.connected = false;
                }
            }
            RoomEvent::GameStarted { record, clock, .. } => {
                self.set_record(record);
                self.clock = clock.map(|c| (c, Instant::now()));
                self.result = None;
                self.game_id = None;
                self.ratings.clear();
                self.offers.clear();
                if let Some(s) = &mut self.summary {
                    s.status = RoomStatus::Playing;
                }
                updates.push(RoomUpdate::Notice(t!("notice.started").into()));
            }
            RoomEvent::PlayerConnected { seat } => {
                self.grace_until[seat_index(seat)] = None;
                if let Some(s) = self.seat_mut(seat) {
                    s.connected = true;
                    s.grace_ms = None;
                }
            }
            RoomEvent::PlayerDisconnected { seat, grace_ms } => {
                self.grace_until[seat_index(seat)] =
                    Some(Instant::now() + Duration::from_millis(grace_ms));
                if let Some(s) = self.seat_mut(seat) {
                    s.connected = false;
                    s.grace_ms = Some(grace_ms);
                }
            }
            RoomEvent::OfferMade { offer } => {
                if Some(offer.by) != self.seat {
                    updates.push(RoomUpdate::Notice(offer_made_text(
                        &offer,
                        &self.player_name(offer.by),
                    )));
                }
                self.offers.retain(|o| o.kind != offer.kind);
                self.offers.push(offer);
            }
            RoomEvent::OfferDeclined { offer } => {
                self.offers.retain(|o| o.kind != offer.kind);
                if Some(offer.by) == self.seat {
                    updates.push(RoomUpdate::Notice(offer_declined_text(&offer)));
                }
            }
            RoomEvent::TookBack { count, clock, .. } => {
                self.offers.retain(|o| o.kind != OfferKind::Takeback);
                // The server's clocks after the takeback; from a server that
                // does not send them, none is taken as running (the seat to
                // act after the takeback is, below).
                self.clock = match clock {
                    Some(c) => Some((c, Instant::now())),
                    None => self
                        .clock
                        .take()
                        .map(|(c, at)| (freeze(c, at), Instant::now())),
                };
                if let Some(game) = &mut self.game {
                    let keep = game.len().saturating_sub(count as usize);
                    if game.truncate(keep).is_err() {
                        self.needs_sync = true;
                    }
                }
                updates.push(RoomUpdate::Notice(
                    t!("notice.taken_back", count = count).into(),
                ));
            }
            RoomEvent::GameOver {
                result,
                game_id,
                ratings,
                dice,
            } => {
                // The revealed proof replaces the one without the server
                // seed, so the record can be checked (`crate::dice_check`).
                if let Some(proof) = dice
                    && let Some(slot) = self.game.as_mut().and_then(Game::dice_mut)
                {
                    *slot = Some(proof);
                }
                self.result = Some(result);
                self.game_id = game_id;
                self.ratings = ratings;
                self.offers.clear();
                if let Some(s) = &mut self.summary {
                    s.status = RoomStatus::Finished;
                }
                if let Some((c, at)) = &mut self.clock {
                    *c = freeze(*c, *at);
                    *at = Instant::now();
                }
            }
            RoomEvent::RematchStarted => {
                // The server swapped the seats; so do we.
                self.seat = self.seat.map(Seat::other);
                self.result = None;
                self.game_id = None;
                self.ratings.clear();
                self.offers.clear();
                updates.push(RoomUpdate::Notice(t!("notice.rematch").into()));
            }
            RoomEvent::Spectators { count } => {
                if let Some(s) = &mut self.summary {
                    s.spectators = count;
                }
            }
            RoomEvent::Chat { line } => {
                self.chat.push(line);
                if self.chat.len() > 200 {
                    self.chat.remove(0);
                }
            }
            RoomEvent::SpectatorsMuted { muted } => self.spectators_muted = muted,
            // The client sees the pass in the roll itself (the rules replay
            // it) and says so there; the event is for clients without rules.
            RoomEvent::Passed { .. } => {}
            RoomEvent::DiceSeed { seat, seed } => {
                if let Some(Some(proof)) = self.game.as_mut().and_then(Game::dice_mut) {
                    proof.player_seeds[side_of(seat).index()] = seed;
                }
            }
        }
        updates
    }

    fn apply_action(&mut self, action: ActionRecord, updates: &mut Vec<RoomUpdate>) {
        let Some(game) = &mut self.game else {
            self.needs_sync = true;
            return;
        };
        let before = match (game.live(), &action) {
            (
                LiveGame::Backgammon(game),
                ActionRecord::Backgammon(BgAction::Play { side, play }),
            ) => Some(RoomUpdate::Animate {
                side: *side,
                start: game.position_for(*side),
                play: play.clone(),
            }),
            _ => None,
        };
        // The rules check the action before it enters the record: one they
        // refuse means the client is out of step, and asks for a snapshot.
        if game.apply(action.clone()).is_err() {
            self.needs_sync = true;
            return;
        }
        let live = game.live();
        // A new action withdraws a pending takeback or draw.
        self.offers.retain(|o| o.kind == OfferKind::Rematch);
        updates.extend(before);
        // A game of the match ended (a dropped double, an accepted
        // resignation, the last checker off): say so, as the next game
        // starts at once.
        if let LiveGame::Backgammon(game) = live
            && matches!(game.phase(), GamePhase::GameOver { .. })
            && let Some(text) = game_end_text(game)
        {
            updates.push(RoomUpdate::Notice(text));
        }
        if let (LiveGame::Backgammon(game), ActionRecord::Backgammon(BgAction::Roll { side, dice })) =
            (live, &action)
            && *game.phase()
                == (GamePhase::AwaitingRoll {
                    side: side.opponent(),
                })
        {
            updates.push(RoomUpdate::Notice(
                t!(
                    "notice.no_legal_move",
                    side = side_name(*side),
                    a = dice[0],
                    b = dice[1]
                )
                .into_owned(),
            ));
        }
    }

    fn seat_mut(&mut self, seat: Seat) -> Option<&mut tabula_shared::protocol::SeatInfo> {
        self.summary
            .as_mut()?
            .seats
            .iter_mut()
            .find(|s| s.seat == seat)
    }

    /// The name of whoever sits in `seat`, or "(empty)".
    pub fn player_name(&self, seat: Seat) -> String {
        self.summary
            .as_ref()
            .and_then(|s| s.seats.iter().find(|i| i.seat == seat))
            .and_then(|i| i.player.as_ref())
            .map_or_else(|| t!("room.empty").into_owned(), display_name)
    }

    /// Whether the opponent is the built-in AI or one of the host's engines.
    pub fn against_ai(&self) -> bool {
        use tabula_shared::protocol::Opponent;
        self.summary.as_ref().is_some_and(|s| {
            matches!(
                s.options.opponent,
                Opponent::Ai { .. } | Opponent::Engine { .. }
            )
        })
    }

    /// The game options, once known.
    pub fn game(&self) -> Option<&GameOptions> {
        self.summary.as_ref().map(|s| &s.options.game)
    }

    /// Milliseconds left on each seat's clock now.
    pub fn clock_now(&self) -> Option<([u64; 2], Option<Seat>)> {
        let (c, at) = self.clock.as_ref()?;
        // Action events carry the clock as it was stopped for the mover;
        // the server then starts the next player's clock without saying so.
        // No clock runs before the game has started (the room still waits
        // for an opponent) or after it is over.
        let waiting = self
            .summary
            .as_ref()
            .is_some_and(|s| s.status == RoomStatus::Waiting);
        let running = if self.result.is_some() || waiting {
            None
        } else {
            c.running.or_else(|| self.to_act_seat())
        };
        let mut ms = c.remaining_ms;
        if let Some(seat) = running {
            let i = seat_index(seat);
            ms[i] = ms[i].saturating_sub(at.elapsed().as_millis() as u64);
        }
        Some((ms, running))
    }

    /// The seat that must act now, if the game is running.
    pub fn to_act_seat(&self) -> Option<Seat> {
        if self.result.is_some() {
            return None;
        }
        self.game.as_ref().and_then(Game::to_act)
    }

    /// The Backgammon match, if this room plays one.
    pub fn backgammon(&self) -> Option<&BgMatch> {
        self.game.as_ref().and_then(Game::backgammon)
    }

    /// The pending offer of `kind` made by the other player, if any.
    pub fn offer_to_answer(&self) -> Option<PendingOffer> {
        let me = self.seat?;
        self.offers.iter().copied().find(|o| o.by != me)
    }
}

fn freeze(c: ClockState, at: Instant) -> ClockState {
    let mut ms = c.remaining_ms;
    if let Some(seat) = c.running {
        let i = seat_index(seat);
        ms[i] = ms[i].saturating_sub(at.elapsed().as_millis() as u64);
    }
    ClockState {
        remaining_ms: ms,
        running: None,
    }
}

/// The name shown for a player: an AI by its level in the interface's
/// language ("Intermediate AI", "中级 AI"), a person as they named
/// themselves.
pub fn display_name(player: &PlayerInfo) -> String {
    // The built-in AI (ids `ai-<level>`) is named by its level in the
    // interface's language; a host's engine (an AI seat too) by its name.
    let Some(level) = player.ai.filter(|_| player.id.starts_with("ai-")) else {
        if player.bot {
            return t!("board.bot_name", name = player.name).into_owned();
        }
        return player.name.clone();
    };
    let level = match level {
        AiLevel::Beginner => t!("level.beginner"),
        AiLevel::Casual => t!("level.casual"),
        AiLevel::Intermediate => t!("level.intermediate"),
        AiLevel::Advanced => t!("level.advanced"),
        AiLevel::Expert => t!("level.expert"),
    };
    t!("board.ai_level", level = level).into_owned()
}

/// A readable name for an offer.
pub fn offer_name(kind: OfferKind) -> String {
    match kind {
        OfferKind::Draw => t!("offer.a_draw"),
        OfferKind::Takeback => t!("offer.a_takeback"),
        OfferKind::Rematch => t!("offer.a_rematch"),
        OfferKind::Resign => t!("offer.a_resignation"),
    }
    .into_owned()
}

/// What a resignation gives up: "a single game", "a gammon", "a backgammon".
fn resign_value(offer: &PendingOffer) -> String {
    match offer.value.unwrap_or(ResignKind::Single) {
        ResignKind::Single => t!("moves.a_single"),
        ResignKind::Gammon => t!("moves.a_gammon"),
        ResignKind::Backgammon => t!("moves.a_backgammon"),
    }
    .into_owned()
}

/// The other player's offer, as told to us: "Bob asks for a draw", "Bob
/// offers to resign a gammon".
pub fn offer_made_text(offer: &PendingOffer, who: &str) -> String {
    match offer.kind {
        OfferKind::Resign => {
            t!("offer.offers_resign", who = who, what = resign_value(offer)).into_owned()
        }
        kind => t!("offer.asks_for", who = who, what = offer_name(kind)).into_owned(),
    }
}

/// Our own offer, waiting for an answer.
pub fn own_offer_text(offer: &PendingOffer) -> String {
    match offer.kind {
        OfferKind::Resign => t!("offer.own_resign", what = resign_value(offer)).into_owned(),
        kind => t!("offer.own_ask", what = offer_name(kind)).into_owned(),
    }
}

/// Our own offer, declined (or withdrawn by a move).
pub fn offer_declined_text(offer: &PendingOffer) -> String {
    match offer.kind {
        OfferKind::Draw => t!("offer.draw_declined").into_owned(),
        OfferKind::Takeback => t!("offer.takeback_declined").into_owned(),
        OfferKind::Rematch => t!("offer.rematch_declined").into_owned(),
        OfferKind::Resign => t!("offer.resign_refused", what = resign_value(offer)).into_owned(),
    }
}

/// The last finished game of a Backgammon match and the score after it:
/// "White wins a gammon (2 points): the double was dropped. Score: White 2 ·
/// Black 0". None before the first game ends.
pub fn game_end_text(game: &BgMatch) -> Option<String> {
    use tabula_shared::backgammon::{EndReason, GameResultKind};
    let last = game.last_result()?;
    let kind = match last.kind {
        GameResultKind::Single => t!("moves.a_single"),
        GameResultKind::Gammon => t!("moves.a_gammon"),
        GameResultKind::Backgammon => t!("moves.a_backgammon"),
    };
    let how = match last.reason {
        EndReason::Dropped => t!("notice.end_dropped"),
        EndReason::Resigned => t!("notice.end_resigned"),
        EndReason::BearOff => t!("notice.end_borne_off"),
    };
    let key = if last.points == 1 {
        "notice.game_end_point"
    } else {
        "notice.game_end_points"
    };
    let score = game.score();
    Some(
        t!(
            key,
            side = side_name(last.winner),
            kind = kind,
            points = last.points,
            how = how,
            white = score[0],
            black = score[1]
        )
        .into_owned(),
    )
}

/// "White" or "Black".
pub fn side_name(side: Side) -> String {
    match side {
        Side::White => t!("side.white"),
        Side::Black => t!("side.black"),
    }
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_shared::gomoku::{GomokuAction, GomokuConfig, Point};
    use tabula_shared::protocol::{
        ColourChoice, Opponent, RoomOptions, RoomSnapshot, RoomSummary, SeatInfo, Turn,
    };

    #[test]
    fn a_bot_account_is_labelled_as_a_bot() {
        let player = |bot| PlayerInfo {
            id: "p-1".into(),
            name: "Deep Gammon".into(),
            ai: None,
            bot,
        };
        assert_eq!(display_name(&player(false)), "Deep Gammon");
        assert_eq!(display_name(&player(true)), "Deep Gammon [bot]");
    }

    #[test]
    fn offers_read_as_sentences() {
        let resign = PendingOffer {
            kind: OfferKind::Resign,
            by: Seat::Second,
            value: Some(ResignKind::Gammon),
        };
        assert_eq!(
            offer_made_text(&resign, "Bob"),
            "Bob offers to resign a gammon"
        );
        assert_eq!(
            own_offer_text(&resign),
            "You offered to resign a gammon; waiting…"
        );
        assert_eq!(
            offer_declined_text(&resign),
            "Your resignation of a gammon was refused: play on"
        );
        let draw = PendingOffer::new(OfferKind::Draw, Seat::First);
        assert_eq!(offer_made_text(&draw, "Ada"), "Ada asks for a draw");
        assert_eq!(offer_declined_text(&draw), "Your draw offer was declined");
    }

    fn snapshot() -> RoomSnapshot {
        let config = GomokuConfig::default();
        let options = RoomOptions {
            game: GameOptions::Gomoku(config),
            opponent: Opponent::Human,
            colour: ColourChoice::Black,
            time_control: None,
            private: false,
            takebacks: true,
            rated: false,
            hints: false,
        };
        RoomSnapshot {
            summary: RoomSummary {
                room_id: "r-1".into(),
                options,
                seats: vec![
                    SeatInfo {
                        seat: Seat::First,
                        player: None,
                        connected: true,
                        grace_ms: None,
                    },
                    SeatInfo {
                        seat: Seat::Second,
                        player: None,
                        connected: true,
                        grace_ms: None,
                    },
                ],
                status: RoomStatus::Playing,
                spectators: 0,
            },
            seq: 3,
            record: GameRecord::Gomoku {
                config,
                actions: vec![],
            },
            result: None,
            clock: None,
            offers: vec![],
            spectators_muted: false,
            chat: vec![],
            code: None,
            turn: Turn::nothing(),
            your_seat: None,
        }
    }

    fn place(seat: Seat, x: u8, y: u8) -> RoomEvent {
        RoomEvent::Action {
            action: ActionRecord::Gomoku(GomokuAction::Place {
                seat,
                point: Point::new(x, y),
            }),
            clock: None,
            turn: None,
        }
    }

    fn stones(room: &Room) -> usize {
        match room.live() {
            Some(LiveGame::Gomoku(g)) => g.moves().len(),
            _ => usize::MAX,
        }
    }

    #[test]
    fn actions_apply_and_takebacks_truncate() {
        let mut room = Room::new("r-1".into(), Role::Player, Some(Seat::First));
        room.apply_snapshot(snapshot());
        room.apply_event(4, place(Seat::First, 7, 7));
        room.apply_event(5, place(Seat::Second, 8, 8));
        assert_eq!(stones(&room), 2);
        // A repeated event is ignored.
        room.apply_event(5, place(Seat::Second, 8, 8));
        assert_eq!(stones(&room), 2);
        room.apply_event(
            6,
            RoomEvent::TookBack {
                count: 2,
                turn: None,
                clock: None,
            },
        );
        assert_eq!(stones(&room), 0);
        assert!(!room.needs_sync);
    }

    /// After a takeback the clock that runs is the one of the seat to act
    /// then, as the server says, not the one that ran before it.
    #[test]
    fn after_a_takeback_the_clock_of_the_seat_to_act_runs() {
        let clock = |running| ClockState {
            remaining_ms: [600_000, 600_000],
            running,
        };
        let with_clock = |seat, x, y, running| match place(seat, x, y) {
            RoomEvent::Action { action, turn, .. } => RoomEvent::Action {
                action,
                clock: Some(clock(running)),
                turn,
            },
            other => other,
        };
        let mut room = Room::new("r-1".into(), Role::Player, Some(Seat::First));
        room.apply_snapshot(snapshot());
        room.apply_event(4, with_clock(Seat::First, 7, 7, Some(Seat::Second)));
        room.apply_event(5, with_clock(Seat::Second, 8, 8, Some(Seat::First)));
        assert_eq!(room.clock_now().map(|c| c.1), Some(Some(Seat::First)));
        let took_back = |clock| RoomEvent::TookBack {
            count: 1,
            turn: None,
            clock,
        };
        // White takes its stone back: White is to act, and White's clock runs.
        room.apply_event(6, took_back(Some(clock(Some(Seat::Second)))));
        assert_eq!(room.clock_now().map(|c| c.1), Some(Some(Seat::Second)));
        // From a server that sends no clock, the seat to act is taken.
        room.apply_event(7, with_clock(Seat::Second, 9, 9, Some(Seat::First)));
        room.apply_event(8, took_back(None));
        assert_eq!(room.clock_now().map(|c| c.1), Some(Some(Seat::Second)));
    }

    #[test]
    fn a_rematch_swaps_our_seat_as_it_swaps_the_server_s() {
        let mut room = Room::new("r-1".into(), Role::Player, Some(Seat::First));
        room.apply_snapshot(snapshot());
        room.apply_event(4, RoomEvent::RematchStarted);
        assert_eq!(room.seat, Some(Seat::Second));
        assert!(room.is_player());
        let mut watcher = Room::new("r-1".into(), Role::Spectator, None);
        watcher.apply_snapshot(snapshot());
        watcher.apply_event(4, RoomEvent::RematchStarted);
        assert_eq!(watcher.seat, None);
    }

    #[test]
    fn gaps_and_illegal_actions_ask_for_a_snapshot() {
        let mut room = Room::new("r-1".into(), Role::Spectator, None);
        room.apply_snapshot(snapshot());
        room.apply_event(5, place(Seat::First, 7, 7));
        assert!(room.needs_sync, "event 4 is missing");
        let mut room = Room::new("r-1".into(), Role::Spectator, None);
        room.apply_snapshot(snapshot());
        room.apply_event(4, place(Seat::Second, 7, 7));
        assert!(room.needs_sync, "not second's turn: the copy is wrong");
    }
}
