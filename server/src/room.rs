//! A room: one actor task that owns one game.
//!
//! Connections send it [`RoomCommand`]s; it alone changes the game. Every
//! change is saved to the store first, then sent as a numbered event to the
//! players and spectators. AI seats think on the blocking pool and their
//! answers come back as commands, through the same path as a human move.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};
use tabula_ai as ai;
use tabula_shared::backgammon::{GamePhase, ResignKind};
use tabula_shared::gomoku::{GomokuAction, Outcome, Seat};
use tabula_shared::protocol::{
    ActionRecord, AiLevel, BgAction, ChatLine, ClientMessage, ClockState, ColourChoice, EndReason,
    ErrorCode, GameOptions, GameRecord, GameResult, LiveGame, OfferKind, Opponent, PendingOffer,
    PlayerAction, PlayerInfo, Role, RoomEvent, RoomId, RoomOptions, RoomSnapshot, RoomStatus,
    RoomSummary, SeatInfo, ServerFrame, ServerMessage,
};
use tabula_shared::protocol::{seat_of, side_of};
use tokio::sync::{mpsc, oneshot};
use tokio::time::sleep_until;
use tokio_tungstenite::tungstenite::Utf8Bytes;

use crate::outlet::{Outlet, SendError};
use crate::registry::{Identity, Shared};
use crate::store::{AppendedAction, FinishedGame};

/// A connection's id.
pub type ConnId = u64;

/// Who sent a request, and where to answer.
pub struct Caller {
    /// The connection.
    pub conn: ConnId,
    /// Its write side.
    pub tx: Outlet,
    /// The player behind it.
    pub identity: Arc<Identity>,
    /// Echoed in the reply.
    pub request_id: Option<u64>,
}

/// The connection a request came from and its `request_id`, for an answer
/// that is also an event.
type Reply = (ConnId, u64);

/// A pushed frame's text as the answer to request `id`: the same frame with
/// `request_id` first, exactly as [`ServerFrame::encode`] writes it.
fn with_request_id(pushed: &str, id: u64) -> String {
    let body = pushed.strip_prefix('{').unwrap_or(pushed);
    format!("{{\"request_id\":{id},{body}")
}

/// What a room can be asked.
pub enum RoomCommand {
    /// A client request about this room.
    Request {
        /// From whom.
        caller: Caller,
        /// What.
        message: ClientMessage,
    },
    /// A connection closed.
    Disconnected {
        /// Which.
        conn: ConnId,
    },
    /// The AI finished thinking.
    AiMove {
        /// Which request this answers (older answers are stale).
        generation: u64,
        /// Its decision.
        action: Option<PlayerAction>,
    },
    /// Save and stop.
    Shutdown {
        /// Answered once saved.
        done: oneshot::Sender<()>,
    },
}

/// How many recent events a room keeps for clients that resume with `since`.
const EVENT_LOG: usize = 512;
/// How many chat lines a snapshot carries.
const CHAT_LINES: usize = 50;
/// Longest chat line, in characters.
const CHAT_MAX: usize = 500;
/// How many unfinished games (waiting or running) one player may have seats in
/// when creating another room.
const MAX_GAMES_PER_PLAYER: usize = 20;
/// How far a restored room's event numbers jump past the saved one: more than
/// the unsaved events (rate-limited chat and presence) a room could number
/// between two saves.
const RESTORED_SEQ_GAP: u64 = 1 << 32;

/// A member of the room: a connection that plays or watches.
struct Member {
    tx: Outlet,
    player_id: String,
    seat: Option<Seat>,
}

/// A running Fischer clock.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Clock {
    remaining_ms: [u64; 2],
    increment_ms: u64,
    running: Option<Seat>,
    #[serde(skip, default = "Instant::now")]
    since: Instant,
}

impl Clock {
    fn view(&self) -> ClockState {
        let mut remaining_ms = self.remaining_ms;
        if let Some(seat) = self.running {
            let spent = self.since.elapsed().as_millis() as u64;
            let slot = &mut remaining_ms[idx(seat)];
            *slot = slot.saturating_sub(spent);
        }
        ClockState {
            remaining_ms,
            running: self.running,
        }
    }

    /// Stops the running clock, charging the time spent; adds the increment when `moved`.
    fn stop(&mut self, moved: bool) {
        if let Some(seat) = self.running.take() {
            let spent = self.since.elapsed().as_millis() as u64;
            let slot = &mut self.remaining_ms[idx(seat)];
            *slot = slot.saturating_sub(spent);
            if moved {
                *slot += self.increment_ms;
            }
        }
    }

    fn start(&mut self, seat: Option<Seat>) {
        self.running = seat;
        self.since = Instant::now();
    }

    fn deadline(&self) -> Option<(Seat, Instant)> {
        let seat = self.running?;
        Some((
            seat,
            self.since + Duration::from_millis(self.remaining_ms[idx(seat)]),
        ))
    }
}

/// What the store keeps of a room, enough to bring it back after a restart.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SavedRoom {
    id: RoomId,
    options: RoomOptions,
    code: Option<String>,
    seats: [Option<PlayerInfo>; 2],
    record: GameRecord,
    result: Option<GameResult>,
    seq: u64,
    clock: Option<Clock>,
    offers: Vec<PendingOffer>,
    started_at: i64,
    game_no: u32,
    game_started: bool,
    /// Whether the players muted spectator chat (absent in rooms saved
    /// before it was kept).
    #[serde(default)]
    spectators_muted: bool,
    /// Backgammon rolls a takeback cut, dealt again in order before any new
    /// roll (absent in rooms saved before they were kept).
    #[serde(default)]
    redeal: VecDeque<[u8; 2]>,
    /// Since when (Unix ms) nobody has been in the room, so that a restart
    /// does not give a deserted game a fresh idle time-out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    empty_since_ms: Option<i64>,
}

/// The room actor's state.
struct Room {
    shared: Arc<Shared>,
    id: RoomId,
    options: RoomOptions,
    code: Option<String>,
    seats: [Option<PlayerInfo>; 2],
    /// When a seated human went away (for the grace period); `None` while present.
    away_since: [Option<Instant>; 2],
    members: HashMap<ConnId, Member>,
    record: GameRecord,
    live: LiveGame,
    result: Option<GameResult>,
    seq: u64,
    log: VecDeque<(u64, Utf8Bytes)>,
    clock: Option<Clock>,
    offers: Vec<PendingOffer>,
    /// Set once both seats were filled and the first game began.
    game_started: bool,
    chat: VecDeque<ChatLine>,
    /// See [`SavedRoom::redeal`].
    redeal: VecDeque<[u8; 2]>,
    muted: bool,
    rng: StdRng,
    ai_seed: u64,
    ai_generation: u64,
    ai_thinking: bool,
    started_at: i64,
    game_no: u32,
    /// When the room last had nobody in it (for closing idle rooms).
    empty_since: Option<Instant>,
    rx: mpsc::Receiver<RoomCommand>,
    me: mpsc::WeakSender<RoomCommand>,
    /// What the lobby was last told, so an unchanged summary (most moves)
    /// costs no trip to the shared registry.
    published: Option<RoomSummary>,
}

type Refusal = (ErrorCode, String);

fn idx(seat: Seat) -> usize {
    match seat {
        Seat::First => 0,
        Seat::Second => 1,
    }
}

