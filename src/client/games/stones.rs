//! Stones! in the client layer.

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
