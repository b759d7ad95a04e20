//! The page's side of the online messages, written by hand:
//! [`ClientMsg::to_json`] and [`ServerMsg::from_json`].
//!
//! The server reads and writes the same JSON with the serde derives in
//! [`super::online`]. The page used them too, but the derived code (an
//! internally tagged enum is read through serde's buffering, once per
//! field type) and `serde_json` were most of its online download. The two
//! sides are held together by tests: every message the server can send is
//! read back here as it was sent, every message written here is the exact
//! text serde writes, and changed or cut messages are refused exactly when
//! serde refuses them. The server's integration tests speak to it through
//! this codec too (`server::client`).
//!
//! A game's rules are read and written in its own file (`ataxx.rs`,
//! `stones.rs`, `mill.rs`); [`Variant`]'s codec is generated from the list
//! of games.

mod ataxx;
mod mill;
mod stones;

use super::json::{self, json_names, Fields, FromJson, Json, ObjWriter};
use super::online::{
    BoardRow, ChallengeInfo, ClientMsg, ClockState, ErrorCode, Event, GameState, GameSummary,
    Limits, LiveGame, PlayerTag, RatingHistory, RatingInfo, Refusal, ServerMsg, SideChoice, Status,
};
use crate::games::any::Variant;
use crate::games::{EndReason, GameKind, Outcome, Side};

json_names!(Side { First = "First", Second = "Second" });
json_names!(SideChoice { First = "first", Second = "second", Random = "random" });
json_names!(Status { Waiting = "waiting", Playing = "playing", Paused = "paused", Over = "over" });
json_names!(Event, other = Other {
    Sync = "sync", Started = "started", Moved = "moved", Paused = "paused",
    Unpaused = "unpaused", AutoUnpaused = "auto_unpaused", Timeout = "timeout",
    Resigned = "resigned", DrawOffered = "draw_offered", DrawDeclined = "draw_declined",
    DrawAgreed = "draw_agreed", RematchOffered = "rematch_offered", Rematch = "rematch",
});
json_names!(Refusal, other = Other {
    NoSuchRoom = "no_such_room", BadToken = "bad_token", BadKey = "bad_key",
    RoomFull = "room_full", BadGame = "bad_game", NotInRoom = "not_in_room",
    Spectator = "spectator", NotStarted = "not_started", GameOver = "game_over",
    NotOver = "not_over", NotYourTurn = "not_your_turn", StalePly = "stale_ply",
    IllegalMove = "illegal_move", Paused = "paused", NotPaused = "not_paused",
    NoPausesLeft = "no_pauses_left", NotYourPause = "not_your_pause",
    NoDrawOffer = "no_draw_offer", DrawAlreadyOffered = "draw_already_offered",
    AlreadyAsked = "already_asked", AlreadyQueued = "already_queued",
    NotQueued = "not_queued", Full = "full", BadIdentity = "bad_identity",
    NoIdentity = "no_identity", NameTooShort = "name_too_short",
    NameTooLong = "name_too_long", NameCharacter = "name_character",
    NameSeparators = "name_separators", NameMarks = "name_marks",
    NameMixedScripts = "name_mixed_scripts", NameReserved = "name_reserved",
    NameTaken = "name_taken", RenameTooSoon = "rename_too_soon",
    NoSuchPlayer = "no_such_player", BadPage = "bad_page", NoSuchGame = "no_such_game",
    NoSuchChallenge = "no_such_challenge", OwnChallenge = "own_challenge",
    TooMany = "too_many",
});
json_names!(GameKind { Ataxx = "Ataxx", Stones = "Stones", Mill = "Mill" });
json_names!(ErrorCode, other = Other {
    Version = "version", HelloFirst = "hello_first", BadJson = "bad_json",
    UnknownType = "unknown_type", BadMessage = "bad_message", Binary = "binary",
    RateLimited = "rate_limited", Server = "server",
});
json_names!(EndReason {
    BoardFull = "BoardFull", NoPieces = "NoPieces", NeitherCanMove = "NeitherCanMove",
    NoLegalMove = "NoLegalMove", Repetition = "Repetition", MoveLimit = "MoveLimit",
    TooFewPieces = "TooFewPieces", Timeout = "Timeout", Resignation = "Resignation",
    Agreement = "Agreement", PlyLimit = "PlyLimit",
});

use json::JsonName as _;