/// The instant a Unix time in ms was, as near as `Instant` can say; now
/// when unknown (or in the future).
fn instant_of_ms(ms: Option<i64>) -> Instant {
    let now = Instant::now();
    ms.and_then(|ms| {
        let ago = u64::try_from(now_ms() - ms).ok()?;
        now.checked_sub(Duration::from_millis(ago))
    })
    .unwrap_or(now)
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn refuse(code: ErrorCode, why: impl Into<String>) -> Refusal {
    (code, why.into())
}

fn ai_player(level: AiLevel) -> PlayerInfo {
    let name = match level {
        AiLevel::Beginner => "Beginner AI",
        AiLevel::Intermediate => "Intermediate AI",
        AiLevel::Expert => "Expert AI",
    };
    PlayerInfo {
        id: format!(
            "ai-{}",
            name.split(' ').next().unwrap_or("ai").to_lowercase()
        ),
        name: name.to_string(),
        ai: Some(level),
    }
}

/// A private room's join code: 8 characters from 32 (40 bits). With six
/// (30 bits), all of a full server's connections guessing at the per-connection
/// limit (5 wrong codes a minute) would find one of 30 live private rooms in
/// about six hours; with eight, in about eight months.
fn new_code(shared: &Shared, rng: &mut StdRng) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    loop {
        let code: String = (0..8)
            .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
            .collect();
        if !shared.code_taken(&code) {
            return code;
        }
    }
}

fn room_rng(shared: &Shared, salt: &str) -> StdRng {
    match shared.config.dice_seed {
        Some(seed) => {
            // Same seed, same salt: same dice.
            let mut h: u64 = seed ^ 0x9E37_79B9_7F4A_7C15;
            for b in salt.bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
            }
            StdRng::seed_from_u64(h)
        }
        None => rand::make_rng(),
    }
}

/// Creates a room for `creator` and starts its actor. The creator still has to join it.
///
/// # Errors
/// `limit_reached` when the server has too many rooms; `bad_request` for bad options.
pub fn create(
    shared: &Arc<Shared>,
    creator: &Identity,
    options: RoomOptions,
) -> Result<RoomId, Refusal> {
    if shared.room_count() >= shared.config.max_rooms {
        return Err(refuse(
            ErrorCode::LimitReached,
            "the server has too many rooms",
        ));
    }
    // Otherwise one client could fill the server with rooms it left.
    if shared.seated_rooms(&creator.id).len() >= MAX_GAMES_PER_PLAYER {
        return Err(refuse(
            ErrorCode::LimitReached,
            format!(
                "you already have {MAX_GAMES_PER_PLAYER} games going: finish or resign one first"
            ),
        ));
    }
    if let Some(tc) = options.time_control
        && (tc.initial_secs == 0 || tc.initial_secs > 24 * 3600 || tc.increment_secs > 3600)
    {
        return Err(refuse(
            ErrorCode::BadRequest,
            "time control: 1 s to 24 h, increment up to 1 h",
        ));
    }
    if options.rated && options.opponent != Opponent::Human {
        return Err(refuse(
            ErrorCode::BadRequest,
            "only games between two people can be rated",
        ));
    }
    if options.rated && !creator.registered {
        return Err(refuse(
            ErrorCode::NotRegistered,
            "only registered players can create a rated room; register or sign in first",
        ));
    }
    let record = GameRecord::new(&options.game);
    let live = record
        .replay()
        .map_err(|e| refuse(ErrorCode::BadRequest, format!("bad game options: {e}")))?;
    let id = format!("r-{}", &uuid::Uuid::new_v4().simple().to_string()[..10]);
    // With a fixed seed, the n-th room created always gets the same dice.
    let mut rng = room_rng(shared, &format!("room-{}", shared.next_room_number()));
    let code = options.private.then(|| new_code(shared, &mut rng));
    // Gomoku's first seat is black; Backgammon's first seat is white.
    let first_colour = match options.game {
        GameOptions::Gomoku(_) => ColourChoice::Black,
        GameOptions::Backgammon(_) => ColourChoice::White,
    };
    let creator_seat = match options.colour {
        ColourChoice::Random => {
            if rng.random_range(0..2) == 0 {
                Seat::First
            } else {
                Seat::Second
            }
        }
        colour if colour == first_colour => Seat::First,
        _ => Seat::Second,
    };
    let mut seats: [Option<PlayerInfo>; 2] = [None, None];
    if let Opponent::Ai { level } = options.opponent {
        seats[idx(creator_seat.other())] = Some(ai_player(level));
    }
    // The creator's seat is reserved for them; they take it when they join.
    seats[idx(creator_seat)] = Some(PlayerInfo {
        id: creator.id.clone(),
        name: creator.name.clone(),
        ai: None,
    });
    let saved = SavedRoom {
        id: id.clone(),
        clock: options.time_control.map(|tc| Clock {
            remaining_ms: [u64::from(tc.initial_secs) * 1000; 2],
            increment_ms: u64::from(tc.increment_secs) * 1000,
            running: None,
            since: Instant::now(),
        }),
        options,
        code,
        seats,
        record,
        result: None,
        seq: 0,
        offers: Vec::new(),
        started_at: now_ms(),
        game_no: 1,
        game_started: false,
        spectators_muted: false,
        redeal: VecDeque::new(),
        empty_since_ms: None,
    };
    let mut room = Room::from_saved(shared.clone(), saved, live, rng);
    // A creator who never joins does not hold the room open forever.
    room.away_since[idx(creator_seat)] = Some(Instant::now());
    // Saved before anything else happens in it, so that a crash does not lose
    // a room that is still waiting for its second player.
    tokio::spawn(async move {
        room.save().await;
        room.run().await;
    });
    Ok(id)
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
        if a.index as usize != saved.record.len() {
            continue;
        }
        let action: ActionRecord = serde_json::from_str(&a.action).map_err(|e| e.to_string())?;
        match (&mut saved.record, action) {
            (GameRecord::Gomoku { actions, .. }, ActionRecord::Gomoku(x)) => actions.push(x),
            (GameRecord::Backgammon { actions, .. }, ActionRecord::Backgammon(x)) => {
                actions.push(x)
            }
            _ => return Err("appended action is for the other game".into()),
        }
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
    let live = saved.record.replay().map_err(|e| e.to_string())?;
    let rng = room_rng(shared, &format!("{}:{}", saved.id, saved.record.len()));
    let id = saved.id.clone();
    let mut room = Room::from_saved(shared.clone(), saved, live, rng);
    let now = Instant::now();
    for i in 0..2 {
        if room.seats[i].as_ref().is_some_and(|p| p.ai.is_none()) {
            room.away_since[i] = Some(now);
        }
    }
    if let Some(clock) = &mut room.clock {
        // Time while the server was down is not charged.
        clock.since = now;
    }
    room.spawn();
    Ok(id)
}

impl Room {
    fn from_saved(shared: Arc<Shared>, saved: SavedRoom, live: LiveGame, rng: StdRng) -> Room {
        let (tx, rx) = mpsc::channel(4096);
        let ai_seed = shared.config.dice_seed.unwrap_or(0);
        let mut room = Room {
            id: saved.id,
            options: saved.options,
            code: saved.code,
            seats: saved.seats,
            away_since: [None, None],
            members: HashMap::new(),
            record: saved.record,
            live,
            result: saved.result,
            seq: saved.seq,
            log: VecDeque::new(),
            clock: saved.clock,
            offers: saved.offers,
            game_started: saved.game_started,
            chat: VecDeque::new(),
            redeal: saved.redeal,
            muted: saved.spectators_muted,
            rng,
            ai_seed,
            ai_generation: 0,
            ai_thinking: false,
            started_at: saved.started_at,
            game_no: saved.game_no,
            empty_since: Some(instant_of_ms(saved.empty_since_ms)),
            me: tx.downgrade(),
            rx,
            shared,
            published: None,
        };
        let summary = room.summary();
        room.shared
            .insert_room(summary.clone(), room.code.clone(), tx);
        room.published = Some(summary);
        room
    }

    fn spawn(self) {
        tokio::spawn(self.run());
    }

