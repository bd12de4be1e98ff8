//! A tournament's actor: the one task that changes its [`Tournament`].
//! Every change is saved whole, then numbered (`seq`) and sent to everyone
//! watching; a change the store could not save is undone and refused.
//! Each game it pairs gets an ordinary room; the room reports the result
//! back through the desk.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tabula_shared::protocol::{
    AiLevel, ClientMessage, EntrantRequest, ErrorCode, HostAction, Opponent, PlayerInfo,
    RoomOptions, ServerFrame, ServerMessage, TournamentStatus,
};
use tabula_shared::seat::Seat;
use tokio::sync::mpsc;

use super::event::{Refusal, Tournament};
use crate::identity::Identity;
use crate::outlet::Outlet;
use crate::registry::Shared;
use crate::room;
use crate::tournament_desk::{TournamentCommand, TournamentLink};
use crate::wall_clock::now_ms;

/// The seed of a player with no rated game in the event's game yet.
const PLAYER_RATING: i32 = 1500;

struct Actor {
    shared: Arc<Shared>,
    t: Tournament,
    watchers: HashMap<u64, Outlet>,
}

/// Starts the actor of `t` and puts up its mailbox.
pub(super) fn spawn(shared: Arc<Shared>, t: Tournament) {
    let (tx, rx) = mpsc::channel(1024);
    shared.tournament_desk.open(t.id.clone(), tx);
    let actor = Actor {
        shared,
        t,
        watchers: HashMap::new(),
    };
    actor.publish();
    tokio::spawn(actor.run(rx));
}

impl Actor {
    async fn run(mut self, mut rx: mpsc::Receiver<TournamentCommand>) {
        // Games paired before a restart whose rooms were never made.
        self.make_rooms().await;
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        loop {
            tokio::select! {
                command = rx.recv() => {
                    let Some(command) = command else { break };
                    self.on_command(command).await;
                }
                _ = tick.tick() => self.on_tick().await,
            }
        }
    }

    async fn on_command(&mut self, command: TournamentCommand) {
        match command {
            TournamentCommand::Request {
                conn,
                outlet,
                identity,
                request_id,
                message,
            } => {
                let answer = self.on_request(conn, &outlet, &identity, message).await;
                let message = match answer {
                    Ok(Some(message)) => message,
                    Ok(None) => ServerMessage::Ok,
                    Err((code, why)) => ServerMessage::error(code, why),
                };
                let _ = outlet.send_text(
                    &ServerFrame {
                        request_id,
                        message,
                    }
                    .encode(),
                );
            }
            TournamentCommand::GameOver { room_id, score } => {
                let before = self.t.clone();
                if self.t.record(&room_id, score) {
                    let now = now_ms();
                    self.t.advance(now);
                    if self.commit(before).await.is_ok() {
                        self.make_rooms().await;
                    }
                }
            }
            TournamentCommand::Disconnected { conn } => {
                self.watchers.remove(&conn);
            }
        }
    }

    /// An event starts at its time; an arena pairs whoever waits and ends
    /// on time; a failed room is made again.
    async fn on_tick(&mut self) {
        let before = self.t.clone();
        if self.t.start_if_due(now_ms()) {
            if self.commit(before).await.is_ok() {
                self.make_rooms().await;
            }
            return;
        }
        if self.t.status != TournamentStatus::Running {
            return;
        }
        if self.t.ends_at.is_some() {
            let before = self.t.clone();
            self.t.advance(now_ms());
            if self.t != before && self.commit(before).await.is_ok() {
                self.make_rooms().await;
            }
        } else if self
            .t
            .games
            .iter()
            .any(|g| g.room_id.is_none() && g.first_score.is_none())
        {
            self.make_rooms().await;
        }
    }

