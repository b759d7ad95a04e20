//! The bus (Redis pub/sub): publishing with a deadline, listening on this
//! node's channel, the check that pings this node through it, and other
//! nodes' connections attached to rooms here through stand-ins whose
//! frames go back over it.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Message;
use futures_util::StreamExt;
use tokio::sync::{mpsc, oneshot, Notify};
use tokio::time::Instant;

use super::node::{
    channel, lock, server_error, Cluster, RemoteMember, ANSWER, BUS_CHECK, BUS_DEADLINE, BUS_DOWN,
    BUS_QUIET, LOBBY_CHANNEL, NO_ANSWER, NO_ANSWER_AFTER, PING,
};
use super::wire::{Answer, Bus};
use crate::server::handle::ConnHandle;
use crate::server::room::{Attach, RoomCmd};

impl Cluster {
    pub(super) async fn publisher(&self) -> Result<redis::aio::MultiplexedConnection, String> {
        if let Some(c) = lock(&self.publisher).clone() {
            return Ok(c);
        }
        let _one = self.reconnecting.lock().await;
        if let Some(c) = lock(&self.publisher).clone() {
            return Ok(c);
        }
        let c = self
            .redis
            .get_multiplexed_async_connection()
            .await
            .map_err(|_| BUS_DOWN.to_string())?;
        *lock(&self.publisher) = Some(c.clone());
        Ok(c)
    }

    /// Publishes `msg` on `node`'s channel, within [`BUS_DEADLINE`] in
    /// all; a failed connection is opened again once before the bus
    /// counts as down, and then publishes fail at once for [`BUS_QUIET`].
    pub(super) async fn publish(&self, node: &str, msg: &Bus) -> Result<(), String> {
        self.publish_on(&channel(node), msg).await
    }

    /// Publishes `msg` on channel `to` (see [`Cluster::publish`]).
    pub(super) async fn publish_on(&self, to: &str, msg: &Bus) -> Result<(), String> {
        if lock(&self.bus_quiet_until).is_some_and(|t| Instant::now() < t) {
            return Err(BUS_DOWN.into());
        }
        let text = serde_json::to_string(msg).map_err(|e| e.to_string())?;
        let tries = async {
            for _ in 0..2 {
                let mut c = self.publisher().await?;
                let sent = redis::cmd("PUBLISH")
                    .arg(to)
                    .arg(&text)
                    .query_async::<i64>(&mut c)
                    .await;
                if sent.is_ok() {
                    return Ok(());
                }
                *lock(&self.publisher) = None;
            }
            Err(BUS_DOWN.to_string())
        };
        let result = tokio::time::timeout(BUS_DEADLINE, tries)
            .await
            .unwrap_or_else(|_| Err(BUS_DOWN.to_string()));
        if result.is_err() {
            // The connection may be stuck mid-command: a new one next time.
            *lock(&self.publisher) = None;
            *lock(&self.bus_quiet_until) = Some(Instant::now() + BUS_QUIET);
        }
        result
    }

