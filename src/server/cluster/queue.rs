//! Quick match across the nodes: the queue is a table; pairing takes the
//! oldest player waiting for the same game on a live node (under a lock
//! per queue key) and tells their node over the bus.

use std::sync::atomic::Ordering;
use tokio_postgres::Client;

use super::node::{db_error, lock, Cluster};
use super::wire::Bus;
use crate::server::handle::{ConnEvent, ConnHandle};
use crate::server::pg;

impl Cluster {
    /// The quick-match queue's connection (opened again if lost).
    pub(super) async fn queue_db(
        &self,
    ) -> Result<tokio::sync::MutexGuard<'_, Option<Client>>, String> {
        let mut slot = self.queue_db.lock().await;
        if slot.as_ref().is_none_or(|c| c.is_closed()) {
            *slot = None;
            *slot = Some(
                pg::connect(&self.db_url)
                    .await
                    .map_err(|e| format!("the server {e}"))?,
            );
        }
        Ok(slot)
    }

    /// Pairs `conn` with the oldest player waiting under `key` on a live
    /// node (their node and connection), or puts it in the queue.
    pub async fn pair(
        &self,
        key: &str,
        conn: &ConnHandle,
    ) -> Result<Option<(String, u64)>, String> {
        if self.draining.load(Ordering::Relaxed) {
            return Err("this server node is stopping: reconnect".into());
        }
        lock(&self.queued).insert(conn.id, conn.clone());
        let pairing = async {
            let mut slot = self.queue_db().await?;
            let Some(client) = slot.as_mut() else {
                return Err("no database connection".to_string());
            };
            let tx = client.transaction().await.map_err(db_error)?;
            tx.execute("SELECT pg_advisory_xact_lock(hashtext($1))", &[&key])
                .await
                .map_err(db_error)?;
            let id = conn.id as i64;
            let partner = tx
                .query_opt(
                    "DELETE FROM queue WHERE (node, conn) IN (
                        SELECT q.node, q.conn FROM queue q JOIN nodes n ON n.id = q.node
                        WHERE q.key = $1 AND n.alive_until > now() AND NOT n.draining
                          AND NOT (q.node = $2 AND q.conn = $3)
                        ORDER BY q.since LIMIT 1)
                     RETURNING node, conn",
                    &[&key, &self.node, &id],
                )
                .await
                .map_err(db_error)?
                .map(|r| (r.get::<_, String>(0), r.get::<_, i64>(1) as u64));
            if partner.is_none() {
                tx.execute(
                    "INSERT INTO queue (key, node, conn) VALUES ($1, $2, $3)
                     ON CONFLICT (node, conn) DO UPDATE SET key = EXCLUDED.key, since = clock_timestamp()",
                    &[&key, &self.node, &id],
                )
                .await
                .map_err(db_error)?;
            }
            tx.commit().await.map_err(db_error)?;
            Ok(partner)
        };
        // Within the deadline, or the connection goes (its state unknown).
        let result = match tokio::time::timeout(pg::BATCH_DEADLINE, pairing).await {
            Ok(r) => r,
            Err(_) => {
                *self.queue_db.lock().await = None;
                Err(format!(
                    "the server cannot reach its database: it did not answer within {} ms",
                    pg::BATCH_DEADLINE.as_millis()
                ))
            }
        };
        if !matches!(result, Ok(None)) {
            lock(&self.queued).remove(&conn.id);
        }
        result
    }

    /// Puts a partner back in the queue (the room for them could not be made).
    pub async fn requeue(&self, key: &str, partner: &(String, u64)) {
        if let Ok(db) = self.db().await {
            let _ = self.timed(db.execute(
                    "INSERT INTO queue (key, node, conn) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                    &[&key, &partner.0, &(partner.1 as i64)],
                )).await;
        }
    }

    /// Tells a paired player (on this node or another) their seat.
    pub async fn matched(&self, partner: &(String, u64), room: &str, token: &str) {
        let (node, conn) = partner;
        if *node == self.node {
            self.deliver_match(*conn, room.to_string(), token.to_string());
            return;
        }
        let msg = Bus::Matched {
            conn: *conn,
            room: room.to_string(),
            token: token.to_string(),
        };
        if let Err(e) = self.publish(node, &msg).await {
            eprintln!("server: a quick-match partner on node {node} was not told: {e}");
        }
    }

    pub(super) fn deliver_match(&self, conn: u64, room: String, token: String) {
        let handle = lock(&self.queued).remove(&conn);
        if let Some(h) = handle {
            h.tell(ConnEvent::Matched { room, token });
        }
    }

    /// A connection leaves the queue (or was never in it): its row is
    /// deleted before this returns (within the database's deadline), so
    /// a pairing on another node cannot pick it after the player was
    /// told `queue_cancelled` (it once could: the delete ran in a task
    /// of its own, and `quick_match_pairs_players_on_different_nodes`
    /// sometimes saw its fourth player paired with the third, who had
    /// left).
    pub async fn cancel(&self, conn: u64) {
        if lock(&self.queued).remove(&conn).is_none() {
            return;
        }
        if let Ok(db) = self.db().await {
            let _ = self
                .timed(db.execute(
                    "DELETE FROM queue WHERE node = $1 AND conn = $2",
                    &[&self.node, &(conn as i64)],
                ))
                .await;
        }
    }
}
