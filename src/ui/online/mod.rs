//! Online play: two people on two devices through the game server.
//!
//! Links: `?online` (setup: create a game or quick match),
//! `?online=ROOM&key=KEY` (a friend's invite), `?online=ROOM` (your game
//! on this device: reload reopens it), `?watch=ROOM` (spectate), each with
//! an optional `&server=wss://…` when the game is on a server other than
//! the page's own. The logic without the browser (links, backoff, clock,
//! the session) is [`crate::client::online`]; [`socket`] drives the
//! WebSocket, [`seats`] keeps seat tokens, [`room`] shows a game and
//! [`text`] words the protocol's values; every text comes from the
//! `online.*` keys of the language tables.

pub mod panel;
pub mod room;
pub mod seats;
pub mod socket;
pub mod text;
pub mod view;

use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

use self::socket::Driver;
use super::address::{page_server, server_for};
use super::games::UiGame;
use super::mill_rules::MillRulesPicker;
use super::page::{Nav, Page};
use super::store::Settings;
use super::words::{game_title, use_lang};
use crate::client::online::link::{self, OnlineLink, Route};
use crate::client::online::session::{Connection, Halt, Intent, OnlineSession};
use crate::games::any::Variant;
use crate::games::ataxx::{Ataxx, AtaxxRules};
use crate::games::mill::Mill;
use crate::games::stones::{Stones, StonesRules};
use crate::games::{GameKind, Side};
use crate::i18n::Lang;
use crate::protocol::online::{SideChoice, Status};
use crate::t;

/// Per-move clock choices for online games, in seconds.
pub const ONLINE_CLOCK_CHOICES: [u32; 4] = [10, 30, 60, 120];

/// `server` for links: `None` when it is the page's own (links stay short).
fn server_param(server: &str) -> Option<String> {
    (server != page_server()).then(|| server.to_string())
}

/// The page's address without its query (keeps the app's sub-path).
fn page_url() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

/// Puts `query` in the address bar without a new history entry.
fn replace_query(query: &str) {
    let Some(w) = web_sys::window() else { return };
    if w.location().search().ok().as_deref() == Some(query) {
        return;
    }
    let path = w.location().pathname().unwrap_or_default();
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("{path}{query}")),
        );
    }
}

/// The game a setup asks for (Territory Duel online always passes).
fn spec_of(kind: GameKind, settings: &Settings) -> Variant {
    match kind {
        GameKind::Ataxx => Variant::Ataxx(AtaxxRules::default()),
        GameKind::Stones => Variant::Stones(StonesRules),
        GameKind::Mill => Variant::Mill(settings.mill_rules),
    }
}

fn side_name(lang: Lang, kind: GameKind, side: Side) -> &'static str {
    match kind {
        GameKind::Ataxx => <Ataxx as UiGame>::side_name(lang, side),
        GameKind::Stones => <Stones as UiGame>::side_name(lang, side),
        GameKind::Mill => <Mill as UiGame>::side_name(lang, side),
    }
}

/// What the page shows, coarse enough that the game view is built once
/// per game (a rematch builds a new one).
#[derive(Clone, Debug, PartialEq)]
enum Showing {
    Setup,
    Connecting,
    Matching,
    Invite,
    Game { spec: Variant, game_no: u32 },
    Halted(Halt),
}

/// Copies `text` to the clipboard; `done` says whether it worked.
fn copy(text: String, done: RwSignal<Option<bool>>) {
    let Some(w) = web_sys::window() else { return };
    let promise = w.navigator().clipboard().write_text(&text);
    leptos::task::spawn_local(async move {
        done.set(Some(JsFuture::from(promise).await.is_ok()));
    });
}

/// A link with a Copy button.
#[component]
fn CopyLink(
    label: Signal<&'static str>,
    link: Signal<String>,
    testid: &'static str,
) -> impl IntoView {
    let lang = use_lang();
    let done = RwSignal::new(None::<bool>);
    view! {
        <div class="copy-link">
            <label>
                <span>{label}</span>
                <input type="text" readonly=true data-testid=testid prop:value=move || link.get()
                    on:focus=move |ev| {
                        use wasm_bindgen::JsCast;
                        if let Some(i) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                            i.select();
                        }
                    }/>
            </label>
            <button data-testid=format!("copy-{testid}") on:click=move |_| copy(link.get_untracked(), done)>{move || t!(lang.get(), "online.copy")}</button>
            <span class="muted" role="status">{move || done.get().map(|ok| if ok { t!(lang.get(), "online.copied") } else { t!(lang.get(), "online.copy_failed") })}</span>
        </div>
    }
}

