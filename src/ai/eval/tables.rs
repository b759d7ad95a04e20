//! The weights files of the learned table evaluations (Territory Duel's
//! pattern tables, Stones!' stone tables, Mill's term tables): an 8-byte
//! magic, then one little-endian `(opening, ending)` pair of `i16` per
//! feature; and weights read at run time (`engine datagen --eval FILE`)
//! that replace the built-in ones.

use std::sync::OnceLock;

/// Reads the pairs of a weights file with `magic` and `features` pairs.
pub fn read(
    bytes: &[u8],
    magic: &[u8; 8],
    features: usize,
    game: &str,
) -> Result<Vec<(i16, i16)>, String> {
    let size = magic.len() + features * 4;
    if bytes.len() != size || &bytes[..magic.len()] != magic {
        return Err(format!(
            "not a {game} weights file ({} bytes; expected {size} starting with {})",
            bytes.len(),
            String::from_utf8_lossy(magic)
        ));
    }
    Ok(bytes[magic.len()..]
        .chunks_exact(4)
        .map(|c| {
            (
                i16::from_le_bytes([c[0], c[1]]),
                i16::from_le_bytes([c[2], c[3]]),
            )
        })
        .collect())
}

/// A weights file of `weights` under `magic`.
pub fn write(magic: &[u8; 8], weights: &[(i16, i16)]) -> Vec<u8> {
    let mut out = magic.to_vec();
    for &(o, e) in weights {
        out.extend_from_slice(&o.to_le_bytes());
        out.extend_from_slice(&e.to_le_bytes());
    }
    out
}

/// Weights set at run time for the whole process (once).
pub struct Runtime(OnceLock<Vec<[i16; 2]>>);

impl Runtime {
    pub const fn new() -> Self {
        Runtime(OnceLock::new())
    }

    /// Makes `weights` the process's weights. Once only: a second call is
    /// an error and changes nothing.
    pub fn set(&self, weights: &[(i16, i16)], features: usize) -> Result<(), String> {
        if weights.len() != features {
            return Err(format!(
                "{} weight pairs, expected {features}",
                weights.len()
            ));
        }
        self.0
            .set(weights.iter().map(|&(o, e)| [o, e]).collect())
            .map_err(|_| "the weights were already set".to_string())
    }

    /// The weights set at run time, if any.
    pub fn get(&self) -> Option<&[[i16; 2]]> {
        self.0.get().map(Vec::as_slice)
    }
}

/// The pairs of a weights file known at compile time; fails the build if
/// its size is wrong.
pub const fn pairs<const N: usize>(file: &[u8], magic_len: usize) -> [[i16; 2]; N] {
    assert!(
        file.len() == magic_len + 4 * N,
        "a weights file has the wrong size"
    );
    let mut w = [[0i16; 2]; N];
    let mut i = 0;
    while i < N {
        let at = magic_len + 4 * i;
        w[i] = [
            i16::from_le_bytes([file[at], file[at + 1]]),
            i16::from_le_bytes([file[at + 2], file[at + 3]]),
        ];
        i += 1;
    }
    w
}

/// For the weights tests: the mean cross-entropy of `sigmoid(score / k)`
/// against the game results of held-out `engine datagen` lines
/// (`position<TAB>search score<TAB>result`; `#` lines skipped), each
/// position read by `parse`. Asserts there are more than 1,500 positions.
#[cfg(test)]
pub(super) fn held_out_loss<G>(
    data: &str,
    k: f64,
    parse: impl Fn(&str) -> G,
    score: impl Fn(&G) -> i32,
) -> f64 {
    let (mut sum, mut n) = (0.0, 0);
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let mut fields = line.split('\t');
        let pos = parse(fields.next().unwrap());
        let result: f64 = fields.nth(1).unwrap().parse().unwrap();
        let p = (1.0 / (1.0 + (-(score(&pos) as f64) / k).exp())).clamp(1e-9, 1.0 - 1e-9);
        sum -= result * p.ln() + (1.0 - result) * (1.0 - p).ln();
        n += 1;
    }
    assert!(n > 1500, "{n}");
    sum / n as f64
}
