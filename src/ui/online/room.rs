//! An online game on screen, the same for every game: the board (your side
//! at the bottom), the server's clock, whose turn, the move list, pause,
//! draw offers, resign, the result and rematch, who is connected.
//!
//! Everything is derived from the session's last server state; the board
//! only sends moves (with the state's ply) through the [`Driver`]. The
//! server decides timeouts, forced passes and the result.

use leptos::prelude::*;

use super::socket::Driver;
use super::text;
use super::OnlineLink;
use crate::client::moves::{move_rows, Cell, Row};
use crate::games::{Outcome, Record, Side};
use crate::i18n::Lang;
use crate::protocol::online::{ClientMsg, Event, GameState, Status};
use crate::protocol::session::{Flash, Link};
use crate::ui::board::BoardProps;
use crate::ui::clock::{format_left, ticker};
use crate::ui::games::{describe_outcome, UiGame};
use crate::ui::sound::{self, Sound};
use crate::ui::store::Settings;
use crate::ui::words::{game_title, use_lang, Problem};
use crate::ui::{Nav, Page};
use crate::{t, tn};

/// How long a flash message (a refusal, a presence change) stays.
const FLASH_MS: f64 = 6_000.0;

/// The game of `state` (plus a move in flight, if it replays) as a record,
/// with an ending decided outside the board (time, resignation, agreement).
pub fn record_of<G: UiGame>(
    rules: &G::Rules,
    start: &str,
    moves: &[String],
    outcome: Option<Outcome>,
) -> Result<Record<G>, Problem> {
    let pos = G::from_text(start, rules).map_err(|_| Problem::BadPosition(start.to_string()))?;
    let mut record = Record::from_moves(pos, moves)?;
    if let Some(o) = outcome {
        if record.outcome().is_none() {
            match (o.winner, o.reason) {
                (None, crate::games::EndReason::PlyLimit) => record.ply_limit_draw(),
                (None, _) => record.agree_draw(),
                (Some(w), crate::games::EndReason::Resignation) => record.resign(w.opponent()),
                _ => record.timeout(),
            }
        }
    }
    Ok(record)
}

