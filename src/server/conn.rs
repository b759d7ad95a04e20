//! One WebSocket connection: reads and checks the client's messages, keeps
//! its rate in bounds, and writes what the rooms send it through a bounded
//! queue (a client that does not read is disconnected, never buffered
//! without end).

// Errors here are ready-to-send answers (`refused`/`error`), never the
// large `state`: boxing them would buy nothing.
#![allow(clippy::result_large_err)]

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, Notify};
use tokio::time::Instant;

use super::handle::{refused, ConnEvent, ConnHandle};
use super::hub::{Hub, Quick};
use super::listen::Ticket;
use super::placement::Seeking;
use super::players::pairing::Seeker;
use super::players::{self, sqlite::Player, PlayerError};
use super::room::{Action, Attach, RoomCmd};
use super::store::{Answer, PlayerJob, Query};
use crate::protocol::online::{
    ClientMsg, ErrorCode, Event, Limits, PlayerTag, Refusal, ServerMsg, MAX_CLOCK_SECS, MAX_PLIES,
    PROTOCOL_VERSION,
};

/// WebSocket close codes the server uses.
pub mod close {
    /// The server is shutting down or restarting (RFC 6455 1012).
    pub const RESTART: u16 = 1012;
    /// Too many messages, or a protocol violation (1008).
    pub const POLICY: u16 = 1008;
    /// A message over the size limit (1009).
    pub const TOO_BIG: u16 = 1009;
    /// Nothing heard for too long (1001, going away).
    pub const IDLE: u16 = 1001;
    /// `hello` named another protocol version.
    pub const VERSION: u16 = 4001;
}

/// A token bucket: `rate` frames a second on average, `burst` at once.
/// Messages past the bucket are answered `rate_limited` and dropped; a
/// client that keeps going (another `burst` past empty) is closed.
/// WebSocket pings and pongs count too (issue 33: they did not, and one
/// connection sent 7.2 M pings in 5 s; four such cost 7.8 s of server CPU
/// in 10 s and raised a bystander's move round trip from 0.7 to 13.9 ms).
struct Bucket {
    tokens: f64,
    last: Instant,
    rate: f64,
    burst: f64,
}

enum Take {
    Ok,
    Limited,
    Abusive,
}

impl Bucket {
    fn take(&mut self, now: Instant) -> Take {
        let refill = now.saturating_duration_since(self.last).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + refill).min(self.burst);
        self.last = now;
        self.tokens -= 1.0;
        if self.tokens >= 0.0 {
            Take::Ok
        } else if self.tokens > -self.burst {
            Take::Limited
        } else {
            Take::Abusive
        }
    }
}

/// What to do after a message.
enum Flow {
    Go,
    Close(u16, &'static str),
}

struct Conn {
    hub: Arc<Hub>,
    handle: ConnHandle,
    hello: bool,
    /// The room this connection is in.
    room: Option<mpsc::Sender<RoomCmd>>,
    /// The quick-match queue key this connection waits under.
    queued: Option<String>,
    rooms_created: u32,
    /// The client's address (new games are limited per address).
    peer: IpAddr,
    /// The identity this connection is (after `register` or `identify`).
    player: Option<Player>,
}

fn error(code: ErrorCode, message: impl Into<String>) -> ServerMsg {
    ServerMsg::Error {
        code,
        message: message.into(),
    }
}

/// Clips a parser message (which may quote the client's text).
fn clip(mut s: String, n: usize) -> String {
    if s.len() > n {
        let mut end = n;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push('…');
    }
    s
}

/// Reads a client message; the error is the message to answer with.
pub fn parse(text: &str) -> Result<ClientMsg, ServerMsg> {
    let err = match serde_json::from_str::<ClientMsg>(text) {
        Ok(msg) => return Ok(msg),
        Err(e) => e,
    };
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(_) => {
            return Err(error(
                ErrorCode::BadJson,
                clip(format!("not JSON: {err}"), 200),
            ))
        }
    };
    let Some(kind) = value.get("type").and_then(|t| t.as_str()) else {
        return Err(error(
            ErrorCode::UnknownType,
            "a message is a JSON object with a \"type\"",
        ));
    };
    // Whether the type itself is unknown (and not some value inside the
    // message): a message with just this type says so.
    let bare = serde_json::json!({ "type": kind }).to_string();
    let type_unknown = serde_json::from_str::<ClientMsg>(&bare)
        .err()
        .is_some_and(|e| e.to_string().starts_with("unknown variant"));
    if type_unknown {
        return Err(error(
            ErrorCode::UnknownType,
            clip(format!("unknown message type '{kind}'"), 200),
        ));
    }
    Err(error(
        ErrorCode::BadMessage,
        clip(format!("bad '{kind}' message: {err}"), 200),
    ))
}

