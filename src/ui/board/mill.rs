//! The Mill board: 24 points on three squares (with the corner diagonals
//! when the rules have them), drawn in SVG, with each side's pieces in hand
//! in a row above (Black) and below (White) the board (the other way round
//! when the board is flipped).
//!
//! Tap an empty point to place, tap a piece then a point to slide or fly (or
//! drag it), tap a highlighted opponent piece to remove it after a mill.
//! Mills just formed are drawn over their line; marked points (mark and
//! delay) show a cross.

use leptos::prelude::*;

use super::input::BoardInput;
use super::mark::mark_layer;
use super::motion::{fresh_move, travel_layer, Fresh};
use super::motion::{Arrival, Travel};
use super::props::{spot_label, BoardProps, CELL};
use crate::client::ending::side_name;
use crate::games::mill::{lines, point_coords, point_name, Mill, MillMove, Phase, Point, POINTS};
use crate::games::{Game, GameKind, Record, Side};
use crate::i18n::Lang;
use crate::t;
use crate::ui::words::use_lang;

/// Height of each hand row above and below the board.
const HAND: f64 = 80.0;
const BOARD: f64 = 7.0 * CELL;

/// Centre of a point in board units (the board starts below the top hand);
/// `flipped` turns the board round for the second player.
fn centre(p: Point, flipped: bool) -> (f64, f64) {
    let (file, rank) = point_coords(p);
    let (col, row) = if flipped {
        (6 - file, rank)
    } else {
        (file, 6 - rank)
    };
    (
        f64::from(col) * CELL + CELL / 2.0,
        HAND + f64::from(row) * CELL + CELL / 2.0,
    )
}

/// Centre of the `i`th piece in `side`'s hand: a row above the board for
/// the side at the top (Black, or White when `flipped`), below it for the other.
fn hand_slot(side: Side, i: u8, flipped: bool) -> (f64, f64) {
    let top = if flipped { Side::First } else { Side::Second };
    let y = if side == top {
        HAND / 2.0
    } else {
        BOARD + 1.5 * HAND
    };
    (CELL / 2.0 + f64::from(i) * 55.0, y)
}

/// How the piece of the last move travels (see [`super::motion`]): a
/// placement comes from the end of the mover's hand, a slide or a flight
/// from its point; a removal does not travel.
fn arrival(record: &Record<Mill>, flipped: bool) -> Option<Arrival> {
    let (origin, to, travel) = match *record.moves().last()? {
        MillMove::Remove(_) => return None,
        MillMove::Slide { from, to } => (centre(from, flipped), to, Travel::Slide),
        MillMove::Place(to) => {
            let side = record.position().piece_at(to)?;
            let left = record.position().in_hand(side);
            (hand_slot(side, left, flipped), to, Travel::Enter)
        }
    };
    Some(Arrival { to, origin, travel })
}

/// The point within reach of a pointer position.
fn hit(x: f64, y: f64, flipped: bool) -> Option<Point> {
    (0..POINTS as Point).find(|&p| {
        let (cx, cy) = centre(p, flipped);
        (x - cx).abs() < CELL * 0.45 && (y - cy).abs() < CELL * 0.45
    })
}

/// The mill lines to draw as "just formed": the lines through the point the
/// last placement or slide landed on, when that move was followed by (or now
/// owes) a removal.
fn fresh_mills(record: &Record<Mill>) -> Vec<[Point; 3]> {
    let moves = record.moves();
    let Some(i) = moves
        .iter()
        .rposition(|m| !matches!(m, MillMove::Remove(_)))
    else {
        return vec![];
    };
    let to = match moves[i] {
        MillMove::Place(p) | MillMove::Slide { to: p, .. } => p,
        MillMove::Remove(_) => return vec![],
    };
    let removal_follows = i + 1 < moves.len() || record.position().must_remove() > 0;
    if !removal_follows {
        return vec![];
    }
    record.position().mills_at(to)
}

/// From and to of the last placement or slide, and the last removed point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct LastMove {
    from: Option<Point>,
    to: Option<Point>,
    removed: Option<Point>,
}

fn last_move(record: &Record<Mill>) -> LastMove {
    let mut l = LastMove::default();
    for m in record.moves().iter().rev() {
        match *m {
            MillMove::Remove(p) if l.removed.is_none() && l.to.is_none() => l.removed = Some(p),
            MillMove::Remove(_) => {}
            MillMove::Place(p) => {
                l.to = Some(p);
                break;
            }
            MillMove::Slide { from, to } => {
                l.from = Some(from);
                l.to = Some(to);
                break;
            }
        }
    }
    l
}

