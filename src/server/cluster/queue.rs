//! Quick match across the nodes: the queue is a table; pairing (under a
//! lock per queue key) takes the oldest player waiting for the same game
//! on a live node, or for a rated game the player whose rating suits
//! (the one-node rule of [`pairing`], the table keeping what it needs),
//! and tells their node over the bus. Rated seekers whose ranges widen
//! to meet are paired periodically ([`Cluster::repair`]).

use std::sync::atomic::Ordering;
use tokio_postgres::{Client, Row};

use super::node::{db_error, lock, Cluster};
use super::wire::Bus;
use crate::server::handle::{ConnEvent, ConnHandle};
use crate::server::pg;
use crate::server::placement::{ripe, Partner, Seeking};
use crate::server::players::pairing;

/// A player in the queue table: their node, connection, and what they
/// seek if rated (`since_ms` on the database's clock).
#[derive(Clone, Debug)]
pub struct Waiter {
    pub node: String,
    pub conn: u64,
    pub seeking: Option<Seeking>,
}

/// The rated seekers waiting on live nodes, each row read by
/// [`rated_row`] (the database's clock last); callers add conditions
/// (`AND …`) and the order.
const RATED_WAITING: &str = "SELECT q.node, q.conn, q.player, q.rating, q.provisional,
        q.widen_every_ms, (extract(epoch FROM q.since) * 1000)::bigint,
        (extract(epoch FROM clock_timestamp()) * 1000)::bigint, q.key
    FROM queue q JOIN nodes n ON n.id = q.node
    WHERE n.alive_until > now() AND NOT n.draining
      AND q.player IS NOT NULL AND q.rating IS NOT NULL
      AND q.provisional IS NOT NULL AND q.widen_every_ms IS NOT NULL";

/// A row of [`RATED_WAITING`]: the waiter, and the database's clock (ms).
fn rated_row(r: &Row) -> (Waiter, u64) {
    let seeker = pairing::Seeker {
        rating: r.get::<_, i32>(3).max(0) as u32,
        provisional: r.get(4),
        since_ms: r.get::<_, i64>(6).max(0) as u64,
        widen_every_ms: r.get::<_, i64>(5).max(0) as u64,
    };
    let waiter = Waiter {
        node: r.get(0),
        conn: r.get::<_, i64>(1) as u64,
        seeking: Some(Seeking {
            player: r.get(2),
            seeker,
        }),
    };
    (waiter, r.get::<_, i64>(7).max(0) as u64)
}

/// The keys (of rows of [`RATED_WAITING`], by key and oldest first) with
/// a pair to make now.
fn ripe_keys(rows: &[Row]) -> Vec<String> {
    let mut keys = Vec::new();
    let mut start = 0;
    while start < rows.len() {
        let key: String = rows[start].get(8);
        let end = start
            + rows[start..]
                .iter()
                .take_while(|r| r.get::<_, String>(8) == key)
                .count();
        let read: Vec<(Waiter, u64)> = rows[start..end].iter().map(rated_row).collect();
        let now_ms = read.last().map_or(0, |(_, now)| *now);
        let seekers: Vec<Option<&Seeking>> = read.iter().map(|(w, _)| w.seeking.as_ref()).collect();
        if !ripe(&seekers, now_ms).is_empty() {
            keys.push(key);
        }
        start = end;
    }
    keys
}

/// Under `key`'s lock, pairs its rated seekers that suit each other now
/// ([`ripe`]) and deletes their rows, in one transaction.
async fn repair_key(client: &mut Client, key: &str) -> Result<Vec<(Waiter, Waiter)>, String> {
    let tx = client.transaction().await.map_err(db_error)?;
    tx.execute("SELECT pg_advisory_xact_lock(hashtext($1))", &[&key])
        .await
        .map_err(db_error)?;
    let sql = format!("{RATED_WAITING} AND q.key = $1 ORDER BY q.since FOR UPDATE OF q");
    let rows = tx.query(&sql, &[&key]).await.map_err(db_error)?;
    let read: Vec<(Waiter, u64)> = rows.iter().map(rated_row).collect();
    let now_ms = read.last().map_or(0, |(_, now)| *now);
    let seekers: Vec<Option<&Seeking>> = read.iter().map(|(w, _)| w.seeking.as_ref()).collect();
    let mut pairs = Vec::new();
    for (i, j) in ripe(&seekers, now_ms) {
        let (a, b) = (&read[i].0, &read[j].0);
        // Both rows are locked (FOR UPDATE): both are there.
        tx.execute(
            "DELETE FROM queue WHERE (node = $1 AND conn = $2) OR (node = $3 AND conn = $4)",
            &[&a.node, &(a.conn as i64), &b.node, &(b.conn as i64)],
        )
        .await
        .map_err(db_error)?;
        pairs.push((a.clone(), b.clone()));
    }
    tx.commit().await.map_err(db_error)?;
    Ok(pairs)
}

