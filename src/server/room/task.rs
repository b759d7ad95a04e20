//! A room's task: it owns the room's [`Table`] (the game, the clock and
//! the pause timer), applies what the players do in order, stores every
//! change and then sends the new state to everyone in the room
//! (`members.rs` says what is sent).
//!
//! Clock: while the game is playing, `deadline` is when the side to move
//! runs out; otherwise `meta.remaining_ms` holds the time left. Saving
//! writes the time left at that moment (and, while a clock runs, when);
//! loading starts the clock again from it, less the time the server that
//! saved it ran after the save (see [`super::store::Stored::ran_until_ms`]):
//! the time the server was down is charged to no one, and a verdict the
//! clock reached before a crash is reached again at once, never a fresh
//! clock.
//!
//! Verdicts the room reaches by itself (a timeout, the end of a pause, an
//! invite nobody took) are stored before anyone hears of them, like the
//! players' actions (issue 33: a timeout announced while the store failed
//! was undone when the finished room left memory, and the store still
//! said "playing"). While one cannot be stored the room stays in memory
//! and tries again every [`RETRY`]; meanwhile the players' actions are
//! refused with [`NOT_STORED`] (the clock shows 0), so nothing is
//! announced that the store does not have. Timers are read through an
//! injected `now` ([`Table::due`], [`Table::apply`]): the tests hit a
//! deadline to the nanosecond.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

use super::host::{Attach, Host, RoomCmd, Settings};
use super::table::{ms, Action, Refused, Rules, Snapshot, Table};
use crate::protocol::online::{ErrorCode, Event, PlayerTag, Refusal, ServerMsg, Status};
use crate::server::handle::{refused, ConnHandle};
use crate::server::ids;
use crate::server::players::{self, FinishedGame};
use crate::server::store::{now_ms, Answer, Query, Stored, PLY_TAKEN};

/// How often a verdict that could not be stored is tried again.
pub const RETRY: Duration = Duration::from_millis(500);

/// A connection in the room.
pub(super) struct Member {
    pub(super) conn: ConnHandle,
    /// The player (0 or 1) this connection sits for; `None` watches.
    pub(super) player: Option<usize>,
    /// The game and how many of its moves this member has been sent: the
    /// next change sends only the moves after these (an `update`).
    pub(super) game_no: u32,
    pub(super) known: usize,
}

pub(super) struct Room {
    hub: Arc<dyn Host>,
    settings: Settings,
    instance: u64,
    pub(super) code: String,
    /// The game and its timers: the room's rules.
    pub(super) table: Table,
    /// How many of the table's moves are in the store.
    saved_moves: usize,
    /// When a room still waiting for the friend is deleted.
    expires: Instant,
    /// A verdict that is due could not be stored: tried again then.
    retry_at: Option<Instant>,
    /// Loaded from the store already finished: stays in memory for
    /// `finished_linger` after its last member leaves.
    lingers: bool,
    /// When the last member left (or the room was loaded).
    pub(super) last_left: Instant,
    /// Loaded with a clock saved running: saved again at once, so a crash
    /// of this server charges it from now, not from that older save.
    resave: bool,
    pub(super) members: Vec<Member>,
    /// Who sits in each seat (by player), as chips show them: read from
    /// the players' tables for the identities in `meta.players`
    /// (`tags_for`), and given the new ratings once a game counts.
    pub(super) tags: [Option<PlayerTag>; 2],
    tags_for: [Option<String>; 2],
    /// The game number of the last game recorded with its result: a game
    /// is recorded once, in the save that stores its result.
    recorded: Option<u32>,
    /// Once a rated game counted: its number and each side's rating before.
    pub(super) rated_before: Option<(u32, [u32; 2])>,
    /// Listed in the lobby's live games (as the hub was last told), and
    /// the move count it was last told.
    listed: bool,
    listed_plies: usize,
}

/// The room before an action: a write that fails puts it back, so what
/// the players are shown is always what is stored.
struct Before {
    table: Snapshot,
    saved_moves: usize,
}

