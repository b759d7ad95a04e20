//! Stones! in the client layer.

use crate::client::diagram::{Diagram, Diagrams, Shown};
use crate::client::ending::{Ending, Ends};
use crate::client::mark::{Mark, Marks};
use crate::games::stones::Stones;
use crate::games::{EndReason, Game, GameKind, Outcome, Side};
use crate::i18n::Lang;
use crate::tn;

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

    /// The side to move that is stuck ends the game, scored by stones
    /// home: it may still win or draw.
    const STUCK_MAY_WIN: bool = true;

    /// Scored when the side to move is stuck, and at the online ply cap.
    fn decided_by_count(reason: EndReason) -> bool {
        matches!(reason, EndReason::NoLegalMove | EndReason::PlyLimit)
    }

    fn score_words(lang: Lang, winner: Option<Side>, counts: [u32; 2]) -> String {
        let count = |s: Side| counts[s.index()];
        match winner {
            Some(w) => tn!(
                lang,
                "outcome.score.stones",
                count(w),
                other = count(w.opponent())
            ),
            None => tn!(lang, "outcome.score.stones_each", count(Side::First)),
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

/// The rules pages' diagrams (see [`crate::client::diagram`]).
impl Diagrams for Stones {
    const DIAGRAMS: &'static [Diagram] = &[
        // Stones!: a slide; a jump that pins an opponent, one that frees an ally.
        Diagram {
            game: GameKind::Stones,
            caption: "rules.stones.s2.d1",
            position: "W:a1,b2,c3,e1,g1 B:b8,d6,e7,f8,h8 w",
            moves: &["c3-e5"],
            shown: Shown::After,
        },
        Diagram {
            game: GameKind::Stones,
            caption: "rules.stones.s3.d1",
            position: "W:a1,c3,e1,g2 B:b7,d8,f6,h8 w",
            moves: &["c3xf6-g7"],
            shown: Shown::After,
        },
        Diagram {
            game: GameKind::Stones,
            caption: "rules.stones.s3.d2",
            position: "W:c1,d4,e5*,g2 B:b7,d6,g5,h8 w",
            moves: &["d4xe5-f6"],
            shown: Shown::After,
        },
    ];
}
