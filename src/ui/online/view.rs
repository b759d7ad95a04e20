//! What an online game's screen shows that does not depend on the game: a
//! `Copy` handle on the session's last server state with one method per
//! thing shown (whose turn, the clock, pause, offers, rematch, presence)
//! and its words. Not generic, so the page carries it once; the generic
//! screen ([`super::room::OnlineGame`]) adds the board and the record.

use leptos::prelude::*;

use super::socket::Driver;
use super::text;
use crate::client::online::identity::rating_change;
use crate::client::online::session::{Connection, Flash};
use crate::games::Side;
use crate::i18n::Lang;
use crate::protocol::online::{Event, GameState, Status};
use crate::ui::clock::{format_left, ticker};
use crate::ui::words::use_lang;
use crate::{t, tn};

/// How long a flash message (a refusal, a presence change) stays.
pub const FLASH_MS: f64 = 6_000.0;

/// The online game's state as the screen reads it.
#[derive(Clone, Copy)]
pub struct Room {
    pub driver: Driver,
    pub state: Memo<Option<GameState>>,
    /// Your side; `None` when watching.
    pub you: Memo<Option<Side>>,
    /// `performance.now()`, refreshed for the clock and the flash lines.
    pub now: RwSignal<f64>,
    pub lang: Signal<Lang>,
    /// The game's names for the sides.
    pub side_name: fn(Lang, Side) -> &'static str,
}

impl Room {
    pub fn new(driver: Driver, side_name: fn(Lang, Side) -> &'static str) -> Self {
        let session = driver.session;
        Room {
            driver,
            state: Memo::new(move |_| session.with(|s| s.state.clone())),
            you: Memo::new(move |_| session.with(|s| s.you())),
            now: ticker(Signal::derive(|| true)),
            lang: use_lang(),
            side_name,
        }
    }

    fn with_state(self, f: impl Fn(&GameState) -> bool) -> bool {
        self.state.with(|s| s.as_ref().is_some_and(f))
    }
    pub fn status(self) -> Option<Status> {
        self.state.with(|s| s.as_ref().map(|s| s.status))
    }
    pub fn over(self) -> bool {
        self.status() == Some(Status::Over)
    }
    pub fn paused(self) -> bool {
        self.status() == Some(Status::Paused)
    }
    pub fn playing(self) -> bool {
        self.status() == Some(Status::Playing)
    }
    /// Playing or paused: the controls of a game in progress.
    pub fn in_game(self) -> bool {
        matches!(self.status(), Some(Status::Playing | Status::Paused))
    }
    pub fn to_move(self) -> Option<Side> {
        self.state.with(|s| s.as_ref().map(|s| s.to_move))
    }
    pub fn opponent(self) -> Option<Side> {
        self.you.get().map(Side::opponent)
    }
    pub fn link_open(self) -> bool {
        self.driver
            .session
            .with(|s| s.connection == Connection::Open)
    }
    pub fn connected(self, side: Side) -> bool {
        self.with_state(|s| s.connected[side.index()])
    }
    pub fn seated(self, side: Side) -> bool {
        self.with_state(|s| s.seated[side.index()])
    }
    pub fn spectators(self) -> u32 {
        self.state.with(|s| s.as_ref().map_or(0, |s| s.spectators))
    }
    /// It is `side`'s turn in a game that is on.
    pub fn turn_of(self, side: Side) -> bool {
        self.in_game() && !self.paused() && self.to_move() == Some(side)
    }