/// A rated seeker's columns of the queue table (all null for a casual one).
#[derive(Default)]
struct Columns {
    player: Option<String>,
    rating: Option<i32>,
    provisional: Option<bool>,
    widen_every_ms: Option<i64>,
    since_ms: Option<i64>,
}

impl Columns {
    fn of(s: &Seeking) -> Columns {
        Columns {
            player: Some(s.player.clone()),
            rating: Some(i32::try_from(s.seeker.rating).unwrap_or(i32::MAX)),
            provisional: Some(s.seeker.provisional),
            widen_every_ms: Some(i64::try_from(s.seeker.widen_every_ms).unwrap_or(i64::MAX)),
            since_ms: Some(i64::try_from(s.seeker.since_ms).unwrap_or(i64::MAX)),
        }
    }
}

/// The longest a pairing waits for the node's queue connection (held by
/// the pairings before it, each within [`pg::BATCH_DEADLINE`]).
const QUEUE_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

fn busy() -> String {
    format!(
        "too many players are being paired on this server node at once (none reached the queue within {} s): ask again",
        QUEUE_WAIT.as_secs()
    )
}

fn too_slow() -> String {
    format!(
        "the server cannot reach its database: it did not answer within {} ms",
        pg::BATCH_DEADLINE.as_millis()
    )
}

impl Cluster {
    /// A partner as the queue table holds it: node, connection, and what
    /// it sought.
    pub(super) fn partner(&self, partner: Partner) -> Waiter {
        match partner {
            Partner::Node {
                node,
                conn,
                seeking,
            } => Waiter {
                node,
                conn,
                seeking,
            },
            Partner::Here(conn, seeking) => Waiter {
                node: self.node.clone(),
                conn: conn.id,
                seeking,
            },
        }
    }

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

