//! One task per room: it owns the game, the clock and the pause timer,
//! applies what the players do in order, stores every change and sends the
//! new state to everyone in the room.
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
//! injected `now` ([`Room::due`], [`Room::apply`]): the tests hit a
//! deadline to the nanosecond.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use super::handle::{refused, ConnHandle};
use super::ids;
use super::store::{now_ms, RoomMeta, Store, Stored, PLY_TAKEN};
use crate::games::any::AnyRecord;
use crate::games::{GameError, Illegal, Side};
use crate::protocol::online::{
    ClockState, Event, GameState, Refusal, ServerMsg, Status, MAX_PLIES,
};

/// What a room needs of the hub that lists it. A trait, so that rooms do
/// not depend on the hub, which starts them and sends them commands.
pub trait Host: Send + Sync {
    /// What rooms play by.
    fn settings(&self) -> Settings;
    fn store(&self) -> &Store;
    /// Notes how a write went (a failed write refuses what follows).
    fn storage_result(&self, what: &str, result: &Result<(), String>);
    /// Unlists the room when nothing more is queued for it (`false`: it
    /// must go on, a command came in).
    fn retire(&self, code: &str, instance: u64, rx: &mpsc::Receiver<RoomCmd>) -> bool;
}

/// The parts of the server's `Config` a room plays by.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// A room still waiting for the friend this long after it was made is
    /// deleted.
    pub waiting_ttl: Duration,
    pub max_spectators: usize,
    /// A pause ends by itself after this long.
    pub auto_resume: Duration,
    pub pauses_per_player: u8,
    /// A finished room loaded from the store (for a spectator, say) stays
    /// in memory this long after its last member leaves, so the next one
    /// does not load and replay it again.
    pub finished_linger: Duration,
}

/// How often a verdict that could not be stored is tried again.
pub const RETRY: Duration = Duration::from_millis(500);

/// How a connection enters the room (also sent between cluster nodes).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum Attach {
    /// The holder of a seat token (create, reconnect, quick match), with
    /// the event its first state reports.
    Token(String, Event),
    /// The friend, with the join key from the invite.
    Join { key: String },
    /// A spectator.
    Watch,
}

/// What a member of the room asks for (also sent between cluster nodes).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum Action {
    Sync,
    Move {
        ply: u32,
        mv: String,
    },
    Pause,
    Unpause,
    Resign,
    OfferDraw,
    AnswerDraw(bool),
    Rematch,
    /// The creator withdraws the invite (room still waiting): the room
    /// is deleted.
    CancelInvite,
}

pub enum RoomCmd {
    Attach {
        conn: ConnHandle,
        how: Attach,
        done: oneshot::Sender<Result<(), ServerMsg>>,
    },
    Detach {
        conn: u64,
    },
    Act {
        conn: u64,
        action: Action,
    },
    /// Save the clock and stop (server shutdown).
    Shutdown {
        done: oneshot::Sender<()>,
    },
    /// Save the clock, close every member's connection with code 1012 (the
    /// pages reconnect, and find the room on whichever node referees it
    /// next) and stop: the room leaves this node (a cluster node stopping,
    /// or one that lost the room's lease).
    Handover {
        done: oneshot::Sender<()>,
    },
}

struct Member {
    conn: ConnHandle,
    /// The player (0 or 1) this connection sits for; `None` watches.
    player: Option<usize>,
    /// The game and how many of its moves this member has been sent: the
    /// next change sends only the moves after these (an `update`).
    game_no: u32,
    known: usize,
}

struct Room {
    hub: Arc<dyn Host>,
    settings: Settings,
    instance: u64,
    code: String,
    meta: RoomMeta,
    live: AnyRecord,
    moves: Vec<String>,
    /// How many of `moves` are in the store.
    saved_moves: usize,
    deadline: Option<Instant>,
    pause_until: Option<Instant>,
    /// When a room still waiting for the friend is deleted.
    expires: Instant,
    /// A verdict that is due could not be stored: tried again then.
    retry_at: Option<Instant>,
    /// Loaded from the store already finished: stays in memory for
    /// `finished_linger` after its last member leaves.
    lingers: bool,
    /// When the last member left (or the room was loaded).
    last_left: Instant,
    /// Loaded with a clock saved running: saved again at once, so a crash
    /// of this server charges it from now, not from that older save.
    resave: bool,
    members: Vec<Member>,
}

