//! Static evaluation and move-ordering hints, one implementation per game.
//!
//! Scores are centipawn-like integers from the point of view of the side to
//! move (positive = good for the mover), well inside `±MATE_BOUND` so they
//! never mix with proven wins and losses.

mod ataxx;
pub mod mill;
pub mod patterns;
pub mod stones;
mod tables;

use crate::games::Game;

/// Size of the history table per side: every [`Evaluate::move_key`] is below it.
pub const HISTORY_SIZE: usize = 4096;

/// Hints at or above this are tactical moves (captures, flips, pins, mills):
/// the search never reduces them.
pub const TACTICAL: i32 = 100;

/// What the search needs to know about a game beyond its rules.
pub trait Evaluate: Game {
    /// The static score of the position for the side to move.
    fn evaluate(&self) -> i32;

    /// The score the lower levels (Beginner, Casual, Intermediate) play
    /// with: the same as [`Evaluate::evaluate`] unless a game's learned
    /// evaluation is sound only with a deep search. Mill's is its
    /// hand-written evaluation, which values a piece plainly, so a level
    /// that picks among near-equal moves never gives one away.
    fn evaluate_plain(&self) -> i32 {
        self.evaluate()
    }

    /// A cheap guess at how good `mv` is, for move ordering; at least
    /// [`TACTICAL`] for captures, flips, pins and mills.
    fn order_hint(&self, mv: Self::Move) -> i32;

    /// A small index identifying `mv` (below [`HISTORY_SIZE`]) for the
    /// history heuristic.
    fn move_key(mv: Self::Move) -> usize;
}
