//! Several server nodes as one Tabula: they share one PostgreSQL (the
//! store, and who runs which room) and meet in Redis, as lichess's lila-ws
//! nodes do.
//!
//! - Each room runs on one node, which holds its lease in PostgreSQL and
//!   renews it (`tenancy`). That node runs its rules, clock, dice and AI.
//! - Every node lists every room: a node announces its rooms' changes on the
//!   cluster's news channel, and the others list them with a [`Proxy`] as
//!   their handle. A client connected to any node joins and plays through
//!   it: its requests go to the owner's channel, and the owner's room
//!   writes the answers and events into a [`RelayTo`] outlet that sends
//!   them back to the client's node, straight into its socket.
//! - A node that dies stops renewing: its leases run out, another node
//!   claims its rooms and replays them from PostgreSQL, clocks included, and
//!   the clients reconnect to any node and resume. A node that stops
//!   gracefully lets go of its leases at once.
//! - Redis delivers at most once. A node that loses Redis closes the
//!   connections it was serving through it, and forgets the other nodes'
//!   clients in its rooms: they reconnect and resume with `since`.

mod link;
mod proxy;
mod relay;
mod tenancy;
mod wire;

pub use tenancy::claim;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tabula_shared::protocol::{ErrorCode, PlayerInfo, RoomId, ServerFrame, ServerMessage};
use tokio::sync::Notify;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use crate::challenges::Challenge;
use crate::handle::{Caller, ConnId, RoomCommand, RoomHandle};
use crate::lobby::Change;
use crate::nodes::{Nodes, PlayerNews};
use crate::outlet::{Outlet, SendError};
use crate::registry::Shared;
use link::Link;
use proxy::Proxy;
use relay::RelayTo;
use wire::{NEWS, News, NodeId, ToNode, node_channel};

/// How long a lost Redis is waited for before the subscription is tried again.
const RESUBSCRIBE: Duration = Duration::from_millis(250);

/// This node's part of the cluster.
pub struct Cluster {
    /// This node's name (fresh at every start).
    pub node: NodeId,
    /// How long a lease lasts unless renewed.
    pub lease: Duration,
    redis: redis::Client,
    link: Link,
    /// This node's connections in rooms other nodes run, by id: where their
    /// frames go.
    sockets: Mutex<HashMap<ConnId, Outlet>>,
    /// Other nodes' connections in this node's rooms.
    visitors: Mutex<HashMap<(NodeId, ConnId), Visitor>>,
    /// The rooms other nodes run.
    proxies: Mutex<HashMap<RoomId, Proxy>>,
    /// When each other node was last heard from.
    seen: Mutex<HashMap<NodeId, Instant>>,
    /// Wakes the tenancy loop to claim rooms now (a node left).
    claim_now: Notify,
    /// Held by the tenancy loop while it renews and claims; set to `true`
    /// when the node stops holding rooms (it is stopping).
    holding: tokio::sync::Mutex<bool>,
}

/// Another node's connection in this node's rooms.
struct Visitor {
    /// Its id among this node's connections.
    conn: ConnId,
    /// The rooms it sent something to.
    rooms: HashMap<RoomId, RoomHandle>,
}

