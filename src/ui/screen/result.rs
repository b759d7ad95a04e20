//! The cards over the board: the game-over card (local and online) and the
//! pause cards. A game-over card can be closed to see the final position.

use leptos::prelude::*;

use crate::t;
use crate::ui::words::use_lang;

/// A local game's result: what happened, Rematch, and a close button.
#[component]
pub fn LocalResult(
    #[prop(into)] open: Signal<bool>,
    /// The result line ("X wins …").
    #[prop(into)]
    text: Signal<String>,
    on_close: Callback<()>,
    on_rematch: Callback<()>,
) -> impl IntoView {
    let lang = use_lang();
    view! {
        <Show when=move || open.get()>
            <div class="overlay result closable" data-testid="result" role="dialog" aria-labelledby="result-text">
                <button class="close" data-testid="close-result" aria-label=move || t!(lang.get(), "game.close_result")
                    on:click=move |_| on_close.run(())>"✕"</button>
                <p id="result-text">{move || text.get()}</p>
                <button class="primary" on:click=move |_| on_rematch.run(()) data-testid="rematch">{move || t!(lang.get(), "game.rematch")}</button>
                <p class="overlay-hint">{move || t!(lang.get(), "game.overlay_hint")}</p>
            </div>
        </Show>
    }
}

/// A local game's pause card, with Resume.
#[component]
pub fn LocalPaused(#[prop(into)] paused: Signal<bool>, on_resume: Callback<()>) -> impl IntoView {
    let lang = use_lang();
    view! {
        <Show when=move || paused.get()>
            <div class="overlay">
                <p>{move || t!(lang.get(), "status.paused")}</p>
                <button class="primary" on:click=move |_| on_resume.run(())>{move || t!(lang.get(), "game.resume")}</button>
            </div>
        </Show>
    }
}

/// An online game's result: yours in a word, the result line, Rematch (for
/// the players) and a button to look at the board.
#[component]
pub fn OnlineResult(
    #[prop(into)] open: Signal<bool>,
    /// "You won", "Draw", "X won" for a spectator.
    #[prop(into)]
    title: Signal<Option<String>>,
    /// The result line ("X wins …").
    #[prop(into)]
    line: Signal<Option<String>>,
    /// The rematch button (players only): its words, whether it is off, and
    /// what it does.
    #[prop(into)]
    player: Signal<bool>,
    #[prop(into)] rematch_word: Signal<String>,
    #[prop(into)] rematch_disabled: Signal<bool>,
    on_rematch: Callback<()>,
    /// Who asked for a rematch.
    #[prop(into)]
    note: Signal<Option<String>>,
    on_close: Callback<()>,
    /// Opens the finished game in review.
    on_review: Callback<()>,
) -> impl IntoView {
    let lang = use_lang();
    view! {
        <Show when=move || open.get()>
            <div class="overlay result" data-testid="result">
                <div class="overlay-card">
                    <p class="overlay-title">{move || title.get()}</p>
                    <p data-testid="result-line">{move || line.get()}</p>
                    {move || player.get().then(|| view! {
                        <button class="primary" data-testid="online-rematch" disabled=move || rematch_disabled.get()
                            on:click=move |_| on_rematch.run(())>{move || rematch_word.get()}</button>
                    })}
                    <p class="muted" data-testid="rematch-note">{move || note.get()}</p>
                    <button data-testid="result-review" on:click=move |_| on_review.run(())>{move || t!(lang.get(), "online.review")}</button>
                    <button data-testid="look-at-board" on:click=move |_| on_close.run(())>{move || t!(lang.get(), "online.look_at_board")}</button>
                </div>
            </div>
        </Show>
    }
}

/// An online game's pause card: who paused, when play resumes by itself,
/// and Resume for the player who paused.
#[component]
pub fn OnlinePaused(
    #[prop(into)] paused: Signal<bool>,
    #[prop(into)] title: Signal<String>,
    /// The time left before play resumes by itself.
    #[prop(into)]
    auto_resume: Signal<Option<String>>,
    #[prop(into)] can_resume: Signal<bool>,
    on_resume: Callback<()>,
) -> impl IntoView {
    let lang = use_lang();
    view! {
        <Show when=move || paused.get()>
            <div class="overlay" data-testid="paused">
                <div class="overlay-card">
                    <p class="overlay-title">{move || title.get()}</p>
                    <p>{move || auto_resume.get().map(|l| t!(lang.get(), "online.auto_resume_in", time = l))}</p>
                    <Show when=move || can_resume.get()>
                        <button class="primary" data-testid="resume" on:click=move |_| on_resume.run(())>{move || t!(lang.get(), "online.resume")}</button>
                    </Show>
                </div>
            </div>
        </Show>
    }
}
