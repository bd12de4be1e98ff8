//! What the network worker reports, applied to the app: connection changes,
//! notices, and each server frame handed to the screen it concerns.

use std::time::Duration;

use tabula_shared::protocol::{
    ClientMessage, ErrorCode, FinishedGame, GameAnalysis, Role, ServerFrame, ServerMessage,
};

use web_time::Instant;

use super::resume::Resume;
use super::{Command, GameIntent, HistoryPage, Leaderboard, Screen, TabulaApp};
use crate::analysis::AnalysisState;
use crate::export::ExportForm;
use crate::net::{ConnState, NetCommand, NetEvent};

impl TabulaApp {
    /// Applies everything the network worker reported.
    pub fn poll(&mut self, ctx: &egui::Context) {
        for event in self.requests.poll() {
            self.handle_event(event);
        }
        if let Some(resume) = self.resume.take() {
            let requests = &mut self.requests;
            let resume = resume.poll(Instant::now(), |msg| requests.send(msg));
            if let Some(at) = resume.waiting_until() {
                ctx.request_repaint_after(at.saturating_duration_since(Instant::now()));
            }
            self.resume = Some(resume);
        }
        self.room.sync(&mut self.requests);
        if self.room.wants_dice_seed() {
            self.apply(Command::SendDiceSeed);
        }
        self.room.sync_bg_turn();
        self.autoplay();
        self.cue_sounds();
        self.toasts.expire();
        if !self.toasts.is_empty() || self.room.ticking() {
            ctx.request_repaint_after(Duration::from_millis(250));
        }
        if !self.room.anims.is_empty() {
            ctx.request_repaint();
        }
    }

    /// Applies one event from the network worker.
    pub(super) fn handle_event(&mut self, event: NetEvent) {
        match event {
            NetEvent::State(state) => {
                if let ConnState::Refused(_) = &state {
                    // The connect screen says why.
                    self.session.welcomed = false;
                    self.room.room = None;
                }
                if let ConnState::Retrying { reason, .. } = &state
                    && self
                        .connect
                        .attempt_failed(self.settings.address.trim(), reason)
                {
                    self.requests.command(NetCommand::Disconnect);
                    self.session.conn = ConnState::Disconnected;
                    return;
                }
                self.session.conn = state;
            }
            NetEvent::Notice(text) => self.toasts.push(text),
            NetEvent::Frame(frame) => self.handle_frame(frame),
        }
    }