/// What the page for `route` asks the server for, and where: a seat kept
/// on this device, a friend's invite, a room to watch or nothing yet
/// (setup). The flag is set when a room's link found no seat here, so
/// the page watches it.
fn open_route(link: &OnlineLink, setting_server: &str) -> (Intent, String, bool) {
    let linked = || server_for(link.server.as_deref(), setting_server);
    match &link.route {
        Route::Setup => (Intent::Idle, linked(), false),
        Route::Join { room, key } => match seats::joined(room) {
            Some(s) => (
                Intent::Seat {
                    room: room.clone(),
                    token: s.token,
                },
                s.server,
                false,
            ),
            None => (
                Intent::Join {
                    room: room.clone(),
                    key: key.clone(),
                },
                linked(),
                false,
            ),
        },
        Route::Room { room } => match seats::find(room) {
            Some(s) => {
                seats::take(room, &s.token);
                (
                    Intent::Seat {
                        room: room.clone(),
                        token: s.token,
                    },
                    s.server,
                    false,
                )
            }
            None => (Intent::Watch { room: room.clone() }, linked(), true),
        },
        Route::Watch { room } => (Intent::Watch { room: room.clone() }, linked(), false),
    }
}

/// What the page shows for the session `s`.
fn showing(s: &OnlineSession) -> Showing {
    if let Some(p) = &s.halt {
        return Showing::Halted(p.clone());
    }
    if let Some(st) = &s.state {
        if st.status == Status::Waiting && s.seat.is_some() {
            return Showing::Invite;
        }
        return Showing::Game {
            spec: st.game,
            game_no: st.game_no,
        };
    }
    match s.intent {
        Intent::Idle => Showing::Setup,
        Intent::QuickMatch { .. } => Showing::Matching,
        _ => Showing::Connecting,
    }
}

/// The online page for `link`. `game` draws a room's game once it starts,
/// given the connection and the room's variant, and `setup` the setup
/// form, given the connection and the server (the app's draw each from a
/// chunk of its own, so a room's link does not fetch the form).
#[component]
pub fn OnlinePage(
    link: OnlineLink,
    game: Callback<(Driver, Variant), AnyView>,
    setup: Callback<(Driver, String), AnyView>,
) -> impl IntoView {
    let settings = expect_context::<RwSignal<Settings>>();
    let nav = expect_context::<Nav>();
    let lang = use_lang();
    let setting_server = settings.with_untracked(|s| s.online_server.clone());
    // What to ask the server for, and where; `no_seat_note`: "You have no
    // seat here, so you are watching."
    let (intent, server, no_seat_note) = open_route(&link, &setting_server);
    let driver = Driver::new(server.clone());
    if intent != Intent::Idle {
        driver.start(intent);
    }
    let session = driver.session;
    let server = StoredValue::new(server);

    let shown = Memo::new(move |_| session.with(showing));

    // The address bar follows the page: your room, the room you watch.
    Effect::new(move |_| {
        let param = server_param(&server.get_value());
        let query = session.with(|s| match (&s.seat, &s.intent, &s.state) {
            (Some(seat), _, _) => Some(link::room_query(&seat.room, param.as_deref())),
            (None, Intent::Watch { room }, Some(_)) => {
                Some(link::watch_query(room, param.as_deref()))
            }
            _ => None,
        });
        if let Some(q) = query {
            replace_query(&q);
        }
    });

    let to_setup = Callback::new(move |()| {
        driver.stop();
        nav.go(Page::Online(OnlineLink::setup()));
    });
    // Cancel on the invite withdraws it: the room is deleted on the server.
    let withdraw = move || {
        driver.withdraw();
        nav.go(Page::Online(OnlineLink::setup()));
    };

    let body = move || {
        match shown.get() {
        Showing::Setup => setup.run((driver, server.get_value())),
        Showing::Connecting => view! {
            <div class="online-card" data-testid="online-connecting">
                <h2>{move || t!(lang.get(), "online.title")}</h2>
                <button data-testid="cancel-connect" on:click=move |_| to_setup.run(())>{move || t!(lang.get(), "online.cancel")}</button>
            </div>
        }
        .into_any(),
        Showing::Matching => view! { <MatchingCard driver=driver on_cancel=to_setup/> }.into_any(),
        // Leaving keeps the seat on this device (the protocol cannot
        // withdraw an invite): the game stays in "Your online games".
        Showing::Invite => view! { <InviteCard driver=driver server=server.get_value() on_cancel=Callback::new(move |_| withdraw())/> }
        .into_any(),
        Showing::Game { spec, .. } => game.run((driver, spec)),
        Showing::Halted(p) => {
            let watch_room = match (&p, &link.route) {
                (Halt::Refused { code: crate::protocol::online::Refusal::RoomFull, .. }, Route::Join { room, .. }) => Some(room.clone()),
                _ => None,
            };
            view! { <ProblemCard problem=p watch_room=watch_room server=server on_setup=to_setup/> }.into_any()
        }
    }
    };

    view! {
        <div class="online">
            {no_seat_note.then(|| view! { <p class="banner-line" role="status">{move || t!(lang.get(), "online.no_seat_watching")}</p> })}
            <ConnectionBanner driver=driver server=server/>
            {body}
        </div>
    }
}

