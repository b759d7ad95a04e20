//! One SVG component per game, plus what they share: geometry, the
//! pointer/keyboard input controller and the props every board takes.
//!
//! Boards hold no rules: they ask the engine for legal targets and report a
//! chosen move through `on_move`. A move to show (the computer's hint, the
//! review's better move) comes in as a [`Mark`] and is drawn over the
//! pieces by [`mark_layer`], the same in every game.

pub mod ataxx;
pub mod mill;
pub mod motion;
pub mod stones;

use leptos::ev::on;
use leptos::prelude::*;
use leptos::tachys::html::event::On;

pub use crate::client::mark::Mark;
use crate::games::{Game, Record, Side};
use crate::i18n::Lang;
use crate::t;
pub use motion::{Arrival, Fresh, Picked, Travel};

/// Size of one square (or grid step) in board units; boards are drawn in a
/// viewBox measured in these units and scale with the page.
pub const CELL: f64 = 100.0;

/// What the game screen hands to a board.
pub struct BoardProps<G: Game + Send + Sync + 'static>
where
    G::Move: Send + Sync + 'static,
{
    /// The game (or an earlier position of it); the board only reads it.
    pub record: Signal<Record<G>>,
    /// False while paused, after the game, or while it is not this player's turn.
    pub enabled: Signal<bool>,
    /// Whether to draw legal-move hints.
    pub hints: Signal<bool>,
    /// Called with a legal move the player chose.
    pub on_move: Callback<G::Move>,
    /// Draw the board from the second player's side.
    pub flipped: bool,
    /// Called with the spot of a piece of the side to move that cannot
    /// move (pinned, blocked), when the player presses it, so the screen
    /// can say why.
    pub on_stuck: Callback<u8>,
    /// A move to show on the board (a hint, the review's better move), or
    /// `None`; drawn by [`mark_layer`].
    pub marked: Signal<Option<Mark>>,
    /// `Some(label)`: a read-only diagram (the rules pages): one image named
    /// `label`, with no input and nothing in the tab order.
    pub read_only: Option<Signal<String>>,
}

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

/// A piece being dragged: where from, and where the pointer is (board units).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drag {
    pub from: u8,
    pub x: f64,
    pub y: f64,
    /// The pointer left the starting spot: this is a drag, not a click.
    pub moved: bool,
    /// The piece was already selected when pressed (a click then deselects it).
    pub was_selected: bool,
}

/// Pointer and keyboard handling shared by the boards.
///
/// A press on a spot calls `press`: it moves (if a piece is selected and the
/// spot is its target), selects, or deselects, and says whether the spot
/// holds a piece that may be dragged. Releasing a drag elsewhere calls
/// `drop_on(from, to)`. A click on the selected piece deselects it.
#[derive(Clone, Copy)]
pub struct BoardInput {
    pub svg_ref: NodeRef<leptos::svg::Svg>,
    pub drag: RwSignal<Option<Drag>>,
    pub selected: RwSignal<Option<u8>>,
    /// The spot with the keyboard focus cursor (the one in the tab order).
    pub cursor: RwSignal<u8>,
    /// Width and height of the viewBox in board units.
    pub size: (f64, f64),
    /// The spots of the last move the player made on this board, and
    /// whether it was dropped by a drag (see [`motion`]).
    pub picked: StoredValue<Option<Picked>>,
    /// The part of the board drawn (x, y, width, height), when not all of it
    /// (a Mill diagram leaves out the hands).
    pub crop: Option<(f64, f64, f64, f64)>,
    /// A read-only diagram's label (see [`BoardProps::read_only`]).
    pub read_only: Option<Signal<String>>,
}

