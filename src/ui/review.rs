//! Review after a game: the computer evaluates every position (in the
//! worker, one after another), the evaluation is drawn as a graph from the
//! first player's side (a score axis in pieces with its 0 line, a move
//! axis with the move list's numbers), and the moves where it dropped most for
//! the player who made them are marked. Clicking the graph shows that
//! position; clicking a marked move shows the position before it with the
//! move the computer preferred drawn on the board and named below it.
//!
//! What is decided (scores, drops, the better move) is in
//! [`crate::client::review`], tested natively; this draws it.

use leptos::prelude::*;

use super::ai::Ai;
use super::games::UiGame;
use super::words::use_lang;
use crate::ai::Level;
use crate::client::moves::{move_count, move_of_ply, move_rows, ply_after_move};
use crate::client::review::{move_ticks, pieces_label, score_axis, worst_moves, Analysis, CLAMP};
use crate::client::score::format_score;
use crate::games::{Record, Side};
use crate::protocol::{Request, Response};
use crate::t;

/// Thinking time per position.
const PER_POSITION_MS: u64 = 250;
/// The plot's size in its own units: drawn stretched to the panel's width
/// and [`PLOT_H`] units (CSS pixels) high.
const PLOT_W: f64 = 300.0;
const PLOT_H: f64 = 160.0;
/// Room above and below the score range, so the top and bottom marks show.
const PLOT_PAD: f64 = 8.0;
/// At most this many move numbers on the move axis (they fit a phone).
const MOVE_LABELS: usize = 6;

/// What the review panel is given: the props of [`Review`], so that the
/// panel can be drawn from its own chunk (see `ui/lazy.rs`).
pub struct ReviewArgs<G: UiGame> {
    pub record: Signal<Record<G>>,
    pub viewing: Signal<Option<usize>>,
    pub on_view: Callback<Option<usize>>,
    pub on_mark: Callback<Option<(usize, G::Move)>>,
}

/// The review panel for `args`.
pub fn review_view<G: UiGame>(args: ReviewArgs<G>) -> AnyView {
    let ReviewArgs {
        record,
        viewing,
        on_view,
        on_mark,
    } = args;
    view! { <Review<G> record=record viewing=viewing on_view=on_view on_mark=on_mark/> }.into_any()
}

/// The review panel of a finished game.
#[component]
pub fn Review<G: UiGame>(
    #[prop(into)] record: Signal<Record<G>>,
    /// The ply shown on the board (`None`: the end of the game).
    #[prop(into)]
    viewing: Signal<Option<usize>>,
    /// Shows the position after a ply (`None`: the end).
    on_view: Callback<Option<usize>>,
    /// Shows a move on the board: the computer's better move and the ply
    /// of the position it is for (`None`: nothing to show).
    on_mark: Callback<Option<(usize, G::Move)>>,
) -> impl IntoView {
    let ai = expect_context::<Ai>();
    let lang = use_lang();
    // Evaluations and best moves, one per position (start = 0).
    let analysis = RwSignal::new(Analysis::default());
    let evals = Memo::new(move |_| analysis.with(|a| a.evals.clone()));
    // The marked move whose better move is on the board (its ply).
    let chosen = RwSignal::new(None::<usize>);
    let running = RwSignal::new(false);
    let game = record.get_untracked();
    let total = game.moves().len();
    let movers: Vec<Side> = (0..total)
        .map(|ply| game.position_at(ply).side_to_move())
        .collect();
    let movers = StoredValue::new(movers);
    // The graph's move axis is labelled with the move list's numbers.
    let rows = move_rows(&game);
    let ticks: Vec<(usize, usize)> = move_ticks(move_count(&game), MOVE_LABELS)
        .into_iter()
        .filter_map(|n| Some((n, ply_after_move(&rows, n)?)))
        .collect();
    let ticks = StoredValue::new(ticks);
    let game = StoredValue::new(game);

    let start = move |_| {
        if running.get_untracked() {
            return;
        }
        running.set(true);
        analysis.set(Analysis::default());
        chosen.set(None);
        on_mark.run(None);
        next(ai, game, analysis, running);
    };
    on_cleanup(move || {
        if running.get_untracked() {
            ai.cancel();
        }
    });

    view! {
        <section class="review" aria-label=move || t!(lang.get(), "review.title")>
            <div class="review-head">
                <h3>{move || t!(lang.get(), "review.title")}</h3>
                <button on:click=start data-testid="analyse" disabled=move || running.get()>
                    {move || if running.get() {
                        t!(lang.get(), "review.analysing", done = analysis.with(Analysis::len), total = total + 1)
                    } else {
                        t!(lang.get(), "review.analyse").to_string()
                    }}
                </button>
            </div>
            <Show when=move || !analysis.with(Analysis::is_empty)>
                <ReviewChart evals=evals movers=movers total=total ticks=ticks viewing=viewing on_view=on_view/>
                <MistakeList game=game analysis=analysis evals=evals movers=movers chosen=chosen
                    viewing=viewing on_view=on_view on_mark=on_mark/>
            </Show>
        </section>
    }
}