    async fn on_request(
        &mut self,
        conn: u64,
        outlet: &Outlet,
        identity: &Identity,
        message: ClientMessage,
    ) -> Result<Option<ServerMessage>, Refusal> {
        match message {
            ClientMessage::WatchTournament { .. } => {
                self.watchers.insert(conn, outlet.clone());
                Ok(Some(ServerMessage::Tournament {
                    tournament: Box::new(self.t.view()),
                }))
            }
            ClientMessage::UnwatchTournament { .. } => {
                self.watchers.remove(&conn);
                Ok(None)
            }
            ClientMessage::JoinTournament { code, .. } => {
                if self.t.code.is_some() && code != self.t.code {
                    return Err((
                        ErrorCode::Forbidden,
                        "a private tournament: the code is wrong".into(),
                    ));
                }
                if self.t.spec.rated && !identity.registered {
                    return Err((
                        ErrorCode::NotRegistered,
                        "a rated tournament is for registered players; register or sign in".into(),
                    ));
                }
                let before = self.t.clone();
                let player = PlayerInfo {
                    id: identity.id.clone(),
                    name: identity.name.clone(),
                    ai: None,
                    bot: identity.bot,
                };
                let rating = self.seed_rating(&identity.id, identity.bot).await;
                self.t.enter(player, rating)?;
                self.commit(before).await?;
                Ok(None)
            }
            ClientMessage::WithdrawTournament { .. } => {
                let before = self.t.clone();
                self.t.withdraw(&identity.id)?;
                self.commit(before).await?;
                Ok(None)
            }
            ClientMessage::ManageTournament { action, .. } => {
                if identity.id != self.t.host.id {
                    return Err((
                        ErrorCode::Forbidden,
                        "only the host manages the tournament".into(),
                    ));
                }
                self.manage(action).await?;
                Ok(None)
            }
            _ => Err((ErrorCode::BadRequest, "not a tournament request".into())),
        }
    }

    async fn manage(&mut self, action: HostAction) -> Result<(), Refusal> {
        let before = self.t.clone();
        let now = now_ms();
        let started = |t: &Tournament| {
            Err((
                ErrorCode::TournamentStarted,
                format!("the tournament is {:?}", t.status).to_lowercase(),
            ))
        };
        match action {
            HostAction::Start => {
                self.t.start(now)?;
            }
            HostAction::Pause if self.t.status == TournamentStatus::Running => {
                self.t.status = TournamentStatus::Paused;
            }
            HostAction::Resume if self.t.status == TournamentStatus::Paused => {
                self.t.status = TournamentStatus::Running;
                self.t.advance(now);
            }
            HostAction::Pause | HostAction::Resume => return started(&self.t),
            HostAction::End if self.t.status != TournamentStatus::Finished => self.t.end(),
            HostAction::End => return started(&self.t),
            HostAction::Remove { no } => {
                let Some(e) = self.t.entrants.iter().find(|e| e.no == no) else {
                    return Err((ErrorCode::NotFound, format!("no entrant number {no}")));
                };
                let id = e.player.id.clone();
                self.t.withdraw(&id)?;
            }
            HostAction::Add { entrant } => {
                let (player, rating) = self.entrant_for(entrant)?;
                self.t.enter(player, rating)?;
            }
        }
        self.commit(before).await?;
        self.make_rooms().await;
        Ok(())
    }

    /// The seat of an AI level (numbered when the level is entered twice),
    /// or of one of the host's engines for this game (once each).
    fn entrant_for(&self, entrant: EntrantRequest) -> Result<(PlayerInfo, i32), Refusal> {
        let level = match entrant {
            EntrantRequest::Ai(level) => level,
            EntrantRequest::Engine(name) => return self.engine_entrant(&name),
        };
        let word = match level {
            AiLevel::Beginner => "Beginner",
            AiLevel::Casual => "Casual",
            AiLevel::Intermediate => "Intermediate",
            AiLevel::Advanced => "Advanced",
            AiLevel::Expert => "Expert",
        };
        let same = self
            .t
            .entrants
            .iter()
            .filter(|e| e.player.ai == Some(level))
            .count();
        let (id, name) = match same {
            0 => (format!("ai-{}", word.to_lowercase()), format!("{word} AI")),
            n => (
                format!("ai-{}-{}", word.to_lowercase(), n + 1),
                format!("{word} AI {}", n + 1),
            ),
        };
        let rating = tabula_ai::published_rating(self.t.spec.game.kind(), level);
        Ok((
            PlayerInfo {
                id,
                name,
                ai: Some(level),
                bot: false,
            },
            rating,
        ))
    }

    /// A player's seed: their rating in the event's game (the bots' pool
    /// for a bot), [`PLAYER_RATING`] for one who has played no rated game
    /// (or when the store cannot say).
    async fn seed_rating(&self, player_id: &str, bot: bool) -> i32 {
        let kind = self.t.spec.game.kind();
        match self
            .shared
            .store
            .rating(player_id.to_string(), kind, bot)
            .await
        {
            Ok(Some(r)) => r.round() as i32,
            Ok(None) => PLAYER_RATING,
            Err(e) => {
                tracing::warn!(error = %e, "a rating for a tournament seed could not be read");
                PLAYER_RATING
            }
        }
    }

