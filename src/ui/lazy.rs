//! The parts of the page that its wasm fetches when they are first shown.
//!
//! The release build (`make dist`: `.ci/build-page.mjs`, compiled with
//! `--cfg stoneplay_split`) cuts each function below, and the code only it
//! reaches, into its own wasm chunk with `wasm_split_helpers` (re-exported
//! by Leptos). There are eleven parts: each game's screen, the review panel
//! (shown once a game against the computer is over), the home screen,
//! online play (seats, connection and the cards around a room), each
//! game's online screen, the community part (the online setup form with
//! the name card and the lobby, the player page and the leaderboards:
//! neither the home screen nor a game nor a room's link fetches it), and
//! the rest ("extras": the settings, the New game sheet and
//! the benchmark). A game's rules page is in its game's part: its diagrams
//! are drawn by the game's board. A first visit to a game fetches the
//! framework and that one game: its screen reads the link into a record,
//! so the first module carries no game's rules. Code shared by several
//! parts is a chunk of its own, so fewer parts mean fewer, larger files.
//! The chunks are precached by the service worker like every other file,
//! so the app stays offline, and `pkg/preload.js` asks for the chunks the
//! page's link needs while the main module is still loading.
//!
//! A part is drawn only once its chunk is at hand ([`Parts::view`] starts
//! the fetch and says when it is done), and then synchronously, under the
//! page's own reactive owner, exactly as in a build without chunks: the
//! view does not live in a future, so its timers and effects are cleaned up
//! with the page. Every other build (the browser tests under wasm-pack,
//! clippy) compiles the same functions as plain calls, always ready.

use leptos::prelude::*;

use super::online::room::online_game;
use super::online::socket::Driver;
use super::page::Setup;
use super::review::{review_view, ReviewArgs};
use crate::client::online::link::OnlineLink;
use crate::games::any::Variant;
use crate::games::ataxx::Ataxx;
use crate::games::mill::Mill;
use crate::games::stones::Stones;
use crate::games::{Game, GameKind};
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
        // Never an error: it is called only once its chunk is in.
        view.unwrap_or_else(|_| ().into_any())
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

split!(extras, preload_extras: fn bench() -> AnyView {
    view! { <super::bench::BenchPanel/> }.into_any()
});

split!(extras, preload_extras_1: fn settings(on_close: Callback<()>) -> AnyView {
    view! { <super::settings::SettingsPanel on_close=on_close/> }.into_any()
});

split!(extras, preload_extras_2: fn new_game(open: RwSignal<bool>) -> AnyView {
    view! { <super::new_game::NewGameDialog open=open/> }.into_any()
});

split!(online, preload_online: fn online(parts: Parts, link: OnlineLink) -> AnyView {
    let game = Callback::new(move |(driver, spec): (Driver, Variant)| {
        let part = Part::online(spec.kind());
        parts.view(part, move || online_game_view(driver, spec))
    });
    let setup = Callback::new(move |(driver, server): (Driver, String)| {
        parts.view(Part::Community, move || call!(lobby(driver, server)))
    });
    let player = Callback::new(move |driver: Driver| {
        parts.view(Part::Community, move || call!(player_page(driver)))
    });
    view! { <super::online::OnlinePage link=link game=game setup=setup player=player/> }.into_any()
});

// The community part (issue 37): the online setup form with the name
// card and the lobby, a player's page with its chart, and the
// leaderboards. Neither the home screen nor a game nor a room's link
// fetches it; in the home part they made the home screen's first visit
// 278.6 → 339.0 KB gzip.
split!(community, preload_community: fn player_page(driver: Driver) -> AnyView {
    view! { <super::online::player::PlayerPage driver=driver/> }.into_any()
});

split!(community, preload_community_1: fn lobby(driver: Driver, server: String) -> AnyView {
    view! { <super::online::setup::SetupForm driver=driver server=server/> }.into_any()
});

/// The page's parts of each game, one row per game of the list
/// ([`crate::for_each_game!`]; a game missing here is a compile error in the
/// matches below): the chunk of its screen (the screen and its rules page)
/// and the chunk of its online screen, each function with the loader that
/// fetches its chunk. The names are written out because each is a wasm
/// chunk's name, and `macro_rules!` cannot make identifiers.
macro_rules! game_parts {
    ($(
        $Kind:ident: $G:ty => $chunk:ident($screen:ident, $preload:ident; $rules:ident, $preload_rules:ident),
            $online_chunk:ident($online:ident, $preload_online:ident);
    )*) => {
        $(
            split!($chunk, $preload: fn $screen(parts: Parts, setup: Setup, clock_secs: u32, new_game: RwSignal<bool>) -> AnyView {
                let review = Callback::new(move |args: ReviewArgs<$G>| {
                    parts.view(Part::Extras, move || call!(review(AnyReview::$Kind(args))))
                });
                super::screen::<$G>(&setup, clock_secs, new_game, review)
            });

            split!($chunk, $preload_rules: fn $rules() -> AnyView {
                super::rules_page::rules_view::<$G>()
            });

            split!($online_chunk, $preload_online: fn $online(driver: Driver, rules: <$G as Game>::Rules) -> AnyView {
                online_game::<$G>(driver, &rules)
            });
        )*

        /// A finished game's review panel, of any game.
        enum AnyReview {
            $($Kind(ReviewArgs<$G>),)*
        }

        split!(extras, preload_extras_3: fn review(args: AnyReview) -> AnyView {
            match args {
                $(AnyReview::$Kind(args) => review_view(args),)*
            }
        });

        /// An online game's screen, once its part is in.
        fn online_game_view(driver: Driver, spec: Variant) -> AnyView {
            match spec {
                $(Variant::$Kind(r) => call!($online(driver, r)),)*
            }
        }

        /// A game's rules page, once its part is in.
        fn rules_view(kind: GameKind) -> AnyView {
            match kind {
                $(GameKind::$Kind => call!($rules()),)*
            }
        }

        /// A game's screen, once its part is in.
        fn game_view(parts: Parts, setup: Setup, clock_secs: u32, new_game: RwSignal<bool>) -> AnyView {
            match setup.kind {
                $(GameKind::$Kind => call!($screen(parts, setup, clock_secs, new_game)),)*
            }
        }

        /// Fetches the chunk of a game's screen (`online`: of its online
        /// screen).
        #[cfg(stoneplay_split)]
        async fn fetch_game(kind: GameKind, online: bool) -> Result<(), Unavailable> {
            match (kind, online) {
                // Each function keeps its own loader (see Part::fetch).
                $(
                    (GameKind::$Kind, false) => {
                        $preload().await?;
                        $preload_rules().await?;
                    }
                    (GameKind::$Kind, true) => $preload_online().await?,
                )*
            }
            Ok(())
        }
    };
}