/// Serves one upgraded WebSocket until it closes.
pub async fn run(socket: WebSocket, hub: Arc<Hub>, _ticket: Arc<Ticket>, peer: IpAddr) {
    let cfg = hub.config.clone();
    let (sink, mut stream) = socket.split();
    let (out_tx, out_rx) = mpsc::channel(cfg.out_queue);
    let (ctl_tx, mut ctl_rx) = mpsc::channel(4);
    let kill = Arc::new(Notify::new());
    let finish = Arc::new(Notify::new());
    let handle = ConnHandle::new(hub.next_id(), out_tx, kill.clone(), ctl_tx);
    let writer = tokio::spawn(write(
        sink,
        out_rx,
        kill.clone(),
        finish.clone(),
        cfg.write_timeout,
    ));
    let mut conn = Conn {
        hub: hub.clone(),
        handle: handle.clone(),
        hello: false,
        room: None,
        queued: None,
        rooms_created: 0,
        player: None,
        peer,
    };
    let mut bucket = Bucket {
        tokens: f64::from(cfg.burst),
        last: Instant::now(),
        rate: f64::from(cfg.rate_per_sec),
        burst: f64::from(cfg.burst),
    };
    let mut shutdown = hub.shutdown_signal();
    let mut ping = tokio::time::interval(cfg.ping_interval);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_heard = Instant::now();
    let opened = last_heard;
    // Our own pings not yet answered: a pong answering one is free (the
    // first ping goes out as the connection opens, so charging its answer
    // would take a frame of every client's first burst).
    let mut pings_unanswered: u32 = 0;

    let ending: Option<(u16, &'static str)> = loop {
        tokio::select! {
            frame = stream.next() => {
                let msg = match frame {
                    None => break None,
                    Some(Err(e)) => {
                        // Over the size limit, or not WebSocket: close.
                        let too_big = e.to_string().to_ascii_lowercase().contains("too long")
                            || e.to_string().to_ascii_lowercase().contains("size");
                        break Some(if too_big {
                            (close::TOO_BIG, "message too big")
                        } else {
                            (close::POLICY, "protocol error")
                        });
                    }
                    Some(Ok(msg)) => msg,
                };
                last_heard = Instant::now();
                let text = match msg {
                    Message::Text(t) => Some(t),
                    Message::Binary(_) => None,
                    // Control frames spend the same budget (each costs a
                    // wake-up, and a ping an answer, which the WebSocket
                    // library sends itself): a client that keeps going past
                    // it is closed like any other flood. A pong answering
                    // our own ping is free (above).
                    Message::Pong(_) if pings_unanswered > 0 => {
                        pings_unanswered -= 1;
                        continue;
                    }
                    Message::Ping(_) | Message::Pong(_) => match bucket.take(last_heard) {
                        Take::Ok | Take::Limited => continue,
                        Take::Abusive => break Some((close::POLICY, "rate limit")),
                    },
                    Message::Close(_) => break None,
                };
                match bucket.take(last_heard) {
                    Take::Ok => {}
                    Take::Limited => {
                        handle.send(&error(ErrorCode::RateLimited, "too many messages: slow down"));
                        continue;
                    }
                    Take::Abusive => break Some((close::POLICY, "rate limit")),
                }
                let flow = match text {
                    Some(t) => conn.on_text(t.as_str()).await,
                    None => {
                        handle.send(&error(ErrorCode::Binary, "send JSON text frames"));
                        Flow::Go
                    }
                };
                if let Flow::Close(code, why) = flow {
                    break Some((code, why));
                }
            }
            Some(event) = ctl_rx.recv() => conn.on_event(event).await,
            () = kill.notified() => break None,
            _ = ping.tick() => {
                if last_heard.elapsed() > cfg.idle_timeout {
                    break Some((close::IDLE, "idle"));
                }
                if !conn.hello && opened.elapsed() > cfg.ping_interval {
                    break Some((close::POLICY, "no hello"));
                }
                if handle.out_ping() {
                    pings_unanswered = pings_unanswered.saturating_add(1).min(2);
                }
            }
            () = super::listen::stopped(&mut shutdown) => break Some((close::RESTART, "server restarting")),
        }
    };

    conn.leave().await;
    conn.cancel_queue().await;
    // Its challenge leaves the lobby with it.
    hub.lobby.cancel(handle.id);
    hub.lobby.unwatch(handle.id);
    let closing = ending.is_some();
    if let Some((code, reason)) = ending {
        handle.close(code, reason);
    }
    drop(conn);
    drop(handle);
    finish.notify_one();
    if closing {
        // The closing handshake: read (and drop) what the client still
        // sends until its close arrives, so it reads our last messages
        // before the socket goes (closing with unread input resets it).
        let _ = tokio::time::timeout(Duration::from_secs(2), async {
            while let Some(Ok(msg)) = stream.next().await {
                if matches!(msg, Message::Close(_)) {
                    break;
                }
            }
        })
        .await;
    }
    // The writer drains what is queued; a client that does not read is cut.
    let mut writer = writer;
    if tokio::time::timeout(cfg.write_timeout, &mut writer)
        .await
        .is_err()
    {
        writer.abort();
    }
}