    /// The line about your turn ("Your turn"), for players while playing.
    pub fn turn_line(self) -> Option<String> {
        let y = self.you.get()?;
        if !self.playing() {
            return None;
        }
        let lang = self.lang.get();
        let line = if self.driver.session.with(|s| s.pending.is_some()) {
            t!(lang, "online.turn_sending")
        } else if self.to_move() == Some(y) {
            t!(lang, "online.turn_yours")
        } else {
            t!(lang, "online.turn_theirs")
        };
        Some(line.to_string())
    }
    /// The status when the board does not say it: waiting for a player,
    /// paused.
    pub fn status_word(self) -> Option<String> {
        let lang = self.lang.get();
        match self.status() {
            Some(Status::Waiting) => Some(t!(lang, "online.status_waiting_for_player").to_string()),
            Some(Status::Paused) => Some(t!(lang, "online.status_paused").to_string()),
            _ => None,
        }
    }
    /// The result for you: "You won", "Draw", or who won when watching.
    pub fn personal_result(self) -> Option<String> {
        let o = self.state.with(|s| s.as_ref().and_then(|s| s.outcome))?;
        let lang = self.lang.get();
        Some(match (o.winner, self.you.get()) {
            (None, _) => t!(lang, "online.result_draw").to_string(),
            (Some(w), Some(y)) if w == y => t!(lang, "online.result_you_won").to_string(),
            (Some(_), Some(_)) => t!(lang, "online.result_you_lost").to_string(),
            (Some(w), None) => t!(
                lang,
                "online.result_winner",
                side = (self.side_name)(lang, w)
            ),
        })
    }
    /// A refusal, an error or a presence change, for a few seconds.
    pub fn flash_line(self) -> Option<String> {
        let (t_now, lang, side_name) = (self.now.get(), self.lang.get(), self.side_name);
        self.driver.session.with(|s| {
            s.flash_at(t_now, FLASH_MS).map(|f| match f {
                Flash::Refused { why: Some(why), .. } => t!(
                    lang,
                    "online.refusal.illegal_move",
                    reason = crate::ui::words::illegal(lang, why)
                ),
                Flash::Refused { code, reason, .. } => text::refusal(lang, *code, reason),
                Flash::Error { code, message } => text::error(lang, *code, message),
                Flash::Presence { side, connected } => {
                    let theirs = s.you().is_some();
                    text::presence(lang, side_name(lang, *side), theirs, *connected)
                }
            })
        })
    }
    /// What the last state reported, when it was not a move.
    pub fn event_line(self) -> Option<String> {
        let event = self
            .state
            .with(|s| s.as_ref().map_or(Event::Sync, |s| s.event));
        text::event(self.lang.get(), event, self.you.get().is_some()).map(str::to_string)
    }

    /// The clock: the server's figure counted down locally; 0:00 waits for
    /// the server to call the timeout. After the end it says so, as a local
    /// game's does, instead of the time the last move had left.
    pub fn clock_text(self) -> String {
        if self.over() {
            return t!(self.lang.get(), "clock.over").to_string();
        }
        self.left().map(format_left).unwrap_or_default()
    }
    fn left(self) -> Option<f64> {
        let now = self.now.get();
        self.driver.session.with(|s| s.clock_left(now))
    }
    pub fn clock_running(self) -> bool {
        self.with_state(|s| s.clock.running)
    }
    pub fn clock_fraction(self) -> f64 {
        let limit = self
            .state
            .with(|s| s.as_ref().map_or(0, |s| s.clock.per_move_ms)) as f64;
        if self.over() {
            return 0.0;
        }
        self.left()
            .map_or(1.0, |l| if limit > 0.0 { l / limit } else { 1.0 })
    }
    pub fn clock_low(self) -> bool {
        self.clock_running() && self.left().is_some_and(|ms| ms <= 5_000.0)
    }
    pub fn clock_label(self) -> String {
        let lang = self.lang.get();
        let side = self.to_move().map_or("", |s| (self.side_name)(lang, s));
        t!(
            lang,
            "online.clock_label",
            time = self.clock_text(),
            side = side
        )
    }

    pub fn paused_by(self) -> Option<Side> {
        self.state.with(|s| s.as_ref().and_then(|s| s.paused_by))
    }
    /// You paused the game (and may resume it).
    pub fn my_pause(self) -> bool {
        self.you.get().is_some() && self.paused_by() == self.you.get()
    }
    pub fn pauses_left(self, side: Side) -> u32 {
        self.state.with(|s| {
            s.as_ref()
                .map_or(0, |s| u32::from(s.pauses_left[side.index()]))
        })
    }
    pub fn auto_resume(self) -> Option<String> {
        let now = self.now.get();
        self.driver
            .session
            .with(|s| s.auto_resume_left(now))
            .map(format_left)
    }
    pub fn pause_title(self) -> String {
        let lang = self.lang.get();
        match (self.paused_by(), self.you.get()) {
            (Some(p), Some(y)) if p == y => t!(lang, "online.paused_by_you").to_string(),
            (Some(_), Some(_)) => t!(lang, "online.paused_by_opponent").to_string(),
            (Some(p), None) => t!(lang, "online.paused_by", side = (self.side_name)(lang, p)),
            (None, _) => t!(lang, "online.status_paused").to_string(),
        }
    }

