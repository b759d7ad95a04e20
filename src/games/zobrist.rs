//! The one Zobrist generator of the games: keys made at compile time from
//! splitmix64, so a position hashes the same in every build, process and
//! platform (native, wasm). Two ways of drawing, each game keeping the
//! keys it always had (so hashes, and the search's node counts, are
//! unchanged): in order from a seeded stream (Territory Duel, Stones!),
//! or by index (Mill).

/// One step of splitmix64: the next state and a well-mixed 64-bit output.
/// A `const fn`, so the games' Zobrist tables are built at compile time and
/// hashes are the same in every build and on every platform.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// splitmix64's output for `x` alone: a well-mixed 64 bits, for keys drawn
/// by index and for mixing small state (counts, flags) into a hash.
pub const fn mix(x: u64) -> u64 {
    splitmix64(x).1
}

/// `K` tables of keys for the first `used` of `N` squares, drawn in order
/// (kind by kind, square by square) from the stream that starts at
/// `seed`; then the stream's next key (for the side to move).
pub const fn stream<const K: usize, const N: usize>(
    seed: u64,
    used: usize,
) -> ([[u64; N]; K], u64) {
    let mut keys = [[0u64; N]; K];
    let mut state = seed;
    let mut kind = 0;
    while kind < K {
        let mut sq = 0;
        while sq < used {
            let (next, key) = splitmix64(state);
            state = next;
            keys[kind][sq] = key;
            sq += 1;
        }
        kind += 1;
    }
    (keys, splitmix64(state).1)
}

/// `K` tables of `N` keys drawn by index: key `k * N + p` is
/// `mix(seed ^ (k * N + p))`.
pub const fn indexed<const K: usize, const N: usize>(seed: u64) -> [[u64; N]; K] {
    let mut keys = [[0u64; N]; K];
    let mut k = 0;
    while k < K {
        let mut p = 0;
        while p < N {
            keys[k][p] = mix(seed ^ ((k * N + p) as u64));
            p += 1;
        }
        k += 1;
    }
    keys
}
