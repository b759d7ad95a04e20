//! The room's rules as a plain table, with no input or output: the game,
//! its clock and pause timer, draw offers, rematches and the ply cap.
//! [`Table::apply`] takes a seated side's [`Action`] at an injected `now`
//! and returns the [`Event`] to announce or the [`Refused`] reason, and
//! [`Table::due`] what the timers decide at `now` (a timeout, the end of a
//! pause). Nothing here sends, stores or reads a clock: the room task
//! ([`super::task`]) keeps the members, the broadcast and the store, and
//! puts the table back ([`Table::snapshot`]/[`Table::restore`]) when what
//! it did cannot be stored (issue 33: stored before announced). Issue 34
//! took this out of the 152-line `Room::apply`; tests/server_table.rs
//! plays it from transcripts (actions with times, events and refusals).
//!
//! Clock: while the game is playing, `deadline` is when the side to move
//! runs out; otherwise `meta.remaining_ms` holds the time left. A deadline
//! is reached at the instant itself (`<=`), not a moment later.

use std::fmt;
use std::time::Duration;

use tokio::time::Instant;

use crate::games::any::AnyRecord;
use crate::games::{GameError, Illegal, Side};
use crate::protocol::online::{
    ClockState, Event, GameState, Refusal, ServerMsg, Status, MAX_PLIES,
};
use crate::server::store::RoomMeta;

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

/// Why an action was refused: a rule of the room (its code and the words
/// a player reads), or the game's own rules refusing the move, with their
/// error as the game gave it (so a typed reason travels as it is).
#[derive(Clone, Debug, PartialEq)]
pub enum Refused {
    Rule(Refusal, String),
    Illegal(GameError),
}

impl Refused {
    /// A rule's refusal with its words.
    pub fn rule(code: Refusal, reason: impl Into<String>) -> Refused {
        Refused::Rule(code, reason.into())
    }

    /// The protocol's code for it.
    pub fn code(&self) -> Refusal {
        match self {
            Refused::Rule(code, _) => *code,
            Refused::Illegal(_) => Refusal::IllegalMove,
        }
    }

    /// The words sent with the code.
    pub fn reason(&self) -> String {
        match self {
            Refused::Rule(_, reason) => reason.clone(),
            Refused::Illegal(e) => e.to_string(),
        }
    }

    /// The game's typed reason for an illegal move (sent as `why`, so the
    /// page can say it in the player's language).
    pub fn why(&self) -> Option<Illegal> {
        match self {
            Refused::Illegal(GameError::IllegalMove(why)) => Some(*why),
            _ => None,
        }
    }

    /// The message that tells the player.
    pub fn message(&self) -> ServerMsg {
        ServerMsg::Refused {
            code: self.code(),
            reason: self.reason(),
            why: self.why(),
        }
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: {}", self.code(), self.reason())
    }
}

/// What the table plays by (from the server's config).
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// A pause ends by itself after this long.
    pub auto_resume: Duration,
    /// Pauses each player has in a game (a rematch gives them again).
    pub pauses_per_player: u8,
}

/// A room's game and timers.
#[derive(Clone, Debug)]
pub struct Table {
    pub meta: RoomMeta,
    pub live: AnyRecord,
    /// The current game's moves, as text.
    pub moves: Vec<String>,
    /// When the side to move runs out, while the clock runs.
    pub deadline: Option<Instant>,
    /// When a pause ends by itself.
    pub pause_until: Option<Instant>,
    pub rules: Rules,
}

/// The table before an action: what it may change, to put back when the
/// change cannot be stored. The moves are kept whole only for a rematch
/// (the only action that replaces them); otherwise their length.
pub struct Snapshot {
    meta: RoomMeta,
    live: AnyRecord,
    moves_len: usize,
    moves: Option<Vec<String>>,
    deadline: Option<Instant>,
    pause_until: Option<Instant>,
}

/// `d` in whole milliseconds.
pub fn ms(d: Duration) -> u64 {
    d.as_millis().min(u128::from(u64::MAX)) as u64
}