/// What a player is told when their action could not be stored.
pub const NOT_STORED: &str =
    "the server cannot store games right now, so this was not done: try again in a while";

fn no(code: Refusal, reason: &str) -> Refused {
    Refused::rule(code, reason)
}

fn not_stored() -> ServerMsg {
    ServerMsg::Error {
        code: ErrorCode::Server,
        message: NOT_STORED.into(),
    }
}

/// Starts the task of a stored room.
pub fn spawn(
    hub: Arc<dyn Host>,
    instance: u64,
    stored: Stored,
) -> Result<mpsc::Sender<RoomCmd>, String> {
    let room = Room::new(hub, instance, stored, Instant::now(), now_ms())?;
    let (tx, rx) = mpsc::channel(256);
    tokio::spawn(room.run(rx));
    Ok(tx)
}

impl Room {
    /// A stored room with its timers set as of `now` (`wall_ms` is the
    /// same moment on the wall clock). A clock saved while running is
    /// charged the time its server ran after the save, not the downtime.
    pub(super) fn new(
        hub: Arc<dyn Host>,
        instance: u64,
        stored: Stored,
        now: Instant,
        wall_ms: u64,
    ) -> Result<Room, String> {
        let Stored {
            code,
            mut meta,
            moves,
            ran_until_ms,
        } = stored;
        // A room stored before tokens were sealed is sealed at its next write.
        for t in meta.tokens.iter_mut().flatten() {
            *t = ids::seal(t);
        }
        let settings = hub.settings();
        let expires_ms = meta
            .created_ms
            .saturating_add(ms(settings.waiting_ttl))
            .saturating_sub(wall_ms);
        let lingers = meta.outcome.is_some();
        let recorded = meta.outcome.is_some().then_some(meta.game_no);
        let resave = meta.clock_saved_ms.is_some() && meta.outcome.is_none();
        let rules = Rules {
            auto_resume: settings.auto_resume,
            pauses_per_player: settings.pauses_per_player,
        };
        let table = Table::resume(meta, moves, rules, (now, wall_ms), ran_until_ms)
            .map_err(|e| format!("room {code} cannot be replayed: {e}"))?;
        Ok(Room {
            expires: now + Duration::from_millis(expires_ms),
            hub,
            settings,
            instance,
            code,
            saved_moves: table.moves.len(),
            table,
            lingers,
            resave,
            retry_at: None,
            last_left: now,
            members: Vec::new(),
            tags: [None, None],
            tags_for: [None, None],
            recorded,
            rated_before: None,
            listed: false,
            listed_plies: 0,
        })
    }

    /// Tells the lobby whether this room's game is being played (and who
    /// plays it, and how many moves it has): when that changed, or
    /// `always` (the players changed). A move count is a cheap report
    /// the lobby gathers (it does not resend itself per move).
    pub(super) fn sync_listed(&mut self, always: bool) {
        let live = matches!(self.status(), Status::Playing | Status::Paused);
        let moved = live && self.listed_plies != self.table.moves.len();
        if live == self.listed && !(always && live) && !moved {
            return;
        }
        self.listed = live;
        self.listed_plies = self.table.moves.len();
        let game = live.then(|| {
            let mut players = [None, None];
            for p in 0..2 {
                players[self.table.side_of(p).index()] = self.tags[p].clone();
            }
            crate::protocol::online::LiveGame {
                room: self.code.clone(),
                game: self.table.meta.spec,
                players,
                rated: self.table.meta.rated,
                plies: self.table.moves.len() as u32,
            }
        });
        self.hub.live_game(&self.code, game);
    }

    /// Reads the seats' tags when their identities changed (a player sat
    /// down, the room was loaded). A failed read leaves them as they were
    /// (the chips then show no name); it is tried again at the next entry.
    async fn ensure_tags(&mut self) {
        if self.tags_for == self.table.meta.players {
            return;
        }
        let ids = self.table.meta.players.clone();
        let game = players::rated_kind(&self.table.meta.spec);
        match self
            .hub
            .store()
            .query(Query::Tags {
                ids: ids.clone(),
                game,
            })
            .await
        {
            Ok(Ok(Answer::Tags(tags))) => {
                self.tags = tags;
                self.tags_for = ids;
            }
            Ok(Ok(Answer::Msg(_) | Answer::Before(_))) => {}
            Ok(Err(e)) => eprintln!("server: room {}: players not read: {e}", self.code),
            Err(e) => eprintln!("server: room {}: players not read: {e}", self.code),
        }
    }

