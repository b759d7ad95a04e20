//! A tiny seeded pseudo-random generator (SplitMix64) for level noise and
//! self-play openings: reproducible from a seed, no dependency, no OS entropy.

use crate::games::splitmix64;

/// SplitMix64 (the games' generator, [`splitmix64`]): one `u64` of state, good statistical quality, and any seed
/// (zero included) works.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`; equal seeds give equal sequences.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let (state, out) = splitmix64(self.state);
        self.state = state;
        out
    }

    /// A uniform float in `[0, 1)`.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A uniform index in `0..n` (`n` must be positive).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_f64() * n as f64) as usize % n.max(1)
    }
}