/// What a point is drawn from: the position, its legal moves, what just
/// happened and the player's selection.
#[derive(Clone, Copy)]
struct PointState {
    record: Signal<Record<Mill>>,
    enabled: Signal<bool>,
    hints: Signal<bool>,
    selected: RwSignal<Option<Point>>,
    legal: Memo<Vec<MillMove>>,
    last: Memo<LastMove>,
    mills: Memo<Vec<[Point; 3]>>,
    slide_targets: Memo<Vec<Point>>,
}

impl PointState {
    /// Whether placing on `p` and removing from `p` are legal.
    fn place_remove(self, p: Point) -> (bool, bool) {
        self.legal.with(|moves| {
            (
                moves.contains(&MillMove::Place(p)),
                moves.contains(&MillMove::Remove(p)),
            )
        })
    }

    fn is_legal(self, mv: MillMove) -> bool {
        self.legal.with_untracked(|l| l.contains(&mv))
    }

    /// A press on `p`: plays the move it completes, or tells whether `p`
    /// holds a piece that can slide (to be selected); a piece of the side
    /// to move that cannot is reported to `on_stuck`.
    fn press(self, p: Point, on_move: Callback<MillMove>, on_stuck: Callback<u8>) -> bool {
        if !self.enabled.get_untracked() {
            return false;
        }
        if let Some(from) = self.selected.get_untracked() {
            let mv = MillMove::Slide { from, to: p };
            if self.is_legal(mv) {
                self.selected.set(None);
                on_move.run(mv);
                return false;
            }
        }
        for mv in [MillMove::Remove(p), MillMove::Place(p)] {
            if self.is_legal(mv) {
                self.selected.set(None);
                on_move.run(mv);
                return false;
            }
        }
        if let Some(mv) = self.illegal_press(p) {
            // Played all the same, so the game refuses it and the notice
            // line says why ("a4 is not next to d7", issue 36).
            self.selected.set(None);
            on_move.run(mv);
            return false;
        }
        let movable = self.legal.with_untracked(|l| {
            l.iter()
                .any(|m| matches!(*m, MillMove::Slide { from, .. } if from == p))
        });
        if !movable {
            self.selected.set(None);
            let own_blocked = self.record.with_untracked(|r| {
                let pos = r.position();
                pos.phase() == Phase::Moving
                    && pos.must_remove() == 0
                    && pos.piece_at(p) == Some(pos.side_to_move())
            });
            if own_blocked {
                on_stuck.run(p);
            }
        }
        movable
    }

    /// The illegal move a press on `p` asks for, when it asks for one the
    /// game can say no to: a removal that is not allowed, a slide of the
    /// selected piece where it cannot go, a placement on a taken or marked
    /// point. `None` for a press that selects or clears (own pieces, and
    /// anything while a slide has no piece selected).
    fn illegal_press(self, p: Point) -> Option<MillMove> {
        self.record.with_untracked(|r| {
            let pos = r.position();
            let side = pos.side_to_move();
            if pos.outcome().is_some() {
                None
            } else if pos.must_remove() > 0 {
                Some(MillMove::Remove(p))
            } else if let Some(from) = self.selected.get_untracked() {
                (pos.piece_at(p) != Some(side)).then_some(MillMove::Slide { from, to: p })
            } else if pos.phase() == Phase::Placing && pos.in_hand(side) > 0 {
                (pos.piece_at(p).is_some_and(|s| s != side) || pos.is_marked(p))
                    .then_some(MillMove::Place(p))
            } else {
                None
            }
        })
    }

    /// The point's classes: selected, a target, the last move, marked.
    fn class(self, p: Point) -> String {
        let l = self.last.get();
        let targets = self.slide_targets.get();
        let (place, remove) = self.place_remove(p);
        let enabled = self.enabled.get();
        let mut c = String::from("pt");
        for (on, class) in [
            (self.selected.get() == Some(p), " selected"),
            (targets.contains(&p), " target-slide"),
            (place && enabled, " target-place"),
            (remove && enabled, " target-remove"),
            (l.from == Some(p), " last-from"),
            (l.to == Some(p), " last-to"),
            (l.removed == Some(p), " last-removed"),
            (self.record.with(|r| r.position().is_marked(p)), " marked"),
        ] {
            if on {
                c.push_str(class);
            }
        }
        c
    }

    /// The point's name for screen readers: what is on it and what it offers.
    fn label(self, lang: Lang, p: Point) -> String {
        let pos = self.record.with(|r| *r.position());
        let what = match pos.piece_at(p) {
            Some(s) => t!(
                lang,
                "spot.piece",
                side = side_name(lang, GameKind::Mill, s)
            ),
            None if pos.is_marked(p) => t!(lang, "spot.marked").to_string(),
            None => t!(lang, "spot.empty").to_string(),
        };
        let (place, remove) = self.place_remove(p);
        spot_label(
            point_name(p),
            what,
            [
                (self.selected.get() == Some(p), t!(lang, "spot.selected")),
                (place, t!(lang, "spot.place_here")),
                (remove, t!(lang, "spot.can_be_removed")),
                (
                    self.slide_targets.get().contains(&p),
                    t!(lang, "spot.move_here"),
                ),
            ],
        )
    }

