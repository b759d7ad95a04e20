//! Mill's Zobrist hash: one key per (white, black, mark) and point and
//! one for the side to move, made at compile time by the games' one
//! generator ([`crate::games::zobrist`]); the counts in hand, owed
//! removals, the phase and formed mills mixed in.

use super::board::POINTS;
use super::position::Mill;
use crate::games::bits::Bits;
use crate::games::{zobrist, Side};

/// Zobrist keys: white pieces, black pieces, marks (one per point), drawn
/// by index from the games' one generator.
const ZOBRIST: [[u64; POINTS]; 3] = zobrist::indexed::<3, POINTS>(0x4D49_4C4C_0000_0000);

const ZOBRIST_SIDE: u64 = zobrist::mix(0x5349_4445);

impl Mill {
    /// The position's Zobrist hash: [`Game::hash`].
    pub(super) fn zobrist(&self) -> u64 {
        let mut h = 0u64;
        for (k, mask) in [self.pieces[0], self.pieces[1], self.marked]
            .into_iter()
            .enumerate()
        {
            for p in Bits(mask.into()) {
                h ^= ZOBRIST[k][p as usize];
            }
        }
        if self.side == Side::Second {
            h ^= ZOBRIST_SIDE;
        }
        let misc = self.in_hand[0] as u64
            | (self.in_hand[1] as u64) << 8
            | (self.must_remove as u64) << 16
            | (self.placing as u64) << 24
            | (self.outcome.is_some() as u64) << 25;
        h ^= zobrist::mix(misc ^ 0x4D49_5343);
        if self.formed != [0, 0] {
            h ^=
                zobrist::mix(((self.formed[0] as u64) << 32 | self.formed[1] as u64) ^ 0x464F_524D);
        }
        h
    }
}
