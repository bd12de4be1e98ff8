//! A room: one actor task that owns one game.
//!
//! Connections send it [`RoomCommand`]s; it alone changes the game. Every
//! change is saved to the store first, then sent as a numbered event to the
//! players and spectators. AI seats think on the blocking pool and their
//! answers come back as commands, through the same path as a human move.
//!
//! The actor's state is one `Room`; its handling is split by concern:
//! `requests` (what a client asks), `members` (joining, leaving, seats),
//! `moves` (actions, the automatic steps after them, the end of a game),
//! `dice` (verifiable Backgammon dice: commitment, players' seeds, reveal),
//! `offers` (draws, takebacks, resignations, rematches), `chat`, `ai_turn`, `clock`
//! and `deadlines`, `saved` (the store's copy of a room, and restoring it),
//! `undo` (putting back a change the store could not save), `backoff` (what
//! a room does while the store cannot save), and `broadcast` (answers,
//! numbered events, the lobby's summary).

mod ai_seat;
mod ai_turn;
mod backoff;
mod broadcast;
mod chat;
mod clock;
mod deadlines;
mod dice;
mod history;
mod match_dice;
mod members;
mod moves;
mod offers;
mod paired;
mod requests;
mod saved;
mod undo;

#[cfg(test)]
mod tests;

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tabula_shared::game::{Game, ReplayError};
use tabula_shared::protocol::{
    ChatLine, ColourChoice, ErrorCode, GameOptions, GameRecord, GameResult, Opponent, PendingOffer,
    PlayerInfo, RoomId, RoomOptions, RoomStatus, RoomSummary, ServerMessage, Turn,
};
use tabula_shared::seat::Seat;
use tokio::sync::mpsc;
use tokio::time::sleep_until;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use crate::handle::{ConnId, RoomCommand, RoomHandle, refuse_queued};
use crate::identity::Identity;
use crate::registry::Shared;
use crate::tournament_desk::TournamentLink;
use crate::wall_clock::now_ms;

use ai_seat::AiSeat;
pub(crate) use ai_turn::engine_player;
use ai_turn::{ai_player, engine_seats};
use backoff::Saving;
use clock::Clock;
use history::History;
use match_dice::MatchDice;
use members::Member;
pub use paired::create_paired;
pub use saved::restore;
use saved::{SavedRoom, instant_of_ms};

/// How many unfinished games (waiting or running) one player may have seats in
/// when creating another room.
const MAX_GAMES_PER_PLAYER: usize = 20;

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
    /// The game: its record and the rules state replayed from it.
    game: Game,
    result: Option<GameResult>,
    /// The events told, numbered, and the most recent of them.
    history: History,
    clock: Option<Clock>,
    offers: Vec<PendingOffer>,
    /// Set once both seats were filled and the first game began.
    game_started: bool,
    chat: VecDeque<ChatLine>,
    /// Where the match's rolls come from.
    dice: MatchDice,
    muted: bool,
    rng: StdRng,
    /// The AI opponent's state, when there is one.
    ai: AiSeat,
    started_at: i64,
    game_no: u32,
    /// When the room last had nobody in it (for closing idle rooms).
    empty_since: Option<Instant>,
    /// The last member went, and [`Room::save_if_deserted`] has not run
    /// since (it saves a running game whole).
    deserted_unsaved: bool,
    rx: mpsc::Receiver<RoomCommand>,
    me: mpsc::WeakSender<RoomCommand>,
    /// What the lobby was last told, so an unchanged summary (most moves)
    /// costs no trip to the lobby's lock.
    published: Option<RoomSummary>,
    /// How the room's saves stand (see [`Saving`]).
    saving: Saving,
    /// The handle the lobby lists the room under, until [`Room::list`]
    /// gives it to the lobby.
    handle: Option<RoomHandle>,
    /// The tournament this game was paired for.
    tournament: Option<TournamentLink>,
}

type Refusal = (ErrorCode, String);

/// A seat's index in per-seat arrays.
fn idx(seat: Seat) -> usize {
    match seat {
        Seat::First => 0,
        Seat::Second => 1,
    }
}

/// A refusal with its error code and message.
fn refuse(code: ErrorCode, why: impl Into<String>) -> Refusal {
    (code, why.into())
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
        if !shared.lobby.code_taken(&code) {
            return code;
        }
    }
}

