//! The Stones! board: 8×8 squares drawn in SVG.
//!
//! A pinned stone carries a bold cross (like the original's cross turned
//! up), so pins show by shape, not only colour. Selecting a stone shows its
//! slide targets (dots) and jump landings (rings); the stone a jump would
//! pass over is outlined. The last move, and the stone it pinned or freed,
//! stay highlighted. Each side's goal rank is tinted.

use leptos::prelude::*;

use super::grid::Grid;
use super::input::{select_and_move, BoardInput};
use super::motion::{fresh_move, travel_layer};
use super::motion::{Arrival, Travel};
use super::props::{spot_label, BoardProps, CELL};
use crate::client::ending::side_name;
use crate::games::stones::{square_name, Square, Stones, StonesMove};
use crate::games::{Game, GameKind, Record, Side};
use crate::t;
use crate::ui::words::use_lang;

/// The move of the stone on `from` that ends on `to`, if there is one (a
/// stone never has two moves to one square).
fn move_between(pos: &Stones, from: Square, to: Square) -> Option<StonesMove> {
    if from == to || matches!(pos.stone_at(to), Some((side, _)) if side == pos.side_to_move()) {
        // The stone itself, or another one to select instead.
        return None;
    }
    if let Some(legal) = pos.moves_from(from).into_iter().find(|m| m.to == to) {
        return Some(legal);
    }
    // A press where the stone cannot go is played all the same, so the
    // game refuses it and the notice line says why (issue 36). It names
    // the stone just before `to` on the line as jumped, if there is one,
    // so that a jump over a stone that cannot be jumped says so.
    let (ff, fr) = (i16::from(from % 8), i16::from(from / 8));
    let (tf, tr) = (i16::from(to % 8), i16::from(to / 8));
    let (df, dr) = (tf - ff, tr - fr);
    let on_line = (df.abs() == dr.abs() && df.abs() >= 2) || (dr == 0 && df.abs() == 2);
    let jumped = on_line
        .then(|| ((tr - dr.signum()) * 8 + (tf - df.signum())) as Square)
        .filter(|&j| pos.stone_at(j).is_some());
    Some(StonesMove { from, to, jumped })
}

/// The last move of a record, if any.
fn last_move(record: &Record<Stones>) -> Option<StonesMove> {
    record.moves().last().copied()
}

/// How the stone of the last move travels (see [`super::motion`]): a
/// slide glides, a jump hops over the stone it pins or frees.
fn arrival(record: &Record<Stones>, grid: Grid) -> Option<Arrival> {
    let m = last_move(record)?;
    Some(Arrival {
        to: m.to,
        origin: grid.centre(m.from),
        travel: if m.jumped.is_some() {
            Travel::Hop
        } else {
            Travel::Slide
        },
    })
}