    /// Pairs `conn` with a player waiting under `key` on a live node
    /// (their node and connection, and what they sought), or puts it in
    /// the queue. A casual seeker takes the oldest one waiting; a rated
    /// seeker (`seeking`) the one [`pairing::best`] picks among the rated
    /// seekers whose ranges suit it now, never the same player (one
    /// node's rule, with `since` on the database's clock, which every
    /// node shares).
    pub async fn pair(
        &self,
        key: &str,
        conn: &ConnHandle,
        seeking: Option<&Seeking>,
    ) -> Result<Option<Waiter>, String> {
        if self.draining.load(Ordering::Relaxed) {
            return Err("this server node is stopping: reconnect".into());
        }
        lock(&self.queued).insert(conn.id, conn.clone());
        // The node's one queue connection, in turn: under a burst of
        // seekers this waits for the pairings before it (each within the
        // database's deadline), up to QUEUE_WAIT.
        let mut slot = match tokio::time::timeout(QUEUE_WAIT, self.queue_db()).await {
            Ok(Ok(slot)) => slot,
            Ok(Err(e)) => {
                lock(&self.queued).remove(&conn.id);
                return Err(e);
            }
            Err(_) => {
                lock(&self.queued).remove(&conn.id);
                return Err(busy());
            }
        };
        let pairing = async {
            let Some(client) = slot.as_mut() else {
                return Err("no database connection".to_string());
            };
            let tx = client.transaction().await.map_err(db_error)?;
            tx.execute("SELECT pg_advisory_xact_lock(hashtext($1))", &[&key])
                .await
                .map_err(db_error)?;
            let id = conn.id as i64;
            let partner = match seeking {
                None => tx
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
                    .map(|r| Waiter {
                        node: r.get(0),
                        conn: r.get::<_, i64>(1) as u64,
                        seeking: None,
                    }),
                Some(me) => {
                    let sql = format!(
                        "{RATED_WAITING} AND q.key = $1 AND q.player <> $2
                           AND NOT (q.node = $3 AND q.conn = $4)
                         ORDER BY q.since FOR UPDATE OF q"
                    );
                    let rows = tx
                        .query(&sql, &[&key, &me.player, &self.node, &id])
                        .await
                        .map_err(db_error)?;
                    let mut waiting: Vec<Waiter> = Vec::new();
                    let mut now_ms = 0;
                    for r in &rows {
                        let (w, now) = rated_row(r);
                        waiting.push(w);
                        now_ms = now;
                    }
                    // This seeker starts waiting now, on the same clock.
                    let me_now = pairing::Seeker {
                        since_ms: now_ms,
                        ..me.seeker
                    };
                    let seekers: Vec<(usize, pairing::Seeker)> = waiting
                        .iter()
                        .enumerate()
                        .filter_map(|(i, w)| Some((i, w.seeking.as_ref()?.seeker)))
                        .collect();
                    let pick = pairing::best(&me_now, seekers.iter().map(|(i, s)| (i, s)), now_ms)
                        .copied();
                    match pick {
                        Some(i) => {
                            let w = waiting.swap_remove(i);
                            // Its row is locked (FOR UPDATE): it is there.
                            tx.execute(
                                "DELETE FROM queue WHERE node = $1 AND conn = $2",
                                &[&w.node, &(w.conn as i64)],
                            )
                            .await
                            .map_err(db_error)?;
                            Some(w)
                        }
                        None => None,
                    }
                }
            };
            if partner.is_none() {
                let me = seeking.map(Columns::of).unwrap_or_default();
                tx.execute(
                    "INSERT INTO queue (key, node, conn, player, rating, provisional, widen_every_ms)
                     VALUES ($1, $2, $3, $4, $5, $6, $7)
                     ON CONFLICT (node, conn) DO UPDATE SET key = EXCLUDED.key,
                       since = clock_timestamp(), player = EXCLUDED.player,
                       rating = EXCLUDED.rating, provisional = EXCLUDED.provisional,
                       widen_every_ms = EXCLUDED.widen_every_ms",
                    &[
                        &key,
                        &self.node,
                        &id,
                        &me.player,
                        &me.rating,
                        &me.provisional,
                        &me.widen_every_ms,
                    ],
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
                *slot = None;
                Err(too_slow())
            }
        };
        drop(slot);
        if !matches!(result, Ok(None)) {
            lock(&self.queued).remove(&conn.id);
        }
        result
    }

    /// Pairs the rated seekers waiting on live nodes whose ranges have
    /// widened to suit each other ([`ripe`], one node's rule): the queue
    /// key and both partners, their rows deleted. A first look takes no
    /// lock; a key with a pair to make is looked at again under its lock
    /// (the one [`Cluster::pair`] takes), its rows locked, and the pairs
    /// deleted in that transaction, so one node pairs a given two and a
    /// seeker who cancelled meanwhile is not paired. Nothing while this
    /// node stops; within [`pg::BATCH_DEADLINE`] per key.
    pub async fn repair(&self) -> Vec<(String, Waiter, Waiter)> {
        let mut pairs = Vec::new();
        if self.draining.load(Ordering::Relaxed) {
            return pairs;
        }
        let Ok(Ok(mut slot)) = tokio::time::timeout(QUEUE_WAIT, self.queue_db()).await else {
            return pairs;
        };
        let Some(client) = slot.as_mut() else {
            return pairs;
        };
        let look = format!("{RATED_WAITING} ORDER BY q.key, q.since");
        let keys = match tokio::time::timeout(pg::BATCH_DEADLINE, client.query(&look, &[])).await {
            Ok(Ok(rows)) => ripe_keys(&rows),
            Ok(Err(e)) => {
                eprintln!("server: the rated queue was not looked at: {}", db_error(e));
                return pairs;
            }
            Err(_) => {
                *slot = None;
                return pairs;
            }
        };
        for key in keys {
            let made = tokio::time::timeout(pg::BATCH_DEADLINE, repair_key(client, &key)).await;
            match made {
                Ok(Ok(made)) => pairs.extend(made.into_iter().map(|(a, b)| (key.clone(), a, b))),
                Ok(Err(e)) => {
                    eprintln!("server: rated seekers were not paired: {e}");
                    break;
                }
                Err(_) => {
                    eprintln!("server: rated seekers were not paired: {}", too_slow());
                    *slot = None;
                    break;
                }
            }
        }
        pairs
    }

    /// Puts a partner back in the queue (the room for them could not be
    /// made), as it waited: a rated seeker with what it sought, since
    /// when it started waiting.
    pub async fn requeue(&self, key: &str, partner: &Waiter) {
        let me = partner
            .seeking
            .as_ref()
            .map(Columns::of)
            .unwrap_or_default();
        if let Ok(db) = self.db().await {
            let _ = self
                .timed(db.execute(
                    "INSERT INTO queue (key, node, conn, player, rating, provisional,
                                        widen_every_ms, since)
                     VALUES ($1, $2, $3, $4, $5, $6, $7,
                             COALESCE(to_timestamp($8::bigint / 1000.0), clock_timestamp()))
                     ON CONFLICT DO NOTHING",
                    &[
                        &key,
                        &partner.node,
                        &(partner.conn as i64),
                        &me.player,
                        &me.rating,
                        &me.provisional,
                        &me.widen_every_ms,
                        &me.since_ms,
                    ],
                ))
                .await;
        }
    }

    /// Tells a paired player (on this node or another) their seat.
    pub async fn matched(&self, partner: &Waiter, room: &str, token: &str) {
        let (node, conn) = (&partner.node, &partner.conn);
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
