//! The one bit iterator of the games: the set bits of a board mask,
//! lowest first, as square or point numbers. Territory Duel's and
//! Stones!' bitboards are `u64`, Mill's point masks `u32` (widened).

/// Iterates the set bits of a mask, lowest first (`Bits(mask.into())`
/// for a `u32`).
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bits {}
