//! The online session: what a tab knows about its connection and its
//! room, and how each [`ServerMsg`] changes it. The page (`ui::online`)
//! owns the WebSocket and the timers; it feeds every event into a
//! [`OnlineSession`] and carries out the [`Effect`]s it gets back: entering a
//! room, refusals, moves in flight, reconnecting, and the clock shown
//! from the server's numbers.
//!
//! Nothing here decides the game: the server referees. The page shows the
//! server's state and sends moves with the state's ply; a refused move
//! brings the server's state back (`refused` is followed by `state`).

use crate::games::any::Variant;
use crate::games::GameKind;
use crate::games::{Illegal, Outcome, Side};
use crate::protocol::online::{
    BoardRow, ChallengeInfo, ClientMsg, ErrorCode, Event, GameState, GameSummary, LiveGame,
    PlayerTag, RatingHistory, RatingInfo, Refusal, ServerMsg, SideChoice, Status, PROTOCOL_VERSION,
};

use super::identity::Me;
use super::timing::{backoff_ms, left_now};

/// What this tab wants from the server; it is asked again after every
/// reconnection, so a dropped connection picks up where it was.
#[derive(Clone, Debug, PartialEq)]
pub enum Intent {
    /// Nothing (stopped after a halt, or left the page).
    Idle,
    /// The setup screen (issue 37): a connection for the player's
    /// identity (register, identify, rename) that follows the lobby.
    Lobby,
    Create {
        game: Variant,
        clock_secs: u32,
        side: SideChoice,
        /// A rated game: invites are casual unless the player asks.
        rated: bool,
    },
    Join {
        room: String,
        key: String,
    },
    /// Your seat (after create, join, quick match, or from this device's store).
    Seat {
        room: String,
        token: String,
    },
    Watch {
        room: String,
    },
    QuickMatch {
        game: Variant,
        clock_secs: u32,
        /// Paired only with players who asked the same (rated or casual).
        rated: bool,
    },
    /// A player's page (by id or name), one page of their games.
    Player {
        who: String,
        page: u32,
    },
}

impl Intent {
    /// The message that asks for it (`None` for [`Intent::Idle`]).
    pub fn message(&self) -> Option<ClientMsg> {
        Some(match self.clone() {
            Intent::Idle => return None,
            Intent::Lobby => ClientMsg::Lobby,
            Intent::Player { who, page } => ClientMsg::Player { who, page },
            Intent::Create {
                game,
                clock_secs,
                side,
                rated,
            } => ClientMsg::Create {
                game,
                clock_secs: Some(clock_secs),
                side,
                rated,
            },
            Intent::Join { room, key } => ClientMsg::Join { room, key },
            Intent::Seat { room, token } => ClientMsg::Reconnect { room, token },
            Intent::Watch { room } => ClientMsg::Watch { room },
            Intent::QuickMatch {
                game,
                clock_secs,
                rated,
            } => ClientMsg::QuickMatch {
                game,
                clock_secs: Some(clock_secs),
                rated,
            },
        })
    }

    /// The room this intent is about, if any.
    pub fn room(&self) -> Option<&str> {
        match self {
            Intent::Join { room, .. } | Intent::Seat { room, .. } | Intent::Watch { room } => {
                Some(room)
            }
            _ => None,
        }
    }
}

/// The connection as the player sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Connection {
    /// Not connected and not trying (idle or stopped).
    Down,
    /// Opening the WebSocket (attempt 0 is the first).
    Connecting { attempt: u32 },
    /// Open and welcomed.
    Open,
    /// Waiting to try again at `retry_at` (monotonic ms).
    Retrying { attempt: u32, retry_at: f64 },
}

/// Something that stops the session until the player does something else.
#[derive(Clone, Debug, PartialEq)]
pub enum Halt {
    /// The server refused to let this tab in (or to make the game).
    Refused { code: Refusal, reason: String },
    /// The server speaks another protocol version: reload the page.
    Version(String),
}

/// A short message about the last thing that happened (a refusal, an
/// error, an opponent leaving), shown for a few seconds.
#[derive(Clone, Debug, PartialEq)]
pub enum Flash {
    /// `why` is an illegal move's typed reason, when the server sent one.
    Refused {
        code: Refusal,
        reason: String,
        why: Option<Illegal>,
    },
    Error {
        code: ErrorCode,
        message: String,
    },
    /// A seated player left (`false`) or came back (`true`).
    Presence {
        side: Side,
        connected: bool,
    },
}

/// Your seat as the server gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatInfo {
    pub room: String,
    pub token: String,
    pub side: Side,
    /// For the creator while the friend's seat is free: goes in the invite.
    pub join_key: Option<String>,
    /// Whether this seat came from `create` (the invite is yours).
    pub created: bool,
}

/// What the page must do after an event.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Send this message.
    Send(ClientMsg),
    /// Keep this seat on the device (for reload, reconnect and resume);
    /// `over` is whether its game has ended.
    Remember { seat: SeatInfo, over: bool },
    /// Forget the stored seat of this room (its token no longer works).
    Forget { room: String },
    /// Close the WebSocket and do not reconnect.
    Stop,
    /// Keep this identity on the device (the server sent its secret,
    /// once, on `register`, or a recovery code proved good).
    KeepIdentity {
        secret: String,
        id: String,
        name: String,
    },
}

/// A player's page as the server sent it (`player_page`).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerView {
    pub player: PlayerTag,
    pub ratings: Vec<RatingInfo>,
    pub history: Vec<RatingHistory>,
    pub games: Vec<GameSummary>,
    pub page: u32,
    pub pages: u32,
}

/// A finished game from the server's archive, to open in review.
#[derive(Clone, Debug, PartialEq)]
pub struct Archived {
    pub game: GameSummary,
    pub start: String,
    pub moves: Vec<String>,
}

/// An identity request in flight ([`OnlineSession::identity_busy`]).
#[derive(Clone, Debug, PartialEq)]
pub enum IdentityAsk {
    /// `identify` with the secret kept on this device.
    Identify,
    /// `identify` with a recovery code typed here.
    Recover(String),
    Register,
    Rename,
}

/// Why the last identity request failed, for the name dialog.
#[derive(Clone, Debug, PartialEq)]
pub struct IdentityProblem {
    pub ask: IdentityAsk,
    pub code: Refusal,
    /// The server's English reason (shown when the code is unknown here).
    pub reason: String,
}

/// Whether a refusal answers an identity request (never a room's).
fn identity_refusal(code: Refusal) -> bool {
    matches!(
        code,
        Refusal::BadIdentity
            | Refusal::NoIdentity
            | Refusal::NameTooShort
            | Refusal::NameTooLong
            | Refusal::NameCharacter
            | Refusal::NameSeparators
            | Refusal::NameMarks
            | Refusal::NameMixedScripts
            | Refusal::NameReserved
            | Refusal::NameTaken
            | Refusal::RenameTooSoon
            | Refusal::TooMany
    )
}

/// A finished online game as the page keeps it ([`OnlineSession::finished`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    pub room: String,
    /// The room's game number (a rematch is the next).
    pub game_no: u32,
    pub game: Variant,
    /// The start position as the server sent it (empty: the usual one).
    pub start: String,
    pub moves: Vec<String>,
    pub outcome: Outcome,
    /// Your side; `None` when you watched.
    pub you: Option<Side>,
    /// The players' names, first side then second, where they had one.
    pub names: [Option<String>; 2],
}

