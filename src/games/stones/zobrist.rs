//! Zobrist keys for Stones!, drawn at compile time from the games' one
//! generator ([`crate::games::zobrist`]) so the hash of a position is the
//! same in every build, process and platform.

use crate::games::zobrist;

/// The stone keys and, next in the same stream, the side key.
const KEYS: ([[u64; 64]; 4], u64) = zobrist::stream::<4, 64>(0x5707_E550_0000_0001, 64);

/// Keys indexed by `[kind][square]`, kind = colour * 2 + pinned
/// (0 white unpinned, 1 white pinned, 2 black unpinned, 3 black pinned).
pub(crate) const STONE_KEYS: [[u64; 64]; 4] = KEYS.0;

/// XORed in when Black is to move: the stream's key after the 256 stone keys.
pub(crate) const BLACK_TO_MOVE_KEY: u64 = KEYS.1;
