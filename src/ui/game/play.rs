//! What the local screen's buttons, the computer and the clock do: one
//! `Copy` handle on the screen's signals with a method per action. The
//! rules of play are [`LocalGame`]'s; this passes it the time, asks the AI
//! worker, plays sounds and words the notice line.

use gloo_timers::callback::Timeout;
use leptos::ev;
use leptos::prelude::*;

use super::{BoardCover, Opponent};
use crate::ai::Level;
use crate::client::clock::MoveClock;
use crate::client::local::{LocalGame, Played, Refused, SavePoint, Step};
use crate::client::moves::{move_count, move_of_ply, next_move};
use crate::client::score::format_score;
use crate::games::{Outcome, Record, Side};
use crate::i18n::Lang;
use crate::protocol::{Request, Response};
use crate::t;
use crate::ui::ai::Ai;
use crate::ui::clock::now_ms;
use crate::ui::games::{describe_outcome, UiGame};
use crate::ui::notation;
use crate::ui::sound::{self, Sound};
use crate::ui::words::{Problem, Text};

/// The computer's move lands no sooner than this many milliseconds after it
/// was asked (right after the move before it), so that move finishes
/// travelling on the board first (board/motion.rs; the glide takes 260 ms).
const REPLY_AFTER_MS: f64 = 300.0;

/// A random 32-bit seed from the browser's crypto source.
fn random_seed() -> u32 {
    let mut bytes = [0u8; 4];
    let _ = getrandom::fill(&mut bytes);
    u32::from_le_bytes(bytes)
}

/// A `Think` request for the current position of `record`.
fn think_request<G: UiGame>(
    record: &Record<G>,
    id: u32,
    level: Level,
    movetime_ms: Option<u64>,
) -> Request {
    Request::Think {
        id,
        game: G::variant(record.position().rules()),
        start: record.start().to_text(),
        moves: record.moves().iter().map(ToString::to_string).collect(),
        level: level.slug().to_string(),
        movetime_ms,
        seed: random_seed(),
    }
}

/// The local screen's state, as signals, and what can be done to it.
pub(super) struct Play<G: UiGame> {
    pub game: RwSignal<LocalGame<G>>,
    pub record: Memo<Record<G>>,
    /// The line under the buttons: the last move, a refusal, a hint.
    pub notice: RwSignal<Option<Text>>,
    pub ai: Option<Ai>,
    pub thinking: RwSignal<bool>,
    /// The computer's search so far: depth, score, nodes per second.
    pub engine_line: RwSignal<Option<(u32, i32, u64)>>,
    /// The hint's move, drawn on the board until the position changes.
    pub hint: RwSignal<Option<G::Move>>,
    pub sounds: Signal<bool>,
    rules: StoredValue<G::Rules>,
    /// The ply the computer was last asked to move at, so one turn is asked once.
    asked_at: StoredValue<Option<usize>>,
    /// When it was asked, and its answer while it waits for the move before
    /// it to finish travelling on the board (see `REPLY_AFTER_MS`).
    asked_ms: StoredValue<f64>,
    waiting: StoredValue<Option<Timeout>, LocalStorage>,
}

impl<G: UiGame> Clone for Play<G> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<G: UiGame> Copy for Play<G> {}

impl<G: UiGame> Play<G> {
    pub fn new(game: LocalGame<G>, ai: Option<Ai>, sounds: Signal<bool>) -> Self {
        let rules = StoredValue::new(game.record().position().rules().clone());
        let game = RwSignal::new(game);
        Play {
            game,
            record: Memo::new(move |_| game.with(|g| g.record().clone())),
            notice: RwSignal::new(None),
            ai,
            thinking: RwSignal::new(false),
            engine_line: RwSignal::new(None),
            hint: RwSignal::new(None),
            sounds,
            rules,
            asked_at: StoredValue::new(None),
            asked_ms: StoredValue::new(0.0),
            waiting: StoredValue::new_local(None),
        }
    }

    /// A notice in words that take no values.
    pub fn say(self, word: fn(Lang) -> &'static str) {
        self.notice
            .set(Some(Text::new(move |l| word(l).to_string())));
    }

    /// Plays a move (the player's, the computer's or a forced one) and
    /// says what it did, or why not.
    pub fn play(self, mv: G::Move) {
        let record = self.record;
        let before = record.with_untracked(|r| r.position().clone());
        let mut result = Err(Refused::Over);
        self.game.update(|g| result = g.play(mv, now_ms()));
        let played = match result {
            Ok(played) => played,
            Err(Refused::Illegal(error)) => {
                let problem = Problem::Move {
                    number: record.with_untracked(|r| next_move(r).number),
                    text: mv.to_string(),
                    error,
                };
                return self
                    .notice
                    .set(Some(Text::new(move |l| problem.describe(l))));
            }
            Err(Refused::Paused | Refused::Over) => return,
        };
        if self.sounds.get_untracked() {
            sound::play(match played {
                Played::Ended(_) => Sound::End,
                _ => G::sound_of(&before, mv),
            });
        }
        let line = match played {
            Played::Ended(outcome) => {
                let after = record.with_untracked(|r| r.position().clone());
                Text::new(move |l| {
                    t!(
                        l,
                        "notice.move_and_result",
                        move = G::describe_move(l, &before, mv),
                        result = describe_outcome(l, &after, outcome)
                    )
                })
            }
            Played::SameTurn | Played::NextTurn => {
                Text::new(move |l| G::describe_move(l, &before, mv))
            }
        };
        self.notice.set(Some(line));
    }

