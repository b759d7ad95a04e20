//! A rules page (`?rules=stones`): the game's rules text from the language
//! tables (`rules.GAME.…` keys, see [`crate::i18n::rules_sections`]) laid
//! out, with a button to start playing. A section's board diagrams
//! ([`crate::client::diagram`]) follow its text, drawn by the game's own
//! board component in its read-only mode: the position with its move drawn
//! as the game screen draws a last move and a hint.

use leptos::prelude::*;

use super::board::BoardProps;
use super::games::game_title;
use super::games::UiGame;
use super::page::Nav;
use super::words::use_lang;
use crate::client::diagram::{find, Diagram};
use crate::i18n::{lookup, rules_sections, Lang};
use crate::t;

/// The text of a rules key built at run time (it exists: the structure
/// comes from the English table).
fn rules_text(lang: Lang, key: &str) -> &'static str {
    lookup(lang, key).unwrap_or_default()
}

/// The rules page of `G` (drawn from that game's chunk: its diagrams need
/// its board, which the game screen has too).
pub fn rules_view<G: UiGame>() -> AnyView {
    let kind = G::KIND;
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
            let diagrams = (!s.diagrams.is_empty()).then(|| {
                let figures = s
                    .diagrams
                    .into_iter()
                    .map(rules_diagram::<G>)
                    .collect_view();
                view! { <div class="rules-diagrams">{figures}</div> }
            });
            let heading = s.heading;
            view! {
                <section>
                    <h2>{move || rules_text(lang.get(), &heading)}</h2>
                    {paragraphs}
                    {bullets}
                    {diagrams}
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
    .into_any()
}

/// One board diagram with its caption (`caption` is its key); left out if
/// it is not a diagram of `G`.
fn rules_diagram<G: UiGame>(caption: String) -> Option<AnyView> {
    let lang = use_lang();
    let diagram = find(&caption).filter(|d| d.game == G::KIND)?;
    let key = caption.clone();
    let text = Signal::derive(move || rules_text(lang.get(), &key));
    let label = Signal::derive(move || t!(lang.get(), "rules.diagram", caption = text.get()));
    let board = diagram_board::<G>(diagram, label)?;
    Some(
        view! {
            <figure class="rules-diagram" data-testid="rules-diagram" data-caption=caption>
                {board}
                <figcaption>{move || caption_words(text.get())}</figcaption>
            </figure>
        }
        .into_any(),
    )
}

/// A caption's words, with move notation (c3-e5, d1-d2-d3, c3xf6-g7) kept
/// on one line: a narrow caption would otherwise break it at its hyphen.
fn caption_words(text: &str) -> Vec<AnyView> {
    text.split(' ')
        .enumerate()
        .map(|(i, word)| {
            let space = if i == 0 { "" } else { " " };
            let word = word.to_string();
            if word.contains('-') && word.chars().any(|c| c.is_ascii_digit()) {
                view! { {space}<span class="nowrap">{word}</span> }.into_any()
            } else {
                view! { {space}{word} }.into_any()
            }
        })
        .collect()
}

/// The read-only board of `diagram`: its position, the move drawn as a
/// mark (and, when already played, as the last move). A diagram whose move
/// is not legal is left out (tests/rules_diagrams.rs keeps them legal).
fn diagram_board<G: UiGame>(diagram: &Diagram, label: Signal<String>) -> Option<AnyView> {
    let (record, mv) = diagram.build::<G>().ok()?;
    Some(G::board(BoardProps {
        record: Signal::stored(record),
        enabled: Signal::stored(false),
        hints: Signal::stored(false),
        on_move: Callback::new(|_| {}),
        flipped: false,
        on_stuck: Callback::new(|_| {}),
        marked: Signal::stored(Some(G::mark(mv))),
        read_only: Some(label),
    }))
}
