//! The local game's controls: the row of buttons under the board (new
//! game, pause, undo, redo, share, hint, the result again, the clock
//! length), the clock choices also offered by Settings and New game, and
//! the game as text (export and import).

use leptos::prelude::*;

use crate::i18n::Lang;
use crate::t;
use crate::ui::words::use_lang;

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

/// The row of buttons of a game on this device.
#[component]
pub fn LocalControls(
    on_new_game: Callback<()>,
    #[prop(into)] paused: Signal<bool>,
    #[prop(into)] over: Signal<bool>,
    on_pause: Callback<()>,
    #[prop(into)] can_undo: Signal<bool>,
    #[prop(into)] can_redo: Signal<bool>,
    /// Undo (`true`) or Redo (`false`).
    on_step: Callback<bool>,
    on_share: Callback<()>,
    /// The Hint button, when there is a computer to ask.
    #[prop(default = None)]
    on_hint: Option<Callback<()>>,
    #[prop(into)] hint_enabled: Signal<bool>,
    /// The result card was closed: offer to show it again.
    #[prop(into)]
    result_closed: Signal<bool>,
    on_show_result: Callback<()>,
    /// Seconds per move, and a new choice of them.
    #[prop(into)]
    clock_secs: Signal<u32>,
    on_clock: Callback<u32>,
    /// Offer the clock choice (not for a game played online: its clock
    /// was the server's).
    #[prop(default = true)]
    clock_choice: bool,
) -> impl IntoView {
    let lang = use_lang();
    let word = move |key: fn(Lang) -> &'static str| move || key(lang.get());
    let change_clock = move |ev: leptos::ev::Event| {
        on_clock.run(
            event_target_value(&ev)
                .parse()
                .unwrap_or(DEFAULT_CLOCK_SECS),
        )
    };
    let hint = on_hint.map(|cb| {
        view! {
            <button on:click=move |_| cb.run(()) data-testid="hint" disabled=move || !hint_enabled.get()>{word(|l| t!(l, "game.hint"))}</button>
        }
    });
    view! {
        <div class="controls">
            <button on:click=move |_| on_new_game.run(()) data-testid="new-game">{word(|l| t!(l, "game.new_game"))}</button>
            <button on:click=move |_| on_pause.run(()) data-testid="pause" disabled=move || over.get()>
                {move || if paused.get() { t!(lang.get(), "game.resume") } else { t!(lang.get(), "game.pause") }}
            </button>
            <button on:click=move |_| on_step.run(true) data-testid="undo" disabled=move || !can_undo.get()>{word(|l| t!(l, "game.undo"))}</button>
            <button on:click=move |_| on_step.run(false) data-testid="redo" disabled=move || !can_redo.get()>{word(|l| t!(l, "game.redo"))}</button>
            <button on:click=move |_| on_share.run(()) data-testid="share">{word(|l| t!(l, "game.share"))}</button>
            {hint}
            <Show when=move || over.get() && result_closed.get()>
                <button on:click=move |_| on_show_result.run(()) data-testid="show-result">{word(|l| t!(l, "game.show_result"))}</button>
            </Show>
            {clock_choice.then(|| view! {
                <label class="clock-choice">
                    {word(|l| t!(l, "game.clock"))}" "
                    <select on:change=change_clock aria-label=word(|l| t!(l, "game.clock_aria"))>
                        {clock_options(lang, move || clock_secs.get())}
                    </select>
                </label>
            })}
        </div>
    }
}

/// The game as text in a folded box: the moves to copy, or a game to paste
/// and import (`on_import` gets the box's text).
#[component]
pub fn GameText(#[prop(into)] text: Signal<String>, on_import: Callback<String>) -> impl IntoView {
    let lang = use_lang();
    let area = NodeRef::<leptos::html::Textarea>::new();
    let import = move |_| {
        if let Some(area) = area.get_untracked() {
            on_import.run(area.value());
        }
    };
    view! {
        <details class="game-text">
            <summary>{move || t!(lang.get(), "text.summary")}</summary>
            <textarea node_ref=area rows="5" aria-label=move || t!(lang.get(), "text.aria") data-testid="game-text"
                prop:value=move || text.get()></textarea>
            <button on:click=import data-testid="import">{move || t!(lang.get(), "text.import")}</button>
        </details>
    }
}