    /// A room loaded with its rated game already counted (after a
    /// restart, or on another cluster node) reads each side's rating
    /// before the game from the store, so `state.rated_before` is sent as
    /// it was before the restart. A failed read leaves it out (the chips
    /// then show the ratings without the change).
    async fn load_rated_before(&mut self) {
        let game_no = self.table.meta.game_no;
        if !self.table.meta.rated
            || self.recorded != Some(game_no)
            || self.rated_before.is_some_and(|(no, _)| no == game_no)
        {
            return;
        }
        let q = Query::RatedBefore {
            room: self.code.clone(),
            game_no,
        };
        match self.hub.store().query(q).await {
            Ok(Ok(Answer::Before(Some(before)))) => {
                self.rated_before = Some((game_no, before));
            }
            Ok(Ok(_)) => {}
            Ok(Err(e)) => eprintln!("server: room {}: ratings not read: {e}", self.code),
            Err(e) => eprintln!("server: room {}: ratings not read: {e}", self.code),
        }
    }

    /// The player (0 or 1) sitting on `side` in the current game.
    fn player_on(&self, side: crate::games::Side) -> usize {
        usize::from(self.table.side_of(0) != side)
    }

    /// The current game, finished and not yet recorded, as the store
    /// records it (the result is the table's own: no client message
    /// carries one).
    fn finished_game(&self, wall_ms: u64) -> Option<FinishedGame> {
        let meta = &self.table.meta;
        let outcome = meta.outcome?;
        if self.recorded == Some(meta.game_no) {
            return None;
        }
        let by_side = |side| meta.players[self.player_on(side)].clone();
        Some(FinishedGame {
            room: self.code.clone(),
            game_no: meta.game_no,
            spec: meta.spec,
            start: meta.start.clone(),
            plies: self.table.moves.len() as u32,
            players: [
                by_side(crate::games::Side::First),
                by_side(crate::games::Side::Second),
            ],
            outcome,
            rated: meta.rated,
            moved: meta.moved,
            clock_ms: meta.clock_ms,
            finished_ms: wall_ms,
        })
    }

    fn status(&self) -> Status {
        self.table.status()
    }

    /// Stores the room (meta and new moves) with its clock as it is at
    /// `now`: running (with the time of the save), or stopped when
    /// `stopping` (a clean stop: the downtime is then charged to no one).
    /// An error means nothing of it may be announced (see [`Before`]).
    async fn save(&mut self, now: Instant, stopping: bool) -> Result<(), String> {
        self.table.meta.remaining_ms = self.table.remaining(now);
        self.table.meta.pause_left_ms = self
            .table
            .pause_until
            .map_or(0, |t| ms(t.saturating_duration_since(now)));
        let running = self.table.running();
        self.table.meta.clock_saved_ms = (running && !stopping).then(now_ms);
        let new_moves = self.table.moves[self.saved_moves..]
            .iter()
            .enumerate()
            .map(|(i, m)| ((self.saved_moves + i) as u32, m.clone()))
            .collect();
        // A game that has just ended is recorded (with the ratings, when
        // it counts) in the same transaction as its result.
        let game = self.finished_game(now_ms());
        let result = self
            .hub
            .store()
            .save_game(&self.code, &self.table.meta, false, new_moves, game.clone())
            .await;
        let counted = match result {
            Ok(counted) => {
                self.hub.storage_result(&self.code, &Ok(()));
                counted
            }
            Err(e) => {
                let failed = Err(e);
                self.hub.storage_result(&self.code, &failed);
                return failed;
            }
        };
        self.saved_moves = self.table.moves.len();
        if let Some(game) = game {
            self.recorded = Some(game.game_no);
        }
        if let Some(counted) = counted {
            use crate::games::Side;
            let shown = |r: f64| players::shown(r) as u32;
            let before = [shown(counted[0].0.rating), shown(counted[1].0.rating)];
            self.rated_before = Some((self.table.meta.game_no, before));
            for side in [Side::First, Side::Second] {
                let after = counted[side.index()].1;
                if let Some(tag) = &mut self.tags[self.player_on(side)] {
                    tag.rating = Some(shown(after.rating));
                    tag.provisional = after.provisional();
                }
            }
        }
        Ok(())
    }

