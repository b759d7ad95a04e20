//! The choice of game, written once: one radio button per game with its
//! title, under a legend. The New game dialog and the online setup form
//! both use it.

use leptos::prelude::*;

use super::games::game_title;
use super::words::use_lang;
use crate::games::GameKind;

/// One radio button per game; `name` is the radio group and `{testid}-{slug}`
/// each button's test id. `chosen` is checked, `on_pick` hears a choice.
#[component]
pub fn GamePicker(
    name: &'static str,
    testid: &'static str,
    legend: Signal<&'static str>,
    chosen: Signal<GameKind>,
    on_pick: Callback<GameKind>,
) -> impl IntoView {
    let lang = use_lang();
    let games = GameKind::ALL
        .into_iter()
        .map(|k| {
            view! {
                <label class="choice">
                    <input type="radio" name=name data-testid=format!("{testid}-{}", k.slug())
                        prop:checked=move || chosen.get() == k
                        on:change=move |_| on_pick.run(k)/>
                    <span>{move || game_title(lang.get(), k)}</span>
                </label>
            }
        })
        .collect_view();
    view! {
        <fieldset class="choices">
            <legend>{legend}</legend>
            {games}
        </fieldset>
    }
}
