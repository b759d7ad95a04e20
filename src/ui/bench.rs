//! `?bench`: runs the search benchmark inside the AI worker and shows the
//! figures, so the browser's speed can be compared with `engine bench`.

use leptos::prelude::*;

use super::ai::Ai;
use crate::ai::bench::{total, BenchLine};
use crate::protocol::{Request, Response};

/// The benchmark screen.
#[component]
pub fn BenchPanel() -> impl IntoView {
    let ai = expect_context::<Ai>();
    let lines = RwSignal::new(None::<Result<Vec<BenchLine>, String>>);
    let id = ai.next_id();
    ai.send(Request::Bench { id }, move |answer| match answer {
        Response::Bench { lines: l, .. } => lines.set(Some(Ok(l))),
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
            <h2>"Search benchmark in the AI worker"</h2>
            {move || match lines.get() {
                None => view! { <p role="status">"Running… (about ten seconds)"</p> }.into_any(),
                Some(Err(e)) => view! { <p class="error" role="alert">{e}</p> }.into_any(),
                Some(Ok(l)) => {
                    let text = l
                        .iter()
                        .chain(std::iter::once(&total(&l)))
                        .map(|l| format!("{} {} nodes {:.0} ms {} nps", l.game, l.nodes, l.ms, l.nps()))
                        .collect::<Vec<_>>()
                        .join("\n");
                    view! {
                        <table>
                            <thead><tr><th>"game"</th><th>"nodes"</th><th>"ms"</th><th>"nodes/s"</th></tr></thead>
                            <tbody>{l.iter().map(row).collect_view()}{row(&total(&l))}</tbody>
                        </table>
                        <pre data-testid="bench-result">{text}</pre>
                    }
                    .into_any()
                }
            }}
        </section>
    }
}
