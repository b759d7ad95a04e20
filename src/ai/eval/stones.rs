//! Stones! evaluation.
//!
//! The game is scored by unpinned stones on the far rank, so an unpinned
//! stone is worth more the further it has advanced, with a large bonus once
//! it stands on the far rank. A pinned stone cannot move and scores nothing
//! until an ally frees it, so it keeps only a little value. Ordering puts
//! pinning jumps first, then jumps that free an ally, then moves that reach
//! the far rank, then longer advances.

use super::{Evaluate, TACTICAL};
use crate::games::stones::{Stones, StonesMove};
use crate::games::{Game, Side};

/// Per rank advanced by an unpinned stone.
const ADVANCE: i32 = 8;
/// An unpinned stone on its far rank (it counts for the final score).
const HOME: i32 = 90;
/// A pinned stone (it may be freed later).
const PINNED: i32 = 10;

/// Rank progress (0 on the home rank, 7 on the far rank) of each stone in
/// `stones`, summed, for `side`.
fn progress_sum(stones: u64, side: Side) -> i32 {
    let mut sum = 0;
    let mut rest = stones;
    while rest != 0 {
        let sq = rest.trailing_zeros() as i32;
        rest &= rest - 1;
        let rank = sq / 8;
        sum += match side {
            Side::First => rank,
            Side::Second => 7 - rank,
        };
    }
    sum
}

fn side_value(own: u64, pinned: u64, side: Side) -> i32 {
    let far: u64 = match side {
        Side::First => 0xFF << 56,
        Side::Second => 0xFF,
    };
    let free = own & !pinned;
    ADVANCE * progress_sum(free, side)
        + HOME * (free & far).count_ones() as i32
        + PINNED * (own & pinned).count_ones() as i32
}

impl Evaluate for Stones {
    fn evaluate(&self) -> i32 {
        let (white, black, pinned) = self.bitboards();
        let w = side_value(white, pinned, Side::First);
        let b = side_value(black, pinned, Side::Second);
        match self.side_to_move() {
            Side::First => w - b,
            Side::Second => b - w,
        }
    }

    fn order_hint(&self, mv: StonesMove) -> i32 {
        let side = self.side_to_move();
        let advance = (mv.to / 8).abs_diff(mv.from / 8) as i32;
        let far_rank = match side {
            Side::First => 7,
            Side::Second => 0,
        };
        let mut hint = advance * 10;
        if mv.to / 8 == far_rank {
            hint += TACTICAL + 50;
        }
        if let Some(j) = mv.jumped {
            match self.stone_at(j) {
                Some((owner, _)) if owner != side => hint += 3 * TACTICAL,
                Some(_) => hint += 2 * TACTICAL,
                None => {}
            }
        }
        hint
    }

    fn move_key(mv: StonesMove) -> usize {
        (mv.from & 63) as usize * 64 + (mv.to & 63) as usize
    }
}
