//! Move generation and move application on bitboards.

use super::board::{bit, reach, singles, FULL, JUMPS, NEIGHBOURS};
use super::zobrist::{flip_keys, KEYS};
use super::{Ataxx, AtaxxMove, NoMoveRule, JUMP_LIMIT};
use crate::games::bits::Bits;
use crate::games::Side;

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

    /// Whether the game is over whatever moves exist: no empty square, a
    /// side without pieces, or the jump limit reached (endings 1, 2 and 5).
    #[inline]
    fn over_without_moves(&self) -> bool {
        self.empty_bb() == 0
            || self.pieces[0] == 0
            || self.pieces[1] == 0
            || self.jumps >= JUMP_LIMIT
    }

    /// Whether a mover without clones and jumps passes: only in pass mode,
    /// and only while the opponent can still move (else the game is over).
    #[inline]
    fn passes_when_stuck(&self) -> bool {
        self.rules.no_move == NoMoveRule::Pass && self.can_move(self.side.opponent())
    }

    /// Appends clones and jumps of the side to move (no pass, no game-over check).
    pub(super) fn push_piece_moves(&self, out: &mut Vec<AtaxxMove>) {
        let own = self.pieces[self.side.index()];
        let empty = self.empty_bb();
        out.extend(Bits(singles(own) & empty).map(|to| AtaxxMove::Clone { to }));
        for from in Bits(own) {
            out.extend(Bits(JUMPS[from as usize] & empty).map(|to| AtaxxMove::Jump { from, to }));
        }
    }

    /// Fills `out` with the legal moves (see [`Game::legal_moves_into`]).
    /// The game-over test is folded in: only a mover without clones and
    /// jumps needs to look at the opponent's moves.
    pub(super) fn generate(&self, out: &mut Vec<AtaxxMove>) {
        out.clear();
        if self.over_without_moves() {
            return;
        }
        self.push_piece_moves(out);
        if out.is_empty() && self.passes_when_stuck() {
            out.push(AtaxxMove::Pass);
        }
    }

    /// The number of moves [`Ataxx::generate`] gives, from popcounts
    /// alone: perft's last ply.
    pub(super) fn count_moves(&self) -> u64 {
        if self.over_without_moves() {
            return 0;
        }
        let own = self.pieces[self.side.index()];
        let empty = self.empty_bb();
        let mut n = (singles(own) & empty).count_ones();
        for from in Bits(own) {
            n += (JUMPS[from as usize] & empty).count_ones();
        }
        if n == 0 && self.passes_when_stuck() {
            n = 1;
        }
        n as u64
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
