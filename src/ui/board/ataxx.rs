//! The Territory Duel board: 7×7 squares drawn in SVG.
//!
//! The board holds no rules: clone and jump targets come from the engine.
//! A tap or click selects a piece and a second one moves it; a piece can also
//! be dragged to a target. The last move, flipped pieces and targets are
//! drawn distinctly (shape as well as colour).

use leptos::prelude::*;

use super::{client_to_cell, CELL};
use crate::games::ataxx::{square_name, Ataxx, AtaxxMove, Square};
use crate::games::{Game, Record, Side};

const N: u8 = 7;

/// Top-left corner of a square in board units (rank 7 at the top).
fn origin(sq: Square) -> (f64, f64) {
    let file = sq % N;
    let rank = sq / N;
    (f64::from(file) * CELL, f64::from(N - 1 - rank) * CELL)
}

/// The square at a board cell, if it is on the board.
fn square_at(cell: Option<(i32, i32)>) -> Option<Square> {
    cell.map(|(col, row)| ((N as i32 - 1 - row) * N as i32 + col) as Square)
}

/// Human name of a side in Territory Duel.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "X",
        Side::Second => "O",
    }
}

/// A piece being dragged: where from, and where the pointer is (board units).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Drag {
    from: Square,
    x: f64,
    y: f64,
    moved: bool,
    was_selected: bool,
}

/// What the last move did, for highlighting and animation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct LastMove {
    pub from: Option<Square>,
    pub to: Option<Square>,
    pub flipped: u64,
    /// Number of moves played, so a re-rendered piece restarts its animation.
    pub ply: usize,
}

/// The last move of `record` with the pieces it flipped.
pub fn last_move(record: &Record<Ataxx>) -> LastMove {
    let ply = record.moves().len();
    let Some(&mv) = record.moves().last() else {
        return LastMove::default();
    };
    let before = record.position_at(ply - 1);
    let (from, to) = match mv {
        AtaxxMove::Pass => (None, None),
        AtaxxMove::Clone { to } => (None, Some(to)),
        AtaxxMove::Jump { from, to } => (Some(from), Some(to)),
    };
    LastMove {
        from,
        to,
        flipped: before.flips(mv),
        ply,
    }
}

/// The move that puts the selected piece on `to`, if there is one.
fn move_to(pos: &Ataxx, from: Square, to: Square) -> Option<AtaxxMove> {
    if pos.clone_targets(from) >> to & 1 == 1 {
        Some(AtaxxMove::Clone { to })
    } else if pos.jump_targets(from) >> to & 1 == 1 {
        Some(AtaxxMove::Jump { from, to })
    } else {
        None
    }
}

