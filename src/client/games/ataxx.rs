//! Territory Duel in the client layer.

use crate::client::ending::{Ending, Ends};
use crate::client::mark::{Mark, Marks};
use crate::games::ataxx::{Ataxx, AtaxxMove, JUMP_LIMIT};
use crate::games::{Game, GameKind, Outcome, Side};

impl Ends for Ataxx {
    fn ending(&self, outcome: Outcome) -> Ending {
        Ending {
            kind: GameKind::Ataxx,
            outcome,
            to_move: self.side_to_move(),
            counts: [self.count(Side::First), self.count(Side::Second)],
            move_limit: JUMP_LIMIT,
        }
    }
}

/// A clone names only its target: any neighbouring piece of the mover
/// could be its source, so none is singled out. A jump names both.
impl Marks for Ataxx {
    fn mark(mv: AtaxxMove) -> Mark {
        match mv {
            AtaxxMove::Pass => Mark::default(),
            AtaxxMove::Clone { to } => Mark::arrive(to),
            AtaxxMove::Jump { from, to } => Mark::travel(from, to),
        }
    }
}