/// Writes queued frames until the queue closes, `finish` is signalled (then
/// what is queued is still sent) or a write fails or stalls (then `kill`).
async fn write(
    mut sink: futures_util::stream::SplitSink<WebSocket, Message>,
    mut rx: mpsc::Receiver<Message>,
    kill: Arc<Notify>,
    finish: Arc<Notify>,
    timeout: Duration,
) {
    let mut finishing = false;
    loop {
        let msg = if finishing {
            match rx.try_recv() {
                Ok(m) => m,
                Err(_) => break,
            }
        } else {
            tokio::select! {
                biased;
                m = rx.recv() => match m {
                    Some(m) => m,
                    None => break,
                },
                () = finish.notified() => {
                    finishing = true;
                    continue;
                }
            }
        };
        let closing = matches!(msg, Message::Close(_));
        match tokio::time::timeout(timeout, sink.send(msg)).await {
            Ok(Ok(())) if !closing => {}
            Ok(Ok(())) => break,
            Ok(Err(_)) | Err(_) => {
                kill.notify_one();
                return;
            }
        }
    }
    let _ = tokio::time::timeout(timeout, sink.close()).await;
}

impl ConnHandle {
    fn out_ping(&self) -> bool {
        self.send_raw(Message::Ping(Default::default()))
    }

    fn close(&self, code: u16, reason: &str) {
        self.send_raw(Message::Close(Some(CloseFrame {
            code,
            reason: reason.into(),
        })));
    }
}

impl Conn {
    fn send(&self, msg: &ServerMsg) {
        self.handle.send(msg);
    }