impl Finished {
    /// The game's id in the saved games: the same for every page that
    /// keeps this game of this room (a reload, a second look), so it is
    /// kept once; another for its rematch. FNV-1a of `room/game_no`.
    pub fn saved_id(&self) -> u32 {
        format!("{}/{}", self.room, self.game_no)
            .bytes()
            .fold(0x811c_9dc5u32, |h, b| {
                (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
            })
    }
}

/// One tab's view of online play.
#[derive(Clone, Debug, PartialEq)]
pub struct OnlineSession {
    pub intent: Intent,
    pub connection: Connection,
    /// Whether a connection has ever been welcomed (a later drop is
    /// "reconnecting"; failing from the start is "can't reach").
    pub ever_open: bool,
    /// Entered the room on the current connection (a refusal before that
    /// is a refusal to enter).
    pub entered: bool,
    pub seat: Option<SeatInfo>,
    /// The room's last state and when it arrived (monotonic ms).
    pub state: Option<GameState>,
    pub received_at: f64,
    /// When (on this page's clock) the server took the state's clock
    /// figures: `received_at` less the message's travel time, when the
    /// offset between the clocks is known (see [`OnlineSession::clock_offset`]).
    pub taken_at: f64,
    /// The server's clock minus this page's, and the round trip it was
    /// measured over (the smaller, the better): from `hello` → `welcome`
    /// on each connection, refined by `ping` → `pong`.
    pub clock_offset: Option<(f64, f64)>,
    /// When `hello` and the last unanswered `ping` were sent.
    hello_at: Option<f64>,
    ping_at: Option<f64>,
    /// Waiting in the quick-match queue.
    pub queued: bool,
    /// A move sent and not yet answered: (ply, move).
    pub pending: Option<(u32, String)>,
    pub flash: Option<(Flash, f64)>,
    pub halt: Option<Halt>,
    /// The server's auto-resume time, from `welcome`.
    pub auto_resume_ms: Option<u64>,
    /// The game asked for or being played (known before the first state
    /// when creating or matching).
    pub game: Option<Variant>,
    /// The secret this device keeps for the server: sent with `identify`
    /// on every connection, before anything else.
    pub secret: Option<String>,
    /// This connection's identity, once the server has said.
    pub me: Option<Me>,
    /// An identity request waiting for its answer.
    pub identity_busy: Option<IdentityAsk>,
    pub identity_problem: Option<IdentityProblem>,
    /// The lobby as last sent (open challenges, live games).
    pub lobby: Option<(Vec<ChallengeInfo>, Vec<LiveGame>)>,
    /// The server does not offer the lobby or player pages (an older
    /// server).
    pub lobby_unavailable: bool,
    /// This tab's challenge in the lobby, once posted.
    pub my_challenge: Option<String>,
    /// The player's page asked for, once it came.
    pub player: Option<PlayerView>,
    /// Leaderboards as they came, one per game.
    pub leaderboards: Vec<(GameKind, Vec<BoardRow>)>,
    /// The archived game last asked for.
    pub archive: Option<Archived>,
}

impl Default for OnlineSession {
    fn default() -> Self {
        OnlineSession::new(Intent::Idle)
    }
}

impl OnlineSession {
    /// A session that wants `intent` (connect next).
    pub fn new(intent: Intent) -> Self {
        let game = match &intent {
            Intent::Create { game, .. } | Intent::QuickMatch { game, .. } => Some(*game),
            _ => None,
        };
        OnlineSession::build(intent, game)
    }

    /// A session that wants `intent` and identifies with `secret` (kept on
    /// this device) on every connection.
    pub fn identified(intent: Intent, secret: Option<String>) -> Self {
        let mut s = OnlineSession::new(intent);
        s.secret = secret;
        s
    }

    fn build(intent: Intent, game: Option<Variant>) -> Self {
        OnlineSession {
            game,
            intent,
            connection: Connection::Down,
            ever_open: false,
            entered: false,
            seat: None,
            state: None,
            received_at: 0.0,
            taken_at: 0.0,
            clock_offset: None,
            hello_at: None,
            ping_at: None,
            queued: false,
            pending: None,
            flash: None,
            halt: None,
            auto_resume_ms: None,
            secret: None,
            me: None,
            identity_busy: None,
            identity_problem: None,
            lobby: None,
            lobby_unavailable: false,
            my_challenge: None,
            player: None,
            leaderboards: Vec::new(),
            archive: None,
        }
    }

    /// Whether the page should hold a connection.
    pub fn wants_connection(&self) -> bool {
        self.intent != Intent::Idle && self.halt.is_none()
    }

    /// The WebSocket is being opened.
    pub fn connecting(&mut self) {
        let attempt = match self.connection {
            Connection::Retrying { attempt, .. } | Connection::Connecting { attempt } => attempt,
            _ => 0,
        };
        self.connection = Connection::Connecting { attempt };
    }

    /// The WebSocket opened at `now`: say hello (the intent follows the
    /// welcome).
    pub fn opened(&mut self, now: f64) -> Vec<Effect> {
        self.hello_at = Some(now);
        self.ping_at = None;
        vec![Effect::Send(ClientMsg::Hello {
            v: PROTOCOL_VERSION,
        })]
    }

    /// The WebSocket closed or could not open. Returns how long to wait
    /// before trying again, or `None` when the session should not reconnect.
    pub fn closed(&mut self, now: f64) -> Option<u32> {
        self.entered = false;
        self.queued = false;
        self.pending = None;
        // Asked again on the next connection (identify comes with the
        // welcome); a challenge leaves the lobby with its connection.
        self.identity_busy = None;
        self.my_challenge = None;
        if !self.wants_connection() {
            self.connection = Connection::Down;
            return None;
        }
        let attempt = match self.connection {
            Connection::Connecting { attempt } | Connection::Retrying { attempt, .. } => {
                attempt + 1
            }
            _ => 1,
        };
        let wait = backoff_ms(attempt);
        self.connection = Connection::Retrying {
            attempt,
            retry_at: now + f64::from(wait),
        };
        Some(wait)
    }

    /// Stops everything (the player left the page or cancelled).
    pub fn stop(&mut self) -> Vec<Effect> {
        let mut out = Vec::new();
        if self.queued && self.connection == Connection::Open {
            out.push(Effect::Send(ClientMsg::CancelQuickMatch));
        }
        self.intent = Intent::Idle;
        self.queued = false;
        out.push(Effect::Stop);
        out
    }

    /// Withdraws this tab's invite (the room is deleted on the server and
    /// its seat forgotten here) and stops, when it is an invite nobody has
    /// taken on an open connection; otherwise the same as [`OnlineSession::stop`]
    /// (the seat stays, to come back to).
    pub fn withdraw(&mut self) -> Vec<Effect> {
        let waiting = self
            .state
            .as_ref()
            .is_some_and(|s| s.status == Status::Waiting);
        let created = self.seat.as_ref().is_some_and(|s| s.created);
        let room = self.seat.as_ref().map(|s| s.room.clone());
        match room {
            Some(room)
                if waiting && created && self.entered && self.connection == Connection::Open =>
            {
                self.intent = Intent::Idle;
                self.seat = None;
                vec![
                    Effect::Send(ClientMsg::CancelInvite),
                    Effect::Forget { room },
                    Effect::Stop,
                ]
            }
            _ => self.stop(),
        }
    }

