//! A player's page (issue 37, `?player=NAME` or `?player=ID`): ratings per
//! game, each game's rating history as a small SVG chart, their finished
//! games twenty a page (newest first), each opening in review through the
//! server's `archive`, and a leaderboard per game. Everything comes from
//! the server over the page's connection; nothing here decides a rating.

use leptos::prelude::*;

use super::room::open_in_review;
use super::socket::Driver;
use super::text;
use crate::client::online::chart::rating_chart;
use crate::client::online::identity::rating_change;
use crate::client::online::link::{OnlineLink, Route};
use crate::client::online::session::{Finished, PlayerView};
use crate::games::{GameKind, Side};
use crate::i18n::Lang;
use crate::protocol::online::{ClientMsg, GameSummary, PlayerTag, RatingHistory};
use crate::ui::address::server_param;
use crate::ui::games::game_title;
use crate::ui::page::Nav;
use crate::ui::words::use_lang;
use crate::{t, tn};

/// The games with a rating (and so a leaderboard), as the server rates them.
const RATED_GAMES: [GameKind; 3] = [GameKind::Ataxx, GameKind::Stones, GameKind::Mill];

/// A link to `tag`'s page on `server`.
fn player_link(tag: &PlayerTag, server: &str) -> String {
    OnlineLink {
        route: Route::Player {
            who: tag.id.clone(),
        },
        server: server_param(server),
    }
    .query()
}

/// One line of a player's game: who played, the result, the change.
fn game_line(lang: Lang, g: &GameSummary, me: &str) -> String {
    let name = |i: usize| {
        g.players[i].as_ref().map_or_else(
            || t!(lang, "online.anonymous").to_string(),
            |p| p.name.clone(),
        )
    };
    let result = match g.outcome.winner {
        Some(w) => t!(lang, "online.result_winner", side = name(w.index())),
        None => t!(lang, "online.result_draw").to_string(),
    };
    let mine = g
        .players
        .iter()
        .position(|p| p.as_ref().is_some_and(|p| p.id == me));
    let change = mine
        .filter(|_| g.counted)
        .and_then(|i| g.before[i].zip(g.after[i]))
        .map(|(b, a)| format!(" · {}", rating_change(b, a)));
    format!(
        "{} · {} – {} · {} · {}{}",
        game_title(lang, g.game.kind()),
        name(Side::First.index()),
        name(Side::Second.index()),
        result,
        if g.rated {
            t!(lang, "online.rated")
        } else {
            t!(lang, "online.casual")
        },
        change.unwrap_or_default()
    )
}

/// One game's rating history, drawn.
fn history_chart(lang: Lang, h: &RatingHistory) -> impl IntoView {
    let (w, hgt) = (240.0, 72.0);
    let chart = rating_chart(&h.points, w, hgt, 6.0);
    let title = game_title(lang, h.game);
    chart.map(|c| {
        view! {
            <figure class="rating-chart" data-testid=format!("chart-{}", h.game.slug())>
                <svg viewBox=format!("0 0 {w} {hgt}") role="img"
                    aria-label=t!(lang, "online.chart_aria", game = title, low = c.low, high = c.high)>
                    <path class="rating-line" d=c.path fill="none"/>
                    <circle class="rating-dot" cx=c.last.0 cy=c.last.1 r="3"/>
                    <text x="2" y="10" class="rating-axis">{c.high}</text>
                    <text x="2" y=hgt - 2.0 class="rating-axis">{c.low}</text>
                </svg>
                <figcaption>{title}</figcaption>
            </figure>
        }
    })
}

