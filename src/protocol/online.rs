//! Online play: the JSON messages between the page and the game server
//! (`/ws`, one WebSocket per tab). Compiled for wasm too: serde types only.
//!
//! Every message is one JSON text frame, an object whose `"type"` names the
//! message (snake_case), at most [`MAX_MESSAGE_BYTES`] bytes. The server
//! reads and writes them with `serde_json` as [`ClientMsg`] and
//! [`ServerMsg`]; the page with the hand-written codec in [`super::wire`]
//! (`ClientMsg::to_json`, `ServerMsg::from_json`), which tests hold to the
//! same text.
//!
//! Shared types keep their own JSON: a side is `"First"`/`"Second"`, a
//! game spec `{"Ataxx":{"no_move":"Pass"}}`, `{"Stones":null}` or
//! `{"Mill":{…every MillRules field…}}`, an outcome
//! `{"winner":"First","reason":"Timeout"}` (`winner: null` for a draw).
//!
//! ```text
//! → {"type":"hello","v":2}
//! ← {"type":"welcome","v":2,"limits":{"max_message_bytes":4096,…}}
//! → {"type":"create","game":{"Stones":null},"clock_secs":30,"side":"random"}
//! ← {"type":"seat","room":"6ozf6qv3mu7su72v","token":"h6gy…","side":"First","join_key":"m57h…"}
//! ← {"type":"state","room":"6ozf6qv3mu7su72v","game_no":1,…,"status":"waiting","event":"sync"}
//! → {"type":"move","ply":0,"mv":"a1-b2"}
//! ← {"type":"update",…,"from":0,"moves":["a1-b2"],"to_move":"Second","event":"moved"}
//! ```
//!
//! # Flow
//!
//! 1. **Handshake.** The first message is `{"type":"hello","v":2}`. The
//!    server answers [`ServerMsg::Welcome`] with its limits. A different
//!    `v` gets `error` with code `version` ("reload the page") and the
//!    server closes the connection; anything else before `hello` gets
//!    `error` with code `hello_first`.
//! 2. **Create → invite → join → state.** `create` (game and rules, clock,
//!    your side) makes a room. The creator gets `seat` (room code, seat
//!    token, side and the `join_key`) then `state` (status `waiting`).
//!    The invite for the friend carries the room code *and* the join key
//!    (the page might use `?online=ROOM&key=KEY`); the friend sends
//!    `join {room, key}`, gets a `seat` of their own, and both get `state`
//!    with event `started`: the clock of the first mover is running.
//! 3. **Play.** `move {ply, mv}` with `ply` = the number of moves in the
//!    state you are answering (so a stale move is refused) and `mv` in the
//!    game's notation (`b6`, `a7c5`; `c3-e5`; `d6`, `a1-a4`, `xd7`). Each
//!    accepted move is sent to everyone in the room as an `update` (event
//!    `moved`): the fields of a `state`, but `moves` holds only the moves
//!    after the first `from` (the new move, and a forced pass after it).
//!    A client appends them to the moves it has when it has exactly
//!    `from` of this `room` and `game_no`; otherwise it sends `sync` for
//!    the full state. Every other change in the room (pause, draw offer,
//!    timeout…) is an `update` too, with no moves. A full `state` comes on
//!    entering a room, after `sync`, after a refusal and when a rematch
//!    starts a new game. Territory Duel is played with the pass rule, and
//!    a forced pass (`0000`) is made by the server at once.
//! 4. **Refusals.** An action the rules or the room do not allow gets
//!    `refused {code, reason}` followed by the full `state` (event `sync`)
//!    so the client can re-sync. Nothing in the room changes.
//! 5. **Reconnect.** Keep `room` and `token` (e.g. in `localStorage`).
//!    After a dropped connection (or a server restart) send `hello` then
//!    `reconnect {room, token}`: you get `seat` and the full `state`. The
//!    opponent gets `presence {side, connected}` on each disconnect and
//!    reconnect. The clock keeps running while a player is away.
//! 6. **Spectate.** `watch {room}` needs only the room code; spectators get
//!    every `state` with `you: null`, and every action they try is refused
//!    (code `spectator`).
//! 7. **Quick match.** `quick_match {game, clock_secs}` answers `queued`;
//!    when another player asks for the same game, rules and clock, both get
//!    `seat` (random sides) and `state` (event `started`).
//!    `cancel_quick_match` answers `queue_cancelled`. The queue is kept in
//!    memory only.
//! 8. **Game controls** (seated players only): `pause` / `unpause`,
//!    `resign`, `offer_draw` / `answer_draw {accept}`, `rematch`; each
//!    change is broadcast as `state` with its `event`.
//!
//! The server pings every 20 s (WebSocket ping frames, answered by the
//! browser) and closes a connection silent for 60 s, or one that has not
//! said `hello` by its first ping. Close codes: 1001 idle, 1008 rate limit
//! or no hello, 1009 message too big, 1012 server restarting (reconnect),
//! 4001 wrong protocol version (reload the page).
//!
//! A connection is in at most one room at a time: `create`, `join`,
//! `reconnect`, `watch` and a quick-match pairing each leave the previous
//! room; `leave` leaves without entering another.
//!
//! # Rules of the room
//!
//! - **Clock:** per move, [`DEFAULT_CLOCK_SECS`] by default,
//!   [`MIN_CLOCK_SECS`]..=[`MAX_CLOCK_SECS`]. It runs on the server from
//!   the moment the second player sits down; each move gives the opponent
//!   a full clock (a Mill removal belongs to the turn of the move that
//!   closed the mill: the clock runs on between the two); reaching zero
//!   loses (`outcome.reason` = `Timeout`).
//!   `state.clock.remaining_ms` is the time left *for the side to move* when
//!   the message was made, `running` says whether it is counting down.
//! - **Pause:** either player, [`PAUSES_PER_PLAYER`] times per game (the
//!   next is refused, `no_pauses_left`). Only the player who paused can
//!   `unpause`; otherwise the game resumes by itself after
//!   [`AUTO_RESUME_SECS`] (`state.auto_resume_ms` counts down). Moves are
//!   refused while paused; resigning and draw answers are not.
//! - **Draw offers:** `offer_draw` (once per own move). The offer lapses
//!   when the offerer's opponent moves or declines; `answer_draw
//!   {accept: true}` by the opponent ends the game drawn (reason
//!   `Agreement`). Offering while the opponent's offer stands accepts it.
//! - **Rematch:** after the game, each player sends `rematch`; when both
//!   have, a new game starts in the same room with sides swapped (the
//!   tokens stay with the players), `state.game_no` goes up and the event
//!   is `rematch`.
//! - **Length:** a game that reaches [`MAX_PLIES`] plies (forced passes
//!   count) ends there (`outcome.reason` = `PlyLimit`), whatever the
//!   rules, so every online game ends. The rules files decide the result
//!   as the game's other endings: by the piece count in Territory Duel,
//!   by the unpinned stones home in Stones!, a draw in Mill.
//! - **Server restart:** rooms, moves, seats, tokens, clocks and pauses
//!   are stored in SQLite; every unfinished game resumes. The time the
//!   server was down is not charged to anyone.
//!
//! # Security
//!
//! Seat tokens are 160 random bits (32 base32 characters) from the OS
//! random generator and are sent only to their holder. Room codes are 80
//! random bits (16 characters): enough for watching, not for sitting down;
//! the free seat of a friend's game needs the separate join key (80 bits),
//! which only the invite carries, so a spectator link never lets anyone
//! take the seat. Each connection has a token-bucket rate limit (abusers
//! are closed), a bounded outgoing queue (a client that does not read is
//! disconnected) and messages over [`MAX_MESSAGE_BYTES`] close the
//! connection (WebSocket close code 1009).

