//! Where rooms are refereed and how quick matches pair: one interface,
//! [`Placement`], with two implementations — [`Alone`] (one server: every
//! room is refereed here, the quick-match queue is in memory) and a
//! cluster node (`super::cluster`, feature `cluster`: leases in
//! PostgreSQL, a proxy to the node that referees a room, the queue in a
//! table). The hub asks its placement and runs the same rooms either way
//! (issue 34: this replaced hub.rs's 11 `#[cfg(feature = "cluster")]`
//! branches).
//!
//! A placement reaches the hub only through [`Local`], so neither imports
//! the other.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::{mpsc, oneshot};

use super::handle::{ConnEvent, ConnHandle};
use super::room::{Attach, RoomCmd};
use crate::protocol::online::ServerMsg;

/// A placement's answer, later (boxed: the trait is used as an object).
pub type Pending<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The task of the room entered, or the answer that refuses.
pub type Attaching<'a> = Pending<'a, Result<mpsc::Sender<RoomCmd>, ServerMsg>>;

/// What a placement needs of this node's hub: its rooms (to attach other
/// nodes' connections to, to stop or hand over, to unlist a proxy) and
/// connection ids. A trait, so that placements do not depend on the hub,
/// which asks them who referees a room and hands them quick matches.
pub trait Local: Send + Sync + 'static {
    fn next_id(&self) -> u64;
    /// Frames queued for one connection before it counts as too slow.
    fn out_queue(&self) -> usize;
    /// Every room listed (their codes and tasks, proxies too).
    fn listed(&self) -> Vec<(String, mpsc::Sender<RoomCmd>)>;
    /// Unlists `code` if `tx` is still the task listed for it.
    fn unlist(&self, code: &str, tx: &mpsc::Sender<RoomCmd>);
    /// Enters `conn` into room `code` (in memory, or loaded from the
    /// store), as a connection of this node would.
    fn attach<'a>(
        self: Arc<Self>,
        code: &'a str,
        conn: &'a ConnHandle,
        how: Attach,
    ) -> Attaching<'a>;
    /// The lobby of this node (its own challenges and games, and the
    /// other nodes' listings).
    fn lobby(&self) -> &super::lobby::Lobby;
    /// Takes this node's challenge `id` for a taker (their identity, if
    /// any) on another node: the room and the taker's token.
    fn take_challenge<'a>(
        self: Arc<Self>,
        id: &'a str,
        taker: Option<&'a str>,
    ) -> Pending<'a, Result<(String, String), ServerMsg>>;
}

/// Who referees a room.
pub enum Owner {
    /// This node (it holds the lease now): load the room here.
    Mine,
    /// Another node that answers.
    Other(String),
    /// No room has this code.
    Nobody,
}

/// The player a quick match paired with.
pub enum Partner {
    /// A connection of this server (with what it sought, to queue it
    /// again as it was).
    Here(ConnHandle, Option<Seeking>),
    /// Connection `conn` of cluster node `node` (this one, possibly),
    /// with what it sought (its `since_ms` on the database's clock), to
    /// queue it again as it was.
    Node {
        node: String,
        conn: u64,
        seeking: Option<Seeking>,
    },
}

/// A rated quick match's seeker: who (never paired with themselves) and
/// their rating (paired by [`crate::server::players::pairing`]).
#[derive(Clone, Debug)]
pub struct Seeking {
    pub player: String,
    pub seeker: crate::server::players::pairing::Seeker,
}

