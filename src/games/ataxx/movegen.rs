//! Move generation and move application on bitboards.

use super::board::{bit, reach, singles, Bits, FULL, JUMPS, NEIGHBOURS};
use super::zobrist::{flip_keys, KEYS};
use super::{Ataxx, AtaxxMove, NoMoveRule};
use crate::games::{Game, Side};

impl Ataxx {
    /// Empty, playable squares (neither a piece nor a gap).
    #[inline]
    pub(super) fn empty_bb(&self) -> u64 {
        FULL & !(self.pieces[0] | self.pieces[1] | self.gaps)
    }

    /// Whether `side` has any clone or jump, whoever is to move.
    #[inline]
    pub(super) fn can_move(&self, side: Side) -> bool {
        reach(self.pieces[side.index()]) & self.empty_bb() != 0
    }

    /// Appends clones and jumps of the side to move (no pass, no game-over check).
    pub(super) fn push_piece_moves(&self, out: &mut Vec<AtaxxMove>) {
        let own = self.pieces[self.side.index()];
        let empty = self.empty_bb();
        for to in Bits(singles(own) & empty) {
            out.push(AtaxxMove::Clone { to });
        }
        for from in Bits(own) {
            for to in Bits(JUMPS[from as usize] & empty) {
                out.push(AtaxxMove::Jump { from, to });
            }
        }
    }

    /// Fills `out` with the legal moves (see [`Game::legal_moves_into`]).
    pub(super) fn generate(&self, out: &mut Vec<AtaxxMove>) {
        out.clear();
        if self.outcome().is_some() {
            return;
        }
        self.push_piece_moves(out);
        if out.is_empty() && self.rules.no_move == NoMoveRule::Pass {
            out.push(AtaxxMove::Pass);
        }
    }

    /// Applies `mv` for the side to move without any legality check.
    #[inline]
    pub(super) fn apply(&mut self, mv: AtaxxMove) {
        let us = self.side.index();
        let them = 1 - us;
        match mv {
            AtaxxMove::Pass => {}
            AtaxxMove::Clone { to } | AtaxxMove::Jump { to, .. } => {
                let to_bb = bit(to);
                let flips = NEIGHBOURS[to as usize & 63] & self.pieces[them];
                self.pieces[us] |= to_bb | flips;
                self.pieces[them] &= !flips;
                self.hash ^= KEYS.squares[us][to as usize & 63] ^ flip_keys(flips);
                match mv {
                    AtaxxMove::Jump { from, .. } => {
                        self.pieces[us] &= !bit(from);
                        self.hash ^= KEYS.squares[us][from as usize & 63];
                        self.jumps = if flips != 0 {
                            0
                        } else {
                            self.jumps.saturating_add(1)
                        };
                    }
                    _ => self.jumps = 0,
                }
            }
        }
        if self.side == Side::Second {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.opponent();
        self.hash ^= KEYS.side;
    }
}
