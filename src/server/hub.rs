//! What the connections share: the rooms in memory (each a task, see
//! [`super::room`]), the store and the config, and where rooms are
//! refereed and quick matches pair ([`super::placement`]: this server
//! alone, or a node of a cluster; the hub runs the same rooms either way).

// Errors here are ready-to-send answers (`refused`/`error`), never the
// large `state`: boxing them would buy nothing.
#![allow(clippy::result_large_err)]

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use tokio::sync::{mpsc, oneshot, watch};

use super::handle::{refused, ConnHandle};
use super::ids;
use super::placement::{Alone, Attaching, Local, Owner, Pending, Placement, Seeking};
use super::room::{self, Attach, RoomCmd};
use super::store::{now_ms, RoomMeta, Store, Stored};
use super::Config;
use crate::games::any::{AnyRecord, Variant};
use crate::games::{Mode, Side};
use crate::protocol::online::{ErrorCode, Refusal, ServerMsg, SideChoice};

/// The rules a game is played under online: the game's preset for
/// [`Mode::Online`] (Territory Duel always with the pass rule), which must
/// make a playable game (Mill's options).
pub fn online_spec(spec: Variant) -> Result<Variant, String> {
    let spec = spec.for_mode(Mode::Online);
    spec.check().map(|()| spec).map_err(|e| e.to_string())
}

fn server_error(message: impl Into<String>) -> ServerMsg {
    ServerMsg::Error {
        code: ErrorCode::Server,
        message: message.into(),
    }
}

struct RoomEntry {
    /// Which task instance this is (a room retires and may be loaded again).
    instance: u64,
    tx: mpsc::Sender<RoomCmd>,
}

/// The outcome of asking for a quick match.
pub enum Quick {
    /// In the queue under this key.
    Queued(String),
    /// Paired: this connection's seat.
    Matched { room: String, token: String },
}

pub struct Hub {
    pub config: Config,
    pub store: Store,
    rooms: Mutex<HashMap<String, RoomEntry>>,
    /// Loading a room from the store happens one at a time.
    loading: tokio::sync::Mutex<()>,
    next_id: AtomicU64,
    /// Rooms loaded from the store (and replayed) so far.
    loads: AtomicU64,
    connections: AtomicUsize,
    /// The most connections open at once since memory was last given back.
    peak_connections: AtomicUsize,
    shutdown: watch::Sender<bool>,
    /// The last write to the store failed (see [`Hub::storage_result`]).
    storage_failing: AtomicBool,
    /// New games per client address.
    pub creations: super::limits::Buckets,
    /// Open challenges and live games (issue 37).
    pub lobby: super::lobby::Lobby,
    /// Where rooms are refereed and quick matches pair: set once at
    /// start (a cluster node's), else [`Alone`] at first use.
    placement: OnceLock<Arc<dyn Placement>>,
}

/// Counts a connection while it lives.
pub struct ConnGuard(Arc<Hub>);