/// Where rooms are refereed and how quick matches pair.
pub trait Placement: Send + Sync {
    /// Who referees room `code` (asked before the room is loaded: a
    /// cluster node may wait here, at most a lease's time, for a dead
    /// node's lease to lapse).
    fn claim<'a>(&'a self, code: &'a str) -> Pending<'a, Result<Owner, String>>;
    /// A task that stands for `code`, refereed by `node` (an
    /// [`Owner::Other`]).
    fn proxy(&self, code: &str, node: &str) -> mpsc::Sender<RoomCmd>;
    /// Pairs `conn` with a player waiting under `key`, or queues it. A
    /// rated seeker (`seeking`) is paired by rating, never with itself.
    fn pair<'a>(
        &'a self,
        key: &'a str,
        conn: &'a ConnHandle,
        seeking: Option<Seeking>,
    ) -> Pending<'a, Result<Option<Partner>, String>>;
    /// Pairs waiting rated seekers whose ranges have widened to suit each
    /// other (asked periodically, see [`ripe`]): the queue key and both
    /// partners, taken out of the queue. A cluster node pairs the seekers
    /// of every live node (under the queue key's lock, so one node pairs
    /// a given two); the hub makes their room and tells both.
    fn repair(&self) -> Pending<'_, Vec<(String, Partner, Partner)>>;
    /// Puts a partner back in the queue (the room for them could not be made).
    fn requeue<'a>(&'a self, key: &'a str, partner: Partner) -> Pending<'a, ()>;
    /// Tells a paired partner their seat.
    fn matched<'a>(&'a self, partner: Partner, room: &'a str, token: &'a str) -> Pending<'a, ()>;
    /// Connection `conn` leaves the queue (if it waits under `key`);
    /// done when no pairing can find it any more.
    fn cancel<'a>(&'a self, key: &'a str, conn: u64) -> Pending<'a, ()>;
    /// Takes challenge `id`, listed by node `node`, for a taker here
    /// (their identity, if any): the room and the taker's token.
    fn take_challenge<'a>(
        &'a self,
        node: &'a str,
        id: &'a str,
        taker: Option<&'a str>,
    ) -> Pending<'a, Result<(String, String), ServerMsg>>;
    /// A clean stop: runs `stop_accepting` (the hub's shutdown signal),
    /// then saves every room of `local` with its clock (a cluster node
    /// hands them over to the other nodes).
    fn stop<'a>(
        &'a self,
        local: &'a dyn Local,
        stop_accepting: Box<dyn FnOnce() + Send + 'a>,
    ) -> Pending<'a, ()>;
}

/// Which waiting rated seekers to pair now: `waiting` is oldest first
/// (`None`: not a rated seeker); the oldest seeker is paired with the
/// oldest one after it whose range suits (both ways, see
/// [`crate::server::players::pairing::Seeker::suits`]) and who is not the
/// same player, then the next oldest left, and so on. Each index is in
/// one pair at most. The one rule both placements repair by.
pub fn ripe(waiting: &[Option<&Seeking>], now_ms: u64) -> Vec<(usize, usize)> {
    let mut taken = vec![false; waiting.len()];
    let mut pairs = Vec::new();
    for i in 0..waiting.len() {
        let Some(a) = waiting[i].filter(|_| !taken[i]) else {
            continue;
        };
        let partner = (i + 1..waiting.len()).find(|&j| {
            !taken[j]
                && waiting[j]
                    .is_some_and(|b| a.player != b.player && a.seeker.suits(&b.seeker, now_ms))
        });
        if let Some(j) = partner {
            taken[i] = true;
            taken[j] = true;
            pairs.push((i, j));
        }
    }
    pairs
}

/// One server alone: every room is refereed here, and the quick-match
/// queue is a map in memory: one player waiting per casual key; rated
/// keys hold every rated seeker (each connection waits once), paired by
/// rating when the next one asks, or by [`Placement::repair`] once their
/// ranges have widened to suit each other.
#[derive(Default)]
pub struct Alone {
    queue: Mutex<HashMap<String, Vec<Waiter>>>,
}