    /// Whether this client's address may start one more game (counted);
    /// if not, it is told so.
    fn may_create(&self) -> bool {
        if self.hub.creations.take(self.peer) {
            return true;
        }
        self.send(&refused(
            Refusal::Full,
            "too many new games from your address: try again in a few minutes",
        ));
        false
    }

    /// `register`: a new identity with this name, which this connection
    /// then is. New identities count against the address's bucket of new
    /// games (each is a row kept for good).
    async fn register(&mut self, typed: &str) {
        let name = match players::name::check(typed) {
            Ok(name) => name,
            Err(e) => return self.send_player_error(&PlayerError::Name(e)),
        };
        if !self.hub.creations.take(self.peer) {
            return self.send(&refused(
                Refusal::TooMany,
                "too many new identities from your address: try again in a few minutes",
            ));
        }
        let (secret, id) = match players::identity::fresh() {
            Ok(fresh) => fresh,
            Err(e) => return self.send(&error(ErrorCode::Server, e)),
        };
        let job = PlayerJob::Register {
            id,
            secret: secret.clone(),
            name,
        };
        self.player_job(job, Some(secret)).await;
    }

    /// `identify`: this connection is the identity whose secret (or
    /// recovery code) this is.
    async fn identify(&mut self, typed: &str) {
        let Some(secret) = players::identity::parse_secret(typed) else {
            return self.send(&refused(
                Refusal::BadIdentity,
                "this is not an identity's secret or recovery code",
            ));
        };
        self.player_job(PlayerJob::Identify { secret }, None).await;
    }

    /// `rename`: a new name for this connection's identity.
    async fn rename(&mut self, typed: &str) {
        let Some(id) = self.player.as_ref().map(|p| p.id.clone()) else {
            return self.send(&refused(
                Refusal::NoIdentity,
                "register or identify before changing a name",
            ));
        };
        let name = match players::name::check(typed) {
            Ok(name) => name,
            Err(e) => return self.send_player_error(&PlayerError::Name(e)),
        };
        let every_ms = self.hub.config.rename_every.as_millis() as u64;
        self.player_job(PlayerJob::Rename { id, name, every_ms }, None)
            .await;
    }

    /// Asks the store and answers `identity` (this connection is then
    /// that player) or the refusal; nothing changes on a refusal.
    async fn player_job(&mut self, job: PlayerJob, secret: Option<String>) {
        let unknown_secret = matches!(job, PlayerJob::Identify { .. });
        match self.hub.store.player(job).await {
            Ok(Ok(known)) => {
                let now = super::store::now_ms();
                let every_ms = self.hub.config.rename_every.as_millis() as u64;
                let rename_at = known.player.renamed_ms.saturating_add(every_ms);
                let ratings = known.standings.iter().map(|s| s.info(now)).collect();
                let msg = ServerMsg::Identity {
                    player: PlayerTag {
                        id: known.player.id.clone(),
                        name: known.player.name.clone(),
                        rating: None,
                        provisional: false,
                    },
                    secret,
                    ratings,
                    rename_in_ms: rename_at.saturating_sub(now),
                };
                self.player = Some(known.player);
                self.send(&msg);
            }
            Ok(Err(PlayerError::NoSuchPlayer)) if unknown_secret => self.send(&refused(
                Refusal::BadIdentity,
                "no identity has this secret or recovery code",
            )),
            Ok(Err(e)) => self.send_player_error(&e),
            Err(e) => {
                eprintln!("server: a player operation failed: {e}");
                self.send(&error(
                    ErrorCode::Server,
                    "the server cannot reach its database: try again soon",
                ));
            }
        }
    }