use serde::{Deserialize, Serialize};

use crate::games::any::Variant;
use crate::games::{GameKind, Illegal, Outcome, Side};

/// Reads a refusal's `why`: a code this build does not know (a newer
/// server's reason) is `None`, so the English `reason` is shown instead
/// of the whole message being refused.
fn lenient_why<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Illegal>, D::Error> {
    let code = Option::<String>::deserialize(d)?;
    Ok(code.as_deref().and_then(Illegal::from_code))
}

/// The protocol version: `hello.v` must equal it. Version 2 sends moves
/// as `update` (only what is new) instead of a full `state` each time.
pub const PROTOCOL_VERSION: u32 = 2;
/// An online game ends when it reaches this many plies (decided by count
/// in Territory Duel and Stones!, a draw in Mill).
pub const MAX_PLIES: u32 = 1000;
/// The path of the WebSocket endpoint on the server.
pub const WS_PATH: &str = "/ws";
/// The largest message the server accepts (bytes of one text frame).
pub const MAX_MESSAGE_BYTES: usize = 4096;
/// The per-move clock when `create` or `quick_match` gives none.
pub const DEFAULT_CLOCK_SECS: u32 = 30;
/// The shortest per-move clock.
pub const MIN_CLOCK_SECS: u32 = 1;
/// The longest per-move clock (an hour).
pub const MAX_CLOCK_SECS: u32 = 3600;
/// Pauses each player may take in one game.
pub const PAUSES_PER_PLAYER: u8 = 3;
/// A pause ends by itself after this long (the server may be configured
/// otherwise: `welcome.limits.auto_resume_ms` is authoritative).
pub const AUTO_RESUME_SECS: u32 = 120;

