//! A game screen, the same for every game: board, score chips, whose turn,
//! what to do, the move clock, pause, new game, the move list and the result.
//!
//! What happens (moves, undo/redo, the clock rules, forced moves, timeouts,
//! resume) is decided by [`LocalGame`], held in one signal; this component
//! passes it the time, talks to the computer and draws it.

use gloo_timers::callback::Timeout;
use leptos::prelude::*;

use super::ai::Ai;
use super::board::BoardProps;
use super::clock::{now_ms, ticker, ClockView};
use super::games::{describe_outcome, UiGame};
use super::review::Review;
use super::sound::{self, Sound};
use super::store::Settings;
use super::words::game_title;
use super::words::{use_lang, Problem, Text};
use super::{notation, share};
use crate::ai::Level;
pub use crate::client::local::Snapshot;
use crate::client::local::{LocalGame, Played, Refused, Step};
use crate::client::score::format_score;
use crate::games::{Outcome, Record, Side};
use crate::i18n::Lang;
use crate::protocol::{Request, Response};
use crate::{t, tn};

/// A saved game coming back: the time that was left and how it ended, if
/// it did (a timeout or a resignation is not in the link).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Resume {
    pub left_ms: Option<f64>,
    pub outcome: Option<Outcome>,
}

/// Whether a dialog or panel is over the board (settings, new game): a
/// local game's clock stops meanwhile. Provided by the app.
#[derive(Clone, Copy)]
pub struct BoardCover(pub Signal<bool>);

/// The computer's seat in a single-player game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opponent {
    /// The side the computer plays.
    pub side: Side,
    pub level: Level,
}

/// A random 32-bit seed from the browser's crypto source.
fn random_seed() -> u32 {
    let mut bytes = [0u8; 4];
    let _ = getrandom::fill(&mut bytes);
    u32::from_le_bytes(bytes)
}

/// The computer's move lands no sooner than this many milliseconds after it
/// was asked (right after the move before it), so that move finishes
/// travelling on the board first (board/motion.rs; the glide takes 260 ms).
const REPLY_AFTER_MS: f64 = 300.0;

/// A `Think` request for the current position of `record`.
fn think_request<G: UiGame>(
    record: &Record<G>,
    id: u32,
    level: Level,
    movetime_ms: Option<u64>,
) -> Request {
    Request::Think {
        id,
        game: G::spec(record.position().rules()),
        start: record.start().to_text(),
        moves: record.moves().iter().map(ToString::to_string).collect(),
        level: level.slug().to_string(),
        movetime_ms,
        seed: random_seed(),
    }
}

/// Clock choices offered on the screen, in seconds per move (0 = no clock).
pub const CLOCK_CHOICES: [u32; 4] = [15, 30, 60, 0];
/// The default move time: 30 seconds.
pub const DEFAULT_CLOCK_SECS: u32 = 30;

/// A clock select's options: the choices, and first the clock in use when
/// it is not one of them (a length stored by an older version or by hand;
/// the end-to-end tests use 2 and 4 s), so the select always shows the
/// clock that runs instead of the first choice.
pub fn clock_options(
    lang: Signal<Lang>,
    current: impl Fn() -> u32 + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let other = move || {
        let c = current();
        (!CLOCK_CHOICES.contains(&c)).then(|| {
            view! { <option value=c.to_string() selected=true>{move || clock_choice_label(lang.get(), c)}</option> }
        })
    };
    view! {
        {other}
        {CLOCK_CHOICES
            .iter()
            .map(|&s| {
                view! { <option value=s.to_string() selected=move || current() == s>{move || clock_choice_label(lang.get(), s)}</option> }
            })
            .collect_view()}
    }
}

/// A clock choice as the menus show it: "30 s" or "off".
pub fn clock_choice_label(lang: Lang, secs: u32) -> String {
    if secs == 0 {
        t!(lang, "clock.off").to_string()
    } else {
        t!(lang, "clock.seconds", n = secs)
    }
}

/// A small stroked and filled icon for a button, from an SVG path.
fn icon(path: &'static str) -> impl IntoView {
    view! {
        <svg class="icon" viewBox="0 0 20 20" aria-hidden="true" width="20" height="20">
            <path d=path/>
        </svg>
    }
}

/// One cell of the move list: the move's text (a Mill move and its removal
/// share a cell) and how many moves have been played after it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Cell {
    pub text: String,
    pub ply: usize,
}

