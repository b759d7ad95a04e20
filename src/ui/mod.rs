//! The Leptos app (wasm32 only): components; rules come from [`crate::games`].
//!
//! Pages, each with its own link so Back and reload work: the home screen
//! (`?`), a rules page (`?rules=mill`), a game (`?game=…`, kept in step with
//! every move), online play (`?online`, `?online=ROOM`, `?watch=ROOM`: see
//! [`online`]) and the search benchmark (`?bench`).

pub mod address;
pub mod ai;
pub mod bench;
pub mod board;
pub mod clock;
pub mod game;
pub mod games;
pub mod home;
mod lazy;
pub mod link;
pub mod mill_rules;
pub mod new_game;
pub mod notation;
pub mod online;
pub mod page;
pub mod picker;
pub mod review;
pub mod rules_page;
pub mod screen;
pub mod settings;
pub mod share;
pub mod sound;
pub mod store;
pub mod words;

use leptos::prelude::*;

use crate::games::GameKind;
use crate::i18n::Lang;
use crate::t;
use game::{BoardCover, GameScreen, SavePoint};
use games::UiGame;
use games::{game_tagline, game_title};
use page::{location_query, new_id, page_for, Nav, Page, Setup};
use words::Problem;

/// The game screen for one game type, keeping the link and the saved game
/// in step and counting results against the computer. A link whose game
/// cannot be read is reported as every malformed link is, over the home
/// screen.
fn screen<G: UiGame>(
    setup: &Setup,
    clock_secs: u32,
    new_game: RwSignal<bool>,
    review: Callback<review::ReviewArgs<G>, AnyView>,
) -> AnyView {
    let record = match link::parse_query(&setup.query).and_then(|p| link::load::<G>(&p)) {
        Ok(record) => record,
        Err(problem) => {
            let LinkBanner(error) = expect_context();
            let nav = expect_context::<Nav>();
            // Not while the page is being drawn.
            request_animation_frame(move || {
                error.set(Some(problem));
                nav.0.set(Page::Home);
            });
            return ().into_any();
        }
    };
    let opponent = setup.opponent;
    // The saved game's id: the setup's for the game the screen opened
    // with, a new one for each New game or Rematch after it, so a finished
    // game is not overwritten by the next.
    let ids = StoredValue::new((0u32, setup.id));
    // Called at once when the screen opens too: a new game's link, which
    // names only what the settings chose, becomes the link as the game
    // writes it.
    let on_change = Callback::new(move |snap: SavePoint<G>| {
        link::reflect(&snap.record, opponent);
        // A game only opened, with nothing played yet, is not a recent game.
        if !snap.keep {
            return;
        }
        let (game_no, id) = ids.get_value();
        let id = if game_no == snap.game_no {
            id
        } else {
            let id = new_id();
            ids.set_value((snap.game_no, id));
            id
        };
        store::save_game(store::SavedGame {
            id,
            query: link::query_with(&snap.record, opponent),
            kind: G::KIND,
            clock_left_ms: snap.clock_left_ms,
            plies: snap.record.moves().len(),
            outcome: snap.record.outcome(),
            updated: store::now_epoch_ms(),
            online: None,
        });
    });
    let on_finish = Callback::new(move |outcome| {
        if let Some(o) = opponent {
            store::record_result(G::KIND, o.level, o.side.opponent(), outcome);
        }
    });
    view! {
        <GameScreen<G> initial=record clock_secs=clock_secs resume=setup.resume.clone()
            on_change=on_change on_finish=on_finish opponent=opponent
            on_new_game=Callback::new(move |()| new_game.set(true)) review=review/>
    }
    .into_any()
}

/// What is wrong with the page's link, shown in a banner until dismissed.
#[derive(Clone, Copy)]
struct LinkBanner(RwSignal<Option<Problem>>);

