//! The home screen: pick a game (with its rules page) and a mode, resume a
//! recent game, and see your results against the computer.

use leptos::prelude::*;

use super::games::{describe_outcome, UiGame};
use super::games::{game_tagline, game_title};
use super::page::{Nav, Page, Setup};
use super::store::{self, SavedGame, Settings};
use super::words::{level_name, use_lang, Problem};
use super::{link, online};
use crate::ai::Level;
use crate::client::online::link::OnlineLink;
use crate::games::{GameKind, Outcome, Record, Side};
use crate::i18n::Lang;
use crate::{t, tn};

/// "3 min ago" for a past `Date.now()` value.
fn ago(lang: Lang, then: f64) -> String {
    let mins = ((store::now_epoch_ms() - then) / 60_000.0).max(0.0) as u64;
    match mins {
        0 => t!(lang, "ago.now").to_string(),
        1..=59 => tn!(lang, "ago.minutes", mins),
        60..=1439 => tn!(lang, "ago.hours", mins / 60),
        _ => tn!(lang, "ago.days", mins / 1440),
    }
}

/// The result line of a saved game that is over (its final position comes
/// from replaying its link; the outcome is kept, as a timeout is not in
/// the link).
fn saved_result(lang: Lang, saved: &SavedGame, outcome: Outcome) -> String {
    fn line<G: UiGame>(lang: Lang, r: &Record<G>, o: Outcome) -> String {
        describe_outcome(lang, r.position(), o)
    }
    match link::load_query(&saved.query) {
        Ok(Some(record)) => crate::with_record!(&record, G, r => line(lang, r, outcome)),
        _ => t!(lang, "home.in_progress").to_string(),
    }
}

/// "two players" or "vs Master", from the saved game's link; "online"
/// (or "watched online") for a finished online game.
fn saved_mode(lang: Lang, saved: &SavedGame) -> String {
    if let Some(o) = &saved.online {
        return match o.you {
            Some(_) => t!(lang, "home.mode_online"),
            None => t!(lang, "home.mode_watched"),
        }
        .to_string();
    }
    let level = link::parse_query(&saved.query)
        .ok()
        .and_then(|p| p.into_iter().find(|(k, _)| k == "vs"))
        .and_then(|(_, v)| v.parse::<Level>().ok());
    match level {
        Some(l) => t!(lang, "home.mode_vs", level = level_name(lang, l)),
        None => t!(lang, "home.mode_two").to_string(),
    }
}

/// Opens a saved game where it was left, paused.
fn resume(nav: Nav, saved: &SavedGame) -> Result<(), Problem> {
    let params = link::parse_query(&saved.query)?;
    // The whole link is read here so that a broken one is refused on the
    // home screen, not after the game's screen has opened.
    let game = link::load_query(&saved.query)?.ok_or(Problem::SavedNoGame)?;
    nav.go(Page::Play(Setup {
        kind: game.kind(),
        query: saved.query.clone(),
        opponent: link::opponent(&params)?,
        id: saved.id,
        resume: Some(super::game::Resume {
            left_ms: saved.clock_left_ms,
            outcome: saved.outcome,
            online: saved.online.clone(),
        }),
    }));
    Ok(())
}

