//! The application: runtime state, the panels, and the one place where
//! commands change state ([`TabulaApp::apply`]).
//!
//! Each frame first drains the network worker ([`TabulaApp::poll`]), then
//! draws ([`TabulaApp::draw`]). Panels only read state and return
//! [`Command`]s; drawing never touches the network or the game.

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

use egui::{Align2, Color32, Key, RichText, Ui};
use tabula_shared::backgammon::{Board, GamePhase, Move, Play, Position, ResignKind, Side};
use tabula_shared::gomoku::{Phase, Point, Rule, Seat, Stone, Swap2Choice};
use tabula_shared::protocol::{
    AiLevel, AiRating, BgAction, ClientFrame, ClientMessage, ColourChoice, EndReason, GameKind,
    GameOptions, GameRecord, GameSummary, LeaderboardEntry, LeaderboardPeriod, LiveGame, OfferKind,
    PlayerAction, Role, RoomStatus, RoomSummary, ServerFrame, ServerMessage, validate_name,
};

use crate::bg_moves::TurnBuilder;
use crate::bg_view::{self, BgView, BoardInput, Loc, abs_index};
use crate::embedded::{self, EmbeddedServer};
use crate::export::ExportForm;
use crate::gomoku_view::{self, GomokuGeometry, GomokuView};
use crate::net::{ConnState, NetCommand, NetEvent, Network, Target};
use crate::replay::Replay;
use crate::room::{
    Room, RoomUpdate, offer_made_text, own_offer_text, seat_index, side_name, side_of,
};
use crate::settings::{DEFAULT_ADDRESS, Settings};
use tabula_shared::export::ExportFormat;

mod screens;

use screens::register_error;

/// How many games a page of the history holds.
pub const HISTORY_PAGE: u32 = 20;

/// The colour of the "Rated" marks.
const RATED: Color32 = Color32::from_rgb(230, 180, 60);

/// Seconds per animated checker hop.
const HOP_SECS: f32 = 0.25;
/// How long a toast stays.
const TOAST_SECS: u64 = 5;

/// Everything a panel can ask for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Connect with the settings' address.
    Connect,
    /// Start (or find) a server on this computer and connect to it.
    PlayHere,
    /// Close the connection.
    Disconnect,
    /// Send a request as is.
    Send(ClientMessage),
    /// Open or close the create dialog.
    ShowCreate(bool),
    /// Create a room from the dialog's fields.
    CreateRoom,
    /// Join the private room whose code was typed.
    JoinByCode,
    /// Leave the current room.
    Leave,
    /// Place a Gomoku stone.
    Place(Point),
    /// A click or drag on the Backgammon board.
    Board(BoardInput),
    /// Take back the last hop of the play being built.
    UndoHop,
    /// Send the play being built.
    ConfirmPlay,
    /// Turn the board around (spectators).
    Flip,
    /// Close the game-over dialog.
    DismissResult,
    /// Send the chat line typed.
    SendChat,
    /// Show a screen (the lobby, history, leaderboard or the replay viewer).
    ShowScreen(Screen),
    /// Ask for the page of our history that starts at this offset.
    HistoryPage(u32),
    /// Ask for a leaderboard.
    ShowLeaderboard(GameKind, LeaderboardPeriod),
    /// Open a finished game in the replay viewer.
    OpenGame(String),
    /// Show the replay at the position after this many actions.
    ReplayGo(usize),
    /// Turn the replay's board around.
    ReplayFlip,
    /// Leave the replay viewer.
    CloseReplay,
    /// Open or close the account window.
    ShowAccount(bool),
    /// Register our name with the password typed in the account window.
    Register,
    /// Fetch a finished game and open the export window for it.
    ExportGame(String),
    /// Open the export window for the game in the replay viewer.
    ExportReplay,
    /// Choose the export window's file format.
    ExportFormat(ExportFormat),
    /// Write the export file.
    SaveExport,
    /// Close the export window.
    CloseExport,
}

/// What to do with a finished game once the server sends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GameIntent {
    /// Open it in the replay viewer.
    Replay,
    /// Open the export window.
    Export,
}

/// What the main area shows when we are not at a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    /// The rooms.
    Lobby,
    /// Our finished games.
    History,
    /// Ratings.
    Leaderboard,
    /// A finished game, move by move.
    Replay,
}

/// The page of our history on screen.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryPage {
    /// How many newer games come before this page.
    pub offset: u32,
    /// How many games we have in all.
    pub total: u32,
    /// This page, newest first.
    pub games: Vec<GameSummary>,
}

/// The leaderboard on screen.
#[derive(Debug, Clone, PartialEq)]
pub struct Leaderboard {
    /// Which game.
    pub game: GameKind,
    /// All time or the last 7 days.
    pub period: LeaderboardPeriod,
    /// Best first.
    pub entries: Vec<LeaderboardEntry>,
    /// The AI levels' published ratings.
    pub ai: Vec<AiRating>,
}

/// What the account window says after a `register`.
#[derive(Debug, Clone, PartialEq)]
pub enum AccountNote {
    /// Sent, waiting for the answer.
    Pending,
    /// Done.
    Done(String),
    /// Refused, with a readable reason.
    Failed(String),
}

/// The play the local player is building.
struct BgTurn {
    /// The record length it was built for.
    key: usize,
    /// The hops so far.
    builder: TurnBuilder,
    /// The selected checker (mover's number).
    selected: Option<u8>,
    /// Sent and waiting for the server.
    sent: bool,
}

/// An opponent's play being shown hop by hop.
#[derive(Debug, Clone)]
struct Anim {
    side: Side,
    steps: Vec<Position>,
    hops: Vec<Move>,
    dice: Option<[u8; 2]>,
    start: Option<Instant>,
}

/// The Tabula client.
pub struct TabulaApp {
    /// Persisted settings.
    pub settings: Settings,
    net: Network,
    conn: ConnState,
    welcomed: bool,
    my_name: String,
    my_id: String,
    registered: bool,
    /// The account password typed on the connect screen: memory only.
    account_password: String,
    screen: Screen,
    account_open: bool,
    register_password: String,
    register_confirm: String,
    register_request: Option<u64>,
    account_note: Option<AccountNote>,
    history: Option<HistoryPage>,
    history_offset: u32,
    leaderboard_choice: (GameKind, LeaderboardPeriod),
    leaderboard: Option<Leaderboard>,
    replay: Option<Replay>,
    /// Where "Close" in the replay viewer goes back to.
    replay_return: Screen,
    /// The replay position the move list last scrolled to.
    replay_scrolled: Option<usize>,
    /// The pending `get_game` and what to do with the answer.
    game_request: Option<(u64, GameIntent)>,
    export: Option<ExportForm>,
    embedded: Option<EmbeddedServer>,
    host_note: Option<String>,
    /// A new resume token not yet written to disk (see `logic`).
    identity_unsaved: bool,
    rooms: BTreeMap<String, RoomSummary>,
    room: Option<Room>,
    create_open: bool,
    join_code: String,
    chat_input: String,
    toasts: Vec<(String, Instant)>,
    next_request: u64,
    bg: Option<BgTurn>,
    anims: VecDeque<Anim>,
    flipped: bool,
    result_dismissed: bool,
    forbidden: Option<(usize, Vec<Point>)>,
    /// The Gomoku board's geometry in the last frame (for tests and tools).
    pub gomoku_geometry: Option<GomokuGeometry>,
    /// The Backgammon board's geometry in the last frame (for tests and tools).
    pub bg_geometry: Option<bg_view::BgGeometry>,
}

impl TabulaApp {
    /// A new app; `wake` is called from the network thread when something
    /// arrives (eframe passes `ctx.request_repaint`).
    pub fn new(settings: Settings, wake: impl Fn() + Send + Sync + 'static) -> TabulaApp {
        TabulaApp {
            settings,
            net: Network::start(wake),
            conn: ConnState::Disconnected,
            welcomed: false,
            my_name: String::new(),
            my_id: String::new(),
            registered: false,
            account_password: String::new(),
            screen: Screen::Lobby,
            account_open: false,
            register_password: String::new(),
            register_confirm: String::new(),
            register_request: None,
            account_note: None,
            history: None,
            history_offset: 0,
            leaderboard_choice: (GameKind::Gomoku, LeaderboardPeriod::AllTime),
            leaderboard: None,
            replay: None,
            replay_return: Screen::Lobby,
            replay_scrolled: None,
            game_request: None,
            export: None,
            embedded: None,
            host_note: None,
            identity_unsaved: false,
            rooms: BTreeMap::new(),
            room: None,
            create_open: false,
            join_code: String::new(),
            chat_input: String::new(),
            toasts: Vec::new(),
            next_request: 1,
            bg: None,
            anims: VecDeque::new(),
            flipped: false,
            result_dismissed: false,
            forbidden: None,
            gomoku_geometry: None,
            bg_geometry: None,
        }
    }