impl BoardInput {
    /// A controller for a board whose viewBox is `width` × `height` units
    /// showing `record`: a new position clears a selection made in the old one.
    pub fn new<T: Send + Sync + 'static>(width: f64, height: f64, record: Signal<T>) -> Self {
        let selected = RwSignal::new(None);
        Effect::new(move |_| {
            record.track();
            selected.set(None);
        });
        BoardInput {
            svg_ref: NodeRef::new(),
            drag: RwSignal::new(None),
            selected,
            cursor: RwSignal::new(0),
            size: (width, height),
            picked: StoredValue::new(None),
            crop: None,
            read_only: None,
        }
    }

    /// This controller for a read-only diagram named `label` when it is
    /// `Some` (see [`BoardProps::read_only`]).
    pub fn read_only(mut self, label: Option<Signal<String>>) -> Self {
        self.read_only = label;
        self
    }

    /// Whether the board is a read-only diagram.
    pub fn is_diagram(&self) -> bool {
        self.read_only.is_some()
    }

    /// The `role` of a spot: a button, except in a diagram, which is one
    /// image (its parts have no role).
    pub fn spot_role(&self) -> Option<&'static str> {
        (!self.is_diagram()).then_some("button")
    }

    /// A spot's element with its focus handler (the focused spot becomes
    /// the keyboard cursor), except in a diagram: Chromium makes an SVG
    /// element with a focus listener focusable, even without a `tabindex`.
    pub fn spot_focus<V>(self, el: V, spot: u8) -> AnyView
    where
        V: AddAnyAttr + IntoView + 'static,
        V::Output<On<leptos::ev::focus, Box<dyn FnMut(web_sys::FocusEvent)>>>: IntoView + 'static,
    {
        if self.is_diagram() {
            el.into_any()
        } else {
            let cursor = self.cursor;
            let handler: Box<dyn FnMut(web_sys::FocusEvent)> = Box::new(move |_| cursor.set(spot));
            el.add_any_attr(on(leptos::ev::focus, handler)).into_any()
        }
    }

    /// A spot's spoken label, except in a diagram (named as a whole).
    pub fn spot_label(
        &self,
        label: impl Fn() -> String + Send + Sync + 'static,
    ) -> impl Fn() -> Option<String> + Send + Sync + 'static {
        let diagram = self.is_diagram();
        move || (!diagram).then(&label)
    }

    /// The pointer position in board units.
    pub fn point(&self, ev: &web_sys::PointerEvent) -> Option<(f64, f64)> {
        let svg = self.svg_ref.get_untracked()?;
        let rect = svg.get_bounding_client_rect();
        if rect.width() <= 0.0 || rect.height() <= 0.0 {
            return None;
        }
        Some((
            (f64::from(ev.client_x()) - rect.left()) / rect.width() * self.size.0,
            (f64::from(ev.client_y()) - rect.top()) / rect.height() * self.size.1,
        ))
    }

    /// Handler for `pointerdown` on the board's `<svg>`.
    pub fn on_down(
        self,
        hit: impl Fn(f64, f64) -> Option<u8> + Copy + 'static,
        press: impl Fn(u8) -> bool + Copy + 'static,
    ) -> impl Fn(web_sys::PointerEvent) + Copy + 'static {
        move |ev: web_sys::PointerEvent| {
            if ev.button() != 0 {
                return;
            }
            let Some((x, y)) = self.point(&ev) else {
                return;
            };
            let Some(spot) = hit(x, y) else {
                self.selected.set(None);
                return;
            };
            ev.prevent_default();
            let was_selected = self.selected.get_untracked() == Some(spot);
            if press(spot) {
                self.selected.set(Some(spot));
                self.drag.set(Some(Drag {
                    from: spot,
                    x,
                    y,
                    moved: false,
                    was_selected,
                }));
                if let Some(svg) = self.svg_ref.get_untracked() {
                    let _ = svg.set_pointer_capture(ev.pointer_id());
                }
            }
        }
    }

    /// Handler for `pointermove`: the dragged piece follows the pointer once
    /// it has left its spot by more than `slack` board units.
    pub fn on_move(
        self,
        centre: impl Fn(u8) -> (f64, f64) + Copy + 'static,
        slack: f64,
    ) -> impl Fn(web_sys::PointerEvent) + Copy + 'static {
        move |ev: web_sys::PointerEvent| {
            if self.drag.with_untracked(|d| d.is_none()) {
                return;
            }
            if let Some((x, y)) = self.point(&ev) {
                self.drag.update(|d| {
                    if let Some(d) = d {
                        let (cx, cy) = centre(d.from);
                        d.moved |= (x - cx).abs() > slack || (y - cy).abs() > slack;
                        d.x = x;
                        d.y = y;
                    }
                });
            }
        }
    }

    /// Handler for `pointerup`.
    pub fn on_up(
        self,
        hit: impl Fn(f64, f64) -> Option<u8> + Copy + 'static,
        drop_on: impl Fn(u8, u8) + Copy + 'static,
    ) -> impl Fn(web_sys::PointerEvent) + Copy + 'static {
        move |ev: web_sys::PointerEvent| {
            let Some(d) = self.drag.get_untracked() else {
                return;
            };
            self.drag.set(None);
            if !d.moved {
                if d.was_selected {
                    self.selected.set(None);
                }
                return;
            }
            if let Some(to) = self.point(&ev).and_then(|(x, y)| hit(x, y)) {
                if to != d.from {
                    self.picked.set_value(Some(Picked {
                        from: d.from,
                        to,
                        dropped: true,
                    }));
                    drop_on(d.from, to);
                }
            }
        }
    }

    /// Handler for `keydown` on one spot: Enter or Space presses it, Escape
    /// clears the selection, the arrow keys move the focus to the nearest
    /// spot in that direction on screen (`centre` places the `count` spots).
    pub fn on_key(
        self,
        spot: u8,
        press: impl Fn(u8) -> bool + Copy + 'static,
        centre: impl Fn(u8) -> (f64, f64) + Copy + 'static,
        count: u8,
    ) -> impl Fn(web_sys::KeyboardEvent) + Copy + 'static {
        move |ev: web_sys::KeyboardEvent| {
            let dir = match ev.key().as_str() {
                "Enter" | " " => {
                    ev.prevent_default();
                    let was_selected = self.selected.get_untracked() == Some(spot);
                    if press(spot) {
                        self.selected.set((!was_selected).then_some(spot));
                    }
                    return;
                }
                "Escape" => {
                    self.selected.set(None);
                    return;
                }
                "ArrowUp" => (0.0, -1.0),
                "ArrowDown" => (0.0, 1.0),
                "ArrowLeft" => (-1.0, 0.0),
                "ArrowRight" => (1.0, 0.0),
                _ => return,
            };
            ev.prevent_default();
            if let Some(next) = nearest_in_direction(spot, dir, centre, count) {
                self.focus(next);
            }
        }
    }

    /// Moves the keyboard cursor to `spot` and focuses it.
    pub fn focus(&self, spot: u8) {
        self.cursor.set(spot);
        let el = self.svg_ref.get_untracked().and_then(|svg| {
            svg.query_selector(&format!("[data-spot='{spot}']"))
                .ok()
                .flatten()
        });
        if let Some(el) = el {
            let _ = wasm_bindgen::JsCast::unchecked_into::<web_sys::SvgElement>(el).focus();
        }
    }

    /// `tabindex` of a spot: only the cursor is in the tab order (a roving
    /// tab index), so Tab enters and leaves the board in one step.
    /// A diagram's spots are in no tab order at all.
    pub fn tabindex(self, spot: u8) -> impl Fn() -> Option<i32> + Copy + 'static {
        let diagram = self.is_diagram();
        move || (!diagram).then(|| if self.cursor.get() == spot { 0 } else { -1 })
    }

    /// The piece being dragged, if the pointer has left its spot.
    pub fn dragging(&self) -> Option<Drag> {
        self.drag.get().filter(|d| d.moved)
    }

    /// The board's `<svg>` with the pointer handlers wired: `hit` finds the
    /// spot under a point, `press` and `drop_on` act as described on
    /// [`BoardInput`], `centre` gives a spot's centre for drag slack.
    #[allow(clippy::too_many_arguments)]
    pub fn svg(
        self,
        class: &'static str,
        label: Signal<&'static str>,
        hit: impl Fn(f64, f64) -> Option<u8> + Copy + 'static,
        press: impl Fn(u8) -> bool + Copy + 'static,
        drop_on: impl Fn(u8, u8) + Copy + 'static,
        centre: impl Fn(u8) -> (f64, f64) + Copy + 'static,
        content: impl IntoView + 'static,
    ) -> impl IntoView {
        let (w, h) = self.size;
        let (x0, y0, cw, ch) = self.crop.unwrap_or((0.0, 0.0, w, h));
        let read_only = self.read_only;
        let diagram = if read_only.is_some() { " diagram" } else { "" };
        view! {
            <svg
                node_ref=self.svg_ref
                class=format!("board {class}{diagram}")
                viewBox=format!("{x0} {y0} {cw} {ch}")
                role=if read_only.is_some() { "img" } else { "group" }
                aria-label=move || match read_only {
                    Some(l) => l.get(),
                    None => label.get().to_string(),
                }
                on:pointerdown=self.on_down(hit, press)
                on:pointermove=self.on_move(centre, CELL * 0.3)
                on:pointerup=self.on_up(hit, drop_on)
                on:pointercancel=move |_| self.drag.set(None)
            >
                {content}
            </svg>
        }
    }
}