    /// One of the host's engines as an entrant. An engine has no published
    /// rating: it is seeded at 1500, as a new player is.
    fn engine_entrant(&self, name: &str) -> Result<(PlayerInfo, i32), Refusal> {
        let game = self.t.spec.game.kind();
        if !self
            .shared
            .config
            .engines
            .iter()
            .any(|e| e.game == game && e.name == name)
        {
            return Err((
                ErrorCode::BadRequest,
                format!(
                    "no engine called {name:?} plays {} on this server",
                    format!("{game:?}").to_lowercase()
                ),
            ));
        }
        let player = room::engine_player(name);
        if self.t.entrants.iter().any(|e| e.player.id == player.id) {
            return Err((
                ErrorCode::BadRequest,
                format!("the engine {name:?} has entered already"),
            ));
        }
        Ok((player, 1500))
    }

    /// Saves the change, then tells it; when the store refuses, the
    /// tournament is put back as it was and nothing is told.
    async fn commit(&mut self, before: Tournament) -> Result<(), Refusal> {
        self.t.seq += 1;
        let state = serde_json::to_string(&self.t).expect("a tournament encodes");
        if let Err(e) = self
            .shared
            .store
            .save_tournament(self.t.id.clone(), state)
            .await
        {
            tracing::warn!(tournament = %self.t.id, error = %e, "could not save the tournament");
            self.t = before;
            return Err((
                ErrorCode::Internal,
                "the change could not be saved; try again".into(),
            ));
        }
        let text = ServerFrame::push(ServerMessage::Tournament {
            tournament: Box::new(self.t.view()),
        })
        .encode();
        self.watchers
            .retain(|_, outlet| outlet.send_text(&text).is_ok());
        self.publish();
        Ok(())
    }

    fn publish(&self) {
        let listed = self.t.code.is_none();
        self.shared
            .tournament_desk
            .publish(self.t.created_at, self.t.summary(), listed);
    }

    /// Makes the rooms of games paired and not yet given one, saves them
    /// into the tournament, and tells the paired players.
    async fn make_rooms(&mut self) {
        let waiting: Vec<usize> = (0..self.t.games.len())
            .filter(|&i| {
                let g = &self.t.games[i];
                g.second.is_some() && g.room_id.is_none() && g.first_score.is_none()
            })
            .collect();
        if waiting.is_empty() {
            return;
        }
        let before = self.t.clone();
        let mut made = Vec::new();
        for i in waiting {
            let g = &self.t.games[i];
            let seats = [
                self.t.entrant(g.first).player.clone(),
                self.t.entrant(g.second.expect("filtered")).player.clone(),
            ];
            let options = RoomOptions {
                game: self.t.spec.game.clone(),
                opponent: Opponent::Human,
                colour: Default::default(),
                time_control: Some(self.t.spec.time_control),
                private: false,
                takebacks: false,
                rated: self.t.spec.rated && seats.iter().all(|p| p.ai.is_none()),
                hints: false,
            };
            let link = TournamentLink {
                tournament_id: self.t.id.clone(),
                forfeit_secs: self.t.spec.forfeit_secs,
            };
            let opening = g
                .opening
                .and_then(|k| self.t.spec.openings.get(k as usize))
                .map(|stones| super::event::opening_actions(stones))
                .unwrap_or_default();
            match room::create_paired(&self.shared, options, seats.clone(), link, opening).await {
                Ok(room_id) => {
                    self.t.games[i].room_id = Some(room_id.clone());
                    made.push((i, room_id, seats));
                }
                Err((_, why)) => {
                    tracing::warn!(tournament = %self.t.id, %why, "could not make a game's room; trying again");
                }
            }
        }
        if made.is_empty() || self.commit(before).await.is_err() {
            return;
        }
        for (i, room_id, seats) in made {
            for (seat, player) in [Seat::First, Seat::Second].into_iter().zip(seats) {
                if player.ai.is_none() {
                    self.shared.tell_player(
                        &player.id,
                        ServerMessage::TournamentGame {
                            tournament_id: self.t.id.clone(),
                            round: self.t.games[i].round,
                            room_id: room_id.clone(),
                            seat,
                        },
                    );
                }
            }
        }
    }
}