    /// Stores and announces whatever the timers say is due at `now` (a
    /// timeout, the end of a pause). A verdict that cannot be stored is
    /// not announced: the room stays as it was, and tries again after
    /// [`RETRY`]. Returns whether nothing is left pending.
    async fn settle(&mut self, now: Instant) -> bool {
        loop {
            let before = self.snapshot(false);
            let Some(event) = self.table.due(now) else {
                self.retry_at = None;
                return true;
            };
            if self.save(now, false).await.is_err() {
                self.restore(before);
                self.retry_at = Some(Instant::now() + RETRY);
                return false;
            }
            self.broadcast(event);
        }
    }

    /// The store holds another game than this room (a ply already stored
    /// by a write whose answer was lost): the room takes what is stored
    /// and shows it to everyone.
    async fn reload(&mut self, now: Instant) {
        let stored = match self.hub.store().load(&self.code).await {
            Ok(Some(stored)) => stored,
            Ok(None) => return,
            Err(e) => {
                eprintln!("server: room {} could not be reloaded: {e}", self.code);
                return;
            }
        };
        match Room::new(self.hub.clone(), self.instance, stored, now, now_ms()) {
            Ok(fresh) => {
                let members = std::mem::take(&mut self.members);
                *self = Room { members, ..fresh };
                eprintln!("server: room {} reloaded from the store", self.code);
                for m in &mut self.members {
                    m.known = usize::MAX;
                }
                self.broadcast(Event::Sync);
            }
            Err(e) => eprintln!("server: room {} could not be reloaded: {e}", self.code),
        }
    }

    /// What an action may change, to put back when it cannot be stored.
    fn snapshot(&self, rematch: bool) -> Before {
        Before {
            table: self.table.snapshot(rematch),
            saved_moves: self.saved_moves,
        }
    }

    fn restore(&mut self, before: Before) {
        self.table.restore(before.table);
        self.saved_moves = before.saved_moves;
    }

    /// A room nobody joined in time.
    fn expired(&self, now: Instant) -> bool {
        self.status() == Status::Waiting && self.expires <= now
    }

    /// Deletes an expired room (see [`Room::delete`]); whether it is gone
    /// (else the store could not delete it, and it is tried again after
    /// [`RETRY`]).
    async fn expire(&mut self, rx: &mut mpsc::Receiver<RoomCmd>) -> bool {
        let hours = self.settings.waiting_ttl.as_secs_f64() / 3600.0;
        let why = format!("this invite expired: nobody joined within {hours} hours");
        let gone = self.delete(rx, why).await;
        if !gone {
            self.retry_at = Some(Instant::now() + RETRY);
        }
        gone
    }

    /// Whether `conn` may withdraw the invite: its creator, while the
    /// room waits for the friend. Anyone else is told why not, with the
    /// state (as every refusal brings).
    fn may_cancel(&mut self, conn: u64) -> bool {
        let Some(member) = self.members.iter().find(|m| m.conn.id == conn) else {
            return false;
        };
        let why = match (member.player, self.status()) {
            (None, _) => no(Refusal::Spectator, "only the creator can cancel the invite"),
            (Some(0), Status::Waiting) => return true,
            (_, Status::Over) => no(Refusal::GameOver, "the game is over"),
            _ => no(
                Refusal::RoomFull,
                "your friend has joined: the invite is taken",
            ),
        };
        member.conn.send(&why.message());
        self.send_full(conn, Event::Sync, Instant::now());
        false
    }

