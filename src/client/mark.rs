//! A move drawn on the board (the computer's hint, the review's better
//! move): where the piece starts, where it arrives, and what the move takes
//! off the board. The boards draw a [`Mark`] the same way in every game
//! (an arrow from `from` to `to`, rings on both ends, a cross on a removed
//! piece); this module only says, per game, which spots a move touches.

use crate::games::Game;

/// The spots of one move, as the boards number them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mark {
    /// Where the moving piece starts, when the move names it (an arrow
    /// is drawn from here to `to`).
    pub from: Option<u8>,
    /// Where a piece arrives: placed, cloned, slid, jumped or flown to.
    pub to: Option<u8>,
    /// The opponent piece the move takes off the board (Mill's removal).
    pub removes: Option<u8>,
}

impl Mark {
    /// A piece that arrives on `to` from nowhere the move names (a
    /// placement, a clone).
    pub fn arrive(to: u8) -> Mark {
        Mark {
            to: Some(to),
            ..Mark::default()
        }
    }

    /// A piece going from `from` to `to`.
    pub fn travel(from: u8, to: u8) -> Mark {
        Mark {
            from: Some(from),
            to: Some(to),
            removes: None,
        }
    }

    /// A piece taken off `spot`.
    pub fn remove(spot: u8) -> Mark {
        Mark {
            removes: Some(spot),
            ..Mark::default()
        }
    }

    /// Nothing to draw (a pass).
    pub fn is_empty(&self) -> bool {
        self.to.is_none() && self.removes.is_none()
    }

    /// The arrow's two ends, when the move goes from one spot to another.
    pub fn arrow(&self) -> Option<(u8, u8)> {
        self.from.zip(self.to).filter(|(a, b)| a != b)
    }
}

/// Which spots a game's moves touch (each game's impl is in its file of
/// `client::games`).
pub trait Marks: Game {
    /// The mark of `mv` (played in the position it was found for).
    fn mark(mv: Self::Move) -> Mark;
}
