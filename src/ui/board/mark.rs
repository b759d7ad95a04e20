//! A move to show (the computer's hint, the review's better move), drawn
//! over the pieces the same way in every game: an arrow, rings on its ends
//! and crosses on what it removes.

use leptos::prelude::*;

use super::props::CELL;
use crate::client::mark::Mark;

/// Radius of the rings on a mark's ends, in board units.
const MARK_RING: f64 = 44.0;

/// The outline of an arrow from `a` to `b` (board units): a shaft from
/// the centre of `a`, and a head whose tip stops short of the centre of
/// `b`, so the piece or point there stays visible around it.
pub fn arrow_path(a: (f64, f64), b: (f64, f64)) -> String {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy);
    if len < 1.0 {
        return String::new();
    }
    let (ux, uy) = (dx / len, dy / len);
    // The normal, to the left of the direction of travel.
    let (nx, ny) = (-uy, ux);
    let (shaft, head_w, head_l) = (9.0, 26.0, 42.0);
    let tip = len - CELL * 0.16;
    let neck = (tip - head_l).max(CELL * 0.1);
    let at = |along: f64, side: f64| {
        format!(
            "{:.1} {:.1}",
            a.0 + ux * along + nx * side,
            a.1 + uy * along + ny * side
        )
    };
    format!(
        "M{} L{} L{} L{} L{} L{} L{} Z",
        at(0.0, shaft),
        at(neck, shaft),
        at(neck, head_w),
        at(tip, 0.0),
        at(neck, -head_w),
        at(neck, -shaft),
        at(0.0, -shaft),
    )
}

/// The layer that draws the board's [`Mark`] over the pieces: a dashed
/// ring where the piece starts, a solid ring where it arrives, an arrow
/// between them, and a ring with a cross on a piece to be removed. It
/// takes no pointer events and is hidden from screen readers (the same
/// move is written on the notice line). `centre` places a spot, `name`
/// names it in the `data-at`/`data-from`/`data-to` attributes.
pub fn mark_layer(
    marked: Signal<Option<Mark>>,
    centre: impl Fn(u8) -> (f64, f64) + Copy + Send + Sync + 'static,
    name: fn(u8) -> String,
) -> impl IntoView {
    move || {
        let m = marked.get().filter(|m| !m.is_empty())?;
        let ring = move |spot: u8, class: &'static str| {
            let (cx, cy) = centre(spot);
            view! { <circle class=class data-testid=class data-at=name(spot) cx=cx cy=cy r=MARK_RING/> }
        };
        let from = m.from.map(|s| ring(s, "mark-from"));
        let to = m.to.map(|s| ring(s, "mark-to"));
        let arrow = m.arrow().map(|(a, b)| {
            view! {
                <path class="mark-arrow" data-testid="mark-arrow" data-from=name(a) data-to=name(b)
                    d=arrow_path(centre(a), centre(b))/>
            }
        });
        let removes = m.removes.map(|s| {
            let (cx, cy) = centre(s);
            let d = MARK_RING * 0.55;
            view! {
                <g class="mark-remove" data-testid="mark-remove" data-at=name(s)>
                    <circle cx=cx cy=cy r=MARK_RING/>
                    <path d=format!("M{} {} L{} {} M{} {} L{} {}", cx - d, cy - d, cx + d, cy + d, cx + d, cy - d, cx - d, cy + d)/>
                </g>
            }
        });
        Some(view! {
            <g class="move-mark" data-testid="move-mark" aria-hidden="true">
                {from}
                {to}
                {arrow}
                {removes}
            </g>
        })
    }
}
