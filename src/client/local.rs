//! A game on this device: two players, or one against the computer.
//!
//! [`LocalGame`] holds the record and decides what the page's buttons and
//! the clock do; the page passes the time (`performance.now()`) to every
//! method that can start or stop the clock. The rules it keeps:
//!
//! - **The clock** runs for the side to move while the game is on, not
//!   paused, and no dialog or panel is over the board ([`LocalGame::set_covered`]);
//!   every turn starts with the full time. A Mill removal after a mill is
//!   the same turn: the clock runs on. At 0 the side to move loses on time.
//! - **A clock length change** ([`LocalGame::set_clock_secs`]) applies from
//!   the next move (and to new games); the running move keeps its time.
//! - **A finished game is finished**: moves, undo, redo, pause and the
//!   clock no longer change it. Undo and Redo after the end step through
//!   the moves (review), the game stays over.
//! - **Undo** takes back one move with two players, and against the
//!   computer your last move and the computer's reply; **Redo** replays
//!   what Undo took back. Both start the turn's clock afresh.
//! - **A forced move** (Territory Duel's pass) is offered by
//!   [`LocalGame::forced_move`] for the page to play at once.
//! - **Resume** ([`LocalGame::resumed`]): a saved game in progress comes
//!   back paused with the time that was left; a saved game that ended in a
//!   way its moves do not show (time, resignation) comes back finished.
//! - **Recent games** ([`SavePoint::keep`]): a game is worth keeping once a
//!   move has been played in it here (by anyone: the player, the computer,
//!   a forced pass), it has ended, or a game was imported into it; a game
//!   that was only opened is not. A resumed game was kept already. New
//!   game or Rematch on the same screen is another game
//!   ([`SavePoint::game_no`]): the finished one stays in the list.

use super::clock::MoveClock;
use crate::games::{EndReason, Game, GameError, Outcome, Record, Side};

/// What a game looked like when last saved: the record and the time left
/// on the move clock of the side to move (`None`: no clock).
#[derive(Clone, Debug, PartialEq)]
pub struct SavePoint<G: Game> {
    pub record: Record<G>,
    pub clock_left_ms: Option<f64>,
    /// Whether the game belongs in the recent games: something happened in
    /// it (a move, its end, an import) or it came from there.
    pub keep: bool,
    /// Which game of this screen it is: 0 for the one it opened with, one
    /// more for every New game or Rematch (each is saved on its own).
    pub game_no: u32,
}

/// What a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    /// The other side is to move; its clock starts.
    NextTurn,
    /// The same side moves again (a removal after a mill): the clock runs on.
    SameTurn,
    /// The move ended the game; the clock stops.
    Ended(Outcome),
}

/// Why a move was not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The game is paused.
    Paused,
    /// The game is over.
    Over,
    /// The rules do not allow it (the record is unchanged).
    Illegal(GameError),
}

/// What Undo or Redo did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Took back (Undo) or replayed (Redo) this many moves of the game.
    Moves(usize),
    /// The game is over: the board now shows the position after this many
    /// moves (review); the game itself is unchanged.
    Review(usize),
    /// Nothing to take back or replay.
    Nothing,
}

/// A local game and everything the page decides about it.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalGame<G: Game> {
    record: Record<G>,
    /// Moves taken back, most recent last, for Redo.
    redo: Vec<G::Move>,
    clock: MoveClock,
    /// Seconds per move for the turns to come (0 = no clock).
    clock_secs: u32,
    /// The side the computer plays; `None` with two players.
    computer: Option<Side>,
    /// Paused by the player.
    paused: bool,
    /// A dialog or panel is over the board.
    covered: bool,
    /// The ply shown from the move list; `None`: the live game.
    viewing: Option<usize>,
    /// Something happened in this game (see [`SavePoint::keep`]).
    keep: bool,
    /// New games started on this screen (see [`SavePoint::game_no`]).
    game_no: u32,
}

fn limit_ms(secs: u32) -> Option<f64> {
    (secs > 0).then(|| f64::from(secs) * 1000.0)
}

impl<G: Game> LocalGame<G> {
    /// A game from `record` (a new game or a link), its clock running from
    /// `now` unless the game is already over.
    pub fn new(record: Record<G>, clock_secs: u32, computer: Option<Side>, now: f64) -> Self {
        let mut game = LocalGame {
            record,
            redo: Vec::new(),
            clock: MoveClock::new(limit_ms(clock_secs)),
            clock_secs,
            computer,
            paused: false,
            covered: false,
            viewing: None,
            keep: false,
            game_no: 0,
        };
        game.start_turn(now);
        game
    }