/// The line above the page while the connection is not open: connecting,
/// unreachable or reconnecting, with "Try now" while waiting to retry.
#[component]
fn ConnectionBanner(driver: Driver, server: StoredValue<String>) -> impl IntoView {
    let lang = use_lang();
    let session = driver.session;
    let connection_line = move || {
        let lang = lang.get();
        session.with(|s| match s.connection {
            Connection::Open => None,
            Connection::Down => None,
            Connection::Connecting { attempt: 0 } if !s.ever_open => {
                Some(t!(lang, "online.connecting", url = server.get_value()))
            }
            Connection::Connecting { .. } | Connection::Retrying { .. } if !s.ever_open => {
                Some(t!(lang, "online.unreachable", url = server.get_value()))
            }
            Connection::Connecting { .. } | Connection::Retrying { .. } => {
                Some(t!(lang, "online.reconnecting").to_string())
            }
        })
    };
    let retry_now = move |_| driver.retry_now();
    move || {
        connection_line().map(|line| {
            let retrying = session.with(|s| matches!(s.connection, Connection::Retrying { .. }));
            view! {
                <div class="banner-line warn" role="status" data-testid="connection">
                    <span class="spinner" aria-hidden="true"></span>
                    <span>{line}</span>
                    {retrying.then(|| view! { <button data-testid="retry-now" on:click=retry_now>{move || t!(lang.get(), "online.try_now")}</button> })}
                </div>
            }
        })
    }
}

/// Waiting in the quick-match queue: what was asked for, and Cancel.
#[component]
fn MatchingCard(driver: Driver, on_cancel: Callback<()>) -> impl IntoView {
    let lang = use_lang();
    let session = driver.session;
    let asked = session.with_untracked(|s| match &s.intent {
        Intent::QuickMatch { game, clock_secs } => Some((game.kind(), *clock_secs)),
        _ => None,
    });
    let what = move || {
        let lang = lang.get();
        asked.map(|(kind, secs)| {
            t!(
                lang,
                "online.match_details",
                game = game_title(lang, kind),
                clock = text::clock_choice(lang, secs)
            )
        })
    };
    view! {
        <div class="online-card" data-testid="online-matching">
            <h2>
                <span class="spinner" aria-hidden="true"></span>
                {move || if session.with(|s| s.queued) { t!(lang.get(), "online.looking_for_opponent") } else { t!(lang.get(), "online.joining_queue") }}
            </h2>
            <p>{what}</p>
            <button data-testid="cancel-match" on:click=move |_| on_cancel.run(())>{move || t!(lang.get(), "online.cancel")}</button>
        </div>
    }
}

/// Why the server would not let this page in, with a new game (and, for a
/// full room, watching it) as the way on.
#[component]
fn ProblemCard(
    problem: Halt,
    watch_room: Option<String>,
    server: StoredValue<String>,
    on_setup: Callback<()>,
) -> impl IntoView {
    let lang = use_lang();
    let nav = expect_context::<Nav>();
    let line = move || {
        let lang = lang.get();
        match &problem {
            Halt::Version(m) => t!(lang, "online.version", message = m),
            Halt::Refused { code, reason } => text::refusal_to_enter(lang, *code, reason),
        }
    };
    let server_q = server_param(&server.get_value());
    view! {
        <div class="online-card" role="alert" data-testid="online-problem">
            <h2>{move || t!(lang.get(), "online.problem_title")}</h2>
            <p>{line}</p>
            <div class="card-actions">
                {watch_room.map(|room| {
                    let target = OnlineLink { route: Route::Watch { room }, server: server_q.clone() };
                    view! { <button data-testid="watch-instead" on:click=move |_| nav.go(Page::Online(target.clone()))>{move || t!(lang.get(), "online.watch_instead")}</button> }
                })}
                <button class="primary" data-testid="back-to-setup" on:click=move |_| on_setup.run(())>{move || t!(lang.get(), "online.new_game")}</button>
            </div>
        </div>
    }
}

