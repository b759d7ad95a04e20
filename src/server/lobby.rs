//! The lobby (issue 37): open challenges and live games to watch, sent
//! to every connection that follows it (`lobby`) as a whole `lobby`
//! message: at once when it starts following, then after changes, which
//! are gathered. A new, taken or cancelled challenge, a game that starts
//! or ends, another node's listing that changes what is shown: all go
//! out within [`GATHER`] of the first of them, as one message to each
//! follower whatever their number. A change of a live game's move count
//! alone goes out at most once every [`COUNT_EVERY`] (with whatever else
//! changed). A burst of posts is thus one `lobby` per follower, not one
//! per post, and moves do not resend the lobby per move.
//!
//! A challenge lives in memory with the connection that posted it: it
//! goes when taken, cancelled, or when that connection goes (or enters a
//! room). Bounds: one challenge per connection,
//! [`PER_PLAYER`] per identity, [`PER_ADDRESS`] per client address
//! (`too_many`) and [`MAX_CHALLENGES`] in all (`full`). The list sent
//! holds at most [`SHOWN`] challenges and [`SHOWN`] games (the newest), so
//! a `lobby` message stays well under the page's limits.
//!
//! Live games are the rooms this server referees while they are played:
//! each room reports when its game starts, its move count after each
//! move (in memory: [`Lobby::live_game`] with the same game and a new
//! `plies`), and when it ends or leaves memory. Followers see the count
//! within about [`COUNT_EVERY`] (within about two on another cluster
//! node, whose listing of it is renewed every `BEAT`).
//!
//! **Across cluster nodes** (feature `cluster`, `super::cluster::lobby`):
//! each node keeps its own challenges and games here, as above, and
//! shares a [`Listing`] of them (the newest [`SHOWN`] of each, and how
//! many challenges each identity and address holds) on the bus whenever
//! they change and every `BEAT` (1 s) besides (a move count alone does
//! not make a node share its listing: the next beat carries it); each
//! node keeps the other nodes' latest listings ([`Lobby::set_remote`])
//! and sends its followers the union, newest first, gathered as above
//! (a listing that differs only in move counts is a count change). A
//! listing not renewed within the lease time
//! (3 s) is dropped ([`Lobby::expire_remote`]): a crashed node's
//! challenges and games leave every lobby within about 3 s. Taking
//! another node's challenge asks that node over the bus, which takes it
//! here (once: [`Lobby::take`]), makes the room and tells its creator,
//! and answers with the taker's seat. Challenges stay in memory (they die
//! with their creator's connection anyway); nothing about them is in the
//! database. The per-identity and per-address bounds count the other
//! nodes' listings too: they hold across nodes except for posts made on
//! two nodes within the same instant (before either listing has reached
//! the other node, a few ms), which can exceed them by at most the number
//! of nodes times the bound; [`MAX_CHALLENGES`] is per node.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use serde::{Deserialize, Serialize};
use tokio::sync::Notify;
use tokio::time::Instant;

use super::handle::ConnHandle;
use crate::games::any::Variant;
use crate::protocol::online::{ChallengeInfo, LiveGame, PlayerTag, ServerMsg};

/// Open challenges one identity may have at once (one per connection).
pub const PER_PLAYER: usize = 3;
/// Open challenges from one client address at once.
pub const PER_ADDRESS: usize = 10;
/// Open challenges the whole server keeps.
pub const MAX_CHALLENGES: usize = 1000;
/// Challenges and games a `lobby` message lists at most.
pub const SHOWN: usize = 100;
/// Changes within this long of the first go to followers as one `lobby`
/// message (a posted challenge is shown elsewhere within this, plus the
/// bus's ~20 ms gather on another cluster node).
pub const GATHER: Duration = Duration::from_millis(200);
/// A change of live games' move counts alone goes to followers at most
/// this often.
pub const COUNT_EVERY: Duration = Duration::from_secs(1);
/// How long the sender waits for work before it looks whether the lobby
/// is still there (it holds it only weakly between waits).
const IDLE: Duration = Duration::from_secs(5);

/// An open challenge as the server keeps it.
#[derive(Clone, Debug)]
pub struct Challenge {
    pub id: String,
    pub game: Variant,
    pub clock_secs: u32,
    pub rated: bool,
    pub by: PlayerTag,
    /// The connection that posted it (told when it is taken).
    pub conn: ConnHandle,
    pub addr: IpAddr,
    /// When posted (ms since the epoch, made unique and increasing on
    /// this node: newest last, comparable across nodes).
    pub seq: u64,
}