    /// A saved game coming back (a reload): `outcome` is how it ended, if
    /// it did, and `left_ms` the time that was left. A game in progress
    /// comes back paused with that time; an ending its moves do not show
    /// (time, resignation, agreement) is restored, so a finished game stays
    /// finished. A saved ending that does not fit the record is ignored.
    pub fn resumed(
        record: Record<G>,
        clock_secs: u32,
        computer: Option<Side>,
        left_ms: Option<f64>,
        outcome: Option<Outcome>,
    ) -> Self {
        let mut game = LocalGame::new(record, clock_secs, computer, 0.0);
        game.keep = true;
        if let (None, Some(o)) = (game.record.outcome(), outcome) {
            let to_move = game.record.position().side_to_move();
            match (o.reason, o.winner) {
                (EndReason::Timeout, Some(w)) if w == to_move.opponent() => game.record.timeout(),
                (EndReason::Resignation, Some(w)) => game.record.resign(w.opponent()),
                (EndReason::Agreement, None) => game.record.agree_draw(),
                // An online game stopped by the server's ply cap (issue 37:
                // a finished online game opens in review like a local one).
                (EndReason::PlyLimit, _) => game.record.ply_limit(),
                _ => {}
            }
        }
        if game.is_over() {
            game.clock = MoveClock::new(limit_ms(clock_secs));
            game.clock.stopped_with(left_ms.unwrap_or(0.0));
        } else {
            game.paused = true;
            game.clock.stop(0.0);
            if let Some(left) = left_ms {
                game.clock.stopped_with(left);
            }
        }
        game
    }

    /// The game so far.
    pub fn record(&self) -> &Record<G> {
        &self.record
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.record.outcome()
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.record.outcome().is_some()
    }

    /// Whether the player paused the game.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// The side the computer plays, if any.
    pub fn computer(&self) -> Option<Side> {
        self.computer
    }

    /// The side to move in the live game.
    pub fn to_move(&self) -> Side {
        self.record.position().side_to_move()
    }

    /// The move clock.
    pub fn clock(&self) -> &MoveClock {
        &self.clock
    }

    /// Seconds per move for the next turns (0 = no clock).
    pub fn clock_secs(&self) -> u32 {
        self.clock_secs
    }

    /// Whether the clock should be counting down now.
    fn clock_should_run(&self) -> bool {
        !self.paused && !self.covered && !self.is_over()
    }

    /// A new turn: the full time of the current clock length, running if
    /// the game is on.
    fn start_turn(&mut self, now: f64) {
        self.clock = MoveClock::new(limit_ms(self.clock_secs));
        if self.clock_should_run() {
            self.clock.start_turn(now);
        }
    }

    /// Starts or stops the clock as the state now says, keeping its time.
    fn sync_clock(&mut self, now: f64) {
        if self.clock_should_run() {
            self.clock.resume(now);
        } else {
            self.clock.stop(now);
        }
    }

    /// Whether the live board takes a move from the player: the game is
    /// on, not paused, the live position is shown and it is not the
    /// computer's turn.
    pub fn board_enabled(&self) -> bool {
        !self.paused
            && !self.is_over()
            && self.viewing.is_none()
            && self.computer != Some(self.to_move())
    }

    /// Whether the computer should be asked for a move now.
    pub fn computer_to_move(&self) -> bool {
        !self.paused && !self.is_over() && self.computer == Some(self.to_move())
    }

    /// The move the side to move must make (a forced pass), while the game
    /// is on and not paused.
    pub fn forced_move(&self) -> Option<G::Move> {
        if self.paused || self.is_over() {
            return None;
        }
        self.record.position().forced_move()
    }