/// The `press` and `drop_on` actions of a board where every move takes one
/// piece from a spot to another (Territory Duel, Stones!): a press on a
/// target of the selected piece moves it, a press on one of the mover's
/// pieces (`own`) selects it, any other press clears the selection.
pub fn select_and_move<M: Send + Sync + 'static>(
    input: BoardInput,
    enabled: Signal<bool>,
    on_move: Callback<M>,
    move_between: impl Fn(u8, u8) -> Option<M> + Copy + 'static,
    own: impl Fn(u8) -> bool + Copy + 'static,
    can_move: impl Fn(u8) -> bool + Copy + 'static,
    on_stuck: Callback<u8>,
) -> (
    impl Fn(u8) -> bool + Copy + 'static,
    impl Fn(u8, u8) + Copy + 'static,
) {
    let selected = input.selected;
    let play = move |from: u8, to: u8| -> bool {
        match move_between(from, to).filter(|_| enabled.get_untracked()) {
            Some(mv) => {
                selected.set(None);
                on_move.run(mv);
                true
            }
            None => false,
        }
    };
    let press = move |spot: u8| -> bool {
        if !enabled.get_untracked() {
            return false;
        }
        if let Some(from) = selected.get_untracked() {
            input.picked.set_value(Some(Picked {
                from,
                to: spot,
                dropped: false,
            }));
        }
        if selected
            .get_untracked()
            .is_some_and(|from| play(from, spot))
        {
            return false;
        }
        if own(spot) {
            if !can_move(spot) {
                on_stuck.run(spot);
            }
            return true;
        }
        selected.set(None);
        false
    };
    let drop_on = move |from: u8, to: u8| {
        play(from, to);
    };
    (press, drop_on)
}