    /// Deletes a room that waits for its friend (expired or withdrawn):
    /// from the store first, then from memory, and its members are told
    /// `why`. Commands still queued are answered as for a room that does
    /// not exist. `false`: the store could not delete it, and nothing
    /// changed.
    async fn delete(&mut self, rx: &mut mpsc::Receiver<RoomCmd>, why: String) -> bool {
        if let Err(e) = self
            .hub
            .store()
            .expire_waiting(now_ms().saturating_add(1), Some(&self.code))
            .await
        {
            eprintln!(
                "server: room {} ({why}) cannot be deleted from the store yet: {e}",
                self.code
            );
            return false;
        }
        self.tell_others(0, &refused(Refusal::NoSuchRoom, why.clone()));
        self.members.clear();
        rx.close();
        while let Ok(cmd) = rx.try_recv() {
            match cmd {
                RoomCmd::Attach { done, .. } => {
                    let _ = done.send(Err(refused(Refusal::NoSuchRoom, why.clone())));
                }
                RoomCmd::Shutdown { done } | RoomCmd::Handover { done } => {
                    let _ = done.send(());
                }
                RoomCmd::Detach { .. } | RoomCmd::Act { .. } => {}
            }
        }
        self.hub.retire(&self.code, self.instance, rx);
        true
    }

    /// When the room leaves memory, if nobody is in it and its clock does
    /// not run: at once, or `finished_linger` after the last member left
    /// for a finished room that was loaded from the store.
    fn leaves_at(&self) -> Option<Instant> {
        if !self.members.is_empty() {
            return None;
        }
        match self.status() {
            Status::Over if self.lingers => Some(self.last_left + self.settings.finished_linger),
            Status::Over | Status::Waiting => Some(self.last_left),
            Status::Playing | Status::Paused => None,
        }
    }

    async fn run(mut self, mut rx: mpsc::Receiver<RoomCmd>) {
        self.serve(&mut rx).await;
        if self.listed {
            self.hub.live_game(&self.code, None);
        }
    }

    async fn serve(&mut self, rx: &mut mpsc::Receiver<RoomCmd>) {
        self.ensure_tags().await;
        self.load_rated_before().await;
        self.sync_listed(false);
        if std::mem::take(&mut self.resave)
            && self.settle(Instant::now()).await
            && self.table.running()
        {
            let _ = self.save(Instant::now(), false).await;
        }
        loop {
            let expiry = (self.status() == Status::Waiting).then_some(self.expires);
            let linger = self.leaves_at().filter(|_| self.lingers);
            let wake = [self.table.deadline, self.table.pause_until, expiry, linger]
                .into_iter()
                .flatten()
                .min()
                // A verdict that could not be stored waits for its retry.
                .map(|t| self.retry_at.map_or(t, |r| t.max(r)));
            let timer = async {
                match wake {
                    Some(t) => tokio::time::sleep_until(t).await,
                    None => std::future::pending().await,
                }
            };
            let (cmd, woken) = tokio::select! {
                cmd = rx.recv() => (cmd, false),
                () = timer => (None, true),
            };
            if !woken && cmd.is_none() {
                break;
            }
            let mut cmd = cmd;
            if self.expired(Instant::now()) {
                if let Some(RoomCmd::Attach { done, .. }) = cmd {
                    let _ = done.send(Err(refused(
                        Refusal::NoSuchRoom,
                        "this invite expired: nobody joined in time",
                    )));
                    cmd = None;
                }
                if self.expire(rx).await {
                    return;
                }
            }
            match cmd {
                // Stored before it is announced; retried if it cannot be.
                None => {
                    self.settle(Instant::now()).await;
                }
                Some(RoomCmd::Attach { conn, how, done }) => {
                    let result = self.attach(conn, how).await;
                    let _ = done.send(result);
                }
                Some(RoomCmd::Detach { conn }) => self.detach(conn),
                Some(RoomCmd::Act {
                    conn,
                    action: Action::CancelInvite,
                }) => {
                    // Deleted from the store first: a server that cannot
                    // store refuses, and the invite stands.
                    if self.may_cancel(conn) {
                        let why = "the invite was cancelled by its creator".to_string();
                        if self.delete(rx, why).await {
                            return;
                        }
                        if let Some(m) = self.members.iter().find(|m| m.conn.id == conn) {
                            m.conn.send(&not_stored());
                        }
                        self.send_full(conn, Event::Sync, Instant::now());
                    }
                }
                Some(RoomCmd::Act { conn, action }) => self.act(conn, action).await,
                Some(RoomCmd::Shutdown { done }) => {
                    self.stop().await;
                    let _ = done.send(());
                    return;
                }
                Some(RoomCmd::Handover { done }) => {
                    self.stop().await;
                    for m in &self.members {
                        m.conn
                            .close_to_reconnect("the game moves to another server node");
                    }
                    let _ = done.send(());
                    return;
                }
            }
            // A room nobody is in and whose clock does not run (finished,
            // or waiting for the friend) leaves memory; it stays stored and
            // is loaded again when someone asks for it.
            if self.leaves_at().is_some_and(|t| t <= Instant::now())
                && self.hub.retire(&self.code, self.instance, rx)
            {
                return;
            }
        }
    }

