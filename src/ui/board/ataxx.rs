//! The Territory Duel board: 7×7 squares drawn in SVG.
//!
//! Tap or click a piece to see its clone targets (filled dots) and jump
//! targets (dashed rings), then tap a target; or drag the piece. The last
//! move, flipped pieces and targets differ by shape as well as colour.

use leptos::prelude::*;

use super::{cell_at, has, BoardInput, BoardProps, CELL};
use crate::games::ataxx::{square_name, Ataxx, AtaxxMove, Square};
use crate::games::{Game, Record, Side};

const N: u8 = 7;

/// Top-left corner of a square in board units (rank 7 at the top).
fn origin(sq: Square) -> (f64, f64) {
    (f64::from(sq % N) * CELL, f64::from(N - 1 - sq / N) * CELL)
}

fn centre(sq: Square) -> (f64, f64) {
    let (x, y) = origin(sq);
    (x + CELL / 2.0, y + CELL / 2.0)
}

/// The square under a point in board units.
fn hit(x: f64, y: f64) -> Option<Square> {
    cell_at(x, y, N, N).map(|(col, row)| (N - 1 - row) * N + col)
}

/// Human name of a side in Territory Duel.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "X",
        Side::Second => "O",
    }
}

/// What the last move did, for highlighting and animation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct LastMove {
    pub from: Option<Square>,
    pub to: Option<Square>,
    pub flipped: u64,
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
    }
}

/// The move that puts the piece on `from` onto `to`, if there is one.
fn move_between(pos: &Ataxx, from: Square, to: Square) -> Option<AtaxxMove> {
    if has(pos.clone_targets(from), to) {
        Some(AtaxxMove::Clone { to })
    } else if has(pos.jump_targets(from), to) {
        Some(AtaxxMove::Jump { from, to })
    } else {
        None
    }
}

/// The interactive Territory Duel board.
#[component]
pub fn AtaxxBoard(props: BoardProps<Ataxx>) -> impl IntoView {
    let BoardProps {
        record,
        enabled,
        hints,
        on_move,
    } = props;
    let size = f64::from(N) * CELL;
    let input = BoardInput::new(size, size);
    let selected = input.selected;
    let last = Memo::new(move |_| record.with(last_move));
    // A new position clears a selection made in the old one.
    Effect::new(move |_| {
        record.track();
        selected.set(None);
    });
    let targets = Memo::new(move |_| {
        let Some(from) = selected.get() else {
            return (0u64, 0u64);
        };
        record.with(|r| {
            let p = r.position();
            (p.clone_targets(from), p.jump_targets(from))
        })
    });

    let press = move |sq: Square| -> bool {
        if !enabled.get_untracked() {
            return false;
        }
        let pos = record.with_untracked(|r| *r.position());
        if let Some(from) = selected.get_untracked() {
            if let Some(mv) = move_between(&pos, from, sq) {
                selected.set(None);
                on_move.run(mv);
                return false;
            }
        }
        if pos.piece_at(sq) == Some(pos.side_to_move()) {
            return true;
        }
        selected.set(None);
        false
    };
    let drop_on = move |from: Square, to: Square| {
        let pos = record.with_untracked(|r| *r.position());
        if let Some(mv) = move_between(&pos, from, to).filter(|_| enabled.get_untracked()) {
            selected.set(None);
            on_move.run(mv);
        }
    };

    let squares = (0..N * N)
        .map(|sq| {
            let (x, y) = origin(sq);
            let (cx, cy) = centre(sq);
            let name = square_name(sq);
            let dark = (sq % N + sq / N).is_multiple_of(2);
            let cls = move || {
                let (clone_t, jump_t) = targets.get();
                let l = last.get();
                let mut c = String::from(if dark { "sq dark" } else { "sq light" });
                for (on, class) in [
                    (record.with(|r| r.position().is_gap(sq)), " gap"),
                    (selected.get() == Some(sq), " selected"),
                    (has(clone_t, sq), " target-clone"),
                    (has(jump_t, sq), " target-jump"),
                    (l.from == Some(sq), " last-from"),
                    (l.to == Some(sq), " last-to"),
                ] {
                    if on {
                        c.push_str(class);
                    }
                }
                c
            };
            let label_name = name.clone();
            let label = move || {
                let (clone_t, jump_t) = targets.get();
                let what = record.with(|r| {
                    let p = r.position();
                    match (p.is_gap(sq), p.piece_at(sq)) {
                        (true, _) => "blocked".to_string(),
                        (false, Some(s)) => format!("{} piece", side_name(s)),
                        (false, None) => "empty".to_string(),
                    }
                });
                let mut l = format!("{label_name}, {what}");
                if selected.get() == Some(sq) {
                    l.push_str(", selected");
                }
                if has(clone_t, sq) {
                    l.push_str(", clone here");
                }
                if has(jump_t, sq) {
                    l.push_str(", jump here");
                }
                l
            };
            let piece = move || {
                let owner = record.with(|r| r.position().piece_at(sq))?;
                let l = last.get();
                let cls = format!(
                    "piece {}{}{}",
                    if owner == Side::First { "px" } else { "po" },
                    if has(l.flipped, sq) { " flip" } else { "" },
                    if l.to == Some(sq) { " fresh" } else { "" },
                );
                Some(piece_shape(owner, cx, cy, cls))
            };
            let hint = move || {
                if !hints.get() {
                    return None;
                }
                let (clone_t, jump_t) = targets.get();
                if has(clone_t, sq) {
                    Some(view! { <circle class="hint hint-clone" cx=cx cy=cy r="13"/> }.into_any())
                } else if has(jump_t, sq) {
                    Some(view! { <circle class="hint hint-jump" cx=cx cy=cy r="17"/> }.into_any())
                } else {
                    None
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
                <g class=cls role="button" tabindex="0" aria-label=label data-square=name
                   on:keydown=input.on_key(sq, press)>
                    <rect class="cell" x=x y=y width=CELL height=CELL/>
                    {file_label}
                    {rank_label}
                    {hint}
                    <g class:lifted=move || input.dragging().is_some_and(|d| d.from == sq)>{piece}</g>
                </g>
            }
        })
        .collect_view();

    let ghost = move || {
        let d = input.dragging()?;
        let side = record.with(|r| r.position().piece_at(d.from))?;
        Some(piece_shape(side, d.x, d.y, "piece ghost".to_string()))
    };

    view! {
        <svg
            node_ref=input.svg_ref
            class="board ataxx-board"
            viewBox=format!("0 0 {size} {size}")
            role="group"
            aria-label="Territory Duel board"
            on:pointerdown=input.on_down(hit, press)
            on:pointermove=input.on_move(centre, CELL * 0.3)
            on:pointerup=input.on_up(hit, drop_on)
            on:pointercancel=move |_| input.drag.set(None)
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
