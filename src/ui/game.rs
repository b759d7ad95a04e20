//! A Territory Duel game screen: board, scores, whose turn, the move clock,
//! pause, new game, move list and the result.
//!
//! The engine state lives in one `RwSignal<Record<Ataxx>>`; everything on
//! the screen is derived from it and from the clock.

use leptos::prelude::*;

use super::board::ataxx::{side_name, AtaxxBoard};
use super::clock::{now_ms, ticker, ClockView, MoveClock};
use crate::games::ataxx::{square_name, Ataxx, AtaxxMove, AtaxxRules, Square};
use crate::games::{Game, Outcome, Record, Side};

/// Clock choices offered on the screen, in seconds per move (0 = no clock).
pub const CLOCK_CHOICES: [u32; 4] = [15, 30, 60, 0];
/// The default move time: 30 seconds.
pub const DEFAULT_CLOCK_SECS: u32 = 30;

fn limit_ms(secs: u32) -> Option<f64> {
    (secs > 0).then(|| f64::from(secs) * 1000.0)
}

/// One line describing a move for the move list and screen readers.
pub fn describe_move(before: &Ataxx, mv: AtaxxMove) -> String {
    let who = side_name(before.side_to_move());
    let flips = before.flips(mv).count_ones();
    let flipped = match flips {
        0 => String::new(),
        1 => ", flips 1 piece".to_string(),
        n => format!(", flips {n} pieces"),
    };
    match mv {
        AtaxxMove::Pass => format!("{who} has no legal move and passes"),
        AtaxxMove::Clone { to } => format!("{who} clones to {}{flipped}", square_name(to)),
        AtaxxMove::Jump { from, to } => format!(
            "{who} jumps from {} to {}{flipped}",
            square_name(from),
            square_name(to)
        ),
    }
}

/// The result line: who won, why, and the final count.
pub fn describe_outcome(pos: &Ataxx, outcome: Outcome) -> String {
    let score = format!("{}–{}", pos.count(Side::First), pos.count(Side::Second));
    let why = outcome.reason.describe();
    match outcome.winner {
        Some(side) => format!("{} wins: {why} ({score}).", side_name(side)),
        None => format!("Draw: {why} ({score})."),
    }
}