/// A game's rules as the page writes them on the wire, by hand (each
/// game's impl, with its `FromJson`, is in its file: `ataxx.rs`,
/// `stones.rs`, `mill.rs`).
trait WriteJson {
    /// Writes the value's JSON text onto `out`.
    fn write_json(&self, out: &mut String);
}

/// Generates the reading and writing of [`Variant`] from the list
/// ([`crate::for_each_game!`]): `{"<Kind>": <its rules>}`.
macro_rules! variant_codec {
    (() $($Kind:ident: $module:ident::$Type:ident,)*) => {
        /// The rules of the game named `name` (`"Ataxx"`, …), read from
        /// `rules`; `None` for a name no game has.
        fn read_variant(name: &str, rules: &Json) -> Option<Result<Variant, String>> {
            match name {
                $(stringify!($Kind) => Some(
                    <<crate::games::$module::$Type as crate::games::Game>::Rules as FromJson>::from_json(rules)
                        .map(Variant::$Kind),
                ),)*
                _ => None,
            }
        }

        /// Writes `game` as `{"<Kind>": <its rules>}`.
        fn write_variant(out: &mut String, game: &Variant) {
            let mut o = ObjWriter::new(out);
            match game {
                $(Variant::$Kind(rules) => rules.write_json(o.key(stringify!($Kind))),)*
            }
            o.end();
        }
    };
}

crate::for_each_game!(variant_codec!());

impl FromJson for Variant {
    fn from_json(v: &Json) -> Result<Self, String> {
        let members = match v {
            Json::Obj(m) => m.as_slice(),
            _ => &[],
        };
        let [(name, rules)] = members else {
            return Err(format!(
                "expected a game such as {{\"Stones\":null}}, found {}",
                json::kind(v)
            ));
        };
        match read_variant(name, rules) {
            Some(read) => read.map_err(|e| format!("`{name}`: {e}")),
            None => Err(format!("unknown game `{name}`")),
        }
    }
}

impl FromJson for Outcome {
    fn from_json(v: &Json) -> Result<Self, String> {
        let f = Fields::of(v)?;
        Ok(Outcome {
            winner: f.req("winner")?,
            reason: f.req("reason")?,
        })
    }
}

impl FromJson for Limits {
    fn from_json(v: &Json) -> Result<Self, String> {
        let f = Fields::of(v)?;
        Ok(Limits {
            max_message_bytes: f.req("max_message_bytes")?,
            rate_per_sec: f.req("rate_per_sec")?,
            burst: f.req("burst")?,
            min_clock_secs: f.req("min_clock_secs")?,
            max_clock_secs: f.req("max_clock_secs")?,
            pauses_per_player: f.req("pauses_per_player")?,
            auto_resume_ms: f.req("auto_resume_ms")?,
            max_plies: f.or_default("max_plies")?,
        })
    }
}

impl FromJson for ClockState {
    fn from_json(v: &Json) -> Result<Self, String> {
        let f = Fields::of(v)?;
        Ok(ClockState {
            per_move_ms: f.req("per_move_ms")?,
            remaining_ms: f.req("remaining_ms")?,
            running: f.req("running")?,
            at_ms: f.or_default("at_ms")?,
        })
    }
}

impl FromJson for PlayerTag {
    fn from_json(v: &Json) -> Result<Self, String> {
        let f = Fields::of(v)?;
        Ok(PlayerTag {
            id: f.req("id")?,
            name: f.req("name")?,
            rating: f.req("rating")?,
            provisional: f.or_default("provisional")?,
        })
    }
}

impl FromJson for RatingInfo {
    fn from_json(v: &Json) -> Result<Self, String> {
        let f = Fields::of(v)?;
        Ok(RatingInfo {
            game: f.req("game")?,
            rating: f.req("rating")?,
            deviation: f.req("deviation")?,
            provisional: f.req("provisional")?,
            games: f.req("games")?,
            wins: f.req("wins")?,
            losses: f.req("losses")?,
            draws: f.req("draws")?,
        })
    }
}

impl FromJson for RatingHistory {
    fn from_json(v: &Json) -> Result<Self, String> {
        let f = Fields::of(v)?;
        Ok(RatingHistory {
            game: f.req("game")?,
            points: f.req("points")?,
        })
    }
}

