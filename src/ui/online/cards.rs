//! The cards the online page shows around a room: the connection line,
//! waiting in the quick-match queue, why the server would not let the
//! page in, and the invite with its links to copy.

use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::socket::Driver;
use super::text;
use crate::client::ending::side_name;
use crate::client::online::link::{self, OnlineLink, Route};
use crate::client::online::session::{Connection, Halt, Intent};
use crate::games::Side;
use crate::t;
use crate::ui::address::server_param;
use crate::ui::games::game_title;
use crate::ui::page::{page_url, Nav, Page};
use crate::ui::words::use_lang;

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
pub fn CopyLink(
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

/// The line above the page while the connection is not open: connecting,
/// unreachable or reconnecting, with "Try now" while waiting to retry.
#[component]
pub fn ConnectionBanner(driver: Driver, server: StoredValue<String>) -> impl IntoView {
    let lang = use_lang();
    let session = driver.session;
    let connection_line = move || {
        let lang = lang.get();
        session.with(|s| match s.connection {
            // The setup screen's own line says when the server is down
            // (its connection is for the name and the lobby only).
            _ if s.intent == Intent::Lobby => None,
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
pub fn MatchingCard(driver: Driver, on_cancel: Callback<()>) -> impl IntoView {
    let lang = use_lang();
    let session = driver.session;
    let asked = session.with_untracked(|s| match &s.intent {
        Intent::QuickMatch {
            game, clock_secs, ..
        } => Some((game.kind(), *clock_secs)),
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
pub fn ProblemCard(
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

/// The creator's screen until the friend sits down: the invite and the
/// spectator link.
#[component]
pub fn InviteCard(driver: Driver, server: String, on_cancel: Callback<()>) -> impl IntoView {
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