/// Create a game for a friend, or join the quick-match queue.
#[component]
pub fn SetupForm(driver: Driver, server: String) -> impl IntoView {
    let settings = expect_context::<RwSignal<Settings>>();
    let lang = use_lang();
    let kind = move || settings.with(|s| s.online_game);
    let games = GameKind::ALL
        .into_iter()
        .map(|k| {
            view! {
                <label class="choice">
                    <input type="radio" name="online-game" data-testid=format!("online-game-{}", k.slug())
                        prop:checked=move || kind() == k
                        on:change=move |_| settings.update(|s| s.online_game = k)/>
                    <span>{move || game_title(lang.get(), k)}</span>
                </label>
            }
        })
        .collect_view();
    let clock = ONLINE_CLOCK_CHOICES
        .into_iter()
        .map(|c| {
            view! { <option value=c.to_string() selected=move || settings.with(|s| s.online_clock_secs) == c>{move || text::clock_choice(lang.get(), c)}</option> }
        })
        .collect_view();
    let side_option = move |value: &'static str, choice: SideChoice| {
        let label = move || {
            let lang = lang.get();
            match choice {
                SideChoice::First => t!(
                    lang,
                    "online.side_first",
                    side = side_name(lang, kind(), Side::First)
                ),
                SideChoice::Second => t!(
                    lang,
                    "online.side_second",
                    side = side_name(lang, kind(), Side::Second)
                ),
                SideChoice::Random => t!(lang, "online.side_random").to_string(),
            }
        };
        view! { <option value=value selected=move || settings.with(|s| s.online_side) == choice>{label}</option> }
    };
    let on_mill_rules = Callback::new(move |r| settings.update(|s| s.mill_rules = r));
    let mill_rules = settings.with_untracked(|s| s.mill_rules);
    let ask = move |quick: bool| {
        let s = settings.get_untracked();
        let game = spec_of(s.online_game, &s);
        let clock_secs = s.online_clock_secs;
        driver.start(if quick {
            Intent::QuickMatch { game, clock_secs }
        } else {
            Intent::Create {
                game,
                clock_secs,
                side: s.online_side,
            }
        });
    };
    view! {
        <div class="online-card online-setup" data-testid="online-setup">
            <h2>{move || t!(lang.get(), "online.title")}</h2>
            <p class="muted">{move || t!(lang.get(), "online.intro")}</p>
            <fieldset class="choices">
                <legend>{move || t!(lang.get(), "online.game")}</legend>
                {games}
            </fieldset>
            <Show when=move || kind() == GameKind::Mill>
                <MillRulesPicker rules=mill_rules on_change=on_mill_rules/>
            </Show>
            <Show when=move || kind() == GameKind::Ataxx>
                <p class="muted">{move || t!(lang.get(), "online.ataxx_pass_rule")}</p>
            </Show>
            <div class="setup-bar">
                <label>
                    {move || t!(lang.get(), "online.clock")}" "
                    <select data-testid="online-clock" aria-label=move || t!(lang.get(), "online.clock_aria") on:change=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<u32>() {
                            settings.update(|s| s.online_clock_secs = v)
                        }
                    }>{clock}</select>
                </label>
                <label>
                    {move || t!(lang.get(), "online.you_play")}" "
                    <select data-testid="online-side" aria-label=move || t!(lang.get(), "online.side_aria") on:change=move |ev| {
                        let side = match event_target_value(&ev).as_str() {
                            "first" => SideChoice::First,
                            "second" => SideChoice::Second,
                            _ => SideChoice::Random,
                        };
                        settings.update(|s| s.online_side = side)
                    }>
                        {side_option("first", SideChoice::First)}
                        {side_option("second", SideChoice::Second)}
                        {side_option("random", SideChoice::Random)}
                    </select>
                </label>
            </div>
            <div class="card-actions">
                <button class="primary" data-testid="create-game" on:click=move |_| ask(false)>{move || t!(lang.get(), "online.create_game")}</button>
                <button data-testid="quick-match" on:click=move |_| ask(true)>{move || t!(lang.get(), "online.quick_match")}</button>
            </div>
            <p class="muted">{move || t!(lang.get(), "online.quick_match_help")}</p>
            <p class="muted server-line" data-testid="online-server">{move || t!(lang.get(), "online.server_line", url = server)}</p>
            <ResumeList/>
        </div>
    }
}

