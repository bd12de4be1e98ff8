//! One connection: one task that owns one WebSocket.
//!
//! It reads frames, answers bad input with typed errors, rate-limits, and
//! forwards requests to the right room. It never touches game state. Rooms
//! write to the client through its [`Outlet`], straight into the socket;
//! the task writes only what the socket could not take at once. Saying who
//! you are (`hello`, `register`) is in `hello`.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tabula_shared::protocol::{
    AiLevel, AiRating, ClientFrame, ClientMessage, ErrorCode, Role, RoomId, ServerFrame,
    ServerMessage,
};
use tokio::net::TcpStream;

use crate::http;
use tokio::sync::{broadcast, watch};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::error::ProtocolError;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Error as WsError, Message, Utf8Bytes};

use crate::address_limits::Limited;
use crate::address_slots::AddressSlot;
use crate::handle::{Caller, RoomCommand, RoomHandle};
use crate::identity::Identity;
use crate::outlet::{Drained, Outlet, WsStream};
use crate::registry::{Failures, Shared};
use crate::room;
use crate::store::StoreError;
use crate::studies::StudyRequest;
use crate::wall_clock::now_ms;

mod api_tokens;
mod challenges;
mod hello;
mod tournaments;

/// A token bucket: `burst` requests at once, refilled at `rate` per second.
struct RateLimit {
    tokens: f64,
    burst: f64,
    rate: f64,
    last: Instant,
    /// Frames refused since the client last kept within its budget.
    strikes: u32,
}

impl RateLimit {
    fn new(burst: u32, rate: u32) -> RateLimit {
        RateLimit {
            tokens: f64::from(burst),
            burst: f64::from(burst),
            rate: f64::from(rate),
            last: Instant::now(),
            strikes: 0,
        }
    }

    fn allow(&mut self) -> bool {
        let now = Instant::now();
        let elapsed = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            // The strikes are forgiven once the bucket has filled up to half
            // again (the client slowed down), not at the first frame let
            // through: in a flood the refill lets one frame in now and then,
            // and that must not restart the count.
            if self.tokens >= self.burst / 2.0 {
                self.strikes = 0;
            }
            true
        } else {
            self.strikes += 1;
            false
        }
    }

    /// How long until the bucket holds a whole token again.
    fn until_next(&self) -> Duration {
        let missing = (1.0 - self.tokens).max(0.0);
        Duration::from_secs_f64(missing / self.rate.max(f64::MIN_POSITIVE))
    }
}

/// The WebSocket settings: small read buffer, 64 KiB frame and message cap.
pub fn ws_config() -> WebSocketConfig {
    let max = tabula_shared::protocol::MAX_FRAME_BYTES;
    WebSocketConfig::default()
        // Client frames are small (a move is ~120 bytes); tungstenite zeroes
        // up to this much before every read, and a larger frame just takes
        // more reads.
        .read_buffer_size(1024)
        // Tungstenite's own frames (pings, the close) go out at once,
        // through the connection's outlet, in their place among the rest.
        .write_buffer_size(0)
        .max_write_buffer_size(1024 * 1024)
        .max_message_size(Some(max))
        .max_frame_size(Some(max))
}

/// One connection's state.
struct Handler {
    shared: Arc<Shared>,
    id: u64,
    /// This connection's write side, shared with the rooms it is in.
    tx: Outlet,
    identity: Option<Arc<Identity>>,
    /// The rooms this connection joined, with their handles (looked up once).
    rooms: HashMap<RoomId, RoomHandle>,
    lobby: Option<broadcast::Receiver<Utf8Bytes>>,
    limit: RateLimit,
    sign_in_failures: Failures,
    /// Wrong private-room codes, limited like sign-ins: codes are short.
    code_failures: Failures,
    /// The client's IP address, for the limits per address.
    addr: IpAddr,
}

/// What the read side asks the loop to do next.
enum Next {
    Continue,
    Close(CloseCode, String),
}

