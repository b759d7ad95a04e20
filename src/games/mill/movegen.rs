//! Mill move generation: the moves of the side to move (placements,
//! slides or flights, owed removals), their count for perft's last ply
//! from popcounts alone, and why a move is not legal.

use super::board::{side_bit, ADJ_MASKS, POINTS};
use super::illegal::MillIllegal;
use super::position::Mill;
use super::rules::RemoveFromMills;
use super::{MillMove, Point};
use crate::games::bits::Bits;

impl Mill {
    /// The legal moves into `out` (cleared first): [`Game::legal_moves_into`].
    pub(super) fn generate(&self, out: &mut Vec<MillMove>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        if self.must_remove > 0 {
            out.extend(Bits(self.removable().into()).map(MillMove::Remove));
            return;
        }
        if self.may_place() {
            out.extend(Bits(self.empty().into()).map(MillMove::Place));
        }
        if self.may_slide() {
            for from in Bits(self.pieces[self.side.index()].into()) {
                out.extend(
                    Bits(self.slide_targets(from).into()).map(|to| MillMove::Slide { from, to }),
                );
            }
        }
    }

    /// Opponent pieces the side to move may remove now.
    pub(super) fn removable(&self) -> u32 {
        let opp = self.pieces[self.side.opponent().index()];
        match self.rules.remove_from_mills {
            RemoveFromMills::Always => opp,
            RemoveFromMills::OnlyIfAllInMills => {
                let free = opp & !self.in_mills(opp);
                if free != 0 {
                    free
                } else {
                    opp
                }
            }
        }
    }

    pub(super) fn may_place(&self) -> bool {
        self.placing && self.in_hand[self.side.index()] > 0
    }

    pub(super) fn may_slide(&self) -> bool {
        !self.placing || self.in_hand[self.side.index()] == 0 || self.rules.move_in_placing
    }

    /// Where the side to move's piece on `from` may go.
    pub(super) fn slide_targets(&self, from: Point) -> u32 {
        if self.can_fly(self.side) {
            self.empty()
        } else {
            ADJ_MASKS[self.rules.diagonal_lines as usize]
                .get(from as usize)
                .copied()
                .unwrap_or(0)
                & self.empty()
        }
    }

    /// Slide or flight destinations for the piece on `from`: non-empty only
    /// when it belongs to the side to move and a slide is legal now.
    pub fn targets_from(&self, from: Point) -> Vec<Point> {
        if self.outcome.is_some()
            || self.must_remove > 0
            || !self.may_slide()
            || self.piece_at(from) != Some(self.side)
        {
            return Vec::new();
        }
        Bits(self.slide_targets(from).into()).collect()
    }

    /// The number of moves [`Game::legal_moves_into`] gives, from popcounts
    /// alone: perft's last ply.
    pub(super) fn count_moves(&self) -> u64 {
        if self.outcome.is_some() {
            return 0;
        }
        if self.must_remove > 0 {
            return self.removable().count_ones() as u64;
        }
        let empty = self.empty();
        let mut n = 0;
        if self.may_place() {
            n += empty.count_ones();
        }
        if self.may_slide() {
            let own = self.pieces[self.side.index()];
            if self.can_fly(self.side) {
                n += own.count_ones() * empty.count_ones();
            } else {
                let adj = &ADJ_MASKS[self.rules.diagonal_lines as usize];
                for from in Bits(own.into()) {
                    n += (adj[from as usize] & empty).count_ones();
                }
            }
        }
        n as u64
    }

    pub(super) fn has_any_move(&self) -> bool {
        if self.must_remove > 0 {
            return self.removable() != 0;
        }
        if self.may_place() && self.empty() != 0 {
            return true;
        }
        self.may_slide()
            && Bits(self.pieces[self.side.index()].into()).any(|p| self.slide_targets(p) != 0)
    }

    /// Why `mv` is not legal here (for error messages).
    pub(super) fn reason(&self, mv: MillMove) -> MillIllegal {
        use MillIllegal as R;
        match mv {
            _ if self.must_remove > 0 => match mv {
                MillMove::Remove(p) => match self.piece_at(p) {
                    None => R::NothingOn { at: p },
                    Some(s) if s == self.side => R::OwnPiece { at: p },
                    Some(_) => R::InMill { at: p },
                },
                _ => R::MustRemove,
            },
            MillMove::Remove(_) => R::NoMill,
            MillMove::Place(p) => {
                if !self.may_place() {
                    R::NoneInHand
                } else if self.is_marked(p) {
                    R::Marked { at: p }
                } else {
                    R::Occupied { at: p }
                }
            }
            MillMove::Slide { from, to } => {
                if !self.may_slide() {
                    R::MustPlace
                } else if self.piece_at(from) != Some(self.side) {
                    R::NoPiece { from }
                } else if self.empty() & side_bit(to) == 0 || to as usize >= POINTS {
                    R::Occupied { at: to }
                } else {
                    R::NotAdjacent { from, to }
                }
            }
        }
    }
}
