//! The home screen: pick a game (with its rules page) and a mode, resume a
//! recent game, and see your results against the computer.

use leptos::prelude::*;

use super::store::{self, SavedGame, Settings};
use super::{link, online, Nav, Page, Setup};
use crate::ai::Level;
use crate::games::{GameKind, Side};

/// "3 min ago" for a past `Date.now()` value.
fn ago(then: f64) -> String {
    let mins = ((store::now_epoch_ms() - then) / 60_000.0).max(0.0) as u64;
    match mins {
        0 => "just now".to_string(),
        1..=59 => format!("{mins} min ago"),
        60..=1439 => format!("{} h ago", mins / 60),
        _ => format!("{} days ago", mins / 1440),
    }
}

/// Opens a saved game where it was left, paused.
fn resume(nav: Nav, saved: &SavedGame) -> Result<(), String> {
    let (game, opponent) = link::load_setup(&saved.query)?.ok_or("the saved game names no game")?;
    nav.go(Page::Play(Setup {
        game,
        opponent,
        id: saved.id,
        resume_left_ms: saved.clock_left_ms,
    }));
    Ok(())
}

/// The home screen.
#[component]
pub fn Home() -> impl IntoView {
    let nav = expect_context::<Nav>();
    let settings = expect_context::<RwSignal<Settings>>();
    let saved = RwSignal::new(store::saved_games());
    let problem = RwSignal::new(None::<String>);

    let cards = GameKind::ALL
        .into_iter()
        .map(|k| {
            view! {
                <article class="card" data-testid=format!("card-{}", k.slug())>
                    <h2>{k.title()}</h2>
                    <p>{k.tagline()}</p>
                    <div class="card-actions">
                        <button class="primary" data-testid=format!("play-{}", k.slug()) on:click=move |_| nav.new_game(k)>"Play"</button>
                        <button data-testid=format!("rules-{}", k.slug()) on:click=move |_| nav.go(Page::Rules(k))>"Rules"</button>
                    </div>
                </article>
            }
        })
        .collect_view();

    let mode = view! {
        <div class="home-mode" role="group" aria-label="how to play">
            <label>
                <input type="radio" name="mode" data-testid="home-local"
                    prop:checked=move || settings.with(|s| !s.vs_computer)
                    on:change=move |_| settings.update(|s| s.vs_computer = false)/>
                " Two players on this device"
            </label>
            <label>
                <input type="radio" name="mode" data-testid="home-computer"
                    prop:checked=move || settings.with(|s| s.vs_computer)
                    on:change=move |_| settings.update(|s| s.vs_computer = true)/>
                " Against the computer"
            </label>
            <Show when=move || settings.with(|s| s.vs_computer)>
                <label>
                    "Level "
                    <select aria-label="computer level" on:change=move |ev| {
                        if let Ok(l) = event_target_value(&ev).parse::<Level>() {
                            settings.update(|s| s.level = l)
                        }
                    }>
                        {Level::ALL.iter().map(|&l| view! {
                            <option value=l.slug() selected=move || settings.with(|s| s.level) == l>{l.name()}</option>
                        }).collect_view()}
                    </select>
                </label>
                <label>
                    "You move "
                    <select aria-label="your side" on:change=move |ev| {
                        let side = if event_target_value(&ev) == "second" { Side::Second } else { Side::First };
                        settings.update(|s| s.human_side = side)
                    }>
                        <option value="first" selected=move || settings.with(|s| s.human_side) == Side::First>"first"</option>
                        <option value="second" selected=move || settings.with(|s| s.human_side) == Side::Second>"second"</option>
                    </select>
                </label>
            </Show>
        </div>
    };
    let online = view! {
        <section class="card online-entry" data-testid="home-online">
            <h2>{online::text::ONLINE_HOME_TITLE}</h2>
            <p>{online::text::ONLINE_HOME_TEXT}</p>
            <div class="card-actions">
                <button class="primary" data-testid="play-online"
                    on:click=move |_| nav.go(Page::Online(online::OnlineLink::setup()))>{online::text::ONLINE_HOME_BUTTON}</button>
            </div>
            <online::ResumeList/>
        </section>
    };

    let recent = move || {
        let games = saved.get();
        if games.is_empty() {
            return view! { <p class="muted">"Games you play are kept here so you can come back to them."</p> }.into_any();
        }
        let items = games
            .into_iter()
            .map(|g| {
                let id = g.id;
                let title = format!("{} · {} · {} moves", g.kind.title(), g.mode, g.plies);
                let state = g
                    .result
                    .clone()
                    .unwrap_or_else(|| "in progress".to_string());
                let when = ago(g.updated);
                let g2 = g.clone();
                view! {
                    <li class="recent" data-testid="recent-game">
                        <div>
                            <strong>{title}</strong>
                            <span class="muted">{format!("{state} · {when}")}</span>
                        </div>
                        <button data-testid="resume" on:click=move |_| {
                            if let Err(e) = resume(nav, &g2) {
                                problem.set(Some(format!("This game could not be opened: {e}")));
                            }
                        }>{if g.result.is_some() { "Review" } else { "Resume" }}</button>
                        <button aria-label="forget this game" on:click=move |_| {
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
        let lines = store::stats();
        (!lines.is_empty()).then(|| {
            let rows = lines
                .into_iter()
                .map(|l| {
                    view! {
                        <tr>
                            <td>{l.kind.title()}</td>
                            <td>{l.level.name()}</td>
                            <td>{l.tally.wins}</td>
                            <td>{l.tally.draws}</td>
                            <td>{l.tally.losses}</td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <section class="stats">
                    <h2>"Your results against the computer"</h2>
                    <table data-testid="stats">
                        <thead><tr><th>"Game"</th><th>"Level"</th><th>"Won"</th><th>"Drawn"</th><th>"Lost"</th></tr></thead>
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
            <p class="error" role="alert">{move || problem.get()}</p>
            <section class="recent-games">
                <h2>"Recent games"</h2>
                {recent}
            </section>
            {stats}
        </div>
    }
}