impl Drop for ConnGuard {
    fn drop(&mut self) {
        self.0.connections.fetch_sub(1, Ordering::Relaxed);
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere never leaves these maps half-changed: go on.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Hub {
    pub fn new(config: Config, store: Store) -> Arc<Hub> {
        let creations = super::limits::Buckets::new(config.rooms_per_addr, config.room_every);
        Arc::new(Hub {
            creations,
            config,
            store,
            rooms: Mutex::new(HashMap::new()),
            loading: tokio::sync::Mutex::new(()),
            next_id: AtomicU64::new(1),
            loads: AtomicU64::new(0),
            connections: AtomicUsize::new(0),
            peak_connections: AtomicUsize::new(0),
            shutdown: watch::channel(false).0,
            storage_failing: AtomicBool::new(false),
            placement: OnceLock::new(),
            lobby: super::lobby::Lobby::default(),
        })
    }

    /// Places rooms with `placement` (a cluster node's), once, at start
    /// before anything is asked of it; `false` if it came too late.
    pub fn set_placement(&self, placement: Arc<dyn Placement>) -> bool {
        self.placement.set(placement).is_ok()
    }

    fn placement(&self) -> &dyn Placement {
        self.placement
            .get_or_init(|| Arc::new(Alone::default()))
            .as_ref()
    }

    /// Every room listed (their codes and tasks; a cluster's proxies too).
    pub fn listed(&self) -> Vec<(String, mpsc::Sender<RoomCmd>)> {
        lock(&self.rooms)
            .iter()
            .filter(|(_, e)| !e.tx.is_closed())
            .map(|(code, e)| (code.clone(), e.tx.clone()))
            .collect()
    }

    /// Lists a task that stands for a room (a cluster's proxy to the node
    /// that referees it).
    pub fn list(&self, code: &str, tx: mpsc::Sender<RoomCmd>) {
        let instance = self.next_id();
        lock(&self.rooms).insert(code.to_string(), RoomEntry { instance, tx });
    }

    /// Unlists `code` if `tx` is still the task listed for it.
    pub fn unlist(&self, code: &str, tx: &mpsc::Sender<RoomCmd>) {
        let mut rooms = lock(&self.rooms);
        if rooms.get(code).is_some_and(|e| e.tx.same_channel(tx)) {
            rooms.remove(code);
        }
    }

    pub fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Admits one more connection, or `None` at the configured maximum.
    pub fn admit(self: &Arc<Self>) -> Option<ConnGuard> {
        let n = self.connections.fetch_add(1, Ordering::Relaxed);
        self.peak_connections.fetch_max(n + 1, Ordering::Relaxed);
        let guard = ConnGuard(self.clone());
        (n < self.config.max_connections).then_some(guard)
    }

    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::Relaxed)
    }

    /// The most connections open at once since the last call, which
    /// starts counting again from those open now.
    pub fn take_peak_connections(&self) -> usize {
        let now = self.connections();
        self.peak_connections.swap(now, Ordering::Relaxed).max(now)
    }

    /// Changes to `true` when the server shuts down.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// Notes how a write went. The first failure is said loudly (and
    /// again when writes work once more); every failed write is logged.
    /// While writes fail, nothing is done that cannot be stored: moves and
    /// other actions are refused, and so are new games (making a room is a
    /// write too), until a write succeeds again.
    pub fn storage_result(&self, what: &str, result: &Result<(), String>) {
        match result {
            Ok(()) => {
                if self.storage_failing.swap(false, Ordering::Relaxed) {
                    eprintln!("server: storage works again; games are stored and accepted");
                }
            }
            Err(e) => {
                if !self.storage_failing.swap(true, Ordering::Relaxed) {
                    let check = match self.config.database {
                        Some(_) => {
                            "check that PostgreSQL (--database) runs and has room".to_string()
                        }
                        None => format!(
                            "check the free space and permissions of the data directory {}",
                            self.config.data_dir.display()
                        ),
                    };
                    eprintln!(
                        "server: ERROR: CANNOT STORE GAMES ({e}). Every move and every new game is refused until writes succeed again: {check}"
                    );
                }
                eprintln!("server: {what}: not stored, refused: {e}");
            }
        }
    }

    /// Whether the last write to the store failed.
    pub fn storage_failing(&self) -> bool {
        self.storage_failing.load(Ordering::Relaxed)
    }

    pub fn rooms_in_memory(&self) -> usize {
        lock(&self.rooms).len()
    }

    /// How many times a room was loaded from the store and replayed.
    pub fn rooms_loaded(&self) -> u64 {
        self.loads.load(Ordering::Relaxed)
    }

    /// Starts the task of a stored room and lists it.
    pub fn spawn_room(self: &Arc<Self>, stored: Stored) -> Result<mpsc::Sender<RoomCmd>, String> {
        let instance = self.next_id();
        let code = stored.code.clone();
        let tx = room::spawn(self.clone(), instance, stored)?;
        lock(&self.rooms).insert(
            code,
            RoomEntry {
                instance,
                tx: tx.clone(),
            },
        );
        Ok(tx)
    }