    /// Plays `mv` at `now` (the player's, the computer's or a forced move)
    /// and returns to the live position. Refused while paused, after the
    /// end, or when illegal; a refused move changes nothing.
    pub fn play(&mut self, mv: G::Move, now: f64) -> Result<Played, Refused> {
        if self.is_over() {
            return Err(Refused::Over);
        }
        if self.paused {
            return Err(Refused::Paused);
        }
        let mover = self.to_move();
        self.record.play(mv).map_err(Refused::Illegal)?;
        self.viewing = None;
        self.keep = true;
        if self.redo.last() == Some(&mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        Ok(match self.record.outcome() {
            Some(o) => {
                self.clock.stop(now);
                Played::Ended(o)
            }
            None if self.to_move() == mover => Played::SameTurn,
            None => {
                self.start_turn(now);
                Played::NextTurn
            }
        })
    }

    /// The clock at `now`: when the running clock has reached 0 the side to
    /// move loses on time, and that side is returned (once).
    pub fn tick(&mut self, now: f64) -> Option<Side> {
        let out = self.clock.is_running() && self.clock.left_at(now) == Some(0.0);
        if !out || self.is_over() {
            return None;
        }
        self.clock.stop(now);
        let loser = self.to_move();
        self.record.timeout();
        self.viewing = None;
        self.keep = true;
        Some(loser)
    }

    /// Pauses or resumes (ignored once the game is over). Returns whether
    /// the game is now paused.
    pub fn set_paused(&mut self, paused: bool, now: f64) -> bool {
        if !self.is_over() {
            self.paused = paused;
            self.sync_clock(now);
        }
        self.paused
    }

    /// A dialog or panel is over the board (or no longer is): the clock
    /// stops while it is and goes on with the time that was left.
    pub fn set_covered(&mut self, covered: bool, now: f64) {
        self.covered = covered;
        self.sync_clock(now);
    }

    /// Whether a dialog or panel is over the board.
    pub fn is_covered(&self) -> bool {
        self.covered
    }

    /// A new clock length. It applies from the next move: the running move
    /// keeps its clock.
    pub fn set_clock_secs(&mut self, secs: u32) {
        self.clock_secs = secs;
    }

    /// Whether Undo does something.
    pub fn can_undo(&self) -> bool {
        if self.is_over() {
            return self.shown_ply() > 0;
        }
        let Some(computer) = self.computer else {
            return !self.record.moves().is_empty();
        };
        let mut pos = self.record.start().clone();
        self.record.moves().iter().any(|&mv| {
            let mine = pos.side_to_move() != computer;
            pos.play_unchecked(mv);
            mine
        })
    }

    /// Whether Redo does something.
    pub fn can_redo(&self) -> bool {
        if self.is_over() {
            self.viewing.is_some()
        } else {
            !self.redo.is_empty()
        }
    }

    /// Undo: one move with two players; against the computer back to your
    /// last turn (your move and the computer's reply). After the end:
    /// shows the position one move earlier (review).
    pub fn undo(&mut self, now: f64) -> Step {
        if self.is_over() {
            let ply = self.shown_ply();
            if ply == 0 {
                return Step::Nothing;
            }
            self.viewing = Some(ply - 1);
            return Step::Review(ply - 1);
        }
        if !self.can_undo() {
            return Step::Nothing;
        }
        self.viewing = None;
        let human = self.computer.map(Side::opponent);
        let mut took_own = false;
        let mut taken = 0;
        while let Some(ply) = self.record.moves().len().checked_sub(1) {
            let mover = self.record.position_at(ply).side_to_move();
            self.redo.push(self.record.moves()[ply]);
            self.record.undo(1);
            taken += 1;
            took_own |= human.is_none_or(|h| mover == h);
            if took_own && human.is_none_or(|h| self.to_move() == h) {
                break;
            }
        }
        self.start_turn(now);
        Step::Moves(taken)
    }

    /// Redo: replays what Undo took back (your move and, against the
    /// computer, its reply). After the end: shows the next position.
    pub fn redo(&mut self, now: f64) -> Step {
        if self.is_over() {
            return match self.viewing {
                Some(ply) => {
                    self.view(Some(ply + 1));
                    Step::Review(self.shown_ply())
                }
                None => Step::Nothing,
            };
        }
        self.viewing = None;
        let human = self.computer.map(Side::opponent);
        let mut replayed = 0;
        while let Some(mv) = self.redo.pop() {
            if self.record.play(mv).is_err() {
                self.redo.clear();
                break;
            }
            replayed += 1;
            if self.is_over() || human.is_none_or(|h| self.to_move() == h) {
                break;
            }
        }
        if replayed == 0 {
            return Step::Nothing;
        }
        if self.is_over() {
            self.clock.stop(now);
        } else {
            self.start_turn(now);
        }
        Step::Moves(replayed)
    }

    /// A new game from `start` with the current clock length, running;
    /// not worth keeping until something happens in it.
    pub fn new_game(&mut self, start: G, now: f64) {
        self.replace(Record::new(start), now);
        self.paused = false;
        self.keep = false;
        self.game_no += 1;
        self.start_turn(now);
    }

    /// An imported game replaces this one (same mode and clock length).
    pub fn import(&mut self, record: Record<G>, now: f64) {
        self.replace(record, now);
        self.keep = true;
    }

    fn replace(&mut self, record: Record<G>, now: f64) {
        self.record = record;
        self.redo.clear();
        self.viewing = None;
        if self.is_over() {
            self.paused = false;
        }
        self.start_turn(now);
    }

    /// Shows the position after `ply` moves from the move list (`None` or
    /// the last ply: the live game).
    pub fn view(&mut self, ply: Option<usize>) {
        let n = self.record.moves().len();
        self.viewing = ply.filter(|&p| p < n);
    }

    /// The ply shown from the move list; `None`: the live game.
    pub fn viewing(&self) -> Option<usize> {
        self.viewing
    }

    /// How many moves the shown position has.
    pub fn shown_ply(&self) -> usize {
        self.viewing.unwrap_or(self.record.moves().len())
    }

    /// The record as far as the shown position.
    pub fn shown(&self) -> Record<G> {
        match self.viewing {
            Some(ply) => self.record.truncated(ply),
            None => self.record.clone(),
        }
    }

    /// What to save at `now`: the record, the time left and whether the
    /// game belongs in the recent games.
    pub fn snapshot(&self, now: f64) -> SavePoint<G> {
        SavePoint {
            record: self.record.clone(),
            clock_left_ms: self.clock.left_at(now),
            keep: self.keep,
            game_no: self.game_no,
        }
    }
}