/// Locks a mutex, recovering from a poisoned lock.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Cluster {
    /// Checks that Redis at `url` answers and starts the publisher.
    ///
    /// # Errors
    /// When the URL is not a Redis URL or Redis does not answer.
    pub async fn connect(url: &str, lease: Duration) -> Result<Cluster, String> {
        let redis = redis::Client::open(url).map_err(|e| format!("redis: {e}"))?;
        link::subscribe(&redis, &[NEWS.to_string()])
            .await
            .map_err(|e| format!("redis at {url}: {e}"))?;
        let link = Link::start(redis.clone());
        Ok(Cluster {
            node: format!("n-{}", &uuid::Uuid::new_v4().simple().to_string()[..8]),
            lease,
            redis,
            link,
            sockets: Mutex::default(),
            visitors: Mutex::default(),
            proxies: Mutex::default(),
            seen: Mutex::default(),
            claim_now: Notify::new(),
            holding: tokio::sync::Mutex::new(true),
        })
    }

    /// Starts this node's part: announcing its rooms' changes, listening to
    /// the others, and holding and claiming leases.
    pub fn start(shared: &Arc<Shared>, cluster: Arc<Cluster>) {
        let teller = cluster.clone();
        shared.lobby.tell_cluster(move |change| {
            let news = match change {
                Change::Room(summary, code) => News::Room {
                    owner: teller.node.clone(),
                    summary,
                    code,
                },
                Change::Removed(room_id) => News::Removed {
                    owner: teller.node.clone(),
                    room_id,
                },
            };
            teller.announce(&news);
        });
        tokio::spawn(listen(shared.clone(), cluster.clone()));
        tokio::spawn(tenancy::run(shared.clone(), cluster));
    }

    /// Sends `message` to `node`; false when the link has stopped.
    fn send(&self, node: &str, message: &ToNode) -> bool {
        let Ok(payload) = serde_json::to_string(message) else {
            return false;
        };
        self.link.publish(node_channel(node), payload).is_ok()
    }

    /// Tells every node.
    fn announce(&self, news: &News) {
        if let Ok(payload) = serde_json::to_string(news) {
            let _ = self.link.publish(NEWS.to_string(), payload);
        }
    }

    /// Whether `node` was heard from within a lease.
    fn is_alive(&self, node: &str) -> bool {
        lock(&self.seen)
            .get(node)
            .is_some_and(|t| t.elapsed() < self.lease)
    }

    fn heard_from(&self, node: &str) {
        if node != self.node {
            lock(&self.seen).insert(node.to_string(), Instant::now());
        }
    }

    fn remember_socket(&self, conn: ConnId, outlet: Outlet) {
        lock(&self.sockets).insert(conn, outlet);
    }

    fn forget_socket(&self, conn: ConnId) {
        lock(&self.sockets).remove(&conn);
    }

    /// Answers connection `conn` of `node` directly (the room was not
    /// reached).
    fn reply(&self, node: &str, conn: ConnId, request_id: Option<u64>, message: ServerMessage) {
        let text = ServerFrame {
            request_id,
            message,
        }
        .encode();
        self.send(node, &ToNode::Frame { conn, text });
    }

    /// Stops the proxy of `room_id`, if any (the room moved or closed).
    fn stop_proxy(&self, room_id: &str, reason: Option<&'static str>) {
        if let Some(proxy) = lock(&self.proxies).remove(room_id) {
            proxy.stop(reason);
        }
    }

    /// Stops renewing and claiming (the node is stopping), once the round
    /// in progress is over.
    pub async fn stop_holding(&self) {
        *self.holding.lock().await = false;
    }

    /// Lets go of this node's leases (its rooms are saved and stopped) and
    /// tells the other nodes to claim them now.
    pub async fn leave(&self, shared: &Shared) {
        self.stop_holding().await;
        if let Err(e) = shared.store.release_leases(self.node.clone()).await {
            tracing::warn!(error = %e, "could not release the rooms' leases");
        }
        self.announce(&News::Leaving {
            node: self.node.clone(),
        });
        // Give the publisher a moment to send it.
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Listens to this node's channel and the news, subscribing again whenever
/// Redis went away.
async fn listen(shared: Arc<Shared>, cluster: Arc<Cluster>) {
    let channels = [NEWS.to_string(), node_channel(&cluster.node)];
    loop {
        let mut stream = match link::subscribe(&cluster.redis, &channels).await {
            Ok(stream) => stream,
            Err(e) => {
                tracing::warn!(error = %e, "cannot subscribe to Redis; trying again");
                tokio::time::sleep(RESUBSCRIBE).await;
                continue;
            }
        };
        tracing::info!(node = %cluster.node, "listening to the cluster");
        // Every node announces its rooms again to one that (re)joined.
        cluster.announce(&News::Hello {
            node: cluster.node.clone(),
        });
        while let Some((channel, payload)) = link::next(&mut stream).await {
            if channel == NEWS {
                match serde_json::from_str::<News>(&payload) {
                    Ok(news) => on_news(&shared, &cluster, news),
                    Err(e) => tracing::warn!(error = %e, "bad cluster news"),
                }
            } else {
                match serde_json::from_str::<ToNode>(&payload) {
                    Ok(message) => on_message(&shared, &cluster, message),
                    Err(e) => tracing::warn!(error = %e, "bad cluster message"),
                }
            }
        }
        tracing::warn!("lost Redis: closing the connections served through it");
        link_lost(&cluster);
        shared.challenges().forget_nodes(None);
        tokio::time::sleep(RESUBSCRIBE).await;
    }
}

/// What was in flight through Redis may be lost, and what is sent before
/// the other nodes subscribe again is lost too: this node's clients in
/// other nodes' rooms reconnect and resume, and other nodes' clients are
/// taken out of this node's rooms (their nodes close them too).
fn link_lost(cluster: &Cluster) {
    cluster.link.reconnect();
    // Redis keeps nothing for a node that is not subscribed: until a node
    // is heard again (it subscribed again), nothing is sent to it.
    lock(&cluster.seen).clear();
    let sockets: Vec<Outlet> = lock(&cluster.sockets).drain().map(|(_, o)| o).collect();
    for outlet in sockets {
        outlet.close(
            CloseCode::Restart,
            "this server lost its link to the cluster; reconnect",
        );
    }
    let visitors: Vec<Visitor> = lock(&cluster.visitors).drain().map(|(_, v)| v).collect();
    for visitor in visitors {
        leave_rooms(visitor);
    }
}

/// Tells every room `visitor` was in that its connection is gone.
fn leave_rooms(visitor: Visitor) {
    let conn = visitor.conn;
    for (_, handle) in visitor.rooms {
        tokio::spawn(async move {
            let _ = handle.send(RoomCommand::Disconnected { conn }).await;
        });
    }
}

fn on_news(shared: &Arc<Shared>, cluster: &Arc<Cluster>, news: News) {
    match news {
        News::Room {
            owner,
            summary,
            code,
        } => {
            cluster.heard_from(&owner);
            if owner == cluster.node {
                return;
            }
            let room_id = summary.room_id.clone();
            let handle = {
                let mut proxies = lock(&cluster.proxies);
                match proxies.get(&room_id) {
                    Some(proxy) if proxy.owner == owner => proxy.handle.clone(),
                    _ => {
                        let fresh = Proxy::start(cluster.clone(), owner.clone(), room_id.clone());
                        let handle = fresh.handle.clone();
                        if let Some(moved) = proxies.insert(room_id.clone(), fresh) {
                            moved.stop(Some("this room moved to another server; reconnect"));
                        }
                        handle
                    }
                }
            };
            if !shared.lobby.put_remote(&owner, summary, code, handle) {
                // This node runs it now: the news is older than that.
                cluster.stop_proxy(&room_id, None);
            }
        }
        News::Removed { owner, room_id } => {
            cluster.heard_from(&owner);
            let ours = lock(&cluster.proxies)
                .get(&room_id)
                .is_some_and(|p| p.owner == owner);
            if ours {
                // The room told its members it closed.
                cluster.stop_proxy(&room_id, None);
            }
            shared.lobby.remove_remote(&room_id, &owner);
        }
        News::Beat { node } => cluster.heard_from(&node),
        News::Hello { node } => {
            cluster.heard_from(&node);
            if node != cluster.node {
                for (summary, code) in shared.lobby.local_rooms() {
                    cluster.announce(&News::Room {
                        owner: cluster.node.clone(),
                        summary,
                        code,
                    });
                }
                let here = shared.challenges().online_here();
                for player in here {
                    cluster.online(player);
                }
            }
        }
        News::Registered { account, identity } => {
            shared.reserve(account);
            shared.put_identity(Arc::new(identity));
        }
        News::ApiToken { row, identity } => {
            shared.api_tokens().add(row);
            shared.put_identity(Arc::new(identity));
        }
        News::ApiTokenRevoked { player_id, id } => {
            shared.api_tokens().revoke(&player_id, &id);
        }
        News::Online { node, player } => {
            if node != cluster.node {
                cluster.heard_from(&node);
                shared.challenges().online_elsewhere(&node, player);
            }
        }
        News::Offline { node, player_id } => {
            if node != cluster.node {
                shared.challenges().offline_elsewhere(&node, &player_id);
            }
        }
        News::Leaving { node } => {
            if node != cluster.node {
                shared.challenges().forget_nodes(Some(&node));
                lock(&cluster.seen).remove(&node);
                cluster.claim_now.notify_one();
            }
        }
    }
}

fn on_message(shared: &Arc<Shared>, cluster: &Arc<Cluster>, message: ToNode) {
    tracing::debug!(node = %cluster.node, ?message, "cluster message");
    match message {
        ToNode::Request {
            from,
            conn,
            identity,
            request_id,
            room_id,
            message,
        } => {
            cluster.heard_from(&from);
            let Some(handle) = shared.lobby.local_room(&room_id) else {
                let refusal = if shared.lobby.room(&room_id).is_some() {
                    ServerMessage::busy(
                        "this room moved to another server; try again",
                        Duration::from_millis(200),
                    )
                } else {
                    ServerMessage::error(ErrorCode::NotFound, format!("no room {room_id}"))
                };
                cluster.reply(&from, conn, request_id, refusal);
                return;
            };
            let local = {
                let mut visitors = lock(&cluster.visitors);
                let visitor = visitors
                    .entry((from.clone(), conn))
                    .or_insert_with(|| Visitor {
                        conn: shared.next_conn_id(),
                        rooms: HashMap::new(),
                    });
                visitor.rooms.insert(room_id, handle.clone());
                visitor.conn
            };
            let caller = Caller {
                conn: local,
                tx: Outlet::relay(Arc::new(RelayTo::new(cluster.link.clone(), &from, conn))),
                identity: Arc::new(identity),
                request_id,
            };
            if let Err(undelivered) = handle.try_send(RoomCommand::Request {
                caller,
                message: *message,
            }) {
                cluster.reply(&from, conn, request_id, undelivered.refusal());
            }
        }
        ToNode::Disconnected {
            from,
            conn,
            room_id,
        } => {
            let mut visitors = lock(&cluster.visitors);
            let Some(visitor) = visitors.get_mut(&(from.clone(), conn)) else {
                return;
            };
            if let Some(handle) = visitor.rooms.remove(&room_id) {
                let local = visitor.conn;
                tokio::spawn(async move {
                    let _ = handle.send(RoomCommand::Disconnected { conn: local }).await;
                });
            }
            if visitor.rooms.is_empty() {
                visitors.remove(&(from, conn));
            }
        }
        ToNode::Frame { conn, text } => {
            let outlet = lock(&cluster.sockets).get(&conn).cloned();
            if let Some(outlet) = outlet {
                match outlet.send_text(&text) {
                    Ok(()) => {}
                    Err(SendError::Full) => {
                        outlet.close(CloseCode::Again, "too slow to keep up; reconnect")
                    }
                    Err(SendError::Gone) => cluster.forget_socket(conn),
                }
            }
        }
        ToNode::Tell { player_id, text } => {
            shared.challenges().tell_here(&player_id, &text);
        }
        ToNode::Challenge {
            challenge_id,
            from,
            to,
            options,
        } => {
            let challenged = ServerMessage::Challenged {
                challenge_id: challenge_id.clone(),
                from: PlayerInfo {
                    id: from.id.clone(),
                    name: from.name.clone(),
                    ai: None,
                    bot: from.bot,
                },
                options: options.clone(),
            };
            let mut challenges = shared.challenges();
            challenges.keep(challenge_id, Challenge::new(from, to.clone(), options));
            challenges.tell_here(&to, &ServerFrame::push(challenged).encode());
        }
        ToNode::Close { conn, code, reason } => {
            let outlet = lock(&cluster.sockets).get(&conn).cloned();
            if let Some(outlet) = outlet {
                outlet.close(CloseCode::from(code), reason);
            }
        }
    }
}

/// Takes out of this node's rooms the connections of nodes not heard from
/// within a lease (they died: their clients reconnect elsewhere), and
/// forgets who was online there.
fn forget_silent_nodes(shared: &Shared, cluster: &Cluster) {
    let silent: Vec<NodeId> = {
        let mut seen = lock(&cluster.seen);
        let silent: Vec<NodeId> = seen
            .iter()
            .filter(|(_, t)| t.elapsed() >= cluster.lease)
            .map(|(n, _)| n.clone())
            .collect();
        for node in &silent {
            seen.remove(node);
        }
        silent
    };
    if silent.is_empty() {
        return;
    }
    for node in &silent {
        shared.challenges().forget_nodes(Some(node));
    }
    let gone: Vec<Visitor> = {
        let mut visitors = lock(&cluster.visitors);
        let keys: Vec<(NodeId, ConnId)> = visitors
            .keys()
            .filter(|(node, _)| silent.contains(node))
            .cloned()
            .collect();
        keys.into_iter()
            .filter_map(|k| visitors.remove(&k))
            .collect()
    };
    for visitor in gone {
        leave_rooms(visitor);
    }
}

impl Nodes for Cluster {
    fn node(&self) -> &str {
        &self.node
    }

    fn lease(&self) -> Duration {
        self.lease
    }

    /// Tells the other nodes of a change to the players they keep in
    /// memory (an account, an API token), once it is saved.
    fn players_changed(&self, news: PlayerNews) {
        self.announce(&match news {
            PlayerNews::Registered(account, identity) => News::Registered { account, identity },
            PlayerNews::ApiToken(row, identity) => News::ApiToken { row, identity },
            PlayerNews::ApiTokenRevoked { player_id, id } => {
                News::ApiTokenRevoked { player_id, id }
            }
        });
    }

    /// A player connected here.
    fn online(&self, player: PlayerInfo) {
        self.announce(&News::Online {
            node: self.node.clone(),
            player,
        });
    }

    /// A player's last connection here closed.
    fn offline(&self, player_id: String) {
        self.announce(&News::Offline {
            node: self.node.clone(),
            player_id,
        });
    }

    /// Passes the frame `text` on to `player_id`'s connections on `node`.
    fn tell(&self, node: &str, player_id: &str, text: String) {
        self.send(
            node,
            &ToNode::Tell {
                player_id: player_id.to_string(),
                text,
            },
        );
    }

    /// Hands challenge `challenge_id` to `node`, where its target is online.
    fn challenge(&self, node: &str, challenge_id: &str, challenge: &Challenge) {
        self.send(
            node,
            &ToNode::Challenge {
                challenge_id: challenge_id.to_string(),
                from: challenge.from.clone(),
                to: challenge.to.clone(),
                options: challenge.options.clone(),
            },
        );
    }
}