    /// Builds the app for eframe, restoring the saved settings.
    pub fn from_creation(cc: &eframe::CreationContext<'_>) -> TabulaApp {
        let settings: Settings = cc
            .storage
            .and_then(|s| eframe::get_value(s, crate::settings::STORAGE_KEY))
            .unwrap_or_default();
        let ctx = cc.egui_ctx.clone();
        TabulaApp::new(settings, move || ctx.request_repaint())
    }

    /// The connection state.
    pub fn connection(&self) -> &ConnState {
        &self.conn
    }

    /// The room we are in, if any.
    pub fn room(&self) -> Option<&Room> {
        self.room.as_ref()
    }

    /// The rooms listed in the lobby.
    pub fn lobby(&self) -> impl Iterator<Item = &RoomSummary> {
        self.rooms.values()
    }

    /// The toasts on screen, oldest first.
    pub fn toasts(&self) -> Vec<String> {
        self.toasts.iter().map(|t| t.0.clone()).collect()
    }

    /// The Backgammon play being built, while it is our turn to move.
    pub fn turn(&self) -> Option<&TurnBuilder> {
        self.bg.as_ref().map(|t| &t.builder)
    }

    /// Whether we are signed in to (or just registered) an account.
    pub fn registered(&self) -> bool {
        self.registered
    }

    /// The screen shown when we are not at a board.
    pub fn screen(&self) -> Screen {
        self.screen
    }

    /// The page of our history last received.
    pub fn history(&self) -> Option<&HistoryPage> {
        self.history.as_ref()
    }

    /// The leaderboard last received.
    pub fn leaderboard(&self) -> Option<&Leaderboard> {
        self.leaderboard.as_ref()
    }

    /// The game open in the replay viewer.
    pub fn replay(&self) -> Option<&Replay> {
        self.replay.as_ref()
    }

    /// The export window's state, while it is open.
    pub fn export_form(&self) -> Option<&ExportForm> {
        self.export.as_ref()
    }

    /// What the account window says about the last `register`.
    pub fn account_note(&self) -> Option<&AccountNote> {
        self.account_note.as_ref()
    }

    /// Whether an opponent's play is still being animated.
    pub fn animating(&self) -> bool {
        !self.anims.is_empty()
    }

    /// Runs one whole frame: network, then drawing (used by tests).
    pub fn frame(&mut self, ui: &mut Ui) {
        self.poll(ui.ctx());
        self.draw(ui);
    }

    fn toast(&mut self, text: impl Into<String>) {
        self.toasts.push((text.into(), Instant::now()));
        if self.toasts.len() > 5 {
            self.toasts.remove(0);
        }
    }

    /// Sends a request and returns its `request_id`.
    fn send(&mut self, message: ClientMessage) -> u64 {
        let id = self.next_request;
        let frame = ClientFrame {
            request_id: Some(id),
            message,
        };
        self.next_request += 1;
        self.net.command(NetCommand::Send(frame));
        id
    }

    // ----- network -----------------------------------------------------

    /// Applies everything the network worker reported.
    pub fn poll(&mut self, ctx: &egui::Context) {
        for event in self.net.poll() {
            match event {
                NetEvent::State(state) => {
                    if let ConnState::Refused(_) = &state {
                        // The connect screen says why.
                        self.welcomed = false;
                        self.room = None;
                    }
                    self.conn = state;
                }
                NetEvent::Notice(text) => self.toast(text),
                NetEvent::Frame(frame) => self.handle_frame(frame),
            }
        }
        if let Some(room) = &mut self.room
            && room.needs_sync
            && room.summary.is_some()
        {
            room.needs_sync = false;
            let id = room.id.clone();
            self.send(ClientMessage::Sync { room_id: id });
        }
        self.sync_bg_turn();
        self.toasts
            .retain(|t| t.1.elapsed() < Duration::from_secs(TOAST_SECS));
        if !self.toasts.is_empty()
            || self
                .room
                .as_ref()
                .is_some_and(|r| r.clock.is_some() || r.grace_until.iter().any(Option::is_some))
        {
            ctx.request_repaint_after(Duration::from_millis(250));
        }
        if !self.anims.is_empty() {
            ctx.request_repaint();
        }
    }

