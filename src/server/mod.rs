//! The online-play server (feature `server`): the built app as static
//! files and the game endpoint `/ws` on one port.
//!
//! Layout: [`listen`] accepts connections (every one counted, header and
//! idle timeouts); [`web`] checks the `Origin` of `/ws`, serves the app's
//! files and sets the security and cache headers; [`conn`] serves one
//! WebSocket (parsing, rate limit, bounded outgoing queue); [`handle`] is
//! a connection as rooms, the hub and the cluster hold it; [`hub`] holds
//! what connections share (rooms in memory, the quick-match queue);
//! [`room`] is one task per room (its rules a plain [`room::Table`]; the
//! task adds members, broadcast, storage and expiry), which reaches the
//! hub only through [`room::Host`]; [`placement`] says where rooms are
//! refereed and how quick matches pair: this server alone, or (feature
//! `cluster`) a node of a cluster, `cluster`, on `pg`;
//! [`store`] keeps rooms and moves in SQLite; [`limits`]
//! counts per client address; [`ids`] makes codes and tokens. A room's game
//! is a [`crate::games::any::AnyRecord`], driven by move text. The messages are
//! [`crate::protocol::online`].
//!
//! [`start`] runs a server on the current Tokio runtime (port 0 picks a
//! free port, as the tests do); `bin/server.rs` is the command line.

pub mod client;
#[cfg(feature = "cluster")]
pub mod cluster;
pub mod conn;
pub mod handle;
pub mod hub;
pub mod ids;
pub mod limits;
pub mod listen;
pub mod lobby;
#[cfg(feature = "cluster")]
pub mod pg;
#[cfg(feature = "cluster")]
pub mod pg_error;
pub mod placement;
pub mod players;
pub mod room;
pub mod store;
pub mod web;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{ConnectInfo, State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Extension;
use axum::Router;
use tokio::sync::watch;

use crate::protocol::online::{
    AUTO_RESUME_SECS, MAX_MESSAGE_BYTES, MIN_CLOCK_SECS, PAUSES_PER_PLAYER, WS_PATH,
};
use hub::Hub;
use store::Store;

/// Everything the server can be told. `Config::default()` is production.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen (`127.0.0.1:8080`; port 0 picks a free port).
    pub addr: SocketAddr,
    /// Where the SQLite file lives (`./data`).
    pub data_dir: PathBuf,
    /// `postgres://…`: keep the games in PostgreSQL instead of SQLite
    /// (feature `cluster`).
    pub database: Option<String>,
    /// `redis://…`: be one node of a cluster that shares `database`
    /// (feature `cluster`; needs `database`).
    pub bus: Option<String>,
    /// The built app to serve at `/` (`dist`); `None` serves only `/ws`.
    pub static_dir: Option<PathBuf>,
    /// A pause ends by itself after this long (2 minutes).
    pub auto_resume: Duration,
    /// The shortest per-move clock a game may ask for (1 s).
    pub min_clock_secs: u32,
    pub pauses_per_player: u8,
    /// The largest message accepted; larger closes the connection (4 KiB).
    pub max_message_bytes: usize,
    /// Token bucket per connection: messages a second and burst.
    pub rate_per_sec: u32,
    pub burst: u32,
    /// Frames queued for one connection before it counts as too slow.
    pub out_queue: usize,
    /// A write that takes longer disconnects the client.
    pub write_timeout: Duration,
    /// How often the server pings; a connection silent for `idle_timeout`
    /// (pongs count) is closed.
    pub ping_interval: Duration,
    pub idle_timeout: Duration,
    /// Open connections (HTTP and WebSocket alike) at most; lowered at
    /// start to what the descriptor limit allows.
    pub max_connections: usize,
    /// Open connections from one client address at most (0: no limit).
    pub max_per_addr: usize,
    /// Plain HTTP: a request head must arrive within this (10 s) ...
    pub header_timeout: Duration,
    /// ... and a connection where nothing moves either way for this long
    /// (30 s: an idle keep-alive, a client that does not read) is closed.
    pub http_idle_timeout: Duration,
    /// Pages on other origins that may open `/ws` (`--allow-origin`; `*`
    /// any). The page's own origin always may, and so may clients that
    /// send no `Origin` (not browsers).
    pub allow_origins: Vec<String>,
    pub max_spectators: usize,
    pub max_rooms_per_conn: u32,
    /// New games (invites and quick matches) one client address may start:
    /// `rooms_per_addr` at once, then one more per `room_every`; 0: no limit.
    pub rooms_per_addr: u32,
    pub room_every: Duration,
    /// A room still waiting for the friend this long after it was made is
    /// deleted (24 hours).
    pub waiting_ttl: Duration,
    /// Rooms waiting for the friend the whole server keeps at most (0: no
    /// limit); past it, new invites are refused.
    pub max_waiting_rooms: usize,
    /// A finished room loaded from the store stays in memory this long
    /// after its last member leaves (60 s).
    pub finished_linger: Duration,
    /// A player's name may change once in this long (a day; tests set
    /// less to see a rename go through).
    pub rename_every: Duration,
    /// A rated quick match's range widens every this long of waiting
    /// (5 s: [`players::pairing::WIDEN_EVERY_MS`]; tests set less), and
    /// the waiting rated seekers are looked at again at least this often
    /// (at most every second).
    pub widen_every: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            data_dir: PathBuf::from("data"),
            database: None,
            bus: None,
            static_dir: Some(PathBuf::from("dist")),
            auto_resume: Duration::from_secs(u64::from(AUTO_RESUME_SECS)),
            min_clock_secs: MIN_CLOCK_SECS,
            pauses_per_player: PAUSES_PER_PLAYER,
            max_message_bytes: MAX_MESSAGE_BYTES,
            rate_per_sec: 10,
            burst: 30,
            out_queue: 64,
            write_timeout: Duration::from_secs(10),
            ping_interval: Duration::from_secs(20),
            idle_timeout: Duration::from_secs(60),
            max_connections: 10_000,
            max_per_addr: 200,
            header_timeout: Duration::from_secs(10),
            http_idle_timeout: Duration::from_secs(30),
            allow_origins: Vec::new(),
            max_spectators: 100,
            max_rooms_per_conn: 20,
            rooms_per_addr: 30,
            room_every: Duration::from_secs(20),
            waiting_ttl: Duration::from_secs(24 * 3600),
            max_waiting_rooms: 10_000,
            finished_linger: Duration::from_secs(60),
            rename_every: Duration::from_millis(crate::server::players::RENAME_EVERY_MS),
            widen_every: Duration::from_millis(crate::server::players::pairing::WIDEN_EVERY_MS),
        }
    }
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    hub: Arc<Hub>,
    serve: tokio::task::JoinHandle<()>,
    resumed: watch::Receiver<Option<usize>>,
}

