//! The lobby (issue 37): open challenges and live games to watch, sent
//! to every connection that follows it (`lobby`) as a whole `lobby`
//! message on every change.
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
//! each room reports when its game starts and when it ends or leaves
//! memory (`plies` is the count when it was listed, not kept up move by
//! move, so a move does not resend the lobby to everyone).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Mutex, MutexGuard};

use axum::extract::ws::Utf8Bytes;

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
    /// When posted (a counter: newest last).
    pub seq: u64,
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

#[derive(Default)]
struct Inner {
    challenges: Vec<Challenge>,
    /// Connections following the lobby.
    watchers: HashMap<u64, ConnHandle>,
    /// Live games by room code, with when they were listed.
    games: HashMap<String, (u64, LiveGame)>,
    seq: u64,
}

/// The lobby of one server.
#[derive(Default)]
pub struct Lobby {
    inner: Mutex<Inner>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Inner {
    fn message(&self) -> ServerMsg {
        let mut challenges: Vec<&Challenge> = self.challenges.iter().collect();
        challenges.sort_by_key(|c| std::cmp::Reverse(c.seq));
        let mut games: Vec<&(u64, LiveGame)> = self.games.values().collect();
        games.sort_by_key(|(seq, g)| (std::cmp::Reverse(*seq), g.room.clone()));
        ServerMsg::Lobby {
            challenges: challenges
                .into_iter()
                .take(SHOWN)
                .map(|c| ChallengeInfo {
                    id: c.id.clone(),
                    game: c.game,
                    clock_secs: c.clock_secs,
                    rated: c.rated,
                    by: c.by.clone(),
                })
                .collect(),
            games: games
                .into_iter()
                .take(SHOWN)
                .map(|(_, g)| g.clone())
                .collect(),
        }
    }

    /// Sends the lobby to every follower; those that cannot take it stop
    /// following.
    fn tell(&mut self) {
        if self.watchers.is_empty() {
            return;
        }
        let text: Utf8Bytes = self.message().to_json().into();
        self.watchers.retain(|_, w| w.send_text(text.clone()));
    }
}

impl Lobby {
    /// `conn` follows the lobby: sent it now and on every change.
    pub fn watch(&self, conn: &ConnHandle) {
        let mut inner = lock(&self.inner);
        inner.watchers.insert(conn.id, conn.clone());
        conn.send(&inner.message());
    }

    /// `conn` stops following the lobby.
    pub fn unwatch(&self, conn: u64) {
        lock(&self.inner).watchers.remove(&conn);
    }

    /// Posts a challenge (its `seq` is set here).
    pub fn post(&self, mut challenge: Challenge) -> Result<(), PostError> {
        let mut inner = lock(&self.inner);
        let c = &inner.challenges;
        if c.iter().any(|x| x.conn.id == challenge.conn.id) {
            return Err(PostError::AlreadyPosted);
        }
        let by_player = c.iter().filter(|x| x.by.id == challenge.by.id).count();
        let by_addr = c.iter().filter(|x| x.addr == challenge.addr).count();
        if by_player >= PER_PLAYER || by_addr >= PER_ADDRESS {
            return Err(PostError::TooMany);
        }
        if c.len() >= MAX_CHALLENGES {
            return Err(PostError::Full);
        }
        inner.seq += 1;
        challenge.seq = inner.seq;
        inner.challenges.push(challenge);
        inner.tell();
        Ok(())
    }

    /// Removes the challenge of connection `conn`; whether there was one.
    pub fn cancel(&self, conn: u64) -> bool {
        let mut inner = lock(&self.inner);
        let before = inner.challenges.len();
        inner.challenges.retain(|c| c.conn.id != conn);
        let gone = inner.challenges.len() != before;
        if gone {
            inner.tell();
        }
        gone
    }

    /// The challenge `id`, if it is open.
    pub fn get(&self, id: &str) -> Option<Challenge> {
        lock(&self.inner)
            .challenges
            .iter()
            .find(|c| c.id == id)
            .cloned()
    }

    /// Takes challenge `id` out of the lobby (once: a second taker finds
    /// it gone). A challenge whose creator's connection is gone is
    /// dropped and not returned.
    pub fn take(&self, id: &str) -> Option<Challenge> {
        let mut inner = lock(&self.inner);
        let i = inner.challenges.iter().position(|c| c.id == id)?;
        let c = inner.challenges.remove(i);
        inner.tell();
        c.conn.alive().then_some(c)
    }

    /// Puts a taken challenge back (its room could not be made).
    pub fn put_back(&self, challenge: Challenge) {
        let mut inner = lock(&self.inner);
        if challenge.conn.alive() && inner.challenges.len() < MAX_CHALLENGES {
            inner.challenges.push(challenge);
            inner.tell();
        }
    }

    /// A room's game started (`Some`) or ended or left memory (`None`).
    pub fn live_game(&self, room: &str, game: Option<LiveGame>) {
        let mut inner = lock(&self.inner);
        let changed = match game {
            Some(g) => {
                inner.seq += 1;
                let seq = inner.seq;
                inner.games.insert(room.to_string(), (seq, g));
                true
            }
            None => inner.games.remove(room).is_some(),
        };
        if changed {
            inner.tell();
        }
    }

    /// Open challenges (for tests and the bench).
    pub fn challenges(&self) -> usize {
        lock(&self.inner).challenges.len()
    }
}
