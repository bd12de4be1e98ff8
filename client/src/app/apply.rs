//! [`TabulaApp::apply`]: the one place where commands change state. It
//! turns what the player wants into state changes and into the wire messages
//! that say it to the server, handing each command to the screen it
//! concerns.

use tabula_shared::names::validate_name;
use tabula_shared::protocol::{ClientMessage, PlayerAction};

use super::{Command, GameIntent, HISTORY_PAGE, Screen, TabulaApp};
use crate::analysis::AnalysisState;
use crate::export::ExportForm;
use crate::invite::Invite;
use crate::net::{NetCommand, Target};

impl TabulaApp {
    /// Applies one command: the only place that changes state on the UI's behalf.
    pub fn apply(&mut self, command: Command) {
        match command {
            Command::Connect | Command::PlayHere | Command::Disconnect => {
                self.apply_session(command)
            }
            Command::Ask(danger) => self.confirm = danger,
            Command::Toast(text) => self.toasts.push(text),
            Command::ListBots => {
                self.requests.send(ClientMessage::ListBots);
            }
            Command::Challenge { to } => {
                let mut options = self.settings.create.options();
                // A challenge is to a person or a bot; its rating needs accounts.
                options.opponent = tabula_shared::protocol::Opponent::Human;
                options.rated &= self.session.registered;
                self.requests.send(ClientMessage::Challenge { to, options });
            }
            Command::AnswerChallenge { id, accept } => {
                self.challenges.retain(|c| c.id != id);
                self.requests.send(ClientMessage::AnswerChallenge {
                    challenge_id: id,
                    accept,
                });
            }
            Command::ShowCreate(open) => self.lobby.create_open = open,
            Command::CreateRoom => self.create_room(),
            Command::JoinRoom { room_id, role } => {
                self.requests.send(ClientMessage::JoinRoom {
                    room_id,
                    role,
                    since: None,
                });
            }
            Command::JoinByCode => {
                if let Some(code) = self.lobby.code() {
                    self.requests.send(ClientMessage::JoinByCode { code });
                }
            }
            Command::Leave => {
                let address = self.settings.address.trim().to_string();
                self.settings.open_rooms.remove(&address);
                self.export = None;
                self.room.leave(&mut self.requests);
                self.requests.send(ClientMessage::ListRooms);
            }
            Command::ShowScreen(_)
            | Command::HistoryPage(_)
            | Command::ShowLeaderboard(..)
            | Command::OpenGame(_)
            | Command::AnalyseGame(_)
            | Command::Analyse
            | Command::ReplayGo(_)
            | Command::ReplayFlip
            | Command::CloseReplay
            | Command::OpenOnBoard
            | Command::StudyPosition(_) => self.apply_navigation(command),
            Command::Tournament(ask) => {
                let game = self.settings.create.options().game;
                self.tournaments.apply(ask, game, &mut self.requests);
            }
            Command::ShowAccount(open) => self.account.show(open),
            Command::ShowSettings(open) => self.settings_open = open,
            Command::ShowHelp(open) => self.help_open = open,
            Command::Register => self.account.register(&mut self.requests),
            Command::ExportGame(_)
            | Command::ExportReplay
            | Command::ExportFormat(_)
            | Command::ChooseExportPath
            | Command::SaveExport
            | Command::CloseExport => self.apply_export(command),
            Command::PlaceStone(_)
            | Command::ChooseSwap2(_)
            | Command::Roll
            | Command::Double
            | Command::TakeCube
            | Command::DropCube
            | Command::Board(_)
            | Command::UndoHop
            | Command::ConfirmPlay
            | Command::Resign(_)
            | Command::OfferDraw
            | Command::RequestTakeback
            | Command::Rematch
            | Command::ClaimWin
            | Command::AnswerOffer { .. }
            | Command::MuteSpectators(_)
            | Command::Flip
            | Command::LookBack(_)
            | Command::DismissResult
            | Command::SendChat
            | Command::SendDiceSeed
            | Command::Hint => self.apply_room(command),
        }
    }

    /// Connecting, hosting and disconnecting.
    fn apply_session(&mut self, command: Command) {
        match command {
            Command::Connect => self.connect(),
            Command::PlayHere => {
                if let Err(reason) = validate_name(&self.settings.name) {
                    self.connect.name_error = Some(reason.to_string());
                    return;
                }
                match self.session.host(&mut self.settings) {
                    Ok(()) => {
                        self.settings.hosting = true;
                        self.connect();
                    }
                    Err(reason) => {
                        self.settings.hosting = false;
                        self.toasts.push(reason);
                    }
                }
            }
            Command::Disconnect => {
                self.settings.hosting = false;
                self.requests.command(NetCommand::Disconnect);
                self.session.welcomed = false;
                self.session.registered = false;
                self.room.room = None;
                self.lobby.rooms.clear();
                self.forget_account_views();
            }
            _ => {}
        }
    }

