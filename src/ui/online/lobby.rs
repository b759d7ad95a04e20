//! The lobby on the setup screen (issue 37): open challenges, live (the
//! server sends the whole list on every change), each with its game, Mill
//! preset, clock, rated or casual and its creator's name and rating; one
//! click takes the seat. Your own challenge is posted from the setup's
//! choices and can be withdrawn. Below: live games to watch.

use leptos::prelude::*;

use super::socket::Driver;
use super::text;
use crate::client::online::link::{OnlineLink, Route};
use crate::client::online::session::Connection;
use crate::games::any::Variant;
use crate::games::mill::Preset;
use crate::i18n::Lang;
use crate::protocol::online::{ChallengeInfo, LiveGame, PlayerTag};
use crate::t;
use crate::ui::address::server_param;
use crate::ui::games::game_title;
use crate::ui::page::{Nav, Page};
use crate::ui::words::{preset_name, use_lang};

/// A game as lobby lines name it: "Mill (Morris)" for a Mill preset.
fn game_words(lang: Lang, game: &Variant) -> String {
    let title = game_title(lang, game.kind());
    match game {
        Variant::Mill(rules) => {
            let preset = Preset::ALL.into_iter().find(|p| p.rules() == *rules);
            match preset {
                Some(p) => format!("{title} ({})", preset_name(lang, p)),
                None => format!("{title} ({})", t!(lang, "mill.custom")),
            }
        }
        _ => title.to_string(),
    }
}

/// "Rated" or "Casual", as a small tag (rated in the accent colour).
fn rated_tag(lang: Lang, rated: bool) -> impl IntoView {
    let (class, word) = if rated {
        ("lobby-tag rated", t!(lang, "online.rated"))
    } else {
        ("lobby-tag", t!(lang, "online.casual"))
    };
    view! { <span class=class>{word}</span> }
}

/// A player's name, with their rating in the game (muted) if any.
fn who(tag: &PlayerTag) -> impl IntoView {
    let rating = crate::client::online::identity::rating_text(tag);
    view! {
        <span class="lobby-name">{tag.name.clone()}</span>
        {rating.map(|r| view! { " " <span class="lobby-rating">{r}</span> })}
    }
}

