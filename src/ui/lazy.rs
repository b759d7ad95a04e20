//! The parts of the page that its wasm fetches when they are first shown.
//!
//! The release build (`make dist`: `.ci/build-page.mjs`, compiled with
//! `--cfg stoneplay_split`) cuts each function below, and the code only it
//! reaches, into its own wasm chunk with `wasm_split_helpers` (re-exported
//! by Leptos). There are six parts: each game's screen, the home screen,
//! online play, and the rest ("extras": the rules pages, the settings, the
//! New game sheet and the benchmark). A first visit to a game fetches the
//! framework, the rules and that one game's screen. Code shared by several
//! parts is a chunk of its own, so fewer parts mean fewer, larger files.
//! The chunks are precached by the service worker like every other file,
//! so the app stays offline, and `pkg/preload.js` asks for the chunks the
//! page's link needs while the main module is still loading.
//!
//! A part is drawn only once its chunk is at hand ([`Parts::ready`] starts
//! the fetch and says when it is done), and then synchronously, under the
//! page's own reactive owner, exactly as in a build without chunks: the
//! view does not live in a future, so its timers and effects are cleaned up
//! with the page. Every other build (the browser tests under wasm-pack,
//! clippy) compiles the same functions as plain calls, always ready.

use leptos::prelude::*;

use super::online::OnlineLink;
use super::Setup;
use crate::games::any::AnyRecord;
use crate::games::GameKind;
use crate::i18n::Lang;
use crate::t;

/// A function whose body is its own wasm chunk in the split build, with a
/// `$preload` that fetches the chunk without calling it.
macro_rules! split {
    ($chunk:ident, $preload:ident: fn $name:ident($($arg:ident: $ty:ty),*) -> AnyView $body:block) => {
        #[cfg_attr(
            stoneplay_split,
            ::leptos::wasm_split::wasm_split(
                $chunk,
                preload($preload),
                fallible,
                wasm_split_path = ::leptos::wasm_split
            )
        )]
        fn $name($($arg: $ty),*) -> Result<AnyView, Unavailable> {
            Ok($body)
        }
    };
}

/// Calls a [`split!`] function whose chunk is loaded: in the split build
/// its future is ready at the first poll (the chunk is in, so there is
/// nothing to wait for).
macro_rules! call {
    ($call:expr) => {{
        #[cfg(stoneplay_split)]
        let view = now($call);
        #[cfg(not(stoneplay_split))]
        let view = $call;
        view.unwrap_or_else(|_| failed_view())
    }};
}

/// A chunk could not be fetched (offline before the service worker had
/// cached it, or the network failed).
#[derive(Debug)]
pub struct Unavailable;

impl From<leptos::wasm_split::SplitLoaderError> for Unavailable {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        Unavailable
    }
}

/// Polls a future once; `Err` if it is not ready (never for a loaded
/// chunk's function).
#[cfg(stoneplay_split)]
fn now<T>(
    fut: impl std::future::Future<Output = Result<T, Unavailable>>,
) -> Result<T, Unavailable> {
    let mut fut = std::pin::pin!(fut);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match fut.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(v) => v,
        std::task::Poll::Pending => Err(Unavailable),
    }
}

split!(home, preload_home: fn home() -> AnyView {
    view! { <super::home::Home/> }.into_any()
});

split!(extras, preload_extras: fn rules(kind: GameKind) -> AnyView {
    view! { <super::rules_page::RulesView kind=kind/> }.into_any()
});

split!(extras, preload_extras_2: fn bench() -> AnyView {
    view! { <super::bench::BenchPanel/> }.into_any()
});

split!(extras, preload_extras_3: fn settings(on_close: Callback<()>) -> AnyView {
    view! { <super::settings::SettingsPanel on_close=on_close/> }.into_any()
});

split!(extras, preload_extras_4: fn new_game(open: RwSignal<bool>) -> AnyView {
    view! { <super::new_game::NewGameDialog open=open/> }.into_any()
});

split!(online, preload_online: fn online(link: OnlineLink) -> AnyView {
    view! { <super::online::OnlinePage link=link/> }.into_any()
});

split!(game_ataxx, preload_ataxx: fn ataxx(setup: Setup, clock_secs: u32, new_game: RwSignal<bool>) -> AnyView {
    match setup.game.clone() {
        AnyRecord::Ataxx(r) => super::screen(r, &setup, clock_secs, new_game),
        _ => unreachable!("ataxx() is called with a Territory Duel game"),
    }
});

split!(game_stones, preload_stones: fn stones(setup: Setup, clock_secs: u32, new_game: RwSignal<bool>) -> AnyView {
    match setup.game.clone() {
        AnyRecord::Stones(r) => super::screen(r, &setup, clock_secs, new_game),
        _ => unreachable!("stones() is called with a Stones! game"),
    }
});

split!(game_mill, preload_mill: fn mill(setup: Setup, clock_secs: u32, new_game: RwSignal<bool>) -> AnyView {
    match setup.game.clone() {
        AnyRecord::Mill(r) => super::screen(r, &setup, clock_secs, new_game),
        _ => unreachable!("mill() is called with a Mill game"),
    }
});