    /// Connects with the settings' name, address and passwords.
    fn connect(&mut self) {
        let name = match validate_name(&self.settings.name) {
            Ok(name) => name,
            Err(reason) => {
                self.connect.name_error = Some(reason.to_string());
                return;
            }
        };
        self.connect.name_error = None;
        self.settings.name = name.clone();
        // An invite link pasted as the address: its server, then its room.
        let (server, invite) = Invite::split_address(&self.settings.address);
        self.settings.address = server;
        if let Some(invite) = invite {
            // Followed once the new connection is welcomed.
            self.session.welcomed = false;
            self.open_invite(invite);
        }
        self.connect.reached = false;
        self.connect.unreachable = None;
        let password = Some(self.settings.password.clone()).filter(|p| !p.is_empty());
        let address = self.settings.address.trim().to_string();
        let token = self.settings.tokens.get(&address).cloned();
        self.requests.command(NetCommand::Connect(Target {
            address,
            name,
            password,
            token,
            account_password: self.connect.account_password(),
        }));
        self.room.room = None;
        self.lobby.rooms.clear();
        self.session.registered = false;
        self.forget_account_views();
    }

    /// Drops what belonged to the identity we were connected as.
    fn forget_account_views(&mut self) {
        // The analysis board belongs to no account (a board link opens it
        // before the connection).
        if self.screen != Screen::Study {
            self.screen = Screen::Lobby;
        }
        self.history.page = None;
        self.history.offset = 0;
        self.leaderboard.board = None;
        self.dice.report = None;
        self.puzzles = Default::default();
        self.replay.replay = None;
        self.export = None;
        self.account.reset();
    }

    /// Creates a room from the create dialog's fields.
    fn create_room(&mut self) {
        self.lobby.create_open = false;
        let mut options = self.settings.create.options();
        // Rated rooms need an account; the checkbox is off for guests.
        options.rated &= self.session.registered;
        self.requests.send(ClientMessage::CreateRoom { options });
    }

    /// What a player or spectator does in the room.
    fn apply_room(&mut self, command: Command) {
        let requests = &mut self.requests;
        let room = &mut self.room;
        let die_clicks = self.settings.die_clicks;
        match command {
            Command::PlaceStone(point) => room.act(requests, PlayerAction::Place { point }),
            Command::ChooseSwap2(choice) => room.act(requests, PlayerAction::Choose { choice }),
            Command::Roll => room.act(requests, PlayerAction::Roll),
            Command::Double => room.act(requests, PlayerAction::Double),
            Command::TakeCube => room.act(requests, PlayerAction::Take),
            Command::DropCube => room.act(requests, PlayerAction::Drop),
            Command::Board(input) => {
                if let Some(turn) = &mut room.bg {
                    turn.input(input, die_clicks);
                }
            }
            Command::UndoHop => {
                if let Some(turn) = &mut room.bg {
                    turn.undo();
                }
            }
            Command::ConfirmPlay => room.confirm_play(requests),
            Command::Resign(kind) => {
                room.send(requests, |room_id| ClientMessage::Resign { room_id, kind });
            }
            Command::OfferDraw => {
                room.send(requests, |room_id| ClientMessage::OfferDraw { room_id });
            }
            Command::RequestTakeback => {
                room.send(requests, |room_id| ClientMessage::RequestTakeback {
                    room_id,
                });
            }
            Command::Rematch => room.send(requests, |room_id| ClientMessage::Rematch { room_id }),
            Command::ClaimWin => {
                room.send(requests, |room_id| ClientMessage::ClaimWin { room_id });
            }
            Command::AnswerOffer { kind, accept } => {
                room.send(requests, |room_id| ClientMessage::Answer {
                    room_id,
                    request: kind,
                    accept,
                })
            }
            Command::MuteSpectators(muted) => room.send(requests, |room_id| {
                ClientMessage::MuteSpectators { room_id, muted }
            }),
            Command::Flip => room.flipped = !room.flipped,
            Command::LookBack(n) => room.look_back(n),
            Command::DismissResult => room.result_dismissed = true,
            Command::SendChat => room.send_chat(requests),
            Command::SendDiceSeed => room.send_dice_seed(requests),
            Command::Hint => room.ask_hint(requests),
            _ => {}
        }
    }

