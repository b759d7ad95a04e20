//! Zobrist keys: one random 64-bit key per (piece kind, square) and one for
//! the side to move, drawn at compile time from the games' one generator
//! ([`crate::games::zobrist`]) with a fixed seed, so hashes are identical
//! on every build and platform (native, wasm).

use super::board::SQUARES;
use crate::games::bits::Bits;
use crate::games::{zobrist, Side};

/// The key tables: `[X, O, gap]` by square, `X ^ O` by square (a flip),
/// and the side-to-move key.
pub struct Keys {
    pub squares: [[u64; 64]; 3],
    pub flip: [u64; 64],
    pub side: u64,
}

const fn make_keys() -> Keys {
    // "STONEPLA"
    let (squares, side) = zobrist::stream::<3, 64>(0x5354_4F4E_4550_4C41, SQUARES);
    let mut flip = [0u64; 64];
    let mut sq = 0;
    while sq < SQUARES {
        flip[sq] = squares[0][sq] ^ squares[1][sq];
        sq += 1;
    }
    Keys {
        squares,
        flip,
        side,
    }
}

/// The keys used by [`super::Ataxx::hash`].
pub static KEYS: Keys = make_keys();

/// The hash of a position, computed from scratch.
pub fn full_hash(pieces: [u64; 2], gaps: u64, side: Side) -> u64 {
    let mut h = 0;
    for (kind, bb) in [pieces[0], pieces[1], gaps].into_iter().enumerate() {
        for sq in Bits(bb) {
            h ^= KEYS.squares[kind][sq as usize];
        }
    }
    if side == Side::Second {
        h ^= KEYS.side;
    }
    h
}

/// The hash change when the pieces on every square of `bb` change colour.
#[inline]
pub fn flip_keys(bb: u64) -> u64 {
    let mut h = 0;
    for sq in Bits(bb) {
        h ^= KEYS.flip[sq as usize];
    }
    h
}
