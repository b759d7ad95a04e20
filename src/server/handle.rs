//! A connection as the rest of the server sees it: the handle rooms, the
//! hub and the cluster keep to send it frames ([`ConnHandle`]), what they
//! tell its own task ([`ConnEvent`]), and the refusals they answer with.
//! Below the hub, the rooms and the cluster, so each of them can hold
//! connections without depending on another.

use std::sync::Arc;

use axum::extract::ws::{Message, Utf8Bytes};
use tokio::sync::{mpsc, Notify};

use crate::protocol::online::{Refusal, ServerMsg};

/// A connection as rooms and the queue see it: where to send its messages.
#[derive(Clone, Debug)]
pub struct ConnHandle {
    pub id: u64,
    out: mpsc::Sender<Message>,
    kill: Arc<Notify>,
    ctl: mpsc::Sender<ConnEvent>,
}

/// Told to a connection from outside its own task.
#[derive(Debug)]
pub enum ConnEvent {
    /// A quick match paired this connection: take this seat.
    Matched { room: String, token: String },
}

impl ConnHandle {
    pub fn new(
        id: u64,
        out: mpsc::Sender<Message>,
        kill: Arc<Notify>,
        ctl: mpsc::Sender<ConnEvent>,
    ) -> Self {
        ConnHandle { id, out, kill, ctl }
    }

    /// Queues a text frame. A full queue means the client does not read:
    /// the connection is told to close and `false` returned (as for a
    /// closed one), and the caller forgets it.
    pub fn send_text(&self, text: Utf8Bytes) -> bool {
        self.send_raw(Message::Text(text))
    }

    /// Queues any frame (see [`ConnHandle::send_text`]).
    pub fn send_raw(&self, msg: Message) -> bool {
        match self.out.try_send(msg) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.kill.notify_one();
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    pub fn send(&self, msg: &ServerMsg) -> bool {
        self.send_text(msg.to_json().into())
    }

    pub fn alive(&self) -> bool {
        !self.out.is_closed()
    }

    /// Tells the connection's own task something (`false` if it is gone).
    pub fn tell(&self, event: ConnEvent) -> bool {
        self.ctl.try_send(event).is_ok()
    }

    /// Closes the connection with code 1012 (restart): the page reconnects
    /// by itself.
    pub fn close_to_reconnect(&self, reason: &str) -> bool {
        self.send_raw(Message::Close(Some(axum::extract::ws::CloseFrame {
            code: 1012,
            reason: reason.into(),
        })))
    }
}

/// A refusal, or the server failing (storage).
pub fn refused(code: Refusal, reason: impl Into<String>) -> ServerMsg {
    ServerMsg::Refused {
        code,
        reason: reason.into(),
        why: None,
    }
}