    /// `challenge`: an open challenge in the lobby, by this named player.
    async fn challenge(
        &mut self,
        game: crate::games::any::Variant,
        clock_secs: Option<u32>,
        rated: bool,
    ) {
        let Some(me) = self.me() else {
            return self.send(&refused(
                Refusal::NoIdentity,
                "a challenge needs a name: choose one first",
            ));
        };
        let spec = match crate::server::hub::online_spec(game) {
            Ok(spec) => spec,
            Err(e) => return self.send(&refused(Refusal::BadGame, e)),
        };
        let clock_secs = clock_secs.unwrap_or(crate::protocol::online::DEFAULT_CLOCK_SECS);
        if let Err(answer) = self.hub.clock_ms(Some(clock_secs)) {
            return self.send(&answer);
        }
        let kind = players::rated_kind(&spec);
        if rated && kind.is_none() {
            return self.send(&refused(
                Refusal::BadGame,
                "only Territory Duel, Stones! and Mill with the standard rules are rated",
            ));
        }
        let by = match self
            .hub
            .store
            .query(Query::Tags {
                ids: [Some(me), None],
                game: kind,
            })
            .await
        {
            Ok(Ok(Answer::Tags([Some(tag), _]))) => tag,
            Ok(Ok(_)) => {
                return self.send(&refused(
                    Refusal::NoIdentity,
                    "your identity is gone: register again",
                ))
            }
            Ok(Err(e)) => return self.send_player_error(&e),
            Err(e) => {
                eprintln!("server: a player read failed: {e}");
                return self.send(&error(
                    ErrorCode::Server,
                    "the server cannot reach its database: try again soon",
                ));
            }
        };
        let id = match super::ids::random(super::ids::KEY_BYTES) {
            Ok(id) => id,
            Err(e) => return self.send(&error(ErrorCode::Server, e)),
        };
        let posted = self.hub.lobby.post(super::lobby::Challenge {
            id: id.clone(),
            game: spec,
            clock_secs,
            rated,
            by,
            conn: self.handle.clone(),
            addr: self.peer,
            seq: 0,
        });
        use super::lobby::PostError;
        match posted {
            Ok(()) => self.send(&ServerMsg::ChallengePosted { id }),
            Err(PostError::AlreadyPosted) => self.send(&refused(
                Refusal::TooMany,
                "you have a challenge in the lobby already: cancel it first",
            )),
            Err(PostError::TooMany) => self.send(&refused(
                Refusal::TooMany,
                "too many open challenges from you or your address: wait until one is taken",
            )),
            Err(PostError::Full) => self.send(&refused(
                Refusal::Full,
                "the lobby is full: try a quick match",
            )),
        }
    }

    /// `take_challenge`: the seat a challenge offers; both get `seat` and
    /// `state`. A challenge listed by another cluster node is taken there
    /// (its node makes the room and tells its creator).
    async fn take_challenge(&mut self, id: &str) {
        let me = self.me();
        let (node, by, rated) = match self.hub.lobby.get(id) {
            Some(c) if c.conn.id == self.handle.id => {
                return self.send(&refused(
                    Refusal::OwnChallenge,
                    "this is your own challenge: nobody plays themselves",
                ))
            }
            Some(c) => (None, c.by.id, c.rated),
            None => match self.hub.lobby.remote(id) {
                Some((node, c)) => (Some(node), c.by.id, c.rated),
                None => {
                    return self.send(&refused(
                        Refusal::NoSuchChallenge,
                        "this challenge is gone (taken, cancelled, or its creator left)",
                    ))
                }
            },
        };
        if me.as_deref() == Some(by.as_str()) {
            return self.send(&refused(
                Refusal::OwnChallenge,
                "this is your own challenge: nobody plays themselves",
            ));
        }
        if rated && me.is_none() {
            return self.send(&refused(
                Refusal::NoIdentity,
                "a rated game needs a name: choose one first",
            ));
        }
        if !self.may_create() {
            return;
        }
        let taken = match &node {
            None => self.hub.take_challenge(id, me.as_deref()).await,
            Some(node) => {
                self.hub
                    .take_remote_challenge(node, id, me.as_deref())
                    .await
            }
        };
        match taken {
            Ok((room, token)) => {
                self.enter(&room, Attach::Token(token, Event::Started, me))
                    .await;
            }
            Err(answer) => self.send(&answer),
        }
    }