/// The interactive board. `enabled` is false while paused or after the game.
#[component]
pub fn AtaxxBoard(
    record: RwSignal<Record<Ataxx>>,
    selected: RwSignal<Option<Square>>,
    #[prop(into)] enabled: Signal<bool>,
    #[prop(into)] hints: Signal<bool>,
    on_move: Callback<AtaxxMove>,
) -> impl IntoView {
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();
    let drag = RwSignal::new(None::<Drag>);
    let last = Memo::new(move |_| record.with(last_move));
    let targets = Memo::new(move |_| {
        let Some(from) = selected.get() else {
            return (0u64, 0u64);
        };
        record.with(|r| {
            let p = r.position();
            (p.clone_targets(from), p.jump_targets(from))
        })
    });

    // Select, deselect or move, as a tap/click/Enter on `sq` does.
    let activate = move |sq: Square| {
        if !enabled.get_untracked() {
            return;
        }
        let pos = record.with_untracked(|r| *r.position());
        if let Some(from) = selected.get_untracked() {
            if let Some(mv) = move_to(&pos, from, sq) {
                on_move.run(mv);
                return;
            }
        }
        if pos.piece_at(sq) == Some(pos.side_to_move()) && selected.get_untracked() != Some(sq) {
            selected.set(Some(sq));
        } else {
            selected.set(None);
        }
    };

    let point = move |ev: &web_sys::PointerEvent| -> Option<(f64, f64)> {
        let svg = svg_ref.get_untracked()?;
        let rect = svg.get_bounding_client_rect();
        let size = f64::from(N) * CELL;
        Some((
            (f64::from(ev.client_x()) - rect.left()) / rect.width() * size,
            (f64::from(ev.client_y()) - rect.top()) / rect.height() * size,
        ))
    };

    let on_down = move |ev: web_sys::PointerEvent| {
        if ev.button() != 0 {
            return;
        }
        let Some((x, y)) = point(&ev) else { return };
        let Some(sq) = square_at(client_to_cell(x, y, N)) else {
            selected.set(None);
            return;
        };
        ev.prevent_default();
        let was_selected = selected.get_untracked() == Some(sq);
        let own = enabled.get_untracked()
            && record
                .with_untracked(|r| r.position().piece_at(sq) == Some(r.position().side_to_move()));
        if !own {
            activate(sq);
            return;
        }
        // Pressing one's own piece selects it and may start a drag; a press
        // and release without moving on a piece already selected deselects it.
        selected.set(Some(sq));
        drag.set(Some(Drag {
            from: sq,
            x,
            y,
            moved: false,
            was_selected,
        }));
        if let Some(svg) = svg_ref.get_untracked() {
            let _ = svg.set_pointer_capture(ev.pointer_id());
        }
    };
    let on_move_ptr = move |ev: web_sys::PointerEvent| {
        if drag.with_untracked(|d| d.is_none()) {
            return;
        }
        if let Some((x, y)) = point(&ev) {
            drag.update(|d| {
                if let Some(d) = d {
                    let (ox, oy) = origin(d.from);
                    let far = (x - ox - CELL / 2.0).abs() > CELL * 0.3
                        || (y - oy - CELL / 2.0).abs() > CELL * 0.3;
                    d.moved |= far;
                    d.x = x;
                    d.y = y;
                }
            });
        }
    };
    let on_up = move |ev: web_sys::PointerEvent| {
        let Some(d) = drag.get_untracked() else {
            return;
        };
        drag.set(None);
        if !d.moved {
            if d.was_selected {
                selected.set(None);
            }
            return;
        }
        let target = point(&ev).and_then(|(x, y)| square_at(client_to_cell(x, y, N)));
        let pos = record.with_untracked(|r| *r.position());
        match target.and_then(|to| move_to(&pos, d.from, to)) {
            Some(mv) if enabled.get_untracked() => on_move.run(mv),
            _ => {}
        }
    };

    let squares = (0..N * N)
        .map(|sq| {
            let (x, y) = origin(sq);
            let name = square_name(sq);
            let dark = (sq % N + sq / N).is_multiple_of(2);
            let cls = move || {
                let (clone_t, jump_t) = targets.get();
                let l = last.get();
                let mut c = String::from("sq");
                c.push_str(if dark { " dark" } else { " light" });
                if record.with(|r| r.position().is_gap(sq)) {
                    c.push_str(" gap");
                }
                if selected.get() == Some(sq) {
                    c.push_str(" selected");
                }
                if clone_t >> sq & 1 == 1 {
                    c.push_str(" target-clone");
                }
                if jump_t >> sq & 1 == 1 {
                    c.push_str(" target-jump");
                }
                if l.from == Some(sq) {
                    c.push_str(" last-from");
                }
                if l.to == Some(sq) {
                    c.push_str(" last-to");
                }
                c
            };
            let name_for_label = name.clone();
            let label = move || {
                let (clone_t, jump_t) = targets.get();
                let what = record.with(|r| {
                    let p = r.position();
                    if p.is_gap(sq) {
                        "blocked".to_string()
                    } else {
                        match p.piece_at(sq) {
                            Some(s) => format!("{} piece", side_name(s)),
                            None => "empty".to_string(),
                        }
                    }
                });
                let mut l = format!("{name_for_label}, {what}");
                if selected.get() == Some(sq) {
                    l.push_str(", selected");
                }
                if clone_t >> sq & 1 == 1 {
                    l.push_str(", clone here");
                }
                if jump_t >> sq & 1 == 1 {
                    l.push_str(", jump here");
                }
                l
            };
            let piece = move || {
                let (owner, ply_key, flipped, fresh) = record.with(|r| {
                    let l = last.get();
                    (
                        r.position().piece_at(sq),
                        l.ply,
                        l.flipped >> sq & 1 == 1,
                        l.to == Some(sq),
                    )
                });
                let dragging = drag.with(|d| d.is_some_and(|d| d.moved && d.from == sq));
                owner.map(|side| {
                    let _ = ply_key;
                    let cls = format!(
                        "piece {}{}{}{}",
                        if side == Side::First { "px" } else { "po" },
                        if flipped { " flip" } else { "" },
                        if fresh { " fresh" } else { "" },
                        if dragging { " lifted" } else { "" },
                    );
                    piece_shape(side, x + CELL / 2.0, y + CELL / 2.0, cls)
                })
            };
            let hint = move || {
                if !hints.get() {
                    return None;
                }
                let (clone_t, jump_t) = targets.get();
                let (cx, cy) = (x + CELL / 2.0, y + CELL / 2.0);
                if clone_t >> sq & 1 == 1 {
                    Some(view! { <circle class="hint hint-clone" cx=cx cy=cy r="13"/> }.into_any())
                } else if jump_t >> sq & 1 == 1 {
                    Some(view! { <circle class="hint hint-jump" cx=cx cy=cy r="17"/> }.into_any())
                } else {
                    None
                }
            };
            let on_key = move |ev: web_sys::KeyboardEvent| {
                if ev.key() == "Enter" || ev.key() == " " {
                    ev.prevent_default();
                    activate(sq);
                } else if ev.key() == "Escape" {
                    selected.set(None);
                }
            };
            let file_label = (sq / N == 0).then(|| {
                let t = ((b'a' + sq % N) as char).to_string();
                view! { <text class="coord" x=x + CELL - 5.0 y=y + CELL - 5.0 text-anchor="end">{t}</text> }
            });
            let rank_label = (sq % N == 0).then(|| {
                let t = (sq / N + 1).to_string();
                view! { <text class="coord" x=x + 5.0 y=y + 17.0>{t}</text> }
            });
            view! {
                <g class=cls role="button" tabindex="0" aria-label=label data-square=name on:keydown=on_key>
                    <rect class="cell" x=x y=y width=CELL height=CELL/>
                    {file_label}
                    {rank_label}
                    {hint}
                    {piece}
                </g>
            }
        })
        .collect_view();

    let ghost = move || {
        let d = drag.get()?;
        if !d.moved {
            return None;
        }
        let side = record.with(|r| r.position().piece_at(d.from))?;
        Some(piece_shape(side, d.x, d.y, "piece ghost".to_string()))
    };

    let size = f64::from(N) * CELL;
    view! {
        <svg
            node_ref=svg_ref
            class="board ataxx-board"
            viewBox=format!("0 0 {size} {size}")
            role="grid"
            aria-label="Territory Duel board"
            on:pointerdown=on_down
            on:pointermove=on_move_ptr
            on:pointerup=on_up
            on:pointercancel=move |_| drag.set(None)
        >
            {squares}
            {ghost}
        </svg>
    }
}

/// A piece: X is a dark disc with a cross, O a light disc with a ring, so
/// the sides differ by shape as well as by colour.
fn piece_shape(side: Side, cx: f64, cy: f64, class: String) -> AnyView {
    match side {
        Side::First => view! {
            <g class=class>
                <circle class="body" cx=cx cy=cy r="36"/>
                <path class="mark" d=format!("M{} {} l20 20 M{} {} l-20 20", cx - 10.0, cy - 10.0, cx + 10.0, cy - 10.0)/>
            </g>
        }
        .into_any(),
        Side::Second => view! {
            <g class=class>
                <circle class="body" cx=cx cy=cy r="36"/>
                <circle class="mark" cx=cx cy=cy r="14"/>
            </g>
        }
        .into_any(),
    }
}