impl Table {
    /// A stored game with its timers set as of `now` (`wall_ms` is the
    /// same moment on the wall clock). A clock saved while running
    /// (`meta.clock_saved_ms`) is charged the time its server ran after
    /// the save (until `ran_until_ms`, its last heartbeat; `None`: this
    /// server, which runs still), never the downtime after it; a clock
    /// already out is a verdict at the first [`Table::due`].
    pub fn resume(
        meta: RoomMeta,
        moves: Vec<String>,
        rules: Rules,
        (now, wall_ms): (Instant, u64),
        ran_until_ms: Option<u64>,
    ) -> Result<Table, String> {
        let charged_ms = meta.clock_saved_ms.map_or(0, |saved| {
            ran_until_ms
                .unwrap_or(wall_ms)
                .min(wall_ms)
                .saturating_sub(saved)
        });
        let live =
            AnyRecord::restore(&meta.spec, &meta.start, &moves).map_err(|e| e.to_string())?;
        let mut table = Table {
            meta,
            live,
            moves,
            deadline: None,
            pause_until: None,
            rules,
        };
        match table.status() {
            Status::Playing => {
                table.meta.remaining_ms = table.meta.remaining_ms.saturating_sub(charged_ms);
                table.start_clock(now);
            }
            Status::Paused => {
                let left = table.meta.pause_left_ms.saturating_sub(charged_ms);
                table.pause_until = Some(now + Duration::from_millis(left));
            }
            Status::Waiting | Status::Over => {}
        }
        Ok(table)
    }

    pub fn status(&self) -> Status {
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

    /// The side player 0 (the creator) or 1 plays in the current game.
    pub fn side_of(&self, player: usize) -> Side {
        if player == 0 {
            self.meta.creator_side
        } else {
            self.meta.creator_side.opponent()
        }
    }

    /// The side to move's time left at `now`.
    pub fn remaining(&self, now: Instant) -> u64 {
        match self.deadline {
            Some(d) => ms(d.saturating_duration_since(now)),
            None => self.meta.remaining_ms,
        }
    }

    /// Whether a timer runs (the move clock or a pause).
    pub fn running(&self) -> bool {
        self.deadline.is_some() || self.pause_until.is_some()
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

    /// The friend sits down (with their sealed token): the game begins
    /// and the first clock starts.
    pub fn seat_friend(&mut self, sealed_token: String, now: Instant) {
        self.meta.tokens[1] = Some(sealed_token);
        self.meta.join_key = None;
        self.meta.remaining_ms = self.meta.clock_ms;
        self.start_clock(now);
    }

    /// What an action may change, to put back when it cannot be stored
    /// (`rematch`: all the moves too, which a rematch replaces).
    pub fn snapshot(&self, rematch: bool) -> Snapshot {
        Snapshot {
            meta: self.meta.clone(),
            live: self.live.clone(),
            moves_len: self.moves.len(),
            moves: rematch.then(|| self.moves.clone()),
            deadline: self.deadline,
            pause_until: self.pause_until,
        }
    }

    pub fn restore(&mut self, s: Snapshot) {
        self.meta = s.meta;
        self.live = s.live;
        match s.moves {
            Some(moves) => self.moves = moves,
            None => self.moves.truncate(s.moves_len),
        }
        self.deadline = s.deadline;
        self.pause_until = s.pause_until;
    }

    /// The state as it is at `now` (`wall_ms` is the same moment on the
    /// wall clock), with the moves after the first `from`; `connected` and
    /// `spectators` are the room's members, which the table does not know.
    pub fn state(
        &self,
        code: &str,
        you: Option<Side>,
        event: Event,
        (now, wall_ms): (Instant, u64),
        from: usize,
        (connected, spectators): ([bool; 2], u32),
    ) -> GameState {
        let from = from.min(self.moves.len());
        GameState {
            room: code.to_string(),
            game_no: self.meta.game_no,
            game: self.meta.spec,
            start: self.meta.start.clone(),
            from: from as u32,
            moves: self.moves[from..].to_vec(),
            to_move: self.live.to_move(),
            status: self.status(),
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
            connected,
            spectators,
            you,
            event,
            players: [None, None],
            rated: false,
            rated_before: None,
        }
    }

    /// Whatever the timers say is due at `now`: the end of a pause, or
    /// the side to move's timeout. Returns the event to announce, if any.
    pub fn due(&mut self, now: Instant) -> Option<Event> {
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

    /// Applies a seated side's action at `now`; a refusal changes nothing.
    pub fn apply(&mut self, side: Side, action: Action, now: Instant) -> Result<Event, Refused> {
        let no = |code, reason: &str| Refused::rule(code, reason);
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
                    return Err(Refused::rule(
                        Refusal::StalePly,
                        format!("the move is for ply {asked}, but {ply} moves have been played"),
                    ));
                }
                let played = self.live.play_text(&mv).map_err(Refused::Illegal)?;
                self.meta.moved[side.index()] = true;
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
                self.pause_until = Some(now + self.rules.auto_resume);
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
        m.pauses_left = [self.rules.pauses_per_player; 2];
        m.draw_offer = None;
        m.offered_at = [None, None];
        m.rematch = [false, false];
        m.moved = [false, false];
        self.live = AnyRecord::new(&m.spec);
        m.start = self.live.start_text();
        self.moves.clear();
        self.pause_until = None;
        self.start_clock(now);
    }
}