/// Which side the creator of a game plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SideChoice {
    First,
    Second,
    /// Drawn by the server when the room is made.
    #[default]
    Random,
}

/// Client → server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// The first message: the protocol version the page speaks.
    Hello {
        v: u32,
    },
    /// A new room for a game with a friend. `clock_secs` defaults to
    /// [`DEFAULT_CLOCK_SECS`]; `side` to random. Territory Duel is always
    /// played with the pass rule online, whatever `game` says.
    Create {
        game: Variant,
        #[serde(default)]
        clock_secs: Option<u32>,
        #[serde(default)]
        side: SideChoice,
        /// A rated game (both players need a named identity); invites are
        /// casual unless asked.
        #[serde(default)]
        rated: bool,
    },
    /// Take the free seat of a friend's room (room code and join key from
    /// the invite).
    Join {
        room: String,
        key: String,
    },
    /// Take back your seat after a dropped connection or a server restart.
    Reconnect {
        room: String,
        token: String,
    },
    /// Watch a room, read-only.
    Watch {
        room: String,
    },
    /// Wait for the next player asking for the same game, rules and clock.
    QuickMatch {
        game: Variant,
        #[serde(default)]
        clock_secs: Option<u32>,
        /// Rated players are paired only with rated, casual with casual.
        #[serde(default)]
        rated: bool,
    },
    /// Leave the quick-match queue.
    CancelQuickMatch,
    /// Withdraw your invite: the creator of a room whose friend has not
    /// joined deletes it (everyone in it is told, as for an expired
    /// invite; the join and watch links no longer work).
    CancelInvite,
    /// Leave the room this connection is in (a seat stays yours: reconnect
    /// with its token; the clock keeps running).
    Leave,
    /// Ask for the full state of the room again.
    Sync,
    /// Play `mv` (the game's notation) as move number `ply` + 1, where
    /// `ply` is the length of `state.moves` you are answering.
    Move {
        ply: u32,
        mv: String,
    },
    /// Stop the clock (limited per player and game).
    Pause,
    /// End your own pause.
    Unpause,
    /// Give up the game.
    Resign,
    /// Offer a draw (or accept the opponent's standing offer).
    OfferDraw,
    /// Accept or decline the opponent's draw offer.
    AnswerDraw {
        accept: bool,
    },
    /// Ask for another game after this one, sides swapped.
    Rematch,
    /// Keep-alive and round-trip measurement: answered by `pong` with the
    /// same `t`.
    Ping {
        #[serde(default)]
        t: u64,
    },
    /// A new identity with this display name: answered by `identity` with
    /// the secret (sent this once; the server keeps only its hash).
    Register {
        name: String,
    },
    /// This connection is the identity whose secret (or recovery code)
    /// this is: answered by `identity` (without the secret).
    Identify {
        secret: String,
    },
    /// A new display name for this connection's identity (rate-limited).
    Rename {
        name: String,
    },
    /// A player's page: `who` is a public id or a name; `page` counts
    /// from 0 ([`GAMES_PER_PAGE`] games a page, newest first).
    Player {
        who: String,
        #[serde(default)]
        page: u32,
    },
    /// The best active, non-provisional players of one game.
    Leaderboard {
        game: GameKind,
    },
    /// Follow the lobby: open challenges and live games, sent as `lobby`
    /// now and on every change until `leave_lobby` (or entering a room).
    Lobby,
    LeaveLobby,
    /// Post an open challenge in the lobby (needs a named identity); it
    /// stays while this connection does, until taken or cancelled.
    Challenge {
        game: Variant,
        #[serde(default)]
        clock_secs: Option<u32>,
        #[serde(default)]
        rated: bool,
    },
    /// Withdraw your challenge.
    CancelChallenge,
    /// Take the seat a challenge offers: both get `seat` and `state`.
    TakeChallenge {
        id: String,
    },
    /// A finished game, to replay and review: answered by `archive`.
    Archive {
        room: String,
        game_no: u32,
    },
}

