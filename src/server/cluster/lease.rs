//! Who referees a room: the node holding its row in `leases`, good while
//! that node's row in `nodes` is alive. Claiming a room, the heartbeat
//! that renews this node's lease every [`BEAT`] (and hands over rooms
//! another node took, closes proxies whose referee died, forgets dead
//! nodes' connections), and the clean stop that gives every lease back.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, Notify};
use tokio::time::Instant;

use super::node::{lock, Cluster, RemoteMember, ANSWER, BEAT, BUS_DOWN, LEASE_TTL};
use crate::server::placement::{Local, Owner};
use crate::server::room::RoomCmd;

impl Cluster {
    /// Whether this node holds `room`'s lease.
    pub(super) async fn holds(&self, room: &str) -> Result<bool, String> {
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

    /// Renews this node's lease and checks its rooms and proxies, every [`BEAT`].
    pub(super) async fn beat(self: Arc<Self>) {
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
    pub(super) fn in_grace(&self) -> bool {
        lock(&self.grace_until).is_some_and(|t| Instant::now() < t)
    }

    pub(super) async fn beat_once(&self) -> Result<(), String> {
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

    /// A clean stop: marks the node draining (other nodes wait for its
    /// rooms instead of forwarding to them), runs `stop_accepting` (the
    /// hub's shutdown signal: the listener stops and this node's
    /// connections are closed with 1012), saves every room of `local` with its
    /// clock and closes its members' connections, then releases the leases.
    pub(super) async fn drain(&self, local: &dyn Local, stop_accepting: impl FnOnce()) {
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
        for (_, tx) in local.listed() {
            let (done, finished) = oneshot::channel();
            if tx.send(RoomCmd::Handover { done }).await.is_ok() {
                let _ = tokio::time::timeout(ANSWER, finished).await;
            }
        }
        self.unlist_lobby().await;
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
