//! The online-play server (feature `server`): the built app as static
//! files and the game endpoint `/ws` on one port.
//!
//! Layout: [`conn`] serves one WebSocket (parsing, rate limit, bounded
//! outgoing queue); [`hub`] holds what connections share (rooms in memory,
//! the quick-match queue); [`room`] is one task per room (game, clock,
//! pause timer, broadcast); [`store`] keeps rooms and moves in SQLite;
//! [`live`] drives the rules engine from move text; [`ids`] makes codes
//! and tokens. The messages are [`crate::protocol::online`].
//!
//! [`start`] runs a server on the current Tokio runtime (port 0 picks a
//! free port, as the tests do); `bin/server.rs` is the command line.

pub mod client;
pub mod conn;
pub mod hub;
pub mod ids;
pub mod live;
pub mod room;
pub mod store;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{State, WebSocketUpgrade};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::serve::ListenerExt;
use axum::Router;
use tower_http::services::ServeDir;

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
    pub max_connections: usize,
    pub max_spectators: usize,
    pub max_rooms_per_conn: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            data_dir: PathBuf::from("data"),
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
            max_spectators: 100,
            max_rooms_per_conn: 20,
        }
    }
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    hub: Arc<Hub>,
    serve: tokio::task::JoinHandle<()>,
    resumed: usize,
}

impl Server {
    /// The address it listens on (with the port picked for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// How many unfinished games were loaded from the store at start.
    pub fn resumed(&self) -> usize {
        self.resumed
    }

    /// Open connections.
    pub fn connections(&self) -> usize {
        self.hub.connections()
    }

    /// Closes every connection (code 1012), saves every room with its
    /// clock and closes the store. A new server on the same data directory
    /// continues every unfinished game.
    pub async fn shutdown(self) {
        self.hub.shutdown().await;
        let _ = tokio::time::timeout(Duration::from_secs(5), self.serve).await;
    }
}

/// Opens the store, resumes every unfinished game and starts listening.
pub async fn start(config: Config) -> Result<Server, String> {
    let store = Store::open(&config.data_dir)?;
    let unfinished = store.unfinished().await?;
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("no local address: {e}"))?;
    let static_dir = config.static_dir.clone();
    let hub = Hub::new(config, store);
    let mut resumed = 0;
    for stored in unfinished {
        let code = stored.code.clone();
        match hub.spawn_room(stored) {
            Ok(_) => resumed += 1,
            Err(e) => eprintln!("server: room {code} not resumed: {e}"),
        }
    }
    let mut app = Router::new().route(WS_PATH, get(upgrade));
    if let Some(dir) = static_dir {
        app = app.fallback_service(ServeDir::new(dir));
    }
    let app = app.with_state(hub.clone());
    let mut stop = hub.shutdown_signal();
    let serve = tokio::spawn(async move {
        let stopped = async move {
            let _ = stop.changed().await;
        };
        // Small messages go out at once (no Nagle delay against delayed ACKs).
        let listener = listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        if let Err(e) = axum::serve(listener, app)
            .with_graceful_shutdown(stopped)
            .await
        {
            eprintln!("server: {e}");
        }
    });
    Ok(Server {
        addr,
        hub,
        serve,
        resumed,
    })
}

/// `GET /ws`: upgrades to a WebSocket with the message size limit set.
async fn upgrade(State(hub): State<Arc<Hub>>, ws: WebSocketUpgrade) -> Response {
    let Some(guard) = hub.admit() else {
        return (StatusCode::SERVICE_UNAVAILABLE, "too many connections").into_response();
    };
    let max = hub.config.max_message_bytes;
    ws.max_message_size(max)
        .max_frame_size(max)
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(256 * 1024)
        .on_upgrade(move |socket| conn::run(socket, hub, guard))
}