/// The move list as rows of (number, first side's cell, second side's cell).
pub(crate) fn move_rows<G: UiGame>(record: &Record<G>) -> Vec<(usize, Option<Cell>, Option<Cell>)> {
    let mut pos = record.start().clone();
    let mut rows: Vec<(usize, Option<Cell>, Option<Cell>)> = Vec::new();
    let mut prev_side = None;
    for (i, &mv) in record.moves().iter().enumerate() {
        let side = pos.side_to_move();
        let text = mv.to_string();
        let ply = i + 1;
        let continues = prev_side == Some(side);
        let new_cell = || {
            Some(Cell {
                text: text.clone(),
                ply,
            })
        };
        match (side, rows.last_mut()) {
            (_, Some(row)) if continues => {
                let cell = if side == Side::First {
                    &mut row.1
                } else {
                    &mut row.2
                };
                if let Some(c) = cell {
                    c.text.push_str(&text);
                    c.ply = ply;
                }
            }
            (Side::Second, Some(row)) if row.2.is_none() => row.2 = new_cell(),
            (Side::First, _) => rows.push((rows.len() + 1, new_cell(), None)),
            (Side::Second, _) => rows.push((rows.len() + 1, None, new_cell())),
        }
        prev_side = Some(side);
        pos.play_unchecked(mv);
    }
    rows
}

/// The side drawn at the bottom of the board: the first player's, your
/// side against the computer, turned round by the setting.
pub fn bottom_side(opponent: Option<Opponent>, turned: bool) -> Side {
    let own = opponent.map_or(Side::First, |o| o.side.opponent());
    if turned {
        own.opponent()
    } else {
        own
    }
}