    fn handle_frame(&mut self, frame: ServerFrame) {
        match frame.message {
            ServerMessage::Welcome {
                name,
                rooms,
                token,
                player_id,
                registered,
                ..
            } => {
                self.welcomed = true;
                self.my_id = player_id;
                self.registered = registered;
                // Signed in: the token now stands for the account.
                self.account_password.clear();
                let address = self.settings.address.trim().to_string();
                if self.settings.tokens.get(&address) != Some(&token) {
                    self.settings.tokens.insert(address, token);
                    self.identity_unsaved = true;
                }
                self.my_name = name;
                if let Some(room) = &self.room {
                    let since = room.summary.is_some().then_some(room.seq);
                    let msg = ClientMessage::JoinRoom {
                        room_id: room.id.clone(),
                        role: room.role,
                        since,
                    };
                    self.send(msg);
                } else if let Some(id) = rooms.first() {
                    self.send(ClientMessage::JoinRoom {
                        room_id: id.clone(),
                        role: Role::Player,
                        since: None,
                    });
                }
                self.send(ClientMessage::ListRooms);
            }
            ServerMessage::RoomList { rooms } => {
                self.rooms = rooms.into_iter().map(|r| (r.room_id.clone(), r)).collect();
            }
            ServerMessage::RoomUpdated { room } => {
                self.rooms.insert(room.room_id.clone(), room);
            }
            ServerMessage::RoomRemoved { room_id } => {
                self.rooms.remove(&room_id);
            }
            ServerMessage::Joined {
                room_id,
                role,
                seat,
            } => match &mut self.room {
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
                }
            },
            ServerMessage::Left { room_id } => {
                if self.room.as_ref().is_some_and(|r| r.id == room_id) {
                    self.room = None;
                }
            }
            ServerMessage::Snapshot { room_id, snapshot } => {
                if let Some(room) = &mut self.room
                    && room.id == room_id
                {
                    let was_over = room.result.is_some();
                    room.apply_snapshot(*snapshot);
                    if !was_over || room.result.is_none() {
                        self.result_dismissed = false;
                    }
                    self.bg = None;
                    self.anims.clear();
                    self.forbidden = None;
                }
            }
            ServerMessage::Event {
                room_id,
                seq,
                event,
            } => {
                let Some(room) = &mut self.room else { return };
                if room.id != room_id {
                    return;
                }
                let updates = room.apply_event(seq, event);
                for update in updates {
                    match update {
                        RoomUpdate::Notice(text) => self.toast(text),
                        RoomUpdate::Animate { side, start, play } => {
                            self.queue_anim(side, start, play)
                        }
                    }
                }
                if self.room.as_ref().is_some_and(|r| r.result.is_none()) {
                    self.result_dismissed = false;
                }
            }
            ServerMessage::Error { code, message } => {
                if frame.request_id.is_some() && frame.request_id == self.register_request {
                    self.register_request = None;
                    self.account_note = Some(AccountNote::Failed(register_error(code, &message)));
                    return;
                }
                if let Some((id, _)) = self.game_request
                    && frame.request_id == Some(id)
                {
                    self.game_request = None;
                    self.toast(format!("Could not open the game: {message}"));
                    return;
                }
                self.toast(message);
                if let Some(turn) = &mut self.bg
                    && turn.sent
                {
                    turn.key = usize::MAX;
                }
                if let Some(room) = &self.room
                    && room.summary.is_none()
                {
                    // The join failed (room gone, full...): back to the lobby.
                    self.room = None;
                }
            }
            ServerMessage::Shutdown { message } => self.toast(message),
            ServerMessage::Ok | ServerMessage::Pong => {}
            ServerMessage::Registered { name } => {
                self.registered = true;
                self.register_request = None;
                self.account_note = Some(AccountNote::Done(format!(
                    "Registered: \"{name}\" is now your account. Sign in with it from any computer."
                )));
            }
            ServerMessage::GameList {
                offset,
                total,
                games,
            } => {
                self.history = Some(HistoryPage {
                    offset,
                    total,
                    games,
                });
            }
            ServerMessage::Game { game } => match self.game_request {
                Some((id, intent)) if frame.request_id == Some(id) => {
                    self.game_request = None;
                    match intent {
                        GameIntent::Replay => {
                            if self.screen != Screen::Replay {
                                self.replay_return = self.screen;
                            }
                            self.replay = Some(Replay::new(*game, Some(&self.my_id)));
                            self.replay_scrolled = None;
                            self.screen = Screen::Replay;
                        }
                        GameIntent::Export => self.export = Some(ExportForm::new(*game)),
                    }
                }
                _ => {}
            },
            ServerMessage::Leaderboard {
                game,
                period,
                entries,
                ai,
            } => {
                self.leaderboard = Some(Leaderboard {
                    game,
                    period,
                    entries,
                    ai,
                });
            }
        }
    }

    fn my_side(&self) -> Option<Side> {
        let room = self.room.as_ref()?;
        room.is_player().then_some(())?;
        room.seat.map(side_of)
    }

    /// The side whose view the Backgammon board shows: ours when seated, else
    /// White, or Black when flipped.
    fn bg_viewer(&self) -> Side {
        match self.my_side() {
            Some(side) => side,
            None if self.flipped => Side::Black,
            None => Side::White,
        }
    }

    fn queue_anim(&mut self, side: Side, start: Position, play: Play) {
        if Some(side) == self.my_side() {
            return;
        }
        let mut steps = vec![start];
        let mut pos = start;
        for m in &play.moves {
            let Ok(next) = pos.apply(&Play { moves: vec![*m] }) else {
                return;
            };
            steps.push(next);
            pos = next;
        }
        let dice = self.room.as_ref().and_then(|r| match &r.record {
            Some(GameRecord::Backgammon { actions, .. }) => {
                actions.iter().rev().find_map(|a| match a {
                    BgAction::Roll { dice, .. } => Some(*dice),
                    BgAction::OpeningRoll { white, black } => Some([*white, *black]),
                    _ => None,
                })
            }
            _ => None,
        });
        self.anims.push_back(Anim {
            side,
            steps,
            hops: play.moves,
            dice,
            start: None,
        });
    }

    /// Keeps the play builder in step with the game: one exists exactly
    /// while it is our turn to move a checker.
    fn sync_bg_turn(&mut self) {
        let want = (|| {
            let room = self.room.as_ref()?;
            let me = self.my_side()?;
            let game = room.backgammon()?;
            let key = room.record.as_ref()?.len();
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
                    self.bg = Some(BgTurn {
                        key,
                        builder: TurnBuilder::new(pos, dice, twice),
                        selected: None,
                        sent: false,
                    });
                }
            }
        }
    }

    // ----- commands ----------------------------------------------------

    /// Applies one command: the only place that changes state on the UI's behalf.
    pub fn apply(&mut self, command: Command) {
        match command {
            Command::Connect => self.connect(),
            Command::PlayHere => {
                if let Err(reason) = validate_name(&self.settings.name) {
                    self.toast(format!("Name: {reason}"));
                    return;
                }
                if self.embedded.is_none() {
                    if embedded::server_answers(DEFAULT_ADDRESS) {
                        self.settings.address = DEFAULT_ADDRESS.into();
                        self.host_note = Some(match embedded::lan_ip() {
                            Some(ip) => format!(
                                "A server already runs on this computer; friends join at {ip}:{}",
                                embedded::DEFAULT_PORT
                            ),
                            None => "A server already runs on this computer".into(),
                        });
                    } else {
                        match EmbeddedServer::start(embedded::data_dir()) {
                            Ok(server) => {
                                self.settings.address = server.local_address();
                                self.host_note = Some(match &server.lan_address {
                                    Some(lan) => format!("Hosting: friends join at {lan}"),
                                    None => format!(
                                        "Hosting on {} (this computer only)",
                                        server.local_address()
                                    ),
                                });
                                self.embedded = Some(server);
                            }
                            Err(e) => {
                                self.toast(format!("Could not start a server: {e}"));
                                return;
                            }
                        }
                    }
                }
                self.connect();
            }
            Command::Disconnect => {
                self.net.command(NetCommand::Disconnect);
                self.welcomed = false;
                self.registered = false;
                self.room = None;
                self.rooms.clear();
                self.forget_account_views();
            }
            Command::Send(message) => {
                self.send(message);
            }
            Command::ShowCreate(open) => self.create_open = open,
            Command::CreateRoom => {
                self.create_open = false;
                let mut options = self.settings.create.options();
                // Rated rooms need an account; the checkbox is off for guests.
                options.rated &= self.registered;
                self.send(ClientMessage::CreateRoom { options });
            }
            Command::JoinByCode => {
                let code = self.join_code.trim().to_uppercase();
                if !code.is_empty() {
                    self.send(ClientMessage::JoinByCode { code });
                }
            }
            Command::Leave => {
                if let Some(room) = self.room.take() {
                    self.send(ClientMessage::LeaveRoom { room_id: room.id });
                }
                self.bg = None;
                self.anims.clear();
                self.send(ClientMessage::ListRooms);
            }
            Command::Place(point) => {
                if let Some(room) = &self.room {
                    let msg = ClientMessage::Act {
                        room_id: room.id.clone(),
                        action: PlayerAction::Place { point },
                    };
                    self.send(msg);
                }
            }
            Command::Board(input) => self.board_input(input),
            Command::UndoHop => {
                if let Some(turn) = &mut self.bg
                    && !turn.sent
                {
                    turn.builder.undo();
                    turn.selected = None;
                }
            }
            Command::ConfirmPlay => {
                let Some(room_id) = self.room.as_ref().map(|r| r.id.clone()) else {
                    return;
                };
                if let Some(turn) = &mut self.bg
                    && !turn.sent
                    && turn.builder.is_complete()
                {
                    turn.sent = true;
                    let play = turn.builder.play();
                    self.send(ClientMessage::Act {
                        room_id,
                        action: PlayerAction::Play { play },
                    });
                }
            }
            Command::Flip => self.flipped = !self.flipped,
            Command::DismissResult => self.result_dismissed = true,
            Command::SendChat => {
                let text = self.chat_input.trim().to_string();
                if let (false, Some(room)) = (text.is_empty(), &self.room) {
                    let msg = ClientMessage::Chat {
                        room_id: room.id.clone(),
                        text,
                    };
                    self.send(msg);
                    self.chat_input.clear();
                }
            }
            Command::ShowScreen(screen) => {
                match screen {
                    Screen::History => {
                        let offset = self.history_offset;
                        self.apply(Command::HistoryPage(offset));
                    }
                    Screen::Leaderboard => {
                        let (game, period) = self.leaderboard_choice;
                        self.apply(Command::ShowLeaderboard(game, period));
                    }
                    Screen::Lobby => {
                        self.send(ClientMessage::ListRooms);
                    }
                    Screen::Replay => {}
                }
                if screen != Screen::Replay || self.replay.is_some() {
                    self.screen = screen;
                }
            }
            Command::HistoryPage(offset) => {
                self.history_offset = offset;
                self.send(ClientMessage::ListGames {
                    offset,
                    limit: HISTORY_PAGE,
                });
            }
            Command::ShowLeaderboard(game, period) => {
                self.leaderboard_choice = (game, period);
                self.send(ClientMessage::GetLeaderboard { game, period });
            }
            Command::OpenGame(game_id) => {
                let id = self.send(ClientMessage::GetGame { game_id });
                self.game_request = Some((id, GameIntent::Replay));
            }
            Command::ExportGame(game_id) => {
                let id = self.send(ClientMessage::GetGame { game_id });
                self.game_request = Some((id, GameIntent::Export));
            }
            Command::ExportReplay => {
                if let Some(replay) = &self.replay {
                    self.export = Some(ExportForm::new(replay.game.clone()));
                }
            }
            Command::ExportFormat(format) => {
                if let Some(form) = &mut self.export {
                    form.set_format(format);
                }
            }
            Command::SaveExport => {
                if let Some(form) = &mut self.export {
                    form.save();
                }
            }
            Command::CloseExport => self.export = None,
            Command::ReplayGo(n) => {
                if let Some(replay) = &mut self.replay {
                    replay.go_to(n);
                }
            }
            Command::ReplayFlip => {
                if let Some(replay) = &mut self.replay {
                    replay.flip();
                }
            }
            Command::CloseReplay => {
                self.screen = self.replay_return;
                if self.screen == Screen::History {
                    let offset = self.history_offset;
                    self.apply(Command::HistoryPage(offset));
                }
            }
            Command::ShowAccount(open) => {
                self.account_open = open;
                if !open {
                    self.register_password.clear();
                    self.register_confirm.clear();
                }
            }
            Command::Register => {
                if self.register_password != self.register_confirm {
                    self.account_note =
                        Some(AccountNote::Failed("The two passwords differ.".into()));
                    return;
                }
                let password = std::mem::take(&mut self.register_password);
                self.register_confirm.clear();
                let id = self.send(ClientMessage::Register { password });
                self.register_request = Some(id);
                self.account_note = Some(AccountNote::Pending);
            }
        }
    }

    /// Drops what belonged to the identity we were connected as.
    fn forget_account_views(&mut self) {
        self.screen = Screen::Lobby;
        self.history = None;
        self.history_offset = 0;
        self.leaderboard = None;
        self.replay = None;
        self.export = None;
        self.account_open = false;
        self.account_note = None;
        self.register_password.clear();
        self.register_confirm.clear();
    }

    fn connect(&mut self) {
        match validate_name(&self.settings.name) {
            Ok(name) => {
                self.settings.name = name.clone();
                let password = Some(self.settings.password.clone()).filter(|p| !p.is_empty());
                let address = self.settings.address.trim().to_string();
                let token = self.settings.tokens.get(&address).cloned();
                let account_password =
                    Some(self.account_password.clone()).filter(|p| !p.is_empty());
                self.net.command(NetCommand::Connect(Target {
                    address,
                    name,
                    password,
                    token,
                    account_password,
                }));
                self.room = None;
                self.rooms.clear();
                self.registered = false;
                self.forget_account_views();
            }
            Err(reason) => self.toast(format!("Name: {reason}")),
        }
    }

    fn board_input(&mut self, input: BoardInput) {
        let Some(turn) = &mut self.bg else { return };
        if turn.sent {
            return;
        }
        match input {
            BoardInput::Click(loc) => {
                let n = loc.number();
                if let Some(from) = turn.selected
                    && turn.builder.destinations(from).contains(&n)
                {
                    turn.builder.hop(from, n);
                    turn.selected = None;
                } else if turn.builder.movable().contains(&n) && loc != Loc::Off {
                    turn.selected = if turn.selected == Some(n) {
                        None
                    } else {
                        Some(n)
                    };
                } else {
                    turn.selected = None;
                }
            }
            BoardInput::DragStart(loc) => {
                let n = loc.number();
                if turn.builder.movable().contains(&n) && loc != Loc::Off {
                    turn.selected = Some(n);
                }
            }
            BoardInput::DragEnd(loc) => {
                if let Some(from) = turn.selected.take()
                    && from != loc.number()
                {
                    turn.builder.hop(from, loc.number());
                }
            }
        }
    }

    // ----- drawing -----------------------------------------------------

    /// Draws every panel and applies the commands they return.
    pub fn draw(&mut self, ui: &mut Ui) {
        let mut commands = Vec::new();
        egui::Panel::top("top").show(ui, |ui| commands.extend(self.top_bar(ui)));
        if self.screen == Screen::Replay && self.replay.is_some() {
            egui::Panel::right("replay")
                .default_size(320.0)
                .show(ui, |ui| commands.extend(self.replay_panel(ui)));
            egui::CentralPanel::default().show(ui, |ui| commands.extend(self.replay_board(ui)));
        } else if self.room.is_some() {
            egui::Panel::right("room")
                .default_size(300.0)
                .show(ui, |ui| commands.extend(self.room_panel(ui)));
            egui::CentralPanel::default().show(ui, |ui| commands.extend(self.board(ui)));
            commands.extend(self.result_dialog(ui.ctx()));
        } else if self.welcomed {
            egui::CentralPanel::default().show(ui, |ui| match self.screen {
                Screen::History => commands.extend(self.history_panel(ui)),
                Screen::Leaderboard => commands.extend(self.leaderboard_panel(ui)),
                Screen::Lobby | Screen::Replay => commands.extend(self.lobby_panel(ui)),
            });
            if self.create_open && matches!(self.screen, Screen::Lobby | Screen::Replay) {
                commands.extend(self.create_dialog(ui.ctx()));
            }
        } else {
            egui::CentralPanel::default().show(ui, |ui| commands.extend(self.connect_panel(ui)));
        }
        if self.welcomed && self.account_open {
            commands.extend(self.account_window(ui.ctx()));
        }
        if self.export.is_some() {
            commands.extend(self.export_window(ui.ctx()));
        }
        self.toasts_area(ui.ctx());
        for command in commands {
            self.apply(command);
        }
    }

    fn top_bar(&mut self, ui: &mut Ui) -> Vec<Command> {
        let mut out = Vec::new();
        ui.horizontal(|ui| {
            ui.heading("Tabula");
            ui.separator();
            let (text, colour) = match &self.conn {
                ConnState::Disconnected => ("Disconnected".to_string(), Color32::GRAY),
                ConnState::Connecting(n) if *n <= 1 => (
                    format!("Connecting to {}…", self.settings.address),
                    Color32::YELLOW,
                ),
                ConnState::Connecting(n) => {
                    (format!("Reconnecting (attempt {n})…"), Color32::YELLOW)
                }
                ConnState::Connected => (
                    format!(
                        "Connected to {} as {} ({})",
                        self.settings.address,
                        self.my_name,
                        if self.registered {
                            "registered"
                        } else {
                            "guest"
                        }
                    ),
                    Color32::from_rgb(80, 200, 80),
                ),
                ConnState::Retrying {
                    reason, in_secs, ..
                } => (
                    format!("Connection lost ({reason}); retrying in {in_secs} s"),
                    Color32::from_rgb(240, 140, 40),
                ),
                ConnState::Refused(reason) => (format!("Refused: {reason}"), Color32::RED),
            };
            dot(ui, colour, 10.0);
            ui.label(text);
            if let Some(note) = &self.host_note {
                ui.separator();
                ui.label(RichText::new(note).strong());
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let online = self.welcomed
                    || !matches!(self.conn, ConnState::Disconnected | ConnState::Refused(_));
                if online && ui.button("Disconnect").clicked() {
                    out.push(Command::Disconnect);
                }
                if self.room.is_some() && ui.button("Leave room").clicked() {
                    out.push(Command::Leave);
                }
                if self.welcomed {
                    if ui
                        .button("Account…")
                        .on_hover_text("Your account: register this name")
                        .clicked()
                    {
                        out.push(Command::ShowAccount(!self.account_open));
                    }
                    if self.room.is_none() {
                        ui.separator();
                        // Right to left: the last tab first.
                        for (screen, label) in [
                            (Screen::Leaderboard, "Leaderboard"),
                            (Screen::History, "History"),
                            (Screen::Lobby, "Lobby"),
                        ] {
                            if ui.selectable_label(self.screen == screen, label).clicked() {
                                out.push(Command::ShowScreen(screen));
                            }
                        }
                    }
                }
            });
        });
        out
    }

    fn connect_panel(&mut self, ui: &mut Ui) -> Vec<Command> {
        let mut out = Vec::new();
        ui.vertical_centered(|ui| {
            ui.add_space(40.0);
            ui.heading("Gomoku and Backgammon with friends");
            ui.add_space(20.0);
        });
        egui::Grid::new("connect")
            .num_columns(2)
            .spacing([12.0, 10.0])
            .show(ui, |ui| {
                let l = ui.label("Display name");
                ui.text_edit_singleline(&mut self.settings.name)
                    .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Server address");
                ui.text_edit_singleline(&mut self.settings.address)
                    .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Server password");
                ui.add(
                    egui::TextEdit::singleline(&mut self.settings.password)
                        .password(true)
                        .hint_text("optional"),
                )
                .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Account password");
                ui.add(
                    egui::TextEdit::singleline(&mut self.account_password)
                        .password(true)
                        .hint_text("only to sign in to a registered name"),
                )
                .labelled_by(l.id)
                .on_hover_text("Leave empty to play as a guest. Never saved on this computer.");
                ui.end_row();
            });
        if let ConnState::Refused(reason) = &self.conn {
            ui.add_space(8.0);
            ui.label(RichText::new(reason).color(Color32::from_rgb(230, 80, 60)));
        }
        ui.add_space(12.0);
        ui.horizontal(|ui| {
            if ui.button("Connect").clicked() {
                out.push(Command::Connect);
            }
            if ui.button("Play on this computer").on_hover_text(
                "Start a server inside this app (or use the one already running here) and connect to it",
            ).clicked() {
                out.push(Command::PlayHere);
            }
        });
        if ui.input(|i| i.key_pressed(Key::Enter)) {
            out.push(Command::Connect);
        }
        out
    }

    fn lobby_panel(&mut self, ui: &mut Ui) -> Vec<Command> {
        let mut out = Vec::new();
        ui.horizontal(|ui| {
            if ui.button("Create room…").clicked() {
                out.push(Command::ShowCreate(true));
            }
            ui.separator();
            ui.label("Game");
            egui::ComboBox::from_id_salt("filter_game")
                .selected_text(match self.settings.filter_game {
                    None => "All",
                    Some(GameKind::Gomoku) => "Gomoku",
                    Some(GameKind::Backgammon) => "Backgammon",
                })
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.settings.filter_game, None, "All");
                    ui.selectable_value(
                        &mut self.settings.filter_game,
                        Some(GameKind::Gomoku),
                        "Gomoku",
                    );
                    ui.selectable_value(
                        &mut self.settings.filter_game,
                        Some(GameKind::Backgammon),
                        "Backgammon",
                    );
                });
            ui.checkbox(&mut self.settings.waiting_only, "Waiting only");
            ui.separator();
            let l = ui.label("Private code");
            ui.add(egui::TextEdit::singleline(&mut self.join_code).desired_width(80.0))
                .labelled_by(l.id);
            if ui.button("Join by code").clicked() {
                out.push(Command::JoinByCode);
            }
        });
        ui.separator();
        let rooms: Vec<&RoomSummary> = self
            .rooms
            .values()
            .filter(|r| {
                self.settings
                    .filter_game
                    .is_none_or(|g| r.options.game.kind() == g)
            })
            .filter(|r| !self.settings.waiting_only || r.status == RoomStatus::Waiting)
            .collect();
        if rooms.is_empty() {
            ui.label("No rooms yet. Create one!");
            return out;
        }
        egui::ScrollArea::vertical().show(ui, |ui| {
            egui::Grid::new("rooms")
                .striped(true)
                .num_columns(8)
                .spacing([16.0, 6.0])
                .show(ui, |ui| {
                    for h in [
                        "Game", "Rules", "Rated", "Players", "Clock", "Status", "Watching", "",
                    ] {
                        ui.label(RichText::new(h).strong());
                    }
                    ui.end_row();
                    for r in rooms {
                        ui.label(match r.options.game.kind() {
                            GameKind::Gomoku => "Gomoku",
                            GameKind::Backgammon => "Backgammon",
                        });
                        ui.label(rules_text(&r.options.game));
                        if r.options.rated {
                            ui.label(RichText::new("Rated").strong().color(RATED));
                        } else {
                            ui.label("—");
                        }
                        let names: Vec<String> = r
                            .seats
                            .iter()
                            .map(|s| {
                                s.player
                                    .as_ref()
                                    .map_or_else(|| "—".to_string(), |p| p.name.clone())
                            })
                            .collect();
                        ui.label(names.join(" vs "));
                        ui.label(r.options.time_control.map_or_else(
                            || "—".into(),
                            |t| format!("{}+{}", t.initial_secs / 60, t.increment_secs),
                        ));
                        ui.label(match r.status {
                            RoomStatus::Waiting => "waiting",
                            RoomStatus::Playing => "playing",
                            RoomStatus::Finished => "finished",
                        });
                        ui.label(r.spectators.to_string());
                        ui.horizontal(|ui| {
                            if r.status == RoomStatus::Waiting && ui.button("Join").clicked() {
                                out.push(Command::Send(ClientMessage::JoinRoom {
                                    room_id: r.room_id.clone(),
                                    role: Role::Player,
                                    since: None,
                                }));
                            }
                            if ui.button("Watch").clicked() {
                                out.push(Command::Send(ClientMessage::JoinRoom {
                                    room_id: r.room_id.clone(),
                                    role: Role::Spectator,
                                    since: None,
                                }));
                            }
                        });
                        ui.end_row();
                    }
                });
        });
        out
    }

    fn create_dialog(&mut self, ctx: &egui::Context) -> Vec<Command> {
        let mut out = Vec::new();
        let f = &mut self.settings.create;
        egui::Window::new("Create room")
            .collapsible(false)
            .resizable(false)
            .anchor(Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    ui.label("Game");
                    ui.radio_value(&mut f.game, GameKind::Gomoku, "Gomoku");
                    ui.radio_value(&mut f.game, GameKind::Backgammon, "Backgammon");
                });
                ui.separator();
                match f.game {
                    GameKind::Gomoku => {
                        ui.horizontal(|ui| {
                            ui.label("Board");
                            ui.radio_value(&mut f.size, 15, "15×15");
                            ui.radio_value(&mut f.size, 19, "19×19");
                        });
                        ui.horizontal(|ui| {
                            ui.label("Rules");
                            ui.radio_value(&mut f.rule, Rule::Freestyle, "Freestyle");
                            ui.radio_value(&mut f.rule, Rule::Standard, "Standard");
                            ui.radio_value(&mut f.rule, Rule::Renju, "Renju");
                        });
                        ui.horizontal(|ui| {
                            ui.label("Opening");
                            ui.radio_value(
                                &mut f.opening,
                                tabula_shared::gomoku::Opening::None,
                                "None",
                            );
                            ui.radio_value(
                                &mut f.opening,
                                tabula_shared::gomoku::Opening::Swap2,
                                "Swap2",
                            );
                        });
                    }
                    GameKind::Backgammon => {
                        ui.horizontal(|ui| {
                            ui.label("Match to");
                            ui.add(egui::DragValue::new(&mut f.length).range(0..=25));
                            ui.label(if f.length == 0 {
                                "(money game)"
                            } else {
                                "points"
                            });
                        });
                        ui.horizontal(|ui| {
                            ui.checkbox(&mut f.cube, "Cube");
                            ui.checkbox(&mut f.crawford, "Crawford");
                            ui.checkbox(&mut f.jacoby, "Jacoby");
                        });
                    }
                }
                ui.separator();
                ui.horizontal(|ui| {
                    ui.label("Opponent");
                    ui.radio_value(&mut f.vs_ai, false, "Human");
                    ui.radio_value(&mut f.vs_ai, true, "AI");
                    if f.vs_ai {
                        egui::ComboBox::from_id_salt("level")
                            .selected_text(level_name(f.level))
                            .show_ui(ui, |ui| {
                                for l in AiLevel::ALL {
                                    ui.selectable_value(&mut f.level, l, level_name(l));
                                }
                            });
                    }
                });
                ui.horizontal(|ui| {
                    ui.label("Colour");
                    // The first seat's colour comes first: black in Gomoku, white in Backgammon.
                    let choices = match f.game {
                        GameKind::Gomoku => [
                            (ColourChoice::Black, "Black (first)"),
                            (ColourChoice::White, "White"),
                        ],
                        GameKind::Backgammon => [
                            (ColourChoice::White, "White"),
                            (ColourChoice::Black, "Black"),
                        ],
                    };
                    for (colour, label) in choices {
                        ui.radio_value(&mut f.colour, colour, label);
                    }
                    ui.radio_value(&mut f.colour, ColourChoice::Random, "Random");
                });
                ui.horizontal(|ui| {
                    ui.checkbox(&mut f.timed, "Clock");
                    if f.timed {
                        ui.add(
                            egui::DragValue::new(&mut f.minutes)
                                .range(1..=180)
                                .suffix(" min"),
                        );
                        ui.label("+");
                        ui.add(
                            egui::DragValue::new(&mut f.increment)
                                .range(0..=60)
                                .suffix(" s"),
                        );
                    }
                });
                ui.checkbox(&mut f.private, "Private (join by code)");
                if !f.vs_ai {
                    let enabled = self.registered;
                    let mut rated = f.rated && enabled;
                    let response = ui
                        .add_enabled(enabled, egui::Checkbox::new(&mut rated, "Rated"))
                        .on_hover_text("The result changes both players' ratings")
                        .on_disabled_hover_text(
                            "Rated games are for registered names: register yours under Account…",
                        );
                    if response.changed() {
                        f.rated = rated;
                    }
                }
                ui.separator();
                ui.horizontal(|ui| {
                    if ui.button("Create").clicked() {
                        out.push(Command::CreateRoom);
                    }
                    if ui.button("Cancel").clicked() {
                        out.push(Command::ShowCreate(false));
                    }
                });
            });
        out
    }

    fn room_panel(&mut self, ui: &mut Ui) -> Vec<Command> {
        let mut out = Vec::new();
        let Some(room) = &self.room else { return out };
        let Some(summary) = &room.summary else {
            ui.spinner();
            ui.label("Joining…");
            return out;
        };
        ui.heading(match summary.options.game.kind() {
            GameKind::Gomoku => "Gomoku",
            GameKind::Backgammon => "Backgammon",
        });
        ui.label(rules_text(&summary.options.game));
        if let Some(code) = &room.code {
            ui.label(RichText::new(format!("Private room — code {code}")).strong());
        }
        ui.separator();
        let clock = room.clock_now();
        for info in &summary.seats {
            ui.horizontal(|ui| {
                let colour = seat_colour(room, info.seat);
                dot(ui, colour.0, 16.0).on_hover_text(colour.1);
                let name = info
                    .player
                    .as_ref()
                    .map_or("(empty seat)", |p| p.name.as_str());
                let you = if room.seat == Some(info.seat) && room.is_player() {
                    " (you)"
                } else {
                    ""
                };
                let turn = turn_seat(room) == Some(info.seat);
                let text = RichText::new(format!("{name}{you}"));
                ui.label(if turn {
                    text.strong().underline()
                } else {
                    text
                });
                if info.player.is_some() && !info.connected {
                    let left = room.grace_until[seat_index(info.seat)]
                        .map(|t| t.saturating_duration_since(Instant::now()).as_secs());
                    ui.label(
                        RichText::new(match left {
                            Some(s) => format!("disconnected — {s} s"),
                            None => "disconnected".into(),
                        })
                        .color(Color32::from_rgb(240, 140, 40)),
                    );
                }
                if let Some((ms, running)) = clock {
                    let ms = ms[seat_index(info.seat)];
                    let text = format!("{}:{:02}", ms / 60_000, (ms / 1000) % 60);
                    let rt = RichText::new(text).monospace().size(16.0);
                    ui.label(if running == Some(info.seat) {
                        rt.strong().color(Color32::YELLOW)
                    } else {
                        rt
                    });
                }
            });
        }
        ui.label(format!("{} watching", summary.spectators));
        ui.separator();
        ui.label(RichText::new(status_text(room)).strong());

        // Game controls.
        let player = room.is_player();
        let over = room.result.is_some();
        match &room.live {
            Some(LiveGame::Gomoku(game)) => {
                if player && game.to_act() == room.seat && !over {
                    let choices: &[(Swap2Choice, &str)] = match game.phase() {
                        Phase::Swap2Choose => &[
                            (Swap2Choice::PlayBlack, "Play black"),
                            (Swap2Choice::PlayWhite, "Play white"),
                            (Swap2Choice::PlaceTwo, "Place two more"),
                        ],
                        Phase::Swap2FinalChoose => &[
                            (Swap2Choice::PlayBlack, "Play black"),
                            (Swap2Choice::PlayWhite, "Play white"),
                        ],
                        _ => &[],
                    };
                    if !choices.is_empty() {
                        ui.label("Swap2: choose");
                        ui.horizontal(|ui| {
                            for (choice, label) in choices {
                                if ui.button(*label).clicked() {
                                    out.push(Command::Send(ClientMessage::Act {
                                        room_id: room.id.clone(),
                                        action: PlayerAction::Choose { choice: *choice },
                                    }));
                                }
                            }
                        });
                    }
                }
                ui.checkbox(&mut self.settings.show_numbers, "Move numbers");
            }
            Some(LiveGame::Backgammon(game)) => {
                let score = game.score();
                let length = game.config().length;
                ui.label(if length == 0 {
                    format!("Money game — White {} · Black {}", score[0], score[1])
                } else {
                    format!(
                        "Match to {length} — White {} · Black {}{}",
                        score[0],
                        score[1],
                        if game.is_crawford_game() {
                            " (Crawford)"
                        } else {
                            ""
                        }
                    )
                });
                let (w, b) = game.position_for(Side::White).pip_count();
                ui.label(format!("Pips: White {w} · Black {b}"));
                let cube = game.cube();
                ui.label(format!(
                    "Cube: {}{}",
                    cube.value,
                    cube.owner.map_or(" (centred)".into(), |s| format!(
                        ", owned by {}",
                        side_name(s)
                    ))
                ));
                if let Some(GameRecord::Backgammon { actions, .. }) = &room.record
                    && let Some(last) = crate::replay::last_play(actions, self.bg_viewer())
                {
                    ui.label(format!("Last move: {last}"));
                }
                if let (true, Some(me), false) = (player, room.seat.map(side_of), over) {
                    let anim = !self.anims.is_empty();
                    ui.horizontal(|ui| match *game.phase() {
                        GamePhase::AwaitingRoll { side } if side == me && !anim => {
                            if ui.button("Roll").clicked() {
                                out.push(act(room, PlayerAction::Roll));
                            }
                            if game.can_double(me) && ui.button("Double").clicked() {
                                out.push(act(room, PlayerAction::Double));
                            }
                        }
                        GamePhase::CubeOffered { by } if by != me => {
                            ui.label(format!("{} doubles.", side_name(by)));
                            if ui.button("Take").clicked() {
                                out.push(act(room, PlayerAction::Take));
                            }
                            if ui.button("Drop").clicked() {
                                out.push(act(room, PlayerAction::Drop));
                            }
                        }
                        _ => {}
                    });
                    if let Some(turn) = &self.bg {
                        let play = turn.builder.play();
                        ui.label(format!(
                            "Your move: {}",
                            if play.moves.is_empty() {
                                "click a checker".to_string()
                            } else {
                                play.to_string()
                            }
                        ));
                        ui.horizontal(|ui| {
                            if ui
                                .add_enabled(
                                    !turn.builder.hops().is_empty() && !turn.sent,
                                    egui::Button::new("Undo"),
                                )
                                .clicked()
                            {
                                out.push(Command::UndoHop);
                            }
                            if ui
                                .add_enabled(
                                    turn.builder.is_complete() && !turn.sent,
                                    egui::Button::new("Confirm"),
                                )
                                .clicked()
                            {
                                out.push(Command::ConfirmPlay);
                            }
                        });
                    }
                }
            }
            None => {}
        }

        ui.separator();
        if player {
            let playing = summary.status == RoomStatus::Playing && !over;
            ui.horizontal_wrapped(|ui| {
                if playing && matches!(room.live, Some(LiveGame::Backgammon(_))) {
                    // Backgammon: concede a single game, a gammon or a backgammon.
                    ui.menu_button("Resign", |ui| {
                        for (label, kind) in [
                            ("Resign a single game", ResignKind::Single),
                            ("Resign a gammon", ResignKind::Gammon),
                            ("Resign a backgammon", ResignKind::Backgammon),
                        ] {
                            if ui.button(label).clicked() {
                                out.push(Command::Send(ClientMessage::Resign {
                                    room_id: room.id.clone(),
                                    kind: Some(kind),
                                }));
                            }
                        }
                    });
                } else if playing && ui.button("Resign").clicked() {
                    out.push(Command::Send(ClientMessage::Resign {
                        room_id: room.id.clone(),
                        kind: None,
                    }));
                }
                if playing
                    && matches!(room.live, Some(LiveGame::Gomoku(_)))
                    && ui.button("Offer draw").clicked()
                {
                    out.push(Command::Send(ClientMessage::OfferDraw {
                        room_id: room.id.clone(),
                    }));
                }
                if playing && summary.options.takebacks && ui.button("Takeback").clicked() {
                    out.push(Command::Send(ClientMessage::RequestTakeback {
                        room_id: room.id.clone(),
                    }));
                }
                if over && ui.button("Rematch").clicked() {
                    out.push(Command::Send(ClientMessage::Rematch {
                        room_id: room.id.clone(),
                    }));
                }
                let opponent_gone = room.seat.is_some_and(|s| {
                    room.grace_until[seat_index(s.other())].is_some_and(|t| t <= Instant::now())
                });
                if playing && opponent_gone && ui.button("Claim win").clicked() {
                    out.push(Command::Send(ClientMessage::ClaimWin {
                        room_id: room.id.clone(),
                    }));
                }
            });
            let mut muted = room.spectators_muted;
            if ui.checkbox(&mut muted, "Mute spectator chat").changed() {
                out.push(Command::Send(ClientMessage::MuteSpectators {
                    room_id: room.id.clone(),
                    muted,
                }));
            }
            if let Some(offer) = room.offer_to_answer() {
                ui.group(|ui| {
                    ui.label(format!(
                        "{}.",
                        offer_made_text(&offer, &room.player_name(offer.by))
                    ));
                    ui.horizontal(|ui| {
                        if ui.button("Accept").clicked() {
                            out.push(answer(room, offer.kind, true));
                        }
                        if ui.button("Decline").clicked() {
                            out.push(answer(room, offer.kind, false));
                        }
                    });
                });
            }
            if let Some(mine) = room.offers.iter().find(|o| Some(o.by) == room.seat) {
                ui.label(own_offer_text(mine));
            }
        } else {
            ui.horizontal(|ui| {
                ui.label("Watching");
                if ui.button("Flip board").clicked() {
                    out.push(Command::Flip);
                }
            });
        }

        ui.separator();
        ui.label(RichText::new("Chat").strong());
        egui::ScrollArea::vertical()
            .max_height((ui.available_height() - 40.0).max(60.0))
            .stick_to_bottom(true)
            .show(ui, |ui| {
                for line in &room.chat {
                    let who = if line.spectator {
                        format!("{} (watching)", line.from)
                    } else {
                        line.from.clone()
                    };
                    ui.label(format!("{who}: {}", line.text));
                }
            });
        ui.horizontal(|ui| {
            let edit = ui.add(
                egui::TextEdit::singleline(&mut self.chat_input)
                    .hint_text("Say something")
                    .desired_width(190.0),
            );
            if (edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)))
                || ui.button("Send").clicked()
            {
                out.push(Command::SendChat);
            }
        });
        out
    }

    fn board(&mut self, ui: &mut Ui) -> Vec<Command> {
        let mut out = Vec::new();
        let Some(room) = &self.room else { return out };
        match &room.live {
            Some(LiveGame::Gomoku(game)) => {
                let len = game.moves().len();
                let renju_black = game.config().rule == Rule::Renju
                    && game.stone_to_play() == Stone::Black
                    && matches!(
                        game.phase(),
                        Phase::Main | Phase::Swap2PlaceThree | Phase::Swap2PlaceTwo
                    );
                if !renju_black {
                    self.forbidden = None;
                } else if self.forbidden.as_ref().is_none_or(|f| f.0 != len) {
                    self.forbidden = Some((len, game.forbidden_points()));
                }
                let placing = matches!(
                    game.phase(),
                    Phase::Main | Phase::Swap2PlaceThree | Phase::Swap2PlaceTwo
                );
                let clicker = (room.is_player()
                    && room.result.is_none()
                    && placing
                    && game.to_act() == room.seat)
                    .then_some(room.seat)
                    .flatten();
                let line = match (&room.result, game.outcome()) {
                    (Some(r), _) if !r.line.is_empty() => r.line.clone(),
                    (_, Some(tabula_shared::gomoku::Outcome::Win { line, .. })) => line.clone(),
                    _ => Vec::new(),
                };
                let view = GomokuView {
                    clicker,
                    show_numbers: self.settings.show_numbers,
                    line,
                    forbidden: self
                        .forbidden
                        .as_ref()
                        .map(|f| f.1.clone())
                        .unwrap_or_default(),
                    flipped: false,
                };
                let rect = ui.available_rect_before_wrap();
                self.gomoku_geometry = Some(GomokuGeometry::fit(rect, game.size()));
                if let Some(p) = gomoku_view::show(ui, game, &view) {
                    out.push(Command::Place(p));
                }
            }
            Some(LiveGame::Backgammon(game)) => {
                let viewer = self.bg_viewer();
                let mut view = BgView {
                    viewer: Some(viewer),
                    cube: game.config().cube.then_some(game.cube()),
                    ..BgView::default()
                };
                let to_viewer = |side: Side, n: u8| -> Loc {
                    match n {
                        25 => Loc::Bar,
                        0 => Loc::Off,
                        n if side == viewer => Loc::Point(n),
                        n => Loc::Point(25 - n),
                    }
                };
                let mut board = game.board();
                // An opponent's play, hop by hop.
                let mut anim_done = false;
                if let Some(anim) = self.anims.front_mut() {
                    let start = *anim.start.get_or_insert_with(Instant::now);
                    let t = start.elapsed().as_secs_f32() / HOP_SECS;
                    let k = t.floor() as usize;
                    if k >= anim.hops.len() {
                        anim_done = true;
                    } else {
                        let side = anim.side;
                        let hop = anim.hops[k];
                        board = Board::from_position(&anim.steps[k], side);
                        if hop.from == 25 {
                            board.bar[side.index()] = board.bar[side.index()].saturating_sub(1);
                        } else if (1..=24).contains(&hop.from) {
                            let i = abs_index(side, hop.from);
                            board.points[i] -= if side == Side::White { 1 } else { -1 };
                        }
                        view.flying = Some((
                            to_viewer(side, hop.from),
                            to_viewer(side, hop.to),
                            side,
                            t - k as f32,
                        ));
                        view.dice = anim.dice.map(|d| (side, d));
                    }
                } else {
                    view.dice = match *game.phase() {
                        GamePhase::Moving { side, dice } => Some((side, [dice.a, dice.b])),
                        _ => None,
                    };
                    if let Some(turn) = &self.bg {
                        let side = self.my_side().unwrap_or(Side::White);
                        board = Board::from_position(&turn.builder.position(), side);
                        view.dice_left = Some(turn.builder.dice_left());
                        view.interactive = !turn.sent;
                        view.selected = turn.selected.map(Loc::from_number);
                        view.movable = if turn.selected.is_none() {
                            turn.builder
                                .movable()
                                .into_iter()
                                .map(Loc::from_number)
                                .collect()
                        } else {
                            Vec::new()
                        };
                        view.targets = turn
                            .selected
                            .map(|s| {
                                turn.builder
                                    .destinations(s)
                                    .into_iter()
                                    .map(Loc::from_number)
                                    .collect()
                            })
                            .unwrap_or_default();
                        if turn.builder.is_complete()
                            && !turn.sent
                            && ui.input(|i| i.key_pressed(Key::Enter))
                            && ui.ctx().memory(|m| m.focused().is_none())
                        {
                            out.push(Command::ConfirmPlay);
                        }
                    }
                }
                if anim_done {
                    self.anims.pop_front();
                    ui.ctx().request_repaint();
                }
                let rect = ui.available_rect_before_wrap();
                self.bg_geometry = Some(bg_view::BgGeometry::fit(rect));
                if let Some(input) = bg_view::show(ui, &board, &view) {
                    out.push(Command::Board(input));
                }
            }
            None => {
                ui.centered_and_justified(|ui| ui.label("Waiting for the game…"));
            }
        }
        out
    }

    fn result_dialog(&mut self, ctx: &egui::Context) -> Vec<Command> {
        let mut out = Vec::new();
        let Some(room) = &self.room else { return out };
        let Some(result) = &room.result else {
            return out;
        };
        if self.result_dismissed {
            return out;
        }
        egui::Window::new("Game over")
            .collapsible(false)
            .resizable(false)
            .anchor(Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                let who = match result.winner {
                    None => "Draw".to_string(),
                    Some(seat) if room.is_player() && room.seat == Some(seat) => "You win!".into(),
                    Some(seat) if room.is_player() => format!("{} wins", room.player_name(seat)),
                    Some(seat) => format!("{} wins", room.player_name(seat)),
                };
                ui.heading(who);
                ui.label(match result.reason {
                    EndReason::Rules => "by the rules of the game",
                    EndReason::BoardFull => "the board is full",
                    EndReason::Resigned => "by resignation",
                    EndReason::Dropped => "the double was dropped",
                    EndReason::DrawAgreed => "draw agreed",
                    EndReason::Timeout => "on time",
                    EndReason::Abandoned => "the opponent left",
                });
                if let Some(score) = result.score {
                    ui.label(format!(
                        "Final score: White {} · Black {}",
                        score[0], score[1]
                    ));
                }
                if !room.ratings.is_empty() {
                    ui.separator();
                    ui.label(RichText::new("Ratings").strong());
                    egui::Grid::new("rating_changes")
                        .num_columns(3)
                        .spacing([12.0, 4.0])
                        .show(ui, |ui| {
                            for change in &room.ratings {
                                ui.label(room.player_name(change.seat));
                                ui.label(format!("{} to {}", change.before, change.after));
                                let delta = change.after - change.before;
                                let text = RichText::new(format!("{delta:+}")).strong().color(
                                    if delta >= 0 {
                                        Color32::from_rgb(80, 200, 80)
                                    } else {
                                        Color32::from_rgb(230, 80, 60)
                                    },
                                );
                                ui.horizontal(|ui| {
                                    ui.label(text);
                                    if change.provisional {
                                        ui.label(RichText::new("provisional").italics())
                                            .on_hover_text(
                                                "Few rated games yet: the rating is still a rough guess",
                                            );
                                    }
                                });
                                ui.end_row();
                            }
                        });
                }
                ui.horizontal(|ui| {
                    if let Some(id) = &room.game_id {
                        if ui.button("Replay").clicked() {
                            out.push(Command::OpenGame(id.clone()));
                        }
                        if ui.button("Save export…").clicked() {
                            out.push(Command::ExportGame(id.clone()));
                        }
                    }
                    if room.is_player() && ui.button("Rematch").clicked() {
                        out.push(Command::Send(ClientMessage::Rematch {
                            room_id: room.id.clone(),
                        }));
                        out.push(Command::DismissResult);
                    }
                    if ui.button("Back to lobby").clicked() {
                        out.push(Command::Leave);
                    }
                    if ui.button("Close").clicked() {
                        out.push(Command::DismissResult);
                    }
                });
            });
        out
    }

    fn toasts_area(&self, ctx: &egui::Context) {
        if self.toasts.is_empty() {
            return;
        }
        egui::Area::new(egui::Id::unique("toasts"))
            .anchor(Align2::RIGHT_BOTTOM, [-12.0, -12.0])
            .show(ctx, |ui| {
                for (text, _) in &self.toasts {
                    egui::Frame::popup(ui.style()).show(ui, |ui| {
                        ui.label(text);
                    });
                }
            });
    }
}

