//! The panel beside an online game's board: your role and who watches,
//! the notes (the clock runs on, the opponent is away, draw offers), the
//! controls (pause, offer a draw, resign; after the end rematch and a new
//! game), your pauses left, the notice line and the move list.

use leptos::prelude::*;

use super::cards::CopyLink;
use super::view::Room;
use crate::client::moves::Row;
use crate::client::online::link;
use crate::client::online::link::OnlineLink;
use crate::ui::address::server_param;
use crate::ui::page::page_url;

use crate::protocol::online::ClientMsg;
use crate::ui::page::{Nav, Page};
use crate::ui::screen::moves::{LookBack, MoveList, MoveNav};
use crate::ui::words::Problem;
use crate::{t, tn};

/// The panel of an online game.
#[component]
pub fn OnlinePanel(
    room: Room,
    /// The line under the controls: a refusal, a press on a stuck piece,
    /// the last move.
    #[prop(into)]
    notice: Signal<String>,
    /// The server's state could not be replayed: why.
    #[prop(into)]
    broken: Signal<Option<Problem>>,
    #[prop(into)] rows: Signal<Vec<Row>>,
    /// The moves played (the last is marked current).
    #[prop(into)]
    total: Signal<usize>,
    /// The result card was closed: offer to show it again.
    result_closed: RwSignal<bool>,
    /// After the end: the ply the board shows, the plies the list's cells
    /// end at, whether it shows the final position, the look-back line,
    /// and a step to a ply (`None`: the end).
    #[prop(into)]
    shown: Signal<usize>,
    #[prop(into)] stops: Signal<Vec<usize>>,
    #[prop(into)] live: Signal<bool>,
    #[prop(into)] lookback: Signal<Option<String>>,
    on_step: Callback<Option<usize>>,
    /// Opens the finished game in review (the local game's screen).
    on_review: Callback<()>,
) -> impl IntoView {
    let (lang, driver, you) = (room.lang, room.driver, room.you);
    let name = move |side| (room.side_name)(lang.get(), side);
    let nav = expect_context::<Nav>();
    let confirm_resign = RwSignal::new(false);
    let control =
        move |msg: ClientMsg| move |_: leptos::ev::MouseEvent| driver.control(msg.clone());
    let role = move || {
        match you.get() {
        Some(y) => view! { <span class="badge" data-testid="online-role">{move || t!(lang.get(), "online.role_you_play", side = name(y))}</span> }.into_any(),
        None => view! { <span class="badge watching" data-testid="online-role">{move || t!(lang.get(), "online.watching")}</span> }.into_any(),
    }
    };
    let pause_word = move || {
        if room.my_pause() {
            t!(lang.get(), "online.resume").to_string()
        } else {
            tn!(
                lang.get(),
                "online.pause",
                you.get().map_or(0, |y| room.pauses_left(y))
            )
        }
    };
    let pause_disabled = move || {
        let Some(y) = you.get() else { return true };
        !room.link_open() || !(room.playing() && room.pauses_left(y) > 0 || room.my_pause())
    };
    let toggle_pause = move |_| {
        driver.control(if room.my_pause() {
            ClientMsg::Unpause
        } else {
            ClientMsg::Pause
        })
    };
    let draw_word = move || {
        if room.i_offer() {
            t!(lang.get(), "online.draw_offer_sent")
        } else {
            t!(lang.get(), "online.offer_draw")
        }
    };
    // The finished game's permanent link: the room's spectator link (the
    // server keeps finished rooms in its store and shows them to anyone
    // who watches).
    let server = server_param(&driver.url.get_value());
    let watch_link = Signal::derive(move || {
        room.state.with(|s| {
            s.as_ref()
                .map(|s| link::link_on(&page_url(), &link::watch_query(&s.room, server.as_deref())))
                .unwrap_or_default()
        })
    });
    let controls = move || {
        you.get().is_some().then(|| view! {
        <Show when=move || room.in_game()>
            <div class="controls">
                <button data-testid="online-pause" disabled=pause_disabled on:click=toggle_pause>{pause_word}</button>
                <button data-testid="offer-draw" disabled=move || room.i_offer() || room.they_offer() || !room.link_open()
                    on:click=control(ClientMsg::OfferDraw)>{draw_word}</button>
                <Show when=move || !confirm_resign.get()>
                    <button data-testid="resign" disabled=move || !room.link_open()
                        on:click=move |_| confirm_resign.set(true)>{move || t!(lang.get(), "online.resign")}</button>
                </Show>
            </div>
        </Show>
        <Show when=move || room.over()>
            <div class="controls">
                <button class="primary" data-testid="rematch-panel" disabled=move || room.rematch_disabled()
                    on:click=control(ClientMsg::Rematch)>{move || room.rematch_word()}</button>
                <button data-testid="new-online-game" on:click=move |_| nav.go(Page::Online(OnlineLink::setup()))>{move || t!(lang.get(), "online.new_game")}</button>
                <Show when=move || result_closed.get()>
                    <button data-testid="show-result" on:click=move |_| result_closed.set(false)>{move || t!(lang.get(), "game.show_result")}</button>
                </Show>
            </div>
            <p class="muted">{move || room.rematch_note()}</p>
        </Show>
    })
    };
    view! {
        <aside class="panel">
            <div class="online-bar">
                {role}
                <span class="muted" data-testid="rated-line">{move || room.rated_line()}</span>
                <span class="muted" data-testid="spectators">{move || room.spectators_line()}</span>
            </div>
            <Show when=move || you.get().is_some() && !room.over()>
                <p class="muted" data-testid="online-clock-note">{move || t!(lang.get(), "online.clock_runs_on")}</p>
            </Show>
            <Show when=move || room.opponent_away()>
                <p class="banner-line warn" role="status" data-testid="opponent-away">{move || t!(lang.get(), "online.opponent_away")}</p>
            </Show>
            <Show when=move || room.they_offer()>
                <div class="offer" role="alert" data-testid="draw-offer">
                    <span>{move || t!(lang.get(), "online.draw_offered_to_you")}</span>
                    <button class="primary" data-testid="accept-draw"
                        on:click=control(ClientMsg::AnswerDraw { accept: true })>{move || t!(lang.get(), "online.accept_draw")}</button>
                    <button data-testid="decline-draw"
                        on:click=control(ClientMsg::AnswerDraw { accept: false })>{move || t!(lang.get(), "online.decline_draw")}</button>
                </div>
            </Show>
            <Show when=move || room.i_offer()>
                <p class="muted" data-testid="draw-offer-sent">{move || t!(lang.get(), "online.draw_offer_waiting")}</p>
            </Show>
            <Show when=move || you.get().is_none() && room.draw_offer().is_some() && !room.over()>
                <p class="muted">{move || room.draw_offer().map(|s| t!(lang.get(), "online.draw_offered_by", side = name(s)))}</p>
            </Show>
            {controls}
            <Show when=move || confirm_resign.get() && room.in_game()>
                <div class="offer confirm" role="alertdialog" aria-label=move || t!(lang.get(), "online.resign_confirm") data-testid="resign-confirm">
                    <span>{move || t!(lang.get(), "online.resign_confirm")}</span>
                    <button class="danger" data-testid="resign-yes"
                        on:click=move |_| { confirm_resign.set(false); driver.control(ClientMsg::Resign) }>{move || t!(lang.get(), "online.resign_yes")}</button>
                    <button data-testid="resign-no" on:click=move |_| confirm_resign.set(false)>{move || t!(lang.get(), "online.resign_no")}</button>
                </div>
            </Show>
            <p class="pauses muted" data-testid="pauses">
                {move || you.get().map(|y| t!(lang.get(), "online.pauses_left", you = room.pauses_left(y), opponent = room.pauses_left(y.opponent())))}
            </p>
            <p class="notice" aria-live="polite" data-testid="notice">{move || notice.get()}</p>
            {move || broken.get().map(|e| view! { <p class="error" role="alert">{move || t!(lang.get(), "online.broken_state", error = e.describe(lang.get()))}</p> })}
            // After the end the game opens like a finished local game:
            // step through it here, or review it (graph, better moves,
            // share, export) on the local game's screen.
            <Show when=move || room.over()>
                <div class="controls">
                    <button class="primary" data-testid="online-review" on:click=move |_| on_review.run(())>{move || t!(lang.get(), "online.review")}</button>
                </div>
                <CopyLink label=Signal::derive(move || t!(lang.get(), "online.finished_link_label")) link=watch_link testid="finished-link"/>
                <LookBack line=lookback on_live=Callback::new(move |()| on_step.run(None))/>
                <MoveNav shown=shown stops=stops live=live on_step=on_step/>
            </Show>
            {move || if room.over() {
                view! { <MoveList rows=rows current=shown aria=|l| t!(l, "online.moves_aria")
                    on_step=Callback::new(move |p| on_step.run(Some(p)))/> }.into_any()
            } else {
                view! { <MoveList rows=rows current=total aria=|l| t!(l, "online.moves_aria")/> }.into_any()
            }}
        </aside>
    }
}
