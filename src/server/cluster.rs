//! Several server nodes on one PostgreSQL and a Redis bus (feature
//! `cluster`: `server --database postgres://… --bus redis://…`).
//!
//! - **Who referees a room**: the node holding its row in `leases`. A
//!   lease is good while its node's row in `nodes` is alive: every node
//!   renews its own (`alive_until`, [`LEASE_TTL`] ahead) every
//!   [`BEAT`]. A node takes a room when a connection asks for it and no
//!   live node holds it (a new room, a finished one, or one whose node
//!   died or stopped). Every write of a room is fenced by its lease (see
//!   [`super::pg`]): a node that lost a room can no longer store into it,
//!   so two nodes never both commit moves of one game.
//! - **Forwarding**: a connection that reaches another node gets a proxy
//!   there: a task that takes the room's commands (attach, act, detach)
//!   and publishes them on the referee's channel; the referee attaches a
//!   stand-in connection to the room whose frames go back over the bus to
//!   the proxy's node, which writes them to the real socket. Rooms and
//!   connections stay as they are on one node.
//! - **A node dies** (`kill -9`): its connections drop and the pages
//!   reconnect (to any node); the node they reach waits for the lease to
//!   lapse, takes the room and loads it from the database, so every move
//!   that was acknowledged (stored before broadcast) is there. Proxies to
//!   the dead node close their connections (1012) and those reconnect too.
//! - **A node stops cleanly**: it marks itself draining, stops accepting
//!   connections, saves every room with its clock, closes its members'
//!   connections (1012) and releases its leases: the rooms continue on the
//!   other nodes with no time charged for the move.
//! - **Quick match**: the queue is a table; pairing takes the oldest
//!   player waiting for the same game on a live node (under a lock per
//!   queue key) and tells their node over the bus.
//! - **The bus or the database down**: what needs them is refused with an
//!   error that says so (a move that cannot be stored is not made); a node
//!   reconnects by itself when they are back.
//!
//! - **A hung database or bus** (a process stopped, a network that drops
//!   packets without a reset): nothing waits without a deadline (issue
//!   33: with PostgreSQL stopped by SIGSTOP for 10 s the slowest
//!   cross-node move waited 10.01 s without a word; with Redis stopped,
//!   8 s). Every database call has one ([`pg::BATCH_DEADLINE`]; past it
//!   the connection is dropped and calls fail at once for
//!   [`pg::RETRY_AFTER`]), so does every publish ([`BUS_DEADLINE`],
//!   reconnecting included), and every action forwarded to another node
//!   is answered within [`NO_ANSWER_AFTER`]: if no frame comes back for
//!   that connection by then, the player is told the game's node did not
//!   answer. Every half second the node sends itself a ping through the
//!   bus; two lost in a row mark the bus down (new cross-node entries are
//!   refused at once) until one gets through.
//!
//! Redis pub/sub carries only ephemeral messages: everything that must
//! survive is in PostgreSQL before anyone is told.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use axum::extract::ws::Message;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot, Notify};
use tokio::time::Instant;
use tokio_postgres::Client;

use super::handle::{ConnEvent, ConnHandle};
use super::pg::{self, pg_error};
use super::room::{Action, Attach, RoomCmd};
use crate::protocol::online::{ErrorCode, ServerMsg};

/// How long a node's leases stay good without a renewal: the longest a
/// dead node's rooms wait before another node takes them.
pub const LEASE_TTL: Duration = Duration::from_secs(3);
/// How often a node renews its lease and checks its rooms and proxies.
pub const BEAT: Duration = Duration::from_millis(1000);
/// How long a node waits for another node's answer.
const ANSWER: Duration = Duration::from_secs(2);
/// How long a ping may take before the node counts as not answering.
const PING: Duration = Duration::from_millis(700);
/// One publish at most this long, a reconnection to the bus included.
pub const BUS_DEADLINE: Duration = Duration::from_millis(700);
/// After a publish fails, publishes fail at once for this long.
const BUS_QUIET: Duration = Duration::from_millis(500);
/// An action forwarded to the game's node and not answered by then is
/// answered with [`NO_ANSWER`] (the node's own store answers within
/// 1.5 s: see [`super::store::STORE_DEADLINE`]).
pub const NO_ANSWER_AFTER: Duration = Duration::from_millis(1800);
/// How often the node checks the bus (a ping to itself).
const BUS_CHECK: Duration = Duration::from_millis(500);

/// Told to a player whose action needs another node while the bus is down.
pub const BUS_DOWN: &str = "the server node that runs this game cannot be reached (the message bus is down): try again in a while";
/// Told to a player whose forwarded action got no answer in time.
pub const NO_ANSWER: &str = "the server node that runs this game did not answer in time (the message bus or the database is slow or down), so this may not have been done: try again in a while";

/// The shared database connection and what the last failure said.
#[derive(Default)]
struct DbSlot {
    client: Option<Arc<Client>>,
    /// Until then, calls fail at once with `why`.
    quiet_until: Option<Instant>,
    why: String,
}

/// What the cluster needs of this node's hub: its rooms (to attach other
/// nodes' connections to, to hand over, to unlist a proxy) and connection
/// ids. A trait, so that the cluster does not depend on the hub, which
/// asks it who referees a room and hands it quick matches.
pub trait Local: Send + Sync + 'static {
    fn next_id(&self) -> u64;
    /// Frames queued for one connection before it counts as too slow.
    fn out_queue(&self) -> usize;
    /// Every room listed (their codes and tasks, proxies too).
    fn listed(&self) -> Vec<(String, mpsc::Sender<RoomCmd>)>;
    /// Unlists `code` if `tx` is still the task listed for it.
    fn unlist(&self, code: &str, tx: &mpsc::Sender<RoomCmd>);
    /// Enters `conn` into room `code` (in memory, or loaded from the
    /// store), as a connection of this node would.
    fn attach<'a>(
        self: Arc<Self>,
        code: &'a str,
        conn: &'a ConnHandle,
        how: Attach,
    ) -> Attaching<'a>;
}

