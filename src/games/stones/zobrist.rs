//! Zobrist keys for Stones!, generated at compile time by splitmix64 so the
//! hash of a position is the same in every build, process and platform.

use crate::games::splitmix64;

/// Keys indexed by `[kind][square]`, kind = colour * 2 + pinned
/// (0 white unpinned, 1 white pinned, 2 black unpinned, 3 black pinned).
pub(crate) const STONE_KEYS: [[u64; 64]; 4] = {
    let mut keys = [[0u64; 64]; 4];
    let mut state: u64 = 0x5707_E550_0000_0001;
    let mut kind = 0;
    while kind < 4 {
        let mut sq = 0;
        while sq < 64 {
            let (next, out) = splitmix64(state);
            state = next;
            keys[kind][sq] = out;
            sq += 1;
        }
        kind += 1;
    }
    keys
};

/// XORed in when Black is to move.
pub(crate) const BLACK_TO_MOVE_KEY: u64 = {
    // Continue the same stream past the 256 stone keys.
    let mut state: u64 = 0x5707_E550_0000_0001;
    let mut i = 0;
    while i < 256 {
        state = splitmix64(state).0;
        i += 1;
    }
    splitmix64(state).1
};