    /// Forgets the computer's search, if one is running or waiting.
    pub fn stop_thinking(self) {
        if let Some(ai) = self.ai {
            ai.cancel();
        }
        self.thinking.set(false);
        self.asked_at.set_value(None);
        self.waiting.set_value(None);
    }

    /// The computer's turn: asks the worker once per turn and plays its
    /// answer if it is still wanted.
    pub fn computer_turn(self, opp: Opponent) {
        let Some(ai) = self.ai else { return };
        let (game, record) = (self.game, self.record);
        let (wanted, ply) = game.with(|g| (g.computer_to_move(), g.record().moves().len()));
        if !wanted || self.asked_at.get_value() == Some(ply) {
            return;
        }
        self.asked_at.set_value(Some(ply));
        self.asked_ms.set_value(now_ms());
        self.thinking.set(true);
        self.engine_line.set(None);
        let request = record.with_untracked(|r| think_request(r, ai.next_id(), opp.level, None));
        ai.send(request, move |answer| match answer {
            Response::Info {
                depth, score, nps, ..
            } => self.engine_line.set(Some((depth, score, nps))),
            Response::Best { mv, .. } => {
                let answer = move || {
                    self.thinking.set(false);
                    let still_wanted = game.with_untracked(|g| {
                        g.record().moves().len() == ply && g.computer_to_move()
                    });
                    let text = mv.clone().unwrap_or_default();
                    match mv.map(|m| record.with_untracked(|r| r.position().parse_move(&m))) {
                        Some(Ok(mv)) if still_wanted => self.play(mv),
                        Some(Err(error)) => {
                            let number = record.with_untracked(|r| next_move(r).number);
                            let problem = Problem::Move {
                                number,
                                text,
                                error,
                            };
                            self.notice.set(Some(Text::new(move |l| {
                                t!(l, "computer.bad_move", problem = problem.describe(l))
                            })));
                        }
                        _ => {}
                    }
                };
                let wait = self.asked_ms.get_value() + REPLY_AFTER_MS - now_ms();
                if wait > 0.0 {
                    self.waiting
                        .set_value(Some(Timeout::new(wait as u32, answer)));
                } else {
                    answer();
                }
            }
            Response::Error { message, .. } => {
                self.thinking.set(false);
                self.notice.set(Some(Text::new(move |l| {
                    t!(l, "computer.failed", detail = message)
                })));
            }
            Response::Ready | Response::Bench { .. } => {}
        });
    }

    /// A hint: the move a strong search prefers for the side to move, on
    /// the notice line and drawn on the board until the position changes.
    pub fn ask_hint(self) {
        let Some(ai) = self.ai else { return };
        let record = self.record;
        let ply = record.with_untracked(|r| r.moves().len());
        // The hint is for the move about to be made, named as the list will.
        let number = record.with_untracked(|r| next_move(r).number);
        self.hint.set(None);
        self.say(|l| t!(l, "hint.looking"));
        let request =
            record.with_untracked(|r| think_request(r, ai.next_id(), Level::Strong, Some(1_000)));
        ai.send(request, move |answer| match answer {
            Response::Best {
                mv: Some(text),
                score,
                ..
            } if record.with_untracked(|r| r.moves().len()) == ply => {
                self.hint
                    .set(record.with_untracked(|r| r.position().parse_move(&text).ok()));
                self.notice.set(Some(Text::new(
                    move |l| t!(l, "hint.found", n = number, move = text, score = format_score(l, score)),
                )));
            }
            Response::Error { message, .. } => self.notice.set(Some(Text::new(move |l| {
                t!(l, "hint.none", detail = message)
            }))),
            _ => {}
        });
    }

    /// Undo (`true`) or Redo: the rules are LocalGame's; after the end they
    /// step through the moves.
    pub fn step_game(self, undo: bool) {
        let mut step = Step::Nothing;
        self.game.update(|g| {
            step = if undo {
                g.undo(now_ms())
            } else {
                g.redo(now_ms())
            }
        });
        match step {
            Step::Moves(_) => {
                self.stop_thinking();
                if undo {
                    self.say(|l| t!(l, "notice.undone"));
                } else {
                    self.say(|l| t!(l, "notice.redone"));
                }
            }
            Step::Review(ply) => {
                // In the move list's numbers: the move shown, of how many.
                let (ply, total) = self.record.with_untracked(|r| {
                    (move_of_ply(r, ply).map_or(0, |m| m.number), move_count(r))
                });
                self.notice.set(Some(Text::new(move |l| {
                    t!(l, "notice.review", n = ply, total = total)
                })));
            }
            Step::Nothing => {}
        }
    }

