//! The result line in words: what ended the game, naming the side that did
//! it ("O resigned", "Black cannot move"), then who won and, when the count
//! decided it, the score with its unit ("X wins, 30 pieces to 19"). A pure
//! function of the game's end and the language, so it is tested natively.
//!
//! The side named is the one that did it: the loser for a resignation, a
//! timeout, too few or no pieces; the side to move for "cannot move" (in
//! Stones! that side may still win or draw on the score). The score is shown
//! only where the count decided the game: Territory Duel's endings scored
//! by count (the third occurrence of a position and the online ply cap
//! among them: "The same position occurred three times — O wins, 2 pieces
//! to 1.") and Stones!'s end and ply cap; never after a resignation, a
//! timeout or an agreement, nor in Mill, where the count decides nothing.

use crate::games::{EndReason, Game, GameKind, Outcome, Side};
use crate::i18n::Lang;
use crate::{t, tn};

/// What the result line needs to know about a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    pub kind: GameKind,
    pub outcome: Outcome,
    /// The side to move in the final position.
    pub to_move: Side,
    /// Each side's count at the end (first, second): pieces on the board in
    /// Territory Duel, stones home in Stones! (unused in Mill).
    pub counts: [u32; 2],
    /// Mill's n-move rule: moves without a removal that draw (unused in the
    /// other games).
    pub move_limit: u32,
}

/// A game whose end the result line can put in words: the end of a
/// position, and what differs between games in the words (each game's
/// impl is in its file of `client::games`; the defaults are the common
/// case).
pub trait Ends: Game {
    /// The end of this (final) position with `outcome`.
    fn ending(&self, outcome: Outcome) -> Ending;

    /// A side's name ("White", "Black" by default).
    fn player_name(lang: Lang, side: Side) -> &'static str {
        match side {
            Side::First => t!(lang, "side.white"),
            Side::Second => t!(lang, "side.black"),
        }
    }

    /// Whether a side to move that cannot move may still win or draw on
    /// the score (Stones!), so "cannot move" names it rather than the
    /// loser. By default the blocked side loses.
    const STUCK_MAY_WIN: bool = false;

    /// Whether the count decided an ending for `reason`, so the line
    /// shows the score. Never, by default.
    fn decided_by_count(_reason: EndReason) -> bool {
        false
    }

    /// The move limit's ending ("50 moves without a removal").
    fn move_limit_words(lang: Lang, limit: u32) -> String {
        tn!(lang, "end.move_limit", limit)
    }

    /// The score with its unit, the winner's count first, for an ending
    /// decided by the count (`counts`: first, second); pieces by default.
    fn score_words(lang: Lang, winner: Option<Side>, counts: [u32; 2]) -> String {
        let count = |s: Side| counts[s.index()];
        match winner {
            Some(w) => tn!(
                lang,
                "outcome.score.pieces",
                count(w),
                other = count(w.opponent())
            ),
            None => tn!(lang, "outcome.score.pieces_each", count(Side::First)),
        }
    }
}

/// A side's name in a game ("X", "White"): [`Ends::player_name`].
pub fn side_name(lang: Lang, kind: GameKind, side: Side) -> &'static str {
    crate::with_game!(kind, G => G::player_name(lang, side))
}

/// The whole result line, e.g. "O resigned — X wins." or "Black cannot
/// move — White wins, 2 stones home to 1."
pub fn describe(lang: Lang, end: &Ending) -> String {
    let Ending {
        kind,
        outcome,
        to_move,
        counts,
        move_limit,
    } = *end;
    let name = |side| side_name(lang, kind, side);
    // The side that lost, for the endings a loser brings about (a win
    // always has one; a draw here would be a record from elsewhere).
    let loser = outcome.winner.map_or(to_move, Side::opponent);
    let reason = match outcome.reason {
        EndReason::Agreement => return t!(lang, "outcome.agreed").to_string(),
        EndReason::Resignation => t!(lang, "end.resigned", side = name(loser)),
        EndReason::Timeout => t!(lang, "end.timed_out", side = name(loser)),
        EndReason::TooFewPieces => t!(lang, "end.too_few_pieces", side = name(loser)),
        EndReason::NoPieces => {
            // The side with no pieces left (Territory Duel counts them).
            let empty = [Side::First, Side::Second]
                .into_iter()
                .find(|s| counts[s.index()] == 0)
                .unwrap_or(loser);
            t!(lang, "end.no_pieces", side = name(empty))
        }
        EndReason::NoLegalMove => {
            // Stones!: the side to move, whatever the score says; Territory
            // Duel and Mill: the blocked side, which loses.
            let stuck_may_win = crate::with_game!(kind, G => G::STUCK_MAY_WIN);
            let blocked = if stuck_may_win { to_move } else { loser };
            t!(lang, "end.cannot_move", side = name(blocked))
        }
        EndReason::BoardFull => t!(lang, "end.board_full").to_string(),
        EndReason::NeitherCanMove => t!(lang, "end.neither_can_move").to_string(),
        EndReason::Repetition => t!(lang, "end.repetition").to_string(),
        EndReason::MoveLimit => crate::with_game!(kind, G => G::move_limit_words(lang, move_limit)),
        EndReason::PlyLimit => t!(lang, "end.ply_limit").to_string(),
    };
    let score = score_words(lang, end);
    match (outcome.winner, score) {
        (Some(side), Some(score)) => t!(
            lang,
            "outcome.win_score",
            reason = reason,
            side = name(side),
            score = score
        ),
        (Some(side), None) => t!(lang, "outcome.win", reason = reason, side = name(side)),
        (None, Some(score)) => t!(lang, "outcome.draw_score", reason = reason, score = score),
        (None, None) => t!(lang, "outcome.draw", reason = reason),
    }
}

/// The score with its unit, the winner's count first ("30 pieces to 19",
/// "1 stone home each"), when the count decided the game.
fn score_words(lang: Lang, end: &Ending) -> Option<String> {
    let reason = end.outcome.reason;
    crate::with_game!(end.kind, G => {
        G::decided_by_count(reason).then(|| G::score_words(lang, end.outcome.winner, end.counts))
    })
}
