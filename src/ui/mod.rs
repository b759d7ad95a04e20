//! The Leptos app (wasm32 only): components; rules come from [`crate::games`].

pub mod board;
pub mod clock;
pub mod game;
pub mod games;
pub mod link;
pub mod mill_rules;

use leptos::prelude::*;

use crate::games::ataxx::Ataxx;
use crate::games::mill::Mill;
use crate::games::stones::Stones;
use crate::games::{Game, Record};
use game::GameScreen;
use games::GameKind;
use link::Loaded;

/// The whole app: a game picker (and Mill's rules picker) over the game
/// screen. The game in play is always reflected in the page's link.
#[component]
pub fn App() -> impl IntoView {
    let (first, link_error) = match link::from_location() {
        Ok(Some(loaded)) => (loaded, None),
        Ok(None) => (Loaded::new_game(GameKind::Ataxx), None),
        Err(e) => (Loaded::new_game(GameKind::Ataxx), Some(e)),
    };
    let current = RwSignal::new(first);
    let error = RwSignal::new(link_error);
    let kind = Memo::new(move |_| current.with(Loaded::kind));

    let pick = move |k: GameKind| {
        error.set(None);
        current.set(Loaded::new_game(k));
    };
    let tabs = GameKind::ALL
        .into_iter()
        .map(|k| {
            view! {
                <button class="tab" aria-pressed=move || (kind.get() == k).to_string()
                    data-testid=format!("pick-{}", k.slug()) on:click=move |_| pick(k)>
                    <span class="tab-title">{k.title()}</span>
                    <span class="tab-line">{k.tagline()}</span>
                </button>
            }
        })
        .collect_view();

    let mill_rules = move || {
        let rules = current.with_untracked(|c| match c {
            Loaded::Mill(r) => Some(*r.position().rules()),
            _ => None,
        });
        (kind.get() == GameKind::Mill).then(|| {
            let rules = rules.unwrap_or_default();
            let on_change = Callback::new(move |r| {
                current.set(Loaded::Mill(Record::new(Mill::start(&r))));
            });
            view! { <mill_rules::MillRulesPicker rules=rules on_change=on_change/> }
        })
    };

    let screen = move || {
        match current.get() {
        Loaded::Ataxx(r) => view! {
            <GameScreen<Ataxx> initial=r on_change=Callback::new(|r: Record<Ataxx>| link::reflect(&r))/>
        }
        .into_any(),
        Loaded::Stones(r) => view! {
            <GameScreen<Stones> initial=r on_change=Callback::new(|r: Record<Stones>| link::reflect(&r))/>
        }
        .into_any(),
        Loaded::Mill(r) => view! {
            <GameScreen<Mill> initial=r on_change=Callback::new(|r: Record<Mill>| link::reflect(&r))/>
        }
        .into_any(),
    }
    };

    view! {
        <header class="topbar">
            <h1><span class="logo" aria-hidden="true">"◆"</span>" Stoneplay"</h1>
            <nav class="tabs" aria-label="games">{tabs}</nav>
        </header>
        {move || error.get().map(|e| view! {
            <div class="banner error" role="alert" data-testid="link-error">
                <span>{format!("This link could not be opened: {e}. A new game was started instead.")}</span>
                <button on:click=move |_| error.set(None) aria-label="dismiss">"✕"</button>
            </div>
        })}
        <main>
            {mill_rules}
            {screen}
        </main>
    }
}

/// Mounts the app on the page's body.
pub fn mount() {
    leptos::mount::mount_to_body(App);
}