    async fn run(mut self) {
        self.after_change().await;
        loop {
            let deadline = self.next_deadline();
            let command = tokio::select! {
                command = self.rx.recv() => command,
                _ = sleep_until_opt(deadline) => {
                    if self.on_deadline().await {
                        break;
                    }
                    continue;
                }
            };
            let Some(command) = command else { break };
            match command {
                RoomCommand::Request { caller, message } => self.on_request(caller, message).await,
                RoomCommand::Disconnected { conn } => self.on_disconnect(conn).await,
                RoomCommand::AiMove { generation, action } => {
                    if generation == self.ai_generation {
                        self.ai_thinking = false;
                        self.on_ai_move(action).await;
                    }
                }
                RoomCommand::Shutdown { done } => {
                    self.save().await;
                    let _ = done.send(());
                    return;
                }
            }
            if self.should_close() {
                break;
            }
        }
        self.close().await;
    }

    // ----- views -----

    fn status(&self) -> RoomStatus {
        if self.result.is_some() {
            RoomStatus::Finished
        } else if self.started() {
            RoomStatus::Playing
        } else {
            RoomStatus::Waiting
        }
    }

    /// The game runs once both seats have been taken by someone present at least once.
    fn started(&self) -> bool {
        self.game_started
    }

    fn seat_infos(&self) -> Vec<SeatInfo> {
        [Seat::First, Seat::Second]
            .into_iter()
            .map(|seat| {
                let (connected, grace_ms) = self.seat_presence(seat);
                SeatInfo {
                    seat,
                    player: self.seats[idx(seat)].clone(),
                    connected,
                    grace_ms,
                }
            })
            .collect()
    }

    /// A seat's `connected` and `grace_ms`, as shown in [`SeatInfo`].
    fn seat_presence(&self, seat: Seat) -> (bool, Option<u64>) {
        let connected = match &self.seats[idx(seat)] {
            Some(p) if p.ai.is_some() => true,
            Some(_) => self.away_since[idx(seat)].is_none(),
            None => false,
        };
        let grace_ms = self.grace_left(seat).map(|d| d.as_millis() as u64);
        (connected, grace_ms)
    }

    fn grace_left(&self, seat: Seat) -> Option<Duration> {
        let since = self.away_since[idx(seat)]?;
        if self.status() != RoomStatus::Playing {
            return None;
        }
        Some(self.shared.config.grace.saturating_sub(since.elapsed()))
    }

    fn spectator_count(&self) -> u32 {
        self.members.values().filter(|m| m.seat.is_none()).count() as u32
    }

    fn summary(&self) -> RoomSummary {
        RoomSummary {
            room_id: self.id.clone(),
            options: self.options.clone(),
            seats: self.seat_infos(),
            status: self.status(),
            spectators: self.spectator_count(),
        }
    }

    fn snapshot(&self, for_player: bool) -> RoomSnapshot {
        RoomSnapshot {
            summary: self.summary(),
            seq: self.seq,
            record: self.record.clone(),
            result: self.result.clone(),
            clock: self.clock.as_ref().map(Clock::view),
            offers: self.offers.clone(),
            spectators_muted: self.muted,
            chat: self.chat.iter().cloned().collect(),
            code: if for_player { self.code.clone() } else { None },
        }
    }