/// The home screen.
#[component]
pub fn Home() -> impl IntoView {
    let nav = expect_context::<Nav>();
    let settings = expect_context::<RwSignal<Settings>>();
    let lang = use_lang();
    let saved = RwSignal::new(store::saved_games());
    let problem = RwSignal::new(None::<Problem>);

    let cards = GameKind::ALL
        .into_iter()
        .map(|k| {
            view! {
                <article class="card" data-testid=format!("card-{}", k.slug())>
                    <h2>{move || game_title(lang.get(), k)}</h2>
                    <p>{move || game_tagline(lang.get(), k)}</p>
                    <div class="card-actions">
                        <button class="primary" data-testid=format!("play-{}", k.slug()) on:click=move |_| nav.new_game(k)>{move || t!(lang.get(), "home.play")}</button>
                        <button data-testid=format!("rules-{}", k.slug()) on:click=move |_| nav.go(Page::Rules(k))>{move || t!(lang.get(), "home.rules")}</button>
                    </div>
                </article>
            }
        })
        .collect_view();

    let mode = view! {
        <div class="home-mode" role="group" aria-label=move || t!(lang.get(), "home.how_aria")>
            <label>
                <input type="radio" name="mode" data-testid="home-local"
                    prop:checked=move || settings.with(|s| !s.vs_computer)
                    on:change=move |_| settings.update(|s| s.vs_computer = false)/>
                " "{move || t!(lang.get(), "home.local")}
            </label>
            <label>
                <input type="radio" name="mode" data-testid="home-computer"
                    prop:checked=move || settings.with(|s| s.vs_computer)
                    on:change=move |_| settings.update(|s| s.vs_computer = true)/>
                " "{move || t!(lang.get(), "mode.computer")}
            </label>
            <Show when=move || settings.with(|s| s.vs_computer)>
                <label>
                    {move || t!(lang.get(), "mode.level")}" "
                    <select aria-label=move || t!(lang.get(), "mode.level_aria") on:change=move |ev| {
                        if let Ok(l) = event_target_value(&ev).parse::<Level>() {
                            settings.update(|s| s.level = l)
                        }
                    }>
                        {Level::ALL.iter().map(|&l| view! {
                            <option value=l.slug() selected=move || settings.with(|s| s.level) == l>{move || level_name(lang.get(), l)}</option>
                        }).collect_view()}
                    </select>
                </label>
                <label>
                    {move || t!(lang.get(), "home.you_move")}" "
                    <select aria-label=move || t!(lang.get(), "mode.side_aria") on:change=move |ev| {
                        let side = if event_target_value(&ev) == "second" { Side::Second } else { Side::First };
                        settings.update(|s| s.human_side = side)
                    }>
                        <option value="first" selected=move || settings.with(|s| s.human_side) == Side::First>{move || t!(lang.get(), "home.first")}</option>
                        <option value="second" selected=move || settings.with(|s| s.human_side) == Side::Second>{move || t!(lang.get(), "home.second")}</option>
                    </select>
                </label>
            </Show>
        </div>
    };
    let online = view! {
        <section class="card online-entry" data-testid="home-online">
            <h2>{move || t!(lang.get(), "online.home_title")}</h2>
            <p>{move || t!(lang.get(), "online.home_text")}</p>
            <div class="card-actions">
                <button class="primary" data-testid="play-online"
                    on:click=move |_| nav.go(Page::Online(OnlineLink::setup()))>{move || t!(lang.get(), "online.home_button")}</button>
            </div>
            <online::setup::ResumeList/>
        </section>
    };

    let recent = move || {
        let lang = lang.get();
        let games = saved.get();
        if games.is_empty() {
            return view! { <p class="muted">{t!(lang, "home.recent_empty")}</p> }.into_any();
        }
        let items = games
            .into_iter()
            .map(|g| {
                let id = g.id;
                let title = tn!(
                    lang,
                    "home.recent_title",
                    saved_moves(&g),
                    game = game_title(lang, g.kind),
                    mode = saved_mode(lang, &g)
                );
                let state = match g.outcome {
                    Some(o) => saved_result(lang, &g, o),
                    None => t!(lang, "home.in_progress").to_string(),
                };
                let when = ago(lang, g.updated);
                let g2 = g.clone();
                view! {
                    <li class="recent" data-testid="recent-game">
                        <div>
                            <strong>{title}</strong>
                            <span class="muted">{t!(lang, "home.state_when", state = state, when = when)}</span>
                        </div>
                        <button data-testid="resume" on:click=move |_| {
                            if let Err(e) = resume(nav, &g2) {
                                problem.set(Some(e));
                            }
                        }>{if g.outcome.is_some() { t!(lang, "home.review") } else { t!(lang, "home.resume") }}</button>
                        <button aria-label=t!(lang, "home.forget") on:click=move |_| {
                            store::forget_game(id);
                            saved.set(store::saved_games());
                        }>"✕"</button>
                    </li>
                }
            })
            .collect_view();
        view! { <ul>{items}</ul> }.into_any()
    };

    let stats = move || {
        let lang = lang.get();
        let lines = store::stats();
        (!lines.is_empty()).then(|| {
            let rows = lines
                .into_iter()
                .map(|l| {
                    view! {
                        <tr>
                            <td>{game_title(lang, l.kind)}</td>
                            <td>{level_name(lang, l.level)}</td>
                            <td>{l.tally.wins}</td>
                            <td>{l.tally.draws}</td>
                            <td>{l.tally.losses}</td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <section class="stats">
                    <h2>{t!(lang, "home.stats")}</h2>
                    <table data-testid="stats">
                        <thead><tr>
                            <th>{t!(lang, "home.stats_game")}</th>
                            <th>{t!(lang, "home.stats_level")}</th>
                            <th>{t!(lang, "home.stats_won")}</th>
                            <th>{t!(lang, "home.stats_drawn")}</th>
                            <th>{t!(lang, "home.stats_lost")}</th>
                        </tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </section>
            }
        })
    };

    view! {
        <div class="home">
            {mode}
            <div class="cards">{cards}</div>
            {online}
            <p class="error" role="alert">{move || problem.get().map(|p| {
                let lang = lang.get();
                t!(lang, "home.open_failed", problem = p.describe(lang))
            })}</p>
            <section class="recent-games">
                <h2 data-testid="recent-heading">{move || t!(lang.get(), "home.recent")}</h2>
                {recent}
            </section>
            {stats}
        </div>
    }
}

/// How many moves a saved game has, as its move list numbers them (its
/// rows: a Mill removal is part of its move), read from its link; the
/// stored count of plies only if the link no longer reads.
fn saved_moves(g: &SavedGame) -> usize {
    match link::load_query(&g.query) {
        Ok(Some(record)) => crate::client::moves::move_count_any(&record),
        _ => g.plies,
    }
}
