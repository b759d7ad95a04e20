//! The online setup form (create a game for a friend, or join the
//! quick-match queue) and the unfinished online games kept on this
//! device. Both are drawn in the community part of the page's wasm, with
//! the name card and the lobby (see `ui/lazy.rs`), so neither the home
//! screen nor a game nor a room's link fetches them.

use leptos::prelude::*;

use super::identity::IdentityCard;
use super::lobby::Lobby;
use super::seats;
use super::socket::Driver;
use super::text;
use crate::client::ending::side_name;
use crate::client::online::link::{OnlineLink, Route};
use crate::client::online::session::Intent;
use crate::games::any::Variant;
use crate::games::{GameKind, Mode, Side};
use crate::protocol::online::SideChoice;
use crate::t;
use crate::ui::address::server_param;
use crate::ui::games::game_title;
use crate::ui::mill_rules::MillRulesPicker;
use crate::ui::page::{Nav, Page};
use crate::ui::picker::GamePicker;
use crate::ui::store::Settings;
use crate::ui::words::use_lang;

/// Per-move clock choices for online games, in seconds.
pub const ONLINE_CLOCK_CHOICES: [u32; 4] = [10, 30, 60, 120];

/// The game a setup asks for: the rules chosen (Mill's options; the
/// default rules otherwise) under the game's online preset
/// ([`Mode::Online`]: Territory Duel always passes).
fn spec_of(kind: GameKind, settings: &Settings) -> Variant {
    let chosen = match kind {
        GameKind::Mill => Variant::Mill(settings.mill_rules),
        _ => Variant::default_for(kind),
    };
    chosen.for_mode(Mode::Online)
}

/// Create a game for a friend, or join the quick-match queue.
#[component]
pub fn SetupForm(driver: Driver, server: String) -> impl IntoView {
    let settings = expect_context::<RwSignal<Settings>>();
    let lang = use_lang();
    let kind = move || settings.with(|s| s.online_game);
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
    // Rated needs a name; casual is the default for both.
    let named = move || driver.session.with(|s| s.me.is_some());
    let rated = move || named() && settings.with(|s| s.online_rated);
    let ask = move |quick: bool| {
        let s = settings.get_untracked();
        let game = spec_of(s.online_game, &s);
        let clock_secs = s.online_clock_secs;
        let rated = rated();
        driver.start(if quick {
            Intent::QuickMatch {
                game,
                clock_secs,
                rated,
            }
        } else {
            Intent::Create {
                game,
                clock_secs,
                side: s.online_side,
                rated,
            }
        });
    };
    let challenge = Callback::new(move |()| {
        let s = settings.get_untracked();
        (spec_of(s.online_game, &s), s.online_clock_secs, rated())
    });
    view! {
        <div class="online-card online-setup" data-testid="online-setup">
            <h2>{move || t!(lang.get(), "online.title")}</h2>
            <p class="muted">{move || t!(lang.get(), "online.intro")}</p>
            <IdentityCard driver=driver/>
            <GamePicker name="online-game" testid="online-game"
                legend=Signal::derive(move || t!(lang.get(), "online.game"))
                chosen=Signal::derive(kind)
                on_pick=Callback::new(move |k| settings.update(|s| s.online_game = k))/>
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
            <label class="rated-choice" title=move || (!named()).then(|| t!(lang.get(), "online.rated_needs_name"))>
                <input type="checkbox" data-testid="online-rated" disabled=move || !named()
                    prop:checked=rated
                    on:change=move |ev| settings.update(|s| s.online_rated = event_target_checked(&ev))/>
                " "{move || t!(lang.get(), "online.rated_choice")}
            </label>
            <p class="muted" data-testid="rated-help">{move || if named() { t!(lang.get(), "online.rated_help") } else { t!(lang.get(), "online.rated_needs_name") }}</p>
            <div class="card-actions">
                <button class="primary" data-testid="create-game" on:click=move |_| ask(false)>{move || t!(lang.get(), "online.create_game")}</button>
                <button data-testid="quick-match" on:click=move |_| ask(true)>{move || t!(lang.get(), "online.quick_match")}</button>
            </div>
            <p class="muted">{move || t!(lang.get(), "online.quick_match_help")}</p>
            <p class="muted server-line" data-testid="online-server">{move || t!(lang.get(), "online.server_line", url = server)}</p>
            <Lobby driver=driver ask=challenge/>
            <ResumeList/>
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
                                seats::take(&room, &token, &server);
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