/// A complete Territory Duel game for two people on one device.
#[component]
pub fn AtaxxGame(
    /// The game to start from (a new game, or a position for tests).
    initial: Record<Ataxx>,
    /// Seconds per move (0 = no clock).
    #[prop(default = DEFAULT_CLOCK_SECS)]
    clock_secs: u32,
) -> impl IntoView {
    let rules = *initial.position().rules();
    let record = RwSignal::new(initial);
    let clock_choice = RwSignal::new(clock_secs);
    let clock = RwSignal::new(MoveClock::new(limit_ms(clock_secs)));
    let paused = RwSignal::new(false);
    let selected = RwSignal::new(None::<Square>);
    let notice = RwSignal::new(String::new());
    let over = Memo::new(move |_| record.with(|r| r.outcome()));
    let running = Signal::derive(move || clock.with(|c| c.is_running()));
    let now = ticker(running);

    if over.get_untracked().is_none() {
        clock.update(|c| c.start_turn(now_ms()));
    }

    let play = move |mv: AtaxxMove| {
        if paused.get_untracked() || over.get_untracked().is_some() {
            return;
        }
        let before = record.with_untracked(|r| *r.position());
        let mut result = Ok(());
        record.update(|r| result = r.play(mv));
        match result {
            Ok(()) => {
                selected.set(None);
                let mut line = describe_move(&before, mv);
                let t = now_ms();
                match record.with_untracked(|r| r.outcome().map(|o| (o, *r.position()))) {
                    Some((o, pos)) => {
                        clock.update(|c| c.stop(t));
                        line = format!("{line}. {}", describe_outcome(&pos, o));
                    }
                    None => clock.update(|c| c.start_turn(t)),
                }
                notice.set(line);
            }
            Err(e) => notice.set(e.to_string()),
        }
    };
    let on_move = Callback::new(play);

    // A player with no legal move passes at once (pass mode), and the page says so.
    Effect::new(move |_| {
        let must_pass = record
            .with(|r| r.outcome().is_none() && r.position().legal_moves() == [AtaxxMove::Pass]);
        if must_pass && !paused.get() {
            play(AtaxxMove::Pass);
        }
    });

    // Time up: the side to move loses.
    Effect::new(move |_| {
        let t = now.get();
        let out_of_time = clock.with(|c| c.is_running() && c.left_at(t) == Some(0.0));
        if out_of_time {
            clock.update(|c| c.stop(t));
            record.update(|r| r.timeout());
            let line = record.with_untracked(|r| {
                r.outcome()
                    .map(|o| {
                        format!(
                            "{} ran out of time. {}",
                            side_name(r.position().side_to_move()),
                            describe_outcome(r.position(), o)
                        )
                    })
                    .unwrap_or_default()
            });
            notice.set(line);
            selected.set(None);
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
            selected.set(None);
            clock.update(|c| c.stop(t));
            notice.set("Game paused: the clock is stopped.".to_string());
        }
    };
    let new_game = move |_| {
        record.set(Record::new(Ataxx::start(&rules)));
        selected.set(None);
        paused.set(false);
        clock.set(MoveClock::new(limit_ms(clock_choice.get_untracked())));
        clock.update(|c| c.start_turn(now_ms()));
        notice.set("New game: X to move.".to_string());
    };
    let change_clock = move |ev: leptos::ev::Event| {
        let secs: u32 = event_target_value(&ev)
            .parse()
            .unwrap_or(DEFAULT_CLOCK_SECS);
        clock_choice.set(secs);
        let t = now_ms();
        let was_running = clock.with_untracked(|c| c.is_running());
        clock.set(MoveClock::new(limit_ms(secs)));
        if was_running || (over.get_untracked().is_none() && !paused.get_untracked()) {
            clock.update(|c| c.start_turn(t));
        }
    };

    let enabled = Signal::derive(move || !paused.get() && over.get().is_none());
    let to_move = move || record.with(|r| r.position().side_to_move());
    let count = move |side: Side| record.with(|r| r.position().count(side));
    let score_chip = move |side: Side| {
        let name = side_name(side);
        let cls = if side == Side::First {
            "chip px"
        } else {
            "chip po"
        };
        view! {
            <div class=cls class:to-move=move || enabled.get() && to_move() == side
                 data-testid=format!("score-{}", name.to_lowercase())>
                <svg class="chip-piece" viewBox="0 0 20 20" aria-hidden="true"><circle cx="10" cy="10" r="8"/></svg>
                <span class="chip-name">{name}</span>
                <span class="chip-count">{move || count(side)}</span>
                <span class="chip-turn">{move || if enabled.get() && to_move() == side { "to move" } else { "" }}</span>
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
        format!("{} to move", side_name(to_move()))
    };
    // The move list as full moves: (number, first side's move, second side's move).
    let moves = move || {
        record.with(|r| {
            let mut pos = *r.start();
            let mut rows: Vec<(u32, Option<String>, Option<String>)> = Vec::new();
            for &mv in r.moves() {
                let side = pos.side_to_move();
                let number = pos.fullmove();
                pos.play_unchecked(mv);
                let text = Some(mv.to_string());
                match (side, rows.last_mut()) {
                    (Side::Second, Some(row)) if row.0 == number && row.2.is_none() => row.2 = text,
                    (Side::First, _) => rows.push((number, text, None)),
                    (Side::Second, _) => rows.push((number, None, text)),
                }
            }
            rows
        })
    };

    view! {
        <section class="game" aria-label="Territory Duel">
            <div class="board-wrap" class:paused=move || paused.get()>
                <AtaxxBoard record=record selected=selected enabled=enabled hints=Signal::derive(|| true) on_move=on_move/>
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
                        let rows = moves();
                        let n = rows.len();
                        let last_second = record.with(|r| r.position().side_to_move() == Side::First);
                        rows.into_iter()
                            .enumerate()
                            .map(|(i, (number, first, second))| {
                                let last_row = i + 1 == n;
                                view! {
                                    <li value=number.to_string()>
                                        <span class="mv" class:current=last_row && !last_second>{first.unwrap_or_else(|| "…".into())}</span>
                                        <span class="mv" class:current=last_row && last_second>{second.unwrap_or_default()}</span>
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

/// A fresh game under the local rules (a player without a move passes).
pub fn new_local_game() -> Record<Ataxx> {
    Record::new(Ataxx::start(&AtaxxRules::default()))
}