    fn saved(&self) -> SavedRoom {
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
            record: self.record.clone(),
            result: self.result.clone(),
            seq: self.seq,
            clock,
            offers: self.offers.clone(),
            started_at: self.started_at,
            game_no: self.game_no,
            game_started: self.game_started,
            spectators_muted: self.muted,
            redeal: self.redeal.clone(),
            empty_since_ms: self
                .empty_since
                .map(|t| now_ms() - t.elapsed().as_millis() as i64),
        }
    }

    /// Who must act now, if anyone.
    fn to_act(&self) -> Option<Seat> {
        if self.result.is_some() || !self.started() {
            return None;
        }
        match &self.live {
            LiveGame::Gomoku(game) => game.to_act(),
            LiveGame::Backgammon(game) => game.to_act().map(seat_of),
        }
    }

    fn seat_of_player(&self, player_id: &str) -> Option<Seat> {
        [Seat::First, Seat::Second].into_iter().find(|s| {
            self.seats[idx(*s)]
                .as_ref()
                .is_some_and(|p| p.id == player_id && p.ai.is_none())
        })
    }

    fn ai_seat(&self, seat: Seat) -> Option<AiLevel> {
        self.seats[idx(seat)].as_ref().and_then(|p| p.ai)
    }

    // ----- output -----

    fn send_to(&self, tx: &Outlet, request_id: Option<u64>, message: ServerMessage) {
        let frame = ServerFrame {
            request_id,
            message,
        };
        let _ = tx.send_text(&frame.encode());
    }

    fn answer(&self, caller: &Caller, message: ServerMessage) {
        self.send_to(&caller.tx, caller.request_id, message);
    }

    fn refuse_caller(&self, caller: &Caller, (code, why): Refusal) {
        self.answer(caller, ServerMessage::error(code, why));
    }

    /// Numbers an event, logs it, and sends it to every member.
    fn emit(&mut self, event: RoomEvent) {
        let frame = ServerFrame::push(ServerMessage::Event {
            room_id: self.id.clone(),
            seq: self.seq + 1,
            event,
        });
        self.send_numbered(frame.encode().into(), None);
    }

    /// Logs and sends the encoded event numbered `seq + 1`; the `reply`
    /// connection's copy carries its request's id: the event is the answer
    /// to that request.
    fn send_numbered(&mut self, text: Utf8Bytes, reply: Option<Reply>) {
        self.seq += 1;
        self.log.push_back((self.seq, text.clone()));
        if self.log.len() > EVENT_LOG {
            self.log.pop_front();
        }
        // Players first: with many spectators, the opponent is not kept
        // waiting behind them.
        let mut slow = Vec::new();
        for seated in [true, false] {
            for (conn, member) in &self.members {
                if member.seat.is_some() != seated {
                    continue;
                }
                let sent = match reply {
                    Some((to, request_id)) if to == *conn => {
                        member.tx.send_text(&with_request_id(&text, request_id))
                    }
                    _ => member.tx.send_text(&text),
                };
                if let Err(e) = sent {
                    slow.push((*conn, e));
                }
            }
        }
        for (conn, error) in slow {
            // A member that cannot keep up is dropped; it resumes with
            // `since`. Either way it is gone from the room now, as on a
            // disconnect (its connection's notice finds nothing to do).
            if let (SendError::Full, Some(member)) = (error, self.members.get(&conn)) {
                member.tx.close(
                    tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode::Again,
                    "too slow to keep up; reconnect",
                );
            }
            self.member_gone(conn, false);
        }
    }

    /// Tells the lobby when this room's summary changed. Runs after every
    /// change, moves included, so the usual case (nothing the lobby shows
    /// changed) is checked field by field, without building a summary.
    fn publish(&mut self) {
        if let Some(published) = &self.published {
            let same = self.shows_as(published);
            // Tests (debug builds) check the shortcut against the whole
            // summary; not while a grace period counts down between the two.
            debug_assert!(
                self.away_since.iter().any(Option::is_some)
                    || same == (self.summary() == *published),
                "shows_as disagrees with summary()"
            );
            if same {
                return;
            }
        }
        let summary = self.summary();
        self.shared.update_summary(summary.clone());
        self.published = Some(summary);
    }

    /// Whether [`Room::summary`] would equal `summary` now.
    fn shows_as(&self, summary: &RoomSummary) -> bool {
        summary.status == self.status()
            && summary.spectators == self.spectator_count()
            && summary.options == self.options
            && summary.room_id == self.id
            && summary.seats.len() == 2
            && summary.seats.iter().enumerate().all(|(i, info)| {
                let seat = [Seat::First, Seat::Second][i];
                info.seat == seat
                    && info.player == self.seats[i]
                    && (info.connected, info.grace_ms) == self.seat_presence(seat)
            })
    }

    async fn save(&self) {
        self.save_ahead(0).await;
    }

    /// Saves the room numbered as if its next `events` events were out: a
    /// change is saved before the events that tell it.
    async fn save_ahead(&self, events: u64) {
        let Some(state) = self.state_ahead(events) else {
            return;
        };
        if let Err(e) = self.shared.store.save_room(self.id.clone(), state).await {
            tracing::error!(room = %self.id, error = %e, "saving a room failed");
        }
    }

    /// The room's saved state as JSON, numbered `events` past now.
    fn state_ahead(&self, events: u64) -> Option<String> {
        let mut saved = self.saved();
        saved.seq += events;
        serde_json::to_string(&saved)
            .inspect_err(|e| tracing::error!(room = %self.id, error = %e, "encoding a room failed"))
            .ok()
    }

    // ----- requests -----

    async fn on_request(&mut self, caller: Caller, message: ClientMessage) {
        let member_seat = self.members.get(&caller.conn).map(|m| m.seat);
        match message {
            ClientMessage::JoinRoom { role, since, .. } => {
                self.join(caller, role, since, false).await;
            }
            ClientMessage::JoinByCode { .. } => {
                self.join(caller, Role::Player, None, true).await;
            }
            ClientMessage::LeaveRoom { .. } => self.leave(caller).await,
            _ if member_seat.is_none() => {
                self.refuse_caller(&caller, refuse(ErrorCode::NotInRoom, "join the room first"))
            }
            ClientMessage::Sync { .. } => {
                let snapshot = self.snapshot(member_seat.flatten().is_some());
                self.answer(
                    &caller,
                    ServerMessage::Snapshot {
                        room_id: self.id.clone(),
                        snapshot: Box::new(snapshot),
                    },
                );
            }
            ClientMessage::Chat { text, .. } => {
                let spectator = member_seat.flatten().is_none();
                let text = text.trim().to_string();
                if text.is_empty() || text.chars().count() > CHAT_MAX {
                    self.refuse_caller(
                        &caller,
                        refuse(ErrorCode::BadRequest, "chat lines are 1 to 500 characters"),
                    );
                } else if spectator && self.muted {
                    self.refuse_caller(
                        &caller,
                        refuse(ErrorCode::Forbidden, "the players muted spectator chat"),
                    );
                } else {
                    let line = ChatLine {
                        from: caller.identity.name.clone(),
                        spectator,
                        text,
                    };
                    self.chat.push_back(line.clone());
                    if self.chat.len() > CHAT_LINES {
                        self.chat.pop_front();
                    }
                    self.emit(RoomEvent::Chat { line });
                    self.ok(&caller);
                }
            }
            other => {
                let Some(seat) = member_seat.flatten() else {
                    self.refuse_caller(
                        &caller,
                        refuse(ErrorCode::Forbidden, "spectators cannot act in a game"),
                    );
                    return;
                };
                // An accepted action is answered by its event, which carries
                // the request_id; there is no separate `ok`.
                let answered_by_event = matches!(other, ClientMessage::Act { .. });
                let reply = caller.request_id.map(|id| (caller.conn, id));
                match self.player_request(seat, other, reply).await {
                    Ok(()) if answered_by_event => {}
                    Ok(()) => self.ok(&caller),
                    Err(refusal) => self.refuse_caller(&caller, refusal),
                }
            }
        }
    }

    fn ok(&self, caller: &Caller) {
        if caller.request_id.is_some() {
            self.answer(caller, ServerMessage::Ok);
        }
    }

    async fn join(&mut self, caller: Caller, role: Role, since: Option<u64>, by_code: bool) {
        let player_id = caller.identity.id.clone();
        let seated_here = self
            .members
            .get(&caller.conn)
            .is_some_and(|m| m.seat.is_some());
        if role == Role::Spectator && seated_here {
            // Otherwise the seat would lose its connection without being
            // marked away: it would look present for ever.
            self.refuse_caller(
                &caller,
                refuse(
                    ErrorCode::Forbidden,
                    "you have a seat in this room; leave it first to watch",
                ),
            );
            return;
        }
        let mut seat = None;
        if role == Role::Player {
            let free = [Seat::First, Seat::Second]
                .into_iter()
                .find(|s| self.seats[idx(*s)].is_none())
                .filter(|_| self.result.is_none());
            let unrated = !self.options.rated || caller.identity.registered;
            if let Some(own) = self.seat_of_player(&player_id) {
                seat = Some(own);
            } else if free.is_some() && !unrated && !by_code {
                self.refuse_caller(
                    &caller,
                    refuse(
                        ErrorCode::NotRegistered,
                        "this room is rated: only registered players may take a seat; sign in or watch",
                    ),
                );
                return;
            } else if free.is_some() && self.code.is_some() && !by_code {
                // The code is the key to a private room's free seat; its
                // id (known to spectators, say) is not.
                self.refuse_caller(
                    &caller,
                    refuse(
                        ErrorCode::Forbidden,
                        "this room is private: join it with its code",
                    ),
                );
                return;
            } else if let Some(free) = free.filter(|_| unrated) {
                self.seats[idx(free)] = Some(PlayerInfo {
                    id: player_id.clone(),
                    name: caller.identity.name.clone(),
                    ai: None,
                });
                seat = Some(free);
            } else if !by_code {
                self.refuse_caller(&caller, refuse(ErrorCode::RoomFull, "both seats are taken"));
                return;
            }
        }
        if let Some(seat) = seat {
            let was_away = self.away_since[idx(seat)].take().is_some();
            let info = self.seats[idx(seat)].clone();
            let fresh = !self.game_started;
            if fresh {
                if let Some(player) = info {
                    self.emit(RoomEvent::SeatTaken { seat, player });
                }
            } else if was_away {
                self.emit(RoomEvent::PlayerConnected { seat });
            }
        }
        // Seats held by this player's other connections stay as they are.
        let prior = self.members.insert(
            caller.conn,
            Member {
                tx: caller.tx.clone(),
                player_id,
                seat,
            },
        );
        self.empty_since = None;
        let role = if seat.is_some() {
            Role::Player
        } else {
            Role::Spectator
        };
        self.answer(
            &caller,
            ServerMessage::Joined {
                room_id: self.id.clone(),
                role,
                seat,
            },
        );
        let resumable = since.filter(|&n| {
            n <= self.seq && self.log.front().is_some_and(|(first, _)| *first <= n + 1)
                || n == self.seq
        });
        match resumable {
            Some(n) => {
                for (_, text) in self.log.iter().filter(|(s, _)| *s > n) {
                    let _ = caller.tx.send_text(text);
                }
            }
            None => {
                let snapshot = self.snapshot(seat.is_some());
                self.send_to(
                    &caller.tx,
                    None,
                    ServerMessage::Snapshot {
                        room_id: self.id.clone(),
                        snapshot: Box::new(snapshot),
                    },
                );
            }
        }
        if seat.is_none() && prior.is_none() {
            let count = self.spectator_count();
            self.emit(RoomEvent::Spectators { count });
        }
        self.after_change().await;
    }

    async fn leave(&mut self, caller: Caller) {
        if self.members.contains_key(&caller.conn) {
            self.member_gone(caller.conn, true);
            self.save_if_deserted().await;
            self.answer(
                &caller,
                ServerMessage::Left {
                    room_id: self.id.clone(),
                },
            );
            self.after_change().await;
        } else {
            self.refuse_caller(
                &caller,
                refuse(ErrorCode::NotInRoom, "you are not in this room"),
            );
        }
    }

    async fn on_disconnect(&mut self, conn: ConnId) {
        if self.members.contains_key(&conn) {
            self.member_gone(conn, false);
            // The lobby hears of the drop at once, not after a save that a
            // busy disk may hold up.
            self.publish();
            self.save_if_deserted().await;
        }
    }

    /// When the last member of a running game's room goes, saves the whole
    /// room: its moves since the last full save then stop holding the front
    /// of the store's action log while the room waits (grace period, idle
    /// time-out). Otherwise a log clean-up would have to copy them, and at a
    /// thousand abandoned games that copying was most of the store's work.
    async fn save_if_deserted(&mut self) {
        if self.members.is_empty() && self.game_started && self.result.is_none() {
            self.save().await;
        }
    }

    /// A member left or dropped. A seated player who has no other connection
    /// here is away: the seat is held for the grace period, or, in a room still
    /// waiting for its opponent, freed when the player left on purpose.
    fn member_gone(&mut self, conn: ConnId, on_purpose: bool) {
        let Some(member) = self.members.remove(&conn) else {
            return;
        };
        if self.members.is_empty() {
            self.empty_since = Some(Instant::now());
        }
        let Some(seat) = member.seat else {
            let count = self.spectator_count();
            self.emit(RoomEvent::Spectators { count });
            return;
        };
        let still_here = self
            .members
            .values()
            .any(|m| m.player_id == member.player_id && m.seat == Some(seat));
        if still_here {
            return;
        }
        if !self.game_started && on_purpose {
            self.seats[idx(seat)] = None;
            self.emit(RoomEvent::SeatLeft { seat });
            return;
        }
        self.away_since[idx(seat)] = Some(Instant::now());
        // A rematch needs both players there: an offer goes with its maker.
        // (Not saved here; after a restart `request_rematch` ignores the
        // offer of a player who is away.)
        for offer in self.take_offers(|o| o.kind == OfferKind::Rematch && o.by == seat) {
            self.emit(RoomEvent::OfferDeclined { offer });
        }
        if self.status() == RoomStatus::Playing {
            let grace_ms = self.shared.config.grace.as_millis() as u64;
            self.emit(RoomEvent::PlayerDisconnected { seat, grace_ms });
        }
    }

    async fn player_request(
        &mut self,
        seat: Seat,
        message: ClientMessage,
        reply: Option<Reply>,
    ) -> Result<(), Refusal> {
        match message {
            ClientMessage::Act { action, .. } => self.act(seat, action, reply).await,
            ClientMessage::Resign { kind, .. } => self.resign(seat, kind).await,
            ClientMessage::OfferDraw { .. } => self.offer_draw(seat).await,
            ClientMessage::RequestTakeback { .. } => self.request_takeback(seat).await,
            ClientMessage::Answer {
                request, accept, ..
            } => self.answer_offer(seat, request, accept).await,
            ClientMessage::Rematch { .. } => self.request_rematch(seat).await,
            ClientMessage::ClaimWin { .. } => self.claim_win(seat).await,
            ClientMessage::MuteSpectators { muted, .. } => {
                if self.muted != muted {
                    self.muted = muted;
                    self.seq_save_and_emit(RoomEvent::SpectatorsMuted { muted })
                        .await;
                }
                Ok(())
            }
            _ => Err(refuse(ErrorCode::BadRequest, "not a room request")),
        }
    }

    fn require_running(&self) -> Result<(), Refusal> {
        if self.result.is_some() {
            return Err(refuse(ErrorCode::IllegalMove, "the game is over"));
        }
        if !self.started() {
            return Err(refuse(ErrorCode::IllegalMove, "the game has not started"));
        }
        Ok(())
    }

    /// Turns a request into a record entry, checks it with the rules, saves,
    /// and broadcasts it; `reply`'s connection gets the event as its answer.
    async fn act(
        &mut self,
        seat: Seat,
        action: PlayerAction,
        reply: Option<Reply>,
    ) -> Result<(), Refusal> {
        self.require_running()?;
        if self.to_act() != Some(seat) {
            return Err(refuse(ErrorCode::NotYourTurn, "it is not your turn"));
        }
        // The move may have been queued behind the clock's deadline.
        if self.out_of_time().is_some() {
            self.on_deadline().await;
            return Err(refuse(ErrorCode::IllegalMove, "your time ran out"));
        }
        let side = side_of(seat);
        let entry = match (&self.live, action) {
            (LiveGame::Gomoku(_), PlayerAction::Place { point }) => {
                ActionRecord::Gomoku(GomokuAction::Place { seat, point })
            }
            (LiveGame::Gomoku(_), PlayerAction::Choose { choice }) => {
                ActionRecord::Gomoku(GomokuAction::Choose { seat, choice })
            }
            (LiveGame::Backgammon(_), PlayerAction::Roll) => {
                let dice = self.redeal.pop_front().unwrap_or_else(|| {
                    [
                        self.rng.random_range(1..=6u8),
                        self.rng.random_range(1..=6u8),
                    ]
                });
                ActionRecord::Backgammon(BgAction::Roll { side, dice })
            }
            (LiveGame::Backgammon(game), PlayerAction::Play { play }) => {
                // Recorded with the hits the board makes, whatever the
                // notation said, so that the record replays to this position.
                let play = game.position_for(side).mark_hits(&play);
                ActionRecord::Backgammon(BgAction::Play { side, play })
            }
            (LiveGame::Backgammon(_), PlayerAction::Double) => {
                ActionRecord::Backgammon(BgAction::Double { side })
            }
            (LiveGame::Backgammon(_), PlayerAction::Take) => {
                ActionRecord::Backgammon(BgAction::Take { side })
            }
            (LiveGame::Backgammon(_), PlayerAction::Drop) => {
                ActionRecord::Backgammon(BgAction::Drop { side })
            }
            _ => {
                return Err(refuse(
                    ErrorCode::IllegalMove,
                    "that action is for the other game",
                ));
            }
        };
        self.commit(entry, Some(seat), reply).await?;
        // A move answers pending draw and takeback offers with "no".
        self.clear_offers(|o| o.kind != OfferKind::Rematch).await;
        self.after_change().await;
        Ok(())
    }

    /// Applies one record entry through the rules, then saves and broadcasts it.
    async fn commit(
        &mut self,
        entry: ActionRecord,
        mover: Option<Seat>,
        reply: Option<Reply>,
    ) -> Result<(), Refusal> {
        let index = self.record.len();
        let illegal = |e| refuse(ErrorCode::IllegalMove, rule_error_text(&e));
        if let LiveGame::Gomoku(_) = self.live {
            // Gomoku's rules check before they change anything: no copy.
            self.live.apply(&entry, index).map_err(illegal)?;
        } else {
            let mut next = self.live.clone();
            next.apply(&entry, index).map_err(illegal)?;
            self.live = next;
        }
        match (&mut self.record, &entry) {
            (GameRecord::Gomoku { actions, .. }, ActionRecord::Gomoku(a)) => actions.push(*a),
            (GameRecord::Backgammon { actions, .. }, ActionRecord::Backgammon(a)) => {
                actions.push(a.clone())
            }
            _ => return Err(refuse(ErrorCode::Internal, "record and game disagree")),
        }
        // Charge the mover, then start the clock of whoever acts next, so the
        // event carries the running clock.
        let clock_before = self.clock.clone();
        let next = self.to_act();
        if let Some(clock) = &mut self.clock {
            clock.stop(mover.is_some());
            clock.start(next);
        }
        let clock = self.clock.as_ref().map(Clock::view);
        // Saved (as one small row) before it is broadcast. The event is put
        // together from the same JSON, not serialised a second time.
        let seq = self.seq + 1;
        let action = serde_json::to_string(&entry).unwrap_or_default();
        let clock_json = serde_json::to_string(&clock).unwrap_or_default();
        let event =
            ServerFrame::action_event(&self.id, seq, &action, clock.map(|_| clock_json.as_str()));
        let appended = AppendedAction {
            room_id: self.id.clone(),
            index: (self.record.len() - 1) as u64,
            action,
            seq,
            clock: clock_json,
        };
        if let Err(e) = self.shared.store.append_action(appended).await {
            // Not told to anyone, so not played: a move that a restart would
            // lose must not be shown.
            tracing::error!(room = %self.id, error = %e, "saving an action failed");
            self.undo_unsaved(&entry, clock_before);
            return Err(refuse(
                ErrorCode::Internal,
                "the server could not save that action; try again",
            ));
        }
        self.send_numbered(event.into(), reply);
        // Whatever the AI was thinking about is out of date now (a human's
        // resignation may even have started the match's next game).
        self.forget_ai_thought();
        Ok(())
    }

    /// Takes back the last entry of the record, which [`Room::commit`]
    /// applied but could not save: the game, the clock and the dice are as
    /// they were before it.
    fn undo_unsaved(&mut self, entry: &ActionRecord, clock_before: Option<Clock>) {
        self.record.truncate(self.record.len().saturating_sub(1));
        match self.record.replay() {
            Ok(live) => self.live = live,
            Err(e) => {
                tracing::error!(room = %self.id, error = %rule_error_text(&e), "replaying a record failed")
            }
        }
        self.clock = clock_before;
        // A roll that did not happen is dealt again by the next one.
        if let ActionRecord::Backgammon(BgAction::Roll { dice, .. }) = entry {
            self.redeal.push_front(*dice);
        }
    }

    async fn seq_save_and_emit(&mut self, event: RoomEvent) {
        // The event's number is part of the saved state, so save with it.
        self.save_ahead(1).await;
        self.emit(event);
    }

    /// Takes the offers that match out of the room.
    fn take_offers(&mut self, which: impl Fn(&PendingOffer) -> bool) -> Vec<PendingOffer> {
        let (gone, kept): (Vec<_>, Vec<_>) = self.offers.drain(..).partition(|o| which(o));
        self.offers = kept;
        gone
    }

    /// Withdraws the offers that match: saved, then told as declined.
    async fn clear_offers(&mut self, which: impl Fn(&PendingOffer) -> bool) {
        let gone = self.take_offers(which);
        if gone.is_empty() {
            return;
        }
        self.save_ahead(gone.len() as u64).await;
        for offer in gone {
            self.emit(RoomEvent::OfferDeclined { offer });
        }
    }

    /// Runs the automatic steps (opening rolls, the next game of a match,
    /// game end), restarts the clock, asks the AI when it is its turn, and
    /// tells the lobby.
    async fn after_change(&mut self) {
        if !self.game_started
            && self.seats.iter().all(Option::is_some)
            && self.result.is_none()
            && self.away_since.iter().all(Option::is_none)
        {
            self.game_started = true;
            let record = self.record.clone();
            let clock = self.clock.as_ref().map(Clock::view);
            // The full state is saved now; moves are appended to it.
            self.seq_save_and_emit(RoomEvent::GameStarted { record, clock })
                .await;
        }
        if self.game_started {
            for _ in 0..64 {
                if !self.automatic_step().await {
                    break;
                }
            }
        }
        let running = self.result.is_none() && self.started();
        let next = self.to_act();
        if let Some(clock) = &mut self.clock {
            if running {
                if clock.running != next {
                    clock.stop(false);
                    clock.start(next);
                }
            } else {
                clock.stop(false);
            }
        }
        self.maybe_ask_ai();
        self.publish();
    }

    /// One automatic step; true when something happened.
    async fn automatic_step(&mut self) -> bool {
        if self.result.is_some() {
            return false;
        }
        let end = match &self.live {
            LiveGame::Gomoku(game) => match game.outcome() {
                Some(Outcome::Win { seat, line, .. }) => Some(GameResult {
                    winner: Some(*seat),
                    reason: EndReason::Rules,
                    line: line.clone(),
                    score: None,
                }),
                Some(Outcome::Draw) => Some(GameResult {
                    winner: None,
                    reason: EndReason::BoardFull,
                    line: Vec::new(),
                    score: None,
                }),
                None => None,
            },
            LiveGame::Backgammon(game) => {
                let reason = match self.record_last_bg() {
                    Some(BgAction::Resign { .. }) => EndReason::Resigned,
                    Some(BgAction::Drop { .. }) => EndReason::Dropped,
                    _ => EndReason::Rules,
                };
                match game.phase() {
                    GamePhase::OpeningRoll => {
                        let white = self.rng.random_range(1..=6u8);
                        let black = self.rng.random_range(1..=6u8);
                        let entry =
                            ActionRecord::Backgammon(BgAction::OpeningRoll { white, black });
                        return self.commit(entry, None, None).await.is_ok();
                    }
                    GamePhase::MatchOver { winner } => Some(GameResult {
                        winner: Some(seat_of(*winner)),
                        reason,
                        line: Vec::new(),
                        score: Some(game.score()),
                    }),
                    GamePhase::GameOver { winner, .. } => {
                        if game.config().length == 0 {
                            Some(GameResult {
                                winner: Some(seat_of(*winner)),
                                reason,
                                line: Vec::new(),
                                score: Some(game.score()),
                            })
                        } else {
                            let entry = ActionRecord::Backgammon(BgAction::NextGame);
                            self.game_no += 1;
                            // Rolls a takeback cut belong to the game just over.
                            self.redeal.clear();
                            let done = self.commit(entry, None, None).await.is_ok();
                            if !done {
                                self.game_no -= 1;
                            }
                            return done;
                        }
                    }
                    _ => None,
                }
            }
        };
        match end {
            Some(result) => {
                self.finish(result).await;
                true
            }
            None => false,
        }
    }

    fn record_last_bg(&self) -> Option<&BgAction> {
        match &self.record {
            GameRecord::Backgammon { actions, .. } => actions.last(),
            GameRecord::Gomoku { .. } => None,
        }
    }

    /// Ends the game: stops the clock, keeps the finished game forever, and tells everyone.
    async fn finish(&mut self, result: GameResult) {
        if let Some(clock) = &mut self.clock {
            clock.stop(false);
        }
        self.result = Some(result.clone());
        self.forget_ai_thought();
        self.redeal.clear();
        self.offers.clear();
        let players = serde_json::to_string(&self.seat_infos()).unwrap_or_default();
        let humans = self
            .seats
            .clone()
            .map(|p| p.filter(|p| p.ai.is_none()).map(|p| p.id));
        let game_id = format!("g-{}", uuid::Uuid::new_v4().simple());
        // The room is saved with the game, numbered as its game-over event.
        let room_state = self.state_ahead(1);
        let game = FinishedGame {
            id: game_id.clone(),
            room_id: self.id.clone(),
            kind: match self.options.game {
                GameOptions::Gomoku(_) => "gomoku".into(),
                GameOptions::Backgammon(_) => "backgammon".into(),
            },
            options: serde_json::to_string(&self.options).unwrap_or_default(),
            players,
            record: serde_json::to_string(&self.record).unwrap_or_default(),
            result: serde_json::to_string(&result).unwrap_or_default(),
            started_at: self.started_at,
            ended_at: now_ms(),
            rated: self.options.rated && humans.iter().all(Option::is_some),
            humans,
            winner: result.winner,
            room_state,
        };
        let ratings = match self.shared.store.save_game(game).await {
            Ok(ratings) => ratings,
            Err(e) => {
                tracing::error!(room = %self.id, error = %e, "saving a finished game failed");
                Vec::new()
            }
        };
        self.emit(RoomEvent::GameOver {
            result,
            game_id: Some(game_id),
            ratings,
        });
    }

    async fn resign(&mut self, seat: Seat, kind: Option<ResignKind>) -> Result<(), Refusal> {
        self.require_running()?;
        match &self.live {
            LiveGame::Gomoku(_) => {
                self.finish(GameResult {
                    winner: Some(seat.other()),
                    reason: EndReason::Resigned,
                    line: Vec::new(),
                    score: None,
                })
                .await;
            }
            LiveGame::Backgammon(game) => {
                // By the rules the opponent may refuse a resignation: else a
                // player about to lose a gammon would resign a single game.
                let value = kind.unwrap_or(ResignKind::Single);
                let offer = PendingOffer {
                    kind: OfferKind::Resign,
                    by: seat,
                    value: Some(value),
                };
                if self.ai_seat(seat.other()).is_some() {
                    let accepts = ai::accepts_resignation(game, side_of(seat.other()), value);
                    self.emit(RoomEvent::OfferMade { offer });
                    if !accepts {
                        self.emit(RoomEvent::OfferDeclined { offer });
                        return Ok(());
                    }
                    if let Err(refusal) = self.accept_resignation(offer).await {
                        // Not saved: the game goes on, and the offer is over.
                        self.emit(RoomEvent::OfferDeclined { offer });
                        return Err(refusal);
                    }
                } else {
                    // A new resignation replaces the player's earlier one.
                    self.clear_offers(|o| o.kind == OfferKind::Resign && o.by == seat)
                        .await;
                    self.offers.push(offer);
                    self.seq_save_and_emit(RoomEvent::OfferMade { offer }).await;
                    return Ok(());
                }
            }
        }
        self.after_change().await;
        Ok(())
    }

    /// Ends the Backgammon game as resigned at the offer's value.
    async fn accept_resignation(&mut self, offer: PendingOffer) -> Result<(), Refusal> {
        let entry = ActionRecord::Backgammon(BgAction::Resign {
            side: side_of(offer.by),
            value: offer.value.unwrap_or(ResignKind::Single),
        });
        self.commit(entry, None, None).await?;
        self.clear_offers(|_| true).await;
        Ok(())
    }

    async fn offer_draw(&mut self, seat: Seat) -> Result<(), Refusal> {
        self.require_running()?;
        if !matches!(self.live, LiveGame::Gomoku(_)) {
            return Err(refuse(ErrorCode::IllegalMove, "draw offers are for Gomoku"));
        }
        let offer = PendingOffer::new(OfferKind::Draw, seat);
        if self.offers.contains(&offer) {
            return Err(refuse(ErrorCode::IllegalMove, "you already offered a draw"));
        }
        if self.ai_seat(seat.other()).is_some() {
            // The AI plays on.
            self.emit(RoomEvent::OfferMade { offer });
            self.emit(RoomEvent::OfferDeclined { offer });
        } else {
            self.offers.push(offer);
            self.seq_save_and_emit(RoomEvent::OfferMade { offer }).await;
        }
        Ok(())
    }

    /// The index the record is cut back to when `seat` takes back its last decision.
    fn takeback_point(&self, seat: Seat) -> Option<usize> {
        match &self.record {
            GameRecord::Gomoku { actions, .. } => actions.iter().rposition(|a| match a {
                GomokuAction::Place { seat: s, .. } | GomokuAction::Choose { seat: s, .. } => {
                    *s == seat
                }
            }),
            GameRecord::Backgammon { actions, .. } => {
                let side = side_of(seat);
                let game_start = actions
                    .iter()
                    .rposition(|a| matches!(a, BgAction::NextGame))
                    .map_or(0, |i| i + 1);
                let last = actions
                    .iter()
                    .rposition(|a| matches!(a, BgAction::Play { side: s, .. } if *s == side))?;
                // Not past a cube action or into an earlier game.
                let cube_after = actions[last..].iter().any(|a| {
                    matches!(
                        a,
                        BgAction::Double { .. }
                            | BgAction::Take { .. }
                            | BgAction::Drop { .. }
                            | BgAction::Resign { .. }
                    )
                });
                (last >= game_start && !cube_after).then_some(last)
            }
        }
    }

    async fn request_takeback(&mut self, seat: Seat) -> Result<(), Refusal> {
        self.require_running()?;
        if !self.options.takebacks {
            return Err(refuse(
                ErrorCode::Forbidden,
                "takebacks are off in this room",
            ));
        }
        if self.takeback_point(seat).is_none() {
            return Err(refuse(ErrorCode::IllegalMove, "nothing to take back"));
        }
        let offer = PendingOffer::new(OfferKind::Takeback, seat);
        if self.ai_seat(seat.other()).is_some() {
            self.emit(RoomEvent::OfferMade { offer });
            self.take_back(seat).await
        } else {
            if self.offers.contains(&offer) {
                return Err(refuse(ErrorCode::IllegalMove, "you already asked"));
            }
            self.offers.push(offer);
            self.seq_save_and_emit(RoomEvent::OfferMade { offer }).await;
            Ok(())
        }
    }

    async fn take_back(&mut self, seat: Seat) -> Result<(), Refusal> {
        let Some(cut) = self.takeback_point(seat) else {
            return Err(refuse(ErrorCode::IllegalMove, "nothing to take back"));
        };
        let before = self.record.len();
        let mut record = self.record.clone();
        // The dice already rolled stay rolled: a takeback replays a decision,
        // it does not roll again (against the AI it would otherwise re-roll
        // both sides' dice at will). They are dealt again, in order.
        let mut redeal = VecDeque::new();
        match &mut record {
            GameRecord::Gomoku { actions, .. } => actions.truncate(cut),
            GameRecord::Backgammon { actions, .. } => {
                for action in actions.drain(cut..) {
                    if let BgAction::Roll { dice, .. } = action {
                        redeal.push_back(dice);
                    }
                }
            }
        }
        let live = record
            .replay()
            .map_err(|e| refuse(ErrorCode::Internal, e.to_string()))?;
        redeal.append(&mut self.redeal);
        self.redeal = redeal;
        self.record = record;
        self.live = live;
        self.forget_ai_thought();
        self.offers.clear();
        let count = (before - cut) as u32;
        self.seq_save_and_emit(RoomEvent::TookBack { count }).await;
        self.after_change().await;
        Ok(())
    }

    async fn answer_offer(
        &mut self,
        seat: Seat,
        kind: OfferKind,
        accept: bool,
    ) -> Result<(), Refusal> {
        let Some(pos) = self
            .offers
            .iter()
            .position(|o| o.kind == kind && o.by == seat.other())
        else {
            return Err(refuse(
                ErrorCode::IllegalMove,
                "there is no such offer to answer",
            ));
        };
        let offer = self.offers.remove(pos);
        if !accept {
            self.seq_save_and_emit(RoomEvent::OfferDeclined { offer })
                .await;
            return Ok(());
        }
        match kind {
            OfferKind::Draw => {
                self.require_running()?;
                self.finish(GameResult {
                    winner: None,
                    reason: EndReason::DrawAgreed,
                    line: Vec::new(),
                    score: None,
                })
                .await;
                self.after_change().await;
                Ok(())
            }
            OfferKind::Takeback => {
                self.require_running()?;
                self.take_back(offer.by).await
            }
            OfferKind::Rematch => self.start_rematch().await,
            OfferKind::Resign => {
                self.require_running()?;
                self.accept_resignation(offer).await?;
                self.after_change().await;
                Ok(())
            }
        }
    }

    async fn request_rematch(&mut self, seat: Seat) -> Result<(), Refusal> {
        if self.result.is_none() {
            return Err(refuse(ErrorCode::IllegalMove, "the game is not over"));
        }
        let other = seat.other();
        let other_wants = self.ai_seat(other).is_some()
            || self.away_since[idx(other)].is_none()
                && self
                    .offers
                    .iter()
                    .any(|o| o.kind == OfferKind::Rematch && o.by == other);
        if other_wants {
            self.start_rematch().await
        } else {
            let offer = PendingOffer::new(OfferKind::Rematch, seat);
            if !self.offers.contains(&offer) {
                self.offers.push(offer);
                self.seq_save_and_emit(RoomEvent::OfferMade { offer }).await;
            }
            Ok(())
        }
    }

    async fn start_rematch(&mut self) -> Result<(), Refusal> {
        self.seats.swap(0, 1);
        self.away_since.swap(0, 1);
        for member in self.members.values_mut() {
            member.seat = member.seat.map(Seat::other);
        }
        self.record = GameRecord::new(&self.options.game);
        self.live = self
            .record
            .replay()
            .map_err(|e| refuse(ErrorCode::Internal, e.to_string()))?;
        self.result = None;
        self.offers.clear();
        self.game_no = 1;
        self.started_at = now_ms();
        if let (Some(clock), Some(tc)) = (&mut self.clock, self.options.time_control) {
            clock.remaining_ms = [u64::from(tc.initial_secs) * 1000; 2];
            clock.running = None;
        }
        self.seq_save_and_emit(RoomEvent::RematchStarted).await;
        let members: Vec<(Outlet, bool)> = self
            .members
            .values()
            .map(|m| (m.tx.clone(), m.seat.is_some()))
            .collect();
        for (tx, player) in members {
            let snapshot = self.snapshot(player);
            self.send_to(
                &tx,
                None,
                ServerMessage::Snapshot {
                    room_id: self.id.clone(),
                    snapshot: Box::new(snapshot),
                },
            );
        }
        self.after_change().await;
        Ok(())
    }

    async fn claim_win(&mut self, seat: Seat) -> Result<(), Refusal> {
        self.require_running()?;
        let other = seat.other();
        match self.grace_left(other) {
            Some(left) if left.is_zero() => {
                self.finish(GameResult {
                    winner: Some(seat),
                    reason: EndReason::Abandoned,
                    line: Vec::new(),
                    score: None,
                })
                .await;
                self.after_change().await;
                Ok(())
            }
            Some(left) => Err(refuse(
                ErrorCode::IllegalMove,
                format!(
                    "the opponent has {} s left to come back",
                    left.as_secs() + 1
                ),
            )),
            None => Err(refuse(ErrorCode::IllegalMove, "the opponent is here")),
        }
    }

    // ----- AI -----

    fn maybe_ask_ai(&mut self) {
        if self.ai_thinking {
            return;
        }
        let Some(seat) = self.to_act() else { return };
        let Some(level) = self.ai_seat(seat) else {
            return;
        };
        self.ai_thinking = true;
        self.ai_generation += 1;
        let generation = self.ai_generation;
        let game = self.live.clone();
        let budget = self.shared.config.ai_budget;
        let seed = self.ai_seed ^ (self.record.len() as u64).wrapping_mul(0x9E37_79B9);
        let me = self.me.clone();
        tokio::spawn(async move {
            let action =
                tokio::task::spawn_blocking(move || ai::choose(level, &game, seat, budget, seed))
                    .await
                    .unwrap_or(None);
            if let Some(me) = me.upgrade() {
                let _ = me.send(RoomCommand::AiMove { generation, action }).await;
            }
        });
    }

    /// Makes any AI move still being thought about arrive as out of date,
    /// and lets [`Room::maybe_ask_ai`] ask again.
    fn forget_ai_thought(&mut self) {
        self.ai_generation += 1;
        self.ai_thinking = false;
    }

    async fn on_ai_move(&mut self, action: Option<PlayerAction>) {
        let Some(seat) = self.to_act().filter(|&s| self.ai_seat(s).is_some()) else {
            return;
        };
        let Some(action) = action else {
            tracing::error!(room = %self.id, "the AI found no action");
            return;
        };
        if let Err((code, why)) = self.act(seat, action, None).await {
            tracing::error!(room = %self.id, %why, "the AI's action was refused");
            if code == ErrorCode::Internal {
                // Not saved (a disk error): think again and try once more.
                self.maybe_ask_ai();
            }
        }
    }

    // ----- time -----

    fn next_deadline(&self) -> Option<Instant> {
        let mut deadline: Option<Instant> = None;
        let mut consider = |t: Instant| {
            deadline = Some(deadline.map_or(t, |d| d.min(t)));
        };
        if self.result.is_none()
            && let Some((_, t)) = self.clock.as_ref().and_then(Clock::deadline)
        {
            consider(t);
        }
        if let Some(t) = self.empty_since {
            consider(t + self.idle_ttl());
        }
        if !self.game_started {
            for t in self.away_since.iter().flatten() {
                consider(*t + self.shared.config.grace);
            }
        }
        deadline
    }

    fn idle_ttl(&self) -> Duration {
        if self.status() == RoomStatus::Playing {
            // A running game waits for its players much longer than the grace period.
            self.shared.config.deserted_game_ttl
        } else if self.status() == RoomStatus::Finished {
            self.shared.config.finished_room_ttl
        } else {
            self.shared.config.grace
        }
    }

    /// The seat whose clock has run out in a game still running.
    fn out_of_time(&self) -> Option<Seat> {
        let (seat, t) = self.clock.as_ref().and_then(Clock::deadline)?;
        (self.result.is_none() && t <= Instant::now()).then_some(seat)
    }

    /// Handles a deadline; true when the room should close.
    async fn on_deadline(&mut self) -> bool {
        self.free_abandoned_seats();
        if let Some(seat) = self.out_of_time() {
            self.finish(GameResult {
                winner: Some(seat.other()),
                reason: EndReason::Timeout,
                line: Vec::new(),
                score: None,
            })
            .await;
            self.after_change().await;
            return false;
        }
        self.should_close()
    }

    /// Before the game starts, a seat whose player has been away for the
    /// whole grace period is freed, so that whoever waits in the room can
    /// get a new opponent (after a game has started, the opponent may claim
    /// the win instead).
    fn free_abandoned_seats(&mut self) {
        if self.game_started {
            return;
        }
        for seat in [Seat::First, Seat::Second] {
            let gone =
                self.away_since[idx(seat)].is_some_and(|t| t.elapsed() >= self.shared.config.grace);
            if gone {
                self.away_since[idx(seat)] = None;
                self.seats[idx(seat)] = None;
                self.emit(RoomEvent::SeatLeft { seat });
                self.publish();
            }
        }
    }

    fn should_close(&self) -> bool {
        self.empty_since
            .is_some_and(|t| t.elapsed() >= self.idle_ttl())
            && self.members.is_empty()
    }

    async fn close(&mut self) {
        for member in self.members.values() {
            self.send_to(
                &member.tx,
                None,
                ServerMessage::Left {
                    room_id: self.id.clone(),
                },
            );
        }
        self.shared.remove_room(&self.id);
        if let Err(e) = self.shared.store.delete_room(self.id.clone()).await {
            tracing::error!(room = %self.id, error = %e, "deleting a room failed");
        }
    }
}

async fn sleep_until_opt(deadline: Option<Instant>) {
    match deadline {
        Some(t) => sleep_until(t.into()).await,
        None => std::future::pending().await,
    }
}

fn rule_error_text(e: &tabula_shared::protocol::ReplayError) -> String {
    match e {
        tabula_shared::protocol::ReplayError::Gomoku { error, .. } => error.to_string(),
        tabula_shared::protocol::ReplayError::Backgammon { error, .. } => error.to_string(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answering_event_is_the_event_as_encoded_with_its_request_id() {
        let message = ServerMessage::Event {
            room_id: "r-1".into(),
            seq: 7,
            event: RoomEvent::SpectatorsMuted { muted: true },
        };
        let pushed = ServerFrame::push(message.clone()).encode();
        let answer = ServerFrame {
            request_id: Some(42),
            message,
        }
        .encode();
        assert_eq!(with_request_id(&pushed, 42).as_str(), answer);
    }
}