/// The interactive Stones! board.
#[component]
pub fn StonesBoard(props: BoardProps<Stones>) -> impl IntoView {
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
    let grid = Grid { n: 8, flipped };
    let input = BoardInput::new(grid.size(), grid.size(), record).read_only(read_only);
    let selected = input.selected;
    let last = Memo::new(move |_| record.with(last_move));
    let fresh = fresh_move(record, input, move |r, _| arrival(r, grid));
    let options = Memo::new(move |_| {
        selected
            .get()
            .map(|from| record.with(|r| r.position().moves_from(from)))
            .unwrap_or_default()
    });

    // A pinned stone can be selected too; it just shows no targets.
    let (press, drop_on) = select_and_move(
        input,
        enabled,
        on_move,
        move |from, to| record.with_untracked(|r| move_between(r.position(), from, to)),
        move |sq| {
            record.with_untracked(|r| {
                let pos = r.position();
                matches!(pos.stone_at(sq), Some((side, _)) if side == pos.side_to_move())
            })
        },
        move |sq| record.with_untracked(|r| !r.position().moves_from(sq).is_empty()),
        on_stuck,
    );

    let squares = (0..grid.n * grid.n)
        .map(|sq| {
            let (x, y) = grid.origin(sq);
            let (cx, cy) = grid.centre(sq);
            let name = square_name(sq);
            let dark = grid.is_dark(sq);
            let goal = match sq / grid.n {
                7 => " goal-first",
                0 => " goal-second",
                _ => "",
            };
            let cls = move || {
                let opts = options.get();
                let l = last.get();
                let mut c = format!("sq {}{goal}", if dark { "dark" } else { "light" });
                for (on, class) in [
                    (selected.get() == Some(sq), " selected"),
                    (opts.iter().any(|m| m.to == sq && m.jumped.is_none()), " target-slide"),
                    (opts.iter().any(|m| m.to == sq && m.jumped.is_some()), " target-jump"),
                    (opts.iter().any(|m| m.jumped == Some(sq)), " jump-over"),
                    (l.is_some_and(|m| m.from == sq), " last-from"),
                    (l.is_some_and(|m| m.to == sq), " last-to"),
                    (l.is_some_and(|m| m.jumped == Some(sq)), " last-jumped"),
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
                let what = match record.with(|r| r.position().stone_at(sq)) {
                    Some((side, pinned)) => {
                        let side = side_name(lang, GameKind::Stones, side);
                        if pinned {
                            t!(lang, "spot.stone_pinned", side = side)
                        } else {
                            t!(lang, "spot.stone_free", side = side)
                        }
                    }
                    None => t!(lang, "spot.empty").to_string(),
                };
                let opts = options.get();
                let target = opts.iter().find(|m| m.to == sq).map(|m| match m.jumped {
                    Some(j) => t!(lang, "spot.jump_over", over = square_name(j)),
                    None => t!(lang, "spot.slide_here").to_string(),
                });
                spot_label(
                    &label_name,
                    what,
                    [
                        (selected.get() == Some(sq), t!(lang, "spot.selected").to_string()),
                        (target.is_some(), target.unwrap_or_default()),
                    ],
                )
            };
            let stone = move || {
                let (side, pinned) = record.with(|r| r.position().stone_at(sq))?;
                let jumped = fresh.get().is_some() && last.get().is_some_and(|m| m.jumped == Some(sq));
                let cls = format!(
                    "piece {}{}",
                    if side == Side::First { "pw" } else { "pb" },
                    match (jumped, pinned) {
                        (false, _) => "",
                        (true, true) => " pin-now",
                        (true, false) => " free-now",
                    },
                );
                Some(stone_shape(pinned, cx, cy, cls))
            };
            let hint = move || {
                if !hints.get() {
                    return None;
                }
                let opts = options.get();
                let m = opts.iter().find(|m| m.to == sq)?;
                Some(if m.jumped.is_some() {
                    view! { <circle class="hint hint-jump" cx=cx cy=cy r="18"/> }.into_any()
                } else {
                    view! { <circle class="hint hint-clone" cx=cx cy=cy r="13"/> }.into_any()
                })
            };
            let spot = view! {
                <g class=cls role=input.spot_role() tabindex=input.tabindex(sq) aria-label=input.spot_label(label) data-square=name
                   data-spot=sq
                   on:keydown=input.on_key(sq, press, move |s| grid.centre(s), grid.n * grid.n)>
                    <rect class="cell" x=x y=y width=CELL height=CELL/>
                    {hint}
                    {input.slot(sq, fresh, stone)}
                </g>
            };
            input.spot_focus(spot, sq)
        })
        .collect_view();

    let ghost = move || {
        let d = input.dragging()?;
        let (side, pinned) = record.with(|r| r.position().stone_at(d.from))?;
        let colour = if side == Side::First { "pw" } else { "pb" };
        Some(stone_shape(
            pinned,
            d.x,
            d.y,
            format!("piece ghost {colour}"),
        ))
    };
    let travel = travel_layer(
        fresh,
        move |sq| grid.centre(sq),
        square_name,
        move |sq| {
            let (side, pinned) = record.with_untracked(|r| r.position().stone_at(sq))?;
            let colour = if side == Side::First { "pw" } else { "pb" };
            let (cx, cy) = grid.centre(sq);
            Some(stone_shape(pinned, cx, cy, format!("pic {colour}")))
        },
    );

    input.grid_svg(
        grid,
        "stones-board",
        Signal::derive(move || t!(lang.get(), "board.stones")),
        press,
        drop_on,
        squares,
        marked,
        square_name,
        (travel, ghost),
    )
}

/// A stone: a disc; a pinned stone has a bold cross over it.
fn stone_shape(pinned: bool, cx: f64, cy: f64, class: String) -> AnyView {
    let class = if pinned {
        format!("{class} pinned")
    } else {
        class
    };
    let cross = pinned.then(|| {
        view! {
            <path class="pin" d=format!("M{} {} l32 32 M{} {} l-32 32", cx - 16.0, cy - 16.0, cx + 16.0, cy - 16.0)/>
        }
    });
    view! {
        <g class=class>
            <circle class="body" cx=cx cy=cy r="36"/>
            <circle class="rim" cx=cx cy=cy r="27"/>
            {cross}
        </g>
    }
    .into_any()
}