    /// A clean stop: what is due is stored, then the clock, stopped (the
    /// downtime is charged to no one). If storing fails the clock stays
    /// as last stored, running: the next start charges it the time this
    /// server still ran (its heartbeat), so a verdict due is reached then.
    async fn stop(&mut self) {
        let now = Instant::now();
        if self.settle(now).await {
            let _ = self.save(now, true).await;
        } else {
            eprintln!(
                "server: room {}: its clock's verdict could not be stored before stopping; the next start reaches it again",
                self.code
            );
        }
    }

    async fn attach(&mut self, conn: ConnHandle, how: Attach) -> Result<(), ServerMsg> {
        let now = Instant::now();
        // A timeout that is due happens before anyone looks (if it can be
        // stored; else the clock shows 0 until it is).
        self.settle(now).await;
        self.ensure_tags().await;
        let refuse = |r: Refused| r.message();
        match how {
            Attach::Watch => {
                let watching = self.members.iter().filter(|m| m.player.is_none()).count();
                if watching >= self.settings.max_spectators {
                    return Err(refuse(no(Refusal::Full, "too many spectators")));
                }
                self.members.push(Member {
                    conn: conn.clone(),
                    player: None,
                    game_no: self.table.meta.game_no,
                    known: self.table.moves.len(),
                });
                conn.send(&self.state_msg(None, Event::Sync, now));
                Ok(())
            }
            Attach::Token(token, event, who) => {
                let player = (0..2).find(|&p| {
                    self.table.meta.tokens[p]
                        .as_deref()
                        .is_some_and(|t| ids::token_matches(t, &token))
                });
                let Some(player) = player else {
                    return Err(refuse(no(
                        Refusal::BadToken,
                        "this token holds no seat in this room",
                    )));
                };
                // A seat without an identity takes the one of the player
                // who sits down with its token (a quick match's seats).
                let mut named = false;
                if let Some(who) = who.filter(|_| {
                    self.table.meta.players[player].is_none() && self.table.meta.outcome.is_none()
                }) {
                    let other = &self.table.meta.players[1 - player];
                    if !(self.table.meta.rated && other.as_deref() == Some(who.as_str())) {
                        let before = self.snapshot(false);
                        self.table.meta.players[player] = Some(who);
                        if self.save(now, false).await.is_err() {
                            self.restore(before);
                        } else {
                            named = true;
                        }
                        self.ensure_tags().await;
                    }
                }
                let side = self.table.side_of(player);
                let was_connected = self.connected(side);
                self.members.push(Member {
                    conn: conn.clone(),
                    player: Some(player),
                    game_no: self.table.meta.game_no,
                    known: self.table.moves.len(),
                });
                conn.send(&ServerMsg::Seat {
                    room: self.code.clone(),
                    token,
                    side,
                    join_key: if player == 0 {
                        self.table.meta.join_key.clone()
                    } else {
                        None
                    },
                });
                conn.send(&self.state_msg(Some(side), event, now));
                if named {
                    // The others see who sat down.
                    let others: Vec<u64> = self
                        .members
                        .iter()
                        .map(|m| m.conn.id)
                        .filter(|id| *id != conn.id)
                        .collect();
                    for id in others {
                        self.send_full(id, Event::Sync, now);
                    }
                    self.sync_listed(true);
                }
                if !was_connected {
                    let msg = ServerMsg::Presence {
                        side,
                        connected: true,
                    };
                    self.tell_others(conn.id, &msg);
                }
                Ok(())
            }
            Attach::Join { key, player: who } => {
                let key_ok = self
                    .table
                    .meta
                    .join_key
                    .as_deref()
                    .is_some_and(|k| ids::same_secret(k, key.trim()));
                if self.table.meta.tokens[1].is_some() {
                    return Err(refuse(no(Refusal::RoomFull, "both seats are taken")));
                }
                if !key_ok {
                    return Err(refuse(no(
                        Refusal::BadKey,
                        "the join key is wrong: ask for the invite again",
                    )));
                }
                if self.table.meta.outcome.is_some() {
                    return Err(refuse(no(Refusal::GameOver, "the game was called off")));
                }
                if self.table.meta.rated {
                    let Some(who) = &who else {
                        return Err(refuse(no(
                            Refusal::NoIdentity,
                            "a rated game needs a name: choose one first",
                        )));
                    };
                    if self.table.meta.players[0].as_deref() == Some(who.as_str()) {
                        return Err(refuse(no(
                            Refusal::OwnChallenge,
                            "this is your own rated invite: nobody plays themselves",
                        )));
                    }
                }
                let token = ids::random(ids::TOKEN_BYTES).map_err(|e| ServerMsg::Error {
                    code: ErrorCode::Server,
                    message: e,
                })?;
                let before = self.snapshot(false);
                self.table.seat_friend(ids::seal(&token), now);
                self.table.meta.players[1] = who;
                if self.save(now, false).await.is_err() {
                    self.restore(before);
                    return Err(not_stored());
                }
                self.ensure_tags().await;
                let side = self.table.side_of(1);
                self.members.push(Member {
                    conn: conn.clone(),
                    player: Some(1),
                    // `started` below brings the full state.
                    game_no: 0,
                    known: 0,
                });
                conn.send(&ServerMsg::Seat {
                    room: self.code.clone(),
                    token,
                    side,
                    join_key: None,
                });
                self.broadcast(Event::Started);
                Ok(())
            }
        }
    }

