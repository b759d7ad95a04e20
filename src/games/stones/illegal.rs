//! Why a Stones! move is not legal (issue 36): the reasons of the rules
//! file ("A move", "Which stones may be jumped"), with the squares.

use super::{parse_square, square_name, Stones, StonesMove};
use crate::games::error::reasons;
use crate::games::{Game, Side};

reasons! {
    /// Why a Stones! move is not legal here.
    pub enum StonesIllegal for "stones", named by square_name, read by parse_square {
        /// A square of the move is not on the board.
        OffBoard = "off_board" => "a square of the move is off the board",
        /// No stone stands on the starting square.
        Empty { from } = "empty" => "there is no stone on {from}",
        /// The stone is the opponent's.
        NotYours { from } = "not_yours" => "the stone on {from} belongs to the opponent",
        /// A pinned stone cannot move.
        Pinned { from } = "pinned" => "the stone on {from} is pinned and cannot move",
        /// The landing square holds a stone.
        Occupied { to } = "occupied" => "{to} is occupied",
        /// A move that goes back or sideways without jumping.
        Backwards { from, to } = "backwards" => "{to} is not ahead of {from}: stones slide diagonally forward",
        /// The jumped stone is an unpinned ally or a pinned opponent.
        NotJumpable { over } = "not_jumpable" => "the stone on {over} cannot be jumped: only unpinned opponents and pinned allies can",
        /// Any other way the stone cannot get there.
        Unreachable { from, to } = "unreachable" => "the stone on {from} cannot reach {to} in one move",
    }
}

impl Stones {
    /// Why `mv` is not legal here (for a move that is not, while the game
    /// goes on).
    pub(super) fn reason(&self, mv: StonesMove) -> StonesIllegal {
        use StonesIllegal as R;
        let (from, to) = (mv.from, mv.to);
        if from >= 64 || to >= 64 || mv.jumped.is_some_and(|j| j >= 64) {
            return R::OffBoard;
        }
        match self.stone_at(from) {
            None => return R::Empty { from },
            Some((owner, _)) if owner != self.side_to_move() => return R::NotYours { from },
            Some((_, true)) => return R::Pinned { from },
            Some(_) => {}
        }
        if self.stone_at(to).is_some() {
            return R::Occupied { to };
        }
        if let Some(over) = mv.jumped {
            if let Some((owner, pinned)) = self.stone_at(over) {
                let ally = owner == self.side_to_move();
                if ally != pinned {
                    return R::NotJumpable { over };
                }
            }
        }
        let ahead = match self.side_to_move() {
            Side::First => to / 8 > from / 8,
            Side::Second => to / 8 < from / 8,
        };
        if mv.jumped.is_none() && !ahead {
            return R::Backwards { from, to };
        }
        R::Unreachable { from, to }
    }
}