/// The parts, one chunk each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Home,
    Extras,
    Online,
    Ataxx,
    Stones,
    Mill,
}

impl Part {
    /// The part that draws a game's screen.
    pub fn game(kind: GameKind) -> Part {
        match kind {
            GameKind::Ataxx => Part::Ataxx,
            GameKind::Stones => Part::Stones,
            GameKind::Mill => Part::Mill,
        }
    }

    /// Fetches the part's chunk (at once if it is in already).
    #[cfg(stoneplay_split)]
    async fn fetch(self) -> Result<(), Unavailable> {
        Ok(match self {
            Part::Home => preload_home().await?,
            // Each function keeps its own loader: the chunk is fetched
            // once, and each loader must see it in before its function
            // can be called without waiting.
            Part::Extras => {
                preload_extras().await?;
                preload_extras_2().await?;
                preload_extras_3().await?;
                preload_extras_4().await?
            }
            Part::Online => preload_online().await?,
            Part::Ataxx => preload_ataxx().await?,
            Part::Stones => preload_stones().await?,
            Part::Mill => preload_mill().await?,
        })
    }
}

/// Where each part's chunk is: one signal per part, so that a page is
/// drawn again only when its own part arrives. The app holds one.
#[derive(Clone, Copy)]
pub struct Parts([RwSignal<State>; 6]);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Missing,
    Loading,
    Ready,
    /// Only the split build fetches anything.
    #[cfg_attr(not(stoneplay_split), allow(dead_code))]
    Failed,
}

impl Parts {
    pub fn new() -> Self {
        let start = if cfg!(stoneplay_split) {
            State::Missing
        } else {
            State::Ready
        };
        Parts(std::array::from_fn(|_| RwSignal::new(start)))
    }

    /// Whether `part`'s code is at hand (tracked); starts fetching it if
    /// not. `Some(false)`: it could not be fetched.
    fn ready(self, part: Part) -> Option<bool> {
        let state = self.0[part as usize];
        match state.get() {
            State::Ready => Some(true),
            State::Failed => Some(false),
            State::Loading => None,
            State::Missing => {
                self.fetch(part);
                None
            }
        }
    }

    /// Fetches `part` in the background; the signal says when it is in.
    fn fetch(self, part: Part) {
        let state = self.0[part as usize];
        state.set(State::Loading);
        #[cfg(stoneplay_split)]
        leptos::task::spawn_local(async move {
            let done = match part.fetch().await {
                Ok(()) => State::Ready,
                Err(Unavailable) => State::Failed,
            };
            state.set(done);
        });
    }

    /// Draws `part` with `draw` once it is in: nothing while it loads, a
    /// notice with Retry if it could not be fetched.
    fn view(self, part: Part, draw: impl FnOnce() -> AnyView) -> AnyView {
        match self.ready(part) {
            Some(true) => draw(),
            Some(false) => {
                let lang = expect_context::<Signal<Lang>>();
                view! {
                    <div class="banner error" role="alert" data-testid="part-failed">
                        <span>{move || t!(lang.get(), "page.part_failed")}</span>
                        <button on:click=move |_| self.fetch(part)>{move || t!(lang.get(), "page.retry")}</button>
                    </div>
                }
                .into_any()
            }
            None => ().into_any(),
        }
    }

    /// The home screen.
    pub fn home(self) -> AnyView {
        self.view(Part::Home, || call!(home()))
    }

    /// A game's rules page.
    pub fn rules(self, kind: GameKind) -> AnyView {
        self.view(Part::Extras, move || call!(rules(kind)))
    }

    /// The search benchmark.
    pub fn bench(self) -> AnyView {
        self.view(Part::Extras, || call!(bench()))
    }

    /// The settings panel.
    pub fn settings(self, on_close: Callback<()>) -> AnyView {
        self.view(Part::Extras, move || call!(settings(on_close)))
    }

    /// The "New game" sheet.
    pub fn new_game(self, open: RwSignal<bool>) -> AnyView {
        self.view(Part::Extras, move || call!(new_game(open)))
    }

    /// Online play: the lobby, a room or a watched game.
    pub fn online(self, link: OnlineLink) -> AnyView {
        self.view(Part::Online, move || call!(online(link)))
    }

    /// A game's screen.
    pub fn game(self, setup: Setup, clock_secs: u32, new_game: RwSignal<bool>) -> AnyView {
        let part = Part::game(setup.game.kind());
        self.view(part, move || match part {
            Part::Ataxx => call!(ataxx(setup, clock_secs, new_game)),
            Part::Stones => call!(stones(setup, clock_secs, new_game)),
            _ => call!(mill(setup, clock_secs, new_game)),
        })
    }
}

/// What a part shows if its function could not run (never expected: it is
/// called only once its chunk is in).
fn failed_view() -> AnyView {
    ().into_any()
}