/// What one node lists, as it shares it with the others (over the bus).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Listing {
    /// Its newest challenges (at most [`SHOWN`]), with when posted.
    pub challenges: Vec<(u64, ChallengeInfo)>,
    /// Its newest live games (at most [`SHOWN`]), with when listed.
    pub games: Vec<(u64, LiveGame)>,
    /// How many open challenges each identity has there (all of them).
    pub by_player: Vec<(String, u32)>,
    /// How many open challenges each client address has there.
    pub by_addr: Vec<(String, u32)>,
}

/// Another node's listing, good until `until`.
struct Remote {
    until: Instant,
    listing: Listing,
}

/// Why a challenge could not be posted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PostError {
    /// This connection has one already.
    AlreadyPosted,
    /// Too many from this identity or address.
    TooMany,
    /// The lobby is full.
    Full,
}

/// What changed since followers were last sent the lobby.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    /// What is listed (challenges, games, players): within [`GATHER`].
    Listed,
    /// Move counts only: at most every [`COUNT_EVERY`].
    Counts,
}

#[derive(Default)]
struct Inner {
    challenges: Vec<Challenge>,
    /// Connections following the lobby.
    watchers: HashMap<u64, ConnHandle>,
    /// Live games by room code, with when they were listed.
    games: HashMap<String, (u64, LiveGame)>,
    seq: u64,
    /// Other cluster nodes' listings, by node.
    remote: HashMap<String, Remote>,
    /// When followers are next sent the lobby (`None`: nothing new).
    due: Option<Instant>,
    /// When followers were last sent it (after a change).
    sent: Option<Instant>,
    /// Whether the sender task runs.
    sender: bool,
}

/// The lobby and what wakes its sender.
#[derive(Default)]
struct Shared {
    inner: Mutex<Inner>,
    /// Told when a send is due sooner than the sender waits for.
    wake: Notify,
}

/// The lobby of one server (with the other nodes' listings in a cluster).
#[derive(Default)]
pub struct Lobby {
    shared: Arc<Shared>,
    /// Told when this node's own challenges or games change (a cluster
    /// node then shares its listing).
    changed: Notify,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Inner {
    /// This node's newest challenges and games, and its counts.
    fn listing(&self) -> Listing {
        let mut challenges: Vec<(u64, ChallengeInfo)> =
            self.challenges.iter().map(|c| (c.seq, c.info())).collect();
        newest_first(&mut challenges, |c| &c.id);
        let mut games: Vec<(u64, LiveGame)> = self.games.values().cloned().collect();
        newest_first(&mut games, |g| &g.room);
        let mut by_player: HashMap<String, u32> = HashMap::new();
        let mut by_addr: HashMap<String, u32> = HashMap::new();
        for c in &self.challenges {
            *by_player.entry(c.by.id.clone()).or_default() += 1;
            *by_addr.entry(c.addr.to_string()).or_default() += 1;
        }
        let mut by_player: Vec<(String, u32)> = by_player.into_iter().collect();
        let mut by_addr: Vec<(String, u32)> = by_addr.into_iter().collect();
        by_player.sort();
        by_addr.sort();
        Listing {
            challenges,
            games,
            by_player,
            by_addr,
        }
    }

    /// This node's listing and the other nodes', newest first.
    fn message(&self) -> ServerMsg {
        let own = self.listing();
        let mut challenges = own.challenges;
        let mut games = own.games;
        for r in self.remote.values() {
            challenges.extend(r.listing.challenges.iter().cloned());
            games.extend(r.listing.games.iter().cloned());
        }
        newest_first(&mut challenges, |c| &c.id);
        newest_first(&mut games, |g| &g.room);
        ServerMsg::Lobby {
            challenges: challenges.into_iter().map(|(_, c)| c).collect(),
            games: games.into_iter().map(|(_, g)| g).collect(),
        }
    }

    /// Open challenges of identity `player` and address `addr` on the
    /// other nodes (as their last listings say).
    fn remote_counts(&self, player: &str, addr: &str) -> (usize, usize) {
        let mut counts = (0, 0);
        for r in self.remote.values() {
            let l = &r.listing;
            counts.0 += l
                .by_player
                .iter()
                .find(|(p, _)| p == player)
                .map_or(0, |x| x.1) as usize;
            counts.1 += l.by_addr.iter().find(|(a, _)| a == addr).map_or(0, |x| x.1) as usize;
        }
        counts
    }

    /// The next `seq`: now in ms, after the last one.
    fn next_seq(&mut self) -> u64 {
        self.seq = (self.seq + 1).max(crate::server::store::now_ms());
        self.seq
    }

    /// Sends the lobby to every follower; those that cannot take it stop
    /// following.
    fn tell(&mut self) {
        self.due = None;
        if self.watchers.is_empty() {
            return;
        }
        self.sent = Some(Instant::now());
        let text: Utf8Bytes = self.message().to_json().into();
        self.watchers.retain(|_, w| w.send_text(text.clone()));
    }

    /// Notes a change for the followers: when they are to be sent it, and
    /// whether that is sooner than before (the sender must be woken).
    fn note(&mut self, change: Change) -> bool {
        if self.watchers.is_empty() {
            return false;
        }
        let now = Instant::now();
        let at = match change {
            Change::Listed => now + GATHER,
            Change::Counts => (now + GATHER).max(self.sent.map_or(now, |s| s + COUNT_EVERY)),
        };
        match self.due {
            Some(due) if due <= at => false,
            _ => {
                self.due = Some(at);
                true
            }
        }
    }
}

/// Whether two listings list the same but for live games' move counts.
fn same_but_counts(a: &Listing, b: &Listing) -> bool {
    a.challenges == b.challenges
        && a.by_player == b.by_player
        && a.by_addr == b.by_addr
        && a.games.len() == b.games.len()
        && a.games.iter().zip(&b.games).all(|((sa, ga), (sb, gb))| {
            sa == sb
                && LiveGame {
                    plies: 0,
                    ..ga.clone()
                } == LiveGame {
                    plies: 0,
                    ..gb.clone()
                }
        })
}

/// Sends the lobby to its followers when due, until the lobby is gone.
async fn send_when_due(shared: Weak<Shared>) {
    loop {
        let Some(s) = shared.upgrade() else { return };
        let due = lock(&s.inner).due;
        match due {
            Some(at) if at <= Instant::now() => lock(&s.inner).tell(),
            Some(at) => {
                tokio::select! {
                    _ = tokio::time::sleep_until(at) => {}
                    _ = s.wake.notified() => {}
                }
            }
            None => {
                let _ = tokio::time::timeout(IDLE, s.wake.notified()).await;
            }
        }
    }
}

/// Sorts newest first (ties by key, so every node lists the same
/// order) and keeps [`SHOWN`].
fn newest_first<T>(list: &mut Vec<(u64, T)>, key: impl Fn(&T) -> &String) {
    list.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| key(&a.1).cmp(key(&b.1))));
    list.truncate(SHOWN);
}