    /// Applies one server frame.
    fn handle_frame(&mut self, frame: ServerFrame) {
        let request_id = frame.request_id;
        match frame.message {
            ServerMessage::Welcome {
                name,
                rooms,
                token,
                player_id,
                registered,
                engines,
                ..
            } => {
                self.session.engines = engines;
                self.welcome(name, player_id, registered, token, rooms);
            }
            ServerMessage::RoomList { rooms } => {
                self.lobby.rooms = rooms.into_iter().map(|r| (r.room_id.clone(), r)).collect();
            }
            ServerMessage::RoomUpdated { room } => {
                self.lobby.rooms.insert(room.room_id.clone(), room);
            }
            ServerMessage::RoomRemoved { room_id } => {
                self.lobby.rooms.remove(&room_id);
            }
            ServerMessage::Joined {
                room_id,
                role,
                seat,
            } => {
                // Returned to at the next launch while we have a seat there.
                let address = self.settings.address.trim().to_string();
                if role == Role::Player {
                    self.settings.open_rooms.insert(address, room_id.clone());
                }
                self.room.joined(room_id, role, seat)
            }
            ServerMessage::Left { room_id } => self.room.left(&room_id),
            ServerMessage::Snapshot { room_id, snapshot } => {
                self.room.snapshot(&room_id, *snapshot);
            }
            ServerMessage::Event {
                room_id,
                seq,
                event,
            } => self.room.event(&room_id, seq, event, &mut self.toasts),
            ServerMessage::Error {
                code,
                message,
                retry_after_ms,
            } => self.error(request_id, code, message, retry_after_ms),
            ServerMessage::Shutdown { message } => self.toasts.push(message),
            // The client works out legal plays itself (it never asks).
            ServerMessage::Ok
            | ServerMessage::Pong
            | ServerMessage::LegalPlays { .. }
            | ServerMessage::ApiToken { .. }
            | ServerMessage::ApiTokens { .. } => {}
            ServerMessage::TournamentCreated {
                tournament_id,
                code,
            } => {
                self.screen = Screen::Tournaments;
                self.tournaments
                    .created(tournament_id, code, &mut self.requests);
            }
            ServerMessage::TournamentList { tournaments } => self.tournaments.list = tournaments,
            ServerMessage::Tournament { tournament } => self.tournaments.told(*tournament),
            ServerMessage::TournamentGame { round, room_id, .. } => {
                self.tournament_game(round, room_id)
            }
            ServerMessage::BotsOnline { bots } => self.lobby.bots = bots,
            ServerMessage::ChallengeSent { .. } => {
                self.toasts.push(rust_i18n::t!("challenge.sent"))
            }
            ServerMessage::Challenged {
                challenge_id,
                from,
                options,
            } => self
                .challenges
                .push(super::challenge_window::IncomingChallenge {
                    id: challenge_id,
                    from,
                    options,
                }),
            ServerMessage::ChallengeAnswered {
                room_id: Some(room_id),
                ..
            } => {
                self.requests.send(ClientMessage::JoinRoom {
                    room_id,
                    role: Role::Player,
                    since: None,
                });
            }
            ServerMessage::ChallengeAnswered { .. } => {
                self.toasts.push(rust_i18n::t!("challenge.declined"))
            }
            ServerMessage::DiceStats { report } => self.dice.report = Some(*report),
            ServerMessage::Registered { name } => {
                self.session.registered = true;
                self.account.registered(&name);
            }
            ServerMessage::GameList {
                offset,
                total,
                games,
            } => {
                self.history.page = Some(HistoryPage {
                    offset,
                    total,
                    games,
                });
            }
            ServerMessage::Game { game, analysis } => self.game(request_id, *game, analysis),
            ServerMessage::AnalysisProgress {
                game_id,
                done,
                total,
            } => self.analysis_progress(request_id, &game_id, done, total),
            ServerMessage::Analysis { game_id, analysis } => {
                if self.replay.game_id() == Some(game_id.as_str()) {
                    self.replay.analysis = AnalysisState::Done(analysis);
                }
            }
            ServerMessage::Hints { room_id, hints } => self.room.hints_received(&room_id, hints),
            ServerMessage::StudyAnswer { ids, answer, .. } => self.study.answered(ids, *answer),
            ServerMessage::Puzzle {
                puzzle,
                daily,
                rating,
                provisional,
            } => self
                .puzzles
                .received(request_id, *puzzle, daily, rating, provisional),
            ServerMessage::PuzzleSolved {
                correct,
                solution,
                rating,
                ..
            } => self.puzzles.solved(request_id, correct, *solution, rating),
            ServerMessage::Rollout { position, rollout } => {
                self.study.rollout.reported(request_id, position, *rollout);
            }
            ServerMessage::Leaderboard {
                game,
                period,
                entries,
                ai,
            } => {
                self.leaderboard.board = Some(Leaderboard {
                    game,
                    period,
                    entries,
                    ai,
                });
            }
        }
    }

    /// The server welcomed us: keep the identity, and go back to the room we
    /// were in (or the one the server seats us in).
    fn welcome(
        &mut self,
        name: String,
        player_id: String,
        registered: bool,
        token: String,
        rooms: Vec<String>,
    ) {
        self.session.welcomed = true;
        self.connect.reached = true;
        self.connect.unreachable = None;
        // A seed sent on the last connection may not have arrived; the
        // room's record says whether it did, and it is sent again if not.
        self.room.dice_seed_sent = None;
        self.session.my_id = player_id;
        self.session.registered = registered;
        // Signed in: the token now stands for the account.
        self.connect.account_password.clear();
        let address = self.settings.address.trim().to_string();
        if self.settings.tokens.get(&address) != Some(&token) {
            self.settings.tokens.insert(address.clone(), token);
            self.session.identity_unsaved = true;
        }
        self.session.my_name = name;
        // An invite link wins over the seat the server remembers, unless
        // that seat is in the invited room.
        // Without one, the room that was open when the client closed, if we
        // still have a seat there; else the first of our seats.
        let open = self.settings.open_rooms.get(&address).cloned();
        let rejoin = match self.pending_invite() {
            Some(invite) if rooms.contains(&invite.room_id) => Some(invite.room_id.clone()),
            Some(_) => None,
            None => open
                .filter(|room| rooms.contains(room))
                .or_else(|| rooms.first().cloned()),
        };
        let again = if let Some(room) = &self.room.room {
            let since = room.summary.is_some().then_some(room.seq);
            Some(ClientMessage::JoinRoom {
                room_id: room.id.clone(),
                role: room.role,
                since,
            })
        } else {
            rejoin.map(|id| ClientMessage::JoinRoom {
                room_id: id,
                role: Role::Player,
                since: None,
            })
        };
        self.resume = again.map(|msg| Resume::sent(self.requests.send(msg.clone()), msg));
        self.follow_invite(&rooms);
        self.requests.send(ClientMessage::ListRooms);
        self.tournaments.rewatch(&mut self.requests);
    }