    /// A room task may stop when nothing more is queued for it; it is then
    /// unlisted (and loaded again from the store if someone asks for it).
    pub fn retire(&self, code: &str, instance: u64, rx: &mpsc::Receiver<RoomCmd>) -> bool {
        let mut rooms = lock(&self.rooms);
        if !rx.is_empty() {
            return false;
        }
        if rooms.get(code).is_some_and(|e| e.instance == instance) {
            rooms.remove(code);
        }
        true
    }

    /// The task of a room: in memory, or loaded from the store.
    pub async fn room(
        self: &Arc<Self>,
        code: &str,
    ) -> Result<Option<mpsc::Sender<RoomCmd>>, ServerMsg> {
        let listed = |hub: &Hub| {
            lock(&hub.rooms)
                .get(code)
                .map(|e| e.tx.clone())
                .filter(|tx| !tx.is_closed())
        };
        if let Some(tx) = listed(self) {
            return Ok(Some(tx));
        }
        // In a cluster, the node holding the room's lease referees it;
        // another node forwards to it. Asked before loading one at a time:
        // taking a dead node's room may wait for its lease to lapse.
        let owner = self.placement().claim(code).await.map_err(server_error)?;
        let _one_at_a_time = self.loading.lock().await;
        if let Some(tx) = listed(self) {
            return Ok(Some(tx));
        }
        if *self.shutdown.borrow() {
            return Ok(None);
        }
        match owner {
            Owner::Mine => {}
            Owner::Nobody => return Ok(None),
            Owner::Other(node) => {
                let tx = self.placement().proxy(code, &node);
                self.list(code, tx.clone());
                return Ok(Some(tx));
            }
        }
        match self.store.load(code).await {
            Ok(None) => Ok(None),
            Ok(Some(stored)) => {
                self.loads.fetch_add(1, Ordering::Relaxed);
                self.spawn_room(stored).map(Some).map_err(server_error)
            }
            Err(e) => Err(server_error(e)),
        }
    }

    /// Enters a room (seat by token, join, watch). On success the room has
    /// already queued its `seat`/`state` messages to `conn`.
    pub async fn attach(
        self: &Arc<Self>,
        code: &str,
        conn: &ConnHandle,
        how: Attach,
    ) -> Result<mpsc::Sender<RoomCmd>, ServerMsg> {
        let Some(code) = ids::normalize(code) else {
            return Err(refused(Refusal::NoSuchRoom, "no room has this code"));
        };
        // A room that retires between lookup and attach is loaded again.
        for _ in 0..3 {
            let Some(tx) = self.room(&code).await? else {
                return Err(refused(Refusal::NoSuchRoom, "no room has this code"));
            };
            let (done, answer) = oneshot::channel();
            let cmd = RoomCmd::Attach {
                conn: conn.clone(),
                how: how.clone(),
                done,
            };
            if tx.send(cmd).await.is_err() {
                continue;
            }
            match answer.await {
                Ok(Ok(())) => return Ok(tx),
                Ok(Err(msg)) => return Err(msg),
                Err(_) => continue,
            }
        }
        Err(server_error("the room is busy: try again"))
    }

    /// Checks a requested clock against the limits.
    pub fn clock_ms(&self, clock_secs: Option<u32>) -> Result<u64, ServerMsg> {
        use crate::protocol::online::{DEFAULT_CLOCK_SECS, MAX_CLOCK_SECS};
        let secs = clock_secs.unwrap_or(DEFAULT_CLOCK_SECS);
        let min = self.config.min_clock_secs;
        if !(min..=MAX_CLOCK_SECS).contains(&secs) {
            return Err(refused(
                Refusal::BadGame,
                format!("the clock must be {min} to {MAX_CLOCK_SECS} seconds per move, not {secs}"),
            ));
        }
        Ok(u64::from(secs) * 1000)
    }