/// The creator's screen until the friend sits down: the invite and the
/// spectator link.
#[component]
fn InviteCard(driver: Driver, server: String, on_cancel: Callback<()>) -> impl IntoView {
    let lang = use_lang();
    let session = driver.session;
    let param = server_param(&server);
    let p2 = param.clone();
    let invite = Signal::derive(move || {
        session.with(|s| {
            s.seat
                .as_ref()
                .and_then(|seat| {
                    seat.join_key.as_ref().map(|k| {
                        link::link_on(
                            &page_url(),
                            &link::invite_query(&seat.room, k, param.as_deref()),
                        )
                    })
                })
                .unwrap_or_default()
        })
    });
    let watch = Signal::derive(move || {
        session.with(|s| {
            s.seat
                .as_ref()
                .map(|seat| {
                    link::link_on(&page_url(), &link::watch_query(&seat.room, p2.as_deref()))
                })
                .unwrap_or_default()
        })
    });
    let details = move || {
        let lang = lang.get();
        session.with(|s| {
            let st = s.state.as_ref()?;
            let kind = st.game.kind();
            let you = st.you?;
            Some(text::game_details(
                lang,
                game_title(lang, kind),
                (st.clock.per_move_ms / 1000) as u32,
                side_name(lang, kind, you),
                you == Side::First,
            ))
        })
    };
    view! {
        <div class="online-card invite" data-testid="online-waiting">
            <h2><span class="spinner" aria-hidden="true"></span>{move || t!(lang.get(), "online.waiting_for_friend")}</h2>
            <p>{details}</p>
            <CopyLink label=Signal::derive(move || t!(lang.get(), "online.invite_label")) link=invite testid="invite-link"/>
            <CopyLink label=Signal::derive(move || t!(lang.get(), "online.watch_label")) link=watch testid="watch-link"/>
            <p class="muted">{move || t!(lang.get(), "online.invite_help")}</p>
            <div class="card-actions">
                <button data-testid="cancel-invite" on:click=move |_| on_cancel.run(())>{move || t!(lang.get(), "online.cancel")}</button>
            </div>
        </div>
    }
}

/// Unfinished online games kept on this device, with Resume.
#[component]
pub fn ResumeList() -> impl IntoView {
    let nav = expect_context::<Nav>();
    let lang = use_lang();
    let list = RwSignal::new(seats::active());
    move || {
        let lang = lang.get();
        let items = list.get();
        (!items.is_empty()).then(|| {
            let rows = items
                .into_iter()
                .map(|s| {
                    let title = text::resume_title(
                        lang,
                        s.kind
                            .map_or(t!(lang, "online.unknown_game"), |k| game_title(lang, k)),
                        s.kind.map(|k| side_name(lang, k, s.side)),
                        s.plies,
                    );
                    let (room, token, server) = (s.room.clone(), s.token.clone(), s.server.clone());
                    let forget_token = s.token.clone();
                    view! {
                        <li class="recent" data-testid="online-active">
                            <div><strong>{title}</strong></div>
                            <button data-testid="online-resume" on:click=move |_| {
                                seats::take(&room, &token);
                                nav.go(Page::Online(OnlineLink {
                                    route: Route::Room { room: room.clone() },
                                    server: server_param(&server),
                                }));
                            }>{t!(lang, "online.resume_game")}</button>
                            <button aria-label=t!(lang, "online.forget_aria") on:click=move |_| {
                                seats::forget_token(&forget_token);
                                list.set(seats::active());
                            }>"✕"</button>
                        </li>
                    }
                })
                .collect_view();
            view! {
                <section class="recent-games online-active">
                    <h2>{t!(lang, "online.active_games")}</h2>
                    <ul>{rows}</ul>
                </section>
            }
        })
    }
}
