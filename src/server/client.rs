//! A small WebSocket client speaking the online protocol: what the load
//! benchmark and the integration tests drive the server with.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::protocol::online::{ClientMsg, ServerMsg, PROTOCOL_VERSION, WS_PATH};

/// What a receive produced other than a server message.
#[derive(Debug)]
pub enum Recv {
    Msg(ServerMsg),
    /// The server closed the connection (with its close frame, if any).
    Closed(Option<CloseFrame>),
}

pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    /// Connects to `ws://addr/ws` (no hello yet).
    pub async fn connect(addr: SocketAddr) -> Result<Client, String> {
        let url = format!("ws://{addr}{WS_PATH}");
        let (ws, _) = tokio_tungstenite::connect_async_with_config(url, None, true)
            .await
            .map_err(|e| format!("connect: {e}"))?;
        Ok(Client { ws })
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
                    return ServerMsg::from_json(t.as_str())
                        .map(Recv::Msg)
                        .map_err(|e| format!("bad server message {t}: {e}"))
                }
                Some(Ok(Message::Close(frame))) => return Ok(Recv::Closed(frame)),
                Some(Ok(_)) => continue,
            }
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