    /// Takes in one message from the server.
    pub fn receive(&mut self, msg: ServerMsg, now: f64) -> Vec<Effect> {
        let mut out = Vec::new();
        match msg {
            ServerMsg::Welcome {
                limits, server_ms, ..
            } => {
                // A new connection may reach another node: measure afresh.
                self.clock_offset = None;
                if let Some(sent) = self.hello_at.take() {
                    self.clock_sample(sent, server_ms, now);
                }
                self.connection = Connection::Open;
                self.ever_open = true;
                self.auto_resume_ms = Some(limits.auto_resume_ms);
                // Who this is comes first, so a rated game or a challenge
                // asked next is this identity's.
                if let Some(secret) = self.secret.clone() {
                    self.identity_busy = Some(IdentityAsk::Identify);
                    out.push(Effect::Send(ClientMsg::Identify { secret }));
                }
                if let Some(m) = self.intent.message() {
                    out.push(Effect::Send(m));
                }
            }
            ServerMsg::Seat {
                room,
                token,
                side,
                join_key,
            } => {
                let created = matches!(self.intent, Intent::Create { .. })
                    || self
                        .seat
                        .as_ref()
                        .is_some_and(|s| s.room == room && s.created);
                let seat = SeatInfo {
                    room: room.clone(),
                    token: token.clone(),
                    side,
                    join_key,
                    created,
                };
                self.queued = false;
                self.intent = Intent::Seat { room, token };
                self.seat = Some(seat.clone());
                out.push(Effect::Remember { seat, over: false });
            }
            ServerMsg::Update(update) => {
                // Moves after the ones we have: merged into the state. An
                // update that does not follow it asks for the whole state.
                let merged = self
                    .state
                    .clone()
                    .and_then(|mut s| s.apply(update).then_some(s));
                match merged {
                    Some(state) => out.extend(self.receive(ServerMsg::State(state), now)),
                    None => out.push(Effect::Send(ClientMsg::Sync)),
                }
            }
            ServerMsg::State(state) => {
                self.entered = true;
                self.pending = self.pending.take().filter(|(ply, _)| {
                    state.moves.len() == *ply as usize && state.event != Event::Sync
                });
                if let Some(seat) = &mut self.seat {
                    if let Some(you) = state.you {
                        seat.side = you;
                    }
                    if state.status != Status::Waiting {
                        seat.join_key = None;
                    }
                    let over = state.status == Status::Over;
                    let was_over = self
                        .state
                        .as_ref()
                        .is_some_and(|s| s.status == Status::Over);
                    if over != was_over
                        || state.event == Event::Started
                        || state.event == Event::Rematch
                    {
                        out.push(Effect::Remember {
                            seat: seat.clone(),
                            over,
                        });
                    }
                }
                // A rated game of yours just counted: ask who you are
                // again, so the name card shows the new rating.
                let counted = |s: &GameState| s.rated_before.is_some() && s.you.is_some();
                let newly_counted = counted(&state)
                    && !self.state.as_ref().is_some_and(|s| {
                        counted(s) && s.game_no == state.game_no && s.room == state.room
                    });
                if newly_counted && self.identity_busy.is_none() {
                    if let Some(secret) = self.secret.clone() {
                        self.identity_busy = Some(IdentityAsk::Identify);
                        out.push(Effect::Send(ClientMsg::Identify { secret }));
                    }
                }
                self.game = Some(state.game);
                self.received_at = now;
                self.taken_at = now - self.travel_time(state.clock.at_ms, now);
                self.state = Some(state);
            }
            ServerMsg::Refused { code, reason, .. }
                if identity_refusal(code) && self.identity_busy.is_some() =>
            {
                let ask = self.identity_busy.take().expect("checked");
                self.identity_problem = Some(IdentityProblem { ask, code, reason });
            }
            ServerMsg::Refused { code, reason, why } => {
                self.pending = None;
                let entering = !self.entered
                    && matches!(
                        self.intent,
                        Intent::Join { .. }
                            | Intent::Seat { .. }
                            | Intent::Watch { .. }
                            | Intent::Create { .. }
                    )
                    || (matches!(self.intent, Intent::Player { .. }) && self.player.is_none());
                let queue_noise = matches!(code, Refusal::AlreadyQueued | Refusal::NotQueued);
                let quick_refused = matches!(self.intent, Intent::QuickMatch { .. })
                    && !self.queued
                    && !queue_noise;
                if entering || quick_refused {
                    if let Intent::Seat { room, .. } = &self.intent {
                        if matches!(code, Refusal::NoSuchRoom | Refusal::BadToken) {
                            out.push(Effect::Forget { room: room.clone() });
                        }
                    }
                    self.halt = Some(Halt::Refused { code, reason });
                    self.intent = Intent::Idle;
                    out.push(Effect::Stop);
                } else if !queue_noise {
                    self.flash = Some((Flash::Refused { code, reason, why }, now));
                }
            }
            ServerMsg::Error { code, message } => {
                self.pending = None;
                if code == ErrorCode::Version {
                    self.halt = Some(Halt::Version(message));
                    self.intent = Intent::Idle;
                    out.push(Effect::Stop);
                } else if code == ErrorCode::UnknownType
                    && matches!(self.intent, Intent::Lobby | Intent::Player { .. })
                {
                    // An older server: no lobby or player pages (the
                    // identity still works).
                    self.lobby_unavailable = true;
                } else {
                    self.flash = Some((Flash::Error { code, message }, now));
                    // A message that went astray may have been a move: ask again.
                    if self.entered {
                        out.push(Effect::Send(ClientMsg::Sync));
                    }
                }
            }
            ServerMsg::Presence { side, connected } => {
                if let Some(state) = &mut self.state {
                    state.connected[side.index()] = connected;
                }
                if self.state.as_ref().and_then(|s| s.you) != Some(side) {
                    self.flash = Some((Flash::Presence { side, connected }, now));
                }
            }
            ServerMsg::Queued { .. } => self.queued = true,
            ServerMsg::QueueCancelled => self.queued = false,
            ServerMsg::Pong { server_ms, .. } => {
                if let Some(sent) = self.ping_at.take() {
                    self.clock_sample(sent, server_ms, now);
                }
            }
            ServerMsg::Identity {
                player,
                secret,
                ratings,
                rename_in_ms,
            } => {
                let ask = self.identity_busy.take();
                if let Some(secret) = secret {
                    self.secret = Some(secret);
                } else if let Some(IdentityAsk::Recover(code)) = ask {
                    self.secret = Some(code);
                }
                if let Some(secret) = self.secret.clone() {
                    out.push(Effect::KeepIdentity {
                        secret,
                        id: player.id.clone(),
                        name: player.name.clone(),
                    });
                }
                self.identity_problem = None;
                self.me = Some(Me {
                    player,
                    ratings,
                    // No wait is no wait: `now + 0` would read as a
                    // second's wait against the page's ticking clock,
                    // which lags the message's `now` by up to a second.
                    rename_at: if rename_in_ms == 0 {
                        0.0
                    } else {
                        now + rename_in_ms as f64
                    },
                });
            }
            ServerMsg::Lobby { challenges, games } => {
                self.lobby = Some((challenges, games));
            }
            ServerMsg::ChallengePosted { id } => self.my_challenge = Some(id),
            ServerMsg::ChallengeCancelled => self.my_challenge = None,
            ServerMsg::PlayerPage {
                player,
                ratings,
                history,
                games,
                page,
                pages,
            } => {
                self.player = Some(PlayerView {
                    player,
                    ratings,
                    history,
                    games,
                    page,
                    pages,
                });
            }
            ServerMsg::Leaderboard { game, rows } => {
                self.leaderboards.retain(|(g, _)| *g != game);
                self.leaderboards.push((game, rows));
            }
            ServerMsg::Archive { game, start, moves } => {
                self.archive = Some(Archived { game, start, moves });
            }
            ServerMsg::Unknown => {}
        }
        out
    }

    /// The game on screen once the server says it is over (issue 37:
    /// finished online games are kept and open in review like local
    /// ones): what the recent games and the review need, from the
    /// server's moves only (never a move still in flight). `None` while
    /// it goes on, before the first state, or when the state is
    /// inconsistent (over without an outcome).
    pub fn finished(&self) -> Option<Finished> {
        let s = self.state.as_ref()?;
        if s.status != Status::Over {
            return None;
        }
        Some(Finished {
            room: s.room.clone(),
            game_no: s.game_no,
            game: s.game,
            start: s.start.clone(),
            moves: s.moves.clone(),
            outcome: s.outcome?,
            you: s.you,
            names: s.players.clone().map(|p| p.map(|p| p.name)),
        })
    }

    /// Whether a request can go out now.
    fn open(&self) -> bool {
        self.connection == Connection::Open
    }

    /// An identity request, if the connection is open and none is in
    /// flight.
    fn ask_identity(&mut self, ask: IdentityAsk, msg: ClientMsg) -> Vec<Effect> {
        if !self.open() || self.identity_busy.is_some() {
            return Vec::new();
        }
        self.identity_problem = None;
        self.identity_busy = Some(ask);
        vec![Effect::Send(msg)]
    }

    /// A new identity named `name` (the server checks the name).
    pub fn register(&mut self, name: String) -> Vec<Effect> {
        self.ask_identity(IdentityAsk::Register, ClientMsg::Register { name })
    }