    pub fn draw_offer(self) -> Option<Side> {
        self.state.with(|s| s.as_ref().and_then(|s| s.draw_offer))
    }
    pub fn they_offer(self) -> bool {
        self.draw_offer().is_some() && self.draw_offer() == self.opponent() && !self.over()
    }
    pub fn i_offer(self) -> bool {
        self.draw_offer().is_some() && self.draw_offer() == self.you.get() && !self.over()
    }

    pub fn rematch_asked(self, side: Option<Side>) -> bool {
        side.is_some_and(|side| self.with_state(|s| s.rematch[side.index()]))
    }
    pub fn rematch_note(self) -> Option<String> {
        let lang = self.lang.get();
        if self.rematch_asked(self.you.get()) {
            Some(t!(lang, "online.rematch_waiting").to_string())
        } else if self.rematch_asked(self.opponent()) {
            Some(t!(lang, "online.rematch_offered").to_string())
        } else {
            None
        }
    }
    /// "Rematch", or "Accept rematch" when the opponent asked first.
    pub fn rematch_word(self) -> String {
        let lang = self.lang.get();
        if self.rematch_asked(self.opponent()) {
            t!(lang, "online.accept_rematch").to_string()
        } else {
            t!(lang, "online.rematch").to_string()
        }
    }
    /// You asked already, or the connection is down.
    pub fn rematch_disabled(self) -> bool {
        self.rematch_asked(self.you.get()) || !self.link_open()
    }

    /// Who sits behind `side`'s chip, as seen from here.
    pub fn seat(self, side: Side) -> String {
        let lang = self.lang.get();
        let seat = match self.you.get() {
            Some(y) if y == side => t!(lang, "online.chip_you"),
            Some(_) if self.connected(side) => t!(lang, "online.chip_opponent"),
            Some(_) => t!(lang, "online.chip_opponent_away"),
            None if self.seated(side) && self.connected(side) => t!(lang, "online.chip_player"),
            None => t!(lang, "online.chip_player_away"),
        };
        match self.who(side) {
            Some(who) => format!("{who} · {seat}"),
            None => seat.to_string(),
        }
    }
    /// The name and rating of `side`'s player (issue 37), and once a
    /// rated game is counted the change: "Ana 1500?", "Ana 1500 → 1662
    /// +162". `None` for a player without an identity.
    pub fn who(self, side: Side) -> Option<String> {
        self.state.with(|s| {
            let s = s.as_ref()?;
            let tag = s.players[side.index()].as_ref()?;
            let change = s
                .rated_before
                .zip(tag.rating)
                .filter(|_| s.status == Status::Over)
                .map(|(before, after)| rating_change(before[side.index()], after));
            Some(match change {
                Some(c) => format!("{} {c}", tag.name),
                None => text::player(tag),
            })
        })
    }
    /// "Rated" or "Casual" for a game between named players.
    pub fn rated_line(self) -> Option<String> {
        let lang = self.lang.get();
        self.state.with(|s| {
            let s = s.as_ref()?;
            s.players.iter().any(Option::is_some).then(|| {
                if s.rated {
                    t!(lang, "online.rated").to_string()
                } else {
                    t!(lang, "online.casual").to_string()
                }
            })
        })
    }
    /// The opponent has a seat but no connection.
    pub fn opponent_away(self) -> bool {
        self.opponent()
            .is_some_and(|o| self.seated(o) && !self.connected(o))
            && !self.over()
    }
    /// How many watch, in words (nothing when nobody does).
    pub fn spectators_line(self) -> Option<String> {
        let n = self.spectators();
        (n > 0).then(|| tn!(self.lang.get(), "online.spectators", n))
    }
}