    /// This connection's identity (public id), if it has one.
    fn me(&self) -> Option<String> {
        self.player.as_ref().map(|p| p.id.clone())
    }

    /// What a rated quick match for `game` seeks: this identity and its
    /// rating in the game. `None` (the player told why): no identity, a
    /// game without a rating, or the store failed.
    async fn seeking(&self, game: &crate::games::any::Variant) -> Option<Seeking> {
        let Some(me) = self.me() else {
            self.send(&refused(
                Refusal::NoIdentity,
                "a rated game needs a name: choose one first",
            ));
            return None;
        };
        let spec = crate::server::hub::online_spec(*game).ok()?;
        let Some(kind) = players::rated_kind(&spec) else {
            self.send(&refused(
                Refusal::BadGame,
                "only Territory Duel, Stones! and Mill with the standard rules are rated",
            ));
            return None;
        };
        let ids = [Some(me.clone()), None];
        match self
            .hub
            .store
            .query(Query::Tags {
                ids,
                game: Some(kind),
            })
            .await
        {
            Ok(Ok(Answer::Tags([Some(tag), _]))) => Some(Seeking {
                player: me,
                seeker: Seeker {
                    rating: tag.rating.unwrap_or(1500),
                    provisional: tag.provisional,
                    since_ms: super::store::now_ms(),
                    widen_every_ms: self.hub.config.widen_every.as_millis() as u64,
                },
            }),
            Ok(Ok(_)) => {
                self.send(&refused(
                    Refusal::NoIdentity,
                    "your identity is gone: register again",
                ));
                None
            }
            Ok(Err(e)) => {
                self.send_player_error(&e);
                None
            }
            Err(e) => {
                eprintln!("server: a player operation failed: {e}");
                self.send(&error(
                    ErrorCode::Server,
                    "the server cannot reach its database: try again soon",
                ));
                None
            }
        }
    }

    /// Answers a read of the players' tables (a player's page, a
    /// leaderboard, a finished game): the message, or the refusal.
    async fn query(&self, q: Query) {
        match self.hub.store.query(q).await {
            Ok(Ok(Answer::Msg(msg))) => {
                self.send(&msg);
            }
            Ok(Ok(Answer::Tags(_) | Answer::Before(_))) => {}
            Ok(Err(e)) => self.send_player_error(&e),
            Err(e) => {
                eprintln!("server: a player read failed: {e}");
                self.send(&error(
                    ErrorCode::Server,
                    "the server cannot reach its database: try again soon",
                ));
            }
        }
    }

    fn send_player_error(&self, e: &PlayerError) {
        match e.refusal() {
            Some((code, reason)) => self.send(&refused(code, reason)),
            None => {
                eprintln!("server: a player operation failed: {e}");
                self.send(&error(
                    ErrorCode::Server,
                    "the server's database failed: try again soon",
                ));
            }
        }
    }

    fn limits(&self) -> Limits {
        let c = &self.hub.config;
        Limits {
            max_message_bytes: c.max_message_bytes as u32,
            rate_per_sec: c.rate_per_sec,
            burst: c.burst,
            min_clock_secs: c.min_clock_secs,
            max_clock_secs: MAX_CLOCK_SECS,
            pauses_per_player: c.pauses_per_player,
            auto_resume_ms: c.auto_resume.as_millis() as u64,
            max_plies: MAX_PLIES,
        }
    }

