//! The pieces of a game screen, named for what they show and shared by the
//! local screen (`ui/game.rs`) and the online one (`ui/online/room.rs`):
//!
//! - [`chips`]: a player's score chip.
//! - [`status`]: the turn line (status, whose turn) and the thinking line.
//! - [`moves`]: the move list and its navigation buttons.
//! - [`controls`]: the local game's row of buttons and its text box.
//! - [`result`]: the game-over cards.
//!
//! None of them is generic over the game: the screens hand them plain
//! values (strings, rows, numbers, callbacks, `fn` pointers for the game's
//! words), so the page's wasm carries each once, not once per game. What a
//! game means for them is worked out by the screens and by `crate::client`.

pub mod chips;
pub mod controls;
pub mod moves;
pub mod result;
pub mod status;

use leptos::prelude::*;

/// A small stroked and filled icon for a button, from an SVG path.
pub fn icon(path: &'static str) -> impl IntoView {
    view! {
        <svg class="icon" viewBox="0 0 20 20" aria-hidden="true" width="20" height="20">
            <path d=path/>
        </svg>
    }
}