    async fn act(&mut self, conn: u64, action: Action) {
        let now = Instant::now();
        let settled = self.settle(now).await;
        let Some(member) = self.members.iter().find(|m| m.conn.id == conn) else {
            return;
        };
        let (handle, player) = (member.conn.clone(), member.player);
        let result = match (action, player) {
            (Action::Sync, _) => {
                self.send_full(conn, Event::Sync, now);
                return;
            }
            (_, None) => Err(no(Refusal::Spectator, "spectators cannot play")),
            // A verdict of the clock is due but not stored: nothing else
            // happens before it.
            (_, Some(_)) if !settled => {
                handle.send(&not_stored());
                self.send_full(conn, Event::Sync, now);
                return;
            }
            (action, Some(p)) => {
                let before = self.snapshot(matches!(action, Action::Rematch));
                let result = self.table.apply(self.table.side_of(p), action, now);
                if matches!(result, Ok(Event::Rematch)) {
                    // A new game: none of its moves is stored yet.
                    self.saved_moves = 0;
                }
                if result.is_ok() {
                    if let Err(e) = self.save(now, false).await {
                        // Not stored, so not done: the player keeps the
                        // state they had, and nobody else hears of it.
                        self.restore(before);
                        handle.send(&not_stored());
                        self.send_full(conn, Event::Sync, now);
                        if e.contains(PLY_TAKEN) {
                            self.reload(now).await;
                        }
                        return;
                    }
                }
                result
            }
        };
        match result {
            Ok(event) => self.broadcast(event),
            Err(r) => {
                handle.send(&r.message());
                self.send_full(conn, Event::Sync, now);
            }
        }
    }
}