/// A refusal: its code, its English reason and, for an illegal move,
/// its typed reason (sent as `why`).
type Refused = (Refusal, String, Option<Illegal>);

/// The room before an action: a write that fails puts it back, so what
/// the players are shown is always what is stored.
struct Snapshot {
    meta: RoomMeta,
    live: AnyRecord,
    moves_len: usize,
    /// All the moves, when the action may replace them (a rematch).
    moves: Option<Vec<String>>,
    saved_moves: usize,
    deadline: Option<Instant>,
    pause_until: Option<Instant>,
}

/// What a player is told when their action could not be stored.
pub const NOT_STORED: &str =
    "the server cannot store games right now, so this was not done: try again in a while";

fn no(code: Refusal, reason: &str) -> Refused {
    (code, reason.to_string(), None)
}

fn ms(d: Duration) -> u64 {
    d.as_millis().min(u128::from(u64::MAX)) as u64
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
    fn new(
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
        let live = AnyRecord::restore(&meta.spec, &meta.start, &moves)
            .map_err(|e| format!("room {code} cannot be replayed: {e}"))?;
        let settings = hub.settings();
        let expires_ms = meta
            .created_ms
            .saturating_add(ms(settings.waiting_ttl))
            .saturating_sub(wall_ms);
        let charged = meta.clock_saved_ms.map_or(0, |saved| {
            ran_until_ms
                .unwrap_or(wall_ms)
                .min(wall_ms)
                .saturating_sub(saved)
        });
        let mut room = Room {
            expires: now + Duration::from_millis(expires_ms),
            hub,
            settings,
            instance,
            code,
            saved_moves: moves.len(),
            moves,
            live,
            lingers: meta.outcome.is_some(),
            resave: meta.clock_saved_ms.is_some() && meta.outcome.is_none(),
            meta,
            deadline: None,
            pause_until: None,
            retry_at: None,
            last_left: now,
            members: Vec::new(),
        };
        match room.status() {
            Status::Playing => {
                room.meta.remaining_ms = room.meta.remaining_ms.saturating_sub(charged);
                room.start_clock(now);
            }
            Status::Paused => {
                let left = room.meta.pause_left_ms.saturating_sub(charged);
                room.pause_until = Some(now + Duration::from_millis(left));
            }
            Status::Waiting | Status::Over => {}
        }
        Ok(room)
    }

    fn status(&self) -> Status {
        if self.meta.outcome.is_some() {
            Status::Over
        } else if self.meta.tokens[1].is_none() {
            Status::Waiting
        } else if self.meta.paused_by.is_some() {
            Status::Paused
        } else {
            Status::Playing
        }
    }

    fn side_of(&self, player: usize) -> Side {
        if player == 0 {
            self.meta.creator_side
        } else {
            self.meta.creator_side.opponent()
        }
    }

    fn remaining(&self, now: Instant) -> u64 {
        match self.deadline {
            Some(d) => ms(d.saturating_duration_since(now)),
            None => self.meta.remaining_ms,
        }
    }

    fn start_clock(&mut self, now: Instant) {
        self.deadline = Some(now + Duration::from_millis(self.meta.remaining_ms));
    }

    fn stop_clock(&mut self, now: Instant) {
        self.meta.remaining_ms = self.remaining(now);
        self.deadline = None;
    }

    /// The game has just ended (by the position, time, resignation or agreement).
    fn finish(&mut self, now: Instant) {
        self.meta.outcome = self.live.outcome();
        self.stop_clock(now);
        self.meta.paused_by = None;
        self.pause_until = None;
        self.meta.draw_offer = None;
    }

    fn connected(&self, side: Side) -> bool {
        self.members
            .iter()
            .any(|m| m.player.is_some_and(|p| self.side_of(p) == side))
    }

    /// The state, with the moves after the first `from`, as it is at `now`
    /// (`wall_ms` is the same moment on the wall clock: one reading per
    /// event, so every member is sent the same clock).
    fn state(
        &self,
        you: Option<Side>,
        event: Event,
        (now, wall_ms): (Instant, u64),
        from: usize,
    ) -> GameState {
        let status = self.status();
        let from = from.min(self.moves.len());
        GameState {
            room: self.code.clone(),
            game_no: self.meta.game_no,
            game: self.meta.spec,
            start: self.meta.start.clone(),
            from: from as u32,
            moves: self.moves[from..].to_vec(),
            to_move: self.live.to_move(),
            status,
            outcome: self.meta.outcome,
            clock: ClockState {
                per_move_ms: self.meta.clock_ms,
                remaining_ms: self.remaining(now),
                running: self.deadline.is_some(),
                at_ms: wall_ms,
            },
            pauses_left: self.meta.pauses_left,
            paused_by: self.meta.paused_by,
            auto_resume_ms: self
                .pause_until
                .map(|t| ms(t.saturating_duration_since(now))),
            draw_offer: self.meta.draw_offer,
            rematch: self.meta.rematch,
            seated: [true, self.meta.tokens[1].is_some()],
            connected: [self.connected(Side::First), self.connected(Side::Second)],
            spectators: self.members.iter().filter(|m| m.player.is_none()).count() as u32,
            you,
            event,
        }
    }

    /// The full state (all the moves).
    fn state_msg(&self, you: Option<Side>, event: Event, now: Instant) -> ServerMsg {
        ServerMsg::State(self.state(you, event, (now, super::store::now_ms()), 0))
    }

    /// Sends `conn` the full state and notes that it has every move.
    fn send_full(&mut self, conn: u64, event: Event, now: Instant) {
        let Some(i) = self.members.iter().position(|m| m.conn.id == conn) else {
            return;
        };
        let you = self.you(&self.members[i]);
        let msg = self.state_msg(you, event, now);
        let (game_no, known) = (self.meta.game_no, self.moves.len());
        let m = &mut self.members[i];
        m.game_no = game_no;
        m.known = known;
        m.conn.send(&msg);
    }

    fn you(&self, member: &Member) -> Option<Side> {
        member.player.map(|p| self.side_of(p))
    }

    /// Sends the change to every member (each with its own `you`): an
    /// `update` with the moves it has not been sent, or the full state
    /// when the game is another one (a rematch).
    fn broadcast(&mut self, event: Event) {
        let now = (Instant::now(), super::store::now_ms());
        let (game_no, len) = (self.meta.game_no, self.moves.len());
        // Built once per (you, from, full): in practice one per side.
        let mut texts: Vec<((usize, usize, bool), axum::extract::ws::Utf8Bytes)> = Vec::new();
        let mut dead = Vec::new();
        for i in 0..self.members.len() {
            let you = self.you(&self.members[i]);
            let slot = you.map_or(2, Side::index);
            let m = &self.members[i];
            let full = m.game_no != game_no || m.known > len;
            let from = if full { 0 } else { m.known };
            let key = (slot, from, full);
            let text = match texts.iter().find(|(k, _)| *k == key) {
                Some((_, t)) => t.clone(),
                None => {
                    let state = self.state(you, event, now, from);
                    let msg = if full {
                        ServerMsg::State(state)
                    } else {
                        ServerMsg::Update(state)
                    };
                    let t: axum::extract::ws::Utf8Bytes = msg.to_json().into();
                    texts.push((key, t.clone()));
                    t
                }
            };
            let m = &mut self.members[i];
            m.game_no = game_no;
            m.known = len;
            if !m.conn.send_text(text) {
                dead.push(m.conn.id);
            }
        }
        for id in dead {
            self.detach(id);
        }
    }

    /// Sends to every member but `except`; members that cannot take it leave.
    fn tell_others(&mut self, except: u64, msg: &ServerMsg) {
        let text: axum::extract::ws::Utf8Bytes = msg.to_json().into();
        let dead: Vec<u64> = self
            .members
            .iter()
            .filter(|m| m.conn.id != except && !m.conn.send_text(text.clone()))
            .map(|m| m.conn.id)
            .collect();
        for id in dead {
            self.detach(id);
        }
    }

    /// A connection leaves; its opponent hears if that was the player's last one.
    fn detach(&mut self, conn: u64) {
        let Some(i) = self.members.iter().position(|m| m.conn.id == conn) else {
            return;
        };
        let member = self.members.swap_remove(i);
        if self.members.is_empty() {
            self.last_left = Instant::now();
        }
        if let Some(p) = member.player {
            let side = self.side_of(p);
            if !self.connected(side) {
                let msg = ServerMsg::Presence {
                    side,
                    connected: false,
                };
                self.tell_others(conn, &msg);
            }
        }
    }

    /// Stores the room (meta and new moves) with its clock as it is at
    /// `now`: running (with the time of the save), or stopped when
    /// `stopping` (a clean stop: the downtime is then charged to no one).
    /// An error means nothing of it may be announced (see [`Snapshot`]).
    async fn save(&mut self, now: Instant, stopping: bool) -> Result<(), String> {
        self.meta.remaining_ms = self.remaining(now);
        self.meta.pause_left_ms = self
            .pause_until
            .map_or(0, |t| ms(t.saturating_duration_since(now)));
        let running = self.deadline.is_some() || self.pause_until.is_some();
        self.meta.clock_saved_ms = (running && !stopping).then(now_ms);
        let new_moves = self.moves[self.saved_moves..]
            .iter()
            .enumerate()
            .map(|(i, m)| ((self.saved_moves + i) as u32, m.clone()))
            .collect();
        let result = self
            .hub
            .store()
            .save(&self.code, &self.meta, false, new_moves)
            .await;
        self.hub.storage_result(&self.code, &result);
        if result.is_ok() {
            self.saved_moves = self.moves.len();
        }
        result
    }

    /// Stores and announces whatever the timers say is due at `now` (a
    /// timeout, the end of a pause). A verdict that cannot be stored is
    /// not announced: the room stays as it was, and tries again after
    /// [`RETRY`]. Returns whether nothing is left pending.
    async fn settle(&mut self, now: Instant) -> bool {
        loop {
            let before = self.snapshot(false);
            let Some(event) = self.due(now) else {
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
    fn snapshot(&self, rematch: bool) -> Snapshot {
        Snapshot {
            meta: self.meta.clone(),
            live: self.live.clone(),
            moves_len: self.moves.len(),
            moves: rematch.then(|| self.moves.clone()),
            saved_moves: self.saved_moves,
            deadline: self.deadline,
            pause_until: self.pause_until,
        }
    }

    fn restore(&mut self, s: Snapshot) {
        self.meta = s.meta;
        self.live = s.live;
        match s.moves {
            Some(moves) => self.moves = moves,
            None => self.moves.truncate(s.moves_len),
        }
        self.saved_moves = s.saved_moves;
        self.deadline = s.deadline;
        self.pause_until = s.pause_until;
    }

    /// Whatever the timers say is due: a timeout or the end of a pause.
    /// Returns the event to broadcast, if any.
    fn due(&mut self, now: Instant) -> Option<Event> {
        if self.pause_until.is_some_and(|t| t <= now) {
            self.pause_until = None;
            self.meta.paused_by = None;
            self.start_clock(now);
            return Some(Event::AutoUnpaused);
        }
        if self.deadline.is_some_and(|t| t <= now) {
            self.live.timeout();
            self.finish(now);
            self.meta.remaining_ms = 0;
            return Some(Event::Timeout);
        }
        None
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
        member.conn.send(&refused(why.0, why.1));
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
        if std::mem::take(&mut self.resave)
            && self.settle(Instant::now()).await
            && (self.deadline.is_some() || self.pause_until.is_some())
        {
            let _ = self.save(Instant::now(), false).await;
        }
        loop {
            let expiry = (self.status() == Status::Waiting).then_some(self.expires);
            let linger = self.leaves_at().filter(|_| self.lingers);
            let wake = [self.deadline, self.pause_until, expiry, linger]
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
                if self.expire(&mut rx).await {
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
                        if self.delete(&mut rx, why).await {
                            return;
                        }
                        if let Some(m) = self.members.iter().find(|m| m.conn.id == conn) {
                            m.conn.send(&ServerMsg::Error {
                                code: crate::protocol::online::ErrorCode::Server,
                                message: NOT_STORED.into(),
                            });
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
                && self.hub.retire(&self.code, self.instance, &rx)
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
        let refuse = |(code, reason, _): Refused| refused(code, reason);
        match how {
            Attach::Watch => {
                let watching = self.members.iter().filter(|m| m.player.is_none()).count();
                if watching >= self.settings.max_spectators {
                    return Err(refuse(no(Refusal::Full, "too many spectators")));
                }
                self.members.push(Member {
                    conn: conn.clone(),
                    player: None,
                    game_no: self.meta.game_no,
                    known: self.moves.len(),
                });
                conn.send(&self.state_msg(None, Event::Sync, now));
                Ok(())
            }
            Attach::Token(token, event) => {
                let player = (0..2).find(|&p| {
                    self.meta.tokens[p]
                        .as_deref()
                        .is_some_and(|t| ids::token_matches(t, &token))
                });
                let Some(player) = player else {
                    return Err(refuse(no(
                        Refusal::BadToken,
                        "this token holds no seat in this room",
                    )));
                };
                let side = self.side_of(player);
                let was_connected = self.connected(side);
                self.members.push(Member {
                    conn: conn.clone(),
                    player: Some(player),
                    game_no: self.meta.game_no,
                    known: self.moves.len(),
                });
                conn.send(&ServerMsg::Seat {
                    room: self.code.clone(),
                    token,
                    side,
                    join_key: if player == 0 {
                        self.meta.join_key.clone()
                    } else {
                        None
                    },
                });
                conn.send(&self.state_msg(Some(side), event, now));
                if !was_connected {
                    let msg = ServerMsg::Presence {
                        side,
                        connected: true,
                    };
                    self.tell_others(conn.id, &msg);
                }
                Ok(())
            }
            Attach::Join { key } => {
                let key_ok = self
                    .meta
                    .join_key
                    .as_deref()
                    .is_some_and(|k| ids::same_secret(k, key.trim()));
                if self.meta.tokens[1].is_some() {
                    return Err(refuse(no(Refusal::RoomFull, "both seats are taken")));
                }
                if !key_ok {
                    return Err(refuse(no(
                        Refusal::BadKey,
                        "the join key is wrong: ask for the invite again",
                    )));
                }
                if self.meta.outcome.is_some() {
                    return Err(refuse(no(Refusal::GameOver, "the game was called off")));
                }
                let token = ids::random(ids::TOKEN_BYTES).map_err(|e| ServerMsg::Error {
                    code: crate::protocol::online::ErrorCode::Server,
                    message: e,
                })?;
                let before = self.snapshot(false);
                self.meta.tokens[1] = Some(ids::seal(&token));
                self.meta.join_key = None;
                self.meta.remaining_ms = self.meta.clock_ms;
                self.start_clock(now);
                if self.save(now, false).await.is_err() {
                    self.restore(before);
                    return Err(ServerMsg::Error {
                        code: crate::protocol::online::ErrorCode::Server,
                        message: NOT_STORED.into(),
                    });
                }
                let side = self.side_of(1);
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
                handle.send(&ServerMsg::Error {
                    code: crate::protocol::online::ErrorCode::Server,
                    message: NOT_STORED.into(),
                });
                self.send_full(conn, Event::Sync, now);
                return;
            }
            (action, Some(p)) => {
                let before = self.snapshot(matches!(action, Action::Rematch));
                let result = self.apply(self.side_of(p), action, now);
                if result.is_ok() {
                    if let Err(e) = self.save(now, false).await {
                        // Not stored, so not done: the player keeps the
                        // state they had, and nobody else hears of it.
                        self.restore(before);
                        handle.send(&ServerMsg::Error {
                            code: crate::protocol::online::ErrorCode::Server,
                            message: NOT_STORED.into(),
                        });
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
            Err((code, reason, why)) => {
                handle.send(&ServerMsg::Refused { code, reason, why });
                self.send_full(conn, Event::Sync, now);
            }
        }
    }

    /// Applies a seated player's action; an error changes nothing.
    fn apply(&mut self, side: Side, action: Action, now: Instant) -> Result<Event, Refused> {
        let status = self.status();
        let in_game = || match status {
            Status::Waiting => Err(no(Refusal::NotStarted, "your friend has not joined yet")),
            Status::Over => Err(no(Refusal::GameOver, "the game is over")),
            Status::Playing | Status::Paused => Ok(()),
        };
        let ply = self.moves.len() as u32;
        match action {
            Action::Sync => Ok(Event::Sync),
            // Handled by the room's loop (it deletes the room), never here.
            Action::CancelInvite => Err(no(Refusal::RoomFull, "the invite is taken")),
            Action::Move { ply: asked, mv } => {
                in_game()?;
                if status == Status::Paused {
                    return Err(no(Refusal::Paused, "the game is paused"));
                }
                if self.live.to_move() != side {
                    return Err(no(Refusal::NotYourTurn, "it is not your turn"));
                }
                if asked != ply {
                    return Err((
                        Refusal::StalePly,
                        format!("the move is for ply {asked}, but {ply} moves have been played"),
                        None,
                    ));
                }
                let played = self.live.play_text(&mv).map_err(|e| {
                    let why = match &e {
                        GameError::IllegalMove(why) => Some(*why),
                        _ => None,
                    };
                    (Refusal::IllegalMove, e.to_string(), why)
                })?;
                // Mill: after closing a mill the same side removes a piece,
                // in the same turn (no forced pass came between).
                let same_turn = played.len() == 1 && self.live.to_move() == side;
                self.moves.extend(played);
                // Every online game ends at the ply cap, decided as the
                // game's rules say (by count; a draw in Mill).
                if self.moves.len() >= MAX_PLIES as usize {
                    self.live.ply_limit();
                }
                // An offer lapses when the offerer's opponent moves.
                if self.meta.draw_offer == Some(side.opponent()) {
                    self.meta.draw_offer = None;
                }
                if self.live.outcome().is_some() {
                    self.finish(now);
                } else if !same_turn {
                    // A new turn: the clock starts afresh.
                    self.meta.remaining_ms = self.meta.clock_ms;
                    self.start_clock(now);
                }
                Ok(Event::Moved)
            }
            Action::Pause => {
                in_game()?;
                if status == Status::Paused {
                    return Err(no(Refusal::Paused, "the game is already paused"));
                }
                let left = &mut self.meta.pauses_left[side.index()];
                if *left == 0 {
                    return Err(no(
                        Refusal::NoPausesLeft,
                        "you have used all your pauses in this game",
                    ));
                }
                *left -= 1;
                self.stop_clock(now);
                self.meta.paused_by = Some(side);
                self.pause_until = Some(now + self.settings.auto_resume);
                Ok(Event::Paused)
            }
            Action::Unpause => {
                if status != Status::Paused {
                    return Err(no(Refusal::NotPaused, "the game is not paused"));
                }
                if self.meta.paused_by != Some(side) {
                    return Err(no(
                        Refusal::NotYourPause,
                        "only the player who paused can resume",
                    ));
                }
                self.meta.paused_by = None;
                self.pause_until = None;
                self.start_clock(now);
                Ok(Event::Unpaused)
            }
            Action::Resign => {
                if status == Status::Over {
                    return Err(no(Refusal::GameOver, "the game is over"));
                }
                self.live.resign(side);
                self.finish(now);
                // Nobody may join a game called off before it started.
                self.meta.join_key = None;
                Ok(Event::Resigned)
            }
            Action::OfferDraw => {
                in_game()?;
                match self.meta.draw_offer {
                    Some(s) if s == side => {
                        Err(no(Refusal::DrawAlreadyOffered, "your offer stands"))
                    }
                    Some(_) => {
                        self.live.agree_draw();
                        self.finish(now);
                        Ok(Event::DrawAgreed)
                    }
                    None if self.meta.offered_at[side.index()] == Some(ply) => Err(no(
                        Refusal::DrawAlreadyOffered,
                        "one draw offer per move: play a move first",
                    )),
                    None => {
                        self.meta.draw_offer = Some(side);
                        self.meta.offered_at[side.index()] = Some(ply);
                        Ok(Event::DrawOffered)
                    }
                }
            }
            Action::AnswerDraw(accept) => {
                in_game()?;
                if self.meta.draw_offer != Some(side.opponent()) {
                    return Err(no(Refusal::NoDrawOffer, "there is no draw offer to answer"));
                }
                if accept {
                    self.live.agree_draw();
                    self.finish(now);
                    Ok(Event::DrawAgreed)
                } else {
                    self.meta.draw_offer = None;
                    Ok(Event::DrawDeclined)
                }
            }
            Action::Rematch => {
                if status != Status::Over {
                    return Err(no(Refusal::NotOver, "a rematch comes after the game"));
                }
                if self.meta.tokens[1].is_none() {
                    return Err(no(Refusal::NotStarted, "nobody joined this game"));
                }
                if self.meta.rematch[side.index()] {
                    return Err(no(
                        Refusal::AlreadyAsked,
                        "you have already asked for a rematch",
                    ));
                }
                self.meta.rematch[side.index()] = true;
                if self.meta.rematch != [true, true] {
                    return Ok(Event::RematchOffered);
                }
                self.new_game(now);
                Ok(Event::Rematch)
            }
        }
    }

    /// The next game in the room: same rules and clock, sides swapped.
    fn new_game(&mut self, now: Instant) {
        let m = &mut self.meta;
        m.creator_side = m.creator_side.opponent();
        m.game_no += 1;
        m.outcome = None;
        m.remaining_ms = m.clock_ms;
        m.paused_by = None;
        m.pauses_left = [self.settings.pauses_per_player; 2];
        m.draw_offer = None;
        m.offered_at = [None, None];
        m.rematch = [false, false];
        self.live = AnyRecord::new(&m.spec);
        m.start = self.live.start_text();
        self.moves.clear();
        self.saved_moves = 0;
        self.pause_until = None;
        self.start_clock(now);
    }
}

/// The room's rules with the clock driven by an injected `now` (no task,
/// no connection): the two rules of issue 33 no other test could fail.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::any::Variant;
    use crate::games::ataxx::AtaxxRules;
    use crate::games::EndReason;

    struct TestHost {
        store: Store,
        settings: Settings,
    }

    impl Host for TestHost {
        fn settings(&self) -> Settings {
            self.settings
        }
        fn store(&self) -> &Store {
            &self.store
        }
        fn storage_result(&self, _: &str, _: &Result<(), String>) {}
        fn retire(&self, _: &str, _: u64, _: &mpsc::Receiver<RoomCmd>) -> bool {
            true
        }
    }

    fn host(name: &str) -> (Arc<dyn Host>, std::path::PathBuf) {
        let dir =
            std::env::temp_dir().join(format!("stoneplay-room-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let host = TestHost {
            store: Store::open(&dir).unwrap(),
            settings: Settings {
                waiting_ttl: Duration::from_secs(3600),
                max_spectators: 10,
                auto_resume: Duration::from_millis(2000),
                pauses_per_player: 3,
                finished_linger: Duration::from_secs(60),
            },
        };
        (Arc::new(host), dir)
    }

    /// A started Territory Duel game (player 0 is First, to move) with
    /// `clock_ms` on the clock, as the store would hold it.
    fn started(clock_ms: u64) -> Stored {
        let spec = Variant::Ataxx(AtaxxRules::default());
        let live = AnyRecord::new(&spec);
        Stored {
            code: "ROOMROOMROOMROOM".into(),
            meta: RoomMeta {
                spec,
                clock_ms,
                tokens: [Some(ids::seal("a")), Some(ids::seal("b"))],
                join_key: None,
                creator_side: Side::First,
                game_no: 1,
                start: live.start_text(),
                outcome: None,
                remaining_ms: clock_ms,
                paused_by: None,
                pause_left_ms: 0,
                pauses_left: [3, 3],
                draw_offer: None,
                offered_at: [None, None],
                rematch: [false, false],
                created_ms: now_ms(),
                clock_saved_ms: None,
            },
            moves: Vec::new(),
            ran_until_ms: None,
        }
    }

    fn at(t0: Instant, ms: u64) -> Instant {
        t0 + Duration::from_millis(ms)
    }

    /// Issue 33 (a): the side to move loses exactly at its deadline, not
    /// a moment later (`<` in `due` fails this), and not a nanosecond before.
    #[test]
    fn the_clock_runs_out_exactly_at_the_deadline() {
        let (hub, dir) = host("deadline");
        let t0 = Instant::now();
        let mut room = Room::new(hub, 1, started(1000), t0, now_ms()).unwrap();
        assert_eq!(room.status(), Status::Playing);
        assert_eq!(room.remaining(at(t0, 400)), 600);
        let just_before = at(t0, 1000) - Duration::from_nanos(1);
        assert_eq!(room.due(just_before), None);
        assert_eq!(room.status(), Status::Playing);
        assert_eq!(room.due(at(t0, 1000)), Some(Event::Timeout));
        assert_eq!(room.status(), Status::Over);
        let outcome = room.meta.outcome.unwrap();
        assert_eq!(outcome.reason, EndReason::Timeout);
        assert_eq!(outcome.winner, Some(Side::Second));
        assert_eq!(room.meta.remaining_ms, 0);
        assert_eq!(room.due(at(t0, 5000)), None, "one verdict");

        // A pause ends by itself exactly when its time is up, too; the
        // clock then starts from the time left when it was paused.
        let (hub, _) = host("deadline-pause");
        let mut room = Room::new(hub, 1, started(1000), t0, now_ms()).unwrap();
        assert_eq!(
            room.apply(Side::First, Action::Pause, at(t0, 300)),
            Ok(Event::Paused)
        );
        let ends = at(t0, 300 + 2000);
        assert_eq!(room.due(ends - Duration::from_nanos(1)), None);
        assert_eq!(room.status(), Status::Paused);
        assert_eq!(room.due(ends), Some(Event::AutoUnpaused));
        assert_eq!(room.status(), Status::Playing);
        assert_eq!(room.remaining(ends), 700);
        let _ = std::fs::remove_dir_all(dir);
    }

    /// Issue 33 (b): the side that offered a draw can neither accept nor
    /// decline its own offer; the game and the offer stay as they were.
    #[test]
    fn the_offerer_cannot_answer_its_own_draw_offer() {
        let (hub, dir) = host("own-offer");
        let t0 = Instant::now();
        let mut room = Room::new(hub, 1, started(60_000), t0, now_ms()).unwrap();
        assert_eq!(
            room.apply(Side::First, Action::OfferDraw, t0),
            Ok(Event::DrawOffered)
        );
        for accept in [true, false] {
            let (code, _, _) = room
                .apply(Side::First, Action::AnswerDraw(accept), t0)
                .unwrap_err();
            assert_eq!(code, Refusal::NoDrawOffer, "accept: {accept}");
            assert_eq!(room.meta.draw_offer, Some(Side::First));
            assert_eq!(room.meta.outcome, None);
            assert_eq!(room.status(), Status::Playing);
            assert!(room.moves.is_empty());
        }
        assert_eq!(
            room.apply(Side::Second, Action::AnswerDraw(true), t0),
            Ok(Event::DrawAgreed)
        );
        assert_eq!(room.meta.outcome.unwrap().reason, EndReason::Agreement);
        let _ = std::fs::remove_dir_all(dir);
    }

    /// A clock saved running is charged, when loaded, the time its server
    /// ran after the save; a clock already out is a verdict at once.
    #[test]
    fn a_loaded_clock_is_charged_the_time_its_server_ran() {
        let (hub, dir) = host("charged");
        let t0 = Instant::now();
        let wall = now_ms();
        // Saved by this server 100 ms ago.
        let mut stored = started(1000);
        stored.meta.clock_saved_ms = Some(wall - 100);
        let room = Room::new(hub.clone(), 1, stored, t0, wall).unwrap();
        assert_eq!(room.remaining(t0), 900);
        // Saved by a server that ran 300 ms more, then was down for an
        // hour: charged the 300 ms only.
        let mut stored = started(1000);
        stored.meta.clock_saved_ms = Some(wall - 3_600_300);
        stored.ran_until_ms = Some(wall - 3_600_000);
        let room = Room::new(hub.clone(), 1, stored, t0, wall).unwrap();
        assert_eq!(room.remaining(t0), 700);
        // That server ran past the deadline: out of time when loaded.
        let mut stored = started(1000);
        stored.meta.clock_saved_ms = Some(wall - 5000);
        stored.ran_until_ms = Some(wall - 3000);
        let mut room = Room::new(hub.clone(), 1, stored, t0, wall).unwrap();
        assert_eq!(room.remaining(t0), 0);
        assert_eq!(room.due(t0), Some(Event::Timeout));
        // A paused game: its pause timer likewise.
        let mut stored = started(1000);
        stored.meta.paused_by = Some(Side::First);
        stored.meta.pause_left_ms = 2000;
        stored.meta.clock_saved_ms = Some(wall - 5000);
        stored.ran_until_ms = Some(wall - 4500);
        let mut room = Room::new(hub, 1, stored, t0, wall).unwrap();
        assert_eq!(room.due(at(t0, 1499)), None);
        assert_eq!(room.due(at(t0, 1500)), Some(Event::AutoUnpaused));
        assert_eq!(
            room.remaining(at(t0, 1500)),
            1000,
            "the move clock was stopped"
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}
