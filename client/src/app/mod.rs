//! The application: [`TabulaApp`] holds the state of each screen, runs the
//! frame loop, and applies the [`Command`]s the panels return
//! ([`TabulaApp::apply`]).
//!
//! Each frame first drains the network worker ([`TabulaApp::poll`]), then
//! draws ([`TabulaApp::draw`]). Panels only read state and return
//! [`Command`]s that say what the player wants; drawing never touches the
//! network or the game.

use egui::Ui;
use tabula_shared::protocol::{DiceStatsReport, RoomSummary};

use crate::bg_moves::TurnBuilder;
use crate::bg_view::BgGeometry;
use crate::export::ExportForm;
use crate::gomoku_view::GomokuGeometry;
use crate::net::{ConnState, Network};
use crate::replay::Replay;
use crate::room::Room;
use crate::settings::Settings;
use crate::sound::Sound;
use crate::speaker::Speaker;

mod account_dialog;
mod analysis_graph;
mod analysis_panel;
mod apply;
mod autoplay;
mod bg_turn;
mod board_marks;
mod board_panel;
mod challenge_window;
mod command;
mod confirm_dialog;
mod connect_screen;
mod create_dialog;
mod dice_panel;
mod export_dialog;
mod hint_panel;
mod history_screen;
mod invitation;
mod labels;
mod layout;
mod leaderboard_screen;
mod lobby_screen;
mod move_list;
mod network_events;
mod puzzle_screen;
mod replay_screen;
mod requests;
mod result_dialog;
mod resume;
mod rollout_panel;
mod room_panel;
mod room_screen;
mod session;
mod settings_window;
mod setup_editor;
mod shortcuts;
mod sound_cues;
mod status;
mod study_screen;
mod toasts;
mod tournament_dialog;
mod tournament_page;
mod tournament_screen;

#[cfg(test)]
mod tests;

pub use account_dialog::AccountNote;
pub use command::Command;
pub use confirm_dialog::Danger;
pub use history_screen::{HISTORY_PAGE, HistoryPage};
pub use labels::rules_text;
pub use leaderboard_screen::Leaderboard;
pub use tournament_screen::TournamentAsk;

use account_dialog::AccountDialog;
use connect_screen::ConnectScreen;
use dice_panel::DicePanel;
use history_screen::HistoryScreen;
use leaderboard_screen::LeaderboardScreen;
use lobby_screen::LobbyScreen;
use puzzle_screen::PuzzleScreen;
use replay_screen::ReplayScreen;
use requests::Requests;
use room_screen::RoomScreen;
use session::Session;
use study_screen::StudyScreen;
use toasts::Toasts;
use tournament_screen::TournamentScreen;

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
    /// The dice statistics of the server's Backgammon games.
    Dice,
    /// The tournaments, or the page of one.
    Tournaments,
    /// The analysis board.
    Study,
    /// Rated puzzles.
    Puzzles,
}

impl Screen {
    /// Its name in the page's marks (`tab-history`, ...).
    fn name(self) -> &'static str {
        match self {
            Screen::Lobby => "lobby",
            Screen::History => "history",
            Screen::Leaderboard => "leaderboard",
            Screen::Replay => "replay",
            Screen::Dice => "dice",
            Screen::Tournaments => "tournaments",
            Screen::Study => "study",
            Screen::Puzzles => "puzzles",
        }
    }
}

/// What to do with a finished game once the server sends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GameIntent {
    /// Open it in the replay viewer.
    Replay,
    /// Open the export window.
    Export,
    /// Open it in the replay viewer and ask for its analysis.
    Analyse,
}