/// A complete game: two people on one device, or one against the computer.
#[component]
pub fn GameScreen<G: UiGame>(
    /// The game to start from (a new game, a shared link, or a test position).
    initial: Record<G>,
    /// Seconds per move (0 = no clock).
    #[prop(default = DEFAULT_CLOCK_SECS)]
    clock_secs: u32,
    /// Resuming a saved game: it comes back paused with the time that was
    /// left, or finished as it ended.
    #[prop(default = None)]
    resume: Option<Resume>,
    /// Called after every change of the game, on pause and when the page is
    /// hidden (the app keeps the link and the saved game in step).
    #[prop(optional)]
    on_change: Option<Callback<Snapshot<G>>>,
    /// Called once when the game ends.
    #[prop(optional)]
    on_finish: Option<Callback<Outcome>>,
    /// The computer's side and level; `None` for two players on one device.
    #[prop(default = None)]
    opponent: Option<Opponent>,
    /// Opens the "New game" dialog (the app's); without it, New game and
    /// Rematch start the same game again at once.
    #[prop(optional)]
    on_new_game: Option<Callback<()>>,
) -> impl IntoView {
    let settings = use_context::<RwSignal<Settings>>();
    let setting =
        move |f: fn(&Settings) -> bool, default: bool| settings.map_or(default, |s| s.with(f));
    let ai = use_context::<Ai>();
    let cover = use_context::<BoardCover>();
    let lang = use_lang();
    let opponent = opponent.filter(|_| ai.is_some());
    let thinking = RwSignal::new(false);
    // The computer's search so far: depth, score, nodes per second.
    let engine_line = RwSignal::new(None::<(u32, i32, u64)>);
    // The ply the computer was last asked to move at, so one turn is asked once.
    let asked_at = StoredValue::new(None::<usize>);
    // When it was asked, and its answer while it waits for the move before
    // it to finish travelling on the board (see `REPLY_AFTER_MS`).
    let asked_ms = StoredValue::new(0.0);
    let waiting = StoredValue::new_local(None::<Timeout>);
    let rules = StoredValue::new(initial.position().rules().clone());
    let computer = opponent.map(|o| o.side);
    let notice = RwSignal::new(None::<Text>);
    let say = move |word: fn(Lang) -> &'static str| {
        notice.set(Some(Text::new(move |l| word(l).to_string())))
    };
    let game = RwSignal::new(match resume {
        Some(r) => {
            let g = LocalGame::resumed(initial, clock_secs, computer, r.left_ms, r.outcome);
            if g.is_paused() {
                say(|l| t!(l, "notice.welcome_back"));
            }
            g
        }
        None => LocalGame::new(initial, clock_secs, computer, now_ms()),
    });
    let record = Memo::new(move |_| game.with(|g| g.record().clone()));
    let over = Memo::new(move |_| game.with(|g| g.outcome()));
    let paused = Memo::new(move |_| game.with(|g| g.is_paused()));
    let clock = Memo::new(move |_| game.with(|g| *g.clock()));
    let running = Signal::derive(move || clock.with(|c| c.is_running()));
    let now = ticker(running);

    // A dialog or panel over the board stops the clock while it is open.
    if let Some(BoardCover(covered)) = cover {
        Effect::new(move |_| {
            let c = covered.get();
            game.update(|g| g.set_covered(c, now_ms()));
        });
    }

    if let Some(cb) = on_change {
        let snapshot = move || game.with_untracked(|g| g.snapshot(now_ms()));
        Effect::new(move |_| {
            record.track();
            paused.track();
            cb.run(snapshot());
        });
        let hidden = window_event_listener(leptos::ev::pagehide, move |_| cb.run(snapshot()));
        let visibility =
            window_event_listener(leptos::ev::visibilitychange, move |_| cb.run(snapshot()));
        on_cleanup(move || {
            hidden.remove();
            visibility.remove();
        });
    }
    if let Some(cb) = on_finish {
        Effect::new(move |prev: Option<bool>| {
            let done = over.get().is_some();
            if done && prev == Some(false) {
                if let Some(o) = over.get_untracked() {
                    cb.run(o);
                }
            }
            done
        });
    }

    let play = move |mv: G::Move| {
        let before = record.with_untracked(|r| r.position().clone());
        let mut result = Err(Refused::Over);
        game.update(|g| result = g.play(mv, now_ms()));
        match result {
            Ok(played) => {
                if setting(|s| s.sounds, false) {
                    sound::play(if matches!(played, Played::Ended(_)) {
                        Sound::End
                    } else {
                        G::sound_of(&before, mv)
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
                notice.set(Some(line));
            }
            Err(Refused::Illegal(error)) => {
                let problem = Problem::Move {
                    number: record.with_untracked(|r| r.moves().len()) + 1,
                    text: mv.to_string(),
                    error,
                };
                notice.set(Some(Text::new(move |l| problem.describe(l))));
            }
            Err(Refused::Paused | Refused::Over) => {}
        }
    };
    let on_move = Callback::new(play);

    let stop_thinking = move || {
        if let Some(ai) = ai {
            ai.cancel();
        }
        thinking.set(false);
        asked_at.set_value(None);
        waiting.set_value(None);
    };
    on_cleanup(stop_thinking);

    // The computer's turn: ask the worker, play its answer if still wanted.
    Effect::new(move |_| {
        let (Some(opp), Some(ai)) = (opponent, ai) else {
            return;
        };
        let (wanted, ply) = game.with(|g| (g.computer_to_move(), g.record().moves().len()));
        if !wanted || asked_at.get_value() == Some(ply) {
            return;
        }
        asked_at.set_value(Some(ply));
        asked_ms.set_value(now_ms());
        thinking.set(true);
        engine_line.set(None);
        let request = record.with_untracked(|r| think_request(r, ai.next_id(), opp.level, None));
        ai.send(request, move |answer| match answer {
            Response::Info {
                depth, score, nps, ..
            } => engine_line.set(Some((depth, score, nps))),
            Response::Best { mv, .. } => {
                let answer = move || {
                    thinking.set(false);
                    let still_wanted = game.with_untracked(|g| {
                        g.record().moves().len() == ply && g.computer_to_move()
                    });
                    let mv_text = mv.clone();
                    let parsed =
                        mv.map(|text| record.with_untracked(|r| r.position().parse_move(&text)));
                    match parsed {
                        Some(Ok(mv)) if still_wanted => play(mv),
                        Some(Err(error)) => {
                            let number = record.with_untracked(|r| r.moves().len()) + 1;
                            let text = mv_text.unwrap_or_default();
                            let problem = Problem::Move {
                                number,
                                text,
                                error,
                            };
                            notice.set(Some(Text::new(move |l| {
                                t!(l, "computer.bad_move", problem = problem.describe(l))
                            })));
                        }
                        _ => {}
                    }
                };
                let wait = asked_ms.get_value() + REPLY_AFTER_MS - now_ms();
                if wait > 0.0 {
                    waiting.set_value(Some(Timeout::new(wait as u32, answer)));
                } else {
                    answer();
                }
            }
            Response::Error { message, .. } => {
                thinking.set(false);
                notice.set(Some(Text::new(move |l| {
                    t!(l, "computer.failed", detail = message)
                })));
            }
            Response::Ready | Response::Bench { .. } => {}
        });
    });

    // A hint: the move a strong search prefers for the side to move, on
    // the notice line and drawn on the board until the position changes.
    let hint = RwSignal::new(None::<G::Move>);
    // The review's better move and the ply of the position it is for.
    let review_mark = RwSignal::new(None::<(usize, G::Move)>);
    Effect::new(move |_| {
        record.track();
        hint.set(None);
        review_mark.set(None);
    });
    let ask_hint = move |_| {
        let Some(ai) = ai else { return };
        let ply = record.with_untracked(|r| r.moves().len());
        hint.set(None);
        say(|l| t!(l, "hint.looking"));
        let request =
            record.with_untracked(|r| think_request(r, ai.next_id(), Level::Strong, Some(1_000)));
        ai.send(request, move |answer| match answer {
            Response::Best {
                mv: Some(text),
                score,
                ..
            } if record.with_untracked(|r| r.moves().len()) == ply => {
                hint.set(record.with_untracked(|r| r.position().parse_move(&text).ok()));
                notice.set(Some(Text::new(
                    move |l| t!(l, "hint.found", move = text, score = format_score(l, score)),
                )));
            }
            Response::Error { message, .. } => notice.set(Some(Text::new(move |l| {
                t!(l, "hint.none", detail = message)
            }))),
            _ => {}
        });
    };

    // Undo and Redo: the rules are LocalGame's; after the end they review.
    let step_game = move |undo: bool| {
        let mut step = Step::Nothing;
        game.update(|g| {
            step = if undo {
                g.undo(now_ms())
            } else {
                g.redo(now_ms())
            }
        });
        match step {
            Step::Moves(_) => {
                stop_thinking();
                if undo {
                    say(|l| t!(l, "notice.undone"));
                } else {
                    say(|l| t!(l, "notice.redone"));
                }
            }
            Step::Review(ply) => {
                let total = record.with_untracked(|r| r.moves().len());
                notice.set(Some(Text::new(move |l| {
                    t!(l, "notice.review", n = ply, total = total)
                })));
            }
            Step::Nothing => {}
        }
    };
    let can_undo = move || game.with(|g| g.can_undo());
    let can_redo = move || game.with(|g| g.can_redo());

    // A forced move (Territory Duel's pass) is made at once, and the page says so.
    Effect::new(move |_| {
        if let Some(mv) = game.with(|g| g.forced_move()) {
            play(mv);
        }
    });

    // Time up: the side to move loses.
    Effect::new(move |_| {
        let t = now.get();
        let mut loser = None;
        if clock.with(|c| c.is_running() && c.left_at(t) == Some(0.0)) {
            game.update(|g| loser = g.tick(t));
        }
        if let Some(loser) = loser {
            stop_thinking();
            if let Some((pos, outcome)) =
                record.with_untracked(|r| r.outcome().map(|o| (r.position().clone(), o)))
            {
                notice.set(Some(Text::new(move |l| {
                    t!(
                        l,
                        "notice.timeout",
                        side = G::side_name(l, loser),
                        result = describe_outcome(l, &pos, outcome)
                    )
                })));
            }
        }
    });

    let toggle_pause = move |_| {
        if over.get_untracked().is_some() {
            return;
        }
        stop_thinking();
        let pause = !paused.get_untracked();
        game.update(|g| {
            g.set_paused(pause, now_ms());
        });
        if pause {
            say(|l| t!(l, "notice.paused"));
        } else {
            say(|l| t!(l, "notice.resumed"));
        }
    };
    // The same game again, at once (Rematch, and New game without the dialog).
    let restart = move || {
        stop_thinking();
        game.update(|g| g.new_game(rules.with_value(|r| G::start(r)), now_ms()));
        notice.set(Some(Text::new(|l| {
            t!(l, "notice.new_game", side = G::side_name(l, Side::First))
        })));
    };
    let new_game = move |_| match on_new_game {
        Some(cb) => cb.run(()),
        None => restart(),
    };
    let rematch = move |_| restart();
    let change_clock = move |ev: leptos::ev::Event| {
        let secs: u32 = event_target_value(&ev)
            .parse()
            .unwrap_or(DEFAULT_CLOCK_SECS);
        game.update(|g| g.set_clock_secs(secs));
        say(|l| t!(l, "notice.clock_next_move"));
    };
    let clock_choice = move || game.with(|g| g.clock_secs());

    let enabled = Signal::derive(move || game.with(|g| g.board_enabled()));
    let clock_active = Signal::derive(move || !paused.get() && over.get().is_none());
    let to_move = move || record.with(|r| r.position().side_to_move());
    // Your side at the bottom against the computer; the setting turns it round.
    let bottom = Memo::new(move |_| bottom_side(opponent, setting(|s| s.flip_board, false)));
    let score_chip = move |side: Side| {
        let name = move || G::side_name(lang.get(), side);
        let cls = format!("chip {}", G::side_class(side));
        let turn = move || clock_active.get() && to_move() == side;
        let seat = move || match opponent {
            Some(o) if o.side == side => format!("{} · ", t!(lang.get(), "chip.computer")),
            Some(_) => format!("{} · ", t!(lang.get(), "chip.you")),
            None => String::new(),
        };
        view! {
            <div class=cls class:to-move=turn class:chip-bottom=move || bottom.get() == side
                class:chip-top=move || bottom.get() != side data-testid=format!("score-{}", G::side_class(side))>
                <svg class="chip-piece" viewBox="0 0 20 20" aria-hidden="true"><circle cx="10" cy="10" r="8"/></svg>
                <span class="chip-name">{name}</span>
                <span class="chip-count" title=move || G::score_label(lang.get())>{move || record.with(|r| r.position().score(side))}</span>
                <span class="chip-turn">{move || if turn() { t!(lang.get(), "chip.to_move") } else { "" }}</span>
                <span class="chip-label">
                    {seat}
                    {move || {
                        let lang = lang.get();
                        record
                            .with(|r| r.position().chip_detail(lang, side))
                            .unwrap_or_else(|| G::score_label(lang).to_string())
                    }}
                </span>
            </div>
        }
    };
    let status = move || {
        let lang = lang.get();
        if let Some(o) = over.get() {
            return record.with(|r| describe_outcome(lang, r.position(), o));
        }
        if paused.get() {
            return t!(lang, "status.paused").to_string();
        }
        record.with(|r| {
            r.position().prompt(lang).unwrap_or_else(|| {
                t!(
                    lang,
                    "status.to_move",
                    side = G::side_name(lang, r.position().side_to_move())
                )
            })
        })
    };
    // The board shows the live game, or a earlier position from the move list.
    let viewing = Memo::new(move |_| game.with(|g| g.viewing()));
    let shown = Signal::derive(move || match viewing.get() {
        Some(_) => game.with(|g| g.shown()),
        None => record.get(),
    });
    let live = Signal::derive(move || viewing.get().is_none());
    let hints = Signal::derive(move || setting(|s| s.hints, true));
    // A press on a piece that cannot move says why on the notice line.
    let on_stuck = Callback::new(move |spot: u8| {
        let pos = shown.with_untracked(|r| r.position().clone());
        notice.set(Some(Text::new(move |l| pos.why_stuck(l, spot).to_string())));
    });
    // The hint is drawn on the live position, the review's better move on
    // the position it was found for.
    let marked = Signal::derive(move || {
        let mv = match viewing.get() {
            None => hint.get(),
            Some(ply) => review_mark
                .get()
                .filter(|&(at, _)| at == ply)
                .map(|(_, mv)| mv),
        };
        mv.map(G::mark)
    });
    let board = move || {
        G::board(BoardProps {
            record: shown,
            enabled,
            hints,
            on_move,
            flipped: bottom.get() == Side::Second,
            on_stuck,
            marked,
            read_only: None,
        })
    };
    let total = move || record.with(|r| r.moves().len());
    let step = move |to: Option<usize>| game.update(|g| g.view(to));
    let shown_ply = move || game.with(|g| g.shown_ply());
    // The game-over card can be closed to see the final position.
    let card_closed = RwSignal::new(false);
    Effect::new(move |_| {
        if over.get().is_none() {
            card_closed.set(false);
        }
    });

    let share = move |_| {
        share::copy_location(notice);
    };
    let text_ref = NodeRef::<leptos::html::Textarea>::new();
    let import = move |_| {
        let Some(area) = text_ref.get_untracked() else {
            return;
        };
        match rules.with_value(|r| notation::import::<G>(&area.value(), r)) {
            Ok(imported) => {
                stop_thinking();
                let n = imported.moves().len();
                game.update(|g| g.import(imported, now_ms()));
                notice.set(Some(Text::new(move |l| tn!(l, "notice.imported", n))));
            }
            Err(problem) => notice.set(Some(Text::new(move |l| {
                t!(l, "notice.import_failed", problem = problem.describe(l))
            }))),
        }
    };

    view! {
        <section class=format!("game play-screen local-game game-{}", G::KIND.slug()) aria-label=move || game_title(lang.get(), G::KIND)>
            {score_chip(Side::First)}
            <div class="board-wrap" class:paused=move || paused.get() class:viewing=move || !live.get()>
                {board}
                <Show when=move || paused.get()>
                    <div class="overlay">
                        <p>{move || t!(lang.get(), "status.paused")}</p>
                        <button class="primary" on:click=toggle_pause>{move || t!(lang.get(), "game.resume")}</button>
                    </div>
                </Show>
                <Show when=move || over.get().is_some() && live.get() && !card_closed.get()>
                    <div class="overlay result" data-testid="result" role="dialog" aria-labelledby="result-text">
                        <button class="close" data-testid="close-result" aria-label=move || t!(lang.get(), "game.close_result")
                            on:click=move |_| card_closed.set(true)>"✕"</button>
                        <p id="result-text">{status}</p>
                        <button class="primary" on:click=rematch data-testid="rematch">{move || t!(lang.get(), "game.rematch")}</button>
                        <p class="overlay-hint">{move || t!(lang.get(), "game.overlay_hint")}</p>
                    </div>
                </Show>
            </div>
            {score_chip(Side::Second)}
            <div class="turn-line">
                <p class="status" data-testid="status">{status}</p>
                <ClockView clock=clock now=now active=clock_active over=Signal::derive(move || over.get().is_some())/>
            </div>
            <aside class="panel">
                <Show when=move || thinking.get()>
                    <p class="thinking" data-testid="thinking" role="status">
                        <span class="spinner" aria-hidden="true"></span>
                        {move || {
                            let lang = lang.get();
                            let line = engine_line.get().map(|(depth, score, nps)| {
                                t!(
                                    lang,
                                    "computer.line",
                                    depth = depth,
                                    score = format_score(lang, score),
                                    speed = format!("{:.0}", nps as f64 / 1000.0)
                                )
                            });
                            t!(lang, "computer.thinking", line = line.unwrap_or_default())
                        }}
                    </p>
                </Show>
                <div class="controls">
                    <button on:click=new_game data-testid="new-game">{move || t!(lang.get(), "game.new_game")}</button>
                    <button on:click=toggle_pause data-testid="pause" disabled=move || over.get().is_some()>
                        {move || if paused.get() { t!(lang.get(), "game.resume") } else { t!(lang.get(), "game.pause") }}
                    </button>
                    <button on:click=move |_| step_game(true) data-testid="undo" disabled=move || !can_undo()>{move || t!(lang.get(), "game.undo")}</button>
                    <button on:click=move |_| step_game(false) data-testid="redo" disabled=move || !can_redo()>{move || t!(lang.get(), "game.redo")}</button>
                    <button on:click=share data-testid="share">{move || t!(lang.get(), "game.share")}</button>
                    {ai.is_some().then(|| view! {
                        <button on:click=ask_hint data-testid="hint" disabled=move || !enabled.get()>{move || t!(lang.get(), "game.hint")}</button>
                    })}
                    <Show when=move || over.get().is_some() && card_closed.get()>
                        <button on:click=move |_| { step(None); card_closed.set(false) } data-testid="show-result">{move || t!(lang.get(), "game.show_result")}</button>
                    </Show>
                    <label class="clock-choice">
                        {move || t!(lang.get(), "game.clock")}" "
                        <select on:change=change_clock aria-label=move || t!(lang.get(), "game.clock_aria")>
                            {clock_options(lang, clock_choice)}
                        </select>
                    </label>
                </div>
                <p class="notice" aria-live="polite" data-testid="notice">{move || notice.get().map(|n| n.get(lang.get()))}</p>
                <div class="nav" role="group" aria-label=move || t!(lang.get(), "movenav.aria")>
                    <button aria-label=move || t!(lang.get(), "movenav.first") on:click=move |_| step(Some(0)) disabled=move || shown_ply() == 0>{icon("M5 4v12M15 4l-8 6 8 6z")}</button>
                    <button aria-label=move || t!(lang.get(), "movenav.previous") data-testid="prev" on:click=move |_| step(Some(shown_ply().saturating_sub(1))) disabled=move || shown_ply() == 0>{icon("M14 4l-8 6 8 6z")}</button>
                    <button aria-label=move || t!(lang.get(), "movenav.next") data-testid="next" on:click=move |_| step(Some(shown_ply() + 1)) disabled=live>{icon("M6 4l8 6-8 6z")}</button>
                    <button aria-label=move || t!(lang.get(), "movenav.live") data-testid="live" on:click=move |_| step(None) disabled=live>{icon("M15 4v12M5 4l8 6-8 6z")}</button>
                    <span class="viewing-note" role="status">
                        {move || viewing.get().map(|p| t!(lang.get(), "movenav.viewing", n = p, total = total()))}
                    </span>
                </div>
                <MoveList<G> record=record shown_ply=Signal::derive(shown_ply) on_step=Callback::new(move |p| step(Some(p)))/>
                <Show when=move || over.get().is_some() && ai.is_some()>
                    <Review<G> record=record viewing=viewing on_view=Callback::new(step)
                        on_mark=Callback::new(move |m| review_mark.set(m))/>
                </Show>
                <details class="game-text">
                    <summary>{move || t!(lang.get(), "text.summary")}</summary>
                    <textarea node_ref=text_ref rows="5" aria-label=move || t!(lang.get(), "text.aria") data-testid="game-text"
                        prop:value=move || record.with(notation::export)></textarea>
                    <button on:click=import data-testid="import">{move || t!(lang.get(), "text.import")}</button>
                </details>
            </aside>
        </section>
    }
}

/// The move list; the current move is kept in view, a pass reads as a word.
#[component]
fn MoveList<G: UiGame>(
    #[prop(into)] record: Signal<Record<G>>,
    shown_ply: Signal<usize>,
    on_step: Callback<usize>,
) -> impl IntoView {
    let lang = use_lang();
    let list = NodeRef::<leptos::html::Ol>::new();
    // Keep the current move in view (inside the list only: the page stays put).
    Effect::new(move |_| {
        shown_ply.track();
        record.track();
        let Some(ol) = list.get() else { return };
        request_animation_frame(move || {
            let Ok(Some(cur)) = ol.query_selector(".mv.current") else {
                return;
            };
            let cur: &web_sys::HtmlElement = wasm_bindgen::JsCast::unchecked_ref(&cur);
            let (top, bottom) = (cur.offset_top(), cur.offset_top() + cur.offset_height());
            let (view_top, view_h) = (ol.scroll_top(), ol.client_height());
            if top < view_top {
                ol.set_scroll_top(top);
            } else if bottom > view_top + view_h {
                ol.set_scroll_top(bottom - view_h);
            }
        });
    });
    view! {
        <ol class="movelist" node_ref=list aria-label=move || t!(lang.get(), "movelist.aria")>
            {move || {
                let current = shown_ply.get();
                let lang = lang.get();
                let cell = move |c: Option<Cell>| {
                    c.map(|c| {
                        let ply = c.ply;
                        let text = if c.text == "0000" { t!(lang, "movelist.pass").to_string() } else { c.text };
                        let label = t!(lang, "movelist.show_after", move = text);
                        view! {
                            <button class="mv" class:current=ply == current
                                aria-label=label
                                on:click=move |_| on_step.run(ply)>{text}</button>
                        }
                    })
                };
                record
                    .with(move_rows)
                    .into_iter()
                    .map(|(number, first, second)| {
                        view! {
                            <li value=number.to_string()>
                                {cell(first).map(IntoAny::into_any).unwrap_or_else(|| view! { <span class="mv">"…"</span> }.into_any())}
                                {cell(second)}
                            </li>
                        }
                    })
                    .collect_view()
            }}
        </ol>
    }
}