/// Server → client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The answer to a good `hello`. `server_ms` is the server's clock
    /// (ms since the Unix epoch) when it answered: with the time the page
    /// sent `hello`, it gives the page the offset between the two clocks
    /// (see [`ClockState::at_ms`]). 0 from a server that does not say.
    Welcome {
        v: u32,
        limits: Limits,
        #[serde(default)]
        server_ms: u64,
    },
    /// Your seat in a room: sent to its holder only, on create, join,
    /// quick-match pairing and reconnect. `side` is your side in the
    /// current game (it swaps on a rematch; `state.you` always tells).
    /// `join_key` is present for the creator while the friend's seat is free.
    Seat {
        room: String,
        token: String,
        side: Side,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        join_key: Option<String>,
    },
    /// The whole state of the room's game: after entering a room, after
    /// `sync`, after every refusal inside a room and when a rematch starts
    /// a new game (`from` is 0).
    State(GameState),
    /// A change in the room: like `state`, but `moves` holds only the
    /// moves after the first `from` (see [`GameState::apply`]).
    Update(GameState),
    /// An action was not allowed; nothing changed. `reason` is English;
    /// an illegal move also carries its typed reason `why` as its code
    /// (`"why":"ataxx.too_far:b2:f5"`, issue 36), which the page words in
    /// its player's language. The field is left out when there is none,
    /// and a code this build does not know reads as none, so older and
    /// newer pages and servers understand each other.
    Refused {
        code: Refusal,
        reason: String,
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "lenient_why"
        )]
        why: Option<Illegal>,
    },
    /// A message could not be understood (or the version is wrong).
    Error { code: ErrorCode, message: String },
    /// A seated player's connection went away or came back.
    Presence { side: Side, connected: bool },
    /// Waiting in the quick-match queue.
    Queued { game: Variant, clock_secs: u32 },
    /// Left the quick-match queue.
    QueueCancelled,
    /// The answer to `ping`, with the server's clock as in `welcome`.
    Pong {
        t: u64,
        #[serde(default)]
        server_ms: u64,
    },
    /// This connection's identity (after `register`, `identify` or
    /// `rename`). `secret` comes only from `register`: keep it on the
    /// device, it is the only key to the identity.
    Identity {
        player: PlayerTag,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        secret: Option<String>,
        ratings: Vec<RatingInfo>,
        /// How long until the name may change again (0: now).
        rename_in_ms: u64,
    },
    /// A player's page: ratings, their history and one page of games.
    PlayerPage {
        player: PlayerTag,
        ratings: Vec<RatingInfo>,
        history: Vec<RatingHistory>,
        games: Vec<GameSummary>,
        page: u32,
        pages: u32,
    },
    /// One game's leaderboard, best first.
    Leaderboard { game: GameKind, rows: Vec<BoardRow> },
    /// The lobby as it is now (sent on `lobby` and on every change).
    Lobby {
        challenges: Vec<ChallengeInfo>,
        games: Vec<LiveGame>,
    },
    /// Your challenge is in the lobby.
    ChallengePosted { id: String },
    /// Your challenge left the lobby (cancelled).
    ChallengeCancelled,
    /// A finished game: its summary, start position and every move.
    Archive {
        game: GameSummary,
        start: String,
        moves: Vec<String>,
    },
    /// A message type this client does not know (from a newer server).
    #[serde(other)]
    Unknown,
}

/// Games on one page of a player's page.
pub const GAMES_PER_PAGE: u32 = 20;

/// A player as chips and lists show them. `rating` is for the game in
/// question (none where there is none, e.g. a Mill variant).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerTag {
    /// The public id (`?player=ID`).
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub rating: Option<u32>,
    /// The rating is provisional (shown with `?`).
    #[serde(default)]
    pub provisional: bool,
}