impl BoardInput {
    /// [`BoardInput::svg`] for a square [`Grid`]: its hit test, centres and
    /// a layer of coordinate labels over `squares`, then the marked move
    /// (`name` names a square), then `over` (the travelling and the dragged
    /// piece).
    #[allow(clippy::too_many_arguments)]
    pub fn grid_svg(
        self,
        grid: Grid,
        class: &'static str,
        label: Signal<&'static str>,
        press: impl Fn(u8) -> bool + Copy + 'static,
        drop_on: impl Fn(u8, u8) + Copy + 'static,
        squares: impl IntoView + 'static,
        marked: Signal<Option<Mark>>,
        name: fn(u8) -> String,
        over: impl IntoView + 'static,
    ) -> impl IntoView {
        let coords = (0..grid.n * grid.n)
            .map(|sq| grid.coord_labels(sq))
            .collect_view();
        self.svg(
            class,
            label,
            move |x, y| grid.hit(x, y),
            press,
            drop_on,
            move |sq| grid.centre(sq),
            (
                squares,
                view! { <g class="coords" aria-hidden="true">{coords}</g> },
                mark_layer(marked, move |sq| grid.centre(sq), name),
                over,
            ),
        )
    }
}

/// White and Black: the players' names in Stones! and Mill (Territory
/// Duel's are [`ataxx::side_name`]), in the boards' spoken labels and
/// wherever else the page names a side.
pub fn white_black(lang: Lang, side: Side) -> &'static str {
    match side {
        Side::First => t!(lang, "side.white"),
        Side::Second => t!(lang, "side.black"),
    }
}