    async fn on_text(&mut self, text: &str) -> Flow {
        let msg = match parse(text) {
            Ok(m) => m,
            Err(answer) => {
                self.send(&answer);
                return Flow::Go;
            }
        };
        if let ClientMsg::Hello { v } = msg {
            if v != PROTOCOL_VERSION {
                self.send(&error(
                    ErrorCode::Version,
                    format!(
                        "this server speaks protocol version {PROTOCOL_VERSION}, the page version {v}: reload the page"
                    ),
                ));
                return Flow::Close(close::VERSION, "protocol version");
            }
            self.hello = true;
            self.send(&ServerMsg::Welcome {
                v: PROTOCOL_VERSION,
                limits: self.limits(),
                server_ms: super::store::now_ms(),
            });
            return Flow::Go;
        }
        if !self.hello {
            self.send(&error(
                ErrorCode::HelloFirst,
                format!("send {{\"type\":\"hello\",\"v\":{PROTOCOL_VERSION}}} first"),
            ));
            return Flow::Go;
        }
        match msg {
            ClientMsg::Hello { .. } => {}
            ClientMsg::Create {
                game,
                clock_secs,
                side,
                rated,
            } => {
                if rated && self.player.is_none() {
                    self.send(&refused(
                        Refusal::NoIdentity,
                        "a rated game needs a name: choose one first",
                    ));
                    return Flow::Go;
                }
                if self.rooms_created >= self.hub.config.max_rooms_per_conn {
                    self.send(&refused(
                        Refusal::Full,
                        "too many rooms made on this connection",
                    ));
                    return Flow::Go;
                }
                if !self.may_create() {
                    return Flow::Go;
                }
                match self
                    .hub
                    .create(game, clock_secs, side, (self.me(), rated))
                    .await
                {
                    Ok((code, token)) => {
                        self.rooms_created += 1;
                        let me = self.me();
                        self.enter(&code, Attach::Token(token, Event::Sync, me))
                            .await;
                    }
                    Err(answer) => self.send(&answer),
                }
            }
            ClientMsg::Join { room, key } => {
                let player = self.me();
                self.enter(&room, Attach::Join { key, player }).await
            }
            ClientMsg::Reconnect { room, token } => {
                let me = self.me();
                self.enter(&room, Attach::Token(token, Event::Sync, me))
                    .await
            }
            ClientMsg::Watch { room } => self.enter(&room, Attach::Watch).await,
            ClientMsg::QuickMatch {
                game,
                clock_secs,
                rated,
            } => {
                let seeking = if rated {
                    match self.seeking(&game).await {
                        Some(s) => Some(s),
                        None => return Flow::Go,
                    }
                } else {
                    None
                };
                if self.queued.is_some() {
                    self.send(&refused(Refusal::AlreadyQueued, "you are already waiting"));
                    return Flow::Go;
                }
                if !self.may_create() {
                    return Flow::Go;
                }
                match self
                    .hub
                    .quick_match(&self.handle, game, clock_secs, seeking)
                    .await
                {
                    Ok(Quick::Queued(key)) => {
                        self.queued = Some(key);
                        let clock_secs =
                            clock_secs.unwrap_or(crate::protocol::online::DEFAULT_CLOCK_SECS);
                        let game = crate::server::hub::online_spec(game).unwrap_or(game);
                        self.send(&ServerMsg::Queued { game, clock_secs });
                    }
                    Ok(Quick::Matched { room, token }) => {
                        let me = self.me();
                        self.enter(&room, Attach::Token(token, Event::Started, me))
                            .await
                    }
                    Err(answer) => self.send(&answer),
                }
            }
            ClientMsg::CancelQuickMatch => {
                if self.queued.is_some() {
                    self.cancel_queue().await;
                    self.send(&ServerMsg::QueueCancelled);
                } else {
                    self.send(&refused(
                        Refusal::NotQueued,
                        "you are not waiting for a match",
                    ));
                }
            }
            ClientMsg::Leave => self.leave().await,
            ClientMsg::Ping { t } => self.send(&ServerMsg::Pong {
                t,
                server_ms: super::store::now_ms(),
            }),
            ClientMsg::Sync => self.act(Action::Sync).await,
            ClientMsg::Move { ply, mv } => self.act(Action::Move { ply, mv }).await,
            ClientMsg::Pause => self.act(Action::Pause).await,
            ClientMsg::Unpause => self.act(Action::Unpause).await,
            ClientMsg::Resign => self.act(Action::Resign).await,
            ClientMsg::OfferDraw => self.act(Action::OfferDraw).await,
            ClientMsg::AnswerDraw { accept } => self.act(Action::AnswerDraw(accept)).await,
            ClientMsg::Rematch => self.act(Action::Rematch).await,
            ClientMsg::CancelInvite => self.act(Action::CancelInvite).await,
            // Issue 37's messages: designed (protocol::online), answered
            // as an older server answers them until the server side lands.
            ClientMsg::Register { name } => self.register(&name).await,
            ClientMsg::Identify { secret } => self.identify(&secret).await,
            ClientMsg::Rename { name } => self.rename(&name).await,
            ClientMsg::Player { who, page } => {
                let who = who.trim().to_string();
                if who.is_empty() || who.len() > 256 {
                    self.send(&refused(
                        Refusal::NoSuchPlayer,
                        "no player has this id or name",
                    ));
                } else {
                    self.query(Query::Player { who, page }).await;
                }
            }
            ClientMsg::Leaderboard { game } => self.query(Query::Leaderboard { game }).await,
            ClientMsg::Lobby => self.hub.lobby.watch(&self.handle),
            ClientMsg::LeaveLobby => self.hub.lobby.unwatch(self.handle.id),
            ClientMsg::Challenge {
                game,
                clock_secs,
                rated,
            } => self.challenge(game, clock_secs, rated).await,
            ClientMsg::CancelChallenge => {
                if self.hub.lobby.cancel(self.handle.id) {
                    self.send(&ServerMsg::ChallengeCancelled);
                } else {
                    self.send(&refused(
                        Refusal::NoSuchChallenge,
                        "you have no challenge in the lobby",
                    ));
                }
            }
            ClientMsg::TakeChallenge { id } => self.take_challenge(&id).await,
            ClientMsg::Archive { room, game_no } => match super::ids::normalize(&room) {
                Some(room) => self.query(Query::Archive { room, game_no }).await,
                None => self.send(&refused(
                    Refusal::NoSuchGame,
                    "no finished game has this room and number",
                )),
            },
        }
        Flow::Go
    }