// Asks for the next position's evaluation until all are done.
fn next<G: UiGame>(
    ai: Ai,
    game: StoredValue<Record<G>>,
    analysis: RwSignal<Analysis>,
    running: RwSignal<bool>,
) {
    let ply = analysis.with_untracked(Analysis::len);
    let request = game.with_value(|g| {
        let r = g.truncated(ply);
        if r.outcome().is_some() || ply > g.moves().len() {
            return None;
        }
        Some((
            Request::Think {
                id: ai.next_id(),
                game: G::variant(r.position().rules()),
                start: r.start().to_text(),
                moves: r.moves().iter().map(ToString::to_string).collect(),
                level: Level::Strong.slug().to_string(),
                movetime_ms: Some(PER_POSITION_MS),
                seed: 0,
            },
            r.position().side_to_move(),
        ))
    });
    let Some((request, side)) = request else {
        // The final position: score it by the result.
        game.with_value(|g| {
            let last = g.outcome().map(|o| match o.winner {
                Some(Side::First) => CLAMP,
                Some(Side::Second) => -CLAMP,
                None => 0,
            });
            if let (Some(v), true) = (
                last,
                analysis.with_untracked(|a| a.len() == g.moves().len()),
            ) {
                analysis.update(|a| a.push_final(v));
            }
        });
        running.set(false);
        return;
    };
    ai.send(request, move |answer| match answer {
        Response::Best { score, mv, .. } => {
            analysis.update(|a| a.push(side, score, mv));
            next(ai, game, analysis, running);
        }
        Response::Error { .. } => running.set(false),
        _ => {}
    });
}

/// Where ply `ply` of `total` is across the plot.
fn x_of(ply: usize, total: usize) -> f64 {
    if total == 0 {
        0.0
    } else {
        ply as f64 / total as f64 * PLOT_W
    }
}

/// Where score `v` is up the plot when the axis runs to `range`.
fn y_of(v: i32, range: i32) -> f64 {
    PLOT_H / 2.0 - f64::from(v) / f64::from(range.max(1)) * (PLOT_H / 2.0 - PLOT_PAD)
}

/// The evaluation graph with its axes and their labels; clicking it shows
/// the position at that point of the game.
#[component]
fn ReviewChart(
    evals: Memo<Vec<i32>>,
    movers: StoredValue<Vec<Side>>,
    total: usize,
    /// The move numbers labelled, each with the ply after that move.
    ticks: StoredValue<Vec<(usize, usize)>>,
    viewing: Signal<Option<usize>>,
    on_view: Callback<Option<usize>>,
) -> impl IntoView {
    let lang = use_lang();
    let (w, h) = (PLOT_W, PLOT_H);
    let x_at = move |ply: usize| x_of(ply, total);
    // The score axis follows the scores so far (1, 2, 5 or 10 pieces).
    let axis = Memo::new(move |_| evals.with(|e| score_axis(e)));
    let graph = move || {
        let e = evals.get();
        let (range, scores) = axis.get();
        let points: Vec<String> = e
            .iter()
            .enumerate()
            .map(|(i, &v)| format!("{:.1},{:.1}", x_at(i), y_of(v, range)))
            .collect();
        let worst = movers.with_value(|m| worst_moves(&e, m));
        let marks = worst
            .iter()
            .map(|&(ply, _)| {
                let (x, y) = (x_at(ply), y_of(e[ply], range));
                view! { <circle class="review-mark" cx=x cy=y r="4"/> }
            })
            .collect_view();
        let cursor = viewing.get().map(|p| {
            let x = x_at(p);
            view! { <line class="review-cursor" x1=x y1="0" x2=x y2=h/> }
        });
        let rows = scores
            .into_iter()
            .filter(|&v| v != 0)
            .map(|v| {
                let y = y_of(v, range);
                view! { <line class="review-grid" x1="0" y1=y x2=w y2=y/> }
            })
            .collect_view();
        let columns = ticks.with_value(|t| {
            t.iter()
                .map(|&(_, ply)| {
                    let x = x_at(ply);
                    view! { <line class="review-grid" x1=x y1="0" x2=x y2=h/> }
                })
                .collect_view()
        });
        view! {
            {rows}
            {columns}
            <line class="review-axis" data-testid="review-zero" x1="0" y1=h / 2.0 x2=w y2=h / 2.0/>
            <polyline class="review-line" points=points.join(" ")/>
            {marks}
            {cursor}
        }
    };
    // The axes' labels are HTML beside and under the plot, so they keep
    // their size however the plot is stretched; placed in percent of it.
    let score_labels = move || {
        let (range, scores) = axis.get();
        scores
            .into_iter()
            .map(|v| {
                let top = y_of(v, range) / h * 100.0;
                view! { <span style=format!("top: {top:.2}%")>{pieces_label(v)}</span> }
            })
            .collect_view()
    };
    let move_labels = move || {
        ticks.with_value(|t| {
            t.iter()
                .map(|&(n, ply)| {
                    let left = x_at(ply) / w * 100.0;
                    view! { <span style=format!("left: {left:.2}%")>{n}</span> }
                })
                .collect_view()
        })
    };
    let on_graph_click = move |ev: leptos::ev::MouseEvent| {
        let Some(target) = ev.current_target() else {
            return;
        };
        let el: web_sys::Element = wasm_bindgen::JsCast::unchecked_into(target);
        let rect = el.get_bounding_client_rect();
        if rect.width() <= 0.0 || total == 0 {
            return;
        }
        let frac = (f64::from(ev.client_x()) - rect.left()) / rect.width();
        let ply = (frac * total as f64).round().clamp(0.0, total as f64) as usize;
        on_view.run((ply < total).then_some(ply));
    };
    view! {
        <div class="review-chart" data-testid="review-chart">
            <span class="review-y-title" data-testid="review-y-title">
                {move || t!(lang.get(), "review.axis_score")}
            </span>
            <div class="review-y" data-testid="review-y" aria-hidden="true">{score_labels}</div>
            <svg class="review-graph" viewBox=format!("0 0 {w} {h}") preserveAspectRatio="none"
                 role="img" aria-label=move || t!(lang.get(), "review.graph_aria")
                 on:click=on_graph_click data-testid="review-graph">
                {graph}
            </svg>
            <div class="review-x" data-testid="review-x" aria-hidden="true">{move_labels}</div>
            <span class="review-x-title" data-testid="review-x-title">
                {move || t!(lang.get(), "review.axis_move")}
            </span>
        </div>
    }
}

