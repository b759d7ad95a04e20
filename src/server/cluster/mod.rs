//! Several server nodes on one PostgreSQL and a Redis bus (feature
//! `cluster`: `server --database postgres://… --bus redis://…`), as a
//! [`Placement`]: the same rooms as one server, refereed where the lease
//! says. Split by concern (issue 34: was one cluster.rs of 1,275 lines):
//!
//! - `node.rs`: the node ([`Cluster`]): joining, its shared state and
//!   timings, the database connection with its deadline;
//! - `lease.rs`: who referees a room (claim, the heartbeat that renews
//!   the leases and hands over rooms another node took), the clean stop;
//! - `wire.rs`: what nodes tell each other over the bus;
//! - `bus.rs`: publishing and listening, the bus check, other nodes'
//!   connections attached here through stand-ins;
//! - `proxy.rs`: the task that stands for a room refereed elsewhere;
//! - `queue.rs`: quick match across the nodes (the queue is a table);
//! - `lobby.rs`: the lobby across the nodes (listings shared on the bus,
//!   a challenge taken by asking its node; see `super::lobby`).
//!
//! This file declares them and makes the node a [`Placement`].
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
//! - **Quick match**: the queue is a table; pairing (under a lock per
//!   queue key) takes the oldest player waiting for the same game on a
//!   live node and tells their node over the bus. A rated seeker's row
//!   keeps their id, rating and when they started waiting, so a rated
//!   seeker is paired as on one node: by [`super::players::pairing`],
//!   never with the same player (on any node), and two waiting seekers
//!   of any nodes whose ranges widen to meet are paired by whichever
//!   node's periodic `repair` sees it first (the key's lock, the rows
//!   locked and deleted in one transaction: one node pairs them).
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

mod bus;
mod lease;
mod lobby;
mod node;
mod proxy;
mod queue;
mod wire;

use std::sync::Arc;

use tokio::sync::mpsc;

pub use node::{Cluster, BEAT, BUS_DEADLINE, BUS_DOWN, LEASE_TTL, NO_ANSWER, NO_ANSWER_AFTER};

use super::handle::ConnHandle;
use super::placement::{Local, Owner, Partner, Pending, Placement};
use super::room::RoomCmd;

fn node_partner(w: queue::Waiter) -> Partner {
    Partner::Node {
        node: w.node,
        conn: w.conn,
        seeking: w.seeking,
    }
}

/// A cluster node places rooms by lease and pairs quick matches through
/// the database.
impl Placement for Arc<Cluster> {
    fn claim<'a>(&'a self, code: &'a str) -> Pending<'a, Result<Owner, String>> {
        Box::pin(Cluster::claim(self, code))
    }

    fn proxy(&self, code: &str, node: &str) -> mpsc::Sender<RoomCmd> {
        self.spawn_proxy(code, node)
    }

    /// A rated seeker is paired by rating as on one node, with the
    /// seekers of every live node (the queue table keeps their ratings),
    /// never with the same player on another node or connection.
    fn pair<'a>(
        &'a self,
        key: &'a str,
        conn: &'a ConnHandle,
        seeking: Option<super::placement::Seeking>,
    ) -> Pending<'a, Result<Option<Partner>, String>> {
        Box::pin(async move {
            let partner = Cluster::pair(self, key, conn, seeking.as_ref()).await?;
            Ok(partner.map(node_partner))
        })
    }

    /// Rated seekers of any nodes whose ranges now meet, paired by one
    /// node (see [`Cluster::repair`]).
    fn repair(&self) -> Pending<'_, Vec<(String, Partner, Partner)>> {
        Box::pin(async move {
            Cluster::repair(self)
                .await
                .into_iter()
                .map(|(key, a, b)| (key, node_partner(a), node_partner(b)))
                .collect()
        })
    }

    fn requeue<'a>(&'a self, key: &'a str, partner: Partner) -> Pending<'a, ()> {
        Box::pin(async move { Cluster::requeue(self, key, &self.partner(partner)).await })
    }

    fn matched<'a>(&'a self, partner: Partner, room: &'a str, token: &'a str) -> Pending<'a, ()> {
        Box::pin(async move { Cluster::matched(self, &self.partner(partner), room, token).await })
    }

    fn cancel<'a>(&'a self, _key: &'a str, conn: u64) -> Pending<'a, ()> {
        Box::pin(Cluster::cancel(self, conn))
    }

    fn take_challenge<'a>(
        &'a self,
        node: &'a str,
        id: &'a str,
        taker: Option<&'a str>,
    ) -> Pending<'a, Result<(String, String), crate::protocol::online::ServerMsg>> {
        Box::pin(Cluster::take_challenge(self, node, id, taker))
    }

    fn stop<'a>(
        &'a self,
        local: &'a dyn Local,
        stop_accepting: Box<dyn FnOnce() + Send + 'a>,
    ) -> Pending<'a, ()> {
        Box::pin(self.drain(local, stop_accepting))
    }
}