impl FromJson for GameSummary {
    fn from_json(v: &Json) -> Result<Self, String> {
        let f = Fields::of(v)?;
        Ok(GameSummary {
            room: f.req("room")?,
            game_no: f.req("game_no")?,
            game: f.req("game")?,
            players: f.req("players")?,
            outcome: f.req("outcome")?,
            rated: f.req("rated")?,
            counted: f.req("counted")?,
            before: f.req("before")?,
            after: f.req("after")?,
            plies: f.req("plies")?,
            clock_ms: f.req("clock_ms")?,
            finished_ms: f.req("finished_ms")?,
        })
    }
}

impl FromJson for BoardRow {
    fn from_json(v: &Json) -> Result<Self, String> {
        let f = Fields::of(v)?;
        Ok(BoardRow {
            player: f.req("player")?,
            games: f.req("games")?,
        })
    }
}

impl FromJson for ChallengeInfo {
    fn from_json(v: &Json) -> Result<Self, String> {
        let f = Fields::of(v)?;
        Ok(ChallengeInfo {
            id: f.req("id")?,
            game: f.req("game")?,
            clock_secs: f.req("clock_secs")?,
            rated: f.req("rated")?,
            by: f.req("by")?,
        })
    }
}

impl FromJson for LiveGame {
    fn from_json(v: &Json) -> Result<Self, String> {
        let f = Fields::of(v)?;
        Ok(LiveGame {
            room: f.req("room")?,
            game: f.req("game")?,
            players: f.req("players")?,
            rated: f.req("rated")?,
            plies: f.req("plies")?,
        })
    }
}

/// A `state` or an `update`: the message's own members (beside `type`).
fn game_state(f: &Fields) -> Result<GameState, String> {
    Ok(GameState {
        room: f.req("room")?,
        game_no: f.req("game_no")?,
        game: f.req("game")?,
        start: f.req("start")?,
        from: f.or_default("from")?,
        moves: f.req("moves")?,
        to_move: f.req("to_move")?,
        status: f.req("status")?,
        outcome: f.req("outcome")?,
        clock: f.req("clock")?,
        pauses_left: f.req("pauses_left")?,
        paused_by: f.req("paused_by")?,
        auto_resume_ms: f.req("auto_resume_ms")?,
        draw_offer: f.req("draw_offer")?,
        rematch: f.req("rematch")?,
        seated: f.req("seated")?,
        connected: f.req("connected")?,
        spectators: f.req("spectators")?,
        you: f.req("you")?,
        event: f.req("event")?,
        players: f.or_default("players")?,
        rated: f.or_default("rated")?,
        rated_before: f.req("rated_before")?,
    })
}

impl ServerMsg {
    /// Reads a server message: a `"type"` this build does not know is
    /// [`ServerMsg::Unknown`]; anything else malformed is an error that
    /// says what and where.
    pub fn from_json(text: &str) -> Result<ServerMsg, String> {
        let v = json::parse(text)?;
        let f = Fields::of(&v)?;
        let kind: String = f.req("type")?;
        let read = || -> Result<ServerMsg, String> {
            Ok(match kind.as_str() {
                "welcome" => ServerMsg::Welcome {
                    v: f.req("v")?,
                    limits: f.req("limits")?,
                    server_ms: f.or_default("server_ms")?,
                },
                "seat" => ServerMsg::Seat {
                    room: f.req("room")?,
                    token: f.req("token")?,
                    side: f.req("side")?,
                    join_key: f.req("join_key")?,
                },
                "state" => ServerMsg::State(game_state(&f)?),
                "update" => ServerMsg::Update(game_state(&f)?),
                "refused" => ServerMsg::Refused {
                    code: f.req("code")?,
                    reason: f.req("reason")?,
                    why: f
                        .req::<Option<String>>("why")?
                        .as_deref()
                        .and_then(crate::games::Illegal::from_code),
                },
                "error" => ServerMsg::Error {
                    code: f.req("code")?,
                    message: f.req("message")?,
                },
                "presence" => ServerMsg::Presence {
                    side: f.req("side")?,
                    connected: f.req("connected")?,
                },
                "queued" => ServerMsg::Queued {
                    game: f.req("game")?,
                    clock_secs: f.req("clock_secs")?,
                },
                "queue_cancelled" => ServerMsg::QueueCancelled,
                "pong" => ServerMsg::Pong {
                    t: f.req("t")?,
                    server_ms: f.or_default("server_ms")?,
                },
                "identity" => ServerMsg::Identity {
                    player: f.req("player")?,
                    secret: f.req("secret")?,
                    ratings: f.req("ratings")?,
                    rename_in_ms: f.req("rename_in_ms")?,
                },
                "player_page" => ServerMsg::PlayerPage {
                    player: f.req("player")?,
                    ratings: f.req("ratings")?,
                    history: f.req("history")?,
                    games: f.req("games")?,
                    page: f.req("page")?,
                    pages: f.req("pages")?,
                },
                "leaderboard" => ServerMsg::Leaderboard {
                    game: f.req("game")?,
                    rows: f.req("rows")?,
                },
                "lobby" => ServerMsg::Lobby {
                    challenges: f.req("challenges")?,
                    games: f.req("games")?,
                },
                "challenge_posted" => ServerMsg::ChallengePosted { id: f.req("id")? },
                "challenge_cancelled" => ServerMsg::ChallengeCancelled,
                "archive" => ServerMsg::Archive {
                    game: f.req("game")?,
                    start: f.req("start")?,
                    moves: f.req("moves")?,
                },
                _ => ServerMsg::Unknown,
            })
        };
        read().map_err(|e| format!("{kind}: {e}"))
    }
}