/// The moves where the evaluation dropped most, each a button that shows
/// the position before it with the computer's better move, named below it.
#[component]
fn MistakeList<G: UiGame>(
    game: StoredValue<Record<G>>,
    analysis: RwSignal<Analysis>,
    evals: Memo<Vec<i32>>,
    movers: StoredValue<Vec<Side>>,
    chosen: RwSignal<Option<usize>>,
    viewing: Signal<Option<usize>>,
    on_view: Callback<Option<usize>>,
    on_mark: Callback<Option<(usize, G::Move)>>,
) -> impl IntoView {
    let lang = use_lang();
    let total = game.with_value(|g| g.moves().len());
    // A marked move: the position before it, with the better move on the board.
    let choose = move |ply: usize| {
        let better = analysis.with_untracked(|a| game.with_value(|g| a.better_move(g, ply)));
        chosen.set(Some(ply));
        on_mark.run(better.map(|mv| (ply - 1, mv)));
        on_view.run(Some(ply - 1));
    };
    // The line under the chosen move, while its position is on the board.
    let better_line = move |ply: usize| {
        if chosen.get() != Some(ply) || viewing.get() != Some(ply - 1) {
            return None;
        }
        let lang = lang.get();
        let text = analysis.with(|a| {
            game.with_value(|g| {
                let played = g.moves()[ply - 1];
                let n = move_of_ply(g, ply).map_or(ply, |m| m.number);
                match a.better_move(g, ply) {
                    Some(better) => t!(
                        lang,
                        "review.better",
                        n = n,
                        better = better,
                        move = played
                    ),
                    None => t!(lang, "review.no_better", n = n, move = played),
                }
            })
        });
        Some(
            view! { <p class="review-better" data-testid="review-better" role="status">{text}</p> },
        )
    };
    let mistakes = move || {
        let lang = lang.get();
        let e = evals.get();
        let done = e.len() == total + 1;
        let worst = movers.with_value(|m| worst_moves(&e, m));
        let text = game.with_value(|g| {
            worst
                .iter()
                .map(|&(ply, drop)| {
                    let mv = g.moves()[ply - 1];
                    // Named as the move list names it: its row and side.
                    let (n, side) = move_of_ply(g, ply)
                        .map_or((ply, g.position_at(ply - 1).side_to_move()), |m| {
                            (m.number, m.side)
                        });
                    let who = G::side_name(lang, side);
                    (
                        ply,
                        t!(
                            lang,
                            "review.mistake",
                            n = n,
                            side = who,
                            move = mv,
                            score = format_score(lang, -drop)
                        ),
                    )
                })
                .collect::<Vec<_>>()
        });
        if done && text.is_empty() {
            view! { <li>{t!(lang, "review.no_mistakes")}</li> }.into_any()
        } else {
            text.into_iter()
                .map(|(ply, t)| view! {
                    <li>
                        <button class="link" data-testid="mistake" aria-pressed=move || (chosen.get() == Some(ply) && viewing.get() == Some(ply - 1)).to_string()
                            on:click=move |_| choose(ply)>{t}</button>
                        {move || better_line(ply)}
                    </li>
                })
                .collect_view()
                .into_any()
        }
    };
    view! { <ul class="review-mistakes" data-testid="mistakes">{mistakes}</ul> }
}