    /// We are paired: to the game's room at once, as lichess does, unless
    /// we are playing another game (then a notice says where to go).
    fn tournament_game(&mut self, round: u32, room_id: String) {
        if self.room.room.as_ref().is_some_and(|r| r.id == room_id) {
            return;
        }
        if self.playing() {
            self.toasts
                .push(rust_i18n::t!("tour.game_waiting", n = round));
            return;
        }
        self.toasts
            .push(rust_i18n::t!("tour.game_ready", n = round));
        if self.room.room.is_some() {
            self.apply(Command::Leave);
        }
        self.apply(Command::JoinRoom {
            room_id,
            role: Role::Player,
        });
    }

    /// The server refused a request: the screen that asked says why, or a
    /// toast does.
    fn error(
        &mut self,
        request_id: Option<u64>,
        code: ErrorCode,
        message: String,
        retry_after_ms: Option<u64>,
    ) {
        if self.account.take_error(request_id, code, &message) {
            return;
        }
        if let Some(resume) = &mut self.resume
            && resume.refused(request_id, code, retry_after_ms)
        {
            return;
        }
        if let AnalysisState::Running {
            request_id: ours, ..
        } = self.replay.analysis
            && request_id == Some(ours)
        {
            self.replay.analysis = match code {
                ErrorCode::Busy => AnalysisState::Busy {
                    retry_after_ms: retry_after_ms.unwrap_or(0),
                },
                _ => AnalysisState::Failed(crate::error_text::error_text(code, &message)),
            };
            return;
        }
        if self
            .puzzles
            .refused(request_id, crate::error_text::error_text(code, &message))
            || self
                .study
                .refused(request_id, crate::error_text::error_text(code, &message))
            || self
                .study
                .rollout
                .refused(request_id, crate::error_text::error_text(code, &message))
        {
            return;
        }
        if self.room.take_hint_error(request_id) {
            // hints_off or rate_limited: the server's words say why.
            self.toasts
                .push(crate::error_text::error_text(code, &message));
            return;
        }
        if self.invite_refused(request_id) {
            return;
        }
        if self.room.take_dice_seed_error(request_id) {
            // The first roll came first: the match's dice stay committed
            // to the server's seed and the other seeds, which is no news.
            return;
        }
        if let Some((id, _)) = self.game_request
            && request_id == Some(id)
        {
            self.game_request = None;
            let why = crate::error_text::error_text(code, &message);
            self.toasts
                .push(rust_i18n::t!("notice.could_not_open", message = why).into_owned());
            return;
        }
        self.toasts
            .push(crate::error_text::error_text(code, &message));
        self.room.refused();
    }

    /// A finished game we asked for: open it in the replay viewer or the
    /// export window.
    fn game(
        &mut self,
        request_id: Option<u64>,
        game: FinishedGame,
        analysis: Option<Box<GameAnalysis>>,
    ) {
        let Some((id, intent)) = self.game_request else {
            return;
        };
        if request_id != Some(id) {
            return;
        }
        self.game_request = None;
        match intent {
            GameIntent::Replay | GameIntent::Analyse => {
                self.replay
                    .open(game, analysis, &self.session.my_id, self.screen);
                self.screen = Screen::Replay;
                if intent == GameIntent::Analyse {
                    self.analyse();
                }
            }
            GameIntent::Export => self.export = Some(ExportForm::new(game)),
        }
    }

    /// How far the analysis we asked for has got.
    fn analysis_progress(&mut self, request_id: Option<u64>, game_id: &str, done: u32, total: u32) {
        if self.replay.game_id() != Some(game_id) {
            return;
        }
        if let AnalysisState::Running {
            request_id: ours,
            done: d,
            total: t,
        } = &mut self.replay.analysis
            && request_id == Some(*ours)
        {
            *d = done;
            *t = total;
        }
    }
}