/// A player's rating in one game, with their record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingInfo {
    pub game: GameKind,
    pub rating: u32,
    pub deviation: u32,
    pub provisional: bool,
    pub games: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// A player's rating after each rated game of one game, oldest first:
/// `[ms since the Unix epoch, rating]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingHistory {
    pub game: GameKind,
    pub points: Vec<[u64; 2]>,
}

/// A finished game in lists (a player's page) and in `archive`.
/// Per-side arrays are `[First, Second]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    pub room: String,
    pub game_no: u32,
    pub game: Variant,
    pub players: [Option<PlayerTag>; 2],
    pub outcome: Outcome,
    /// Set up as rated…
    pub rated: bool,
    /// …and it changed the ratings (not an abort).
    pub counted: bool,
    /// Each side's rating before and after it, when counted.
    pub before: [Option<u32>; 2],
    pub after: [Option<u32>; 2],
    pub plies: u32,
    pub clock_ms: u64,
    pub finished_ms: u64,
}

/// A leaderboard line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardRow {
    pub player: PlayerTag,
    pub games: u32,
}

/// An open challenge in the lobby.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChallengeInfo {
    pub id: String,
    pub game: Variant,
    pub clock_secs: u32,
    pub rated: bool,
    /// Who waits (with their rating in this game).
    pub by: PlayerTag,
}

/// A game being played, to watch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveGame {
    pub room: String,
    pub game: Variant,
    pub players: [Option<PlayerTag>; 2],
    pub rated: bool,
    pub plies: u32,
}

/// What the server accepts, sent in `welcome`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// The largest message, in bytes.
    pub max_message_bytes: u32,
    /// Messages per second a connection may send on average…
    pub rate_per_sec: u32,
    /// …and in a burst.
    pub burst: u32,
    pub min_clock_secs: u32,
    pub max_clock_secs: u32,
    pub pauses_per_player: u8,
    /// How long a pause lasts at most.
    pub auto_resume_ms: u64,
    /// A game ends in a draw at this many plies.
    #[serde(default)]
    pub max_plies: u32,
}

/// Where the room's game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The friend's seat is free (created, not yet joined).
    Waiting,
    /// Both seats taken, clock running.
    Playing,
    /// Paused by `paused_by`.
    Paused,
    /// Finished: see `outcome`.
    Over,
}

/// What the state message reports (for sounds and announcements).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// No change: the answer to entering a room, `sync` or a refusal.
    Sync,
    /// The second player sat down; the game has begun.
    Started,
    /// A move was played (possibly followed by a forced pass).
    Moved,
    Paused,
    Unpaused,
    /// The pause ran out and the game resumed by itself.
    AutoUnpaused,
    /// The side to move ran out of time.
    Timeout,
    Resigned,
    DrawOffered,
    DrawDeclined,
    DrawAgreed,
    /// One player asked for a rematch.
    RematchOffered,
    /// Both asked: a new game with sides swapped.
    Rematch,
    /// An event this client does not know (from a newer server).
    #[serde(other)]
    Other,
}

/// The move clock as the server sees it when the message is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    /// The clock each move starts with.
    pub per_move_ms: u64,
    /// Time left for the side to move.
    pub remaining_ms: u64,
    /// Counting down now (false while waiting, paused or over).
    pub running: bool,
    /// The server's clock (ms since the Unix epoch) when `remaining_ms`
    /// was taken. The page takes the message's travel time off the clock
    /// with it, so it does not show the one-way delay as extra time.
    /// 0 from a server that does not say.
    #[serde(default)]
    pub at_ms: u64,
}

