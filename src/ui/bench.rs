//! `?bench`: runs the search benchmark inside the AI worker and shows the
//! figures, so the browser's speed can be compared with `engine bench`.

use leptos::prelude::*;

use super::ai::Ai;
use super::words::use_lang;
use crate::ai::bench::total;
use crate::protocol::BenchLine;
use crate::protocol::{Request, Response};
use crate::t;

/// The benchmark screen.
#[component]
pub fn BenchPanel() -> impl IntoView {
    let ai = expect_context::<Ai>();
    let lang = use_lang();
    let lines = RwSignal::new(None::<Result<(Vec<BenchLine>, Vec<BenchLine>), String>>);
    let id = ai.next_id();
    ai.send(Request::Bench { id }, move |answer| match answer {
        Response::Bench {
            lines: l, first, ..
        } => lines.set(Some(Ok((l, first)))),
        Response::Error { message, .. } => lines.set(Some(Err(message))),
        _ => {}
    });
    let row = |l: &BenchLine| {
        view! {
            <tr>
                <td>{l.game.clone()}</td>
                <td>{l.nodes}</td>
                <td>{format!("{:.0}", l.ms)}</td>
                <td>{l.nps()}</td>
            </tr>
        }
    };
    view! {
        <section class="bench">
            <h2>{move || t!(lang.get(), "bench.title")}</h2>
            {move || match lines.get() {
                None => view! { <p role="status">{move || t!(lang.get(), "bench.running")}</p> }.into_any(),
                Some(Err(e)) => view! { <p class="error" role="alert">{e}</p> }.into_any(),
                Some(Ok((l, first))) => {
                    let text = as_text(&l);
                    let first_text = as_text(&first);
                    view! {
                        <p>{move || t!(lang.get(), "bench.second")}</p>
                        <table>
                            <thead><tr>
                                <th>{move || t!(lang.get(), "bench.game")}</th>
                                <th>{move || t!(lang.get(), "bench.nodes")}</th>
                                <th>{move || t!(lang.get(), "bench.ms")}</th>
                                <th>{move || t!(lang.get(), "bench.nps")}</th>
                            </tr></thead>
                            <tbody>{l.iter().map(row).collect_view()}{row(&total(&l))}</tbody>
                        </table>
                        <pre data-testid="bench-result">{text}</pre>
                        <p>{move || t!(lang.get(), "bench.first")}</p>
                        <pre data-testid="bench-first">{first_text}</pre>
                    }
                    .into_any()
                }
            }}
        </section>
    }
}

/// The lines and their total as `engine bench` prints them.
fn as_text(lines: &[BenchLine]) -> String {
    lines
        .iter()
        .chain(std::iter::once(&total(lines)))
        .map(|l| {
            format!(
                "{} {} nodes {:.0} ms {} nps",
                l.game,
                l.nodes,
                l.ms,
                l.nps()
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}