    async fn on_event(&mut self, event: ConnEvent) {
        match event {
            ConnEvent::Matched { room, token } => {
                self.queued = None;
                let me = self.me();
                self.enter(&room, Attach::Token(token, Event::Started, me))
                    .await;
            }
        }
    }

    /// Leaves the current room (if any) and enters `code`.
    async fn enter(&mut self, code: &str, how: Attach) {
        self.leave().await;
        // Entering a room stops following the lobby (a challenge stands).
        self.hub.lobby.unwatch(self.handle.id);
        match self.hub.attach(code, &self.handle, how).await {
            Ok(tx) => self.room = Some(tx),
            Err(answer) => self.send(&answer),
        }
    }

    async fn leave(&mut self) {
        if let Some(tx) = self.room.take() {
            let _ = tx
                .send(RoomCmd::Detach {
                    conn: self.handle.id,
                })
                .await;
        }
    }

    async fn cancel_queue(&mut self) {
        if let Some(key) = self.queued.take() {
            self.hub.cancel_quick_match(&key, self.handle.id).await;
        }
    }

    async fn act(&mut self, action: Action) {
        let Some(tx) = &self.room else {
            self.send(&refused(Refusal::NotInRoom, "enter a room first"));
            return;
        };
        let cmd = RoomCmd::Act {
            conn: self.handle.id,
            action,
        };
        if tx.send(cmd).await.is_err() {
            self.room = None;
            self.send(&refused(Refusal::NotInRoom, "the room has closed"));
        }
    }
}