game_parts! {
    Ataxx: Ataxx => game_ataxx(ataxx, preload_ataxx; ataxx_rules, preload_ataxx_rules),
        online_ataxx(online_ataxx, preload_online_ataxx);
    Stones: Stones => game_stones(stones, preload_stones; stones_rules, preload_stones_rules),
        online_stones(online_stones, preload_online_stones);
    Mill: Mill => game_mill(mill, preload_mill; mill_rules, preload_mill_rules),
        online_mill(online_mill, preload_online_mill);
}

/// The parts, one chunk each: four for every game and one per game of
/// the list for its screen and for its online screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Home,
    Extras,
    Online,
    /// The online setup form, the name card, the lobby, the player page
    /// and the leaderboards.
    Community,
    /// A game's screen (with its rules page).
    Game(GameKind),
    /// An online game's screen, one part per game: the online part itself
    /// is the lobby, the seats and the connection.
    OnlineGame(GameKind),
}

/// How many parts there are.
const PARTS: usize = 4 + 2 * GameKind::ALL.len();

impl Part {
    /// The part that draws a game's screen.
    pub fn game(kind: GameKind) -> Part {
        Part::Game(kind)
    }

    /// The part that draws an online game's screen.
    pub fn online(kind: GameKind) -> Part {
        Part::OnlineGame(kind)
    }

    /// The part's place in [`Parts`].
    fn index(self) -> usize {
        match self {
            Part::Home => 0,
            Part::Extras => 1,
            Part::Online => 2,
            Part::Community => 3,
            Part::Game(kind) => 4 + kind as usize,
            Part::OnlineGame(kind) => 4 + GameKind::ALL.len() + kind as usize,
        }
    }

    /// Fetches the part's chunk (at once if it is in already).
    #[cfg(stoneplay_split)]
    async fn fetch(self) -> Result<(), Unavailable> {
        match self {
            Part::Home => preload_home().await?,
            Part::Community => {
                preload_community().await?;
                preload_community_1().await?;
            }
            // Each function keeps its own loader: the chunk is fetched
            // once, and each loader must see it in before its function
            // can be called without waiting.
            Part::Extras => {
                preload_extras().await?;
                preload_extras_1().await?;
                preload_extras_2().await?;
                preload_extras_3().await?;
            }
            Part::Online => preload_online().await?,
            Part::Game(kind) => fetch_game(kind, false).await?,
            Part::OnlineGame(kind) => fetch_game(kind, true).await?,
        }
        Ok(())
    }
}

/// Where each part's chunk is: one signal per part, so that a page is
/// drawn again only when its own part arrives. The app holds one.
#[derive(Clone, Copy)]
pub struct Parts([RwSignal<State>; PARTS]);

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

    /// Where `part`'s code is (tracked); starts fetching it if it is
    /// missing.
    fn state(self, part: Part) -> State {
        let state = self.0[part.index()].get();
        if state == State::Missing {
            self.fetch(part);
            return State::Loading;
        }
        state
    }

    /// Fetches `part` in the background; the signal says when it is in.
    fn fetch(self, part: Part) {
        let state = self.0[part.index()];
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
        match self.state(part) {
            State::Ready => draw(),
            State::Failed => {
                let lang = expect_context::<Signal<Lang>>();
                view! {
                    <div class="banner error" role="alert" data-testid="part-failed">
                        <span>{move || t!(lang.get(), "page.part_failed")}</span>
                        <button on:click=move |_| self.fetch(part)>{move || t!(lang.get(), "page.retry")}</button>
                    </div>
                }
                .into_any()
            }
            State::Missing | State::Loading => ().into_any(),
        }
    }

    /// The home screen.
    pub fn home(self) -> AnyView {
        self.view(Part::Home, || call!(home()))
    }

    /// A game's rules page (in the game's part).
    pub fn rules(self, kind: GameKind) -> AnyView {
        self.view(Part::game(kind), move || rules_view(kind))
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
        self.view(Part::Online, move || call!(online(self, link)))
    }

    /// A game's screen.
    pub fn game(self, setup: Setup, clock_secs: u32, new_game: RwSignal<bool>) -> AnyView {
        let kind = setup.kind;
        self.view(Part::game(kind), move || {
            game_view(self, setup, clock_secs, new_game)
        })
    }
}