/// One online game.
#[component]
pub fn OnlineGame<G: UiGame>(
    driver: Driver,
    /// The usual start under the room's rules (the rules come from it).
    start: G,
) -> impl IntoView {
    let settings = expect_context::<RwSignal<Settings>>();
    let lang = use_lang();
    let session = driver.session;
    let state = Memo::new(move |_| session.with(|s| s.state.clone()));
    let with_state =
        move |f: &dyn Fn(&GameState) -> bool| state.with(|s| s.as_ref().is_some_and(f));
    let you = Memo::new(move |_| session.with(|s| s.you()));
    let rules = StoredValue::new(start.rules().clone());

    // The record on the board: the server's moves plus a move in flight.
    let built = Memo::new(move |_| {
        session.with(|s| {
            let st = s.state.as_ref()?;
            let make = |moves: &[String]| {
                rules.with_value(|r| record_of::<G>(r, &st.start, moves, st.outcome))
            };
            Some(make(&s.shown_moves()).or_else(|_| make(&st.moves)))
        })
    });
    let broken =
        Memo::new(move |_| built.with(|b| b.as_ref().and_then(|r| r.as_ref().err().cloned())));
    let record = Signal::derive(move || {
        built.with(|b| match b {
            Some(Ok(r)) => r.clone(),
            _ => Record::new(rules.with_value(|r| G::start(r))),
        })
    });

    let now = ticker(Signal::derive(|| true));
    let can_move = Memo::new(move |_| session.with(|s| s.can_move()));
    let status = move || state.with(|s| s.as_ref().map(|s| s.status));
    let over = move || status() == Some(Status::Over);
    let paused = move || status() == Some(Status::Paused);
    let playing = move || status() == Some(Status::Playing);
    let to_move = move || state.with(|s| s.as_ref().map(|s| s.to_move));
    let opponent = move || you.get().map(Side::opponent);
    let pending = move || session.with(|s| s.pending.is_some());
    let link_open = move || session.with(|s| s.link == Link::Open);

    // A sound for every move and the end, as in local games.
    Effect::new(move |prev: Option<(u32, usize, bool)>| {
        let now_key = state.with(|s| {
            s.as_ref().map_or((0, 0, false), |s| {
                (s.game_no, s.moves.len(), s.status == Status::Over)
            })
        });
        if let Some(prev) = prev {
            let sounds = settings.with_untracked(|s| s.sounds);
            if sounds && prev.0 == now_key.0 {
                if now_key.2 && !prev.2 {
                    sound::play(Sound::End);
                } else if now_key.1 > prev.1 {
                    let r = record.get_untracked();
                    let ply = r.moves().len();
                    if ply > 0 {
                        let before = r.position_at(ply - 1);
                        sound::play(G::sound_of(&before, r.moves()[ply - 1]));
                    }
                }
            }
        }
        now_key
    });

    // The board.
    let on_move = Callback::new(move |mv: G::Move| driver.play(mv.to_string()));
    let flipped = match you.get_untracked() {
        Some(side) => side == Side::Second,
        None => settings.with_untracked(|s| s.flip_board),
    };
    let hints = Signal::derive(move || settings.with(|s| s.hints));
    let enabled = Signal::derive(move || can_move.get());
    // A press on a piece that cannot move says why, for a few seconds.
    let stuck = RwSignal::new(None::<(u8, f64)>);
    let on_stuck = Callback::new(move |spot: u8| stuck.set(Some((spot, now.get_untracked()))));
    let board = G::board(BoardProps {
        record,
        enabled,
        hints,
        on_move,
        flipped,
        on_stuck,
        // Online there is no hint to show.
        marked: Signal::stored(None),
        read_only: None,
    });

    // Words, in the language of the moment.
    let side_name = |lang: Lang, side: Side| G::side_name(lang, side);
    let result_line = move || {
        let o = state.with(|s| s.as_ref().and_then(|s| s.outcome))?;
        let lang = lang.get();
        Some(record.with(|r| describe_outcome(lang, r.position(), o)))
    };
    let personal_result = move || {
        let o = state.with(|s| s.as_ref().and_then(|s| s.outcome))?;
        let lang = lang.get();
        Some(match (o.winner, you.get()) {
            (None, _) => t!(lang, "online.result_draw").to_string(),
            (Some(w), Some(y)) if w == y => t!(lang, "online.result_you_won").to_string(),
            (Some(_), Some(_)) => t!(lang, "online.result_you_lost").to_string(),
            (Some(w), None) => t!(lang, "online.result_winner", side = side_name(lang, w)),
        })
    };
    let status_line = move || {
        if let Some(line) = result_line() {
            return line;
        }
        let lang = lang.get();
        match status() {
            Some(Status::Waiting) => t!(lang, "online.status_waiting_for_player").to_string(),
            Some(Status::Paused) => t!(lang, "online.status_paused").to_string(),
            _ => record.with(|r| {
                r.position().prompt(lang).unwrap_or_else(|| {
                    t!(
                        lang,
                        "online.side_to_move",
                        side = side_name(lang, r.position().side_to_move())
                    )
                })
            }),
        }
    };
    let turn_line = move || {
        let y = you.get()?;
        if !playing() {
            return None;
        }
        let lang = lang.get();
        Some(if pending() {
            t!(lang, "online.turn_sending")
        } else if to_move() == Some(y) {
            t!(lang, "online.turn_yours")
        } else {
            t!(lang, "online.turn_theirs")
        })
    };
    let last_move_line = move || {
        let lang = lang.get();
        record.with(|r| {
            let ply = r.moves().len();
            (ply > 0).then(|| G::describe_move(lang, &r.position_at(ply - 1), r.moves()[ply - 1]))
        })
    };
    let flash_line = move || {
        let t_now = now.get();
        let lang = lang.get();
        session.with(|s| {
            s.flash_at(t_now, FLASH_MS).map(|f| match f {
                Flash::Refused { code, reason } => text::refusal(lang, *code, reason),
                Flash::Error { code, message } => text::error(lang, *code, message),
                Flash::Presence { side, connected } => {
                    let theirs = s.you().is_some();
                    text::presence(lang, side_name(lang, *side), theirs, *connected)
                }
            })
        })
    };
    // What the last state reported, when it was not a move.
    let event_line = move || {
        let event = state.with(|s| s.as_ref().map_or(Event::Sync, |s| s.event));
        text::event(lang.get(), event, you.get().is_some()).map(str::to_string)
    };
    let stuck_line = move || {
        let (spot, at) = stuck.get()?;
        (now.get() - at < FLASH_MS)
            .then(|| record.with(|r| G::why_stuck(r.position(), lang.get(), spot).to_string()))
    };
    let notice = move || {
        stuck_line()
            .or_else(flash_line)
            .or_else(event_line)
            .or_else(last_move_line)
            .unwrap_or_default()
    };

    // The clock: the server's figure counted down locally; 0:00 waits for
    // the server to call the timeout.
    let left = move || session.with(|s| s.clock_left(now.get()));
    let per_move = move || state.with(|s| s.as_ref().map_or(0, |s| s.clock.per_move_ms));
    // After the end the clock says so, as a local game's does, instead of
    // the time the last move had left.
    let clock_text = move || {
        if over() {
            return t!(lang.get(), "clock.over").to_string();
        }
        left().map(format_left).unwrap_or_default()
    };
    let clock_running = move || with_state(&|s| s.clock.running);
    let clock_fraction = move || {
        let limit = per_move() as f64;
        if over() {
            return 0.0;
        }
        left().map_or(1.0, |l| if limit > 0.0 { l / limit } else { 1.0 })
    };
    let clock_low = move || clock_running() && left().is_some_and(|ms| ms <= 5_000.0);
    let clock_label = move || {
        let lang = lang.get();
        t!(
            lang,
            "online.clock_label",
            time = clock_text(),
            side = to_move().map_or("", |s| side_name(lang, s))
        )
    };

    // Pause.
    let paused_by = move || state.with(|s| s.as_ref().and_then(|s| s.paused_by));
    let my_pause = move || you.get().is_some() && paused_by() == you.get();
    let pauses_left =
        move |side: Side| state.with(|s| s.as_ref().map_or(0, |s| s.pauses_left[side.index()]));
    let auto_resume = move || {
        session
            .with(|s| s.auto_resume_left(now.get()))
            .map(format_left)
    };
    let pause_title = move || {
        let lang = lang.get();
        match (paused_by(), you.get()) {
            (Some(p), Some(y)) if p == y => t!(lang, "online.paused_by_you").to_string(),
            (Some(_), Some(_)) => t!(lang, "online.paused_by_opponent").to_string(),
            (Some(p), None) => t!(lang, "online.paused_by", side = side_name(lang, p)),
            (None, _) => t!(lang, "online.status_paused").to_string(),
        }
    };
    let toggle_pause = move |_| {
        driver.control(if my_pause() {
            ClientMsg::Unpause
        } else {
            ClientMsg::Pause
        })
    };
    let pause_disabled = move || {
        let Some(y) = you.get() else { return true };
        !link_open() || !(playing() && pauses_left(y) > 0 || my_pause())
    };

    // Draw offers and resigning.
    let draw_offer = move || state.with(|s| s.as_ref().and_then(|s| s.draw_offer));
    let they_offer = move || draw_offer().is_some() && draw_offer() == opponent() && !over();
    let i_offer = move || draw_offer().is_some() && draw_offer() == you.get() && !over();
    let confirm_resign = RwSignal::new(false);
    let in_game = move || matches!(status(), Some(Status::Playing | Status::Paused));

    // Rematch.
    let rematch_asked =
        move |side: Option<Side>| side.is_some_and(|side| with_state(&|s| s.rematch[side.index()]));
    let rematch_note = move || {
        if rematch_asked(you.get()) {
            Some(t!(lang.get(), "online.rematch_waiting"))
        } else if rematch_asked(opponent()) {
            Some(t!(lang.get(), "online.rematch_offered"))
        } else {
            None
        }
    };
    let hide_result = RwSignal::new(false);
    // A new game (a rematch) shows its result card again when it ends.
    Effect::new(move |_| {
        if !over() {
            hide_result.set(false);
        }
    });
    let nav = expect_context::<Nav>();

    // Who is there.
    let connected = move |side: Side| with_state(&|s| s.connected[side.index()]);
    let seated = move |side: Side| with_state(&|s| s.seated[side.index()]);
    let opponent_away = move || opponent().is_some_and(|o| seated(o) && !connected(o)) && !over();
    let spectators = move || state.with(|s| s.as_ref().map_or(0, |s| s.spectators));

    let (bottom, top) = match you.get_untracked() {
        Some(y) => (y, y.opponent()),
        None => (Side::First, Side::Second),
    };
    let score_chip = move |side: Side| {
        let place = if side == bottom {
            "chip-bottom"
        } else {
            "chip-top"
        };
        let cls = format!("chip {} {place}", G::side_class(side));
        let turn = move || in_game() && !paused() && to_move() == Some(side);
        let seat = move || {
            let lang = lang.get();
            match you.get() {
                Some(y) if y == side => t!(lang, "online.chip_you"),
                Some(_) if connected(side) => t!(lang, "online.chip_opponent"),
                Some(_) => t!(lang, "online.chip_opponent_away"),
                None if seated(side) && connected(side) => t!(lang, "online.chip_player"),
                None => t!(lang, "online.chip_player_away"),
            }
        };
        view! {
            <div class=cls class:to-move=turn data-testid=format!("score-{}", G::side_class(side))>
                <svg class="chip-piece" viewBox="0 0 20 20" aria-hidden="true"><circle cx="10" cy="10" r="8"/></svg>
                <span class="chip-name">{move || side_name(lang.get(), side)}</span>
                <span class="chip-count" title=move || G::score_label(lang.get())>{move || record.with(|r| r.position().score(side))}</span>
                <span class="chip-turn">{move || if turn() { t!(lang.get(), "online.chip_to_move") } else { "" }}</span>
                <span class="chip-label">
                    <span class="presence" class:away=move || !connected(side) aria-hidden="true"></span>
                    {seat}
                </span>
            </div>
        }
    };

    view! {
        <section class=format!("game play-screen online-game game-{}", G::KIND.slug()) aria-label=move || game_title(lang.get(), G::KIND)>
            {score_chip(top)}
            <div class="board-wrap" class:paused=paused>
                {board}
                <Show when=paused>
                    <div class="overlay" data-testid="paused">
                        <div class="overlay-card">
                            <p class="overlay-title">{pause_title}</p>
                            <p>{move || auto_resume().map(|l| t!(lang.get(), "online.auto_resume_in", time = l))}</p>
                            <Show when=my_pause>
                                <button class="primary" data-testid="resume" on:click=toggle_pause>{move || t!(lang.get(), "online.resume")}</button>
                            </Show>
                        </div>
                    </div>
                </Show>
                <Show when=move || over() && !hide_result.get()>
                    <div class="overlay result" data-testid="result">
                        <div class="overlay-card">
                            <p class="overlay-title">{personal_result}</p>
                            <p data-testid="result-line">{result_line}</p>
                            {move || you.get().is_some().then(|| view! {
                                <button class="primary" data-testid="online-rematch"
                                    disabled=move || rematch_asked(you.get()) || !link_open()
                                    on:click=move |_| driver.control(ClientMsg::Rematch)>
                                    {move || if rematch_asked(opponent()) { t!(lang.get(), "online.accept_rematch") } else { t!(lang.get(), "online.rematch") }}
                                </button>
                            })}
                            <p class="muted" data-testid="rematch-note">{rematch_note}</p>
                            <button data-testid="look-at-board" on:click=move |_| hide_result.set(true)>{move || t!(lang.get(), "online.look_at_board")}</button>
                        </div>
                    </div>
                </Show>
            </div>
            {score_chip(bottom)}
            <div class="turn-line">
                <div class="turn-text">
                    <p class="status" data-testid="status">{status_line}</p>
                    <p class="turn" data-testid="turn">{turn_line}</p>
                </div>
                <div class="clock" class:low=clock_low class:idle=move || !clock_running() class:over=over role="timer"
                     aria-label=clock_label>
                    <span class="clock-text" data-testid="clock">{clock_text}</span>
                    <span class="clock-bar" aria-hidden="true">
                        <span class="clock-fill" style:width=move || format!("{:.1}%", clock_fraction() * 100.0)></span>
                    </span>
                </div>
            </div>
            <aside class="panel">
                <div class="online-bar">
                    {move || match you.get() {
                        Some(y) => view! { <span class="badge" data-testid="online-role">{move || t!(lang.get(), "online.role_you_play", side = side_name(lang.get(), y))}</span> }.into_any(),
                        None => view! { <span class="badge watching" data-testid="online-role">{move || t!(lang.get(), "online.watching")}</span> }.into_any(),
                    }}
                    <span class="muted" data-testid="spectators">{move || {
                        let n = spectators();
                        (n > 0).then(|| tn!(lang.get(), "online.spectators", n))
                    }}</span>
                </div>
                <Show when=move || you.get().is_some() && !over()>
                    <p class="muted" data-testid="online-clock-note">{move || t!(lang.get(), "online.clock_runs_on")}</p>
                </Show>
                <Show when=opponent_away>
                    <p class="banner-line warn" role="status" data-testid="opponent-away">{move || t!(lang.get(), "online.opponent_away")}</p>
                </Show>
                <Show when=they_offer>
                    <div class="offer" role="alert" data-testid="draw-offer">
                        <span>{move || t!(lang.get(), "online.draw_offered_to_you")}</span>
                        <button class="primary" data-testid="accept-draw"
                            on:click=move |_| driver.control(ClientMsg::AnswerDraw { accept: true })>{move || t!(lang.get(), "online.accept_draw")}</button>
                        <button data-testid="decline-draw"
                            on:click=move |_| driver.control(ClientMsg::AnswerDraw { accept: false })>{move || t!(lang.get(), "online.decline_draw")}</button>
                    </div>
                </Show>
                <Show when=i_offer>
                    <p class="muted" data-testid="draw-offer-sent">{move || t!(lang.get(), "online.draw_offer_waiting")}</p>
                </Show>
                <Show when=move || you.get().is_none() && draw_offer().is_some() && !over()>
                    <p class="muted">{move || draw_offer().map(|s| t!(lang.get(), "online.draw_offered_by", side = side_name(lang.get(), s)))}</p>
                </Show>
                {move || you.get().is_some().then(|| view! {
                    <Show when=in_game>
                        <div class="controls">
                            <button data-testid="online-pause" disabled=pause_disabled on:click=toggle_pause>
                                {move || if my_pause() { t!(lang.get(), "online.resume").to_string() } else { tn!(lang.get(), "online.pause", you.get().map_or(0, pauses_left)) }}
                            </button>
                            <button data-testid="offer-draw" disabled=move || i_offer() || they_offer() || !link_open()
                                on:click=move |_| driver.control(ClientMsg::OfferDraw)>
                                {move || if i_offer() { t!(lang.get(), "online.draw_offer_sent") } else { t!(lang.get(), "online.offer_draw") }}
                            </button>
                            <Show when=move || !confirm_resign.get()>
                                <button data-testid="resign" disabled=move || !link_open()
                                    on:click=move |_| confirm_resign.set(true)>{move || t!(lang.get(), "online.resign")}</button>
                            </Show>
                        </div>
                    </Show>
                    <Show when=over>
                        <div class="controls">
                            <button class="primary" data-testid="rematch-panel"
                                disabled=move || rematch_asked(you.get()) || !link_open()
                                on:click=move |_| driver.control(ClientMsg::Rematch)>
                                {move || if rematch_asked(opponent()) { t!(lang.get(), "online.accept_rematch") } else { t!(lang.get(), "online.rematch") }}
                            </button>
                            <button data-testid="new-online-game" on:click=move |_| nav.go(Page::Online(OnlineLink::setup()))>{move || t!(lang.get(), "online.new_game")}</button>
                            <Show when=move || hide_result.get()>
                                <button data-testid="show-result" on:click=move |_| hide_result.set(false)>{move || t!(lang.get(), "game.show_result")}</button>
                            </Show>
                        </div>
                        <p class="muted">{rematch_note}</p>
                    </Show>
                })}
                <Show when=move || confirm_resign.get() && in_game()>
                    <div class="offer confirm" role="alertdialog" aria-label=move || t!(lang.get(), "online.resign_confirm") data-testid="resign-confirm">
                        <span>{move || t!(lang.get(), "online.resign_confirm")}</span>
                        <button class="danger" data-testid="resign-yes"
                            on:click=move |_| { confirm_resign.set(false); driver.control(ClientMsg::Resign) }>{move || t!(lang.get(), "online.resign_yes")}</button>
                        <button data-testid="resign-no" on:click=move |_| confirm_resign.set(false)>{move || t!(lang.get(), "online.resign_no")}</button>
                    </div>
                </Show>
                <p class="pauses muted" data-testid="pauses">{move || you.get().map(|y| t!(lang.get(), "online.pauses_left", you = pauses_left(y), opponent = pauses_left(y.opponent())))}</p>
                <p class="notice" aria-live="polite" data-testid="notice">{notice}</p>
                {move || broken.get().map(|e| view! { <p class="error" role="alert">{move || t!(lang.get(), "online.broken_state", error = e.describe(lang.get()))}</p> })}
                <ol class="movelist" aria-label=move || t!(lang.get(), "online.moves_aria")>
                    {move || {
                        let last = record.with(|r| r.moves().len());
                        record
                            .with(move_rows)
                            .into_iter()
                            .map(|Row { number, first, second }| {
                                let cell = move |c: Option<Cell>| {
                                    c.map(|c| view! { <span class="mv" class:current=c.ply == last>{c.text}</span> })
                                };
                                let first = cell(first).map(IntoAny::into_any)
                                    .unwrap_or_else(|| view! { <span class="mv">"…"</span> }.into_any());
                                view! { <li value=number.to_string()>{first}{cell(second)}</li> }
                            })
                            .collect_view()
                    }}
                </ol>
            </aside>
        </section>
    }
}