/// Serves one accepted TCP stream until it closes or the server shuts down.
pub async fn serve(
    shared: Arc<Shared>,
    mut stream: TcpStream,
    slot: Option<AddressSlot>,
    mut shutdown: watch::Receiver<bool>,
) {
    let _ = stream.set_nodelay(true);
    // The same port serves the web client's page to a browser.
    let forwarded_for = match http::route(&mut stream, shared.config.idle_timeout).await {
        http::Route::WebSocket { forwarded_for } => forwarded_for,
        http::Route::Answered | http::Route::Dropped => return,
    };
    let peer = stream
        .peer_addr()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |a| a.ip());
    // Behind a load balancer every client comes from its address: the
    // per-address limits count the client's own, as that proxy reports it.
    let addr = match forwarded_for {
        Some(client) if shared.config.trusted_proxies.contains(&peer) => client,
        _ => peer,
    };
    // Held until the connection ends (a proxy's: taken for its client now).
    let _slot = match slot {
        Some(slot) => slot,
        None => match shared.connection_slots.take(addr) {
            Some(slot) => slot,
            None => {
                tracing::debug!(%addr, "connections per address reached; refusing");
                return;
            }
        },
    };
    let (read, outlet) = Outlet::new(stream, shared.backlogs.clone());
    let stream = WsStream::new(read, outlet.clone());
    // A client that never finishes its handshake is as silent as one that
    // stops answering pings: it must not hold a connection slot for ever.
    let handshake = tokio_tungstenite::accept_async_with_config(stream, Some(ws_config()));
    let ws = match tokio::time::timeout(shared.config.idle_timeout, handshake).await {
        Ok(Ok(ws)) => ws,
        Ok(Err(e)) => {
            tracing::debug!(error = %e, "handshake failed");
            outlet.shut();
            return;
        }
        Err(_) => {
            tracing::debug!("no handshake in time; dropping");
            outlet.shut();
            return;
        }
    };
    let mut handler = Handler {
        id: shared.next_conn_id(),
        limit: RateLimit::new(shared.config.rate_burst, shared.config.rate_per_sec),
        shared,
        tx: outlet,
        identity: None,
        rooms: HashMap::new(),
        lobby: None,
        sign_in_failures: Failures::new(),
        code_failures: Failures::new(),
        addr,
    };
    let mut ws: WebSocketStream<WsStream> = ws;
    let mut ping = tokio::time::interval(handler.shared.config.ping_interval);
    ping.tick().await;
    let mut last_heard = Instant::now();
    let idle = handler.shared.config.idle_timeout;
    // Made once, not per turn of the loop: a fresh `changed()` future
    // registers with (and on drop leaves) the watch's waiter list each time.
    let going_down = shutdown.changed();
    tokio::pin!(going_down);

    loop {
        let next = tokio::select! {
            // In this order, not at random: what waits to be written first
            // (it bounds memory), then the socket; the rest are rare.
            biased;
            drained = std::future::poll_fn(|cx| handler.tx.poll_drain(cx)) => match drained {
                Drained::Close(code, reason) => Next::Close(code, reason),
                Drained::Failed => break,
            },
            frame = ws.next() => {
                last_heard = Instant::now();
                match frame {
                    Some(Ok(Message::Text(text))) => handler.on_text(text.as_str()).await,
                    Some(Ok(Message::Binary(_))) => handler.on_binary(),
                    Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => Next::Continue,
                    Some(Ok(Message::Close(_))) => {
                        // The library queued the answering close frame: send it.
                        let _ = tokio::time::timeout(Duration::from_secs(2), ws.flush()).await;
                        break;
                    }
                    None => break,
                    Some(Err(WsError::Capacity(e))) => Next::Close(CloseCode::Size, format!("frame too large: {e}")),
                    Some(Err(WsError::Utf8(_))) => Next::Close(CloseCode::Invalid, "text frames must be UTF-8".into()),
                    Some(Err(WsError::Protocol(e))) if e != ProtocolError::ResetWithoutClosingHandshake => {
                        Next::Close(CloseCode::Protocol, format!("protocol violation: {e}"))
                    }
                    Some(Err(e)) => {
                        tracing::debug!(conn = handler.id, error = %e, "read failed");
                        break;
                    }
                }
            }
            update = recv_lobby(&mut handler.lobby) => {
                match update {
                    Ok(text) => {
                        if handler.tx.send_text(&text).is_err() {
                            break;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        // Too slow for the feed: send the whole list again.
                        let rooms = handler.shared.lobby.public_rooms();
                        handler.reply(None, ServerMessage::RoomList { rooms });
                    }
                    Err(broadcast::error::RecvError::Closed) => handler.lobby = None,
                }
                Next::Continue
            }
            _ = ping.tick() => {
                if last_heard.elapsed() > idle {
                    tracing::debug!(conn = handler.id, "silent too long; dropping");
                    break;
                }
                if ws.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
                Next::Continue
            }
            _ = &mut going_down => {
                let bye = ServerFrame::push(ServerMessage::Shutdown { message: "server shutting down".into() });
                let _ = handler.tx.send_text(&bye.encode());
                Next::Close(CloseCode::Away, "server shutting down".into())
            }
        };
        if let Next::Close(code, reason) = next {
            // After everything already queued (the error that explains it).
            let frame = CloseFrame {
                code,
                reason: reason.into(),
            };
            let wait = Duration::from_secs(2);
            let _ = tokio::time::timeout(wait, ws.send(Message::Close(Some(frame)))).await;
            // Read until the peer answers the close, so that nothing it still
            // sends makes the kernel reset the socket and lose our last frames.
            let _ =
                tokio::time::timeout(wait, async { while let Some(Ok(_)) = ws.next().await {} })
                    .await;
            break;
        }
    }
    handler.disconnected();
    handler.tx.shut();
}