    /// Time is up at `now` (the clock shows 0): the side to move loses.
    pub fn time_up(self, now: f64) {
        let mut loser = None;
        self.game.update(|g| loser = g.tick(now));
        if loser.is_none() {
            return;
        }
        self.stop_thinking();
        if let Some((pos, outcome)) = self
            .record
            .with_untracked(|r| r.outcome().map(|o| (r.position().clone(), o)))
        {
            // The result line says who ran out of time and who wins
            // ("O ran out of time — X wins."): said once (issue 36).
            self.notice
                .set(Some(Text::new(move |l| describe_outcome(l, &pos, outcome))));
        }
    }

    /// Pause or resume (not after the end).
    pub fn toggle_pause(self) {
        if self.game.with_untracked(|g| g.outcome().is_some()) {
            return;
        }
        self.stop_thinking();
        let pause = !self.game.with_untracked(|g| g.is_paused());
        self.game.update(|g| {
            g.set_paused(pause, now_ms());
        });
        if pause {
            self.say(|l| t!(l, "notice.paused"));
        } else {
            self.say(|l| t!(l, "notice.resumed"));
        }
    }

    /// The same game again, at once (Rematch, and New game without the dialog).
    pub fn restart(self) {
        self.stop_thinking();
        let start = self.rules.with_value(|r| G::start(r));
        self.game.update(|g| g.new_game(start, now_ms()));
        self.notice.set(Some(Text::new(|l| {
            t!(l, "notice.new_game", side = G::side_name(l, Side::First))
        })));
    }

    /// A new clock length: from the next move on.
    pub fn set_clock(self, secs: u32) {
        self.game.update(|g| g.set_clock_secs(secs));
        self.say(|l| t!(l, "notice.clock_next_move"));
    }

    /// Imports a game written as text, or says why it cannot.
    pub fn import(self, text: String) {
        match self.rules.with_value(|r| notation::import::<G>(&text, r)) {
            Ok(imported) => {
                self.stop_thinking();
                let n = move_count(&imported);
                self.game.update(|g| g.import(imported, now_ms()));
                self.notice.set(Some(Text::new(move |l| {
                    crate::tn!(l, "notice.imported", n)
                })));
            }
            Err(problem) => self.notice.set(Some(Text::new(move |l| {
                t!(l, "notice.import_failed", problem = problem.describe(l))
            }))),
        }
    }

    /// Keeps the app told: `on_change` after every change of the game, on
    /// pause and when the page is hidden; `on_finish` once when it ends.
    pub fn report(
        self,
        paused: Memo<bool>,
        on_change: Option<Callback<SavePoint<G>>>,
        on_finish: Option<Callback<Outcome>>,
    ) {
        let (game, record) = (self.game, self.record);
        if let Some(cb) = on_change {
            let snapshot = move || game.with_untracked(|g| g.snapshot(now_ms()));
            Effect::new(move |_| {
                record.track();
                paused.track();
                cb.run(snapshot());
            });
            let hidden = window_event_listener(ev::pagehide, move |_| cb.run(snapshot()));
            let visible = window_event_listener(ev::visibilitychange, move |_| cb.run(snapshot()));
            on_cleanup(move || {
                hidden.remove();
                visible.remove();
            });
        }
        if let Some(cb) = on_finish {
            Effect::new(move |prev: Option<bool>| {
                let outcome = game.with(|g| g.outcome());
                if let (Some(o), Some(false)) = (outcome, prev) {
                    cb.run(o);
                }
                outcome.is_some()
            });
        }
    }

    /// Runs the game by itself: a dialog or panel over the board stops the
    /// clock, the computer moves on its turn, a forced move (Territory
    /// Duel's pass) is made at once, at 0 the side to move loses on time,
    /// and the search stops with the screen.
    pub fn drive(self, opponent: Option<Opponent>, clock: Memo<MoveClock>, now: RwSignal<f64>) {
        let game = self.game;
        if let Some(BoardCover(covered)) = use_context::<BoardCover>() {
            Effect::new(move |_| {
                let c = covered.get();
                game.update(|g| g.set_covered(c, now_ms()));
            });
        }
        on_cleanup(move || self.stop_thinking());
        if let Some(opp) = opponent {
            Effect::new(move |_| self.computer_turn(opp));
        }
        Effect::new(move |_| {
            if let Some(mv) = game.with(|g| g.forced_move()) {
                self.play(mv);
            }
        });
        Effect::new(move |_| {
            let t = now.get();
            if clock.with(|c| c.is_running() && c.left_at(t) == Some(0.0)) {
                self.time_up(t);
            }
        });
    }
}
