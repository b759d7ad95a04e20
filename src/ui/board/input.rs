//! The pointer and keyboard input controller the boards share: press,
//! drag and drop, the focus cursor and its arrow keys, the selection, and
//! the SVG element that carries them.

use leptos::ev::on;
use leptos::prelude::*;
use leptos::tachys::html::event::On;

use super::grid::Grid;
use super::mark::mark_layer;
use super::props::CELL;
use crate::client::mark::Mark;

/// The last move the player made on a board: from and to as pressed, and
/// whether it was dropped by a drag. A clone grows out of the piece the
/// player picked; a dropped move does not travel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Picked {
    pub from: u8,
    pub to: u8,
    pub dropped: bool,
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