/// A room's dice: from the configured seed and `salt` when there is one
/// (tests), otherwise from the operating system.
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
pub async fn create(
    shared: &Arc<Shared>,
    creator: &Identity,
    options: RoomOptions,
) -> Result<RoomId, Refusal> {
    if shared.lobby.room_count() >= shared.config.max_rooms {
        return Err(refuse(
            ErrorCode::LimitReached,
            "the server has too many rooms",
        ));
    }
    // The last tenth of the rooms is kept for registered players: guests
    // are free to make, so guests alone cannot fill the server.
    let guest_cap = shared.config.max_rooms - shared.config.max_rooms / 10;
    if !creator.registered && shared.lobby.room_count() >= guest_cap {
        return Err(refuse(
            ErrorCode::LimitReached,
            "the rooms left are kept for registered players: register or sign in",
        ));
    }
    // Otherwise one client could fill the server with rooms it left.
    if shared.lobby.seated_rooms(&creator.id).len() >= MAX_GAMES_PER_PLAYER {
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
    if options.rated && options.opponent != Opponent::Human && options.takebacks {
        return Err(refuse(
            ErrorCode::BadRequest,
            "a rated game against the AI has no takebacks (the AI grants them at once)",
        ));
    }
    if let Opponent::Engine { name } = &options.opponent {
        let kind = options.game.kind();
        if !shared
            .config
            .engines
            .iter()
            .any(|e| e.game == kind && e.name == *name)
        {
            return Err(refuse(
                ErrorCode::BadRequest,
                format!(
                    "no engine called {name:?} plays {} on this server",
                    format!("{kind:?}").to_lowercase()
                ),
            ));
        }
        if options.rated {
            return Err(refuse(
                ErrorCode::BadRequest,
                "games against an engine are not rated (an engine has no published rating)",
            ));
        }
    }
    if options.rated && !creator.registered {
        return Err(refuse(
            ErrorCode::NotRegistered,
            "only registered players can create a rated room; register or sign in first",
        ));
    }
    let mut record = GameRecord::new(&options.game);
    let id = format!("r-{}", &uuid::Uuid::new_v4().simple().to_string()[..10]);
    // With a fixed seed, the n-th room created always gets the same dice.
    let salt = format!("room-{}", shared.next_room_number());
    let mut rng = room_rng(shared, &salt);
    // A Backgammon match commits to its dice before anything else happens.
    let dice_seed = dice::commit_dice(shared, record.dice_mut(), &salt);
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
    match &options.opponent {
        Opponent::Human => {}
        Opponent::Ai { level } => seats[idx(creator_seat.other())] = Some(ai_player(*level)),
        Opponent::Engine { name } => seats[idx(creator_seat.other())] = Some(engine_player(name)),
    }
    // The creator's seat is reserved for them; they take it when they join.
    seats[idx(creator_seat)] = Some(PlayerInfo {
        id: creator.id.clone(),
        name: creator.name.clone(),
        ai: None,
        bot: creator.bot,
    });
    let first = NewRoom {
        id,
        options,
        code,
        seats,
        record,
        dice_seed,
        away: [creator_seat == Seat::First, creator_seat == Seat::Second],
        tournament: None,
    };
    launch(shared, first, rng).await
}

/// A room about to be made: what [`launch`] saves and starts.
struct NewRoom {
    id: RoomId,
    options: RoomOptions,
    code: Option<String>,
    seats: [Option<PlayerInfo>; 2],
    record: GameRecord,
    dice_seed: Option<tabula_shared::fair_dice::ServerSeed>,
    /// The seats whose players have yet to come (their grace starts now).
    away: [bool; 2],
    tournament: Option<TournamentLink>,
}

/// Saves a new room, lists it and starts its actor.
async fn launch(shared: &Arc<Shared>, new: NewRoom, rng: StdRng) -> Result<RoomId, Refusal> {
    let NewRoom {
        id,
        options,
        code,
        seats,
        record,
        dice_seed,
        away,
        tournament,
    } = new;
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
        dice_seed,
        seeds_given: [false; 2],
        empty_since_ms: None,
        chat: VecDeque::new(),
        tournament,
    };
    let mut room = Room::from_saved(shared.clone(), saved, rng)
        .map_err(|e| refuse(ErrorCode::BadRequest, format!("bad game options: {e}")))?;
    // A player who never comes does not hold the room open forever.
    for (i, away) in away.into_iter().enumerate() {
        if away {
            room.away_since[i] = Some(Instant::now());
        }
    }
    // Saved before anyone hears of it (the creator, the lobby, the other
    // nodes), so that a room someone was told of is one a restart or a
    // takeover finds. A cluster node takes its lease first: no other node
    // may claim the saved room. When the save fails, the room is not made
    // and the lease runs out (expired leases of no room are cleared).
    if let Some(nodes) = room.shared.nodes.clone() {
        let taken = room
            .shared
            .store
            .renew_leases(
                nodes.node().to_string(),
                vec![room.id.clone()],
                nodes.lease(),
            )
            .await;
        if let Err(e) = taken {
            tracing::warn!(room = %room.id, error = %e, "could not take the new room's lease");
        }
    }
    room.save().await?;
    room.list();
    room.spawn();
    Ok(id)
}