    /// Makes and stores a room; returns its code and the seat token of
    /// player 0 (and of player 1 when `both_seated`, a quick match).
    async fn new_room(
        self: &Arc<Self>,
        spec: Variant,
        clock_ms: u64,
        creator_side: Side,
        both_seated: bool,
        (creator, rated): (Option<String>, bool),
    ) -> Result<(String, [String; 2]), ServerMsg> {
        let fresh = |n| ids::random(n).map_err(server_error);
        let tokens = [fresh(ids::TOKEN_BYTES)?, fresh(ids::TOKEN_BYTES)?];
        let live = AnyRecord::new(&spec);
        let meta = RoomMeta {
            spec,
            clock_ms,
            tokens: [
                Some(ids::seal(&tokens[0])),
                both_seated.then(|| ids::seal(&tokens[1])),
            ],
            join_key: if both_seated {
                None
            } else {
                Some(fresh(ids::KEY_BYTES)?)
            },
            creator_side,
            game_no: 1,
            start: live.start_text(),
            outcome: None,
            remaining_ms: clock_ms,
            paused_by: None,
            pause_left_ms: 0,
            pauses_left: [self.config.pauses_per_player; 2],
            draw_offer: None,
            offered_at: [None, None],
            rematch: [false, false],
            created_ms: now_ms(),
            clock_saved_ms: None,
            players: [creator, None],
            rated,
            moved: [false, false],
        };
        // 80-bit codes do not collide in practice; the store refuses a
        // duplicate anyway, and then another code is drawn.
        let mut last_error = String::new();
        for _ in 0..3 {
            let code = fresh(ids::ROOM_BYTES)?;
            let result = self.store.save(&code, &meta, true, Vec::new()).await;
            self.storage_result("a new room", &result);
            match result {
                Ok(()) => {
                    let stored = Stored {
                        code: code.clone(),
                        meta,
                        moves: Vec::new(),
                        ran_until_ms: None,
                    };
                    self.spawn_room(stored).map_err(server_error)?;
                    return Ok((code, tokens));
                }
                Err(e) if e.contains("UNIQUE") => last_error = e,
                Err(_) => {
                    return Err(server_error(
                        "the server cannot store new games right now: try again in a while",
                    ))
                }
            }
        }
        Err(server_error(last_error))
    }

    /// A room for a game with a friend: its code and the creator's token.
    pub async fn create(
        self: &Arc<Self>,
        spec: Variant,
        clock_secs: Option<u32>,
        side: SideChoice,
        (creator, rated): (Option<String>, bool),
    ) -> Result<(String, String), ServerMsg> {
        if *self.shutdown.borrow() {
            return Err(server_error("the server is shutting down"));
        }
        let spec = online_spec(spec).map_err(|e| refused(Refusal::BadGame, e))?;
        let clock_ms = self.clock_ms(clock_secs)?;
        let creator_side = match side {
            SideChoice::First => Side::First,
            SideChoice::Second => Side::Second,
            SideChoice::Random => random_side()?,
        };
        // The invites the whole server keeps are bounded (each is stored
        // for `waiting_ttl`), whatever the number of client addresses.
        let max = self.config.max_waiting_rooms;
        if max > 0 {
            let waiting = self.store.count_waiting().await.map_err(|_| {
                server_error("the server cannot store new games right now: try again in a while")
            })?;
            if waiting >= max {
                return Err(refused(
                    Refusal::Full,
                    "this server holds as many open invites as it may: try a quick match, or again later",
                ));
            }
        }
        if rated && super::players::rated_kind(&spec).is_none() {
            return Err(refused(
                Refusal::BadGame,
                "only Territory Duel, Stones! and Mill with the standard rules are rated",
            ));
        }
        let (code, [token, _]) = self
            .new_room(spec, clock_ms, creator_side, false, (creator, rated))
            .await?;
        Ok((code, token))
    }

