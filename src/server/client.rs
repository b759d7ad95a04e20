//! A small WebSocket client speaking the online protocol: what the load
//! benchmark and the integration tests drive the server with.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::protocol::online::{ClientMsg, GameState, ServerMsg, PROTOCOL_VERSION, WS_PATH};

/// What a receive produced other than a server message.
// One value per message received by a test or the benchmark: boxing the
// message would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Recv {
    Msg(ServerMsg),
    /// The server closed the connection (with its close frame, if any).
    Closed(Option<CloseFrame>),
}

pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Bytes of text frames received so far (the benchmark's traffic figure).
    pub received_bytes: u64,
    /// Hand out an `update` merged into the last state, as a full `state`
    /// (as the page does; on by default). Off: messages as sent.
    pub merge_updates: bool,
    last: Option<GameState>,
}

impl Client {
    /// Connects to `ws://addr/ws` (no hello yet).
    pub async fn connect(addr: SocketAddr) -> Result<Client, String> {
        let url = format!("ws://{addr}{WS_PATH}");
        let (ws, _) = tokio_tungstenite::connect_async_with_config(url, None, true)
            .await
            .map_err(|e| format!("connect: {e}"))?;
        Ok(Client {
            ws,
            received_bytes: 0,
            merge_updates: true,
            last: None,
        })
    }

    /// Connects and says hello; returns once welcomed.
    pub async fn hello(addr: SocketAddr) -> Result<Client, String> {
        let mut c = Client::connect(addr).await?;
        c.send(&ClientMsg::Hello {
            v: PROTOCOL_VERSION,
        })
        .await?;
        match c.recv(Duration::from_secs(10)).await? {
            ServerMsg::Welcome { .. } => Ok(c),
            other => Err(format!("expected welcome, got {other:?}")),
        }
    }

    pub async fn send(&mut self, msg: &ClientMsg) -> Result<(), String> {
        self.send_text(&msg.to_json()).await
    }

    pub async fn send_text(&mut self, text: &str) -> Result<(), String> {
        self.ws
            .send(Message::text(text))
            .await
            .map_err(|e| format!("send: {e}"))
    }

    pub async fn send_binary(&mut self, bytes: Vec<u8>) -> Result<(), String> {
        self.ws
            .send(Message::binary(bytes))
            .await
            .map_err(|e| format!("send: {e}"))
    }

    /// Sends a WebSocket ping frame (a control frame, not a message).
    pub async fn send_ping(&mut self) -> Result<(), String> {
        self.ws
            .send(Message::Ping(Default::default()))
            .await
            .map_err(|e| format!("send: {e}"))
    }

    /// The next server message or close, waiting at most `wait`.
    pub async fn next(&mut self, wait: Duration) -> Result<Recv, String> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let frame = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .map_err(|_| format!("nothing received in {wait:?}"))?;
            match frame {
                None => return Ok(Recv::Closed(None)),
                Some(Err(e)) => return Err(format!("receive: {e}")),
                Some(Ok(Message::Text(t))) => {
                    self.received_bytes += t.len() as u64;
                    let msg = ServerMsg::from_json(t.as_str())
                        .map_err(|e| format!("bad server message {t}: {e}"))?;
                    return self.merged(msg).map(Recv::Msg);
                }
                Some(Ok(Message::Close(frame))) => return Ok(Recv::Closed(frame)),
                Some(Ok(_)) => continue,
            }
        }
    }

    /// Keeps the last state; an update becomes the full state it makes.
    fn merged(&mut self, msg: ServerMsg) -> Result<ServerMsg, String> {
        if !self.merge_updates {
            return Ok(msg);
        }
        match msg {
            ServerMsg::State(s) => {
                self.last = Some(s.clone());
                Ok(ServerMsg::State(s))
            }
            ServerMsg::Update(u) => {
                let Some(mut state) = self.last.take() else {
                    return Err(format!("an update before any state: {u:?}"));
                };
                let (from, had) = (u.from, state.moves.len());
                if !state.apply(u) {
                    return Err(format!(
                        "an update from ply {from} does not follow the {had} moves received"
                    ));
                }
                self.last = Some(state.clone());
                Ok(ServerMsg::State(state))
            }
            other => Ok(other),
        }
    }

    /// The next server message; a close is an error.
    pub async fn recv(&mut self, wait: Duration) -> Result<ServerMsg, String> {
        match self.next(wait).await? {
            Recv::Msg(m) => Ok(m),
            Recv::Closed(f) => Err(format!("closed by the server: {f:?}")),
        }
    }

    /// Skips messages until one satisfies `want` (within `wait` in all).
    pub async fn recv_until(
        &mut self,
        wait: Duration,
        mut want: impl FnMut(&ServerMsg) -> bool,
    ) -> Result<ServerMsg, String> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let msg = self.recv(left).await?;
            if want(&msg) {
                return Ok(msg);
            }
        }
    }

    /// Closes the connection politely.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// The server binary running as a child process (for the load benchmark
/// and the tests that kill it): its address, and the lines it prints after
/// the first (read on a thread, so the server never blocks on its stdout).
pub struct Spawned {
    pub child: std::process::Child,
    pub addr: SocketAddr,
    pub lines: std::sync::mpsc::Receiver<String>,
}

impl Spawned {
    /// Spawns `cmd` (the server, or a shell that execs it) with its stdout
    /// piped and waits for its first line, `listening on http://ADDR/`.
    /// A server that prints anything else first is killed.
    pub fn start(cmd: &mut std::process::Command) -> Result<Spawned, String> {
        use std::io::{BufRead, BufReader};
        let mut child = cmd
            .stdout(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the server: {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                // Nobody listening any more: keep reading all the same.
                let _ = tx.send(line);
            }
        });
        let first = lines
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_default();
        let addr = first
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|s| s.trim_end_matches('/').parse().ok());
        match addr {
            Some(addr) => Ok(Spawned { child, addr, lines }),
            None => {
                let _ = child.kill();
                let _ = child.wait();
                Err(format!("unexpected first line from the server: {first:?}"))
            }
        }
    }

    /// The next line the server prints, waiting at most `wait`.
    pub fn line(&self, wait: Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }
}

impl Drop for Spawned {
    /// A server left running (a failed test) is killed.
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
