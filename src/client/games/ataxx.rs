//! Territory Duel in the client layer.

use crate::client::diagram::{Diagram, Diagrams, Shown};
use crate::client::ending::{Ending, Ends};
use crate::client::mark::{Mark, Marks};
use crate::games::ataxx::{Ataxx, AtaxxMove, JUMP_LIMIT};
use crate::games::{EndReason, Game, GameKind, Outcome, Side};
use crate::i18n::Lang;
use crate::{t, tn};

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

    fn player_name(lang: Lang, side: Side) -> &'static str {
        match side {
            Side::First => t!(lang, "side.x"),
            Side::Second => t!(lang, "side.o"),
        }
    }

    /// The endings scored by count (its rules, rule 1 to 5, the third
    /// occurrence being rule 4, and the online ply cap); a blocked mover
    /// in lose mode loses whatever the count.
    fn decided_by_count(reason: EndReason) -> bool {
        matches!(
            reason,
            EndReason::BoardFull
                | EndReason::NoPieces
                | EndReason::NeitherCanMove
                | EndReason::Repetition
                | EndReason::MoveLimit
                | EndReason::PlyLimit
        )
    }

    /// Rule 5 counts jumps without a capture.
    fn move_limit_words(lang: Lang, limit: u32) -> String {
        tn!(lang, "end.jump_limit", limit)
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

/// The rules pages' diagrams (see [`crate::client::diagram`]).
impl Diagrams for Ataxx {
    const DIAGRAMS: &'static [Diagram] = &[
        // Territory Duel: a clone and a jump from the start, then a jump that flips.
        Diagram {
            game: GameKind::Ataxx,
            caption: "rules.ataxx.s2.d1",
            position: "x5o/7/7/7/7/7/o5x x 0 1",
            moves: &["b6"],
            shown: Shown::After,
        },
        Diagram {
            game: GameKind::Ataxx,
            caption: "rules.ataxx.s2.d2",
            position: "x5o/7/7/7/7/7/o5x x 0 1",
            moves: &["a7c5"],
            shown: Shown::After,
        },
        Diagram {
            game: GameKind::Ataxx,
            caption: "rules.ataxx.s2.d3",
            position: "7/5o1/2oo3/4o2/7/1x5/x6 x 0 1",
            moves: &["b2d4"],
            shown: Shown::After,
        },
    ];
}
