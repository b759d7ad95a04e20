//! Why a Mill move is not legal (issue 36): the reasons of the rules
//! file (placing, moving, flying, removing), with the points.

use super::{parse_point, point_name};
use crate::games::error::reasons;

reasons! {
    /// Why a Mill move is not legal here.
    pub enum MillIllegal for "mill", named by point_name, read by parse_point {
        /// A mill was closed: the same player removes a piece first.
        MustRemove = "must_remove" => "a mill was closed: first remove an opponent piece (like xd7)",
        /// A removal of an empty point.
        NothingOn { at } = "nothing_on" => "there is no piece on {at} to remove",
        /// A removal of the player's own piece.
        OwnPiece { at } = "own_piece" => "{at} is your own piece; remove an opponent piece",
        /// A removal from a mill while the opponent has pieces outside mills.
        InMill { at } = "in_mill" => "{at} stands in a mill and other opponent pieces do not",
        /// A removal with no mill closed.
        NoMill = "no_mill" => "no mill was closed: there is nothing to remove",
        /// A placement with no piece left in hand.
        NoneInHand = "none_in_hand" => "no pieces are left in hand to place",
        /// A placement on a point marked until placing ends.
        Marked { at } = "marked" => "{at} is marked until placing ends",
        /// A placement or slide onto a piece.
        Occupied { at } = "occupied" => "{at} is occupied",
        /// A slide while pieces are still in hand.
        MustPlace = "must_place" => "a piece must be placed while pieces are in hand",
        /// A slide of a piece the player does not have.
        NoPiece { from } = "no_piece" => "there is no piece of yours on {from}",
        /// A slide to a point not next to the piece, without flying.
        NotAdjacent { from, to } = "not_adjacent" => "{to} is not adjacent to {from}, and flying is not allowed now",
    }
}