    /// Moving between the lobby, the history, the leaderboard and the replay
    /// viewer.
    fn apply_navigation(&mut self, command: Command) {
        // The Save window belongs to the screen it was opened from.
        if matches!(command, Command::ShowScreen(_) | Command::CloseReplay) {
            self.export = None;
        }
        match command {
            Command::ShowScreen(screen) => {
                match screen {
                    Screen::History => self.apply(Command::HistoryPage(self.history.offset)),
                    Screen::Leaderboard => {
                        let (game, period) = self.leaderboard.choice;
                        self.apply(Command::ShowLeaderboard(game, period));
                    }
                    Screen::Lobby => {
                        self.requests.send(ClientMessage::ListRooms);
                    }
                    Screen::Dice => {
                        self.requests.send(ClientMessage::DiceStats);
                    }
                    Screen::Tournaments => {
                        self.requests.send(ClientMessage::ListTournaments);
                    }
                    Screen::Puzzles => self.puzzles.want_one(),
                    Screen::Replay | Screen::Study => {}
                }
                if screen != Screen::Replay || self.replay.replay.is_some() {
                    self.screen = screen;
                }
            }
            Command::HistoryPage(offset) => {
                self.history.offset = offset;
                self.requests.send(ClientMessage::ListGames {
                    offset,
                    limit: HISTORY_PAGE,
                });
            }
            Command::ShowLeaderboard(game, period) => {
                self.leaderboard.choice = (game, period);
                self.requests.send(ClientMessage::GetLeaderboard {
                    game,
                    period,
                    bots: false,
                });
            }
            Command::OpenGame(game_id) => {
                let id = self.requests.send(ClientMessage::GetGame { game_id });
                self.game_request = Some((id, GameIntent::Replay));
            }
            Command::AnalyseGame(game_id) => {
                let id = self.requests.send(ClientMessage::GetGame { game_id });
                self.game_request = Some((id, GameIntent::Analyse));
            }
            Command::Analyse => self.analyse(),
            Command::StudyPosition(position) => {
                self.study.open_line(vec![position]);
                self.study.return_to = Some(self.screen);
                self.screen = Screen::Study;
            }
            Command::OpenOnBoard => {
                if let Some(replay) = &self.replay.replay {
                    let (line, at) = replay.study_line();
                    self.study.open_line(line);
                    self.study.go_to(at);
                    self.study.return_to = Some(Screen::Replay);
                    self.screen = Screen::Study;
                }
            }
            Command::ReplayGo(n) => {
                if let Some(replay) = &mut self.replay.replay {
                    replay.go_to(n);
                }
            }
            Command::ReplayFlip => {
                if let Some(replay) = &mut self.replay.replay {
                    replay.flip();
                }
            }
            Command::CloseReplay => {
                self.screen = self.replay.return_to;
                if self.screen == Screen::History {
                    self.apply(Command::HistoryPage(self.history.offset));
                }
            }
            _ => {}
        }
    }

    /// Asks for the analysis of the game in the replay viewer, unless it is
    /// there or on its way.
    pub(super) fn analyse(&mut self) {
        if !self.replay.analysis.can_ask() {
            return;
        }
        let Some(game_id) = self.replay.game_id().map(str::to_string) else {
            return;
        };
        let request_id = self.requests.send(ClientMessage::Analyse { game_id });
        self.replay.analysis = AnalysisState::Running {
            request_id,
            done: 0,
            total: 0,
        };
    }

    /// The export window.
    fn apply_export(&mut self, command: Command) {
        match command {
            Command::ExportGame(game_id) => {
                let id = self.requests.send(ClientMessage::GetGame { game_id });
                self.game_request = Some((id, GameIntent::Export));
            }
            Command::ExportReplay => {
                if let Some(replay) = &self.replay.replay {
                    self.export = Some(ExportForm::new(replay.game.clone()));
                }
            }
            Command::ExportFormat(format) => {
                if let Some(form) = &mut self.export {
                    form.set_format(format);
                }
            }
            Command::ChooseExportPath =>
            {
                #[cfg(not(target_arch = "wasm32"))]
                if let Some(form) = &self.export {
                    self.file_picker
                        .open(std::path::Path::new(form.path.trim()));
                }
            }
            Command::SaveExport => {
                if let Some(form) = &mut self.export {
                    form.save();
                }
            }
            Command::CloseExport => self.export = None,
            _ => {}
        }
    }
}
