//! Why a Territory Duel move is not legal (issue 36): the reasons the
//! rules file gives, with the squares involved.

use super::board::{JUMPS, NEIGHBOURS, SQUARES};
use super::{parse_square, square_name, Ataxx, AtaxxMove};
use crate::games::error::reasons;
use crate::games::Game;

reasons! {
    /// Why a Territory Duel move is not legal here.
    pub enum AtaxxIllegal for "ataxx", named by square_name, read by parse_square {
        /// A square of the move is not on the 7×7 board.
        OffBoard = "off_board" => "a square of the move is off the board",
        /// A jump from an empty (or blocked) square.
        Empty { from } = "empty" => "there is no piece on {from}",
        /// A jump of the opponent's piece.
        NotYours { from } = "not_yours" => "the piece on {from} belongs to the opponent",
        /// The target is a blocked square.
        Blocked { to } = "blocked" => "{to} is blocked",
        /// The target holds a piece.
        Occupied { to } = "occupied" => "{to} is occupied",
        /// A jump to a square more than two squares away.
        TooFar { from, to } = "too_far" => "{to} is more than two squares from {from}",
        /// A jump to a neighbour: that move is a clone, written by its target.
        OneStep { from, to } = "one_step" => "{to} is next to {from}: that move is a clone, written {to}",
        /// A clone to a square with none of the mover's pieces next to it.
        Alone { to } = "alone" => "no piece of the side to move stands next to {to}",
        /// A clone or jump where the player has none and must pass.
        MustPass = "must_pass" => "no clone or jump is possible: the player must pass",
        /// A pass while a clone or jump is possible.
        CannotPass = "cannot_pass" => "a pass is allowed only when no clone or jump is possible",
    }
}

impl Ataxx {
    /// Why `mv` is not legal here (for a move that is not).
    pub(super) fn reason(&self, mv: AtaxxMove) -> AtaxxIllegal {
        use AtaxxIllegal as R;
        let on = |sq: u8| (sq as usize) < SQUARES;
        let target = |to: u8| {
            if self.is_gap(to) {
                Some(R::Blocked { to })
            } else if self.piece_at(to).is_some() {
                Some(R::Occupied { to })
            } else {
                None
            }
        };
        match mv {
            AtaxxMove::Pass => R::CannotPass,
            AtaxxMove::Clone { to } | AtaxxMove::Jump { to, .. } if !on(to) => R::OffBoard,
            AtaxxMove::Jump { from, .. } if !on(from) => R::OffBoard,
            _ if self.legal_moves() == [AtaxxMove::Pass] => R::MustPass,
            AtaxxMove::Clone { to } => target(to).unwrap_or(R::Alone { to }),
            AtaxxMove::Jump { from, to } => match self.piece_at(from) {
                None => R::Empty { from },
                Some(s) if s != self.side_to_move() => R::NotYours { from },
                Some(_) => target(to).unwrap_or(if NEIGHBOURS[from as usize] & (1 << to) != 0 {
                    R::OneStep { from, to }
                } else if JUMPS[from as usize] & (1 << to) == 0 {
                    R::TooFar { from, to }
                } else {
                    // Every jump of the mover's piece to an empty square
                    // two away is legal: only the game's end is left.
                    R::MustPass
                }),
            },
        }
    }
}