/// The Tabula client.
pub struct TabulaApp {
    /// Persisted settings.
    pub settings: Settings,
    /// The network worker, and the numbering of our requests.
    requests: Requests,
    /// The connection and who we are on it.
    session: Session,
    /// The connect screen.
    connect: ConnectScreen,
    /// The account window.
    account: AccountDialog,
    /// The screen shown when we are not at a board.
    screen: Screen,
    /// The lobby and the create dialog.
    lobby: LobbyScreen,
    /// The room we are in.
    room: RoomScreen,
    /// Our finished games.
    history: HistoryScreen,
    /// The ratings.
    leaderboard: LeaderboardScreen,
    /// The replay viewer.
    replay: ReplayScreen,
    /// The dice statistics.
    dice: DicePanel,
    /// The tournament list and the page of the one we follow.
    tournaments: TournamentScreen,
    /// The analysis board.
    study: StudyScreen,
    puzzles: PuzzleScreen,
    /// The pending `get_game` and what to do with the answer.
    game_request: Option<(u64, GameIntent)>,
    /// The room's rejoin after the last `welcome`, while it may be refused
    /// as `busy` (the room moving to another server of a cluster).
    resume: Option<resume::Resume>,
    /// The export window, while it is open.
    export: Option<ExportForm>,
    /// The "Save as" dialog of the export window, while it is open.
    #[cfg(not(target_arch = "wasm32"))]
    file_picker: crate::file_picker::FilePicker,
    /// The notices in the corner.
    toasts: Toasts,
    /// An invite link to follow once connected.
    invitation: invitation::Invitation,
    /// The destructive action waiting for the player's yes.
    confirm: Option<Danger>,
    /// Challenges from other players waiting for our answer, oldest first.
    challenges: Vec<challenge_window::IncomingChallenge>,
    /// The Settings window is open.
    settings_open: bool,
    /// The keyboard help window is open.
    help_open: bool,
    /// The record length at which the app last rolled or sent a play by
    /// itself (see `autoplay`).
    autoplayed: Option<usize>,
    /// The locale the translations are set to (set again when the
    /// language setting changes).
    locale: &'static str,
    /// What the room looked like last frame, to tell which sounds to make.
    cues: sound_cues::SoundCues,
    /// The sounds to play, oldest first (emptied by the speaker).
    sounds: Vec<Sound>,
    /// Plays the sounds; only the eframe app has one (tests read the queue).
    speaker: Option<Speaker>,
    /// The Gomoku board's geometry in the last frame (for tests and tools).
    pub gomoku_geometry: Option<GomokuGeometry>,
    /// The Backgammon board's geometry in the last frame (for tests and tools).
    pub bg_geometry: Option<BgGeometry>,
}

impl TabulaApp {
    /// A new app; `wake` is called from the network thread when something
    /// arrives (eframe passes `ctx.request_repaint`).
    pub fn new(settings: Settings, wake: impl Fn() + Send + Sync + 'static) -> TabulaApp {
        TabulaApp::with_network(settings, Network::start(wake))
    }