    /// A new name for this identity (the server limits how often).
    pub fn rename(&mut self, name: String) -> Vec<Effect> {
        if self.me.is_none() {
            return Vec::new();
        }
        self.ask_identity(IdentityAsk::Rename, ClientMsg::Rename { name })
    }

    /// Becomes the identity of a recovery code typed here; `None` (and
    /// nothing sent) when the text cannot be a recovery code.
    pub fn recover(&mut self, typed: &str) -> Option<Vec<Effect>> {
        let secret = super::identity::parse_recovery_code(typed)?;
        Some(self.ask_identity(
            IdentityAsk::Recover(secret.clone()),
            ClientMsg::Identify { secret },
        ))
    }

    /// Another page of the player's games (asked again after a reconnect).
    pub fn player_page(&mut self, page: u32) -> Vec<Effect> {
        let Intent::Player { who, .. } = &self.intent else {
            return Vec::new();
        };
        self.intent = Intent::Player {
            who: who.clone(),
            page,
        };
        match self.intent.message() {
            Some(m) if self.open() => vec![Effect::Send(m)],
            _ => Vec::new(),
        }
    }

    /// Asks for a message whose answer is kept here (a leaderboard, an
    /// archived game), if the connection is open.
    pub fn ask(&mut self, msg: ClientMsg) -> Vec<Effect> {
        if matches!(msg, ClientMsg::Archive { .. }) {
            self.archive = None;
        }
        if self.open() {
            vec![Effect::Send(msg)]
        } else {
            Vec::new()
        }
    }

    /// Posts an open challenge in the lobby.
    pub fn challenge(&self, game: Variant, clock_secs: u32, rated: bool) -> Vec<Effect> {
        if !self.open() || self.intent != Intent::Lobby || self.my_challenge.is_some() {
            return Vec::new();
        }
        vec![Effect::Send(ClientMsg::Challenge {
            game,
            clock_secs: Some(clock_secs),
            rated,
        })]
    }

    /// Withdraws this tab's challenge.
    pub fn cancel_challenge(&self) -> Vec<Effect> {
        if !self.open() || self.my_challenge.is_none() {
            return Vec::new();
        }
        vec![Effect::Send(ClientMsg::CancelChallenge)]
    }

    /// Takes the seat a challenge offers.
    pub fn take_challenge(&self, id: String) -> Vec<Effect> {
        if !self.open() || self.intent != Intent::Lobby {
            return Vec::new();
        }
        vec![Effect::Send(ClientMsg::TakeChallenge { id })]
    }

    /// Your side, when you have a seat in the room on screen.
    pub fn you(&self) -> Option<Side> {
        self.state.as_ref().and_then(|s| s.you)
    }

    /// Whether the board takes a move now: your turn in a running game, on
    /// an open connection, with no move in flight.
    pub fn can_move(&self) -> bool {
        let Some(s) = &self.state else { return false };
        self.connection == Connection::Open
            && self.entered
            && self.pending.is_none()
            && s.status == Status::Playing
            && s.you == Some(s.to_move)
    }

    /// Sends `mv` (the game's notation) as the next move, if allowed.
    pub fn play(&mut self, mv: String) -> Option<Effect> {
        if !self.can_move() {
            return None;
        }
        let ply = self.state.as_ref()?.moves.len() as u32;
        self.pending = Some((ply, mv.clone()));
        Some(Effect::Send(ClientMsg::Move { ply, mv }))
    }

    /// A game control (pause, resign, draw, rematch), if the connection is open.
    pub fn control(&self, msg: ClientMsg) -> Option<Effect> {
        (self.connection == Connection::Open && self.entered && self.you().is_some())
            .then_some(Effect::Send(msg))
    }

    /// The moves to show: the server's, plus a move in flight.
    pub fn shown_moves(&self) -> Vec<String> {
        let mut moves = self
            .state
            .as_ref()
            .map(|s| s.moves.clone())
            .unwrap_or_default();
        if let Some((ply, mv)) = &self.pending {
            if moves.len() == *ply as usize {
                moves.push(mv.clone());
            }
        }
        moves
    }

    /// A ping to send now (`t` is for the server to echo).
    pub fn ping(&mut self, t: u64, now: f64) -> Vec<Effect> {
        self.ping_at = Some(now);
        vec![Effect::Send(ClientMsg::Ping { t })]
    }

    /// One measurement of the clocks' offset: a message sent at `sent`
    /// (this page's clock) answered with the server's clock `server_ms`,
    /// received at `now`. The server read its clock somewhere in the
    /// round trip; the middle is the best guess, off by at most half the
    /// round trip, so the sample over the shortest round trip is kept.
    fn clock_sample(&mut self, sent: f64, server_ms: u64, now: f64) {
        let rtt = now - sent;
        if server_ms == 0 || !rtt.is_finite() || rtt < 0.0 {
            return;
        }
        let offset = server_ms as f64 + rtt / 2.0 - now;
        if self.clock_offset.is_none_or(|(_, best)| rtt <= best) {
            self.clock_offset = Some((offset, rtt));
        }
    }

    /// How long ago (at `now`) the server took a clock figure it stamped
    /// `at_ms`: the message's travel time. It is at least 0 and at most the
    /// measured round trip, whatever the clocks say; 0 when the server
    /// does not stamp or the offset is not known yet.
    fn travel_time(&self, at_ms: u64, now: f64) -> f64 {
        match self.clock_offset {
            Some((offset, rtt)) if at_ms > 0 => (now + offset - at_ms as f64).clamp(0.0, rtt),
            _ => 0.0,
        }
    }

    /// Milliseconds left on the clock of the side to move at `now`.
    pub fn clock_left(&self, now: f64) -> Option<f64> {
        let s = self.state.as_ref()?;
        Some(left_now(
            s.clock.remaining_ms,
            s.clock.running,
            self.taken_at,
            now,
        ))
    }

    /// Milliseconds until a pause ends by itself, at `now`.
    pub fn auto_resume_left(&self, now: f64) -> Option<f64> {
        let s = self.state.as_ref()?;
        let ms = s.auto_resume_ms.filter(|_| s.status == Status::Paused)?;
        Some(left_now(ms, true, self.taken_at, now))
    }

