//! The lobby across the nodes (see `crate::server::lobby` for the
//! design): every node shares its own [`Listing`] on
//! [`LOBBY_CHANNEL`] when it changes (changes within
//! [`GATHER`] go out together) and every [`BEAT`] besides, keeps the
//! others' for [`LEASE_TTL`], and takes another node's challenge by
//! asking that node ([`Bus::Take`]), which answers with the seat. A live
//! game's move count alone does not make a node share its listing: the
//! listing of the next beat carries the counts of that moment, so the
//! other nodes' followers see them within about two seconds (a beat,
//! then at most `lobby::COUNT_EVERY` there).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::oneshot;

use super::node::{lock, server_error, Cluster, ANSWER, BEAT, LEASE_TTL, LOBBY_CHANNEL, NO_ANSWER};
use super::wire::{Answer, Bus};
use crate::protocol::online::ServerMsg;
use crate::server::lobby::Listing;

/// Changes to this node's lobby within this long are shared in one
/// listing (a burst of posts is one message, not one each).
const GATHER: Duration = Duration::from_millis(20);

impl Cluster {
    /// Shares this node's listing when it changes and every [`BEAT`],
    /// and drops other nodes' listings that were not renewed.
    pub(super) async fn share_lobby(self: Arc<Self>) {
        loop {
            let Some(hub) = self.hub() else { return };
            let changed = tokio::time::timeout(BEAT, hub.lobby().changed())
                .await
                .is_ok();
            if changed {
                tokio::time::sleep(GATHER).await;
            }
            if self.stopped.load(Ordering::Relaxed) || self.draining.load(Ordering::Relaxed) {
                return;
            }
            hub.lobby().expire_remote();
            let msg = Bus::Lobby {
                from: self.node.clone(),
                listing: hub.lobby().listing(),
            };
            drop(hub);
            // A lost listing is sent again within a beat.
            let _ = self.publish_on(LOBBY_CHANNEL, &msg).await;
        }
    }

    /// Tells the other nodes this node lists nothing any more (a clean
    /// stop), so its challenges leave their lobbies at once.
    pub(super) async fn unlist_lobby(&self) {
        let msg = Bus::Lobby {
            from: self.node.clone(),
            listing: Listing::default(),
        };
        let _ = self.publish_on(LOBBY_CHANNEL, &msg).await;
    }

    /// Another node's listing arrived.
    pub(super) fn remote_lobby(&self, from: &str, listing: Listing) {
        if from == self.node {
            return;
        }
        if let Some(hub) = self.hub() {
            hub.lobby().set_remote(from, listing, LEASE_TTL);
        }
    }

    /// Takes challenge `id` on `node` for a connection here: the room and
    /// the taker's token, or the refusal (within [`ANSWER`]).
    pub async fn take_challenge(
        &self,
        node: &str,
        id: &str,
        taker: Option<&str>,
    ) -> Result<(String, String), ServerMsg> {
        let req = self.req();
        let (tx, rx) = oneshot::channel();
        lock(&self.waiting).insert(req, tx);
        let msg = Bus::Take {
            from: self.node.clone(),
            req,
            id: id.to_string(),
            taker: taker.map(str::to_string),
        };
        let sent = self.publish(node, &msg).await;
        let answer = match sent {
            Ok(()) => tokio::time::timeout(ANSWER, rx)
                .await
                .ok()
                .and_then(Result::ok),
            Err(e) => {
                lock(&self.waiting).remove(&req);
                return Err(server_error(e));
            }
        };
        lock(&self.waiting).remove(&req);
        match answer {
            Some(Answer::Seat { room, token }) => Ok((room, token)),
            Some(Answer::Refused(json)) => {
                Err(ServerMsg::from_json(&json).unwrap_or_else(|_| server_error(NO_ANSWER)))
            }
            Some(Answer::Ok | Answer::NotHere) | None => Err(server_error(NO_ANSWER)),
        }
    }

    /// Takes this node's challenge `id` for connection of node `from`,
    /// and answers it.
    pub(super) async fn take_for(
        self: Arc<Self>,
        from: String,
        req: u64,
        id: String,
        taker: Option<String>,
    ) {
        let answer = match self.hub() {
            None => Answer::NotHere,
            Some(hub) => match hub.take_challenge(&id, taker.as_deref()).await {
                Ok((room, token)) => Answer::Seat { room, token },
                Err(msg) => Answer::Refused(msg.to_json()),
            },
        };
        let _ = self.publish(&from, &Bus::Attached { req, answer }).await;
    }
}