    /// The piece on `p` (drawn at `at`), marked when it is in a fresh mill.
    fn piece(self, p: Point, at: (f64, f64)) -> Option<AnyView> {
        let side = self.record.with(|r| r.position().piece_at(p))?;
        let in_mill = self.mills.with(|m| m.iter().any(|line| line.contains(&p)));
        let cls = if in_mill { "piece in-mill" } else { "piece" };
        Some(piece_pic(side, at, cls))
    }

    /// The hint on `p` when hints are on: a ring where a piece can be
    /// removed, a dot where one can be placed or slid.
    fn hint(self, p: Point, (cx, cy): (f64, f64)) -> Option<AnyView> {
        if !self.hints.get() || !self.enabled.get() {
            return None;
        }
        let targeted = self.slide_targets.get().contains(&p)
            || self.legal.with(|m| m.contains(&MillMove::Place(p)));
        let removable = self.legal.with(|m| m.contains(&MillMove::Remove(p)));
        if removable {
            Some(view! { <circle class="hint hint-remove" cx=cx cy=cy r="44"/> }.into_any())
        } else if targeted {
            Some(view! { <circle class="hint hint-clone" cx=cx cy=cy r="13"/> }.into_any())
        } else {
            None
        }
    }

    /// The cross on a marked point (mark and delay).
    fn mark(self, p: Point, (cx, cy): (f64, f64)) -> Option<impl IntoView> {
        self.record.with(|r| r.position().is_marked(p)).then(|| {
            view! {
                <path class="mark-x" d=format!("M{} {} l30 30 M{} {} l-30 30", cx - 15.0, cy - 15.0, cx + 15.0, cy - 15.0)/>
            }
        })
    }
}

/// The lines of the board.
fn board_lines(diagonals: bool, flipped: bool) -> impl IntoView {
    lines(diagonals)
        .iter()
        .map(|&[a, _, c]| {
            let ((x1, y1), (x2, y2)) = (centre(a, flipped), centre(c, flipped));
            view! { <line class="mill-line" x1=x1 y1=y1 x2=x2 y2=y2/> }
        })
        .collect_view()
}

/// A mill just formed; it fades in after the piece arrives, when the
/// move that formed it (or its removal) was just played.
fn fresh_mill_lines(
    mills: Memo<Vec<[Point; 3]>>,
    fresh_mv: Memo<Option<Fresh>>,
    flipped: bool,
) -> impl IntoView {
    move || {
        let cls = if fresh_mv.get().is_some() {
            "mill-fresh now"
        } else {
            "mill-fresh"
        };
        mills
            .get()
            .into_iter()
            .map(|[a, _, c]| {
                let ((x1, y1), (x2, y2)) = (centre(a, flipped), centre(c, flipped));
                view! { <line class=cls x1=x1 y1=y1 x2=x2 y2=y2/> }
            })
            .collect_view()
    }
}

/// The pieces in `side`'s hand, in its row.
fn hand_pieces(record: Signal<Record<Mill>>, side: Side, flipped: bool) -> impl IntoView {
    let cls = if side == Side::First {
        "piece pw hand"
    } else {
        "piece pb hand"
    };
    move || {
        let n = record.with(|r| r.position().in_hand(side));
        (0..n)
            .map(|i| {
                let (x, y) = hand_slot(side, i, flipped);
                view! { <circle class=cls cx=x cy=y r="22"/> }
            })
            .collect_view()
    }
}

/// "No pieces in hand" in `side`'s row once it is empty.
fn hand_empty_label(
    record: Signal<Record<Mill>>,
    lang: Signal<Lang>,
    side: Side,
    flipped: bool,
) -> impl IntoView {
    let top = if flipped { Side::First } else { Side::Second };
    let y = if side == top {
        HAND / 2.0 + 7.0
    } else {
        BOARD + 1.5 * HAND + 7.0
    };
    move || {
        let n = record.with(|r| r.position().in_hand(side));
        (n == 0).then(|| {
            view! {
                <text class="hand-empty" x=BOARD / 2.0 y=y text-anchor="middle">
                    {move || t!(lang.get(), "mill.hand_empty", side = side_name(lang.get(), GameKind::Mill, side))}
                </text>
            }
        })
    }
}