/// The full state of a room's current game. Arrays of two are indexed by
/// side: `[First, Second]` (`Side::index`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    pub room: String,
    /// 1 for the room's first game, +1 per rematch.
    pub game_no: u32,
    pub game: Variant,
    /// The start position in the game's notation.
    pub start: String,
    /// How many moves before `moves` this message leaves out: 0 in a
    /// `state` (all the moves), the moves the client already has in an
    /// `update`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub from: u32,
    /// The moves played (after the first `from`), in the game's notation.
    pub moves: Vec<String>,
    pub to_move: Side,
    pub status: Status,
    /// Set when the game is over.
    pub outcome: Option<Outcome>,
    pub clock: ClockState,
    pub pauses_left: [u8; 2],
    pub paused_by: Option<Side>,
    /// While paused: time until the game resumes by itself.
    pub auto_resume_ms: Option<u64>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Side>,
    /// Who asked for a rematch (after the game).
    pub rematch: [bool; 2],
    /// Whether each seat has a player.
    pub seated: [bool; 2],
    /// Whether each seated player is connected now.
    pub connected: [bool; 2],
    /// How many are watching.
    pub spectators: u32,
    /// Your side; `None` when you watch.
    pub you: Option<Side>,
    pub event: Event,
    /// Who plays each side (names and ratings), where they have an identity.
    #[serde(default)]
    pub players: [Option<PlayerTag>; 2],
    /// A rated game.
    #[serde(default)]
    pub rated: bool,
    /// Once a rated game is over and counted: each side's rating before
    /// it (`players` then holds the new ones).
    #[serde(default)]
    pub rated_before: Option<[u32; 2]>,
}

/// Why an action was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Refusal {
    /// No room with this code.
    NoSuchRoom,
    /// The token is not a seat of this room.
    BadToken,
    /// The join key is wrong.
    BadKey,
    /// Both seats are taken.
    RoomFull,
    /// The game, rules or clock are not acceptable.
    BadGame,
    /// This connection is not in a room.
    NotInRoom,
    /// Spectators cannot act.
    Spectator,
    /// The friend has not joined yet.
    NotStarted,
    GameOver,
    /// The action needs a finished game (rematch).
    NotOver,
    NotYourTurn,
    /// `ply` is not the number of moves played.
    StalePly,
    /// The move is malformed or illegal here (`reason` says why).
    IllegalMove,
    Paused,
    NotPaused,
    NoPausesLeft,
    /// Only the player who paused can unpause.
    NotYourPause,
    NoDrawOffer,
    /// One draw offer per own move.
    DrawAlreadyOffered,
    /// You have already asked for this rematch.
    AlreadyAsked,
    /// Already waiting in the quick-match queue / not in it.
    AlreadyQueued,
    NotQueued,
    /// Too many spectators, rooms or connections.
    Full,
    /// The secret (or recovery code) is no identity's.
    BadIdentity,
    /// The action needs a named identity (rated games, challenges).
    NoIdentity,
    /// The name is refused ([`Refusal`]'s `reason` says why, in English).
    NameTooShort,
    NameTooLong,
    NameCharacter,
    NameSeparators,
    NameMarks,
    NameMixedScripts,
    NameReserved,
    /// Another player has this name (or one that looks like it).
    NameTaken,
    /// The name was changed too recently.
    RenameTooSoon,
    /// No player has this id or name.
    NoSuchPlayer,
    /// The page number is past the last page.
    BadPage,
    /// No finished game has this room and number.
    NoSuchGame,
    /// The challenge is gone (taken, cancelled, its creator left).
    NoSuchChallenge,
    /// Nobody plays themselves.
    OwnChallenge,
    /// Too many identities or challenges from here: wait a while.
    TooMany,
    /// A code this client does not know.
    #[serde(other)]
    Other,
}

/// Why a message could not be understood.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// `hello.v` differs from the server's [`PROTOCOL_VERSION`] (the
    /// connection is then closed).
    Version,
    /// The first message must be `hello`.
    HelloFirst,
    /// Not JSON.
    BadJson,
    /// No or unknown `"type"`.
    UnknownType,
    /// A known type with missing or wrong fields.
    BadMessage,
    /// Binary frames are not used.
    Binary,
    /// Too many messages: slow down (persisting closes the connection).
    RateLimited,
    /// The server failed (storage): try again.
    Server,
    /// A code this client does not know.
    #[serde(other)]
    Other,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl GameState {
    /// Takes in an `update`: its moves are appended and every other field
    /// replaced. Returns `false` (and changes nothing) when the update does
    /// not follow this state (another room or game, or moves missing in
    /// between): then ask for the full state with `sync`.
    pub fn apply(&mut self, update: GameState) -> bool {
        if update.room != self.room
            || update.game_no != self.game_no
            || update.from as usize != self.moves.len()
        {
            return false;
        }
        let mut moves = std::mem::take(&mut self.moves);
        moves.extend(update.moves);
        *self = GameState {
            from: 0,
            moves,
            ..update
        };
        true
    }
}