impl Room {
    /// Builds the room's actor from its saved state, its game replayed
    /// from the saved record.
    ///
    /// # Errors
    /// The record does not replay (options the rules refuse, or an action
    /// they refuse).
    fn from_saved(shared: Arc<Shared>, saved: SavedRoom, rng: StdRng) -> Result<Room, ReplayError> {
        let game = Game::from_record(saved.record)?;
        let (handle, rx) = RoomHandle::channel(4096);
        let ai_seed = shared.config.dice_seed.unwrap_or(0);
        let engines = engine_seats(&shared, saved.options.game.kind(), &saved.seats);
        let mut room = Room {
            id: saved.id,
            options: saved.options,
            code: saved.code,
            seats: saved.seats,
            away_since: [None, None],
            members: HashMap::new(),
            game,
            result: saved.result,
            history: History::starting_after(saved.seq),
            clock: saved.clock,
            offers: saved.offers,
            game_started: saved.game_started,
            chat: saved.chat,
            dice: MatchDice {
                seed: saved.dice_seed,
                seeds_given: saved.seeds_given,
                seed_deadline: None,
                redeal: saved.redeal,
            },
            muted: saved.spectators_muted,
            rng,
            ai: AiSeat {
                seed: ai_seed,
                generation: 0,
                thinking: false,
                engines,
            },
            started_at: saved.started_at,
            game_no: saved.game_no,
            empty_since: Some(instant_of_ms(saved.empty_since_ms)),
            deserted_unsaved: false,
            me: handle.downgrade(),
            rx,
            shared,
            published: None,
            saving: Saving::default(),
            handle: None,
            tournament: saved.tournament,
        };
        room.handle = Some(handle);
        Ok(room)
    }

    /// Lists the room in the lobby, where members' requests find it.
    fn list(&mut self) {
        let Some(handle) = self.handle.take() else {
            return;
        };
        let summary = self.summary();
        self.shared
            .lobby
            .insert_room(summary.clone(), self.code.clone(), handle);
        self.published = Some(summary);
    }

    /// Runs the actor on its own task.
    fn spawn(self) {
        tokio::spawn(self.run());
    }

    /// The actor's loop: commands and deadlines, one at a time, until the
    /// room closes or the server shuts down.
    async fn run(mut self) {
        self.after_change().await;
        loop {
            let deadline = self.next_deadline();
            let command = tokio::select! {
                command = self.rx.recv() => command,
                _ = sleep_until_opt(deadline) => {
                    let closing = self.on_deadline().await;
                    self.save_if_deserted().await;
                    self.tell_saving_again();
                    self.supersede_unknown_save();
                    if closing {
                        break;
                    }
                    continue;
                }
            };
            let Some(command) = command else { break };
            match command {
                RoomCommand::Request { caller, message } => self.on_request(caller, message).await,
                RoomCommand::Disconnected { conn } => self.on_disconnect(conn).await,
                RoomCommand::AiMove {
                    generation,
                    action,
                    note,
                } => {
                    if let Some(note) = note {
                        self.notice(&note);
                    }
                    if generation == self.ai.generation {
                        self.ai.thinking = false;
                        self.on_ai_move(action).await;
                    }
                }
                RoomCommand::Shutdown { done } => {
                    let _ = self.save().await;
                    let _ = done.send(());
                    // Members on other nodes of a cluster reconnect and
                    // resume where the room runs next (this node's own
                    // connections are closing anyway).
                    if self.shared.nodes.is_some() {
                        self.close_members("the server is restarting; reconnect");
                    }
                    refuse_queued(&mut self.rx);
                    return;
                }
                RoomCommand::Release => {
                    self.shared.lobby.release(&self.id);
                    self.close_members("this room moved to another server; reconnect");
                    refuse_queued(&mut self.rx);
                    return;
                }
            }
            // A member can also go when a send to it fails, in any handler.
            self.save_if_deserted().await;
            self.tell_saving_again();
            self.supersede_unknown_save();
            if self.should_close() {
                break;
            }
        }
        self.close().await;
        refuse_queued(&mut self.rx);
    }

    /// Waiting, playing or finished.
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

    /// Who acts next and what is expected, as snapshots and events tell it.
    fn turn(&self) -> Turn {
        if self.result.is_some() || !self.started() {
            return Turn::nothing();
        }
        Turn::of(self.game.live())
    }

    /// Who must act now, if anyone.
    fn to_act(&self) -> Option<Seat> {
        if self.result.is_some() || !self.started() {
            return None;
        }
        self.game.to_act()
    }

    /// Closes every member's connection: they reconnect and join the room
    /// again, wherever it runs then.
    fn close_members(&self, why: &str) {
        for member in self.members.values() {
            member.tx.close(CloseCode::Restart, why);
        }
    }

    /// Tells the members the room is gone, takes it out of the lobby, and
    /// deletes it from the store.
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
        self.shared.lobby.remove_room(&self.id);
        if let Err(e) = self.shared.store.delete_room(self.id.clone()).await {
            tracing::error!(room = %self.id, error = %e, "deleting a room failed");
        }
    }
}

/// Sleeps until `deadline`, or for ever without one.
async fn sleep_until_opt(deadline: Option<Instant>) {
    match deadline {
        Some(t) => sleep_until(t.into()).await,
        None => std::future::pending().await,
    }
}
