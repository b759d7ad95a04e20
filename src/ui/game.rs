//! A game screen, the same for every game: board, score chips, whose turn,
//! what to do, the move clock, pause, new game, the move list and the result.
//!
//! The engine state lives in one `RwSignal<Record<G>>`; everything on the
//! screen is derived from it and from the clock.

use leptos::prelude::*;

use super::board::BoardProps;
use super::clock::{now_ms, ticker, ClockView, MoveClock};
use super::games::{describe_outcome, UiGame};
use crate::games::{Record, Side};

/// Clock choices offered on the screen, in seconds per move (0 = no clock).
pub const CLOCK_CHOICES: [u32; 4] = [15, 30, 60, 0];
/// The default move time: 30 seconds.
pub const DEFAULT_CLOCK_SECS: u32 = 30;

fn limit_ms(secs: u32) -> Option<f64> {
    (secs > 0).then(|| f64::from(secs) * 1000.0)
}

/// The move list as rows of (number, first side's move, second side's move).
/// Consecutive moves of one side (Mill's removal) share a cell.
fn move_rows<G: UiGame>(record: &Record<G>) -> Vec<(usize, String, String)> {
    let mut pos = record.start().clone();
    let mut rows: Vec<(usize, String, String)> = Vec::new();
    let mut prev_side = None;
    for &mv in record.moves() {
        let side = pos.side_to_move();
        let text = mv.to_string();
        let continues = prev_side == Some(side);
        match (side, rows.last_mut()) {
            (_, Some(row)) if continues => {
                let cell = if side == Side::First {
                    &mut row.1
                } else {
                    &mut row.2
                };
                cell.push_str(&text);
            }
            (Side::Second, Some(row)) if row.2.is_empty() => row.2 = text,
            (Side::First, _) => rows.push((rows.len() + 1, text, String::new())),
            (Side::Second, _) => rows.push((rows.len() + 1, "…".to_string(), text)),
        }
        prev_side = Some(side);
        pos.play_unchecked(mv);
    }
    rows
}