impl Challenge {
    /// As the lobby lists it.
    pub fn info(&self) -> ChallengeInfo {
        ChallengeInfo {
            id: self.id.clone(),
            game: self.game,
            clock_secs: self.clock_secs,
            rated: self.rated,
            by: self.by.clone(),
        }
    }
}

impl Lobby {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        lock(&self.shared.inner)
    }

    /// Notes a change for the followers and sees that the sender runs
    /// (without a runtime, as in some unit tests, they are told at once).
    fn note(&self, inner: &mut Inner, change: Change) {
        if !inner.note(change) {
            return;
        }
        if !inner.sender {
            let Ok(rt) = tokio::runtime::Handle::try_current() else {
                inner.tell();
                return;
            };
            inner.sender = true;
            rt.spawn(send_when_due(Arc::downgrade(&self.shared)));
        }
        self.shared.wake.notify_one();
    }

    /// Waits until this node's own challenges or games change.
    pub async fn changed(&self) {
        self.changed.notified().await;
    }

    /// This node's listing, to share with the other nodes.
    pub fn listing(&self) -> Listing {
        self.lock().listing()
    }

    /// Another node's listing, good for `ttl` unless renewed; its
    /// followers are told when it changes what they see.
    pub fn set_remote(&self, node: &str, listing: Listing, ttl: Duration) {
        let mut inner = self.lock();
        let until = Instant::now() + ttl;
        let change = match inner.remote.get(node) {
            Some(r) if r.listing == listing => None,
            Some(r) if same_but_counts(&r.listing, &listing) => Some(Change::Counts),
            _ => Some(Change::Listed),
        };
        if listing == Listing::default() {
            if inner.remote.remove(node).is_some() {
                self.note(&mut inner, Change::Listed);
            }
            return;
        }
        inner
            .remote
            .insert(node.to_string(), Remote { until, listing });
        if let Some(change) = change {
            self.note(&mut inner, change);
        }
    }

    /// Drops the other nodes' listings not renewed in time (a node that
    /// died or lost the bus).
    pub fn expire_remote(&self) {
        let mut inner = self.lock();
        let now = Instant::now();
        let before = inner.remote.len();
        inner.remote.retain(|_, r| r.until > now);
        if inner.remote.len() != before {
            self.note(&mut inner, Change::Listed);
        }
    }

    /// Drops every other node's listing (the bus is lost).
    pub fn forget_remote(&self) {
        let mut inner = self.lock();
        if !inner.remote.is_empty() {
            inner.remote.clear();
            self.note(&mut inner, Change::Listed);
        }
    }

    /// Another node's challenge `id`: that node and the challenge.
    pub fn remote(&self, id: &str) -> Option<(String, ChallengeInfo)> {
        let inner = self.lock();
        inner.remote.iter().find_map(|(node, r)| {
            r.listing
                .challenges
                .iter()
                .find(|(_, c)| c.id == id)
                .map(|(_, c)| (node.clone(), c.clone()))
        })
    }

    /// `conn` follows the lobby: sent it now and after changes (gathered).
    pub fn watch(&self, conn: &ConnHandle) {
        let mut inner = self.lock();
        inner.watchers.insert(conn.id, conn.clone());
        conn.send(&inner.message());
    }

    /// `conn` stops following the lobby.
    pub fn unwatch(&self, conn: u64) {
        self.lock().watchers.remove(&conn);
    }

    /// Posts a challenge (its `seq` is set here).
    pub fn post(&self, mut challenge: Challenge) -> Result<(), PostError> {
        let mut inner = self.lock();
        let c = &inner.challenges;
        if c.iter().any(|x| x.conn.id == challenge.conn.id) {
            return Err(PostError::AlreadyPosted);
        }
        let (elsewhere_player, elsewhere_addr) =
            inner.remote_counts(&challenge.by.id, &challenge.addr.to_string());
        let by_player = c.iter().filter(|x| x.by.id == challenge.by.id).count() + elsewhere_player;
        let by_addr = c.iter().filter(|x| x.addr == challenge.addr).count() + elsewhere_addr;
        if by_player >= PER_PLAYER || by_addr >= PER_ADDRESS {
            return Err(PostError::TooMany);
        }
        if c.len() >= MAX_CHALLENGES {
            return Err(PostError::Full);
        }
        challenge.seq = inner.next_seq();
        inner.challenges.push(challenge);
        self.note(&mut inner, Change::Listed);
        self.changed.notify_one();
        Ok(())
    }

    /// Removes the challenge of connection `conn`; whether there was one.
    pub fn cancel(&self, conn: u64) -> bool {
        let mut inner = self.lock();
        let before = inner.challenges.len();
        inner.challenges.retain(|c| c.conn.id != conn);
        let gone = inner.challenges.len() != before;
        if gone {
            self.note(&mut inner, Change::Listed);
            self.changed.notify_one();
        }
        gone
    }

    /// The challenge `id`, if it is open.
    pub fn get(&self, id: &str) -> Option<Challenge> {
        self.lock().challenges.iter().find(|c| c.id == id).cloned()
    }

    /// Takes challenge `id` out of the lobby (once: a second taker finds
    /// it gone). A challenge whose creator's connection is gone is
    /// dropped and not returned.
    pub fn take(&self, id: &str) -> Option<Challenge> {
        let mut inner = self.lock();
        let i = inner.challenges.iter().position(|c| c.id == id)?;
        let c = inner.challenges.remove(i);
        self.note(&mut inner, Change::Listed);
        self.changed.notify_one();
        c.conn.alive().then_some(c)
    }

    /// Puts a taken challenge back (its room could not be made).
    pub fn put_back(&self, challenge: Challenge) {
        let mut inner = self.lock();
        if challenge.conn.alive() && inner.challenges.len() < MAX_CHALLENGES {
            inner.challenges.push(challenge);
            self.note(&mut inner, Change::Listed);
            self.changed.notify_one();
        }
    }

    /// A room's game started or its players changed (`Some`), its move
    /// count changed (`Some`, the same game with a new `plies`: it keeps
    /// its place, followers see it within [`COUNT_EVERY`] and other nodes
    /// at the next beat), or it ended or left memory (`None`).
    pub fn live_game(&self, room: &str, game: Option<LiveGame>) {
        let mut inner = self.lock();
        let change = match game {
            Some(g) => match inner.games.get_mut(room) {
                Some((_, was)) if *was == g => None,
                Some((_, was))
                    if LiveGame {
                        plies: was.plies,
                        ..g.clone()
                    } == *was =>
                {
                    was.plies = g.plies;
                    Some(Change::Counts)
                }
                _ => {
                    let seq = inner.next_seq();
                    inner.games.insert(room.to_string(), (seq, g));
                    Some(Change::Listed)
                }
            },
            None => inner.games.remove(room).map(|_| Change::Listed),
        };
        match change {
            None => {}
            Some(Change::Counts) => self.note(&mut inner, Change::Counts),
            Some(Change::Listed) => {
                self.note(&mut inner, Change::Listed);
                self.changed.notify_one();
            }
        }
    }

    /// Open challenges (for tests and the bench).
    pub fn challenges(&self) -> usize {
        self.lock().challenges.len()
    }
}
