//! How a room task is reached: what it needs of the hub that lists it
//! ([`Host`], [`Settings`]) and the commands it takes ([`RoomCmd`],
//! [`Attach`]). Both the single-node hub and a cluster node's stand-ins
//! speak these, so one room implementation serves both.

use std::time::Duration;

use tokio::sync::{mpsc, oneshot};

use super::table::Action;
use crate::protocol::online::{Event, ServerMsg};
use crate::server::handle::ConnHandle;
use crate::server::store::Store;

/// What a room needs of the hub that lists it. A trait, so that rooms do
/// not depend on the hub, which starts them and sends them commands.
pub trait Host: Send + Sync {
    /// What rooms play by.
    fn settings(&self) -> Settings;
    fn store(&self) -> &Store;
    /// Notes how a write went (a failed write refuses what follows).
    fn storage_result(&self, what: &str, result: &Result<(), String>);
    /// Unlists the room when nothing more is queued for it (`false`: it
    /// must go on, a command came in).
    fn retire(&self, code: &str, instance: u64, rx: &mpsc::Receiver<RoomCmd>) -> bool;
    /// The room's game is being played (`Some`: listed in the lobby's
    /// games to watch) or not any more (`None`).
    fn live_game(&self, code: &str, game: Option<crate::protocol::online::LiveGame>);
}

/// The parts of the server's `Config` a room plays by.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// A room still waiting for the friend this long after it was made is
    /// deleted.
    pub waiting_ttl: Duration,
    pub max_spectators: usize,
    /// A pause ends by itself after this long.
    pub auto_resume: Duration,
    pub pauses_per_player: u8,
    /// A finished room loaded from the store (for a spectator, say) stays
    /// in memory this long after its last member leaves, so the next one
    /// does not load and replay it again.
    pub finished_linger: Duration,
}

/// How a connection enters the room (also sent between cluster nodes).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum Attach {
    /// The holder of a seat token (create, reconnect, quick match), with
    /// the event its first state reports and the connection's identity
    /// (public id; issue 37), which a seat without one takes.
    Token(String, Event, Option<String>),
    /// The friend, with the join key from the invite and their identity.
    Join {
        key: String,
        #[serde(default)]
        player: Option<String>,
    },
    /// A spectator.
    Watch,
}

pub enum RoomCmd {
    Attach {
        conn: ConnHandle,
        how: Attach,
        done: oneshot::Sender<Result<(), ServerMsg>>,
    },
    Detach {
        conn: u64,
    },
    Act {
        conn: u64,
        action: Action,
    },
    /// Save the clock and stop (server shutdown).
    Shutdown {
        done: oneshot::Sender<()>,
    },
    /// Save the clock, close every member's connection with code 1012 (the
    /// pages reconnect, and find the room on whichever node referees it
    /// next) and stop: the room leaves this node (a cluster node stopping,
    /// or one that lost the room's lease).
    Handover {
        done: oneshot::Sender<()>,
    },
}
