//! Static evaluation and move-ordering hints, one implementation per game.
//!
//! Scores are centipawn-like integers from the point of view of the side to
//! move (positive = good for the mover), well inside `±MATE_BOUND` so they
//! never mix with proven wins and losses.

mod ataxx;
pub mod mill;
pub mod nnue;
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

    /// What an incrementally updated evaluation keeps per position
    /// (Territory Duel's network accumulators); `()` for the others. The
    /// search is copy-make: it keeps one per ply, fills the root's with
    /// [`Evaluate::acc_refresh`] and each child's from its parent's with
    /// [`Evaluate::acc_update`] as it makes the move.
    type Acc: Clone + Default + Send + Sync + 'static;

    /// Computes `acc` for this position from scratch.
    fn acc_refresh(&self, _acc: &mut Self::Acc) {}

    /// Computes `acc` for this position (a child of `parent`, whose
    /// accumulator is `parent_acc`).
    fn acc_update(&self, _parent: &Self, _parent_acc: &Self::Acc, _acc: &mut Self::Acc) {}

    /// The same score as [`Evaluate::evaluate`], read from this position's
    /// accumulator (made by [`Evaluate::acc_refresh`] or
    /// [`Evaluate::acc_update`]).
    fn evaluate_acc(&self, _acc: &Self::Acc) -> i32 {
        self.evaluate()
    }

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

    /// The moves the quiescence search looks at where the full search
    /// ends (into `out`, which is cleared first), and whether the side to
    /// move may stand pat instead. By default there are none: the leaf is
    /// scored as it stands.
    fn horizon_moves(&self, out: &mut Vec<Self::Move>) -> Horizon {
        out.clear();
        Horizon::Quiet
    }

    /// Late-move pruning: at a node outside the principal variation with
    /// `d` plies left (`d` = 1, 2, 3), the search skips the quiet moves
    /// (below [`TACTICAL`], not the table move, not a killer) once it has
    /// tried `LATE_QUIET[d - 1]` moves. `usize::MAX`: never (the default).
    const LATE_QUIET: [usize; 3] = [usize::MAX; 3];

    /// Late-move reductions of every move after the first two, flipping
    /// or not, at nodes with 3 or more plies left (Strong and Master):
    /// `(a, b)` reduces the `m`-th move (from 1) at depth `d` by
    /// `(a + b·ln d·ln m) / 100` plies, rounded, one less at a PV node,
    /// never down to the leaves. `None`: the search's own rule (quiet
    /// moves from the fifth, by one ply, two deep in the tree).
    const LOG_REDUCTIONS: Option<(i32, i32)> = None;

    /// Futility pruning with `d` plies left, `d` ≤ 6, two plies or more
    /// from the root (Strong and Master):
    /// `(r, b, m)`: outside the principal variation, a node whose static
    /// score is at least `beta + r·d` returns it (reverse futility), and
    /// once three moves were tried, the rest are skipped if the static
    /// score plus `b + m·d` cannot reach alpha. The principal variation
    /// keeps exact scores (the opening's choice among near-equal moves
    /// relies on them).
    /// `None`: neither (the default).
    const FUTILITY: Option<(i32, i32, i32)> = None;

    /// Internal iterative reduction (Strong and Master): a node with
    /// `Some(d)` or more plies left and no table move is searched a ply
    /// shallower. `None`: never (the default).
    const IIR_DEPTH: Option<i32> = None;

    /// Singular extensions (Strong and Master): `Some((d, m))` at a node
    /// outside the principal variation with `d` or more plies left, whose
    /// table entry is a lower bound or exact, not a mate score, and at
    /// most `m` plies shallower than the node. The other moves are
    /// searched to half the depth against the table score less the
    /// depth. If none reaches it, the table move is singular and is
    /// searched a ply deeper; if one does and that bound is at or above
    /// beta, the node returns it (multi-cut); if the table score alone is
    /// at or above beta, the table move is searched a ply shallower.
    /// `None`: never (the default).
    const SINGULAR: Option<(i32, i32)> = None;
}

/// What the quiescence search does at a position (see
/// [`Evaluate::horizon_moves`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Horizon {
    /// Nothing to resolve: score the position as it stands.
    Quiet,
    /// The side to move may stand pat or play one of the given moves.
    Noisy,
    /// The given moves are the only legal ones (Mill: a removal is owed).
    Forced,
}