/// A filled circle the size of a glyph (the default fonts have no "●").
fn dot(ui: &mut Ui, colour: Color32, size: f32) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::hover());
    ui.painter()
        .circle_filled(rect.center(), size / 2.0, colour);
    ui.painter().circle_stroke(
        rect.center(),
        size / 2.0,
        egui::Stroke::new(1.0, Color32::GRAY),
    );
    response
}

fn act(room: &Room, action: PlayerAction) -> Command {
    Command::Send(ClientMessage::Act {
        room_id: room.id.clone(),
        action,
    })
}

fn answer(room: &Room, request: OfferKind, accept: bool) -> Command {
    Command::Send(ClientMessage::Answer {
        room_id: room.id.clone(),
        request,
        accept,
    })
}

fn level_name(level: AiLevel) -> &'static str {
    match level {
        AiLevel::Beginner => "Beginner",
        AiLevel::Intermediate => "Intermediate",
        AiLevel::Expert => "Expert",
    }
}

/// A one-line description of a room's rules.
pub fn rules_text(game: &GameOptions) -> String {
    match game {
        GameOptions::Gomoku(c) => {
            let rule = match c.rule {
                Rule::Freestyle => "freestyle",
                Rule::Standard => "standard",
                Rule::Renju => "renju",
            };
            let opening = match c.opening {
                tabula_shared::gomoku::Opening::None => "",
                tabula_shared::gomoku::Opening::Swap2 => ", swap2",
            };
            format!("{0}×{0} {rule}{opening}", c.size)
        }
        GameOptions::Backgammon(c) => {
            let mut parts = vec![if c.length == 0 {
                "money game".to_string()
            } else {
                format!("{}-point match", c.length)
            }];
            if c.cube {
                parts.push("cube".into());
            }
            if c.crawford && c.length > 0 {
                parts.push("Crawford".into());
            }
            if c.jacoby && c.length == 0 {
                parts.push("Jacoby".into());
            }
            parts.join(", ")
        }
    }
}

