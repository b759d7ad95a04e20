//! The Territory Duel board: 7×7 squares drawn in SVG.
//!
//! Tap or click a piece to see its clone targets (filled dots) and jump
//! targets (dashed rings), then tap a target; or drag the piece. The last
//! move, flipped pieces and targets differ by shape as well as colour.

use leptos::prelude::*;

use super::grid::Grid;
use super::input::{select_and_move, BoardInput, Picked};
use super::motion::{fresh_move, travel_layer};
use super::motion::{Arrival, Travel};
use super::props::{has, spot_label, BoardProps, CELL};
use crate::client::ending::side_name;
use crate::games::ataxx::{square_name, Ataxx, AtaxxMove, Square};
use crate::games::{Game, GameKind, Record, Side};
use crate::t;
use crate::ui::words::use_lang;

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

/// How the piece of the last move of `record` travels (see
/// [`super::motion`]): a jump hops from its square; a clone grows out of
/// the piece the player picked, or else out of a piece of the mover next
/// to it, one beside it before one corner to corner.
fn arrival(record: &Record<Ataxx>, picked: Option<Picked>, grid: Grid) -> Option<Arrival> {
    let ply = record.moves().len();
    let (from, to, travel) = match *record.moves().last()? {
        AtaxxMove::Pass => return None,
        AtaxxMove::Jump { from, to } => (from, to, Travel::Hop),
        AtaxxMove::Clone { to } => {
            let before = record.position_at(ply - 1);
            let mover = before.side_to_move();
            let source =
                |s: Square| before.piece_at(s) == Some(mover) && has(before.clone_targets(s), to);
            let distance = |s: Square| {
                let ((x0, y0), (x1, y1)) = (grid.centre(s), grid.centre(to));
                (x1 - x0).hypot(y1 - y0)
            };
            let from = picked.map(|p| p.from).filter(|&s| source(s)).or_else(|| {
                (0..grid.n * grid.n)
                    .filter(|&s| source(s))
                    .min_by(|&a, &b| distance(a).total_cmp(&distance(b)))
            })?;
            (from, to, Travel::Grow)
        }
    };
    Some(Arrival {
        to,
        origin: grid.centre(from),
        travel,
    })
}

/// The move that puts the piece on `from` onto `to`, if there is one.
fn move_between(pos: &Ataxx, from: Square, to: Square) -> Option<AtaxxMove> {
    if from == to || pos.piece_at(to) == Some(pos.side_to_move()) {
        // The piece itself, or another one to select instead.
        None
    } else if has(pos.clone_targets(from), to) {
        Some(AtaxxMove::Clone { to })
    } else {
        // A jump, or a press where the piece cannot go: played all the
        // same, so the game refuses it and the notice line says why
        // ("f5 is more than two squares from b2", issue 36).
        Some(AtaxxMove::Jump { from, to })
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
        flipped,
        on_stuck,
        marked,
        read_only,
    } = props;
    let lang = use_lang();
    let grid = Grid { n: 7, flipped };
    let input = BoardInput::new(grid.size(), grid.size(), record).read_only(read_only);
    let selected = input.selected;
    let last = Memo::new(move |_| record.with(last_move));
    let fresh = fresh_move(record, input, move |r, picked| arrival(r, picked, grid));
    let targets = Memo::new(move |_| {
        let Some(from) = selected.get() else {
            return (0u64, 0u64);
        };
        record.with(|r| {
            let p = r.position();
            (p.clone_targets(from), p.jump_targets(from))
        })
    });

    let (press, drop_on) = select_and_move(
        input,
        enabled,
        on_move,
        move |from, to| record.with_untracked(|r| move_between(r.position(), from, to)),
        move |sq| {
            record
                .with_untracked(|r| r.position().piece_at(sq) == Some(r.position().side_to_move()))
        },
        move |sq| {
            record.with_untracked(|r| {
                let p = r.position();
                p.clone_targets(sq) | p.jump_targets(sq) != 0
            })
        },
        on_stuck,
    );

    let squares = (0..grid.n * grid.n)
        .map(|sq| {
            let (x, y) = grid.origin(sq);
            let (cx, cy) = grid.centre(sq);
            let name = square_name(sq);
            let dark = grid.is_dark(sq);
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
                    (has(l.flipped, sq), " last-flipped"),
                ] {
                    if on {
                        c.push_str(class);
                    }
                }
                c
            };
            let label_name = name.clone();
            let label = move || {
                let lang = lang.get();
                let (clone_t, jump_t) = targets.get();
                let what = record.with(|r| {
                    let p = r.position();
                    match (p.is_gap(sq), p.piece_at(sq)) {
                        (true, _) => t!(lang, "spot.blocked").to_string(),
                        (false, Some(s)) => t!(lang, "spot.piece", side = side_name(lang, GameKind::Ataxx, s)),
                        (false, None) => t!(lang, "spot.empty").to_string(),
                    }
                });
                spot_label(
                    &label_name,
                    what,
                    [
                        (selected.get() == Some(sq), t!(lang, "spot.selected")),
                        (has(clone_t, sq), t!(lang, "spot.clone_here")),
                        (has(jump_t, sq), t!(lang, "spot.jump_here")),
                    ],
                )
            };
            let piece = move || {
                let owner = record.with(|r| r.position().piece_at(sq))?;
                let flip = fresh.get().is_some() && has(last.get().flipped, sq);
                let cls = format!("piece {}{}", side_class(owner), if flip { " flip" } else { "" });
                // A flip turns the piece over: a picture of it as it was
                // turns edge-on, then the piece turns back up (style/main.css).
                let was = flip.then(|| {
                    let side = owner.opponent();
                    piece_shape(side, cx, cy, format!("pic was {}", side_class(side)))
                });
                Some((was, piece_shape(owner, cx, cy, cls)))
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
            let spot = view! {
                <g class=cls role=input.spot_role() tabindex=input.tabindex(sq) aria-label=input.spot_label(label) data-square=name
                   data-spot=sq
                   on:keydown=input.on_key(sq, press, move |s| grid.centre(s), grid.n * grid.n)>
                    <rect class="cell" x=x y=y width=CELL height=CELL/>
                    {hint}
                    {input.slot(sq, fresh, piece)}
                </g>
            };
            input.spot_focus(spot, sq)
        })
        .collect_view();

    let ghost = move || {
        let d = input.dragging()?;
        let side = record.with(|r| r.position().piece_at(d.from))?;
        Some(piece_shape(
            side,
            d.x,
            d.y,
            format!("piece ghost {}", side_class(side)),
        ))
    };
    let travel = travel_layer(
        fresh,
        move |sq| grid.centre(sq),
        square_name,
        move |sq| {
            let side = record.with_untracked(|r| r.position().piece_at(sq))?;
            let (cx, cy) = grid.centre(sq);
            Some(piece_shape(
                side,
                cx,
                cy,
                format!("pic {}", side_class(side)),
            ))
        },
    );

    input.grid_svg(
        grid,
        "ataxx-board",
        Signal::derive(move || t!(lang.get(), "board.ataxx")),
        press,
        drop_on,
        squares,
        marked,
        square_name,
        (travel, ghost),
    )
}

/// The class that colours a piece of `side`.
fn side_class(side: Side) -> &'static str {
    match side {
        Side::First => "px",
        Side::Second => "po",
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