/// The interactive Mill board.
#[component]
pub fn MillBoard(props: BoardProps<Mill>) -> impl IntoView {
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
    let centre = move |p: Point| centre(p, flipped);
    let hit = move |x: f64, y: f64| hit(x, y, flipped);
    let height = BOARD + 2.0 * HAND;
    let mut input = BoardInput::new(BOARD, height, record).read_only(read_only);
    if input.is_diagram() {
        // A diagram shows the board without the hands.
        input.crop = Some((0.0, HAND, BOARD, BOARD));
    }
    let selected = input.selected;
    let diagonals = record.with_untracked(|r| r.position().rules().diagonal_lines);
    let legal = Memo::new(move |_| record.with(|r| r.position().legal_moves()));
    let last = Memo::new(move |_| record.with(last_move));
    let mills = Memo::new(move |_| record.with(fresh_mills));
    let fresh_mv = fresh_move(record, input, move |r, _| arrival(r, flipped));
    let slide_targets = Memo::new(move |_| {
        let Some(from) = selected.get() else {
            return vec![];
        };
        legal.with(|l| {
            l.iter()
                .filter_map(|m| match *m {
                    MillMove::Slide { from: f, to } if f == from => Some(to),
                    _ => None,
                })
                .collect::<Vec<_>>()
        })
    });
    let state = PointState {
        record,
        enabled,
        hints,
        selected,
        legal,
        last,
        mills,
        slide_targets,
    };

    let press = move |p: Point| state.press(p, on_move, on_stuck);
    let drop_on = move |from: Point, to: Point| {
        let mv = MillMove::Slide { from, to };
        if enabled.get_untracked() && state.is_legal(mv) {
            selected.set(None);
            on_move.run(mv);
        }
    };

    let points = (0..POINTS as Point)
        .map(|p| {
            let (cx, cy) = centre(p);
            let name = point_name(p);
            let label = move || state.label(lang.get(), p);
            let spot = view! {
                <g class=move || state.class(p) role=input.spot_role() tabindex=input.tabindex(p) aria-label=input.spot_label(label) data-point=name
                   data-spot=p
                   on:keydown=input.on_key(p, press, centre, POINTS as u8)>
                    <rect class="hit" x=cx - CELL / 2.0 y=cy - CELL / 2.0 width=CELL height=CELL/>
                    <circle class="dot" cx=cx cy=cy r="9"/>
                    {move || state.mark(p, (cx, cy))}
                    {input.slot(p, fresh_mv, move || state.piece(p, (cx, cy)))}
                    {move || state.hint(p, (cx, cy))}
                </g>
            };
            input.spot_focus(spot, p)
        })
        .collect_view();

    let ghost = move || {
        let d = input.dragging()?;
        let side = record.with(|r| r.position().piece_at(d.from))?;
        Some(piece_pic(side, (d.x, d.y), "piece ghost"))
    };

    let travel = travel_layer(
        fresh_mv,
        centre,
        |p| point_name(p).to_string(),
        move |p| {
            let side = record.with_untracked(|r| r.position().piece_at(p))?;
            Some(piece_pic(side, centre(p), "pic"))
        },
    );

    // Pieces in hand: Black's row on top, White's at the bottom (the other
    // way round when flipped, so your own hand is at the bottom).
    let content = view! {
        <rect class="mill-bg" x="0" y=HAND width=BOARD height=BOARD rx="16"/>
        <rect class="hand-bg" x="0" y="0" width=BOARD height=HAND - 6.0 rx="12"/>
        <rect class="hand-bg" x="0" y=height - HAND + 6.0 width=BOARD height=HAND - 6.0 rx="12"/>
        {board_lines(diagonals, flipped)}
        {fresh_mill_lines(mills, fresh_mv, flipped)}
        {hand_pieces(record, Side::Second, flipped)}
        {hand_empty_label(record, lang, Side::Second, flipped)}
        {hand_pieces(record, Side::First, flipped)}
        {hand_empty_label(record, lang, Side::First, flipped)}
        {points}
        {mark_layer(marked, centre, |p| point_name(p).to_string())}
        {travel}
        {ghost}
    };
    input.svg(
        "mill-board",
        Signal::derive(move || t!(lang.get(), "board.mill")),
        hit,
        press,
        drop_on,
        centre,
        content,
    )
}

/// A Mill piece of `side` centred at `at`, with `class` (and its colour's).
fn piece_pic(side: Side, at: (f64, f64), class: &str) -> AnyView {
    let colour = if side == Side::First { "pw" } else { "pb" };
    view! {
        <g class=format!("{class} {colour}")>
            <circle class="body" cx=at.0 cy=at.1 r="34"/>
            <circle class="rim" cx=at.0 cy=at.1 r="22"/>
        </g>
    }
    .into_any()
}
