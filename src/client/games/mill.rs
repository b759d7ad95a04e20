//! Mill in the client layer.

use crate::client::ending::{Ending, Ends};
use crate::client::mark::{Mark, Marks};
use crate::games::mill::{Mill, MillMove};
use crate::games::{Game, GameKind, Outcome, Side};

impl Ends for Mill {
    fn ending(&self, outcome: Outcome) -> Ending {
        let left = |s| u32::from(self.on_board(s)) + u32::from(self.in_hand(s));
        Ending {
            kind: GameKind::Mill,
            outcome,
            to_move: self.side_to_move(),
            counts: [left(Side::First), left(Side::Second)],
            move_limit: self.rules().n_move_rule,
        }
    }
}

/// A placement marks its point, a slide or a flight its two ends, a
/// removal the piece it takes.
impl Marks for Mill {
    fn mark(mv: MillMove) -> Mark {
        match mv {
            MillMove::Place(p) => Mark::arrive(p),
            MillMove::Slide { from, to } => Mark::travel(from, to),
            MillMove::Remove(p) => Mark::remove(p),
        }
    }
}