    /// The flash message, if it is younger than `max_age_ms` at `now`.
    pub fn flash_at(&self, now: f64, max_age_ms: f64) -> Option<&Flash> {
        self.flash
            .as_ref()
            .filter(|(_, at)| now - at < max_age_ms)
            .map(|(f, _)| f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ataxx::AtaxxRules;
    use crate::protocol::online::{ClockState, Limits};

    const ROOM: &str = "abcdefghijklmnop";
    const KEY: &str = "qrstuvwxyz234567";

    fn limits() -> Limits {
        Limits {
            max_message_bytes: 4096,
            rate_per_sec: 10,
            burst: 30,
            min_clock_secs: 1,
            max_clock_secs: 3600,
            pauses_per_player: 3,
            auto_resume_ms: 120_000,
            max_plies: 1000,
        }
    }

    fn state(
        moves: &[&str],
        to_move: Side,
        status: Status,
        you: Option<Side>,
        event: Event,
    ) -> GameState {
        GameState {
            room: ROOM.into(),
            game_no: 1,
            game: Variant::Ataxx(AtaxxRules::default()),
            start: String::new(),
            from: 0,
            moves: moves.iter().map(|m| m.to_string()).collect(),
            to_move,
            status,
            outcome: None,
            clock: ClockState {
                per_move_ms: 30_000,
                remaining_ms: 20_000,
                at_ms: 0,
                running: status == Status::Playing,
            },
            pauses_left: [3, 3],
            paused_by: None,
            auto_resume_ms: None,
            draw_offer: None,
            rematch: [false, false],
            seated: [true, true],
            connected: [true, true],
            spectators: 0,
            you,
            event,
            players: [None, None],
            rated: false,
            rated_before: None,
        }
    }

    fn sends(actions: &[Effect]) -> Vec<ClientMsg> {
        actions
            .iter()
            .filter_map(|a| match a {
                Effect::Send(m) => Some(m.clone()),
                _ => None,
            })
            .collect()
    }

    fn welcome() -> ServerMsg {
        ServerMsg::Welcome {
            v: PROTOCOL_VERSION,
            limits: limits(),
            server_ms: 0,
        }
    }

    /// Cancel on an invite nobody took withdraws it (the server deletes
    /// the room, the seat is forgotten); once the game has started, or
    /// for a seat that was not created here, it only stops.
    #[test]
    fn cancel_withdraws_an_invite_nobody_took() {
        let game = Variant::Ataxx(AtaxxRules::default());
        let invite = |status: Status, created: bool| {
            let mut s = OnlineSession::new(Intent::Create {
                game,
                clock_secs: 30,
                side: SideChoice::Second,
                rated: false,
            });
            s.connecting();
            s.opened(0.0);
            s.receive(welcome(), 0.0);
            s.receive(
                ServerMsg::Seat {
                    room: ROOM.into(),
                    token: "t".repeat(32),
                    side: Side::Second,
                    join_key: Some(KEY.into()),
                },
                1.0,
            );
            s.seat.as_mut().unwrap().created = created;
            let st = state(&[], Side::First, status, Some(Side::Second), Event::Sync);
            s.receive(ServerMsg::State(st), 2.0);
            s
        };
        let mut s = invite(Status::Waiting, true);
        assert_eq!(
            s.withdraw(),
            [
                Effect::Send(ClientMsg::CancelInvite),
                Effect::Forget { room: ROOM.into() },
                Effect::Stop
            ]
        );
        assert_eq!(s.intent, Intent::Idle);
        assert_eq!(s.seat, None);
        assert_eq!(s.closed(3.0), None, "no reconnecting after a withdrawal");
        for (status, created) in [(Status::Playing, true), (Status::Waiting, false)] {
            let mut s = invite(status, created);
            assert_eq!(s.withdraw(), [Effect::Stop], "{status:?} {created}");
        }
        // Not connected: nothing to tell the server; the seat stays.
        let mut s = invite(Status::Waiting, true);
        s.closed(3.0);
        assert_eq!(s.withdraw(), [Effect::Stop]);
    }

    #[test]
    fn create_then_play_a_move_then_reconnect_with_the_seat() {
        let game = Variant::Ataxx(AtaxxRules::default());
        let mut s = OnlineSession::new(Intent::Create {
            game,
            clock_secs: 30,
            side: SideChoice::First,
            rated: false,
        });
        s.connecting();
        assert_eq!(
            sends(&s.opened(0.0)),
            [ClientMsg::Hello {
                v: PROTOCOL_VERSION
            }]
        );
        let a = s.receive(welcome(), 0.0);
        assert_eq!(
            sends(&a),
            [ClientMsg::Create {
                game,
                clock_secs: Some(30),
                side: SideChoice::First,
                rated: false,
            }]
        );
        assert_eq!(s.connection, Connection::Open);
        let a = s.receive(
            ServerMsg::Seat {
                room: ROOM.into(),
                token: "t".repeat(32),
                side: Side::First,
                join_key: Some(KEY.into()),
            },
            1.0,
        );
        assert!(
            matches!(&a[..], [Effect::Remember { seat, over: false }] if seat.created && seat.join_key.as_deref() == Some(KEY))
        );
        s.receive(
            ServerMsg::State(state(
                &[],
                Side::First,
                Status::Waiting,
                Some(Side::First),
                Event::Sync,
            )),
            2.0,
        );
        assert!(!s.can_move(), "waiting for the friend");
        assert_eq!(s.play("b6".into()), None);
        s.receive(
            ServerMsg::State(state(
                &[],
                Side::First,
                Status::Playing,
                Some(Side::First),
                Event::Started,
            )),
            3.0,
        );
        assert_eq!(
            s.seat.as_ref().unwrap().join_key,
            None,
            "the invite is used"
        );
        assert!(s.can_move());
        assert_eq!(
            s.play("b6".into()),
            Some(Effect::Send(ClientMsg::Move {
                ply: 0,
                mv: "b6".into()
            }))
        );
        assert!(!s.can_move(), "one move in flight");
        assert_eq!(s.shown_moves(), ["b6"]);
        s.receive(
            ServerMsg::State(state(
                &["b6"],
                Side::Second,
                Status::Playing,
                Some(Side::First),
                Event::Moved,
            )),
            4.0,
        );
        assert_eq!(s.pending, None);
        assert!(!s.can_move(), "their turn");

        // The connection drops: retry with backoff, then reconnect with the seat.
        assert_eq!(s.closed(10.0), Some(500));
        assert_eq!(
            s.connection,
            Connection::Retrying {
                attempt: 1,
                retry_at: 510.0
            }
        );
        s.connecting();
        assert_eq!(
            s.closed(600.0),
            Some(1000),
            "the second failure waits longer"
        );
        s.connecting();
        s.opened(0.0);
        let a = s.receive(welcome(), 2000.0);
        assert_eq!(
            sends(&a),
            [ClientMsg::Reconnect {
                room: ROOM.into(),
                token: "t".repeat(32)
            }]
        );
        assert_eq!(s.connection, Connection::Open);
        assert_eq!(s.closed(3000.0), Some(500), "a welcome resets the backoff");
    }

    #[test]
    fn a_refused_move_clears_the_move_in_flight_and_the_state_resyncs() {
        let mut s = OnlineSession::new(Intent::Seat {
            room: ROOM.into(),
            token: "t".into(),
        });
        s.opened(0.0);
        s.receive(welcome(), 0.0);
        s.receive(
            ServerMsg::State(state(
                &["b6"],
                Side::Second,
                Status::Playing,
                Some(Side::Second),
                Event::Sync,
            )),
            0.0,
        );
        assert!(s.play("a1a3".into()).is_some());
        let a = s.receive(
            ServerMsg::Refused {
                code: Refusal::IllegalMove,
                reason: "illegal move: a3 is more than two squares from a1".into(),
                why: Some(Illegal::Ataxx(crate::games::ataxx::AtaxxIllegal::TooFar {
                    from: 0,
                    to: 14,
                })),
            },
            5.0,
        );
        assert!(
            a.is_empty(),
            "a refusal in the room does not stop the session"
        );
        assert_eq!(s.pending, None);
        assert!(matches!(
            s.flash_at(6.0, 4000.0),
            Some(Flash::Refused {
                code: Refusal::IllegalMove,
                why: Some(Illegal::Ataxx(_)),
                ..
            })
        ));
        assert_eq!(s.flash_at(5000.0, 4000.0), None, "flashes fade");
        s.receive(
            ServerMsg::State(state(
                &["b6"],
                Side::Second,
                Status::Playing,
                Some(Side::Second),
                Event::Sync,
            )),
            6.0,
        );
        assert_eq!(s.shown_moves(), ["b6"]);
        assert!(s.can_move());
        // A stale state (sync) while a move is in flight does not keep it.
        s.play("a1b2".into());
        s.receive(
            ServerMsg::State(state(
                &["b6"],
                Side::Second,
                Status::Playing,
                Some(Side::Second),
                Event::Sync,
            )),
            7.0,
        );
        assert_eq!(s.pending, None);
    }

    #[test]
    fn refusals_to_enter_stop_the_session_and_forget_dead_seats() {
        let mut s = OnlineSession::new(Intent::Seat {
            room: ROOM.into(),
            token: "t".into(),
        });
        s.opened(0.0);
        s.receive(welcome(), 0.0);
        let a = s.receive(
            ServerMsg::Refused {
                code: Refusal::NoSuchRoom,
                reason: "no such room".into(),
                why: None,
            },
            1.0,
        );
        assert_eq!(a, [Effect::Forget { room: ROOM.into() }, Effect::Stop]);
        assert!(matches!(
            s.halt,
            Some(Halt::Refused {
                code: Refusal::NoSuchRoom,
                ..
            })
        ));
        assert_eq!(s.closed(2.0), None, "no reconnecting after a refusal");
        assert_eq!(s.connection, Connection::Down);

        let mut j = OnlineSession::new(Intent::Join {
            room: ROOM.into(),
            key: KEY.into(),
        });
        j.receive(welcome(), 0.0);
        let a = j.receive(
            ServerMsg::Refused {
                code: Refusal::RoomFull,
                reason: "full".into(),
                why: None,
            },
            1.0,
        );
        assert_eq!(a, [Effect::Stop], "nothing stored is forgotten for a join");

        let mut v = OnlineSession::new(Intent::Seat {
            room: ROOM.into(),
            token: "t".into(),
        });
        v.receive(welcome(), 0.0);
        let a = v.receive(
            ServerMsg::Error {
                code: ErrorCode::Version,
                message: "reload".into(),
            },
            1.0,
        );
        assert_eq!(a, [Effect::Stop]);
        assert!(matches!(v.halt, Some(Halt::Version(_))));
    }

    #[test]
    fn quick_match_waits_then_sits_down() {
        let game = Variant::Ataxx(AtaxxRules::default());
        let mut s = OnlineSession::new(Intent::QuickMatch {
            game,
            clock_secs: 30,
            rated: false,
        });
        s.opened(0.0);
        assert_eq!(
            sends(&s.receive(welcome(), 0.0)),
            [ClientMsg::QuickMatch {
                game,
                clock_secs: Some(30),
                rated: false,
            }]
        );
        s.receive(
            ServerMsg::Queued {
                game,
                clock_secs: 30,
            },
            1.0,
        );
        assert!(s.queued);
        // Dropped while waiting: asks again after reconnecting.
        s.closed(2.0);
        assert!(!s.queued);
        s.connecting();
        s.opened(0.0);
        assert_eq!(
            sends(&s.receive(welcome(), 600.0)),
            [ClientMsg::QuickMatch {
                game,
                clock_secs: Some(30),
                rated: false,
            }]
        );
        s.receive(
            ServerMsg::Queued {
                game,
                clock_secs: 30,
            },
            601.0,
        );
        let a = s.receive(
            ServerMsg::Seat {
                room: ROOM.into(),
                token: "tok".into(),
                side: Side::Second,
                join_key: None,
            },
            700.0,
        );
        assert!(
            matches!(&a[..], [Effect::Remember { seat, .. }] if !seat.created && seat.side == Side::Second)
        );
        assert!(!s.queued);
        assert_eq!(
            s.intent,
            Intent::Seat {
                room: ROOM.into(),
                token: "tok".into()
            }
        );
        // Cancelling while queued tells the server.
        let mut c = OnlineSession::new(Intent::QuickMatch {
            game,
            clock_secs: 30,
            rated: false,
        });
        c.receive(welcome(), 0.0);
        c.receive(
            ServerMsg::Queued {
                game,
                clock_secs: 30,
            },
            0.0,
        );
        assert_eq!(
            c.stop(),
            [Effect::Send(ClientMsg::CancelQuickMatch), Effect::Stop]
        );
        assert_eq!(c.closed(1.0), None);
    }

    #[test]
    fn updates_append_moves_and_a_gap_asks_for_the_whole_state() {
        let mut s = OnlineSession::new(Intent::Watch { room: ROOM.into() });
        s.receive(welcome(), 0.0);
        s.receive(
            ServerMsg::State(state(
                &["b6", "f2"],
                Side::First,
                Status::Playing,
                None,
                Event::Sync,
            )),
            1.0,
        );
        let mut up = state(&["c5"], Side::Second, Status::Playing, None, Event::Moved);
        up.from = 2;
        assert_eq!(s.receive(ServerMsg::Update(up.clone()), 2.0), []);
        let st = s.state.as_ref().unwrap();
        assert_eq!(st.moves, ["b6", "f2", "c5"]);
        assert_eq!(
            (st.from, st.to_move, st.event),
            (0, Side::Second, Event::Moved)
        );
        assert_eq!(s.received_at, 2.0);
        // The same update again no longer follows: ask for everything,
        // keep what we have.
        let a = s.receive(ServerMsg::Update(up), 3.0);
        assert_eq!(sends(&a), [ClientMsg::Sync]);
        assert_eq!(s.state.as_ref().unwrap().moves.len(), 3);
        // Another game of the room (or no state at all): the same.
        let mut other = state(&[], Side::First, Status::Playing, None, Event::Moved);
        other.game_no = 2;
        other.from = 3;
        assert_eq!(
            sends(&s.receive(ServerMsg::Update(other.clone()), 4.0)),
            [ClientMsg::Sync]
        );
        let mut fresh = OnlineSession::new(Intent::Watch { room: ROOM.into() });
        assert_eq!(
            sends(&fresh.receive(ServerMsg::Update(other), 4.0)),
            [ClientMsg::Sync]
        );
    }

    /// The page's clock is 1,000,000 ms behind the server's. `hello` at
    /// 100, `welcome` stamped 1,000,140 and received at 180: a round trip
    /// of 80, so the server's clock is 1,000,140 + 40 - 180 = 999,999.6...
    /// ahead. A state stamped 1,000,500 reaching the page at 650 (page
    /// time 650 is server time 1,000,650) travelled 150 ms, but no more
    /// than the round trip is ever taken off: 80.
    #[test]
    fn the_clock_shown_takes_the_travel_time_off() {
        let mut s = OnlineSession::new(Intent::Watch { room: ROOM.into() });
        s.connecting();
        s.opened(100.0);
        let welcome_at = |server_ms| ServerMsg::Welcome {
            v: PROTOCOL_VERSION,
            limits: limits(),
            server_ms,
        };
        s.receive(welcome_at(1_000_140), 180.0);
        let (offset, rtt) = s.clock_offset.expect("measured by hello/welcome");
        assert_eq!(rtt, 80.0);
        assert_eq!(offset, 1_000_140.0 + 40.0 - 180.0);
        // Stamped 30 ms before it arrived (server time): 30 ms taken off.
        let mut st = state(&["b6"], Side::Second, Status::Playing, None, Event::Moved);
        st.clock.at_ms = (300.0 + offset) as u64 - 30;
        s.receive(ServerMsg::State(st.clone()), 300.0);
        assert_eq!(s.received_at, 300.0);
        let left = s.clock_left(1_300.0).unwrap();
        assert!((left - (20_000.0 - 1_000.0 - 30.0)).abs() < 1.0, "{left}");
        // A stamp far in the past (a slow link or a wrong clock): at most
        // the round trip.
        st.clock.at_ms = (650.0 + offset) as u64 - 5_000;
        s.receive(ServerMsg::State(st.clone()), 650.0);
        assert_eq!(s.clock_left(650.0), Some(20_000.0 - 80.0));
        // A stamp from the future (clocks off): nothing taken off.
        st.clock.at_ms = (700.0 + offset) as u64 + 5_000;
        s.receive(ServerMsg::State(st.clone()), 700.0);
        assert_eq!(s.clock_left(700.0), Some(20_000.0));
        // A ping over a shorter round trip refines the offset; a longer
        // one does not replace it.
        assert_eq!(
            sends(&s.ping(8_000, 1_000.0)),
            [ClientMsg::Ping { t: 8_000 }]
        );
        s.receive(
            ServerMsg::Pong {
                t: 8_000,
                server_ms: 1_001_000,
            },
            1_020.0,
        );
        assert_eq!(s.clock_offset, Some((1_001_000.0 + 10.0 - 1_020.0, 20.0)));
        s.ping(9_000, 2_000.0);
        s.receive(
            ServerMsg::Pong {
                t: 9_000,
                server_ms: 1_002_000,
            },
            2_500.0,
        );
        assert_eq!(s.clock_offset.unwrap().1, 20.0);
        // A pong nobody asked for changes nothing.
        s.receive(ServerMsg::Pong { t: 1, server_ms: 5 }, 2_600.0);
        assert_eq!(s.clock_offset.unwrap().1, 20.0);
        // A server that does not stamp: the clock is as received.
        let mut old = OnlineSession::new(Intent::Watch { room: ROOM.into() });
        old.opened(0.0);
        old.receive(welcome(), 50.0);
        assert_eq!(old.clock_offset, None);
        st.clock.at_ms = 0;
        old.receive(ServerMsg::State(st), 60.0);
        assert_eq!(old.clock_left(60.0), Some(20_000.0));
        // A new connection measures afresh (it may reach another node).
        s.closed(3_000.0);
        s.connecting();
        s.opened(4_000.0);
        s.receive(welcome_at(2_000_000), 4_200.0);
        assert_eq!(s.clock_offset, Some((2_000_000.0 + 100.0 - 4_200.0, 200.0)));
    }

    #[test]
    fn presence_pause_clock_and_controls() {
        let mut s = OnlineSession::new(Intent::Watch { room: ROOM.into() });
        s.receive(welcome(), 0.0);
        let mut st = state(&["b6"], Side::Second, Status::Paused, None, Event::Paused);
        st.paused_by = Some(Side::First);
        st.auto_resume_ms = Some(100_000);
        st.clock.running = false;
        s.receive(ServerMsg::State(st), 1_000.0);
        assert_eq!(s.auto_resume_left(11_000.0), Some(90_000.0));
        assert_eq!(
            s.clock_left(50_000.0),
            Some(20_000.0),
            "paused: the clock stands"
        );
        assert!(!s.can_move(), "spectators never move");
        assert_eq!(s.control(ClientMsg::Resign), None, "nor resign");
        s.receive(
            ServerMsg::Presence {
                side: Side::Second,
                connected: false,
            },
            2_000.0,
        );
        assert_eq!(s.state.as_ref().unwrap().connected, [true, false]);
        assert!(matches!(
            s.flash_at(2_100.0, 4_000.0),
            Some(Flash::Presence {
                side: Side::Second,
                connected: false
            })
        ));
    }

    #[test]
    fn finishing_a_game_is_remembered_and_rematch_swaps_sides() {
        let mut s = OnlineSession::new(Intent::Seat {
            room: ROOM.into(),
            token: "t".into(),
        });
        s.receive(welcome(), 0.0);
        s.receive(
            ServerMsg::Seat {
                room: ROOM.into(),
                token: "t".into(),
                side: Side::First,
                join_key: None,
            },
            0.0,
        );
        s.receive(
            ServerMsg::State(state(
                &[],
                Side::First,
                Status::Playing,
                Some(Side::First),
                Event::Sync,
            )),
            0.0,
        );
        let a = s.receive(
            ServerMsg::State(state(
                &["b6"],
                Side::Second,
                Status::Over,
                Some(Side::First),
                Event::Resigned,
            )),
            1.0,
        );
        assert!(matches!(&a[..], [Effect::Remember { over: true, .. }]));
        let mut again = state(
            &[],
            Side::First,
            Status::Playing,
            Some(Side::Second),
            Event::Rematch,
        );
        again.game_no = 2;
        let a = s.receive(ServerMsg::State(again), 2.0);
        assert!(
            matches!(&a[..], [Effect::Remember { over: false, seat }] if seat.side == Side::Second)
        );
        assert_eq!(s.you(), Some(Side::Second));
    }

    /// Issue 37: a finished game is kept once the server says it is over,
    /// with the server's moves and outcome; the same game has the same
    /// saved id on every page, its rematch another.
    #[test]
    fn a_game_is_kept_once_the_server_says_it_is_over() {
        let mut s = OnlineSession::new(Intent::Watch { room: ROOM.into() });
        s.receive(welcome(), 0.0);
        assert_eq!(s.finished(), None, "no state yet");
        let playing = state(
            &["b6", "f2"],
            Side::First,
            Status::Playing,
            None,
            Event::Sync,
        );
        s.receive(ServerMsg::State(playing), 1.0);
        assert_eq!(s.finished(), None, "still on");
        let mut over = state(
            &["b6", "f2"],
            Side::First,
            Status::Over,
            None,
            Event::Resigned,
        );
        let resigned = Outcome::win(Side::Second, crate::games::EndReason::Resignation);
        over.outcome = Some(resigned);
        s.receive(ServerMsg::State(over.clone()), 2.0);
        let kept = s.finished().expect("over");
        assert_eq!(
            (kept.room.as_str(), kept.game_no, kept.moves.as_slice()),
            (ROOM, 1, ["b6".to_string(), "f2".to_string()].as_slice())
        );
        assert_eq!((kept.outcome, kept.you), (resigned, None));
        // A reload (another page, the same state) keeps the same game.
        let mut again = OnlineSession::new(Intent::Watch { room: ROOM.into() });
        again.receive(welcome(), 0.0);
        again.receive(ServerMsg::State(over.clone()), 1.0);
        assert_eq!(
            again.finished().map(|f| f.saved_id()),
            Some(kept.saved_id())
        );
        // The rematch, once over, is another saved game.
        let mut rematch = over.clone();
        rematch.game_no = 2;
        again.receive(ServerMsg::State(rematch), 3.0);
        assert_ne!(again.finished().unwrap().saved_id(), kept.saved_id());
        // Over without an outcome is not a game to keep.
        let mut broken = over;
        broken.outcome = None;
        s.receive(ServerMsg::State(broken), 4.0);
        assert_eq!(s.finished(), None);
    }

    fn me(name: &str, secret: Option<&str>, rename_in_ms: u64) -> ServerMsg {
        ServerMsg::Identity {
            player: crate::protocol::online::PlayerTag {
                id: "pppppppppppppppp".into(),
                name: name.into(),
                rating: Some(1500),
                provisional: true,
            },
            secret: secret.map(str::to_string),
            ratings: Vec::new(),
            rename_in_ms,
        }
    }

    const SECRET: &str = "abcdefghijklmnopqrstuvwxyz234567";

    /// Issue 37: a kept secret identifies before anything else on every
    /// connection, so a rated game asked next is this identity's.
    #[test]
    fn a_kept_identity_is_sent_first_on_every_connection() {
        let mut s = OnlineSession::identified(Intent::Lobby, Some(SECRET.into()));
        for _ in 0..2 {
            s.connecting();
            s.opened(0.0);
            let out = s.receive(welcome(), 1.0);
            assert_eq!(
                sends(&out),
                vec![
                    ClientMsg::Identify {
                        secret: SECRET.into()
                    },
                    ClientMsg::Lobby
                ]
            );
            s.receive(me("Ana", None, 0), 2.0);
            assert_eq!(s.me.as_ref().map(|m| m.player.name.as_str()), Some("Ana"));
            assert_eq!(s.identity_busy, None);
            s.closed(3.0);
        }
        // Without one, nothing is sent but the intent.
        let mut s = OnlineSession::new(Intent::Lobby);
        s.opened(0.0);
        assert_eq!(sends(&s.receive(welcome(), 1.0)), vec![ClientMsg::Lobby]);
    }

    /// Issue 37: once a rated game of yours is counted, the page asks who
    /// it is again, so the name card shows the new rating; once per game.
    #[test]
    fn a_counted_rated_game_refreshes_the_identity_once() {
        let mut s = OnlineSession::identified(Intent::Lobby, Some(SECRET.into()));
        s.opened(0.0);
        s.receive(welcome(), 1.0);
        s.receive(me("Ana", None, 0), 2.0);
        let playing = state(
            &["b2"],
            Side::Second,
            Status::Playing,
            Some(Side::First),
            Event::Moved,
        );
        assert_eq!(sends(&s.receive(ServerMsg::State(playing), 3.0)), vec![]);
        let mut over = state(
            &["b2"],
            Side::Second,
            Status::Over,
            Some(Side::First),
            Event::Resigned,
        );
        over.outcome = Some(Outcome::win(
            Side::First,
            crate::games::EndReason::Resignation,
        ));
        over.rated = true;
        // Over, not yet counted: nothing.
        assert_eq!(
            sends(&s.receive(ServerMsg::State(over.clone()), 4.0)),
            vec![]
        );
        over.rated_before = Some([1500, 1500]);
        let identify = ClientMsg::Identify {
            secret: SECRET.into(),
        };
        assert_eq!(
            sends(&s.receive(ServerMsg::State(over.clone()), 5.0)),
            vec![identify]
        );
        s.receive(me("Ana", None, 0), 6.0);
        // The same state again (a reconnect, a spectator joining): nothing.
        assert_eq!(
            sends(&s.receive(ServerMsg::State(over.clone()), 7.0)),
            vec![]
        );
        // Watching someone else's counted game: nothing.
        let mut watched = OnlineSession::identified(Intent::Lobby, Some(SECRET.into()));
        watched.opened(0.0);
        watched.receive(welcome(), 1.0);
        watched.receive(me("Ana", None, 0), 2.0);
        over.you = None;
        assert_eq!(sends(&watched.receive(ServerMsg::State(over), 3.0)), vec![]);
    }

    /// Registering keeps the secret the server sends once; a refused name
    /// is the name dialog's problem, never a halt of the page.
    #[test]
    fn register_keeps_the_secret_and_a_refused_name_is_shown_not_halted() {
        let mut s = OnlineSession::new(Intent::Lobby);
        assert!(s.register("Ana".into()).is_empty(), "not connected yet");
        s.opened(0.0);
        s.receive(welcome(), 1.0);
        let out = s.register("A".into());
        assert_eq!(sends(&out), vec![ClientMsg::Register { name: "A".into() }]);
        assert!(s.register("Again".into()).is_empty(), "one at a time");
        let out = s.receive(
            ServerMsg::Refused {
                code: Refusal::NameTooShort,
                reason: "a name has 2 to 20 characters".into(),
                why: None,
            },
            2.0,
        );
        assert!(out.is_empty());
        assert_eq!(s.halt, None);
        assert_eq!(s.intent, Intent::Lobby);
        let p = s.identity_problem.clone().expect("shown");
        assert_eq!(
            (p.ask, p.code),
            (IdentityAsk::Register, Refusal::NameTooShort)
        );
        s.register("Ana".into());
        assert_eq!(s.identity_problem, None, "a new try clears it");
        let out = s.receive(me("Ana", Some(SECRET), 86_400_000), 3.0);
        assert_eq!(
            out,
            vec![Effect::KeepIdentity {
                secret: SECRET.into(),
                id: "pppppppppppppppp".into(),
                name: "Ana".into()
            }]
        );
        assert_eq!(s.secret.as_deref(), Some(SECRET));
        assert_eq!(s.me.as_ref().map(|m| m.rename_at), Some(86_400_003.0));
        // Renamed: the device keeps the new name with the same secret.
        s.rename("Anna".into());
        let out = s.receive(me("Anna", None, 86_400_000), 4.0);
        assert!(
            matches!(&out[..], [Effect::KeepIdentity { name, secret, .. }] if name == "Anna" && secret == SECRET)
        );
    }

    /// A recovery code typed here is checked before it is sent, and kept
    /// once the server knows it; an unknown one changes nothing here.
    #[test]
    fn a_recovery_code_becomes_this_devices_identity_once_the_server_knows_it() {
        let mut s = OnlineSession::new(Intent::Lobby);
        s.opened(0.0);
        s.receive(welcome(), 1.0);
        assert_eq!(s.recover("abcd-efgh"), None);
        assert_eq!(s.identity_busy, None);
        let out = s
            .recover("ABCD-EFGH-IJKL-MNOP-QRST-UVWX-YZ23-4567")
            .unwrap();
        assert_eq!(
            sends(&out),
            vec![ClientMsg::Identify {
                secret: SECRET.into()
            }]
        );
        s.receive(
            ServerMsg::Refused {
                code: Refusal::BadIdentity,
                reason: "no such identity".into(),
                why: None,
            },
            2.0,
        );
        assert_eq!(s.secret, None, "an unknown code is not kept");
        assert_eq!(
            s.identity_problem.as_ref().map(|p| p.code),
            Some(Refusal::BadIdentity)
        );
        s.recover(&recovery(SECRET)).unwrap();
        let out = s.receive(me("Ana", None, 0), 3.0);
        assert!(matches!(&out[..], [Effect::KeepIdentity { secret, .. }] if secret == SECRET));
    }

    fn recovery(secret: &str) -> String {
        super::super::identity::recovery_code(secret)
    }

    /// Room refusals still halt as before: an identity code only answers an
    /// identity request (a rated game without a name is refused to enter).
    #[test]
    fn no_identity_for_a_rated_game_is_a_refusal_to_enter() {
        let mut s = OnlineSession::new(Intent::QuickMatch {
            game: Variant::Ataxx(AtaxxRules::default()),
            clock_secs: 30,
            rated: true,
        });
        s.opened(0.0);
        let out = s.receive(welcome(), 1.0);
        assert!(matches!(
            &sends(&out)[..],
            [ClientMsg::QuickMatch { rated: true, .. }]
        ));
        s.receive(
            ServerMsg::Refused {
                code: Refusal::NoIdentity,
                reason: "rated games need a name".into(),
                why: None,
            },
            2.0,
        );
        assert!(matches!(
            s.halt,
            Some(Halt::Refused {
                code: Refusal::NoIdentity,
                ..
            })
        ));
    }

    /// The lobby: an older server's "unknown type" is no error on the
    /// setup screen; challenges are posted, followed and withdrawn.
    #[test]
    fn the_lobby_is_followed_and_an_older_server_is_quietly_without_one() {
        let mut s = OnlineSession::new(Intent::Lobby);
        s.opened(0.0);
        s.receive(welcome(), 1.0);
        s.receive(
            ServerMsg::Error {
                code: ErrorCode::UnknownType,
                message: "this server does not offer lobby yet".into(),
            },
            2.0,
        );
        assert!(s.lobby_unavailable);
        assert_eq!(s.flash, None);
        let game = Variant::Ataxx(AtaxxRules::default());
        let out = s.challenge(game, 30, true);
        assert_eq!(
            sends(&out),
            vec![ClientMsg::Challenge {
                game,
                clock_secs: Some(30),
                rated: true
            }]
        );
        s.receive(ServerMsg::ChallengePosted { id: "c1".into() }, 3.0);
        assert!(s.challenge(game, 30, true).is_empty(), "one at a time");
        assert_eq!(
            sends(&s.cancel_challenge()),
            vec![ClientMsg::CancelChallenge]
        );
        s.receive(ServerMsg::ChallengeCancelled, 4.0);
        assert_eq!(s.my_challenge, None);
        s.receive(
            ServerMsg::Lobby {
                challenges: Vec::new(),
                games: Vec::new(),
            },
            5.0,
        );
        assert_eq!(s.lobby, Some((Vec::new(), Vec::new())));
        assert_eq!(
            sends(&s.take_challenge("c2".into())),
            vec![ClientMsg::TakeChallenge { id: "c2".into() }]
        );
    }

    /// A player's page: shown when it comes, an unknown player is a
    /// refusal to enter, and an older server says it has no such pages.
    #[test]
    fn a_players_page_comes_or_says_why_not() {
        let intent = Intent::Player {
            who: "Ana".into(),
            page: 0,
        };
        let mut s = OnlineSession::new(intent.clone());
        s.opened(0.0);
        assert_eq!(
            sends(&s.receive(welcome(), 1.0)),
            vec![ClientMsg::Player {
                who: "Ana".into(),
                page: 0
            }]
        );
        s.receive(
            ServerMsg::Refused {
                code: Refusal::NoSuchPlayer,
                reason: "no such player".into(),
                why: None,
            },
            2.0,
        );
        assert!(matches!(
            s.halt,
            Some(Halt::Refused {
                code: Refusal::NoSuchPlayer,
                ..
            })
        ));
        let mut s = OnlineSession::new(intent);
        s.opened(0.0);
        s.receive(welcome(), 1.0);
        s.receive(
            ServerMsg::Error {
                code: ErrorCode::UnknownType,
                message: "not yet".into(),
            },
            2.0,
        );
        assert!(s.lobby_unavailable);
        assert_eq!((s.halt.clone(), s.flash.clone()), (None, None));
        assert_eq!(
            sends(&s.player_page(2)),
            vec![ClientMsg::Player {
                who: "Ana".into(),
                page: 2
            }]
        );
    }
}