fn seat_colour(room: &Room, seat: Seat) -> (Color32, &'static str) {
    match &room.live {
        Some(LiveGame::Gomoku(g)) => match g.stone_of(seat) {
            Some(Stone::Black) => (Color32::BLACK, "black"),
            Some(Stone::White) => (Color32::WHITE, "white"),
            None => (Color32::GRAY, "colour not chosen yet"),
        },
        Some(LiveGame::Backgammon(_)) => match side_of(seat) {
            Side::White => (bg_view::checker_colour(Side::White), "white"),
            Side::Black => (bg_view::checker_colour(Side::Black), "black"),
        },
        None => (Color32::GRAY, ""),
    }
}

fn turn_seat(room: &Room) -> Option<Seat> {
    room.to_act_seat()
}

fn status_text(room: &Room) -> String {
    if room.result.is_some() {
        return "Game over".into();
    }
    if room
        .summary
        .as_ref()
        .is_some_and(|s| s.status == RoomStatus::Waiting)
    {
        return "Waiting for an opponent…".into();
    }
    let Some(seat) = turn_seat(room) else {
        return match &room.live {
            Some(LiveGame::Backgammon(g)) if *g.phase() == GamePhase::OpeningRoll => {
                "Opening roll…".into()
            }
            _ => String::new(),
        };
    };
    let mine = room.is_player() && room.seat == Some(seat);
    let who = if mine {
        "Your".to_string()
    } else {
        format!("{}'s", room.player_name(seat))
    };
    match &room.live {
        Some(LiveGame::Gomoku(g)) => match g.phase() {
            Phase::Swap2Choose | Phase::Swap2FinalChoose => format!("{who} swap2 choice"),
            Phase::Swap2PlaceThree => format!("{who} turn: opening stones"),
            Phase::Swap2PlaceTwo => format!("{who} turn: two more stones"),
            _ => format!(
                "{who} turn ({})",
                if g.stone_to_play() == Stone::Black {
                    "black"
                } else {
                    "white"
                }
            ),
        },
        Some(LiveGame::Backgammon(g)) => match g.phase() {
            GamePhase::AwaitingRoll { .. } => format!("{who} turn to roll"),
            GamePhase::Moving { dice, .. } => format!("{who} move ({}-{})", dice.a, dice.b),
            GamePhase::CubeOffered { .. } => format!("{who} decision on the cube"),
            _ => String::new(),
        },
        None => String::new(),
    }
}

impl eframe::App for TabulaApp {
    fn logic(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        self.poll(ctx);
        // A new identity is saved at once, not at eframe's next autosave
        // (30 s) or exit: a client that crashes or is killed would otherwise
        // come back as a stranger and lose its seats.
        if self.identity_unsaved
            && let Some(storage) = frame.storage_mut()
        {
            self.save(storage);
            storage.flush();
            self.identity_unsaved = false;
        }
    }

    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.draw(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, crate::settings::STORAGE_KEY, &self.settings);
    }
}
