//! One SVG component per game, plus what they share, a file each:
//! [`props`] (what a board takes, the board unit, spoken labels),
//! [`input`] (the pointer/keyboard input controller), [`grid`] (the square
//! boards' geometry), [`mark`] (a hint or better move drawn on the board)
//! and [`motion`] (the move just played travels). This file only declares
//! them and names what the rest of the page uses.
//!
//! Boards hold no rules: they ask the engine for legal targets and report a
//! chosen move through `on_move`. A move to show (the computer's hint, the
//! review's better move) comes in as a [`Mark`] and is drawn over the
//! pieces by [`mark_layer`], the same in every game.

pub mod ataxx;
pub mod grid;
pub mod input;
pub mod mark;
pub mod mill;
pub mod motion;
pub mod props;
pub mod stones;

pub use crate::client::mark::Mark;
pub use props::BoardProps;
