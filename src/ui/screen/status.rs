//! The lines that say what is going on: the turn line under the board
//! (the status, online also whose turn it is for you, then the clock) and
//! the computer's thinking line.

use leptos::prelude::*;

use crate::client::score::format_score;
use crate::t;
use crate::ui::words::use_lang;

/// The turn line: the status ("X to move", the result), online the line
/// about your turn, then the clock given as children.
#[component]
pub fn TurnLine(
    #[prop(into)] status: Signal<String>,
    /// Online: "Your turn", "Their turn", "Sending…" (nothing when watching).
    #[prop(optional, into)]
    turn: Option<Signal<Option<String>>>,
    children: Children,
) -> impl IntoView {
    let status = view! { <p class="status" data-testid="status">{move || status.get()}</p> };
    let text = match turn {
        Some(turn) => view! {
            <div class="turn-text">
                {status}
                <p class="turn" data-testid="turn">{move || turn.get()}</p>
            </div>
        }
        .into_any(),
        None => status.into_any(),
    };
    view! { <div class="turn-line">{text}{children()}</div> }
}

/// "The computer is thinking" with its search so far, while it thinks.
#[component]
pub fn ThinkingLine(
    #[prop(into)] thinking: Signal<bool>,
    /// Depth, score and nodes per second of the search so far.
    #[prop(into)]
    line: Signal<Option<(u32, i32, u64)>>,
    /// The name of the side the score is for: the side thinking (issue 36:
    /// "depth 10 · X −0.31 · …", not a bare number).
    #[prop(into)]
    side: Signal<String>,
) -> impl IntoView {
    let lang = use_lang();
    let text = move || {
        let lang = lang.get();
        let line = line.get().map(|(depth, score, nps)| {
            t!(
                lang,
                "computer.line_for",
                depth = depth,
                side = side.get(),
                score = format_score(lang, score),
                speed = format!("{:.0}", nps as f64 / 1000.0)
            )
        });
        t!(lang, "computer.thinking", line = line.unwrap_or_default())
    };
    view! {
        <Show when=move || thinking.get()>
            <p class="thinking" data-testid="thinking" role="status">
                <span class="spinner" aria-hidden="true"></span>
                {text}
            </p>
        </Show>
    }
}
