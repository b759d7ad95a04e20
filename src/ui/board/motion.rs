//! Moves animate, the same way on every board: the piece that moved
//! travels from where it was to where it goes (a slide or a Mill flight
//! glides, a jump hops, a Territory Duel clone grows out of the piece it
//! was cloned from, a Mill placement comes in from the hand), and the
//! flips, pins and mills the move made play after it.
//!
//! **When.** Only when the position a board shows is the one it showed
//! just before plus one move: a move played here by you or the computer,
//! one arriving online, a Redo of one move or one step forward in the move
//! list. Undo, a step back, a jump through the move list, a loaded game or
//! a new game show their position at once, with nothing moving: a glide
//! there would show a move that is not being made. A move dropped by a
//! drag does not travel (the piece is already where the pointer left it);
//! its flips and pins still play.
//!
//! **How.** Plain CSS, no animation loop. A picture of the piece is drawn
//! in a layer over the board ([`travel_layer`]; SVG paints in document
//! order, and a piece inside its own square would pass under the squares
//! drawn after it) with a class naming the travel (`glide-slide`,
//! `glide-enter`, `glide-hop`, `glide-grow`) and `--gx`/`--gy`, the origin's offset from
//! the spot in board units, where the keyframes in `style/main.css` start;
//! the piece itself stays hidden in its slot until the picture lands
//! (`arriving`). Flips, pins and fresh mills carry their classes only for a
//! fresh move and start after the travel (`animation-delay`). The
//! stylesheet turns all of it off under `prefers-reduced-motion` and when
//! the animations setting is off: then the picture is transparent and the
//! piece shows at once.

use leptos::prelude::*;

use super::input::{BoardInput, Picked};
use crate::games::{Game, Record};

/// How the piece of the move just played travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Travel {
    /// Along the board: a Stones! or Mill slide, a Mill flight.
    Slide,
    /// Off the hand onto the board, growing to full size: a Mill placement.
    Enter,
    /// Over the board, rising on the way: a Territory Duel or Stones! jump.
    Hop,
    /// Growing out of another piece: a Territory Duel clone.
    Grow,
}

impl Travel {
    /// The class on the piece's slot that starts its animation.
    pub fn class(self) -> &'static str {
        match self {
            Travel::Slide => "glide-slide",
            Travel::Enter => "glide-enter",
            Travel::Hop => "glide-hop",
            Travel::Grow => "glide-grow",
        }
    }
}

/// The travel of the move just played: the spot the piece lands on, and
/// the centre (board units) it comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arrival {
    pub to: u8,
    pub origin: (f64, f64),
    pub travel: Travel,
}

/// What a board animates now: the move just played forward (its ply, the
/// number of moves in the record) and how its piece travels, if it does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fresh {
    pub ply: usize,
    pub arrival: Option<Arrival>,
}

/// The board's [`Fresh`] move, `None` unless the record it shows is the
/// one it showed before plus one move (see the module header). `arrival`
/// says how the last move of a record travels, given what the player
/// picked for it (if anything).
pub fn fresh_move<G>(
    record: Signal<Record<G>>,
    input: BoardInput,
    arrival: impl Fn(&Record<G>, Option<Picked>) -> Option<Arrival> + Send + Sync + 'static,
) -> Memo<Option<Fresh>>
where
    G: Game + Send + Sync + 'static,
    G::Move: Send + Sync + 'static,
{
    // The game (by the hash of its start) and the moves shown before.
    let seen = StoredValue::new(None::<(u64, Vec<G::Move>)>);
    Memo::new(move |prev: Option<&Option<Fresh>>| {
        record.with(|r| {
            let (start, moves) = (r.start().hash(), r.moves());
            let (same, forward) = seen.with_value(|s| match s {
                Some((h, before)) if *h == start => (
                    before.as_slice() == moves,
                    moves.len() == before.len() + 1 && moves.starts_with(before),
                ),
                _ => (false, false),
            });
            // The same moves again (a clock, a result): what was moving moves on.
            if same {
                return prev.copied().flatten();
            }
            seen.set_value(Some((start, moves.to_vec())));
            let picked = input.picked.try_update_value(Option::take).flatten();
            if !forward {
                return None;
            }
            let arrival =
                arrival(r, picked).filter(|a| !picked.is_some_and(|p| p.dropped && p.to == a.to));
            Some(Fresh {
                ply: moves.len(),
                arrival,
            })
        })
    })
}

impl BoardInput {
    /// The layer holding the piece on `spot`: faded while that piece is
    /// dragged, hidden while a picture of it travels in (see [`travel_layer`]).
    pub fn slot(
        self,
        spot: u8,
        fresh: Memo<Option<Fresh>>,
        piece: impl IntoView + 'static,
    ) -> impl IntoView {
        let class = move || {
            let mut c = String::from("slot");
            if self.dragging().is_some_and(|d| d.from == spot) {
                c.push_str(" lifted");
            }
            if fresh.with(|f| f.and_then(|f| f.arrival).is_some_and(|a| a.to == spot)) {
                c.push_str(" arriving");
            }
            c
        };
        view! { <g class=class>{piece}</g> }
    }
}

/// The layer, over the pieces, where the piece of the fresh move travels:
/// a picture of it (drawn by `draw` at the centre of the spot it lands
/// on, without the `piece` class: it is not one more piece) that starts at
/// its origin and moves home, while the piece itself waits hidden in its
/// slot. Drawn over every square, it passes over the pieces on its way.
/// `centre` places a spot, `name` names it in `data-to`.
pub fn travel_layer(
    fresh: Memo<Option<Fresh>>,
    centre: impl Fn(u8) -> (f64, f64) + Send + Sync + 'static,
    name: fn(u8) -> String,
    draw: impl Fn(u8) -> Option<AnyView> + Send + Sync + 'static,
) -> impl IntoView {
    move || {
        let a = fresh.get()?.arrival?;
        let (x, y) = centre(a.to);
        let style = format!("--gx:{:.1}px;--gy:{:.1}px", a.origin.0 - x, a.origin.1 - y);
        let class = format!("travel {}", a.travel.class());
        Some(view! {
            <g class=class data-testid="travel" data-to=name(a.to) style=style aria-hidden="true">
                {draw(a.to)}
            </g>
        })
    }
}