/// A connection waiting for a quick match, with what it seeks if rated.
type Waiter = (ConnHandle, Option<Seeking>);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere never leaves the queue half-changed: go on.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Placement for Alone {
    fn claim<'a>(&'a self, _code: &'a str) -> Pending<'a, Result<Owner, String>> {
        Box::pin(async { Ok(Owner::Mine) })
    }

    /// Never asked ([`Alone::claim`] answers [`Owner::Mine`]): a task that
    /// is already gone, which the hub treats as a room that retired.
    fn proxy(&self, _code: &str, _node: &str) -> mpsc::Sender<RoomCmd> {
        mpsc::channel(1).0
    }

    fn pair<'a>(
        &'a self,
        key: &'a str,
        conn: &'a ConnHandle,
        seeking: Option<Seeking>,
    ) -> Pending<'a, Result<Option<Partner>, String>> {
        let mut queue = lock(&self.queue);
        let waiting = queue.entry(key.to_string()).or_default();
        waiting.retain(|(w, _)| w.alive() && w.id != conn.id);
        let now = crate::server::store::now_ms();
        let pick = match &seeking {
            None => (!waiting.is_empty()).then_some(0),
            Some(me) => {
                let others = waiting.iter().enumerate().filter_map(|(i, (_, s))| {
                    s.as_ref()
                        .filter(|s| s.player != me.player)
                        .map(|s| (i, &s.seeker))
                });
                let list: Vec<(usize, &crate::server::players::pairing::Seeker)> = others.collect();
                crate::server::players::pairing::best(
                    &me.seeker,
                    list.iter().map(|(i, s)| (i, *s)),
                    now,
                )
                .copied()
            }
        };
        let partner = match pick {
            Some(i) => {
                let (w, s) = waiting.remove(i);
                Some(Partner::Here(w, s))
            }
            None => {
                waiting.push((conn.clone(), seeking));
                None
            }
        };
        if waiting.is_empty() {
            queue.remove(key);
        }
        Box::pin(async { Ok(partner) })
    }

    fn repair(&self) -> Pending<'_, Vec<(String, Partner, Partner)>> {
        let now = crate::server::store::now_ms();
        let mut queue = lock(&self.queue);
        let mut pairs = Vec::new();
        for (key, waiting) in queue.iter_mut() {
            waiting.retain(|(w, _)| w.alive());
            // Oldest first (a requeued partner goes back to the front).
            let seekers: Vec<Option<&Seeking>> = waiting.iter().map(|(_, s)| s.as_ref()).collect();
            let ripe = ripe(&seekers, now);
            if ripe.is_empty() {
                continue;
            }
            let mut slots: Vec<Option<Waiter>> = waiting.drain(..).map(Some).collect();
            for (i, j) in ripe {
                if let (Some((wa, sa)), Some((wb, sb))) = (slots[i].take(), slots[j].take()) {
                    pairs.push((key.clone(), Partner::Here(wa, sa), Partner::Here(wb, sb)));
                }
            }
            waiting.extend(slots.into_iter().flatten());
        }
        queue.retain(|_, w| !w.is_empty());
        Box::pin(async { pairs })
    }

    fn requeue<'a>(&'a self, key: &'a str, partner: Partner) -> Pending<'a, ()> {
        if let Partner::Here(conn, seeking) = partner {
            lock(&self.queue)
                .entry(key.to_string())
                .or_default()
                .insert(0, (conn, seeking));
        }
        Box::pin(async {})
    }

    fn matched<'a>(&'a self, partner: Partner, room: &'a str, token: &'a str) -> Pending<'a, ()> {
        if let Partner::Here(conn, _) = partner {
            conn.tell(ConnEvent::Matched {
                room: room.to_string(),
                token: token.to_string(),
            });
        }
        Box::pin(async {})
    }

    fn cancel<'a>(&'a self, key: &'a str, conn: u64) -> Pending<'a, ()> {
        let mut queue = lock(&self.queue);
        if let Some(waiting) = queue.get_mut(key) {
            waiting.retain(|(w, _)| w.id != conn);
            if waiting.is_empty() {
                queue.remove(key);
            }
        }
        Box::pin(async {})
    }

    /// One server lists only its own challenges.
    fn take_challenge<'a>(
        &'a self,
        _node: &'a str,
        _id: &'a str,
        _taker: Option<&'a str>,
    ) -> Pending<'a, Result<(String, String), ServerMsg>> {
        Box::pin(async {
            Err(crate::server::handle::refused(
                crate::protocol::online::Refusal::NoSuchChallenge,
                "this challenge is gone (taken, cancelled, or its creator left)",
            ))
        })
    }

    fn stop<'a>(
        &'a self,
        local: &'a dyn Local,
        stop_accepting: Box<dyn FnOnce() + Send + 'a>,
    ) -> Pending<'a, ()> {
        Box::pin(async move {
            stop_accepting();
            for (_, tx) in local.listed() {
                let (done, finished) = oneshot::channel();
                if tx.send(RoomCmd::Shutdown { done }).await.is_ok() {
                    let _ = finished.await;
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::players::pairing::Seeker;

    fn seeking(player: &str, rating: u32, since_ms: u64) -> Seeking {
        Seeking {
            player: player.into(),
            seeker: Seeker {
                rating,
                provisional: false,
                since_ms,
                widen_every_ms: 1_000,
            },
        }
    }

    #[test]
    fn ripe_pairs_the_oldest_that_suit_never_a_player_with_themselves() {
        let ann = seeking("ann", 1500, 0);
        let ann_again = seeking("ann", 1500, 100);
        let far = seeking("bob", 2000, 200);
        let cy = seeking("cy", 1550, 300);
        let dee = seeking("dee", 1560, 400);
        let waiting = [
            Some(&ann),
            Some(&ann_again),
            None,
            Some(&far),
            Some(&cy),
            Some(&dee),
        ];
        // At once: ann with cy (not herself, not the far one), then
        // ann's other connection with dee.
        assert_eq!(ripe(&waiting, 400), vec![(0, 4), (1, 5)]);
        // Nobody suits the far one until both ranges reach 500.
        let two = [Some(&ann), Some(&far)];
        assert_eq!(ripe(&two, 3_000), vec![]);
        assert_eq!(ripe(&two, 4_200), vec![(0, 1)]);
        assert_eq!(ripe(&[Some(&ann), Some(&ann_again)], u64::MAX), vec![]);
    }
}
