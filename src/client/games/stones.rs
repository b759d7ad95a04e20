//! Stones! in the client layer.

use crate::client::ending::{Ending, Ends};
use crate::client::mark::{Mark, Marks};
use crate::games::stones::Stones;
use crate::games::{Game, GameKind, Outcome, Side};

impl Ends for Stones {
    fn ending(&self, outcome: Outcome) -> Ending {
        Ending {
            kind: GameKind::Stones,
            outcome,
            to_move: self.side_to_move(),
            counts: [self.score(Side::First), self.score(Side::Second)],
            move_limit: 0,
        }
    }
}

/// A slide or a jump: from its square to its landing square (a jumped
/// stone stays on the board, pinned or freed, so it is not a removal).
impl Marks for Stones {
    fn mark(mv: crate::games::stones::StonesMove) -> Mark {
        Mark::travel(mv.from, mv.to)
    }
}