/// The task of the room entered, or the answer that refuses.
pub type Attaching<'a> =
    Pin<Box<dyn Future<Output = Result<mpsc::Sender<RoomCmd>, ServerMsg>> + Send + 'a>>;

/// Who referees a room.
pub enum Owner {
    /// This node (it holds the lease now): load the room here.
    Mine,
    /// Another node that answers.
    Other(String),
    /// No room has this code.
    Nobody,
}

/// What nodes tell each other (JSON on `stoneplay:node:ID`).
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t")]
enum Bus {
    /// To a room's referee: attach this node's connection `conn`.
    Attach {
        room: String,
        from: String,
        conn: u64,
        req: u64,
        how: Attach,
    },
    Act {
        room: String,
        from: String,
        conn: u64,
        action: Action,
    },
    Detach {
        room: String,
        from: String,
        conn: u64,
    },
    Ping {
        from: String,
        req: u64,
    },
    /// The referee's answer to `Attach`.
    Attached {
        req: u64,
        answer: Answer,
    },
    Pong {
        req: u64,
    },
    /// A frame for connection `conn` (of the node receiving this), from `room`.
    Frame {
        room: String,
        conn: u64,
        text: String,
    },
    /// Close connection `conn` (its room closed it).
    Close {
        room: String,
        conn: u64,
        code: u16,
        reason: String,
    },
    /// A quick match paired connection `conn`: this is its seat.
    Matched {
        conn: u64,
        room: String,
        token: String,
    },
}

#[derive(Debug, Serialize, Deserialize)]
enum Answer {
    Ok,
    /// The room refused; the message as JSON.
    Refused(String),
    /// This node does not referee the room (any more): look again.
    NotHere,
}

struct Proxy {
    node: String,
    dead: Arc<Notify>,
}

/// A connection of another node attached to a room of this one.
struct RemoteMember {
    id: u64,
    room: mpsc::Sender<RoomCmd>,
}

pub struct Cluster {
    /// This node's id (random, new at each start).
    pub node: String,
    hub: Weak<dyn Local>,
    db_url: String,
    db: tokio::sync::Mutex<DbSlot>,
    /// The quick-match queue's own connection (it runs transactions).
    queue_db: tokio::sync::Mutex<Option<Client>>,
    redis: redis::Client,
    publisher: Mutex<Option<redis::aio::MultiplexedConnection>>,
    reconnecting: tokio::sync::Mutex<()>,
    bus_up: AtomicBool,
    /// After a failed publish, publishes fail at once until then.
    bus_quiet_until: Mutex<Option<Instant>>,
    /// Until then this node has just got its database back: the other
    /// nodes could not renew their leases either, so a lapsed lease is
    /// not taken for a dead node yet.
    grace_until: Mutex<Option<Instant>>,
    /// Actions forwarded to another node, not answered yet: (room, conn)
    /// to when and whom to tell.
    awaiting: Mutex<HashMap<(String, u64), (Instant, ConnHandle)>>,
    next_req: AtomicU64,
    /// Answers awaited from other nodes (attach, ping), by request.
    waiting: Mutex<HashMap<u64, oneshot::Sender<Answer>>>,
    /// This node's connections in rooms of other nodes: (room, conn).
    proxied: Mutex<HashMap<(String, u64), ConnHandle>>,
    /// Rooms this node forwards to another node.
    proxies: Mutex<HashMap<String, Proxy>>,
    /// Other nodes' connections in this node's rooms: (node, conn, room).
    remote: Mutex<HashMap<(String, u64, String), RemoteMember>>,
    /// This node's connections waiting for a quick match.
    queued: Mutex<HashMap<u64, ConnHandle>>,
    draining: AtomicBool,
    stopped: AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn channel(node: &str) -> String {
    format!("stoneplay:node:{node}")
}

fn server_error(message: impl Into<String>) -> ServerMsg {
    ServerMsg::Error {
        code: ErrorCode::Server,
        message: message.into(),
    }
}

fn db_error(e: tokio_postgres::Error) -> String {
    format!("the server cannot reach its database: {}", pg_error(&e))
}

impl Cluster {
    /// Joins the cluster: checks the bus, registers the node and starts
    /// listening and renewing. Fails (the server does not start) when the
    /// database or the bus cannot be reached.
    pub async fn start(
        hub: &Arc<impl Local>,
        node: String,
        db_url: &str,
        bus_url: &str,
    ) -> Result<Arc<Cluster>, String> {
        if !bus_url.starts_with("redis://") {
            return Err(format!(
                "--bus expects redis://HOST:PORT (this server speaks Redis pub/sub), not '{bus_url}'"
            ));
        }
        let redis =
            redis::Client::open(bus_url).map_err(|e| format!("--bus is not a Redis URL: {e}"))?;
        let cluster = Arc::new(Cluster {
            node,
            hub: Arc::downgrade(hub) as Weak<dyn Local>,
            db_url: db_url.to_string(),
            db: tokio::sync::Mutex::new(DbSlot::default()),
            queue_db: tokio::sync::Mutex::new(None),
            redis,
            publisher: Mutex::new(None),
            reconnecting: tokio::sync::Mutex::new(()),
            bus_up: AtomicBool::new(false),
            bus_quiet_until: Mutex::new(None),
            grace_until: Mutex::new(None),
            awaiting: Mutex::new(HashMap::new()),
            next_req: AtomicU64::new(1),
            waiting: Mutex::new(HashMap::new()),
            proxied: Mutex::new(HashMap::new()),
            proxies: Mutex::new(HashMap::new()),
            remote: Mutex::new(HashMap::new()),
            queued: Mutex::new(HashMap::new()),
            draining: AtomicBool::new(false),
            stopped: AtomicBool::new(false),
        });
        cluster
            .publisher()
            .await
            .map_err(|_| "cannot reach the message bus (--bus): is Redis running?".to_string())?;
        cluster.beat_once().await?;
        let (ready_tx, ready_rx) = oneshot::channel();
        tokio::spawn(cluster.clone().listen(Some(ready_tx)));
        tokio::time::timeout(ANSWER, ready_rx)
            .await
            .map_err(|_| "cannot subscribe on the message bus (--bus)".to_string())?
            .map_err(|_| "cannot subscribe on the message bus (--bus)".to_string())?;
        tokio::spawn(cluster.clone().beat());
        tokio::spawn(cluster.clone().watch_bus());
        Ok(cluster)
    }