/// A square's or point's spoken label: its name, what is on it, then each
/// part whose condition holds, joined by commas ("b7, empty, clone here").
pub fn spot_label<S: AsRef<str>>(
    name: &str,
    what: String,
    parts: impl IntoIterator<Item = (bool, S)>,
) -> String {
    let mut label = format!("{name}, {what}");
    for (on, part) in parts {
        if on {
            label.push_str(", ");
            label.push_str(part.as_ref());
        }
    }
    label
}

/// An `n`×`n` board of squares numbered `rank * n + file`, rank 1 at the
/// bottom (Territory Duel, Stones!), or at the top when `flipped`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    pub n: u8,
    pub flipped: bool,
}

impl Grid {
    /// Column and row on screen (row 0 at the top) of a square.
    fn screen(self, sq: u8) -> (u8, u8) {
        let n = self.n;
        let (file, rank) = (sq % n, sq / n);
        if self.flipped {
            (n - 1 - file, rank)
        } else {
            (file, n - 1 - rank)
        }
    }

    /// Top-left corner of a square in board units.
    pub fn origin(self, sq: u8) -> (f64, f64) {
        let (col, row) = self.screen(sq);
        (f64::from(col) * CELL, f64::from(row) * CELL)
    }

    /// Centre of a square in board units.
    pub fn centre(self, sq: u8) -> (f64, f64) {
        let (x, y) = self.origin(sq);
        (x + CELL / 2.0, y + CELL / 2.0)
    }

    /// The square under a point in board units.
    pub fn hit(self, x: f64, y: f64) -> Option<u8> {
        let n = self.n;
        cell_at(x, y, n, n).map(|(col, row)| {
            if self.flipped {
                row * n + (n - 1 - col)
            } else {
                (n - 1 - row) * n + col
            }
        })
    }

    /// Width (and height) of the board in board units.
    pub fn size(self) -> f64 {
        f64::from(self.n) * CELL
    }

    /// Whether square `sq` is dark in the checkered pattern (a1 is dark).
    pub fn is_dark(self, sq: u8) -> bool {
        (sq % self.n + sq / self.n).is_multiple_of(2)
    }

    /// The file letter along the bottom edge and the rank number along the
    /// left edge, drawn inside the edge squares (in a layer of their own, so
    /// a square's accessible name is just its label).
    pub fn coord_labels(self, sq: u8) -> impl IntoView {
        let n = self.n;
        let (x, y) = self.origin(sq);
        let (col, row) = self.screen(sq);
        let file = (row == n - 1).then(|| {
            let t = ((b'a' + sq % n) as char).to_string();
            view! { <text class="coord" x=x + CELL - 5.0 y=y + CELL - 5.0 text-anchor="end">{t}</text> }
        });
        let rank = (col == 0).then(|| {
            let t = (sq / n + 1).to_string();
            view! { <text class="coord" x=x + 5.0 y=y + 17.0>{t}</text> }
        });
        (file, rank)
    }
}

/// The spot nearest to `from` in screen direction `dir` (a unit step along
/// one axis): ahead of it, preferring spots close to the same line.
fn nearest_in_direction(
    from: u8,
    dir: (f64, f64),
    centre: impl Fn(u8) -> (f64, f64),
    count: u8,
) -> Option<u8> {
    let (fx, fy) = centre(from);
    (0..count)
        .filter(|&s| s != from)
        .filter_map(|s| {
            let (x, y) = centre(s);
            let (dx, dy) = (x - fx, y - fy);
            let ahead = dx * dir.0 + dy * dir.1;
            let aside = (dx * dir.1 - dy * dir.0).abs();
            (ahead > 1.0).then_some((s, ahead + 2.0 * aside))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(s, _)| s)
}

/// The grid cell `(column, row)` under a point in board units (row 0 at the
/// top), or `None` when the point is off a `cols`×`rows` grid.
pub fn cell_at(x: f64, y: f64, cols: u8, rows: u8) -> Option<(u8, u8)> {
    let (w, h) = (f64::from(cols) * CELL, f64::from(rows) * CELL);
    if !(0.0..w).contains(&x) || !(0.0..h).contains(&y) {
        return None;
    }
    Some(((x / CELL) as u8, (y / CELL) as u8))
}

/// Whether bit `sq` is set in a bitboard.
pub fn has(bb: u64, sq: u8) -> bool {
    sq < 64 && bb >> sq & 1 == 1
}