/// A complete game for two people on one device.
#[component]
pub fn GameScreen<G: UiGame>(
    /// The game to start from (a new game, a shared link, or a test position).
    initial: Record<G>,
    /// Seconds per move (0 = no clock).
    #[prop(default = DEFAULT_CLOCK_SECS)]
    clock_secs: u32,
    /// Called after every change of the game (the app keeps the link in step).
    #[prop(optional)]
    on_change: Option<Callback<Record<G>>>,
) -> impl IntoView {
    let rules = StoredValue::new(initial.position().rules().clone());
    let record = RwSignal::new(initial);
    let clock_choice = RwSignal::new(clock_secs);
    let clock = RwSignal::new(MoveClock::new(limit_ms(clock_secs)));
    let paused = RwSignal::new(false);
    let notice = RwSignal::new(String::new());
    let over = Memo::new(move |_| record.with(|r| r.outcome()));
    let running = Signal::derive(move || clock.with(|c| c.is_running()));
    let now = ticker(running);

    if over.get_untracked().is_none() {
        clock.update(|c| c.start_turn(now_ms()));
    }
    if let Some(cb) = on_change {
        Effect::new(move |_| cb.run(record.get()));
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
                let mut line = G::describe_move(&before, mv);
                let t = now_ms();
                let finished = record
                    .with_untracked(|r| r.outcome().map(|o| describe_outcome(r.position(), o)));
                match finished {
                    Some(result) => {
                        clock.update(|c| c.stop(t));
                        line = format!("{line}. {result}");
                    }
                    // A removal after a mill belongs to the same turn: the clock runs on.
                    None if record.with_untracked(|r| r.position().side_to_move())
                        == before.side_to_move() => {}
                    None => clock.update(|c| c.start_turn(t)),
                }
                notice.set(line);
            }
            Err(e) => notice.set(e.to_string()),
        }
    };
    let on_move = Callback::new(play);

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
            let result = record.with_untracked(|r| {
                r.outcome()
                    .map(|o| describe_outcome(r.position(), o))
                    .unwrap_or_default()
            });
            notice.set(format!("{} ran out of time. {result}", G::side_name(loser)));
        }
    });

    let toggle_pause = move |_| {
        if over.get_untracked().is_some() {
            return;
        }
        let t = now_ms();
        if paused.get_untracked() {
            paused.set(false);
            clock.update(|c| c.resume(t));
            notice.set("Game resumed.".to_string());
        } else {
            paused.set(true);
            clock.update(|c| c.stop(t));
            notice.set("Game paused: the clock is stopped.".to_string());
        }
    };
    let new_game = move |_| {
        record.set(Record::new(rules.with_value(|r| G::start(r))));
        paused.set(false);
        clock.set(MoveClock::new(limit_ms(clock_choice.get_untracked())));
        clock.update(|c| c.start_turn(now_ms()));
        notice.set(format!("New game: {} to move.", G::side_name(Side::First)));
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

    let enabled = Signal::derive(move || !paused.get() && over.get().is_none());
    let to_move = move || record.with(|r| r.position().side_to_move());
    let score_chip = move |side: Side| {
        let name = G::side_name(side);
        let cls = format!("chip {}", G::side_class(side));
        let turn = move || enabled.get() && to_move() == side;
        view! {
            <div class=cls class:to-move=turn data-testid=format!("score-{}", G::side_class(side))>
                <svg class="chip-piece" viewBox="0 0 20 20" aria-hidden="true"><circle cx="10" cy="10" r="8"/></svg>
                <span class="chip-name">{name}</span>
                <span class="chip-count" title=G::score_label()>{move || record.with(|r| r.position().score(side))}</span>
                <span class="chip-turn">{move || if turn() { "to move" } else { "" }}</span>
                <span class="chip-label">
                    {move || record.with(|r| r.position().chip_detail(side)).unwrap_or_else(|| G::score_label().to_string())}
                </span>
            </div>
        }
    };
    let status = move || {
        if let Some(o) = over.get() {
            return record.with(|r| describe_outcome(r.position(), o));
        }
        if paused.get() {
            return "Paused".to_string();
        }
        record.with(|r| {
            r.position()
                .prompt()
                .unwrap_or_else(|| format!("{} to move", G::side_name(r.position().side_to_move())))
        })
    };
    let board = G::board(BoardProps {
        record,
        enabled,
        hints: Signal::derive(|| true),
        on_move,
    });

    view! {
        <section class=format!("game game-{}", G::KIND.slug()) aria-label=G::KIND.title()>
            <div class="board-wrap" class:paused=move || paused.get()>
                {board}
                <Show when=move || paused.get()>
                    <div class="overlay">
                        <p>"Paused"</p>
                        <button class="primary" on:click=toggle_pause>"Resume"</button>
                    </div>
                </Show>
                <Show when=move || over.get().is_some()>
                    <div class="overlay result" data-testid="result">
                        <p>{status}</p>
                        <button class="primary" on:click=new_game>"New game"</button>
                    </div>
                </Show>
            </div>
            <aside class="panel">
                <div class="scores">{score_chip(Side::First)}{score_chip(Side::Second)}</div>
                <p class="status" data-testid="status">{status}</p>
                <ClockView clock=clock now=now active=enabled/>
                <div class="controls">
                    <button on:click=new_game data-testid="new-game">"New game"</button>
                    <button on:click=toggle_pause data-testid="pause" disabled=move || over.get().is_some()>
                        {move || if paused.get() { "Resume" } else { "Pause" }}
                    </button>
                    <label class="clock-choice">
                        "Clock "
                        <select on:change=change_clock aria-label="seconds per move">
                            {CLOCK_CHOICES
                                .iter()
                                .map(|&s| {
                                    let label = if s == 0 { "off".to_string() } else { format!("{s} s") };
                                    view! { <option value=s.to_string() selected=move || clock_choice.get() == s>{label}</option> }
                                })
                                .collect_view()}
                        </select>
                    </label>
                </div>
                <p class="notice" aria-live="polite" data-testid="notice">{move || notice.get()}</p>
                <ol class="movelist" aria-label="moves">
                    {move || {
                        let rows = record.with(move_rows);
                        let n = rows.len();
                        let second_last = record.with(|r| {
                            !r.moves().is_empty() && r.position_at(r.moves().len() - 1).side_to_move() == Side::Second
                        });
                        rows.into_iter()
                            .map(|(number, first, second)| {
                                let last_row = number == n;
                                view! {
                                    <li value=number.to_string()>
                                        <span class="mv" class:current=last_row && !second_last>{first}</span>
                                        <span class="mv" class:current=last_row && second_last>{second}</span>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ol>
            </aside>
        </section>
    }
}