impl Server {
    /// The address it listens on (with the port picked for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// How many unfinished games were resumed from the store at start:
    /// waits until they are loaded (the server listens meanwhile).
    pub async fn resumed(&self) -> usize {
        let mut rx = self.resumed.clone();
        let n = match rx.wait_for(Option::is_some).await {
            Ok(n) => n.unwrap_or(0),
            Err(_) => 0,
        };
        n
    }

    /// Open connections.
    pub fn connections(&self) -> usize {
        self.hub.connections()
    }

    /// Rooms in memory (the others are only stored).
    pub fn rooms_in_memory(&self) -> usize {
        self.hub.rooms_in_memory()
    }

    /// How many times a room was loaded from the store (and replayed).
    pub fn rooms_loaded(&self) -> u64 {
        self.hub.rooms_loaded()
    }

    /// Closes every connection (code 1012), saves every room with its
    /// clock and closes the store. A new server on the same data directory
    /// continues every unfinished game.
    pub async fn shutdown(self) {
        self.hub.shutdown().await;
        let _ = tokio::time::timeout(Duration::from_secs(5), self.serve).await;
    }
}

/// How often rooms nobody joined are looked for: a 24th of their time to
/// live, from a second to an hour.
fn sweep_every(ttl: Duration) -> Duration {
    (ttl / 24).clamp(Duration::from_secs(1), Duration::from_secs(3600))
}