async fn recv_lobby(
    lobby: &mut Option<broadcast::Receiver<Utf8Bytes>>,
) -> Result<Utf8Bytes, broadcast::error::RecvError> {
    match lobby {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

impl Handler {
    /// Queues a reply for this connection.
    fn reply(&self, request_id: Option<u64>, message: ServerMessage) {
        let frame = ServerFrame {
            request_id,
            message,
        };
        let _ = self.tx.send_text(&frame.encode());
    }

    /// Counts a frame against the flood limit. None when it may be handled;
    /// otherwise it was answered with `rate_limited` (with the id that
    /// `request_id` finds, so a client can match it), or the connection
    /// has flooded for too long and closes.
    fn throttle(&mut self, request_id: impl FnOnce() -> Option<u64>) -> Option<Next> {
        if self.limit.allow() {
            return None;
        }
        if self.limit.strikes > self.shared.config.rate_strikes {
            return Some(Next::Close(CloseCode::Policy, "too many requests".into()));
        }
        let retry_after = self.limit.until_next();
        self.reply(
            request_id(),
            ServerMessage::rate_limited("too many requests; slow down", retry_after),
        );
        Some(Next::Continue)
    }

    fn on_binary(&mut self) -> Next {
        if let Some(next) = self.throttle(|| None) {
            return next;
        }
        self.reply(
            None,
            ServerMessage::error(
                ErrorCode::BadJson,
                "binary frames are not accepted; send JSON text",
            ),
        );
        Next::Continue
    }

    async fn on_text(&mut self, text: &str) -> Next {
        let request_id = || match ClientFrame::decode(text) {
            Ok(frame) => frame.request_id,
            Err(e) => e.request_id,
        };
        if let Some(next) = self.throttle(request_id) {
            return next;
        }
        let frame = match ClientFrame::decode(text) {
            Ok(frame) => frame,
            Err(e) => {
                self.reply(e.request_id, ServerMessage::error(e.code, e.message));
                return Next::Continue;
            }
        };
        self.on_message(frame).await;
        Next::Continue
    }

    async fn on_message(&mut self, frame: ClientFrame) {
        let rid = frame.request_id;
        let message = frame.message;
        let identity = match (&self.identity, &message) {
            (None, ClientMessage::Hello { .. }) => {
                self.hello(rid, message).await;
                if let Some(identity) = &self.identity {
                    self.shared
                        .player_online(self.id, self.tx.clone(), identity);
                }
                if self.identity.as_ref().is_some_and(|i| i.bot) {
                    // An engine answers at once, all game long: a bot's
                    // bucket is ten times as deep and refills twenty times
                    // as fast (a flood still runs it dry).
                    let config = &self.shared.config;
                    self.limit = RateLimit::new(config.rate_burst * 10, config.rate_per_sec * 20);
                }
                return;
            }
            (_, ClientMessage::Ping) => {
                self.reply(rid, ServerMessage::Pong);
                return;
            }
            (None, _) => {
                self.reply(
                    rid,
                    ServerMessage::error(ErrorCode::HelloRequired, "say hello first"),
                );
                return;
            }
            (Some(_), ClientMessage::Hello { .. }) => {
                self.reply(
                    rid,
                    ServerMessage::error(ErrorCode::BadRequest, "hello was already said"),
                );
                return;
            }
            (Some(identity), _) => identity.clone(),
        };
        let message = match self.on_tournament_request(rid, &identity, message).await {
            Ok(()) => return,
            Err(other) => other,
        };
        match message {
            ClientMessage::ListRooms => {
                if self.lobby.is_none() {
                    self.lobby = Some(self.shared.lobby.watch());
                }
                let rooms = self.shared.lobby.public_rooms();
                self.reply(rid, ServerMessage::RoomList { rooms });
            }
            ClientMessage::UnwatchLobby => {
                self.lobby = None;
                self.reply(rid, ServerMessage::Ok);
            }
            ClientMessage::Register { password } => self.register(rid, identity, password).await,
            ClientMessage::CreateApiToken { label } => {
                self.create_api_token(rid, identity, label).await
            }
            ClientMessage::ListApiTokens => self.list_api_tokens(rid, &identity),
            ClientMessage::Challenge { to, options } => {
                self.challenge(rid, &identity, &to, options)
            }
            ClientMessage::AnswerChallenge {
                challenge_id,
                accept,
            } => {
                self.answer_challenge(rid, identity, challenge_id, accept)
                    .await
            }
            ClientMessage::ListBots => self.list_bots(rid),
            ClientMessage::RevokeApiToken { id } => self.revoke_api_token(rid, identity, id).await,
            ClientMessage::ListGames { offset, limit } => {
                if !(1..=100).contains(&limit) {
                    self.reply(
                        rid,
                        ServerMessage::error(ErrorCode::BadRequest, "limit must be 1 to 100"),
                    );
                    return;
                }
                let store = self.shared.store.clone();
                self.answer_later(rid, async move {
                    let (total, games) =
                        store.list_games(identity.id.clone(), offset, limit).await?;
                    Ok(ServerMessage::GameList {
                        offset,
                        total,
                        games,
                    })
                });
            }
            ClientMessage::GetGame { game_id } => {
                let store = self.shared.store.clone();
                self.answer_later(rid, async move {
                    Ok(match store.game(game_id.clone()).await? {
                        Some(game) => ServerMessage::Game {
                            game: Box::new(game),
                            analysis: store.analysis(game_id).await?.map(Box::new),
                        },
                        None => ServerMessage::error(
                            ErrorCode::UnknownGame,
                            format!("no finished game has the id {game_id:?}"),
                        ),
                    })
                });
            }
            ClientMessage::Analyse { game_id } => self.shared.analyses.request(
                self.shared.store.clone(),
                game_id,
                identity.id.clone(),
                self.tx.clone(),
                rid,
            ),
            ClientMessage::Study {
                text,
                position,
                gomoku,
                depth,
            } => {
                let studies = self.shared.studies.clone();
                let request = StudyRequest {
                    text,
                    position,
                    gomoku,
                    depth,
                };
                let player = identity.id.clone();
                self.answer_later(
                    rid,
                    async move { Ok(studies.answer(request, &player).await) },
                );
            }
            ClientMessage::Rollout { position, trials } => self.shared.rollouts.start(
                position,
                trials,
                identity.id.clone(),
                self.tx.clone(),
                rid,
            ),
            ClientMessage::StopRollout => {
                if !self.shared.rollouts.stop(&identity.id) {
                    self.reply(
                        rid,
                        ServerMessage::error(ErrorCode::NotFound, "no rollout of yours is in work"),
                    );
                }
            }
            ClientMessage::Puzzle { theme, daily } => {
                let puzzles = self.shared.puzzles.clone();
                let player = identity.id.clone();
                self.answer_later(rid, async move { puzzles.next(player, theme, daily).await });
            }
            ClientMessage::SolvePuzzle { puzzle_id, answer } => {
                let puzzles = self.shared.puzzles.clone();
                let player = identity.id.clone();
                self.answer_later(rid, async move {
                    puzzles.solve(player, puzzle_id, answer).await
                });
            }
            ClientMessage::DiceStats => {
                let store = self.shared.store.clone();
                self.answer_later(rid, async move {
                    let report = store.dice_stats(identity.id.clone()).await?;
                    Ok(ServerMessage::DiceStats {
                        report: Box::new(report),
                    })
                });
            }
            ClientMessage::GetLeaderboard { game, period, bots } => {
                let store = self.shared.store.clone();
                self.answer_later(rid, async move {
                    let entries = store.leaderboard(game, period, bots, now_ms()).await?;
                    let ai = AiLevel::ALL
                        .iter()
                        .map(|&level| AiRating {
                            level,
                            rating: tabula_ai::published_rating(game, level),
                        })
                        .collect();
                    Ok(ServerMessage::Leaderboard {
                        game,
                        period,
                        entries,
                        ai,
                    })
                });
            }
            ClientMessage::CreateRoom { .. }
                if !self
                    .shared
                    .addresses
                    .room_allowed(self.addr, |id| self.shared.lobby.room(id).is_some()) =>
            {
                self.reply(
                    rid,
                    ServerMessage::error(
                        ErrorCode::LimitReached,
                        "too many open rooms from your address: finish or leave some first",
                    ),
                );
            }
            ClientMessage::CreateRoom { options } => {
                match room::create(&self.shared, &identity, options).await {
                    Ok(room_id) => {
                        self.shared
                            .addresses
                            .room_created(self.addr, room_id.clone());
                        let join = ClientMessage::JoinRoom {
                            room_id: room_id.clone(),
                            role: Role::Player,
                            since: None,
                        };
                        self.forward(&room_id, identity, rid, join);
                    }
                    Err((code, why)) => self.reply(rid, ServerMessage::error(code, why)),
                }
            }
            ClientMessage::JoinByCode { .. }
                if !self.code_failures.allowed()
                    || !self.shared.addresses.allowed(self.addr, Limited::RoomCode) =>
            {
                self.reply(
                    rid,
                    ServerMessage::error(
                        ErrorCode::RateLimited,
                        "too many wrong codes; wait a minute",
                    ),
                )
            }
            ClientMessage::JoinByCode { code } => match self.shared.lobby.room_by_code(&code) {
                Some(room_id) => {
                    let join = ClientMessage::JoinByCode { code };
                    self.forward(&room_id, identity, rid, join);
                }
                None => {
                    self.code_failures.fail();
                    self.shared.addresses.count(self.addr, Limited::RoomCode);
                    self.reply(
                        rid,
                        ServerMessage::error(ErrorCode::NotFound, "no room has that code"),
                    );
                }
            },
            other => {
                let Some(room_id) = other.room_id().cloned() else {
                    self.reply(
                        rid,
                        ServerMessage::error(ErrorCode::BadRequest, "unexpected message"),
                    );
                    return;
                };
                self.forward(&room_id, identity, rid, other);
            }
        }
    }

    fn forward(
        &mut self,
        room_id: &RoomId,
        identity: Arc<Identity>,
        request_id: Option<u64>,
        message: ClientMessage,
    ) {
        let known = self.rooms.get(room_id).filter(|h| !h.is_closed()).cloned();
        let Some(handle) = known.or_else(|| self.shared.lobby.room(room_id)) else {
            self.rooms.remove(room_id);
            self.reply(
                request_id,
                ServerMessage::error(ErrorCode::NotFound, format!("no room {room_id}")),
            );
            return;
        };
        match &message {
            ClientMessage::JoinRoom { .. } | ClientMessage::JoinByCode { .. } => {
                self.rooms.insert(room_id.clone(), handle.clone());
            }
            ClientMessage::LeaveRoom { .. } => {
                self.rooms.remove(room_id);
            }
            _ => {}
        }
        let caller = Caller {
            conn: self.id,
            tx: self.tx.clone(),
            identity,
            request_id,
        };
        if let Err(undelivered) = handle.try_send(RoomCommand::Request { caller, message }) {
            self.reply(request_id, undelivered.refusal());
        }
    }

    /// Runs a store query off this connection's loop and sends its answer
    /// (or an `internal` error) when it is ready.
    fn answer_later(
        &self,
        request_id: Option<u64>,
        answer: impl Future<Output = Result<ServerMessage, StoreError>> + Send + 'static,
    ) {
        let tx = self.tx.clone();
        tokio::spawn(async move {
            let message = answer.await.unwrap_or_else(|e| {
                tracing::error!(error = %e, "a store read failed");
                ServerMessage::error(
                    ErrorCode::Internal,
                    "the server could not read its database",
                )
            });
            let frame = ServerFrame {
                request_id,
                message,
            };
            let _ = tx.send_text(&frame.encode());
        });
    }

    /// Tells every room this connection was in that it is gone, and lets a
    /// guest's identity go from memory (the store keeps it).
    fn disconnected(&mut self) {
        self.shared.player_offline(self.id);
        self.left_tournaments();
        if let Some(identity) = &self.identity
            && !identity.registered
        {
            self.shared.forget_guest(&identity.token);
        }
        let conn = self.id;
        for (_, handle) in self.rooms.drain() {
            // Waits for room in a busy queue: a lost notice would leave the seat
            // "connected". A closed room's send just fails.
            tokio::spawn(async move {
                let _ = handle.send(RoomCommand::Disconnected { conn }).await;
            });
        }
    }
}