/// The whole app.
#[component]
pub fn App() -> impl IntoView {
    provide_context(ai::Ai::new());
    let settings = RwSignal::new(store::load_settings());
    provide_context(settings);
    settings::apply_effects(settings);
    let lang: Signal<Lang> = settings::language(settings);
    provide_context(lang);
    settings::apply_language(lang);

    let (first, link_error) = match page_for(&location_query()) {
        Ok(p) => (p, None),
        Err(e) => {
            // The banner says what was wrong; the address no longer holds
            // it, so a reload starts afresh instead of showing the error
            // again (issue 36).
            page::replace_query("");
            (Page::Home, Some(e))
        }
    };
    let page = RwSignal::new(first);
    let nav = Nav(page);
    provide_context(nav);
    let error = RwSignal::new(link_error);
    provide_context(LinkBanner(error));
    let show_settings = RwSignal::new(false);
    let show_new_game = RwSignal::new(false);
    // A local game's clock stops while a panel or dialog is over the board.
    provide_context(BoardCover(Signal::derive(move || {
        show_settings.get() || show_new_game.get()
    })));

    // A new version is installed and waiting (index.html's service worker
    // script says so): offer to switch instead of mixing versions.
    let global = || -> wasm_bindgen::JsValue { js_sys::global().into() };
    let waiting = || {
        js_sys::Reflect::get(&global(), &"stoneplayUpdateWaiting".into())
            .is_ok_and(|v| v.is_truthy())
    };
    let update = RwSignal::new(waiting());
    let update_listener =
        window_event_listener_untyped("stoneplay-update", move |_| update.set(true));
    on_cleanup(move || update_listener.remove());
    let apply_update = move |_| {
        if let Ok(f) = js_sys::Reflect::get(&global(), &"stoneplayApplyUpdate".into()) {
            if let Some(f) = wasm_bindgen::JsCast::dyn_ref::<js_sys::Function>(&f) {
                let _ = f.call0(&wasm_bindgen::JsValue::NULL);
            }
        }
    };

    // Back and Forward re-read the link.
    let popstate = window_event_listener(leptos::ev::popstate, move |_| {
        match page_for(&location_query()) {
            Ok(p) => page.set(p),
            Err(e) => error.set(Some(e)),
        }
    });
    on_cleanup(move || popstate.remove());

    let kind = Memo::new(move |_| match page.get() {
        Page::Play(s) => Some(s.kind),
        Page::Rules(k) => Some(k),
        _ => None,
    });
    let tabs = GameKind::ALL
        .into_iter()
        .map(|k| {
            view! {
                <button class="tab" aria-pressed=move || (kind.get() == Some(k)).to_string()
                    data-testid=format!("pick-{}", k.slug())
                    on:click=move |_| { error.set(None); nav.new_game(k) }>
                    <span class="tab-title">{move || game_title(lang.get(), k)}</span>
                    <span class="tab-line">{move || game_tagline(lang.get(), k)}</span>
                </button>
            }
        })
        .collect_view();

    // Each page's code is fetched when it is first shown (see `lazy`).
    let parts = lazy::Parts::new();
    let body = move || match page.get() {
        Page::Bench => parts.bench(),
        Page::Home => parts.home(),
        Page::Online(link) => parts.online(link),
        Page::Rules(k) => parts.rules(k),
        Page::Play(setup) => {
            let clock_secs = settings.with_untracked(|s| s.clock_secs);
            parts.game(setup, clock_secs, show_new_game)
        }
    };
    // The New game sheet's code arrives when it is first opened; it then
    // stays mounted (shown and hidden) like before.
    let new_game_wanted =
        Memo::new(move |was: Option<&bool>| was.copied().unwrap_or(false) || show_new_game.get());

    view! {
        <header class="topbar">
            <h1>
                <a href="?" class="home-link" data-testid="home"
                   on:click=move |ev| { ev.prevent_default(); error.set(None); nav.go(Page::Home) }>
                    <span class="logo" aria-hidden="true">"◆"</span>" "{move || t!(lang.get(), "app.name")}
                </a>
            </h1>
            <nav class="tabs" aria-label=move || t!(lang.get(), "nav.games")>{tabs}</nav>
            <button class="new-game-button" data-testid="open-new-game"
                aria-expanded=move || show_new_game.get().to_string()
                on:click=move |_| { show_settings.set(false); show_new_game.set(true) }>
                <span aria-hidden="true">"+"</span>" "{move || t!(lang.get(), "game.new_game")}
            </button>
            <button class="settings-button" data-testid="settings" aria-label=move || t!(lang.get(), "nav.settings")
                aria-expanded=move || show_settings.get().to_string()
                on:click=move |_| { show_new_game.set(false); show_settings.update(|s| *s = !*s) }>
                <span aria-hidden="true">"⚙"</span><span class="label">" "{move || t!(lang.get(), "nav.settings")}</span>
            </button>
        </header>
        {move || new_game_wanted.get().then(|| parts.new_game(show_new_game))}
        <Show when=move || show_settings.get()>
            {move || parts.settings(Callback::new(move |_| show_settings.set(false)))}
        </Show>
        <Show when=move || update.get()>
            <div class="banner update" role="status" data-testid="update">
                <span>{move || t!(lang.get(), "update.available")}</span>
                <button class="primary" data-testid="apply-update" on:click=apply_update>{move || t!(lang.get(), "update.reload")}</button>
            </div>
        </Show>
        {move || error.get().map(|e| view! {
            <div class="banner error" role="alert" data-testid="link-error">
                <span>{move || t!(lang.get(), "link.error", problem = e.describe(lang.get()))}</span>
                <button data-testid="start-afresh" on:click=move |_| { error.set(None); nav.go(Page::Home) }>{move || t!(lang.get(), "link.start_afresh")}</button>
                <button on:click=move |_| error.set(None) aria-label=move || t!(lang.get(), "common.dismiss")>"✕"</button>
            </div>
        })}
        <main>{body}</main>
    }
}

/// Mounts the app on the page's body, once the words of the player's
/// language are at hand (English is built in; another language's table is
/// fetched first, from the service worker's cache after the first visit).
/// If it cannot be fetched the page opens in English and the settings say
/// why.
pub fn mount() {
    let wanted = settings::wanted_language(&store::load_settings());
    if crate::i18n::has_table(wanted) {
        leptos::mount::mount_to_body(App);
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(e) = settings::fetch_table(wanted).await {
            web_sys::console::warn_1(&e.into());
        }
        leptos::mount::mount_to_body(App);
    });
}
