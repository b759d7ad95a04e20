//! A rules page (`?rules=stones`): the game's rules text from the language
//! tables (`rules.GAME.…` keys, see [`crate::i18n::rules_sections`]) laid
//! out, with a button to start playing.

use leptos::prelude::*;

use super::words::{game_title, use_lang};
use super::Nav;
use crate::games::GameKind;
use crate::i18n::{lookup, rules_sections, Lang};
use crate::t;

/// The text of a rules key built at run time (it exists: the structure
/// comes from the English table).
fn rules_text(lang: Lang, key: &str) -> &'static str {
    lookup(lang, key).unwrap_or_default()
}

/// The rules page of `kind`.
#[component]
pub fn RulesView(kind: GameKind) -> impl IntoView {
    let nav = expect_context::<Nav>();
    let lang = use_lang();
    let slug = kind.slug();
    let sections = rules_sections(slug)
        .into_iter()
        .map(|s| {
            let paragraphs = s
                .paragraphs
                .into_iter()
                .map(|k| view! { <p>{move || rules_text(lang.get(), &k)}</p> })
                .collect_view();
            let bullets = (!s.bullets.is_empty()).then(|| {
                let items = s
                    .bullets
                    .into_iter()
                    .map(|k| view! { <li>{move || rules_text(lang.get(), &k)}</li> })
                    .collect_view();
                view! { <ul>{items}</ul> }
            });
            let heading = s.heading;
            view! {
                <section>
                    <h2>{move || rules_text(lang.get(), &heading)}</h2>
                    {paragraphs}
                    {bullets}
                </section>
            }
        })
        .collect_view();
    let summary = format!("rules.{slug}.summary");
    view! {
        <article class="rules" data-testid="rules-page">
            <h1>{move || game_title(lang.get(), kind)}</h1>
            <p class="summary">{move || rules_text(lang.get(), &summary)}</p>
            {sections}
            <button class="primary" data-testid="rules-play" on:click=move |_| nav.new_game(kind)>
                {move || t!(lang.get(), "rules.play", game = game_title(lang.get(), kind))}
            </button>
        </article>
    }
}
