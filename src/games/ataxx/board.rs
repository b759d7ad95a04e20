//! Bitboard geometry for the 7×7 board: square bits, file masks and the
//! precomputed neighbour tables used by move generation.
//!
//! Bit `i` of a `u64` stands for square `i` (`rank * 7 + file`); bits 49–63
//! are always zero.

use super::Square;

/// Number of squares on the board.
pub const SQUARES: usize = 49;

/// Every square of the board.
pub const FULL: u64 = (1u64 << SQUARES) - 1;

/// Squares on file `a`.
const FILE_A: u64 = file_mask(0);
/// Squares on file `g`.
const FILE_G: u64 = file_mask(6);

const fn file_mask(file: u32) -> u64 {
    let mut mask = 0u64;
    let mut rank = 0;
    while rank < 7 {
        mask |= 1u64 << (rank * 7 + file);
        rank += 1;
    }
    mask
}

/// The bit of `sq`, or 0 for a value off the board (never panics).
#[inline]
pub const fn bit(sq: Square) -> u64 {
    if (sq as usize) < SQUARES {
        1u64 << sq
    } else {
        0
    }
}

/// All squares at Chebyshev distance exactly 1 from some square of `bb`.
/// (The squares of `bb` themselves may be included when they are adjacent.)
#[inline]
pub const fn singles(bb: u64) -> u64 {
    let not_a = !FILE_A & FULL;
    let not_g = !FILE_G;
    let east = (bb << 1) & not_a;
    let west = (bb >> 1) & not_g;
    let row = bb | east | west;
    (east | west | (row << 7) | (row >> 7)) & FULL
}

/// Squares within Chebyshev distance 2 of some square of `bb` (including
/// `bb`): everything a piece of `bb` could clone or jump to, gaps ignored.
#[inline]
pub const fn reach(bb: u64) -> u64 {
    let one = singles(bb) | bb;
    singles(one) | one
}

const fn distance_table(dist: i32) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut from = 0;
    while from < SQUARES as i32 {
        let (fr, ff) = (from / 7, from % 7);
        let mut to = 0;
        while to < SQUARES as i32 {
            let (tr, tf) = (to / 7, to % 7);
            let dr = if tr > fr { tr - fr } else { fr - tr };
            let df = if tf > ff { tf - ff } else { ff - tf };
            let d = if dr > df { dr } else { df };
            if d == dist {
                table[from as usize] |= 1u64 << to;
            }
            to += 1;
        }
        from += 1;
    }
    table
}

/// `NEIGHBOURS[sq]`: the (up to 8) squares at distance 1 from `sq`.
/// Indexed by `sq & 63`; entries 49–63 are empty so no index can panic.
pub static NEIGHBOURS: [u64; 64] = distance_table(1);

/// `JUMPS[sq]`: the (up to 16) squares at distance exactly 2 from `sq`.
pub static JUMPS: [u64; 64] = distance_table(2);

/// Chebyshev distance between two on-board squares.
#[inline]
pub fn distance(a: Square, b: Square) -> u8 {
    let (ar, af) = (a / 7, a % 7);
    let (br, bf) = (b / 7, b % 7);
    ar.abs_diff(br).max(af.abs_diff(bf))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_agree_with_tables() {
        for sq in 0..SQUARES as Square {
            assert_eq!(singles(bit(sq)), NEIGHBOURS[sq as usize], "square {sq}");
            assert_eq!(
                reach(bit(sq)),
                NEIGHBOURS[sq as usize] | JUMPS[sq as usize] | bit(sq),
                "square {sq}"
            );
        }
        assert_eq!(NEIGHBOURS[0].count_ones(), 3);
        assert_eq!(NEIGHBOURS[24].count_ones(), 8);
        assert_eq!(JUMPS[24].count_ones(), 16);
        assert_eq!(JUMPS[0].count_ones(), 5);
    }
}