    /// Joins the queue for (game, rules, clock), or pairs with the player
    /// waiting there.
    pub async fn quick_match(
        self: &Arc<Self>,
        conn: &ConnHandle,
        spec: Variant,
        clock_secs: Option<u32>,
        seeking: Option<Seeking>,
    ) -> Result<Quick, ServerMsg> {
        let spec = online_spec(spec).map_err(|e| refused(Refusal::BadGame, e))?;
        let clock_ms = self.clock_ms(clock_secs)?;
        let rated = seeking.is_some();
        if rated && super::players::rated_kind(&spec).is_none() {
            return Err(refused(
                Refusal::BadGame,
                "only Territory Duel, Stones! and Mill with the standard rules are rated",
            ));
        }
        // Like with like: rated seekers wait under keys of their own.
        let key = format!(
            "{}/{clock_ms}{}",
            serde_json::to_string(&spec).unwrap_or_default(),
            if rated { "/rated" } else { "" }
        );
        // Across the nodes of a cluster the queue is in the database, and
        // the partner's node is told over the bus.
        let placement = self.placement();
        let Some(partner) = placement
            .pair(&key, conn, seeking)
            .await
            .map_err(server_error)?
        else {
            return Ok(Quick::Queued(key));
        };
        // Each seat takes its player's identity as they sit down.
        let result = self
            .new_room(spec, clock_ms, random_side()?, true, (None, rated))
            .await;
        let (code, [first, second]) = match result {
            Ok(r) => r,
            Err(e) => {
                // Put the partner back in the queue; this one gets the error.
                placement.requeue(&key, partner).await;
                return Err(e);
            }
        };
        placement.matched(partner, &code, &first).await;
        Ok(Quick::Matched {
            room: code,
            token: second,
        })
    }

    /// Pairs the waiting rated seekers whose ranges have widened to suit
    /// each other (run every second or so, see `server::start`), so two
    /// of them are paired without a third seeker arriving (in a cluster,
    /// seekers of any two nodes: the node that pairs them makes the room
    /// and each partner's node tells them). Each pair gets a room and
    /// both are told their seats, as a quick match does.
    pub async fn repair(self: &Arc<Self>) {
        let placement = self.placement();
        for (key, a, b) in placement.repair().await {
            // The key is "{spec}/{clock_ms}/rated" (see `quick_match`).
            let parsed = key
                .strip_suffix("/rated")
                .and_then(|k| k.rsplit_once('/'))
                .and_then(|(spec, clock)| {
                    Some((
                        serde_json::from_str::<Variant>(spec).ok()?,
                        clock.parse().ok()?,
                    ))
                });
            let Some((spec, clock_ms)) = parsed else {
                continue;
            };
            let made = match random_side() {
                Ok(side) => {
                    self.new_room(spec, clock_ms, side, true, (None, true))
                        .await
                }
                Err(e) => Err(e),
            };
            match made {
                Ok((code, [first, second])) => {
                    placement.matched(a, &code, &first).await;
                    placement.matched(b, &code, &second).await;
                }
                Err(_) => {
                    placement.requeue(&key, b).await;
                    placement.requeue(&key, a).await;
                }
            }
        }
    }

    /// The room for a lobby challenge just taken: both seats filled, the
    /// creator player 0 (its identity set now, the taker's as they sit
    /// down). Returns the code and both tokens.
    pub async fn challenge_room(
        self: &Arc<Self>,
        c: &super::lobby::Challenge,
    ) -> Result<(String, [String; 2]), ServerMsg> {
        if *self.shutdown.borrow() {
            return Err(server_error("the server is shutting down"));
        }
        let clock_ms = self.clock_ms(Some(c.clock_secs))?;
        self.new_room(
            c.game,
            clock_ms,
            random_side()?,
            true,
            (Some(c.by.id.clone()), c.rated),
        )
        .await
    }

