//! Board geometry: the 24 points, their names, lines (mills) and adjacency.
//!
//! Point order follows Sanmill's FEN so that a position text is simply the
//! points in index order: `0..8` is the inner ring, `8..16` the middle ring,
//! `16..24` the outer ring; within a ring the 8 points run clockwise from the
//! top middle point (`d5`, `e5`, `e4`, `e3`, `d3`, `c3`, `c4`, `c5` for the
//! inner ring). Even positions within a ring are side midpoints, odd ones
//! corners.

use crate::games::GameError;

/// A point of the board, `0..24` (see the module docs for the order).
pub type Point = u8;

/// Number of points on the board.
pub const POINTS: usize = 24;

/// Bit mask with one bit per point.
pub(crate) const ALL_POINTS: u32 = (1 << POINTS) - 1;

const NAMES: [&str; POINTS] = [
    "d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5", // inner
    "d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6", // middle
    "d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7", // outer
];

/// The name of a point on the 7×7 grid (`"a7"`, `"d6"`, ...); `"?"` for a
/// number that is not a point.
pub fn point_name(p: Point) -> &'static str {
    NAMES.get(p as usize).copied().unwrap_or("?")
}

/// Reads a point name such as `d6` (case-insensitive, surrounding spaces
/// ignored).
pub fn parse_point(s: &str) -> Result<Point, GameError> {
    let t = s.trim().to_ascii_lowercase();
    NAMES
        .iter()
        .position(|&n| n == t)
        .map(|i| i as Point)
        .ok_or_else(|| GameError::BadMove(format!("'{s}' is not a point of the board (a1..g7)")))
}

/// The point's (file, rank) on the 7×7 grid, `a1` = (0, 0), `g7` = (6, 6).
/// Out-of-range numbers give (0, 0).
pub fn point_coords(p: Point) -> (u8, u8) {
    match NAMES.get(p as usize) {
        Some(n) => {
            let b = n.as_bytes();
            (b[0] - b'a', b[1] - b'1')
        }
        None => (0, 0),
    }
}

const fn pt(ring: usize, i: usize) -> Point {
    (ring * 8 + (i % 8)) as Point
}

const fn build_lines() -> [[Point; 3]; 20] {
    let mut out = [[0; 3]; 20];
    let mut n = 0;
    // Ring sides: corner, midpoint, corner.
    let mut ring = 0;
    while ring < 3 {
        let mut side = 0;
        while side < 4 {
            let mid = side * 2;
            out[n] = [pt(ring, mid + 7), pt(ring, mid), pt(ring, mid + 1)];
            n += 1;
            side += 1;
        }
        ring += 1;
    }
    // Cross lines through the midpoints, then the four diagonals through
    // the corners (inner to outer).
    let mut i = 0;
    while i < 8 {
        out[n] = [pt(0, i), pt(1, i), pt(2, i)];
        n += 1;
        i += 2;
    }
    let mut i = 1;
    while i < 8 {
        out[n] = [pt(0, i), pt(1, i), pt(2, i)];
        n += 1;
        i += 2;
    }
    out
}

/// All 20 lines: 16 standard ones, then the 4 diagonals.
const LINES: [[Point; 3]; 20] = build_lines();

/// The lines that form mills: 16, or 20 with the diagonal lines.
pub fn lines(diagonals: bool) -> &'static [[Point; 3]] {
    if diagonals {
        &LINES
    } else {
        &LINES[..16]
    }
}

const fn line_mask(l: [Point; 3]) -> u32 {
    (1 << l[0]) | (1 << l[1]) | (1 << l[2])
}

/// `LINES` as bit masks.
pub(crate) const LINE_MASKS: [u32; 20] = {
    let mut out = [0; 20];
    let mut i = 0;
    while i < 20 {
        out[i] = line_mask(LINES[i]);
        i += 1;
    }
    out
};

/// For each point, the indices into `LINES` of the lines through it
/// (standard lines first, at most 2; then at most 1 diagonal), padded with
/// `u8::MAX`.
pub(crate) const LINES_THROUGH: [[u8; 3]; POINTS] = {
    let mut out = [[u8::MAX; 3]; POINTS];
    let mut p = 0;
    while p < POINTS {
        let mut k = 0;
        let mut l = 0;
        while l < 20 {
            if LINE_MASKS[l] & (1 << p) != 0 {
                out[p][k] = l as u8;
                k += 1;
            }
            l += 1;
        }
        p += 1;
    }
    out
};

/// Neighbour tables: `[diagonals as usize][point]`, each a fixed array with
/// its length.
const NEIGHBOURS: [[([Point; 5], usize); POINTS]; 2] = {
    let mut out = [[([0; 5], 0); POINTS]; 2];
    let mut d = 0;
    while d < 2 {
        let n_lines = if d == 1 { 20 } else { 16 };
        let mut p = 0;
        while p < POINTS {
            let mut k = 0;
            let mut l = 0;
            while l < n_lines {
                let line = LINES[l];
                let mut j = 0;
                while j < 3 {
                    if line[j] as usize == p {
                        if j > 0 {
                            out[d][p].0[k] = line[j - 1];
                            k += 1;
                        }
                        if j < 2 {
                            out[d][p].0[k] = line[j + 1];
                            k += 1;
                        }
                    }
                    j += 1;
                }
                l += 1;
            }
            out[d][p].1 = k;
            p += 1;
        }
        d += 1;
    }
    out
};

/// A line mask no set of pieces can fill (bit 31 is no point): pads
/// [`LINE_MASKS_THROUGH`].
pub(crate) const NO_LINE: u32 = 1 << 31;

/// For each point, the masks of the lines through it under
/// `[diagonals as usize]`, padded with [`NO_LINE`]: a mill check at a point
/// is three mask tests, no index arithmetic.
pub(crate) const LINE_MASKS_THROUGH: [[[u32; 3]; POINTS]; 2] = {
    let mut out = [[[NO_LINE; 3]; POINTS]; 2];
    let mut d = 0;
    while d < 2 {
        let n_lines = if d == 1 { 20 } else { 16 };
        let mut p = 0;
        while p < POINTS {
            let mut k = 0;
            while k < 3 {
                let l = LINES_THROUGH[p][k] as usize;
                if l < n_lines {
                    out[d][p][k] = LINE_MASKS[l];
                }
                k += 1;
            }
            p += 1;
        }
        d += 1;
    }
    out
};

/// Adjacency as bit masks, `[diagonals as usize][point]`.
pub(crate) const ADJ_MASKS: [[u32; POINTS]; 2] = {
    let mut out = [[0; POINTS]; 2];
    let mut d = 0;
    while d < 2 {
        let mut p = 0;
        while p < POINTS {
            let (ns, len) = NEIGHBOURS[d][p];
            let mut i = 0;
            while i < len {
                out[d][p] |= 1 << ns[i];
                i += 1;
            }
            p += 1;
        }
        d += 1;
    }
    out
};

/// The points a piece on `p` can slide to (neighbours along a line); empty
/// for a number that is not a point.
pub fn adjacent(p: Point, diagonals: bool) -> &'static [Point] {
    match NEIGHBOURS[diagonals as usize].get(p as usize) {
        Some((ns, len)) => &ns[..*len],
        None => &[],
    }
}

/// The bit of point `p` in a point mask (`p` taken modulo 32, so an
/// out-of-range point gives a bit outside [`ALL_POINTS`]).
pub(crate) fn side_bit(p: Point) -> u32 {
    1u32 << (p as u32 % 32)
}
