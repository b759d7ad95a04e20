//! The task that stands for a room refereed by another node: it takes
//! the room's commands (attach, act, detach) from this node's
//! connections and publishes them on the referee's channel; frames come
//! back over the bus ([`super::bus`]). An action not answered within
//! [`super::NO_ANSWER_AFTER`] is answered with why not.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::{mpsc, oneshot, Notify};
use tokio::time::Instant;

use super::node::{lock, server_error, Cluster, Proxy, ANSWER};
use super::wire::{Answer, Bus};
use crate::protocol::online::ServerMsg;
use crate::server::handle::ConnHandle;
use crate::server::room::RoomCmd;

impl Cluster {
    /// A task that stands for `room`, refereed by `node`.
    pub fn spawn_proxy(self: &Arc<Self>, room: &str, node: &str) -> mpsc::Sender<RoomCmd> {
        let (tx, rx) = mpsc::channel(256);
        let dead = Arc::new(Notify::new());
        let proxy = Proxy {
            node: node.to_string(),
            dead: dead.clone(),
        };
        lock(&self.proxies).insert(room.to_string(), proxy);
        tokio::spawn(
            self.clone()
                .proxy(room.to_string(), node.to_string(), tx.clone(), rx, dead),
        );
        tx
    }

    pub(super) async fn proxy(
        self: Arc<Self>,
        room: String,
        node: String,
        me: mpsc::Sender<RoomCmd>,
        mut rx: mpsc::Receiver<RoomCmd>,
        dead: Arc<Notify>,
    ) {
        let mut members: HashMap<u64, ConnHandle> = HashMap::new();
        let from = self.node.clone();
        let mut close_members = true;
        loop {
            let cmd = tokio::select! {
                c = rx.recv() => c,
                () = dead.notified() => None,
            };
            let Some(cmd) = cmd else { break };
            match cmd {
                RoomCmd::Attach { conn, how, done } => {
                    let key = (room.clone(), conn.id);
                    lock(&self.proxied).insert(key.clone(), conn.clone());
                    let req = self.req();
                    let (atx, arx) = oneshot::channel();
                    lock(&self.waiting).insert(req, atx);
                    let msg = Bus::Attach {
                        room: room.clone(),
                        from: from.clone(),
                        conn: conn.id,
                        req,
                        how,
                    };
                    let answer = match self.publish(&node, &msg).await {
                        Err(e) => Err(e),
                        Ok(()) => match tokio::time::timeout(ANSWER, arx).await {
                            Ok(Ok(a)) => Ok(a),
                            _ => Ok(Answer::NotHere),
                        },
                    };
                    lock(&self.waiting).remove(&req);
                    match answer {
                        Ok(Answer::Ok) => {
                            members.insert(conn.id, conn);
                            let _ = done.send(Ok(()));
                        }
                        Ok(Answer::Refused(json)) => {
                            lock(&self.proxied).remove(&key);
                            let msg = ServerMsg::from_json(&json)
                                .unwrap_or_else(|_| server_error("refused by the room's node"));
                            let _ = done.send(Err(msg));
                        }
                        Err(e) => {
                            lock(&self.proxied).remove(&key);
                            let _ = done.send(Err(server_error(e)));
                        }
                        Ok(Answer::NotHere | Answer::Seat { .. }) => {
                            // The node no longer referees the room (or does
                            // not answer): unlisted and closed before the
                            // hub hears, so it looks the room up again.
                            lock(&self.proxied).remove(&key);
                            rx.close();
                            if let Some(hub) = self.hub() {
                                hub.unlist(&room, &me);
                            }
                            drop(done);
                            break;
                        }
                    }
                }
                RoomCmd::Detach { conn } => {
                    members.remove(&conn);
                    lock(&self.proxied).remove(&(room.clone(), conn));
                    lock(&self.awaiting).remove(&(room.clone(), conn));
                    let msg = Bus::Detach {
                        room: room.clone(),
                        from: from.clone(),
                        conn,
                    };
                    let _ = self.publish(&node, &msg).await;
                }
                RoomCmd::Act { conn, action } => {
                    let msg = Bus::Act {
                        room: room.clone(),
                        from: from.clone(),
                        conn,
                        action,
                    };
                    match self.publish(&node, &msg).await {
                        Err(e) => {
                            if let Some(h) = members.get(&conn) {
                                h.send(&server_error(e));
                            }
                        }
                        // Answered (by a frame for this connection) within
                        // NO_ANSWER_AFTER, or the player hears why not.
                        Ok(()) => {
                            if let Some(h) = members.get(&conn) {
                                lock(&self.awaiting)
                                    .entry((room.clone(), conn))
                                    .or_insert_with(|| (Instant::now(), h.clone()));
                            }
                        }
                    }
                }
                RoomCmd::Shutdown { done } => {
                    close_members = false;
                    let _ = done.send(());
                    break;
                }
                RoomCmd::Handover { done } => {
                    let _ = done.send(());
                    break;
                }
            }
        }
        rx.close();
        if let Some(hub) = self.hub() {
            hub.unlist(&room, &me);
        }
        {
            let mut proxies = lock(&self.proxies);
            if proxies
                .get(&room)
                .is_some_and(|p| Arc::ptr_eq(&p.dead, &dead))
            {
                proxies.remove(&room);
            }
        }
        for (id, conn) in members {
            lock(&self.proxied).remove(&(room.clone(), id));
            lock(&self.awaiting).remove(&(room.clone(), id));
            if close_members {
                conn.close_to_reconnect("the game moves to another server node");
            }
            // This node no longer forwards for it: the referee forgets it.
            let msg = Bus::Detach {
                room: room.clone(),
                from: from.clone(),
                conn: id,
            };
            let _ = tokio::time::timeout(ANSWER, self.publish(&node, &msg)).await;
        }
    }
}