impl ServerMsg {
    /// The JSON text of this message (the server's; the page reads it with
    /// [`ServerMsg::from_json`]).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ataxx::AtaxxRules;
    use crate::games::mill::MillRules;
    use crate::games::stones::StonesRules;

    #[test]
    fn client_messages_have_snake_case_types() {
        let m = ClientMsg::Move {
            ply: 3,
            mv: "b6".into(),
        };
        assert_eq!(m.to_json(), r#"{"type":"move","ply":3,"mv":"b6"}"#);
        assert_eq!(ClientMsg::Pause.to_json(), r#"{"type":"pause"}"#);
        let hello: ClientMsg = serde_json::from_str(r#"{"type":"hello","v":1}"#).unwrap();
        assert_eq!(hello, ClientMsg::Hello { v: 1 });
    }

    #[test]
    fn create_defaults_clock_and_side() {
        let m: ClientMsg =
            serde_json::from_str(r#"{"type":"create","game":{"Stones":null}}"#).unwrap();
        assert_eq!(
            m,
            ClientMsg::Create {
                game: Variant::Stones(StonesRules),
                clock_secs: None,
                side: SideChoice::Random,
                rated: false,
            }
        );
        for game in [
            Variant::Ataxx(AtaxxRules::default()),
            Variant::Mill(MillRules::default()),
        ] {
            let m = ClientMsg::QuickMatch {
                game,
                clock_secs: Some(30),
                rated: false,
            };
            let back: ClientMsg = serde_json::from_str(&m.to_json()).unwrap();
            assert_eq!(back, m);
        }
    }

    /// Issue 36: a refusal's typed reason travels as its code under `why`,
    /// left out when there is none (the message an older server sent), and
    /// a code this build does not know reads as none on both sides, so the
    /// English `reason` is shown instead of the message being refused.
    #[test]
    fn a_refusal_carries_its_typed_reason_and_stays_readable_both_ways() {
        use crate::games::mill::MillIllegal;
        let with = ServerMsg::Refused {
            code: Refusal::IllegalMove,
            reason: "illegal move: d6 is not adjacent to b4, and flying is not allowed now".into(),
            why: Some(Illegal::Mill(MillIllegal::NotAdjacent { from: 14, to: 8 })),
        };
        let text = serde_json::to_string(&with).unwrap();
        assert!(
            text.ends_with(r#","why":"mill.not_adjacent:b4:d6"}"#),
            "{text}"
        );
        assert_eq!(ServerMsg::from_json(&text), Ok(with.clone()));
        assert_eq!(serde_json::from_str::<ServerMsg>(&text).unwrap(), with);
        let old = r#"{"type":"refused","code":"illegal_move","reason":"illegal move: b1"}"#;
        let read = ServerMsg::Refused {
            code: Refusal::IllegalMove,
            reason: "illegal move: b1".into(),
            why: None,
        };
        assert_eq!(serde_json::to_string(&read).unwrap(), old);
        assert_eq!(ServerMsg::from_json(old), Ok(read.clone()));
        for future in [
            r#"{"type":"refused","code":"illegal_move","reason":"illegal move: b1","why":"ataxx.new_rule:b1"}"#,
            r#"{"type":"refused","code":"illegal_move","reason":"illegal move: b1","why":"chess.check"}"#,
            r#"{"type":"refused","code":"illegal_move","reason":"illegal move: b1","why":"ataxx.too_far:b1"}"#,
            r#"{"type":"refused","code":"illegal_move","reason":"illegal move: b1","why":null}"#,
        ] {
            assert_eq!(ServerMsg::from_json(future), Ok(read.clone()), "{future}");
            assert_eq!(
                serde_json::from_str::<ServerMsg>(future).unwrap(),
                read,
                "{future}"
            );
        }
    }

    #[test]
    fn unknown_server_types_and_codes_are_tolerated() {
        assert_eq!(
            ServerMsg::from_json(r#"{"type":"from_the_future","x":1}"#),
            Ok(ServerMsg::Unknown)
        );
        let m = ServerMsg::from_json(r#"{"type":"refused","code":"new_code","reason":"r"}"#);
        assert_eq!(
            m,
            Ok(ServerMsg::Refused {
                code: Refusal::Other,
                reason: "r".into(),
                why: None,
            })
        );
    }
}
