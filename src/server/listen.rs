//! Accepting connections. Every TCP connection is counted from the moment
//! it is accepted, against the global limit (`--max-connections`) and the
//! limit per client address (`--max-per-address`); over either, it gets a
//! `503` and is closed (and the log says so, at most every 10 s). Plain
//! HTTP has a deadline for its request head (slow headers, a bare TCP
//! connection, an idle keep-alive) and is closed when nothing has moved
//! either way for a while (a client that does not read its response). A
//! WebSocket has its own pings and bounded queue (see [`super::conn`]).
//!
//! Memory a flood of connections used is given back ([`give_back`]):
//! glibc's malloc keeps what the connections freed in its per-thread
//! arenas, fragmented, instead of returning it (issue 33: three rounds of
//! ~8,000 bare TCP connections, each closed, left the server at 6.5 → 42
//! → 82 → 99 MB; on main here 7.7 → 48 → 56 → 71 MiB, and `malloc_trim(0)`
//! called from gdb took 58 MiB back to 9).

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

use super::hub::{ConnGuard, Hub};
use super::limits::{AddrGuard, PerAddr};

/// A connection's place under the limits; it is freed when the last
/// holder drops it (the HTTP connection, or the WebSocket it became).
pub struct Ticket {
    _total: ConnGuard,
    _addr: AddrGuard,
}

/// Logs a limit that bites, at most once every 10 s (with how many times
/// it bit in between).
struct Throttled {
    what: &'static str,
    last: Option<Instant>,
    quiet: u64,
}

impl Throttled {
    fn new(what: &'static str) -> Throttled {
        Throttled {
            what,
            last: None,
            quiet: 0,
        }
    }

    fn hit(&mut self, detail: impl FnOnce() -> String) {
        let now = Instant::now();
        if self
            .last
            .is_some_and(|t| now.duration_since(t) < Duration::from_secs(10))
        {
            self.quiet += 1;
            return;
        }
        let more = if self.quiet > 0 {
            format!(" ({} more since the last report)", self.quiet)
        } else {
            String::new()
        };
        eprintln!("server: {}: {}{more}", self.what, detail());
        self.last = Some(now);
        self.quiet = 0;
    }
}

/// Answers `503` to a connection over a limit and closes it.
fn turn_away(tcp: TcpStream, why: &str) {
    let body = format!("{why}: try again later\n");
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nRetry-After: 10\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    // The socket's buffer is empty: this fits, or the client is gone.
    let _ = tcp.try_write(answer.as_bytes());
}

/// Returns once `stop` is `true` (at once if it already is).
pub async fn stopped(stop: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

/// How often [`give_back`] looks.
pub const GIVE_BACK_EVERY: Duration = Duration::from_secs(2);
/// How many connections must have closed since the most open at once
/// for [`give_back`] to trim.
const GIVE_BACK_AFTER: usize = 256;

/// Every [`GIVE_BACK_EVERY`], if at least [`GIVE_BACK_AFTER`] connections
/// have closed since the most were open, returns the allocator's free
/// memory to the system (`malloc_trim(0)` on glibc, on a blocking thread:
/// it walks every arena, a few milliseconds). Elsewhere it does nothing.
async fn give_back(hub: Arc<Hub>) {
    let mut stop = hub.shutdown_signal();
    let mut tick = tokio::time::interval(GIVE_BACK_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            () = stopped(&mut stop) => return,
        }
        let peak = hub.take_peak_connections();
        if peak.saturating_sub(hub.connections()) >= GIVE_BACK_AFTER {
            let _ = tokio::task::spawn_blocking(trim).await;
        }
    }
}

fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Serves `app` on `listener` until the hub shuts down.
pub async fn serve(listener: TcpListener, app: Router, hub: Arc<Hub>) {
    tokio::spawn(give_back(hub.clone()));
    let per_addr = PerAddr::new(hub.config.max_per_addr);
    let mut stop = hub.shutdown_signal();
    let mut accept_failed = Throttled::new("accepting a connection failed");
    let mut full = Throttled::new("connection limit reached, new connections refused");
    let mut addr_full = Throttled::new("per-address connection limit reached");
    loop {
        let accepted = tokio::select! {
            r = listener.accept() => r,
            () = stopped(&mut stop) => return,
        };
        let (tcp, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of descriptors (EMFILE) or the like: wait a moment
                // rather than spin; connections that end free some.
                accept_failed.hit(|| format!("{e} (is the descriptor limit, ulimit -n, too low?)"));
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        // Small messages go out at once (no Nagle delay against delayed ACKs).
        let _ = tcp.set_nodelay(true);
        let Some(total) = hub.admit() else {
            full.hit(|| format!("{} open", hub.config.max_connections));
            turn_away(tcp, "too many connections");
            continue;
        };
        let Some(mine) = per_addr.admit(peer.ip()) else {
            addr_full.hit(|| format!("{} open from {}", hub.config.max_per_addr, peer.ip()));
            turn_away(tcp, "too many connections from your address");
            continue;
        };
        let ticket = Arc::new(Ticket {
            _total: total,
            _addr: mine,
        });
        tokio::spawn(connection(tcp, peer, ticket, app.clone(), hub.clone()));
    }
}

/// One HTTP connection, until it ends, times out or becomes a WebSocket.
async fn connection(
    tcp: TcpStream,
    peer: SocketAddr,
    ticket: Arc<Ticket>,
    app: Router,
    hub: Arc<Hub>,
) {
    let cfg = &hub.config;
    let start = Instant::now();
    let moved = Arc::new(AtomicU64::new(0));
    let io = TokioIo::new(Watched {
        inner: tcp,
        start,
        moved: moved.clone(),
    });
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        req.extensions_mut().insert(ConnectInfo(peer));
        req.extensions_mut().insert(ticket.clone());
        app.clone().oneshot(req.map(axum::body::Body::new))
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(cfg.header_timeout)
        .max_buf_size(64 * 1024)
        .serve_connection(io, service)
        .with_upgrades();
    tokio::pin!(conn);
    let idle = cfg.http_idle_timeout;
    let mut check = tokio::time::interval((idle / 4).max(Duration::from_millis(50)));
    check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut stop = hub.shutdown_signal();
    let mut stopping = false;
    loop {
        tokio::select! {
            _ = conn.as_mut() => return,
            _ = check.tick() => {
                let last = Duration::from_millis(moved.load(Ordering::Relaxed));
                if start.elapsed().saturating_sub(last) > idle {
                    // Nothing read or written for that long: close.
                    return;
                }
            }
            () = stopped(&mut stop), if !stopping => {
                stopping = true;
                conn.as_mut().graceful_shutdown();
            }
        }
    }
}

/// A TCP stream that notes when bytes last moved either way.
struct Watched {
    inner: TcpStream,
    start: Instant,
    /// Milliseconds after `start`.
    moved: Arc<AtomicU64>,
}

impl Watched {
    fn note(&self) {
        let ms = self.start.elapsed().as_millis() as u64;
        self.moved.store(ms, Ordering::Relaxed);
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.note();
        }
        r
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write(cx, data);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.note();
        }
        r
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.note();
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// Raises this process's soft limit on open files to its hard limit and
/// returns the soft limit then in force (`None` where it cannot be read).
pub fn raise_fd_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit only read and write `lim`.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
                return None;
            }
            if lim.rlim_cur < lim.rlim_max {
                let raised = libc::rlimit {
                    rlim_cur: lim.rlim_max,
                    rlim_max: lim.rlim_max,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    lim.rlim_cur = lim.rlim_max;
                }
            }
        }
        // rlim_t is u64 on Linux, not everywhere.
        #[allow(clippy::unnecessary_cast)]
        Some(lim.rlim_cur as u64)
    }
    #[cfg(not(unix))]
    None
}

/// Descriptors kept for the rest of the server (the database, its
/// journal, the listener, the runtime) when fitting connections under the
/// descriptor limit.
pub const RESERVED_FDS: u64 = 64;
