//! What every board takes and shares: its props from the game screen, the
//! board unit, the spoken label of a square or point, and a bitboard test.

use leptos::prelude::*;

use crate::client::mark::Mark;
use crate::games::{Game, Record};

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

/// Whether bit `sq` is set in a bitboard.
pub fn has(bb: u64, sq: u8) -> bool {
    sq < 64 && bb >> sq & 1 == 1
}