    /// A new app that talks through `net`.
    fn with_network(settings: Settings, net: Network) -> TabulaApp {
        TabulaApp {
            settings,
            requests: Requests::new(net),
            session: Session::new(),
            connect: ConnectScreen::default(),
            account: AccountDialog::default(),
            screen: Screen::Lobby,
            lobby: LobbyScreen::default(),
            room: RoomScreen::default(),
            history: HistoryScreen::default(),
            leaderboard: LeaderboardScreen::default(),
            replay: ReplayScreen::default(),
            dice: DicePanel::default(),
            tournaments: TournamentScreen::default(),
            study: StudyScreen::default(),
            puzzles: PuzzleScreen::default(),
            game_request: None,
            resume: None,
            export: None,
            #[cfg(not(target_arch = "wasm32"))]
            file_picker: crate::file_picker::FilePicker::default(),
            toasts: Toasts::default(),
            invitation: invitation::Invitation::default(),
            confirm: None,
            challenges: Vec::new(),
            settings_open: false,
            help_open: false,
            autoplayed: None,
            locale: "",
            cues: sound_cues::SoundCues::default(),
            sounds: Vec::new(),
            speaker: None,
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
        let mut app = TabulaApp::new(settings, move || ctx.request_repaint());
        app.speaker = Some(Speaker::new());
        #[cfg(target_arch = "wasm32")]
        app.start_in_page();
        app.resume_on_launch();
        app
    }

    /// In a browser: the server is the one that served the page, and an
    /// invite in the address opens its room once connected.
    #[cfg(target_arch = "wasm32")]
    fn start_in_page(&mut self) {
        if let Some(origin) = crate::page::origin() {
            self.settings.address = origin;
        }
        if let Some(hash) = crate::page::fragment() {
            self.open_fragment(&hash);
        }
    }

    /// Opens what a link's fragment names: an invite's room, or a position
    /// on the analysis board (`#/board/…`).
    #[cfg(target_arch = "wasm32")]
    fn open_fragment(&mut self, hash: &str) {
        if let Some(invite) = crate::invite::Invite::parse(hash) {
            self.open_invite(invite);
        } else if hash.starts_with(tabula_shared::study::LINK_PREFIX)
            && let Ok(position) = tabula_shared::study::StudyPosition::from_link(hash)
        {
            self.study.open_line(vec![position]);
            self.screen = Screen::Study;
        }
    }

    /// Connects at once when this client has played on the saved server
    /// before (it holds a resume token for it): the player gets their
    /// identity and seats back without pressing Connect. In a browser this
    /// is what makes a reload return to the game.
    pub fn resume_on_launch(&mut self) {
        let address = self.settings.address.trim();
        if self.settings.name.trim().is_empty() {
            return;
        }
        // A host who was hosting hosts again: the embedded server comes
        // back with its rooms, and the client with it.
        if self.settings.hosting && !cfg!(target_arch = "wasm32") {
            self.apply(Command::PlayHere);
        } else if self.settings.tokens.contains_key(address) {
            self.apply(Command::Connect);
        }
    }

    /// The connection state.
    pub fn connection(&self) -> &ConnState {
        &self.session.conn
    }

    /// The room we are in, if any.
    pub fn room(&self) -> Option<&Room> {
        self.room.room.as_ref()
    }

    /// The rooms listed in the lobby.
    pub fn lobby(&self) -> impl Iterator<Item = &RoomSummary> {
        self.lobby.rooms.values()
    }

    /// The toasts on screen, oldest first.
    pub fn toasts(&self) -> Vec<String> {
        self.toasts.texts()
    }

    /// The Backgammon play being built, while it is our turn to move.
    pub fn turn(&self) -> Option<&TurnBuilder> {
        self.room.bg.as_ref().map(|t| &t.builder)
    }

    /// Whether we are signed in to (or just registered) an account.
    pub fn registered(&self) -> bool {
        self.session.registered
    }

    /// The screen shown when we are not at a board.
    pub fn screen(&self) -> Screen {
        self.screen
    }

    /// The page of our history last received.
    pub fn history(&self) -> Option<&HistoryPage> {
        self.history.page.as_ref()
    }

    /// The leaderboard last received.
    pub fn leaderboard(&self) -> Option<&Leaderboard> {
        self.leaderboard.board.as_ref()
    }

    /// The game open in the replay viewer.
    pub fn replay(&self) -> Option<&Replay> {
        self.replay.replay.as_ref()
    }

    /// The analysis of the game in the replay viewer, as far as it got.
    pub fn analysis(&self) -> &crate::analysis::AnalysisState {
        &self.replay.analysis
    }

    /// Where the evaluation graph drew the point of the move that leads to
    /// `position` in the last frame (for tests and tools).
    pub fn graph_point(&self, position: usize) -> Option<egui::Pos2> {
        let transform = self.replay.graph.as_ref()?;
        let analysis = self.replay.analysis.analysis()?;
        let point = crate::analysis::graph_points(analysis)
            .into_iter()
            .find(|p| p.position == position)?;
        Some(transform.position_from_point(&egui_plot::PlotPoint::new(
            point.position as f64,
            f64::from(point.value),
        )))
    }

    /// The hints shown in the room for the position on the board.
    pub fn hints(&self) -> Option<&[tabula_shared::protocol::Hint]> {
        self.room.current_hints()
    }

    /// The puzzle shown on the puzzle screen, if any (for tests and tools).
    pub fn puzzle(&self) -> Option<&tabula_shared::protocol::Puzzle> {
        self.puzzles.puzzle.as_ref()
    }

    /// Whether the puzzle shown was answered right, and how the puzzle
    /// rating moved, once the server has said (for tests and tools).
    pub fn puzzle_outcome(
        &self,
    ) -> Option<(bool, Option<tabula_shared::protocol::PuzzleRatingChange>)> {
        self.puzzles.outcome.as_ref().map(|o| (o.correct, o.rating))
    }

    /// The analysis board's position shown.
    pub fn study_position(&self) -> &tabula_shared::study::StudyPosition {
        self.study.current()
    }

    /// The analysis board's answer for the position shown, once it came.
    pub fn study_answer(&self) -> Option<&tabula_shared::protocol::StudyAnswer> {
        self.study.answer()
    }

    /// Why the analysis board refused the last paste or request.
    pub fn study_error(&self) -> Option<&str> {
        self.study.error.as_deref()
    }

    /// The latest rollout report of the analysis board's position.
    pub fn study_rollout(&self) -> Option<&tabula_shared::protocol::BgRollout> {
        self.study.rollout.report_of(self.study.current())
    }

    /// The tournaments listed, newest first.
    pub fn tournament_list(&self) -> &[tabula_shared::protocol::TournamentSummary] {
        &self.tournaments.list
    }

    /// The tournament whose page is open, as last told.
    pub fn tournament(&self) -> Option<&tabula_shared::protocol::TournamentView> {
        self.tournaments.view.as_ref()
    }

    /// The dice statistics last received.
    pub fn dice_stats(&self) -> Option<&DiceStatsReport> {
        self.dice.report.as_ref()
    }

    /// The export window's state, while it is open.
    pub fn export_form(&self) -> Option<&ExportForm> {
        self.export.as_ref()
    }

    /// What the account window says about the last `register`.
    pub fn account_note(&self) -> Option<&AccountNote> {
        self.account.note.as_ref()
    }

    /// Whether an opponent's play is still being animated.
    pub fn animating(&self) -> bool {
        !self.room.anims.is_empty()
    }

    /// The sounds queued and not played yet, oldest first.
    pub fn queued_sounds(&self) -> &[Sound] {
        &self.sounds
    }

    /// Takes the queued sounds (the speaker plays them).
    pub fn take_sounds(&mut self) -> Vec<Sound> {
        std::mem::take(&mut self.sounds)
    }

    /// Queues the sounds the room's changes call for, unless muted.
    fn cue_sounds(&mut self) {
        let heard = self.cues.observe(self.room.room.as_ref());
        if self.settings.sound {
            self.sounds.extend(heard);
        }
    }

    /// The destructive action the app is asking about, if any.
    pub fn confirming(&self) -> Option<Danger> {
        self.confirm
    }

    /// Whether our game is running with us seated in it: leaving then gives
    /// up the seat.
    fn playing(&self) -> bool {
        self.room.room.as_ref().is_some_and(|r| {
            r.is_player()
                && r.result.is_none()
                && r.summary
                    .as_ref()
                    .is_some_and(|s| s.status == tabula_shared::protocol::RoomStatus::Playing)
        })
    }

    /// Whether the question about `danger` still means something: a resign
    /// or leave only while our game runs.
    fn danger_stands(&self, danger: Danger) -> bool {
        match danger {
            Danger::Resign(_) | Danger::LeaveGame => self.playing(),
        }
    }

    /// Runs one whole frame: network, then drawing (used by tests).
    pub fn frame(&mut self, ui: &mut Ui) {
        self.poll(ui.ctx());
        self.draw(ui);
    }

    /// Draws every panel and applies the commands they return.
    pub fn draw(&mut self, ui: &mut Ui) {
        crate::fonts::install(ui.ctx());
        self.apply_look(ui.ctx());
        let mut commands = Vec::new();
        egui::Panel::top("top").show(ui, |ui| commands.extend(self.status_bar(ui)));
        if self.screen == Screen::Replay && self.replay.replay.is_some() {
            self.draw_replay(ui, &mut commands);
        } else if self.screen == Screen::Study && self.session.welcomed {
            self.draw_study(ui, &mut commands);
        } else if self.screen == Screen::Puzzles
            && self.session.welcomed
            && self.room.room.is_none()
        {
            self.draw_puzzles(ui, &mut commands);
        } else if self.room.room.is_some() {
            self.draw_room(ui, &mut commands);
        } else if self.session.welcomed {
            self.draw_lobby(ui, &mut commands);
        } else {
            egui::CentralPanel::default().show(ui, |ui| {
                let conn = &self.session.conn;
                let invited = self.invitation.pending_room();
                commands.extend(self.connect.ui(ui, &mut self.settings, conn, invited));
            });
        }
        if self.session.welcomed && self.account.open {
            commands.extend(self.account.ui(ui.ctx(), &self.session));
        }
        commands.extend(self.shortcuts(ui.ctx()));
        if self.help_open {
            commands.extend(shortcuts::help_window(ui.ctx()));
        }
        if self.settings_open {
            commands.extend(settings_window::settings_window(
                ui.ctx(),
                &mut self.settings,
            ));
        }
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(path) = self.file_picker.poll()
            && let Some(form) = &mut self.export
        {
            form.path = path.display().to_string();
            form.outcome = None;
        }
        if let Some(form) = &mut self.export {
            commands.extend(export_dialog::export_dialog(ui.ctx(), form));
        }
        commands.extend(challenge_window::challenge_window(
            ui.ctx(),
            &self.challenges,
        ));
        if let Some(danger) = self.confirm {
            if self.danger_stands(danger) {
                commands.extend(confirm_dialog::confirm_dialog(ui.ctx(), danger));
            } else {
                self.confirm = None;
            }
        }
        self.toasts.ui(ui.ctx());
        for command in commands {
            self.apply(command);
        }
    }

    /// Applies the theme and the language of the settings.
    fn apply_look(&mut self, ctx: &egui::Context) {
        let theme = self.settings.theme.preference();
        if ctx.options(|o| o.theme_preference) != theme {
            ctx.set_theme(theme);
        }
        let system = sys_locale::get_locale();
        let locale = self.settings.language.locale(system.as_deref());
        if self.locale != locale {
            self.locale = locale;
            rust_i18n::set_locale(locale);
        }
    }

    /// The replay viewer: its panel and its board.
    fn draw_replay(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        let me = &self.session.my_id;
        self.replay.gomoku_style = self.settings.gomoku_style;
        self.replay.bg_style = self.settings.bg_style;
        layout::side_panel(ui, "replay", 320.0, |ui| {
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    commands.extend(self.replay.panel(ui, &mut self.settings.show_numbers, me));
                });
        });
        self.replay.graph = None;
        if let (Some(analysis), Some(replay)) =
            (self.replay.analysis.analysis(), &self.replay.replay)
        {
            let position = replay.position();
            let moves = replay.len();
            egui::Panel::bottom("analysis-graph").show(ui, |ui| {
                let (command, transform) =
                    analysis_graph::evaluation_graph(ui, analysis, position, moves);
                commands.extend(command);
                self.replay.graph = Some(transform);
            });
        }
        egui::CentralPanel::default().show(ui, |ui| {
            self.replay.board(
                ui,
                self.settings.show_numbers,
                &mut self.gomoku_geometry,
                &mut self.bg_geometry,
            );
        });
    }

    /// The room view: the room panel, the board and the game-over dialog.
    fn draw_room(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        self.room.animation_speed = self.settings.animation_speed.clamp(0.5, 3.0);
        self.room.gomoku_style = self.settings.gomoku_style;
        self.room.bg_style = self.settings.bg_style;
        let link = self.invite_link();
        layout::side_panel(ui, "room", 300.0, |ui| {
            commands.extend(self.room.panel(ui, &mut self.settings, link.as_deref()));
        });
        egui::CentralPanel::default().show(ui, |ui| {
            commands.extend(self.room.board(
                ui,
                self.settings.show_numbers,
                &mut self.gomoku_geometry,
                &mut self.bg_geometry,
            ));
        });
        self.mark_geometry();
        commands.extend(self.room.result_dialog(ui.ctx()));
    }

    /// The boards' geometry in the page's marks, for the browser tests.
    fn mark_geometry(&self) {
        if let Some(g) = &self.gomoku_geometry {
            crate::probe::mark("gomoku-a1", egui::Rect::from_min_max(g.origin, g.origin));
            crate::probe::note("gomoku-cell", g.cell);
            crate::probe::note("gomoku-size", f32::from(g.size));
            crate::probe::note("gomoku-flipped", if g.flipped { 1.0 } else { 0.0 });
        }
        if let Some(g) = &self.bg_geometry {
            for n in 1..=24 {
                let at = g.checker_center(n, 0);
                crate::probe::mark(&format!("bg-point-{n}"), egui::Rect::from_min_max(at, at));
            }
        }
    }

    /// The analysis board: its panel beside (or below) the board, and the
    /// question for the position shown sent when it has not been asked.
    fn draw_study(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        self.study.gomoku_style = self.settings.gomoku_style;
        self.study.bg_style = self.settings.bg_style;
        layout::side_panel(ui, "study", 340.0, |ui| {
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, |ui| commands.extend(self.study.panel(ui)));
        });
        egui::CentralPanel::default().show(ui, |ui| {
            self.study
                .board(ui, &mut self.gomoku_geometry, &mut self.bg_geometry)
        });
        self.study.ask_if_needed(&mut self.requests);
    }

    /// The puzzle screen: its panel beside (or below) the board, and the
    /// requests it wants sent.
    fn draw_puzzles(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        self.puzzles.gomoku_style = self.settings.gomoku_style;
        self.puzzles.bg_style = self.settings.bg_style;
        layout::side_panel(ui, "puzzles", 340.0, |ui| {
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, |ui| commands.extend(self.puzzles.panel(ui)));
        });
        egui::CentralPanel::default().show(ui, |ui| {
            self.puzzles
                .board(ui, &mut self.gomoku_geometry, &mut self.bg_geometry)
        });
        self.mark_geometry();
        self.puzzles.send_wanted(&mut self.requests);
    }

    /// The lobby, history or leaderboard, and the create dialog.
    fn draw_lobby(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        egui::CentralPanel::default().show(ui, |ui| match self.screen {
            Screen::History => commands.extend(self.history.ui(ui, &self.session.my_id)),
            Screen::Leaderboard => commands.extend(self.leaderboard.ui(ui, &self.session.my_id)),
            Screen::Dice => commands.extend(self.dice.ui(ui)),
            Screen::Tournaments => commands.extend(self.tournaments.ui(
                ui,
                &self.session.my_id,
                self.session.registered,
            )),
            Screen::Lobby | Screen::Replay | Screen::Study | Screen::Puzzles => {
                commands.extend(self.lobby.ui(ui, &mut self.settings, &self.session.my_id));
            }
        });
        if self.lobby.create_open && matches!(self.screen, Screen::Lobby | Screen::Replay) {
            commands.extend(create_dialog::create_dialog(
                ui.ctx(),
                &mut self.settings.create,
                self.session.registered,
                &self.session.engines,
            ));
        }
        if self.tournaments.create_open && self.screen == Screen::Tournaments {
            commands.extend(tournament_dialog::tournament_dialog(
                ui.ctx(),
                &mut self.tournaments.form,
                &mut self.settings.create,
            ));
        }
    }
}

impl eframe::App for TabulaApp {
    fn logic(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        self.poll(ctx);
        // A new identity is saved at once, not at eframe's next autosave
        // (30 s) or exit: a client that crashes or is killed would otherwise
        // come back as a stranger and lose its seats.
        if self.session.identity_unsaved
            && let Some(storage) = frame.storage_mut()
        {
            self.save(storage);
            storage.flush();
            self.session.identity_unsaved = false;
        }
    }

    fn ui(&mut self, ui: &mut Ui, frame: &mut eframe::Frame) {
        crate::probe::new_frame();
        // The CPU time of the previous frame, for the web client's benchmark.
        if let Some(seconds) = frame.info().cpu_usage {
            crate::probe::note("frame-ms", seconds * 1000.0);
        }
        // A second link opened in this tab changes only the fragment.
        #[cfg(target_arch = "wasm32")]
        if let Some(hash) = crate::page::new_fragment() {
            self.open_fragment(&hash);
        }
        self.draw(ui);
        let sounds = self.take_sounds();
        if let Some(speaker) = &self.speaker {
            for sound in sounds {
                speaker.play(sound);
            }
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, crate::settings::STORAGE_KEY, &self.settings);
    }
}