    /// Takes this node's challenge `id` for `taker` (an identity, if the
    /// taker has one): makes the room, tells the creator's connection its
    /// seat, and returns the room and the taker's token. Refused when the
    /// challenge is gone, is the taker's own, or is rated and the taker
    /// has no name. Asked by this node's connections and, in a cluster,
    /// by other nodes' for their connections.
    pub async fn take_challenge(
        self: &Arc<Self>,
        id: &str,
        taker: Option<&str>,
    ) -> Result<(String, String), ServerMsg> {
        let gone = || {
            refused(
                Refusal::NoSuchChallenge,
                "this challenge is gone (taken, cancelled, or its creator left)",
            )
        };
        let c = self.lobby.get(id).ok_or_else(gone)?;
        if taker == Some(c.by.id.as_str()) {
            return Err(refused(
                Refusal::OwnChallenge,
                "this is your own challenge: nobody plays themselves",
            ));
        }
        if c.rated && taker.is_none() {
            return Err(refused(
                Refusal::NoIdentity,
                "a rated game needs a name: choose one first",
            ));
        }
        let c = self.lobby.take(id).ok_or_else(gone)?;
        match self.challenge_room(&c).await {
            Ok((room, [first, second])) => {
                c.conn.tell(super::handle::ConnEvent::Matched {
                    room: room.clone(),
                    token: first,
                });
                Ok((room, second))
            }
            Err(answer) => {
                self.lobby.put_back(c);
                Err(answer)
            }
        }
    }

    /// Another node's challenge `id` (listed there): asks that node.
    pub async fn take_remote_challenge(
        &self,
        node: &str,
        id: &str,
        taker: Option<&str>,
    ) -> Result<(String, String), ServerMsg> {
        self.placement().take_challenge(node, id, taker).await
    }

    /// Leaves the queue (if this connection is the one waiting under `key`).
    /// Done when no pairing can find it any more (a cluster node deletes
    /// its row first: a pairing on another node just after the player
    /// was told `queue_cancelled` would otherwise hand them a seat).
    pub async fn cancel_quick_match(&self, key: &str, conn_id: u64) {
        self.placement().cancel(key, conn_id).await;
    }

    /// Ends every connection, saves every room's clock (a cluster node
    /// hands its rooms over to the others) and closes the store.
    pub async fn shutdown(&self) {
        let stop_accepting = Box::new(|| {
            self.shutdown.send_replace(true);
        });
        self.placement().stop(self, stop_accepting).await;
        lock(&self.rooms).clear();
        self.store.close().await;
    }
}

/// The hub as its rooms see it.
impl room::Host for Hub {
    fn settings(&self) -> room::Settings {
        room::Settings {
            waiting_ttl: self.config.waiting_ttl,
            max_spectators: self.config.max_spectators,
            auto_resume: self.config.auto_resume,
            pauses_per_player: self.config.pauses_per_player,
            finished_linger: self.config.finished_linger,
        }
    }

    fn store(&self) -> &Store {
        &self.store
    }

    fn storage_result(&self, what: &str, result: &Result<(), String>) {
        Hub::storage_result(self, what, result);
    }

    fn retire(&self, code: &str, instance: u64, rx: &mpsc::Receiver<RoomCmd>) -> bool {
        Hub::retire(self, code, instance, rx)
    }

    fn live_game(&self, code: &str, game: Option<crate::protocol::online::LiveGame>) {
        self.lobby.live_game(code, game);
    }
}

/// The hub as its placement sees it.
impl Local for Hub {
    fn next_id(&self) -> u64 {
        Hub::next_id(self)
    }

    fn out_queue(&self) -> usize {
        self.config.out_queue
    }

    fn listed(&self) -> Vec<(String, mpsc::Sender<RoomCmd>)> {
        Hub::listed(self)
    }

    fn unlist(&self, code: &str, tx: &mpsc::Sender<RoomCmd>) {
        Hub::unlist(self, code, tx);
    }

    fn attach<'a>(
        self: Arc<Self>,
        code: &'a str,
        conn: &'a ConnHandle,
        how: Attach,
    ) -> Attaching<'a> {
        Box::pin(async move { Hub::attach(&self, code, conn, how).await })
    }

    fn lobby(&self) -> &super::lobby::Lobby {
        &self.lobby
    }

    fn take_challenge<'a>(
        self: Arc<Self>,
        id: &'a str,
        taker: Option<&'a str>,
    ) -> Pending<'a, Result<(String, String), ServerMsg>> {
        Box::pin(async move { Hub::take_challenge(&self, id, taker).await })
    }
}

fn random_side() -> Result<Side, ServerMsg> {
    let heads = ids::coin().map_err(server_error)?;
    Ok(if heads { Side::First } else { Side::Second })
}