impl ClientMsg {
    /// The JSON text of this message (as serde writes it for the server).
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        let mut o = ObjWriter::new(&mut out);
        let kind = |o: &mut ObjWriter, kind: &str| {
            o.str("type", kind);
        };
        match self {
            ClientMsg::Hello { v } => {
                kind(&mut o, "hello");
                o.num("v", (*v).into());
            }
            ClientMsg::Create {
                game,
                clock_secs,
                side,
                rated,
            } => {
                kind(&mut o, "create");
                write_variant(o.key("game"), game);
                write_clock(&mut o, *clock_secs);
                o.str("side", side.json_name()).bool("rated", *rated);
            }
            ClientMsg::Join { room, key } => {
                kind(&mut o, "join");
                o.str("room", room).str("key", key);
            }
            ClientMsg::Reconnect { room, token } => {
                kind(&mut o, "reconnect");
                o.str("room", room).str("token", token);
            }
            ClientMsg::Watch { room } => {
                kind(&mut o, "watch");
                o.str("room", room);
            }
            ClientMsg::QuickMatch {
                game,
                clock_secs,
                rated,
            } => {
                kind(&mut o, "quick_match");
                write_variant(o.key("game"), game);
                write_clock(&mut o, *clock_secs);
                o.bool("rated", *rated);
            }
            ClientMsg::CancelQuickMatch => kind(&mut o, "cancel_quick_match"),
            ClientMsg::CancelInvite => kind(&mut o, "cancel_invite"),
            ClientMsg::Leave => kind(&mut o, "leave"),
            ClientMsg::Sync => kind(&mut o, "sync"),
            ClientMsg::Move { ply, mv } => {
                kind(&mut o, "move");
                o.num("ply", (*ply).into()).str("mv", mv);
            }
            ClientMsg::Pause => kind(&mut o, "pause"),
            ClientMsg::Unpause => kind(&mut o, "unpause"),
            ClientMsg::Resign => kind(&mut o, "resign"),
            ClientMsg::OfferDraw => kind(&mut o, "offer_draw"),
            ClientMsg::AnswerDraw { accept } => {
                kind(&mut o, "answer_draw");
                o.bool("accept", *accept);
            }
            ClientMsg::Rematch => kind(&mut o, "rematch"),
            ClientMsg::Ping { t } => {
                kind(&mut o, "ping");
                o.num("t", *t);
            }
            ClientMsg::Register { name } => {
                kind(&mut o, "register");
                o.str("name", name);
            }
            ClientMsg::Identify { secret } => {
                kind(&mut o, "identify");
                o.str("secret", secret);
            }
            ClientMsg::Rename { name } => {
                kind(&mut o, "rename");
                o.str("name", name);
            }
            ClientMsg::Player { who, page } => {
                kind(&mut o, "player");
                o.str("who", who).num("page", (*page).into());
            }
            ClientMsg::Leaderboard { game } => {
                kind(&mut o, "leaderboard");
                o.str("game", game.json_name());
            }
            ClientMsg::Lobby => kind(&mut o, "lobby"),
            ClientMsg::LeaveLobby => kind(&mut o, "leave_lobby"),
            ClientMsg::Challenge {
                game,
                clock_secs,
                rated,
            } => {
                kind(&mut o, "challenge");
                write_variant(o.key("game"), game);
                write_clock(&mut o, *clock_secs);
                o.bool("rated", *rated);
            }
            ClientMsg::CancelChallenge => kind(&mut o, "cancel_challenge"),
            ClientMsg::TakeChallenge { id } => {
                kind(&mut o, "take_challenge");
                o.str("id", id);
            }
            ClientMsg::Archive { room, game_no } => {
                kind(&mut o, "archive");
                o.str("room", room).num("game_no", (*game_no).into());
            }
        }
        o.end();
        out
    }
}

