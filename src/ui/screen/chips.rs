//! A player's score chip, above or below the board: the piece, the side's
//! name, its score, "to move" on its turn, and a line under it (who sits
//! there; Mill's pieces in hand; online, whether the player is connected).

use leptos::prelude::*;

use crate::games::Side;
use crate::i18n::Lang;
use crate::ui::words::use_lang;

/// One side's chip.
#[component]
pub fn ScoreChip(
    side: Side,
    /// CSS class of the side's pieces ("first", "second"); also names the
    /// chip's test id (`score-first`).
    side_class: &'static str,
    /// The game's names for the sides.
    side_name: fn(Lang, Side) -> &'static str,
    /// Drawn below the board (else above it).
    #[prop(into)]
    bottom: Signal<bool>,
    /// The score.
    #[prop(into)]
    count: Signal<u32>,
    /// What the score counts ("pieces"), as the number's tooltip.
    count_label: fn(Lang) -> &'static str,
    /// It is this side's turn.
    #[prop(into)]
    turn: Signal<bool>,
    /// The word shown on its turn ("to move").
    to_move: fn(Lang) -> &'static str,
    /// The line under the name.
    #[prop(into)]
    label: Signal<String>,
    /// Online: the player is away (the presence dot before the label).
    #[prop(optional)]
    away: Option<Signal<bool>>,
) -> impl IntoView {
    let lang = use_lang();
    let presence = away.map(|away| {
        view! { <span class="presence" class:away=move || away.get() aria-hidden="true"></span> }
    });
    view! {
        <div class=format!("chip {side_class}") class:to-move=move || turn.get()
            class:chip-bottom=move || bottom.get() class:chip-top=move || !bottom.get()
            data-testid=format!("score-{side_class}")>
            <svg class="chip-piece" viewBox="0 0 20 20" aria-hidden="true"><circle cx="10" cy="10" r="8"/></svg>
            <span class="chip-name">{move || side_name(lang.get(), side)}</span>
            <span class="chip-count" title=move || count_label(lang.get())>{move || count.get()}</span>
            <span class="chip-turn">{move || if turn.get() { to_move(lang.get()) } else { "" }}</span>
            <span class="chip-label">{presence}{move || label.get()}</span>
        </div>
    }
}