/// Opens the store, deletes the invites nobody took in time, starts
/// listening, and then resumes every started game that is not finished
/// (rooms asked for before they are resumed are loaded at once).
pub async fn start(mut config: Config) -> Result<Server, String> {
    // Each connection is a descriptor: the limit is raised as far as the
    // system allows, and the connection limit kept under it.
    if let Some(fds) = listen::raise_fd_limit() {
        let fit = fds.saturating_sub(listen::RESERVED_FDS).max(1) as usize;
        if config.max_connections > fit {
            eprintln!(
                "server: the open-files limit is {fds} (ulimit -n): at most {fit} connections, not {}; raise the hard limit to allow more",
                config.max_connections
            );
            config.max_connections = fit;
        }
    }
    // A cluster node's id (random at each start), when it is one.
    let node = match (&config.database, &config.bus) {
        (None, Some(_)) => {
            return Err("--bus needs --database postgres://… (the nodes share the database)".into())
        }
        (Some(_), Some(_)) => Some(ids::random(5)?),
        _ => None,
    };
    let store = open_store(&config, node.clone()).await?;
    let ttl = config.waiting_ttl;
    let cutoff = |ttl: Duration| store::now_ms().saturating_sub(ttl.as_millis() as u64);
    let expired = store.expire_waiting(cutoff(ttl), None).await?;
    if expired > 0 {
        eprintln!("server: {expired} invite(s) nobody took in time deleted");
    }
    // A cluster node takes rooms when they are asked for (or when their
    // node died); one server resumes every started game at once.
    let unfinished = if node.is_some() {
        Vec::new()
    } else {
        store.unfinished().await?
    };
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("no local address: {e}"))?;
    let static_dir = config.static_dir.clone();
    #[cfg(feature = "cluster")]
    let urls = (config.database.clone(), config.bus.clone());
    let hub = Hub::new(config, store);
    #[cfg(feature = "cluster")]
    if let (Some(node), (Some(db), Some(bus))) = (node, urls) {
        match cluster::Cluster::start(&hub, node, &db, &bus).await {
            Ok(c) => {
                hub.set_placement(Arc::new(c));
            }
            Err(e) => {
                hub.store.close().await;
                return Err(e);
            }
        }
    }
    let policy = Arc::new(web::Policy::new(static_dir.as_deref()));
    let mut app = Router::new()
        .route(WS_PATH, get(upgrade))
        .with_state(hub.clone());
    if let Some(dir) = static_dir {
        let site = Arc::new(web::Site::new(dir));
        app = app.fallback_service(axum::routing::any(web::file).with_state(site));
    }
    let app = app.layer(axum::middleware::map_response_with_state(
        policy,
        web::secure,
    ));
    let serve = tokio::spawn(listen::serve(listener, app, hub.clone()));
    let (loaded, resumed) = watch::channel(None);
    let loader = hub.clone();
    tokio::spawn(async move {
        let mut n = 0;
        for code in unfinished {
            match loader.room(&code).await {
                Ok(Some(_)) => n += 1,
                Ok(None) => {}
                Err(e) => eprintln!("server: room {code} not resumed: {e:?}"),
            }
        }
        loaded.send_replace(Some(n));
    });
    // Rated seekers whose ranges have widened to overlap are paired
    // without waiting for a third (`Hub::repair`).
    let pairer = Arc::downgrade(&hub);
    let repair_every = hub
        .config
        .widen_every
        .min(Duration::from_secs(1))
        .max(Duration::from_millis(50));
    tokio::spawn(async move {
        let Some(hub) = pairer.upgrade() else { return };
        let mut stop = hub.shutdown_signal();
        drop(hub);
        loop {
            tokio::select! {
                () = tokio::time::sleep(repair_every) => {}
                () = listen::stopped(&mut stop) => return,
            }
            let Some(hub) = pairer.upgrade() else { return };
            hub.repair().await;
        }
    });
    let sweeper = hub.clone();
    tokio::spawn(async move {
        let mut stop = sweeper.shutdown_signal();
        loop {
            tokio::select! {
                () = tokio::time::sleep(sweep_every(ttl)) => {}
                () = listen::stopped(&mut stop) => return,
            }
            match sweeper.store.expire_waiting(cutoff(ttl), None).await {
                Ok(0) => {}
                Ok(n) => eprintln!("server: {n} invite(s) nobody took in time deleted"),
                Err(e) => eprintln!("server: deleting expired invites failed: {e}"),
            }
        }
    });
    Ok(Server {
        addr,
        hub,
        serve,
        resumed,
    })
}

/// The store the config asks for: SQLite in `data_dir`, or PostgreSQL
/// (alone, or shared by the nodes of a cluster).
#[cfg_attr(not(feature = "cluster"), allow(clippy::unused_async))]
async fn open_store(config: &Config, node: Option<String>) -> Result<Store, String> {
    let Some(url) = &config.database else {
        return Store::open(&config.data_dir);
    };
    #[cfg(feature = "cluster")]
    {
        let writer = match node {
            Some(id) => pg::Writer::Node(id),
            None => pg::Writer::Alone,
        };
        pg::open(url, writer).await
    }
    #[cfg(not(feature = "cluster"))]
    {
        let _ = (url, node);
        Err("this server was built without PostgreSQL: build it with `--features cluster` to use --database".into())
    }
}

/// `GET /ws`: upgrades to a WebSocket with the message size limit set.
async fn upgrade(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Extension(ticket): Extension<Arc<listen::Ticket>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    // Another site's page may not play in its visitors' name.
    if !web::origin_allowed(&headers, &hub.config.allow_origins) {
        return (
            StatusCode::FORBIDDEN,
            "this page's origin may not open the game socket (see --allow-origin)\n",
        )
            .into_response();
    }
    let max = hub.config.max_message_bytes;
    ws.max_message_size(max)
        .max_frame_size(max)
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(256 * 1024)
        .on_upgrade(move |socket| conn::run(socket, hub, ticket, peer.ip()))
}
