//! The move list and its navigation: first, previous, next, back to the
//! game, and which move the board shows. The rows come from
//! [`crate::client::moves::move_rows`]; the current move stays in view.

use leptos::prelude::*;

use super::icon;
use crate::client::moves::{move_text, Cell, MoveNo, Row};
use crate::games::Record;
use crate::i18n::Lang;
use crate::t;
use crate::ui::games::UiGame;
use crate::ui::words::use_lang;

/// The move list. With `on_step` each move is a button that shows the
/// position after it; without, the moves are text (online).
#[component]
pub fn MoveList(
    #[prop(into)] rows: Signal<Vec<Row>>,
    /// The ply the board shows; its move is marked current.
    #[prop(into)]
    current: Signal<usize>,
    /// The list's accessible name.
    aria: fn(Lang) -> &'static str,
    #[prop(optional)] on_step: Option<Callback<usize>>,
) -> impl IntoView {
    let lang = use_lang();
    let list = NodeRef::<leptos::html::Ol>::new();
    // Keep the current move in view (inside the list only: the page stays put).
    Effect::new(move |_| {
        current.track();
        rows.track();
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
    let cell = move |lang: Lang, current: usize, c: Cell| {
        let ply = c.ply;
        let text = if c.is_pass() {
            t!(lang, "movelist.pass").to_string()
        } else {
            c.text
        };
        match on_step {
            Some(step) => {
                let label = t!(lang, "movelist.show_after", move = text);
                view! {
                    <button class="mv" class:current=ply == current aria-label=label
                        on:click=move |_| step.run(ply)>{text}</button>
                }
                .into_any()
            }
            None => {
                view! { <span class="mv" class:current=ply == current>{text}</span> }.into_any()
            }
        }
    };
    let rows = move || {
        let (lang, current) = (lang.get(), current.get());
        rows.get()
            .into_iter()
            .map(|row| {
                let first = row.first.map_or_else(
                    || view! { <span class="mv">"…"</span> }.into_any(),
                    |c| cell(lang, current, c),
                );
                let second = row.second.map(|c| cell(lang, current, c));
                view! { <li value=row.number.to_string()>{first}{second}</li> }
            })
            .collect_view()
    };
    view! {
        <ol class="movelist" node_ref=list aria-label=move || aria(lang.get())>{rows}</ol>
    }
}

/// The buttons that step through the moves, one numbered move's side at a
/// time as the list shows them (a Mill move and its removal are one step).
#[component]
pub fn MoveNav(
    /// The ply the board shows.
    #[prop(into)]
    shown: Signal<usize>,
    /// The plies the list's cells end at, in order (what a step goes to).
    #[prop(into)]
    stops: Signal<Vec<usize>>,
    /// The board shows the game as it stands (not an earlier move).
    #[prop(into)]
    live: Signal<bool>,
    /// Show the position after this many moves, or the live game (`None`).
    on_step: Callback<Option<usize>>,
) -> impl IntoView {
    let lang = use_lang();
    let at_start = move || shown.get() == 0;
    let step = move |to: Option<usize>| move |_: leptos::ev::MouseEvent| on_step.run(to);
    // The cell before the one shown (or the start), and the one after it
    // (the last one is the live game).
    let previous = move || {
        let at = shown.get_untracked();
        stops.with_untracked(|s| s.iter().rev().copied().find(|&p| p < at).unwrap_or(0))
    };
    let next = move || {
        let at = shown.get_untracked();
        stops.with_untracked(|s| {
            let later = s.iter().copied().find(|&p| p > at);
            later.filter(|p| Some(p) != s.last())
        })
    };
    view! {
        <div class="nav" role="group" aria-label=move || t!(lang.get(), "movenav.aria")>
            <button aria-label=move || t!(lang.get(), "movenav.first") on:click=step(Some(0)) disabled=at_start>{icon("M5 4v12M15 4l-8 6 8 6z")}</button>
            <button aria-label=move || t!(lang.get(), "movenav.previous") data-testid="prev"
                on:click=move |_| on_step.run(Some(previous())) disabled=at_start>{icon("M14 4l-8 6 8 6z")}</button>
            <button aria-label=move || t!(lang.get(), "movenav.next") data-testid="next"
                on:click=move |_| on_step.run(next()) disabled=live>{icon("M6 4l8 6-8 6z")}</button>
            <button aria-label=move || t!(lang.get(), "movenav.live") data-testid="live" on:click=step(None) disabled=live>{icon("M15 4v12M5 4l8 6-8 6z")}</button>
        </div>
    }
}

/// While the board shows an earlier position: a line that says which one
/// ("Looking back at move 7 of 9, O's b2-c4") and a button back to the
/// game, so that nobody takes the past board, chips and status for the
/// live game.
#[component]
pub fn LookBack(
    /// The line, while looking back; `None` on the live game.
    #[prop(into)]
    line: Signal<Option<String>>,
    on_live: Callback<()>,
) -> impl IntoView {
    let lang = use_lang();
    view! {
        <Show when=move || line.with(Option::is_some)>
            <div class="lookback" data-testid="lookback">
                <span class="viewing-note" role="status" data-testid="lookback-line">{move || line.get()}</span>
                <button class="primary" data-testid="lookback-live" on:click=move |_| on_live.run(())>
                    {move || t!(lang.get(), "movenav.live")}
                </button>
            </div>
        </Show>
    }
}

/// The look-back line for ply `ply` of `record` ("Looking back at move 7
/// of 9, O's b2-c4"), the move named as the list names it (`rows` and
/// their `cells`); the same on a local game and a finished online one.
pub fn lookback_line<G: UiGame>(
    lang: Lang,
    record: &Record<G>,
    rows: &[Row],
    cells: &[MoveNo],
    ply: usize,
) -> Option<String> {
    if ply == 0 {
        return Some(t!(lang, "lookback.start").to_string());
    }
    let m = cells.iter().copied().find(|m| m.covers(ply))?;
    let text = move_text(record, &m, ply);
    let text = if text == "0000" {
        t!(lang, "movelist.pass").to_string()
    } else {
        text
    };
    Some(t!(
        lang,
        "lookback.at",
        n = m.number,
        total = rows.last().map_or(0, |r| r.number),
        side = G::side_name(lang, m.side),
        move = text
    ))
}
