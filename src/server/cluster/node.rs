//! A cluster node: its shared state (the database connection, the bus
//! connection, what it forwards and what waits for an answer), its
//! timings, joining the cluster, and the database calls with their
//! deadline.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, Notify};
use tokio::time::Instant;
use tokio_postgres::Client;

use super::wire::Answer;
use crate::protocol::online::{ErrorCode, ServerMsg};
use crate::server::handle::ConnHandle;
use crate::server::pg::{self, pg_error};
use crate::server::placement::Local;
use crate::server::room::RoomCmd;

/// How long a node's leases stay good without a renewal: the longest a
/// dead node's rooms wait before another node takes them.
pub const LEASE_TTL: Duration = Duration::from_secs(3);
/// How often a node renews its lease and checks its rooms and proxies.
pub const BEAT: Duration = Duration::from_millis(1000);
/// How long a node waits for another node's answer.
pub(super) const ANSWER: Duration = Duration::from_secs(2);
/// How long a ping may take before the node counts as not answering.
pub(super) const PING: Duration = Duration::from_millis(700);
/// One publish at most this long, a reconnection to the bus included.
pub const BUS_DEADLINE: Duration = Duration::from_millis(700);
/// After a publish fails, publishes fail at once for this long.
pub(super) const BUS_QUIET: Duration = Duration::from_millis(500);
/// An action forwarded to the game's node and not answered by then is
/// answered with [`NO_ANSWER`] (the node's own store answers within
/// 1.5 s: see [`super::store::STORE_DEADLINE`]).
pub const NO_ANSWER_AFTER: Duration = Duration::from_millis(1800);
/// How often the node checks the bus (a ping to itself).
pub(super) const BUS_CHECK: Duration = Duration::from_millis(500);

/// Told to a player whose action needs another node while the bus is down.
pub const BUS_DOWN: &str = "the server node that runs this game cannot be reached (the message bus is down): try again in a while";
/// Told to a player whose forwarded action got no answer in time.
pub const NO_ANSWER: &str = "the server node that runs this game did not answer in time (the message bus or the database is slow or down), so this may not have been done: try again in a while";

/// The shared database connection and what the last failure said.
#[derive(Default)]
pub(super) struct DbSlot {
    pub(super) client: Option<Arc<Client>>,
    /// Until then, calls fail at once with `why`.
    pub(super) quiet_until: Option<Instant>,
    pub(super) why: String,
}

/// A room this node forwards to the node that referees it.
pub(super) struct Proxy {
    pub(super) node: String,
    pub(super) dead: Arc<Notify>,
}

/// A connection of another node attached to a room of this one.
pub(super) struct RemoteMember {
    pub(super) id: u64,
    pub(super) room: mpsc::Sender<RoomCmd>,
}

pub struct Cluster {
    /// This node's id (random, new at each start).
    pub node: String,
    pub(super) hub: Weak<dyn Local>,
    pub(super) db_url: String,
    pub(super) db: tokio::sync::Mutex<DbSlot>,
    /// The quick-match queue's own connection (it runs transactions).
    pub(super) queue_db: tokio::sync::Mutex<Option<Client>>,
    pub(super) redis: redis::Client,
    pub(super) publisher: Mutex<Option<redis::aio::MultiplexedConnection>>,
    pub(super) reconnecting: tokio::sync::Mutex<()>,
    pub(super) bus_up: AtomicBool,
    /// After a failed publish, publishes fail at once until then.
    pub(super) bus_quiet_until: Mutex<Option<Instant>>,
    /// Until then this node has just got its database back: the other
    /// nodes could not renew their leases either, so a lapsed lease is
    /// not taken for a dead node yet.
    pub(super) grace_until: Mutex<Option<Instant>>,
    /// Actions forwarded to another node, not answered yet: (room, conn)
    /// to when and whom to tell.
    pub(super) awaiting: Mutex<HashMap<(String, u64), (Instant, ConnHandle)>>,
    pub(super) next_req: AtomicU64,
    /// Answers awaited from other nodes (attach, ping), by request.
    pub(super) waiting: Mutex<HashMap<u64, oneshot::Sender<Answer>>>,
    /// This node's connections in rooms of other nodes: (room, conn).
    pub(super) proxied: Mutex<HashMap<(String, u64), ConnHandle>>,
    /// Rooms this node forwards to another node.
    pub(super) proxies: Mutex<HashMap<String, Proxy>>,
    /// Other nodes' connections in this node's rooms: (node, conn, room).
    pub(super) remote: Mutex<HashMap<(String, u64, String), RemoteMember>>,
    /// This node's connections waiting for a quick match.
    pub(super) queued: Mutex<HashMap<u64, ConnHandle>>,
    pub(super) draining: AtomicBool,
    pub(super) stopped: AtomicBool,
}

pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The channel every node follows: the nodes' lobby listings.
pub(super) const LOBBY_CHANNEL: &str = "stoneplay:lobby";

pub(super) fn channel(node: &str) -> String {
    format!("stoneplay:node:{node}")
}

pub(super) fn server_error(message: impl Into<String>) -> ServerMsg {
    ServerMsg::Error {
        code: ErrorCode::Server,
        message: message.into(),
    }
}

pub(super) fn db_error(e: tokio_postgres::Error) -> String {
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
        tokio::spawn(cluster.clone().share_lobby());
        Ok(cluster)
    }

    pub(super) fn hub(&self) -> Option<Arc<dyn Local>> {
        self.hub.upgrade()
    }

    pub(super) fn req(&self) -> u64 {
        self.next_req.fetch_add(1, Ordering::Relaxed)
    }

    /// Whether the bus is up (as far as this node knows).
    pub fn bus_up(&self) -> bool {
        self.bus_up.load(Ordering::Relaxed)
    }

    /// The shared database connection, opened again if it was lost (at
    /// most once per [`pg::RETRY_AFTER`]).
    pub(super) async fn db(&self) -> Result<Arc<Client>, String> {
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
    pub(super) async fn timed<T>(
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
}
