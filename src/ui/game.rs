//! A game screen, the same for every game: board, score chips, whose turn,
//! what to do, the move clock, pause, new game, the move list and the result.
//!
//! The engine state lives in one `RwSignal<Record<G>>`; everything on the
//! screen is derived from it and from the clock.

use leptos::prelude::*;

use super::ai::Ai;
use super::board::BoardProps;
use super::clock::{now_ms, ticker, ClockView, MoveClock};
use super::games::{describe_outcome, UiGame};
use super::review::Review;
use super::sound::{self, Sound};
use super::store::Settings;
use super::words::game_title;
use super::words::{use_lang, Problem, Text};
use super::{notation, share};
use crate::ai::{Level, MATE_BOUND};
use crate::games::{Outcome, Record, Side};
use crate::i18n::Lang;
use crate::protocol::{Request, Response};
use crate::{t, tn};

/// What the app keeps of a game in progress: the record and the time left
/// on the move clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot<G: UiGame> {
    pub record: Record<G>,
    pub clock_left_ms: Option<f64>,
}

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

/// "+0.35", "−1.20" or "wins in 3" from the side to move's view.
pub fn format_score(lang: Lang, score: i32) -> String {
    if score.abs() >= MATE_BOUND {
        let plies = crate::ai::MATE - score.abs();
        let moves = (plies + 1) / 2;
        return if score > 0 {
            tn!(lang, "score.wins_in", moves)
        } else {
            tn!(lang, "score.loses_in", moves)
        };
    }
    let sign = if score < 0 { "−" } else { "+" };
    format!("{sign}{:.2}", f64::from(score.abs()) / 100.0)
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

/// A clock choice as the menus show it: "30 s" or "off".
pub fn clock_choice_label(lang: Lang, secs: u32) -> String {
    if secs == 0 {
        t!(lang, "clock.off").to_string()
    } else {
        t!(lang, "clock.seconds", n = secs)
    }
}

fn limit_ms(secs: u32) -> Option<f64> {
    (secs > 0).then(|| f64::from(secs) * 1000.0)
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

/// A complete game: two people on one device, or one against the computer.
#[component]
pub fn GameScreen<G: UiGame>(
    /// The game to start from (a new game, a shared link, or a test position).
    initial: Record<G>,
    /// Seconds per move (0 = no clock).
    #[prop(default = DEFAULT_CLOCK_SECS)]
    clock_secs: u32,
    /// Resuming a saved game: it starts paused with this much time left.
    #[prop(default = None)]
    resume_left_ms: Option<f64>,
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
) -> impl IntoView {
    let settings = use_context::<RwSignal<Settings>>();
    let setting =
        move |f: fn(&Settings) -> bool, default: bool| settings.map_or(default, |s| s.with(f));
    let ai = use_context::<Ai>();
    let lang = use_lang();
    let opponent = opponent.filter(|_| ai.is_some());
    let thinking = RwSignal::new(false);
    // The computer's search so far: depth, score, nodes per second.
    let engine_line = RwSignal::new(None::<(u32, i32, u64)>);
    // The ply the computer was last asked to move at, so one turn is asked once.
    let asked_at = StoredValue::new(None::<usize>);
    let rules = StoredValue::new(initial.position().rules().clone());
    let record = RwSignal::new(initial);
    let clock_choice = RwSignal::new(clock_secs);
    let clock = RwSignal::new(MoveClock::new(limit_ms(clock_secs)));
    let paused = RwSignal::new(false);
    let notice = RwSignal::new(None::<Text>);
    let say = move |word: fn(Lang) -> &'static str| {
        notice.set(Some(Text::new(move |l| word(l).to_string())))
    };
    let over = Memo::new(move |_| record.with(|r| r.outcome()));
    let running = Signal::derive(move || clock.with(|c| c.is_running()));
    let now = ticker(running);
    // Moves taken back, most recent last, for Redo.
    let redo_stack = RwSignal::new(Vec::<G::Move>::new());
    // The ply being looked at in the move list (`None`: the live game).
    let viewing = RwSignal::new(None::<usize>);

    if over.get_untracked().is_none() {
        match resume_left_ms {
            Some(left) => {
                clock.update(|c| c.stopped_with(left));
                paused.set(true);
                say(|l| t!(l, "notice.welcome_back"));
            }
            None => clock.update(|c| c.start_turn(now_ms())),
        }
    }
    let snapshot = move || Snapshot {
        record: record.get_untracked(),
        clock_left_ms: clock.with_untracked(|c| c.left_at(now_ms())),
    };
    if let Some(cb) = on_change {
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
        if paused.get_untracked() || over.get_untracked().is_some() {
            return;
        }
        let before = record.with_untracked(|r| r.position().clone());
        let mut result = Ok(());
        record.update(|r| result = r.play(mv));
        match result {
            Ok(()) => {
                viewing.set(None);
                redo_stack.update(|stack| {
                    if stack.last() == Some(&mv) {
                        stack.pop();
                    } else {
                        stack.clear();
                    }
                });
                if setting(|s| s.sounds, false) {
                    let ended = record.with_untracked(|r| r.outcome().is_some());
                    sound::play(if ended {
                        Sound::End
                    } else {
                        G::sound_of(&before, mv)
                    });
                }
                let t = now_ms();
                let finished =
                    record.with_untracked(|r| r.outcome().map(|o| (r.position().clone(), o)));
                let line = match finished {
                    Some((after, outcome)) => {
                        clock.update(|c| c.stop(t));
                        Text::new(move |l| {
                            t!(
                                l,
                                "notice.move_and_result",
                                move = G::describe_move(l, &before, mv),
                                result = describe_outcome(l, &after, outcome)
                            )
                        })
                    }
                    // A removal after a mill belongs to the same turn: the clock runs on.
                    None if record.with_untracked(|r| r.position().side_to_move())
                        == before.side_to_move() =>
                    {
                        Text::new(move |l| G::describe_move(l, &before, mv))
                    }
                    None => {
                        clock.update(|c| c.start_turn(t));
                        Text::new(move |l| G::describe_move(l, &before, mv))
                    }
                };
                notice.set(Some(line));
            }
            Err(error) => {
                let problem = Problem::Move {
                    number: record.with_untracked(|r| r.moves().len()) + 1,
                    text: mv.to_string(),
                    error,
                };
                notice.set(Some(Text::new(move |l| problem.describe(l))));
            }
        }
    };
    let on_move = Callback::new(play);

    let stop_thinking = move || {
        if let Some(ai) = ai {
            ai.cancel();
        }
        thinking.set(false);
        asked_at.set_value(None);
    };
    on_cleanup(stop_thinking);

    // The computer's turn: ask the worker, play its answer if still wanted.
    Effect::new(move |_| {
        let (Some(opp), Some(ai)) = (opponent, ai) else {
            return;
        };
        let (to_move, ply, over) = record.with(|r| {
            (
                r.position().side_to_move(),
                r.moves().len(),
                r.outcome().is_some(),
            )
        });
        if over || paused.get() || to_move != opp.side || asked_at.get_value() == Some(ply) {
            return;
        }
        asked_at.set_value(Some(ply));
        thinking.set(true);
        engine_line.set(None);
        let request = record.with_untracked(|r| think_request(r, ai.next_id(), opp.level, None));
        ai.send(request, move |answer| match answer {
            Response::Info {
                depth, score, nps, ..
            } => engine_line.set(Some((depth, score, nps))),
            Response::Best { mv, .. } => {
                thinking.set(false);
                let still_wanted =
                    record.with_untracked(|r| r.moves().len() == ply) && !paused.get_untracked();
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

    // A hint: the move a strong search prefers for the side to move.
    let ask_hint = move |_| {
        let Some(ai) = ai else { return };
        let ply = record.with_untracked(|r| r.moves().len());
        say(|l| t!(l, "hint.looking"));
        let request =
            record.with_untracked(|r| think_request(r, ai.next_id(), Level::Strong, Some(1_000)));
        ai.send(request, move |answer| match answer {
            Response::Best {
                mv: Some(text),
                score,
                ..
            } if record.with_untracked(|r| r.moves().len()) == ply => {
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

    // Undo: one move with two players; against the computer, back to your
    // last turn (your move and the computer's reply).
    let restart_clock = move || {
        let t = now_ms();
        clock.update(|c| {
            c.start_turn(t);
            if paused.get_untracked() || over.get_untracked().is_some() {
                c.stop(t);
            }
        });
    };
    let undo = move |_| {
        stop_thinking();
        viewing.set(None);
        let human = opponent.map(|o| o.side.opponent());
        let mut taken = Vec::new();
        record.update(|r| {
            let mut took_own = false;
            while let Some(ply) = r.moves().len().checked_sub(1) {
                let mover = r.position_at(ply).side_to_move();
                taken.push(r.moves()[ply]);
                r.undo(1);
                took_own |= human.is_none_or(|h| mover == h);
                if took_own && human.is_none_or(|h| r.position().side_to_move() == h) {
                    break;
                }
            }
        });
        redo_stack.update(|stack| stack.extend(taken));
        restart_clock();
        say(|l| t!(l, "notice.undone"));
    };
    // Redo replays what Undo took back (your move and, against the
    // computer, its reply).
    let redo = move |_| {
        stop_thinking();
        viewing.set(None);
        let human = opponent.map(|o| o.side.opponent());
        let mut replayed = 0;
        while let Some(mv) = redo_stack.with_untracked(|s| s.last().copied()) {
            let ok = record.try_update(|r| r.play(mv).is_ok()).unwrap_or(false);
            redo_stack.update(|s| {
                s.pop();
            });
            if !ok {
                redo_stack.set(Vec::new());
                break;
            }
            replayed += 1;
            let back_to_human =
                human.is_none_or(|h| record.with_untracked(|r| r.position().side_to_move()) == h);
            if back_to_human {
                break;
            }
        }
        if replayed > 0 {
            restart_clock();
            say(|l| t!(l, "notice.redone"));
        }
    };
    let can_undo = move || {
        record.with(|r| match opponent {
            None => !r.moves().is_empty(),
            Some(o) => {
                let mut pos = r.start().clone();
                r.moves().iter().any(|&mv| {
                    let mine = pos.side_to_move() != o.side;
                    pos.play_unchecked(mv);
                    mine
                })
            }
        })
    };

    // A forced move (Territory Duel's pass) is made at once, and the page says so.
    Effect::new(move |_| {
        let forced = record.with(|r| r.position().forced_move());
        if let Some(mv) = forced {
            if !paused.get() {
                play(mv);
            }
        }
    });

    // Time up: the side to move loses.
    Effect::new(move |_| {
        let t = now.get();
        let out_of_time = clock.with(|c| c.is_running() && c.left_at(t) == Some(0.0));
        if out_of_time {
            clock.update(|c| c.stop(t));
            let loser = record.with_untracked(|r| r.position().side_to_move());
            record.update(|r| r.timeout());
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
        let t = now_ms();
        stop_thinking();
        if paused.get_untracked() {
            paused.set(false);
            clock.update(|c| c.resume(t));
            say(|l| t!(l, "notice.resumed"));
        } else {
            paused.set(true);
            clock.update(|c| c.stop(t));
            say(|l| t!(l, "notice.paused"));
        }
    };
    let new_game = move |_| {
        stop_thinking();
        viewing.set(None);
        redo_stack.set(Vec::new());
        record.set(Record::new(rules.with_value(|r| G::start(r))));
        paused.set(false);
        clock.set(MoveClock::new(limit_ms(clock_choice.get_untracked())));
        clock.update(|c| c.start_turn(now_ms()));
        notice.set(Some(Text::new(|l| {
            t!(l, "notice.new_game", side = G::side_name(l, Side::First))
        })));
    };
    let change_clock = move |ev: leptos::ev::Event| {
        let secs: u32 = event_target_value(&ev)
            .parse()
            .unwrap_or(DEFAULT_CLOCK_SECS);
        clock_choice.set(secs);
        clock.set(MoveClock::new(limit_ms(secs)));
        if over.get_untracked().is_none() {
            let t = now_ms();
            clock.update(|c| {
                c.start_turn(t);
                if paused.get_untracked() {
                    c.stop(t);
                }
            });
        }
    };

    let enabled = Signal::derive(move || {
        !paused.get()
            && over.get().is_none()
            && opponent.is_none_or(|o| record.with(|r| r.position().side_to_move()) != o.side)
    });
    let clock_active = Signal::derive(move || !paused.get() && over.get().is_none());
    let to_move = move || record.with(|r| r.position().side_to_move());
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
            <div class=cls class:to-move=turn data-testid=format!("score-{}", G::side_class(side))>
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
    let shown = Signal::derive(move || match viewing.get() {
        Some(ply) => record.with(|r| r.truncated(ply)),
        None => record.get(),
    });
    let live = Signal::derive(move || viewing.get().is_none());
    let board_enabled = Signal::derive(move || enabled.get() && live.get());
    let hints = Signal::derive(move || setting(|s| s.hints, true));
    let board = move || {
        G::board(BoardProps {
            record: shown,
            enabled: board_enabled,
            hints,
            on_move,
            flipped: setting(|s| s.flip_board, false),
        })
    };
    let total = move || record.with(|r| r.moves().len());
    let step = move |to: Option<usize>| {
        let n = total();
        viewing.set(to.filter(|&p| p < n));
    };
    let shown_ply = move || viewing.get().unwrap_or_else(total);

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
                viewing.set(None);
                redo_stack.set(Vec::new());
                let n = imported.moves().len();
                record.set(imported);
                restart_clock();
                notice.set(Some(Text::new(move |l| tn!(l, "notice.imported", n))));
            }
            Err(problem) => notice.set(Some(Text::new(move |l| {
                t!(l, "notice.import_failed", problem = problem.describe(l))
            }))),
        }
    };

    view! {
        <section class=format!("game game-{}", G::KIND.slug()) aria-label=move || game_title(lang.get(), G::KIND)>
            <div class="board-wrap" class:paused=move || paused.get() class:viewing=move || !live.get()>
                {board}
                <Show when=move || paused.get()>
                    <div class="overlay">
                        <p>{move || t!(lang.get(), "status.paused")}</p>
                        <button class="primary" on:click=toggle_pause>{move || t!(lang.get(), "game.resume")}</button>
                    </div>
                </Show>
                <Show when=move || over.get().is_some() && live.get()>
                    <div class="overlay result" data-testid="result">
                        <p>{status}</p>
                        <button class="primary" on:click=new_game data-testid="rematch">{move || t!(lang.get(), "game.rematch")}</button>
                        <p class="overlay-hint">{move || t!(lang.get(), "game.overlay_hint")}</p>
                    </div>
                </Show>
            </div>
            <aside class="panel">
                <div class="scores">{score_chip(Side::First)}{score_chip(Side::Second)}</div>
                <p class="status" data-testid="status">{status}</p>
                <ClockView clock=clock now=now active=clock_active/>
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
                    <button on:click=undo data-testid="undo" disabled=move || !can_undo()>{move || t!(lang.get(), "game.undo")}</button>
                    <button on:click=redo data-testid="redo" disabled=move || redo_stack.with(|s| s.is_empty())>{move || t!(lang.get(), "game.redo")}</button>
                    <button on:click=share data-testid="share">{move || t!(lang.get(), "game.share")}</button>
                    {ai.is_some().then(|| view! {
                        <button on:click=ask_hint data-testid="hint" disabled=move || !enabled.get()>{move || t!(lang.get(), "game.hint")}</button>
                    })}
                    <label class="clock-choice">
                        {move || t!(lang.get(), "game.clock")}" "
                        <select on:change=change_clock aria-label=move || t!(lang.get(), "game.clock_aria")>
                            {CLOCK_CHOICES
                                .iter()
                                .map(|&s| {
                                    view! { <option value=s.to_string() selected=move || clock_choice.get() == s>{move || clock_choice_label(lang.get(), s)}</option> }
                                })
                                .collect_view()}
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
                <ol class="movelist" aria-label=move || t!(lang.get(), "movelist.aria")>
                    {move || {
                        let current = shown_ply();
                        let lang = lang.get();
                        let cell = move |c: Option<Cell>| {
                            c.map(|c| {
                                let ply = c.ply;
                                let label = t!(lang, "movelist.show_after", move = c.text);
                                view! {
                                    <button class="mv" class:current=ply == current
                                        aria-label=label
                                        on:click=move |_| step(Some(ply))>{c.text}</button>
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
                <Show when=move || over.get().is_some() && ai.is_some()>
                    <Review<G> record=record viewing=viewing/>
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