/// The lobby: open challenges (yours first) and live games.
#[component]
pub fn Lobby(
    driver: Driver,
    /// The game, clock and rated choice of the setup form, for a new
    /// challenge.
    ask: Callback<(), (Variant, u32, bool)>,
) -> impl IntoView {
    let lang = use_lang();
    let nav = expect_context::<Nav>();
    let session = driver.session;
    let open = move || session.with(|s| s.connection == Connection::Open);
    let named = move || session.with(|s| s.me.is_some());
    let mine = move || session.with(|s| s.my_challenge.clone());
    let lobby = Memo::new(move |_| session.with(|s| s.lobby.clone()));
    let server = driver.url.get_value();

    // Rows are keyed (a challenge by its id, whether it is yours and the
    // language; a game by its room and the language), so a lobby message
    // that changes one row leaves the others' buttons in place: the list
    // comes again every second while games are played (their move
    // counts), and a row drawn anew under a click could swallow it.
    let challenge_row = move |(c, own, lang): (ChallengeInfo, bool, Lang)| {
        let what = format!(
            "{} · {}",
            game_words(lang, &c.game),
            text::clock_choice(lang, c.clock_secs)
        );
        let id = c.id.clone();
        view! {
            <li class="lobby-row" data-testid="challenge">
                <div class="lobby-main">
                    <span class="lobby-who">{who(&c.by)}</span>
                    <span class="lobby-what">{what}</span>
                </div>
                {rated_tag(lang, c.rated)}
                {if own {
                    view! { <button data-testid="cancel-challenge" on:click=move |_| driver.cancel_challenge()>{t!(lang, "online.cancel_challenge")}</button> }.into_any()
                } else {
                    view! { <button class="primary" data-testid="take-challenge" disabled=move || !open() on:click=move |_| driver.take_challenge(id.clone())>{t!(lang, "online.take_challenge")}</button> }.into_any()
                }}
            </li>
        }
    };
    let server_for_games = server.clone();
    let game_row = move |(g, lang): (LiveGame, Lang)| {
        let [first, second] = g.players.clone();
        let side = |p: Option<PlayerTag>| match p {
            Some(p) => who(&p).into_any(),
            None => view! { <span>"?"</span> }.into_any(),
        };
        let game = g.game;
        let room = g.room.clone();
        // The move count as the lobby has it now.
        let what = move || {
            let plies = lobby.with(|l| {
                l.as_ref()
                    .and_then(|(_, games)| games.iter().find(|x| x.room == room))
                    .map_or(g.plies, |x| x.plies)
            });
            format!(
                "{} · {}",
                game_words(lang, &game),
                crate::tn!(lang, "online.lobby_moves", plies)
            )
        };
        let room = g.room.clone();
        let param = server_param(&server_for_games);
        view! {
            <li class="lobby-row" data-testid="live-game">
                <div class="lobby-main">
                    <span class="lobby-who">{side(first)}" – "{side(second)}</span>
                    <span class="lobby-what">{what}</span>
                </div>
                {rated_tag(lang, g.rated)}
                <button data-testid="watch-live" on:click=move |_| nav.go(Page::Online(OnlineLink {
                    route: Route::Watch { room: room.clone() },
                    server: param.clone(),
                }))>{t!(lang, "online.watch")}</button>
            </li>
        }
    };

    view! {
        <section class="recent-games lobby" data-testid="lobby">
            <h2>{move || t!(lang.get(), "online.lobby_title")}</h2>
            {move || session.with(|s| s.lobby_unavailable).then(|| view! {
                <p class="muted" data-testid="lobby-unavailable">{move || t!(lang.get(), "online.lobby_unavailable")}</p>
            })}
            <div class="card-actions">
                <Show when=move || mine().is_none() fallback=move || view! {
                    <p class="muted" data-testid="challenge-waiting">{move || t!(lang.get(), "online.challenge_waiting")}</p>
                }>
                    <button data-testid="post-challenge" disabled=move || !open() || !named() || session.with(|s| s.lobby_unavailable)
                        on:click=move |_| { let (g, c, r) = ask.run(()); driver.challenge(g, c, r); }>
                        {move || t!(lang.get(), "online.post_challenge")}
                    </button>
                </Show>
            </div>
            <Show when=move || !named()>
                <p class="muted">{move || t!(lang.get(), "online.challenge_needs_name")}</p>
            </Show>
            <Show when=move || lobby.with(Option::is_some)>
                <h3>{move || t!(lang.get(), "online.open_challenges")}</h3>
                <Show when=move || lobby.with(|l| l.as_ref().is_some_and(|(c, _)| c.is_empty()))>
                    <p class="muted" data-testid="no-challenges">{move || t!(lang.get(), "online.no_challenges")}</p>
                </Show>
                <ul>
                    <For each=move || {
                            let (mine, lang) = (mine(), lang.get());
                            lobby.with(|l| l.as_ref().map(|(c, _)| c.iter().map(|c| {
                                let own = mine.as_deref() == Some(c.id.as_str());
                                (c.clone(), own, lang)
                            }).collect::<Vec<_>>()).unwrap_or_default())
                        }
                        key=|(c, own, lang)| (c.id.clone(), *own, *lang)
                        children=challenge_row/>
                </ul>
                <h3>{move || t!(lang.get(), "online.live_games")}</h3>
                <Show when=move || lobby.with(|l| l.as_ref().is_some_and(|(_, g)| g.is_empty()))>
                    <p class="muted">{move || t!(lang.get(), "online.no_live_games")}</p>
                </Show>
                <ul>
                    <For each=move || {
                            let lang = lang.get();
                            lobby.with(|l| l.as_ref().map(|(_, g)| g.iter().map(|g| (g.clone(), lang)).collect::<Vec<_>>()).unwrap_or_default())
                        }
                        key=|(g, lang)| (g.room.clone(), *lang)
                        children=game_row.clone()/>
                </ul>
            </Show>
        </section>
    }
}