/// The player's page and the leaderboards.
#[component]
pub fn PlayerPage(driver: Driver) -> impl IntoView {
    let lang = use_lang();
    let nav = expect_context::<Nav>();
    let session = driver.session;
    let server = StoredValue::new(driver.url.get_value());
    let view_of = Memo::new(move |_| session.with(|s| s.player.clone()));
    let board_game = RwSignal::new(None::<GameKind>);
    let review_failed = RwSignal::new(false);

    // An archived game, once it comes, opens in review.
    Effect::new(move |_| {
        let Some(a) = session.with(|s| s.archive.clone()) else {
            return;
        };
        let f = Finished {
            room: a.game.room.clone(),
            game_no: a.game.game_no,
            game: a.game.game,
            start: a.start,
            moves: a.moves,
            outcome: a.game.outcome,
            you: None,
            names: a.game.players.clone().map(|p| p.map(|p| p.name)),
        };
        review_failed.set(!open_in_review(nav, &f, &server.get_value()));
    });
    let show_board = move |game: GameKind| {
        board_game.set(Some(game));
        driver.ask(ClientMsg::Leaderboard { game });
    };
    // The first game's leaderboard once the connection is up.
    Effect::new(move |_| {
        let open =
            session.with(|s| s.connection == crate::client::online::session::Connection::Open);
        if open && board_game.get_untracked().is_none() && view_of.with(|v| v.is_some()) {
            let first = view_of.with_untracked(|v| {
                v.as_ref()
                    .and_then(|v| v.ratings.first().map(|r| r.game))
                    .unwrap_or(GameKind::Ataxx)
            });
            show_board(first);
        }
    });

    let page_view = move |v: PlayerView| {
        let lang = lang.get();
        let me = v.player.id.clone();
        let ratings = v
            .ratings
            .iter()
            .map(|r| {
                let tag = PlayerTag {
                    id: String::new(),
                    name: String::new(),
                    rating: Some(r.rating),
                    provisional: r.provisional,
                };
                let rating = crate::client::online::identity::rating_text(&tag).unwrap_or_default();
                view! {
                    <tr data-testid=format!("rating-{}", r.game.slug())>
                        <th scope="row">{game_title(lang, r.game)}</th>
                        <td>{rating}</td>
                        <td>{t!(lang, "online.record_line", games = r.games, wins = r.wins, losses = r.losses, draws = r.draws)}</td>
                    </tr>
                }
            })
            .collect_view();
        let charts = v
            .history
            .iter()
            .map(|h| history_chart(lang, h))
            .collect_view();
        let games = v
            .games
            .iter()
            .map(|g| {
                let line = game_line(lang, g, &me);
                let (room, game_no) = (g.room.clone(), g.game_no);
                view! {
                    <li class="recent" data-testid="player-game">
                        <div>{line}</div>
                        <button data-testid="player-game-review" on:click=move |_| {
                            driver.ask(ClientMsg::Archive { room: room.clone(), game_no });
                        }>{t!(lang, "online.review")}</button>
                    </li>
                }
            })
            .collect_view();
        let (page, pages) = (v.page, v.pages.max(1));
        view! {
            <h2 data-testid="player-name">{v.player.name.clone()}</h2>
            <table class="ratings" data-testid="player-ratings">
                <tbody>{ratings}</tbody>
            </table>
            {v.ratings.is_empty().then(|| view! { <p class="muted">{t!(lang, "online.no_ratings")}</p> })}
            <div class="rating-charts">{charts}</div>
            <section class="recent-games player-games">
                <h2>{t!(lang, "online.player_games")}</h2>
                {v.games.is_empty().then(|| view! { <p class="muted" data-testid="no-player-games">{t!(lang, "online.no_player_games")}</p> })}
                <ul>{games}</ul>
                <div class="card-actions pager">
                    <button data-testid="page-prev" disabled={page == 0} on:click=move |_| driver.player_page(page.saturating_sub(1))>{t!(lang, "online.page_prev")}</button>
                    <span data-testid="page-of">{t!(lang, "online.page_of", page = page + 1, pages = pages)}</span>
                    <button data-testid="page-next" disabled={page + 1 >= pages} on:click=move |_| driver.player_page(page + 1)>{t!(lang, "online.page_next")}</button>
                </div>
            </section>
        }
    };

    let board_view = move || {
        let lang = lang.get();
        let game = board_game.get()?;
        let rows = session.with(|s| {
            s.leaderboards
                .iter()
                .find(|(g, _)| *g == game)
                .map(|(_, rows)| rows.clone())
        });
        Some(match rows {
            None => view! { <p class="muted">{t!(lang, "online.loading")}</p> }.into_any(),
            Some(rows) if rows.is_empty() => {
                view! { <p class="muted" data-testid="leaderboard-empty">{t!(lang, "online.leaderboard_empty")}</p> }.into_any()
            }
            Some(rows) => {
                let lines = rows
                    .into_iter()
                    .enumerate()
                    .map(|(i, row)| {
                        let href = player_link(&row.player, &server.get_value());
                        view! {
                            <li data-testid="leaderboard-row">
                                {format!("{}. ", i + 1)}
                                <a href=href>{text::player(&row.player)}</a>
                                {format!(" · {}", tn!(lang, "online.games_count", row.games))}
                            </li>
                        }
                    })
                    .collect_view();
                view! { <ol class="leaderboard" data-testid="leaderboard">{lines}</ol> }.into_any()
            }
        })
    };
    let board_buttons = move || {
        RATED_GAMES
        .into_iter()
        .map(|g| {
            view! {
                <button data-testid=format!("leaderboard-{}", g.slug()) aria-pressed=move || (board_game.get() == Some(g)).to_string()
                    on:click=move |_| show_board(g)>{move || game_title(lang.get(), g)}</button>
            }
        })
        .collect_view()
    };

    view! {
        <div class="online-card player-page" data-testid="player-page">
            {move || match view_of.get() {
                Some(v) => page_view(v).into_any(),
                None if session.with(|s| s.lobby_unavailable) => view! {
                    <p class="muted" data-testid="player-unavailable">{move || t!(lang.get(), "online.player_unavailable")}</p>
                }.into_any(),
                None => view! { <p class="muted">{move || t!(lang.get(), "online.loading")}</p> }.into_any(),
            }}
            <Show when=move || review_failed.get()>
                <p class="warn" role="alert">{move || t!(lang.get(), "online.archive_broken")}</p>
            </Show>
            // Not offered by an older server: the line above says so.
            <Show when=move || !session.with(|s| s.lobby_unavailable)>
                <section class="recent-games">
                    <h2>{move || t!(lang.get(), "online.leaderboard_title")}</h2>
                    <div class="card-actions">{board_buttons}</div>
                    {board_view}
                </section>
            </Show>
        </div>
    }
}
