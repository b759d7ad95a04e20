//! Mill in the client layer.

use crate::client::diagram::{Diagram, Diagrams, Shown};
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

/// The rules pages' diagrams (see [`crate::client::diagram`]).
impl Diagrams for Mill {
    const DIAGRAMS: &'static [Diagram] = &[
        // Mill (Nine Men's Morris): flying; a slide that closes a mill; a removal.
        Diagram {
            game: GameKind::Mill,
            caption: "rules.mill.s2.d1",
            position: "**@****@/O**@**O*/@**O*@*@ w m s 3 0 6 0 0 0 0 0 0 0 0 6 20",
            moves: &["g1-b6"],
            shown: Shown::After,
        },
        Diagram {
            game: GameKind::Mill,
            caption: "rules.mill.s3.d1",
            position: "**@*****/@*O*O*O*/@@*@*O*O w m s 5 0 5 0 0 0 0 0 0 0 0 6 20",
            moves: &["b4-a4"],
            shown: Shown::After,
        },
        Diagram {
            game: GameKind::Mill,
            caption: "rules.mill.s3.d2",
            position: "***O**@*/*O**O*O@/*@@@O**@ w m s 5 0 6 0 0 0 0 0 0 0 0 6 20",
            moves: &["e3-d3", "xb6"],
            shown: Shown::Before,
        },
    ];
}
