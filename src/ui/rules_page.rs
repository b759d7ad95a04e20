//! A rules page (`?rules=stones`): the text of [`super::rules_text`] laid
//! out, with a button to start playing.

use leptos::prelude::*;

use super::rules_text::{RulesPage, ATAXX, MILL, STONES};
use super::Nav;
use crate::games::GameKind;

/// The rules text of a game.
pub fn rules_of(kind: GameKind) -> &'static RulesPage {
    match kind {
        GameKind::Ataxx => &ATAXX,
        GameKind::Stones => &STONES,
        GameKind::Mill => &MILL,
    }
}

/// The rules page of `kind`.
#[component]
pub fn RulesView(kind: GameKind) -> impl IntoView {
    let nav = expect_context::<Nav>();
    let page = rules_of(kind);
    let sections = page
        .sections
        .iter()
        .map(|s| {
            view! {
                <section>
                    <h2>{s.heading}</h2>
                    {s.paragraphs.iter().map(|p| view! { <p>{*p}</p> }).collect_view()}
                    {(!s.bullets.is_empty()).then(|| view! {
                        <ul>{s.bullets.iter().map(|b| view! { <li>{*b}</li> }).collect_view()}</ul>
                    })}
                </section>
            }
        })
        .collect_view();
    view! {
        <article class="rules" data-testid="rules-page">
            <h1>{page.title}</h1>
            <p class="summary">{page.summary}</p>
            {sections}
            <button class="primary" data-testid="rules-play" on:click=move |_| nav.new_game(kind)>
                {format!("Play {}", page.title)}
            </button>
        </article>
    }
}