    /// Checks the bus every [`BUS_CHECK`] with a ping to this node itself
    /// (publish, subscription, publish back: the whole way), and answers
    /// forwarded actions that have waited past [`NO_ANSWER_AFTER`].
    pub(super) async fn watch_bus(self: Arc<Self>) {
        let mut tick = tokio::time::interval(BUS_CHECK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut lost = 0;
        loop {
            tick.tick().await;
            if self.stopped.load(Ordering::Relaxed) {
                return;
            }
            let late: Vec<ConnHandle> = {
                let now = Instant::now();
                let mut awaiting = lock(&self.awaiting);
                let keys: Vec<(String, u64)> = awaiting
                    .iter()
                    .filter(|(_, (since, _))| now.duration_since(*since) >= NO_ANSWER_AFTER)
                    .map(|(k, _)| k.clone())
                    .collect();
                keys.iter()
                    .filter_map(|k| awaiting.remove(k).map(|(_, h)| h))
                    .collect()
            };
            for h in late {
                h.send(&server_error(NO_ANSWER));
            }
            if self.draining.load(Ordering::Relaxed) {
                continue;
            }
            let me = self.node.clone();
            if self.ping(&me).await {
                lost = 0;
                if !self.bus_up.swap(true, Ordering::Relaxed) {
                    eprintln!("server: the message bus answers again");
                }
            } else {
                lost += 1;
                if lost == 2 && self.bus_up.swap(false, Ordering::Relaxed) {
                    eprintln!(
                        "server: ERROR: THE MESSAGE BUS DOES NOT ANSWER: games refereed by other nodes are refused until it does"
                    );
                }
            }
        }
    }

    /// Listens on this node's channel; subscribes again after an outage.
    pub(super) async fn listen(self: Arc<Self>, mut ready: Option<oneshot::Sender<()>>) {
        while !self.stopped.load(Ordering::Relaxed) {
            let subscribed = tokio::time::timeout(ANSWER, async {
                let mut pubsub = self.redis.get_async_pubsub().await.ok()?;
                pubsub.subscribe(channel(&self.node)).await.ok()?;
                pubsub.subscribe(LOBBY_CHANNEL).await.ok()?;
                Some(pubsub)
            })
            .await
            .ok()
            .flatten();
            if let Some(pubsub) = subscribed {
                {
                    if !self.bus_up.swap(true, Ordering::Relaxed) && ready.is_none() {
                        eprintln!("server: the message bus works again");
                    }
                    if let Some(r) = ready.take() {
                        let _ = r.send(());
                    }
                    let mut stream = pubsub.into_on_message();
                    while let Some(msg) = stream.next().await {
                        let Ok(text) = msg.get_payload::<String>() else {
                            continue;
                        };
                        match serde_json::from_str::<Bus>(&text) {
                            Ok(m) => self.on_bus(m).await,
                            Err(e) => eprintln!("server: a bad bus message ({e}) ignored"),
                        }
                    }
                }
            }
            if self.bus_up.swap(false, Ordering::Relaxed) {
                eprintln!(
                    "server: ERROR: THE MESSAGE BUS IS UNREACHABLE: games refereed by other nodes are refused until it is back"
                );
                self.bus_lost();
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    }

    /// The bus went down: what travelled over it is cut, so the pages
    /// reconnect (and are refused with [`BUS_DOWN`] until it is back, or
    /// play on where the room is on the node they reach).
    pub(super) fn bus_lost(&self) {
        *lock(&self.publisher) = None;
        lock(&self.waiting).clear();
        if let Some(hub) = self.hub() {
            hub.lobby().forget_remote();
        }
        for (_, proxy) in lock(&self.proxies).iter() {
            proxy.dead.notify_one();
        }
        let remote: Vec<RemoteMember> = lock(&self.remote).drain().map(|(_, m)| m).collect();
        for m in remote {
            let _ = m.room.try_send(RoomCmd::Detach { conn: m.id });
        }
    }

    pub(super) async fn on_bus(self: &Arc<Self>, msg: Bus) {
        match msg {
            Bus::Attach {
                room,
                from,
                conn,
                req,
                how,
            } => {
                tokio::spawn(self.clone().remote_attach(room, from, conn, req, how));
            }
            Bus::Act {
                room,
                from,
                conn,
                action,
            } => {
                let member = lock(&self.remote)
                    .get(&(from.clone(), conn, room.clone()))
                    .map(|m| (m.id, m.room.clone()));
                let sent = match member {
                    Some((id, tx)) => tx.send(RoomCmd::Act { conn: id, action }).await.is_ok(),
                    None => false,
                };
                if !sent {
                    // The room left this node: the page reconnects and finds it.
                    let msg = Bus::Close {
                        room,
                        conn,
                        code: 1012,
                        reason: "the game moved to another server node".into(),
                    };
                    let _ = self.publish(&from, &msg).await;
                }
            }
            Bus::Detach { room, from, conn } => {
                let member = lock(&self.remote).remove(&(from, conn, room));
                if let Some(m) = member {
                    let _ = m.room.send(RoomCmd::Detach { conn: m.id }).await;
                }
            }
            Bus::Ping { from, req } => {
                if !self.draining.load(Ordering::Relaxed) {
                    let _ = self.publish(&from, &Bus::Pong { req }).await;
                }
            }
            Bus::Attached { req, answer } => {
                if let Some(tx) = lock(&self.waiting).remove(&req) {
                    let _ = tx.send(answer);
                }
            }
            Bus::Pong { req } => {
                if let Some(tx) = lock(&self.waiting).remove(&req) {
                    let _ = tx.send(Answer::Ok);
                }
            }
            Bus::Frame { room, conn, text } => {
                let key = (room, conn);
                lock(&self.awaiting).remove(&key);
                let handle = lock(&self.proxied).get(&key).cloned();
                if let Some(h) = handle {
                    h.send_text(text.into());
                }
            }
            Bus::Close {
                room,
                conn,
                code: _,
                reason,
            } => {
                let key = (room, conn);
                lock(&self.awaiting).remove(&key);
                let handle = lock(&self.proxied).remove(&key);
                if let Some(h) = handle {
                    h.close_to_reconnect(&reason);
                }
            }
            Bus::Matched { conn, room, token } => self.deliver_match(conn, room, token),
            Bus::Lobby { from, listing } => self.remote_lobby(&from, listing),
            Bus::Take {
                from,
                req,
                id,
                taker,
            } => {
                tokio::spawn(self.clone().take_for(from, req, id, taker));
            }
        }
    }

    /// Attaches another node's connection to a room of this node, through
    /// a stand-in whose frames go back over the bus.
    pub(super) async fn remote_attach(
        self: Arc<Self>,
        room: String,
        from: String,
        conn: u64,
        req: u64,
        how: Attach,
    ) {
        let answer = match self.hub() {
            None => Answer::NotHere,
            Some(_) if self.draining.load(Ordering::Relaxed) => Answer::NotHere,
            Some(hub) => match self.holds(&room).await {
                Ok(false) | Err(_) => Answer::NotHere,
                Ok(true) => {
                    let (out_tx, out_rx) = mpsc::channel(hub.out_queue());
                    let kill = Arc::new(Notify::new());
                    let (ctl_tx, _ctl_rx) = mpsc::channel(1);
                    let handle = ConnHandle::new(hub.next_id(), out_tx, kill.clone(), ctl_tx);
                    tokio::spawn(self.clone().forward(
                        out_rx,
                        kill,
                        from.clone(),
                        room.clone(),
                        conn,
                        handle.id,
                    ));
                    match hub.attach(&room, &handle, how).await {
                        Ok(tx) => {
                            let member = RemoteMember {
                                id: handle.id,
                                room: tx,
                            };
                            lock(&self.remote).insert((from.clone(), conn, room), member);
                            Answer::Ok
                        }
                        Err(msg) => Answer::Refused(msg.to_json()),
                    }
                }
            },
        };
        let _ = self.publish(&from, &Bus::Attached { req, answer }).await;
    }

    /// Sends a stand-in connection's frames to its node.
    pub(super) async fn forward(
        self: Arc<Self>,
        mut out: mpsc::Receiver<Message>,
        kill: Arc<Notify>,
        node: String,
        room: String,
        conn: u64,
        id: u64,
    ) {
        loop {
            let msg = tokio::select! {
                m = out.recv() => m,
                () = kill.notified() => {
                    let msg = Bus::Close { room: room.clone(), conn, code: 1008, reason: "too slow".into() };
                    let _ = self.publish(&node, &msg).await;
                    break;
                }
            };
            let sent = match msg {
                Some(Message::Text(t)) => {
                    let msg = Bus::Frame {
                        room: room.clone(),
                        conn,
                        text: t.as_str().to_string(),
                    };
                    self.publish(&node, &msg).await.is_ok()
                }
                Some(Message::Close(frame)) => {
                    let (code, reason) = frame
                        .map(|f| (f.code, f.reason.as_str().to_string()))
                        .unwrap_or((1012, String::new()));
                    let msg = Bus::Close {
                        room: room.clone(),
                        conn,
                        code,
                        reason,
                    };
                    let _ = self.publish(&node, &msg).await;
                    false
                }
                Some(_) => true,
                None => false,
            };
            if !sent {
                break;
            }
        }
        let key = (node, conn, room);
        let mut remote = lock(&self.remote);
        if remote.get(&key).is_some_and(|m| m.id == id) {
            remote.remove(&key);
        }
    }

    /// Whether `node` answers over the bus.
    pub(super) async fn ping(&self, node: &str) -> bool {
        let req = self.req();
        let (tx, rx) = oneshot::channel();
        lock(&self.waiting).insert(req, tx);
        let from = self.node.clone();
        let ok = self.publish(node, &Bus::Ping { from, req }).await.is_ok()
            && matches!(tokio::time::timeout(PING, rx).await, Ok(Ok(_)));
        lock(&self.waiting).remove(&req);
        ok
    }
}