    fn hub(&self) -> Option<Arc<dyn Local>> {
        self.hub.upgrade()
    }

    fn req(&self) -> u64 {
        self.next_req.fetch_add(1, Ordering::Relaxed)
    }

    /// Whether the bus is up (as far as this node knows).
    pub fn bus_up(&self) -> bool {
        self.bus_up.load(Ordering::Relaxed)
    }

    /// The shared database connection, opened again if it was lost (at
    /// most once per [`pg::RETRY_AFTER`]).
    async fn db(&self) -> Result<Arc<Client>, String> {
        let mut slot = self.db.lock().await;
        if let Some(c) = slot.client.as_ref().filter(|c| !c.is_closed()) {
            return Ok(c.clone());
        }
        slot.client = None;
        if slot.quiet_until.is_some_and(|t| Instant::now() < t) {
            return Err(slot.why.clone());
        }
        match pg::connect(&self.db_url).await {
            Ok(c) => {
                let c = Arc::new(c);
                slot.client = Some(c.clone());
                slot.quiet_until = None;
                Ok(c)
            }
            Err(e) => {
                slot.why = format!("the server {e}");
                slot.quiet_until = Some(Instant::now() + pg::RETRY_AFTER);
                Err(slot.why.clone())
            }
        }
    }

    /// A call on the shared connection, within [`pg::BATCH_DEADLINE`]:
    /// past it the connection is dropped (its state is unknown) and calls
    /// fail at once for a while.
    async fn timed<T>(
        &self,
        call: impl Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> Result<T, String> {
        match tokio::time::timeout(pg::BATCH_DEADLINE, call).await {
            Ok(r) => r.map_err(db_error),
            Err(_) => {
                let why = format!(
                    "the server cannot reach its database: it did not answer within {} ms",
                    pg::BATCH_DEADLINE.as_millis()
                );
                let mut slot = self.db.lock().await;
                slot.client = None;
                slot.quiet_until = Some(Instant::now() + pg::RETRY_AFTER);
                slot.why = why.clone();
                Err(why)
            }
        }
    }

    async fn publisher(&self) -> Result<redis::aio::MultiplexedConnection, String> {
        if let Some(c) = lock(&self.publisher).clone() {
            return Ok(c);
        }
        let _one = self.reconnecting.lock().await;
        if let Some(c) = lock(&self.publisher).clone() {
            return Ok(c);
        }
        let c = self
            .redis
            .get_multiplexed_async_connection()
            .await
            .map_err(|_| BUS_DOWN.to_string())?;
        *lock(&self.publisher) = Some(c.clone());
        Ok(c)
    }

    /// Publishes `msg` on `node`'s channel, within [`BUS_DEADLINE`] in
    /// all; a failed connection is opened again once before the bus
    /// counts as down, and then publishes fail at once for [`BUS_QUIET`].
    async fn publish(&self, node: &str, msg: &Bus) -> Result<(), String> {
        if lock(&self.bus_quiet_until).is_some_and(|t| Instant::now() < t) {
            return Err(BUS_DOWN.into());
        }
        let text = serde_json::to_string(msg).map_err(|e| e.to_string())?;
        let tries = async {
            for _ in 0..2 {
                let mut c = self.publisher().await?;
                let sent = redis::cmd("PUBLISH")
                    .arg(channel(node))
                    .arg(&text)
                    .query_async::<i64>(&mut c)
                    .await;
                if sent.is_ok() {
                    return Ok(());
                }
                *lock(&self.publisher) = None;
            }
            Err(BUS_DOWN.to_string())
        };
        let result = tokio::time::timeout(BUS_DEADLINE, tries)
            .await
            .unwrap_or_else(|_| Err(BUS_DOWN.to_string()));
        if result.is_err() {
            // The connection may be stuck mid-command: a new one next time.
            *lock(&self.publisher) = None;
            *lock(&self.bus_quiet_until) = Some(Instant::now() + BUS_QUIET);
        }
        result
    }

    /// Checks the bus every [`BUS_CHECK`] with a ping to this node itself
    /// (publish, subscription, publish back: the whole way), and answers
    /// forwarded actions that have waited past [`NO_ANSWER_AFTER`].
    async fn watch_bus(self: Arc<Self>) {
        let mut tick = tokio::time::interval(BUS_CHECK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut lost = 0;
        loop {
            tick.tick().await;
            if self.stopped.load(Ordering::Relaxed) {
                return;
            }
            let late: Vec<ConnHandle> = {
                let now = Instant::now();
                let mut awaiting = lock(&self.awaiting);
                let keys: Vec<(String, u64)> = awaiting
                    .iter()
                    .filter(|(_, (since, _))| now.duration_since(*since) >= NO_ANSWER_AFTER)
                    .map(|(k, _)| k.clone())
                    .collect();
                keys.iter()
                    .filter_map(|k| awaiting.remove(k).map(|(_, h)| h))
                    .collect()
            };
            for h in late {
                h.send(&server_error(NO_ANSWER));
            }
            if self.draining.load(Ordering::Relaxed) {
                continue;
            }
            let me = self.node.clone();
            if self.ping(&me).await {
                lost = 0;
                if !self.bus_up.swap(true, Ordering::Relaxed) {
                    eprintln!("server: the message bus answers again");
                }
            } else {
                lost += 1;
                if lost == 2 && self.bus_up.swap(false, Ordering::Relaxed) {
                    eprintln!(
                        "server: ERROR: THE MESSAGE BUS DOES NOT ANSWER: games refereed by other nodes are refused until it does"
                    );
                }
            }
        }
    }

    /// Listens on this node's channel; subscribes again after an outage.
    async fn listen(self: Arc<Self>, mut ready: Option<oneshot::Sender<()>>) {
        while !self.stopped.load(Ordering::Relaxed) {
            let subscribed = tokio::time::timeout(ANSWER, async {
                let mut pubsub = self.redis.get_async_pubsub().await.ok()?;
                pubsub.subscribe(channel(&self.node)).await.ok()?;
                Some(pubsub)
            })
            .await
            .ok()
            .flatten();
            if let Some(pubsub) = subscribed {
                {
                    if !self.bus_up.swap(true, Ordering::Relaxed) && ready.is_none() {
                        eprintln!("server: the message bus works again");
                    }
                    if let Some(r) = ready.take() {
                        let _ = r.send(());
                    }
                    let mut stream = pubsub.into_on_message();
                    while let Some(msg) = stream.next().await {
                        let Ok(text) = msg.get_payload::<String>() else {
                            continue;
                        };
                        match serde_json::from_str::<Bus>(&text) {
                            Ok(m) => self.on_bus(m).await,
                            Err(e) => eprintln!("server: a bad bus message ({e}) ignored"),
                        }
                    }
                }
            }
            if self.bus_up.swap(false, Ordering::Relaxed) {
                eprintln!(
                    "server: ERROR: THE MESSAGE BUS IS UNREACHABLE: games refereed by other nodes are refused until it is back"
                );
                self.bus_lost();
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    }

    /// The bus went down: what travelled over it is cut, so the pages
    /// reconnect (and are refused with [`BUS_DOWN`] until it is back, or
    /// play on where the room is on the node they reach).
    fn bus_lost(&self) {
        *lock(&self.publisher) = None;
        lock(&self.waiting).clear();
        for (_, proxy) in lock(&self.proxies).iter() {
            proxy.dead.notify_one();
        }
        let remote: Vec<RemoteMember> = lock(&self.remote).drain().map(|(_, m)| m).collect();
        for m in remote {
            let _ = m.room.try_send(RoomCmd::Detach { conn: m.id });
        }
    }

    async fn on_bus(self: &Arc<Self>, msg: Bus) {
        match msg {
            Bus::Attach {
                room,
                from,
                conn,
                req,
                how,
            } => {
                tokio::spawn(self.clone().remote_attach(room, from, conn, req, how));
            }
            Bus::Act {
                room,
                from,
                conn,
                action,
            } => {
                let member = lock(&self.remote)
                    .get(&(from.clone(), conn, room.clone()))
                    .map(|m| (m.id, m.room.clone()));
                let sent = match member {
                    Some((id, tx)) => tx.send(RoomCmd::Act { conn: id, action }).await.is_ok(),
                    None => false,
                };
                if !sent {
                    // The room left this node: the page reconnects and finds it.
                    let msg = Bus::Close {
                        room,
                        conn,
                        code: 1012,
                        reason: "the game moved to another server node".into(),
                    };
                    let _ = self.publish(&from, &msg).await;
                }
            }
            Bus::Detach { room, from, conn } => {
                let member = lock(&self.remote).remove(&(from, conn, room));
                if let Some(m) = member {
                    let _ = m.room.send(RoomCmd::Detach { conn: m.id }).await;
                }
            }
            Bus::Ping { from, req } => {
                if !self.draining.load(Ordering::Relaxed) {
                    let _ = self.publish(&from, &Bus::Pong { req }).await;
                }
            }
            Bus::Attached { req, answer } => {
                if let Some(tx) = lock(&self.waiting).remove(&req) {
                    let _ = tx.send(answer);
                }
            }
            Bus::Pong { req } => {
                if let Some(tx) = lock(&self.waiting).remove(&req) {
                    let _ = tx.send(Answer::Ok);
                }
            }
            Bus::Frame { room, conn, text } => {
                let key = (room, conn);
                lock(&self.awaiting).remove(&key);
                let handle = lock(&self.proxied).get(&key).cloned();
                if let Some(h) = handle {
                    h.send_text(text.into());
                }
            }
            Bus::Close {
                room,
                conn,
                code: _,
                reason,
            } => {
                let key = (room, conn);
                lock(&self.awaiting).remove(&key);
                let handle = lock(&self.proxied).remove(&key);
                if let Some(h) = handle {
                    h.close_to_reconnect(&reason);
                }
            }
            Bus::Matched { conn, room, token } => self.deliver_match(conn, room, token),
        }
    }

    /// Attaches another node's connection to a room of this node, through
    /// a stand-in whose frames go back over the bus.
    async fn remote_attach(
        self: Arc<Self>,
        room: String,
        from: String,
        conn: u64,
        req: u64,
        how: Attach,
    ) {
        let answer = match self.hub() {
            None => Answer::NotHere,
            Some(_) if self.draining.load(Ordering::Relaxed) => Answer::NotHere,
            Some(hub) => match self.holds(&room).await {
                Ok(false) | Err(_) => Answer::NotHere,
                Ok(true) => {
                    let (out_tx, out_rx) = mpsc::channel(hub.out_queue());
                    let kill = Arc::new(Notify::new());
                    let (ctl_tx, _ctl_rx) = mpsc::channel(1);
                    let handle = ConnHandle::new(hub.next_id(), out_tx, kill.clone(), ctl_tx);
                    tokio::spawn(self.clone().forward(
                        out_rx,
                        kill,
                        from.clone(),
                        room.clone(),
                        conn,
                        handle.id,
                    ));
                    match hub.attach(&room, &handle, how).await {
                        Ok(tx) => {
                            let member = RemoteMember {
                                id: handle.id,
                                room: tx,
                            };
                            lock(&self.remote).insert((from.clone(), conn, room), member);
                            Answer::Ok
                        }
                        Err(msg) => Answer::Refused(msg.to_json()),
                    }
                }
            },
        };
        let _ = self.publish(&from, &Bus::Attached { req, answer }).await;
    }

    /// Sends a stand-in connection's frames to its node.
    async fn forward(
        self: Arc<Self>,
        mut out: mpsc::Receiver<Message>,
        kill: Arc<Notify>,
        node: String,
        room: String,
        conn: u64,
        id: u64,
    ) {
        loop {
            let msg = tokio::select! {
                m = out.recv() => m,
                () = kill.notified() => {
                    let msg = Bus::Close { room: room.clone(), conn, code: 1008, reason: "too slow".into() };
                    let _ = self.publish(&node, &msg).await;
                    break;
                }
            };
            let sent = match msg {
                Some(Message::Text(t)) => {
                    let msg = Bus::Frame {
                        room: room.clone(),
                        conn,
                        text: t.as_str().to_string(),
                    };
                    self.publish(&node, &msg).await.is_ok()
                }
                Some(Message::Close(frame)) => {
                    let (code, reason) = frame
                        .map(|f| (f.code, f.reason.as_str().to_string()))
                        .unwrap_or((1012, String::new()));
                    let msg = Bus::Close {
                        room: room.clone(),
                        conn,
                        code,
                        reason,
                    };
                    let _ = self.publish(&node, &msg).await;
                    false
                }
                Some(_) => true,
                None => false,
            };
            if !sent {
                break;
            }
        }
        let key = (node, conn, room);
        let mut remote = lock(&self.remote);
        if remote.get(&key).is_some_and(|m| m.id == id) {
            remote.remove(&key);
        }
    }

    /// Whether this node holds `room`'s lease.
    async fn holds(&self, room: &str) -> Result<bool, String> {
        let db = self.db().await?;
        let row = self
            .timed(db.query_opt("SELECT node FROM leases WHERE room = $1", &[&room]))
            .await?;
        Ok(row.is_some_and(|r| r.get::<_, String>(0) == self.node))
    }

    /// Who referees `room`; takes it when nobody alive does (waiting, at
    /// most a lease's time, for a node that stopped answering or is
    /// handing its rooms over).
    pub async fn claim(&self, room: &str) -> Result<Owner, String> {
        if self.draining.load(Ordering::Relaxed) {
            return Err("this server node is stopping: reconnect".into());
        }
        let deadline = Instant::now() + LEASE_TTL + ANSWER;
        loop {
            let db = self.db().await?;
            let row = self.timed(db.query_opt(
                    "SELECT l.node, COALESCE(n.alive_until > now(), false), COALESCE(n.draining, false)
                     FROM leases l LEFT JOIN nodes n ON n.id = l.node WHERE l.room = $1",
                    &[&room],
                )).await?;
            match row {
                None => {
                    let n = self
                        .timed(db.execute(
                            "INSERT INTO leases (room, node)
                             SELECT $1, $2 WHERE EXISTS (SELECT 1 FROM rooms WHERE code = $1)
                             ON CONFLICT (room) DO NOTHING",
                            &[&room, &self.node],
                        ))
                        .await?;
                    if n == 1 {
                        return Ok(Owner::Mine);
                    }
                    let exists = self
                        .timed(db.query_opt("SELECT 1 FROM rooms WHERE code = $1", &[&room]))
                        .await?;
                    if exists.is_none() {
                        return Ok(Owner::Nobody);
                    }
                }
                Some(row) => {
                    let (node, alive, draining): (String, bool, bool) =
                        (row.get(0), row.get(1), row.get(2));
                    if node == self.node {
                        return Ok(Owner::Mine);
                    }
                    // Just after a database outage a lapsed lease may be a
                    // live node's that could not renew: ask it first.
                    if !alive && !self.in_grace() {
                        let n = self
                            .timed(db.execute(
                                "UPDATE leases SET node = $2 WHERE room = $1 AND node = $3",
                                &[&room, &self.node, &node],
                            ))
                            .await?;
                        if n == 1 {
                            eprintln!("server: took room {room} over from node {node}");
                            return Ok(Owner::Mine);
                        }
                        continue;
                    }
                    if !draining {
                        if !self.bus_up() {
                            return Err(BUS_DOWN.into());
                        }
                        if self.ping(&node).await {
                            return Ok(Owner::Other(node));
                        }
                    }
                    if Instant::now() > deadline {
                        return Err(
                            "the server node that runs this game does not answer: try again in a while"
                                .into(),
                        );
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
    }

    /// Whether `node` answers over the bus.
    async fn ping(&self, node: &str) -> bool {
        let req = self.req();
        let (tx, rx) = oneshot::channel();
        lock(&self.waiting).insert(req, tx);
        let from = self.node.clone();
        let ok = self.publish(node, &Bus::Ping { from, req }).await.is_ok()
            && matches!(tokio::time::timeout(PING, rx).await, Ok(Ok(_)));
        lock(&self.waiting).remove(&req);
        ok
    }

    /// A task that stands for `room`, refereed by `node`.
    pub fn spawn_proxy(self: &Arc<Self>, room: &str, node: &str) -> mpsc::Sender<RoomCmd> {
        let (tx, rx) = mpsc::channel(256);
        let dead = Arc::new(Notify::new());
        let proxy = Proxy {
            node: node.to_string(),
            dead: dead.clone(),
        };
        lock(&self.proxies).insert(room.to_string(), proxy);
        tokio::spawn(
            self.clone()
                .proxy(room.to_string(), node.to_string(), tx.clone(), rx, dead),
        );
        tx
    }

    async fn proxy(
        self: Arc<Self>,
        room: String,
        node: String,
        me: mpsc::Sender<RoomCmd>,
        mut rx: mpsc::Receiver<RoomCmd>,
        dead: Arc<Notify>,
    ) {
        let mut members: HashMap<u64, ConnHandle> = HashMap::new();
        let from = self.node.clone();
        let mut close_members = true;
        loop {
            let cmd = tokio::select! {
                c = rx.recv() => c,
                () = dead.notified() => None,
            };
            let Some(cmd) = cmd else { break };
            match cmd {
                RoomCmd::Attach { conn, how, done } => {
                    let key = (room.clone(), conn.id);
                    lock(&self.proxied).insert(key.clone(), conn.clone());
                    let req = self.req();
                    let (atx, arx) = oneshot::channel();
                    lock(&self.waiting).insert(req, atx);
                    let msg = Bus::Attach {
                        room: room.clone(),
                        from: from.clone(),
                        conn: conn.id,
                        req,
                        how,
                    };
                    let answer = match self.publish(&node, &msg).await {
                        Err(e) => Err(e),
                        Ok(()) => match tokio::time::timeout(ANSWER, arx).await {
                            Ok(Ok(a)) => Ok(a),
                            _ => Ok(Answer::NotHere),
                        },
                    };
                    lock(&self.waiting).remove(&req);
                    match answer {
                        Ok(Answer::Ok) => {
                            members.insert(conn.id, conn);
                            let _ = done.send(Ok(()));
                        }
                        Ok(Answer::Refused(json)) => {
                            lock(&self.proxied).remove(&key);
                            let msg = ServerMsg::from_json(&json)
                                .unwrap_or_else(|_| server_error("refused by the room's node"));
                            let _ = done.send(Err(msg));
                        }
                        Err(e) => {
                            lock(&self.proxied).remove(&key);
                            let _ = done.send(Err(server_error(e)));
                        }
                        Ok(Answer::NotHere) => {
                            // The node no longer referees the room (or does
                            // not answer): unlisted and closed before the
                            // hub hears, so it looks the room up again.
                            lock(&self.proxied).remove(&key);
                            rx.close();
                            if let Some(hub) = self.hub() {
                                hub.unlist(&room, &me);
                            }
                            drop(done);
                            break;
                        }
                    }
                }
                RoomCmd::Detach { conn } => {
                    members.remove(&conn);
                    lock(&self.proxied).remove(&(room.clone(), conn));
                    lock(&self.awaiting).remove(&(room.clone(), conn));
                    let msg = Bus::Detach {
                        room: room.clone(),
                        from: from.clone(),
                        conn,
                    };
                    let _ = self.publish(&node, &msg).await;
                }
                RoomCmd::Act { conn, action } => {
                    let msg = Bus::Act {
                        room: room.clone(),
                        from: from.clone(),
                        conn,
                        action,
                    };
                    match self.publish(&node, &msg).await {
                        Err(e) => {
                            if let Some(h) = members.get(&conn) {
                                h.send(&server_error(e));
                            }
                        }
                        // Answered (by a frame for this connection) within
                        // NO_ANSWER_AFTER, or the player hears why not.
                        Ok(()) => {
                            if let Some(h) = members.get(&conn) {
                                lock(&self.awaiting)
                                    .entry((room.clone(), conn))
                                    .or_insert_with(|| (Instant::now(), h.clone()));
                            }
                        }
                    }
                }
                RoomCmd::Shutdown { done } => {
                    close_members = false;
                    let _ = done.send(());
                    break;
                }
                RoomCmd::Handover { done } => {
                    let _ = done.send(());
                    break;
                }
            }
        }
        rx.close();
        if let Some(hub) = self.hub() {
            hub.unlist(&room, &me);
        }
        {
            let mut proxies = lock(&self.proxies);
            if proxies
                .get(&room)
                .is_some_and(|p| Arc::ptr_eq(&p.dead, &dead))
            {
                proxies.remove(&room);
            }
        }
        for (id, conn) in members {
            lock(&self.proxied).remove(&(room.clone(), id));
            lock(&self.awaiting).remove(&(room.clone(), id));
            if close_members {
                conn.close_to_reconnect("the game moves to another server node");
            }
            // This node no longer forwards for it: the referee forgets it.
            let msg = Bus::Detach {
                room: room.clone(),
                from: from.clone(),
                conn: id,
            };
            let _ = tokio::time::timeout(ANSWER, self.publish(&node, &msg)).await;
        }
    }

    /// Renews this node's lease and checks its rooms and proxies, every [`BEAT`].
    async fn beat(self: Arc<Self>) {
        let mut tick = tokio::time::interval(BEAT);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut failing = false;
        loop {
            tick.tick().await;
            if self.stopped.load(Ordering::Relaxed) {
                return;
            }
            match self.beat_once().await {
                Ok(()) if failing => {
                    failing = false;
                    *lock(&self.grace_until) = Some(Instant::now() + LEASE_TTL);
                    eprintln!("server: the database works again");
                }
                Ok(()) => {}
                Err(e) if !failing => {
                    failing = true;
                    eprintln!("server: ERROR: {e}: every move is refused until it is back");
                }
                Err(_) => {}
            }
        }
    }

    /// Whether this node has just got its database back (see `grace_until`).
    fn in_grace(&self) -> bool {
        lock(&self.grace_until).is_some_and(|t| Instant::now() < t)
    }

    async fn beat_once(&self) -> Result<(), String> {
        let db = self.db().await?;
        let ttl = LEASE_TTL.as_secs_f64();
        let draining = self.draining.load(Ordering::Relaxed);
        self.timed(db.execute(
            "INSERT INTO nodes (id, alive_until, draining) VALUES ($1, now() + make_interval(secs => $2), $3)
             ON CONFLICT (id) DO UPDATE SET alive_until = EXCLUDED.alive_until, draining = EXCLUDED.draining",
            &[&self.node, &ttl, &draining],
        )).await?;
        let Some(hub) = self.hub() else {
            return Ok(());
        };
        // Rooms refereed here whose lease another node took: let them go.
        let proxies: HashMap<String, (String, Arc<Notify>)> = lock(&self.proxies)
            .iter()
            .map(|(room, p)| (room.clone(), (p.node.clone(), p.dead.clone())))
            .collect();
        let local: Vec<(String, mpsc::Sender<RoomCmd>)> = hub
            .listed()
            .into_iter()
            .filter(|(code, _)| !proxies.contains_key(code))
            .collect();
        if !local.is_empty() {
            let codes: Vec<&String> = local.iter().map(|(c, _)| c).collect();
            let held: HashSet<String> = self
                .timed(db.query(
                    "SELECT room FROM leases WHERE room = ANY($1) AND node = $2",
                    &[&codes, &self.node],
                ))
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect();
            for (code, tx) in local {
                if !held.contains(&code) {
                    eprintln!("server: room {code} is refereed by another node now; handed over");
                    tokio::spawn(async move {
                        let (done, _) = oneshot::channel();
                        let _ = tx.send(RoomCmd::Handover { done }).await;
                    });
                }
            }
        }
        // Nodes that seem dead just after this one got its database back
        // may only have been cut off as it was: they get a lease's time.
        if self.in_grace() {
            return Ok(());
        }
        // Proxies whose referee died or gave the room up: their
        // connections reconnect and find the room where it is now.
        if !proxies.is_empty() {
            let codes: Vec<&String> = proxies.keys().collect();
            let live: HashMap<String, String> = self
                .timed(db.query(
                    "SELECT l.room, l.node FROM leases l JOIN nodes n ON n.id = l.node
                     WHERE l.room = ANY($1) AND n.alive_until > now()",
                    &[&codes],
                ))
                .await?
                .iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect();
            for (room, (node, dead)) in &proxies {
                if live.get(room) != Some(node) {
                    dead.notify_one();
                }
            }
        }
        // Other nodes' connections in rooms here, when their node died.
        let alive: HashSet<String> = self
            .timed(db.query("SELECT id FROM nodes WHERE alive_until > now()", &[]))
            .await?
            .iter()
            .map(|r| r.get(0))
            .collect();
        let gone: Vec<RemoteMember> = {
            let mut remote = lock(&self.remote);
            let keys: Vec<_> = remote
                .keys()
                .filter(|(node, _, _)| !alive.contains(node))
                .cloned()
                .collect();
            keys.into_iter().filter_map(|k| remote.remove(&k)).collect()
        };
        for m in gone {
            let _ = m.room.try_send(RoomCmd::Detach { conn: m.id });
        }
        // What dead nodes left behind.
        self.timed(db.execute(
            "DELETE FROM queue WHERE node NOT IN (SELECT id FROM nodes WHERE alive_until > now())",
            &[],
        ))
        .await?;
        self.timed(db.execute(
            "DELETE FROM nodes WHERE alive_until < now() - interval '1 hour'",
            &[],
        ))
        .await?;
        Ok(())
    }

    /// The quick-match queue's connection (opened again if lost).
    async fn queue_db(&self) -> Result<tokio::sync::MutexGuard<'_, Option<Client>>, String> {
        let mut slot = self.queue_db.lock().await;
        if slot.as_ref().is_none_or(|c| c.is_closed()) {
            *slot = None;
            *slot = Some(
                pg::connect(&self.db_url)
                    .await
                    .map_err(|e| format!("the server {e}"))?,
            );
        }
        Ok(slot)
    }

    /// Pairs `conn` with the oldest player waiting under `key` on a live
    /// node (their node and connection), or puts it in the queue.
    pub async fn pair(
        &self,
        key: &str,
        conn: &ConnHandle,
    ) -> Result<Option<(String, u64)>, String> {
        if self.draining.load(Ordering::Relaxed) {
            return Err("this server node is stopping: reconnect".into());
        }
        lock(&self.queued).insert(conn.id, conn.clone());
        let pairing = async {
            let mut slot = self.queue_db().await?;
            let Some(client) = slot.as_mut() else {
                return Err("no database connection".to_string());
            };
            let tx = client.transaction().await.map_err(db_error)?;
            tx.execute("SELECT pg_advisory_xact_lock(hashtext($1))", &[&key])
                .await
                .map_err(db_error)?;
            let id = conn.id as i64;
            let partner = tx
                .query_opt(
                    "DELETE FROM queue WHERE (node, conn) IN (
                        SELECT q.node, q.conn FROM queue q JOIN nodes n ON n.id = q.node
                        WHERE q.key = $1 AND n.alive_until > now() AND NOT n.draining
                          AND NOT (q.node = $2 AND q.conn = $3)
                        ORDER BY q.since LIMIT 1)
                     RETURNING node, conn",
                    &[&key, &self.node, &id],
                )
                .await
                .map_err(db_error)?
                .map(|r| (r.get::<_, String>(0), r.get::<_, i64>(1) as u64));
            if partner.is_none() {
                tx.execute(
                    "INSERT INTO queue (key, node, conn) VALUES ($1, $2, $3)
                     ON CONFLICT (node, conn) DO UPDATE SET key = EXCLUDED.key, since = clock_timestamp()",
                    &[&key, &self.node, &id],
                )
                .await
                .map_err(db_error)?;
            }
            tx.commit().await.map_err(db_error)?;
            Ok(partner)
        };
        // Within the deadline, or the connection goes (its state unknown).
        let result = match tokio::time::timeout(pg::BATCH_DEADLINE, pairing).await {
            Ok(r) => r,
            Err(_) => {
                *self.queue_db.lock().await = None;
                Err(format!(
                    "the server cannot reach its database: it did not answer within {} ms",
                    pg::BATCH_DEADLINE.as_millis()
                ))
            }
        };
        if !matches!(result, Ok(None)) {
            lock(&self.queued).remove(&conn.id);
        }
        result
    }

    /// Puts a partner back in the queue (the room for them could not be made).
    pub async fn requeue(&self, key: &str, partner: &(String, u64)) {
        if let Ok(db) = self.db().await {
            let _ = self.timed(db.execute(
                    "INSERT INTO queue (key, node, conn) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                    &[&key, &partner.0, &(partner.1 as i64)],
                )).await;
        }
    }

    /// Tells a paired player (on this node or another) their seat.
    pub async fn matched(&self, partner: &(String, u64), room: &str, token: &str) {
        let (node, conn) = partner;
        if *node == self.node {
            self.deliver_match(*conn, room.to_string(), token.to_string());
            return;
        }
        let msg = Bus::Matched {
            conn: *conn,
            room: room.to_string(),
            token: token.to_string(),
        };
        if let Err(e) = self.publish(node, &msg).await {
            eprintln!("server: a quick-match partner on node {node} was not told: {e}");
        }
    }

    fn deliver_match(&self, conn: u64, room: String, token: String) {
        let handle = lock(&self.queued).remove(&conn);
        if let Some(h) = handle {
            h.tell(ConnEvent::Matched { room, token });
        }
    }

    /// A connection leaves the queue (or was never in it).
    pub fn cancel(self: &Arc<Self>, conn: u64) {
        if lock(&self.queued).remove(&conn).is_none() {
            return;
        }
        let me = self.clone();
        tokio::spawn(async move {
            if let Ok(db) = me.db().await {
                let _ = me
                    .timed(db.execute(
                        "DELETE FROM queue WHERE node = $1 AND conn = $2",
                        &[&me.node, &(conn as i64)],
                    ))
                    .await;
            }
        });
    }

    /// A clean stop: marks the node draining (other nodes wait for its
    /// rooms instead of forwarding to them), runs `stop_accepting` (the
    /// hub's shutdown signal: the listener stops and this node's
    /// connections are closed with 1012), saves every room with its clock
    /// and closes its members' connections, then releases the leases.
    pub async fn drain(&self, stop_accepting: impl FnOnce()) {
        self.draining.store(true, Ordering::Relaxed);
        if let Ok(db) = self.db().await {
            let _ = self
                .timed(db.execute(
                    "UPDATE nodes SET draining = true WHERE id = $1",
                    &[&self.node],
                ))
                .await;
        }
        stop_accepting();
        if let Some(hub) = self.hub() {
            for (_, tx) in hub.listed() {
                let (done, finished) = oneshot::channel();
                if tx.send(RoomCmd::Handover { done }).await.is_ok() {
                    let _ = tokio::time::timeout(ANSWER, finished).await;
                }
            }
        }
        self.stopped.store(true, Ordering::Relaxed);
        if let Ok(db) = self.db().await {
            for sql in [
                "DELETE FROM leases WHERE node = $1",
                "DELETE FROM queue WHERE node = $1",
                "DELETE FROM nodes WHERE id = $1",
            ] {
                let _ = self.timed(db.execute(sql, &[&self.node])).await;
            }
        }
    }
}