fn write_clock(o: &mut ObjWriter, clock_secs: Option<u32>) {
    match clock_secs {
        Some(s) => {
            o.num("clock_secs", s.into());
        }
        None => o.key("clock_secs").push_str("null"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ataxx::{AtaxxRules, NoMoveRule};
    use crate::games::mill::{BoardFull, MillInPlacing, MillRules, RemoveFromMills, Stalemate};
    use crate::games::stones::StonesRules;

    /// A small deterministic generator (xorshift), so the tests need no
    /// random crate and every failure can be replayed.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
        fn flip(&mut self) -> bool {
            self.next() & 1 == 1
        }
        fn side(&mut self) -> Side {
            if self.flip() {
                Side::First
            } else {
                Side::Second
            }
        }
        fn text(&mut self) -> String {
            const PARTS: [&str; 10] = ["a", "b6", "\"", "\\", "\n", "\u{1}", "é", "😀", "/", " "];
            (0..self.below(6))
                .map(|_| PARTS[self.below(PARTS.len() as u64) as usize])
                .collect()
        }
        fn number(&mut self) -> u64 {
            match self.below(4) {
                0 => 0,
                1 => self.below(100),
                2 => u64::MAX,
                _ => self.next() >> self.below(64),
            }
        }
        fn variant(&mut self) -> Variant {
            match self.below(3) {
                0 => Variant::Ataxx(AtaxxRules {
                    no_move: if self.flip() {
                        NoMoveRule::Pass
                    } else {
                        NoMoveRule::Lose
                    },
                }),
                1 => Variant::Stones(StonesRules),
                _ => Variant::Mill(MillRules {
                    pieces: self.below(256) as u8,
                    diagonal_lines: self.flip(),
                    may_fly: self.flip(),
                    fly_at: self.below(5) as u8,
                    lose_below: self.below(5) as u8,
                    remove_from_mills: if self.flip() {
                        RemoveFromMills::Always
                    } else {
                        RemoveFromMills::OnlyIfAllInMills
                    },
                    mill_in_placing: if self.flip() {
                        MillInPlacing::RemoveNow
                    } else {
                        MillInPlacing::MarkAndDelay
                    },
                    move_in_placing: self.flip(),
                    remove_multiple: self.flip(),
                    one_time_mill: self.flip(),
                    board_full: if self.flip() {
                        BoardFull::Draw
                    } else {
                        BoardFull::FirstPlayerLoses
                    },
                    stalemate: if self.flip() {
                        Stalemate::TurnPasses
                    } else {
                        Stalemate::BlockedSideLoses
                    },
                    n_move_rule: self.number() as u32,
                    threefold_repetition: self.flip(),
                    defender_first: self.flip(),
                }),
            }
        }
        fn opt<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> Option<T> {
            self.flip().then(|| f(self))
        }
        fn pick<T: Copy>(&mut self, all: &[T]) -> T {
            all[self.below(all.len() as u64) as usize]
        }
        fn state(&mut self) -> GameState {
            GameState {
                room: self.text(),
                game_no: self.number() as u32,
                game: self.variant(),
                start: self.text(),
                from: self.pick(&[0, 0, 3]),
                moves: (0..self.below(4)).map(|_| self.text()).collect(),
                to_move: self.side(),
                status: self.pick(&[
                    Status::Waiting,
                    Status::Playing,
                    Status::Paused,
                    Status::Over,
                ]),
                outcome: self.opt(|r| Outcome {
                    winner: r.opt(Rng::side),
                    reason: r.pick(&[
                        EndReason::Timeout,
                        EndReason::PlyLimit,
                        EndReason::BoardFull,
                    ]),
                }),
                clock: ClockState {
                    per_move_ms: self.number(),
                    remaining_ms: self.number(),
                    running: self.flip(),
                    at_ms: self.number(),
                },
                pauses_left: [self.below(4) as u8, 255],
                paused_by: self.opt(Rng::side),
                auto_resume_ms: self.opt(Rng::number),
                draw_offer: self.opt(Rng::side),
                rematch: [self.flip(), self.flip()],
                seated: [self.flip(), self.flip()],
                connected: [self.flip(), self.flip()],
                spectators: self.number() as u32,
                you: self.opt(Rng::side),
                event: self.pick(&[
                    Event::Sync,
                    Event::Moved,
                    Event::AutoUnpaused,
                    Event::DrawAgreed,
                ]),
                players: [self.opt(Rng::tag), self.opt(Rng::tag)],
                rated: self.flip(),
                rated_before: self.opt(|r| [r.number() as u32, r.number() as u32]),
            }
        }
        fn tag(&mut self) -> PlayerTag {
            PlayerTag {
                id: self.text(),
                name: self.text(),
                rating: self.opt(|r| r.number() as u32),
                provisional: self.flip(),
            }
        }
        fn kind(&mut self) -> GameKind {
            self.pick(&GameKind::ALL)
        }
        fn outcome(&mut self) -> Outcome {
            Outcome {
                winner: self.opt(Rng::side),
                reason: self.pick(&[EndReason::Timeout, EndReason::Resignation]),
            }
        }
        fn summary(&mut self) -> GameSummary {
            GameSummary {
                room: self.text(),
                game_no: self.number() as u32,
                game: self.variant(),
                players: [self.opt(Rng::tag), self.opt(Rng::tag)],
                outcome: self.outcome(),
                rated: self.flip(),
                counted: self.flip(),
                before: [self.opt(|r| r.number() as u32), None],
                after: [None, self.opt(|r| r.number() as u32)],
                plies: self.number() as u32,
                clock_ms: self.number(),
                finished_ms: self.number(),
            }
        }
        fn many<T>(&mut self, f: impl Fn(&mut Self) -> T) -> Vec<T> {
            (0..self.below(3)).map(|_| f(self)).collect()
        }
        fn rating(&mut self) -> RatingInfo {
            RatingInfo {
                game: self.kind(),
                rating: self.number() as u32,
                deviation: self.number() as u32,
                provisional: self.flip(),
                games: self.number() as u32,
                wins: self.number() as u32,
                losses: 0,
                draws: self.number() as u32,
            }
        }
        fn server(&mut self) -> ServerMsg {
            match self.below(17) {
                0 => ServerMsg::Welcome {
                    v: self.number() as u32,
                    limits: Limits {
                        max_message_bytes: 4096,
                        rate_per_sec: self.number() as u32,
                        burst: 3,
                        min_clock_secs: 1,
                        max_clock_secs: 3600,
                        pauses_per_player: 3,
                        auto_resume_ms: self.number(),
                        max_plies: self.number() as u32,
                    },
                    server_ms: self.number(),
                },
                1 => ServerMsg::Seat {
                    room: self.text(),
                    token: self.text(),
                    side: self.side(),
                    join_key: self.opt(Rng::text),
                },
                2 => ServerMsg::State(self.state()),
                3 => ServerMsg::Update(self.state()),
                4 => ServerMsg::Refused {
                    code: self.pick(&[Refusal::NoSuchRoom, Refusal::StalePly, Refusal::Full]),
                    reason: self.text(),
                    why: self.opt(|r| {
                        use crate::games::ataxx::AtaxxIllegal;
                        use crate::games::mill::MillIllegal;
                        use crate::games::stones::StonesIllegal;
                        use crate::games::Illegal;
                        r.pick(&[
                            Illegal::Ataxx(AtaxxIllegal::TooFar { from: 8, to: 40 }),
                            Illegal::Ataxx(AtaxxIllegal::MustPass),
                            Illegal::Stones(StonesIllegal::Pinned { from: 27 }),
                            Illegal::Mill(MillIllegal::NotAdjacent { from: 0, to: 9 }),
                        ])
                    }),
                },
                5 => ServerMsg::Error {
                    code: self.pick(&[ErrorCode::Version, ErrorCode::BadJson, ErrorCode::Server]),
                    message: self.text(),
                },
                6 => ServerMsg::Presence {
                    side: self.side(),
                    connected: self.flip(),
                },
                7 => ServerMsg::Queued {
                    game: self.variant(),
                    clock_secs: self.number() as u32,
                },
                8 => ServerMsg::QueueCancelled,
                9 => ServerMsg::Pong {
                    t: self.number(),
                    server_ms: self.number(),
                },
                10 => ServerMsg::Identity {
                    player: self.tag(),
                    secret: self.opt(Rng::text),
                    ratings: self.many(Rng::rating),
                    rename_in_ms: self.number(),
                },
                11 => ServerMsg::PlayerPage {
                    player: self.tag(),
                    ratings: self.many(Rng::rating),
                    history: self.many(|r| RatingHistory {
                        game: r.kind(),
                        points: r.many(|r| [r.number(), r.number()]),
                    }),
                    games: self.many(Rng::summary),
                    page: self.number() as u32,
                    pages: self.number() as u32,
                },
                12 => ServerMsg::Leaderboard {
                    game: self.kind(),
                    rows: self.many(|r| BoardRow {
                        player: r.tag(),
                        games: r.number() as u32,
                    }),
                },
                13 => ServerMsg::Lobby {
                    challenges: self.many(|r| ChallengeInfo {
                        id: r.text(),
                        game: r.variant(),
                        clock_secs: r.number() as u32,
                        rated: r.flip(),
                        by: r.tag(),
                    }),
                    games: self.many(|r| LiveGame {
                        room: r.text(),
                        game: r.variant(),
                        players: [r.opt(Rng::tag), r.opt(Rng::tag)],
                        rated: r.flip(),
                        plies: r.number() as u32,
                    }),
                },
                14 => ServerMsg::ChallengePosted { id: self.text() },
                15 => ServerMsg::ChallengeCancelled,
                _ => ServerMsg::Archive {
                    game: self.summary(),
                    start: self.text(),
                    moves: self.many(Rng::text),
                },
            }
        }
        fn client(&mut self) -> ClientMsg {
            match self.below(30) {
                0 => ClientMsg::Hello {
                    v: self.number() as u32,
                },
                1 => ClientMsg::Create {
                    game: self.variant(),
                    clock_secs: self.opt(|r| r.number() as u32),
                    side: self.pick(&[SideChoice::First, SideChoice::Second, SideChoice::Random]),
                    rated: self.flip(),
                },
                2 => ClientMsg::Join {
                    room: self.text(),
                    key: self.text(),
                },
                3 => ClientMsg::Reconnect {
                    room: self.text(),
                    token: self.text(),
                },
                4 => ClientMsg::Watch { room: self.text() },
                5 => ClientMsg::QuickMatch {
                    game: self.variant(),
                    clock_secs: self.opt(|r| r.number() as u32),
                    rated: self.flip(),
                },
                6 => ClientMsg::CancelQuickMatch,
                7 => ClientMsg::CancelInvite,
                8 => ClientMsg::Leave,
                9 => ClientMsg::Sync,
                10 => ClientMsg::Move {
                    ply: self.number() as u32,
                    mv: self.text(),
                },
                11 => ClientMsg::Pause,
                12 => ClientMsg::Unpause,
                13 => ClientMsg::Resign,
                14 => ClientMsg::OfferDraw,
                15 => ClientMsg::AnswerDraw {
                    accept: self.flip(),
                },
                16 => ClientMsg::Rematch,
                17 => ClientMsg::Ping { t: self.number() },
                18 => ClientMsg::Register { name: self.text() },
                19 => ClientMsg::Identify {
                    secret: self.text(),
                },
                20 => ClientMsg::Rename { name: self.text() },
                21 => ClientMsg::Player {
                    who: self.text(),
                    page: self.number() as u32,
                },
                22 => ClientMsg::Leaderboard { game: self.kind() },
                23 => ClientMsg::Lobby,
                24 => ClientMsg::LeaveLobby,
                25 => ClientMsg::Challenge {
                    game: self.variant(),
                    clock_secs: self.opt(|r| r.number() as u32),
                    rated: self.flip(),
                },
                26 => ClientMsg::CancelChallenge,
                27 => ClientMsg::TakeChallenge { id: self.text() },
                28 => ClientMsg::Archive {
                    room: self.text(),
                    game_no: self.number() as u32,
                },
                _ => ClientMsg::Ping { t: self.number() },
            }
        }
    }

    fn serde_read(text: &str) -> Result<ServerMsg, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    #[test]
    fn every_server_message_is_read_as_serde_wrote_it() {
        let mut rng = Rng(0x5eed);
        for _ in 0..3000 {
            let msg = rng.server();
            let text = msg.to_json();
            assert_eq!(ServerMsg::from_json(&text).as_ref(), Ok(&msg), "{text}");
        }
    }

    #[test]
    fn every_client_message_is_written_as_serde_writes_it() {
        let mut rng = Rng(0xc0de);
        for _ in 0..3000 {
            let msg = rng.client();
            let ours = msg.to_json();
            assert_eq!(ours, serde_json::to_string(&msg).unwrap());
            assert_eq!(serde_json::from_str::<ClientMsg>(&ours).unwrap(), msg);
        }
    }

    #[test]
    fn spacing_order_unknown_members_and_types_are_read_as_serde_reads_them() {
        let cases = [
            r#" { "v" : 2 , "type" : "welcome", "limits": {"max_message_bytes":1,"rate_per_sec":2,"burst":3,"min_clock_secs":4,"max_clock_secs":5,"pauses_per_player":6,"auto_resume_ms":7,"new":[1,{"x":null}]} , "later": "yes" } "#,
            r#"{"type":"pong","t":5}"#,
            r#"{"type":"seat","room":"r","token":"t","side":"Second","join_key":null}"#,
            r#"{"type":"queue_cancelled","extra":1}"#,
            r#"{"type":"from_the_future","x":1}"#,
            r#"{"type":"refused","code":"new_code","reason":"r"}"#,
            r#"{"type":"error","code":"bad_json","message":"m","code2":"x"}"#,
            r#"{"type":"queued","game":{"Ataxx":{"no_move":"Lose","later":1}},"clock_secs":30}"#,
            // serde reads a message through its buffer, which takes an
            // empty object or array for the unit of Stones!'s rules.
            r#"{"type":"queued","game":{"Stones":{}},"clock_secs":30}"#,
            r#"{"type":"queued","game":{"Stones":[]},"clock_secs":30}"#,
        ];
        for text in cases {
            let theirs = serde_read(text);
            assert!(theirs.is_ok(), "{text}: {theirs:?}");
            assert_eq!(ServerMsg::from_json(text), theirs, "{text}");
        }
    }

    #[test]
    fn bad_server_messages_are_refused_as_serde_refuses_them() {
        let cases = [
            "",
            "null",
            "[]",
            r#"{"t":5}"#,
            r#"{"type":5}"#,
            r#"{"type":"pong"}"#,
            r#"{"type":"pong","t":-1}"#,
            r#"{"type":"pong","t":1.5}"#,
            r#"{"type":"pong","t":18446744073709551616}"#,
            r#"{"type":"pong","t":1,"t":2}"#,
            r#"{"type":"pong","type":"pong","t":1}"#,
            r#"{"type":"presence","side":"Third","connected":true}"#,
            r#"{"type":"queued","game":{"Chess":null},"clock_secs":30}"#,
            r#"{"type":"queued","game":{"Stones":null,"Mill":null},"clock_secs":30}"#,
            r#"{"type":"queued","game":{},"clock_secs":30}"#,
            r#"{"type":"queued","game":"Stones","clock_secs":30}"#,
            r#"{"type":"queued","game":{"Stones":{"a":1}},"clock_secs":30}"#,
            r#"{"type":"queued","game":{"Stones":null},"clock_secs":4294967296}"#,
        ];
        for text in cases {
            let theirs = serde_read(text);
            assert!(theirs.is_err(), "serde read {text}");
            let ours = ServerMsg::from_json(text);
            assert!(ours.is_err(), "{text} was read as {ours:?}");
        }
        assert_eq!(
            ServerMsg::from_json(r#"{"type":"pong","t":"5"}"#),
            Err("pong: `t`: expected a number, found a string".into())
        );
    }

    /// Every message cut short, and every byte changed to each of a few
    /// characters, is read exactly when serde reads it, as serde reads it.
    #[test]
    fn changed_messages_are_read_exactly_when_serde_reads_them() {
        let mut rng = Rng(0xbad);
        let mut checked = 0;
        for _ in 0..40 {
            let text = rng.server().to_json();
            let mut variants: Vec<String> = (0..text.len())
                .filter(|&i| text.is_char_boundary(i))
                .map(|i| text[..i].to_string())
                .collect();
            for (i, c) in text.char_indices() {
                if !c.is_ascii() {
                    continue;
                }
                for r in [
                    '{', '}', '[', ']', '"', ',', ':', '0', '9', '-', 'n', 'x', '\\', ' ', '.',
                ] {
                    let mut t = text.clone();
                    t.replace_range(i..i + 1, r.encode_utf8(&mut [0; 4]));
                    variants.push(t);
                }
            }
            for t in variants {
                let (ours, theirs) = (ServerMsg::from_json(&t), serde_read(&t));
                match (&ours, &theirs) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b, "{t}"),
                    (Err(_), Err(_)) => {}
                    _ => panic!("{t}: ours {ours:?}, serde {theirs:?}"),
                }
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
