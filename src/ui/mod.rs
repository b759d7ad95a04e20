//! The Leptos app (wasm32 only): components; rules come from [`crate::games`].

pub mod ai;
pub mod bench;
pub mod board;
pub mod clock;
pub mod game;
pub mod games;
pub mod link;
pub mod mill_rules;

use leptos::prelude::*;

use crate::ai::Level;
use crate::games::ataxx::Ataxx;
use crate::games::mill::Mill;
use crate::games::stones::Stones;
use crate::games::{Game, Record, Side};
use game::{GameScreen, Opponent};
use games::{GameKind, UiGame};
use link::Loaded;

/// What is being played: the game (with its record) and the computer's seat.
#[derive(Clone, Debug, PartialEq)]
struct Setup {
    game: Loaded,
    opponent: Option<Opponent>,
}

/// The game screen for one game type, keeping the link in step.
fn screen<G: UiGame>(record: Record<G>, opponent: Option<Opponent>) -> AnyView {
    let on_change = Callback::new(move |r: Record<G>| link::reflect(&r, opponent));
    view! { <GameScreen<G> initial=record on_change=on_change opponent=opponent/> }.into_any()
}

/// The whole app: game, mode and rules pickers over the game screen. The
/// game in play is always reflected in the page's link.
#[component]
pub fn App() -> impl IntoView {
    provide_context(ai::Ai::new());
    let bench = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|q| q.trim_start_matches('?').split('&').any(|kv| kv == "bench"));
    if bench {
        return view! { <main><bench::BenchPanel/></main> }.into_any();
    }
    let (first, link_error) = match link::from_location() {
        Ok(Some((game, opponent))) => (Setup { game, opponent }, None),
        Ok(None) => (
            Setup {
                game: Loaded::new_game(GameKind::Ataxx, false),
                opponent: None,
            },
            None,
        ),
        Err(e) => (
            Setup {
                game: Loaded::new_game(GameKind::Ataxx, false),
                opponent: None,
            },
            Some(e),
        ),
    };
    let current = RwSignal::new(first);
    let error = RwSignal::new(link_error);
    let kind = Memo::new(move |_| current.with(|s| s.game.kind()));
    let opponent = Memo::new(move |_| current.with(|s| s.opponent));

    let restart = move |kind: GameKind, opponent: Option<Opponent>| {
        error.set(None);
        current.set(Setup {
            game: Loaded::new_game(kind, opponent.is_some()),
            opponent,
        });
    };
    let tabs = GameKind::ALL
        .into_iter()
        .map(|k| {
            view! {
                <button class="tab" aria-pressed=move || (kind.get() == k).to_string()
                    data-testid=format!("pick-{}", k.slug())
                    on:click=move |_| restart(k, opponent.get_untracked())>
                    <span class="tab-title">{k.title()}</span>
                    <span class="tab-line">{k.tagline()}</span>
                </button>
            }
        })
        .collect_view();

    let side_names = move |side: Side| match kind.get() {
        GameKind::Ataxx => <Ataxx as UiGame>::side_name(side),
        GameKind::Stones => <Stones as UiGame>::side_name(side),
        GameKind::Mill => <Mill as UiGame>::side_name(side),
    };
    let set_mode = move |ev: leptos::ev::Event| {
        let opp = (event_target_value(&ev) == "computer").then_some(Opponent {
            side: Side::Second,
            level: Level::Intermediate,
        });
        restart(kind.get_untracked(), opp);
    };
    let set_level = move |ev: leptos::ev::Event| {
        if let (Ok(level), Some(o)) = (
            event_target_value(&ev).parse::<Level>(),
            opponent.get_untracked(),
        ) {
            restart(kind.get_untracked(), Some(Opponent { level, ..o }));
        }
    };
    let set_side = move |ev: leptos::ev::Event| {
        let human = if event_target_value(&ev) == "second" {
            Side::Second
        } else {
            Side::First
        };
        if let Some(o) = opponent.get_untracked() {
            restart(
                kind.get_untracked(),
                Some(Opponent {
                    side: human.opponent(),
                    ..o
                }),
            );
        }
    };
    let mode_bar = move || {
        let opp = opponent.get();
        view! {
            <div class="setup-bar">
                <label>
                    "Mode "
                    <select on:change=set_mode data-testid="mode" aria-label="mode">
                        <option value="local" selected=opp.is_none()>"Two players"</option>
                        <option value="computer" selected=opp.is_some()>"Against the computer"</option>
                    </select>
                </label>
                {opp.map(|o| view! {
                    <label>
                        "Level "
                        <select on:change=set_level data-testid="level" aria-label="computer level">
                            {Level::ALL.iter().map(|&l| view! {
                                <option value=l.slug() selected=l == o.level>{l.name()}</option>
                            }).collect_view()}
                        </select>
                    </label>
                    <label>
                        "You play "
                        <select on:change=set_side data-testid="side" aria-label="your side">
                            <option value="first" selected=o.side == Side::Second>{side_names(Side::First)}" (first)"</option>
                            <option value="second" selected=o.side == Side::First>{side_names(Side::Second)}" (second)"</option>
                        </select>
                    </label>
                })}
            </div>
        }
    };

    let mill_rules = move || {
        (kind.get() == GameKind::Mill).then(|| {
            let rules = current.with_untracked(|c| match &c.game {
                Loaded::Mill(r) => *r.position().rules(),
                _ => Default::default(),
            });
            let on_change = Callback::new(move |r| {
                current.update(|c| c.game = Loaded::Mill(Record::new(Mill::start(&r))));
            });
            view! { <mill_rules::MillRulesPicker rules=rules on_change=on_change/> }
        })
    };

    let game_screen = move || {
        let Setup { game, opponent } = current.get();
        match game {
            Loaded::Ataxx(r) => screen(r, opponent),
            Loaded::Stones(r) => screen(r, opponent),
            Loaded::Mill(r) => screen(r, opponent),
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
            <div class="setup">
                {mode_bar}
                {mill_rules}
            </div>
            {game_screen}
        </main>
    }
    .into_any()
}

/// Mounts the app on the page's body.
pub fn mount() {
    leptos::mount::mount_to_body(App);
}
