//! Territory Duel's learned evaluation: tuned pattern tables.
//!
//! The board is read through 25 overlapping 3×3 windows, one centred on
//! each square that is not on the edge. Each window's nine squares (empty,
//! the mover's, the opponent's) form a number below 3⁹ = 19 683 that picks
//! a weight from one of three tables: corner windows, edge windows and
//! inner windows. An edge or corner window is read turned so that its
//! board edge is always on the same side, so the four corners share one
//! table and the twelve edge windows another. Three more weights count the
//! material difference, the difference in safe pieces (with no empty
//! neighbour, so the next move cannot flip them) and the right to move.
//!
//! Every weight comes as a pair, one for an empty board and one for a full
//! board, and the score blends the two by the number of empty squares (a
//! tapered evaluation): what a shape is worth in the opening is not what it
//! is worth when the board fills up.
//!
//! The weights are integers (`i16`, centipawn-like: about 100 for a piece)
//! in `ataxx-patterns.bin`, made by `engine datagen` and `engine train` (see
//! docs/engine.md, "How the evaluation weights were made"); the score is
//! integer arithmetic only, so native code and WebAssembly agree bit for
//! bit.

use super::tables;
use crate::games::ataxx::board::{singles, FULL};

/// Windows: one 3×3 window per inner square.
pub const WINDOWS: usize = 25;
/// Patterns per table: 3⁹.
pub const PATTERNS: usize = 19_683;
/// Tables: corner, edge and inner windows.
pub const CLASSES: usize = 3;
/// The feature index of the material difference (mover's minus opponent's).
pub const MATERIAL: usize = CLASSES * PATTERNS;
/// The feature index of the safe-piece difference (pieces with no empty
/// neighbour, which the next move cannot flip).
pub const SAFE: usize = MATERIAL + 1;
/// The feature index of the right to move (always 1).
pub const TEMPO: usize = MATERIAL + 2;
/// Whole-board features after the patterns: material, safe pieces, tempo.
pub const SCALARS: usize = 3;
/// Number of features; each has an empty-board and a full-board weight.
pub const FEATURES: usize = MATERIAL + SCALARS;
/// Squares of the board: the blend's denominator.
pub const PHASE_SQUARES: i32 = 49;

/// The weights file's first bytes.
pub const MAGIC: &[u8; 8] = b"STDPAT01";
/// Length of a weights file: the magic, then for each feature its
/// empty-board and full-board weight as little-endian `i16`.
pub const FILE_BYTES: usize = MAGIC.len() + FEATURES * 4;

const FILE: &[u8] = include_bytes!("ataxx-patterns.bin");

/// The weights, read from the file at compile time: `[empty-board,
/// full-board]` per feature.
static WEIGHTS: [[i16; 2]; FEATURES] = tables::pairs(FILE, MAGIC.len());

/// For each window, its table and its nine squares in reading order.
/// The turns a window can be read with, as `(a, b, d, e)`: reading cell
/// (i, j) of the window (i, j in -1..=1) means the square at
/// (row + a·i + b·j, column + d·i + e·j).
const TURNS: [(i32, i32, i32, i32); 6] = [
    (1, 0, 0, 1),   // as the board is (inner windows, the top edge)
    (-1, 0, 0, 1),  // upside down (the bottom edge)
    (1, 0, 0, -1),  // mirrored (the top right corner)
    (-1, 0, 0, -1), // half a turn (the bottom right corner)
    (0, 1, 1, 0),   // transposed (the left edge)
    (0, 1, -1, 0),  // a quarter turn (the right edge)
];

/// For each window: its table (0 corner, 1 edge, 2 inner) and its turn.
const fn window_kind(w: usize) -> (u8, usize) {
    let r = 1 + w / 5;
    let c = 1 + w % 5;
    let (top, bottom, left, right) = (r == 1, r == 5, c == 1, c == 5);
    if (top || bottom) && (left || right) {
        let turn = match (top, left) {
            (true, true) => 0,
            (true, false) => 2,
            (false, true) => 1,
            (false, false) => 3,
        };
        (0, turn)
    } else if top {
        (1, 0)
    } else if bottom {
        (1, 1)
    } else if left {
        (1, 4)
    } else if right {
        (1, 5)
    } else {
        (2, 0)
    }
}

/// The square of cell `k` (reading order) of window `w`.
const fn window_square(w: usize, k: usize) -> u8 {
    let (r, c) = ((1 + w / 5) as i32, (1 + w % 5) as i32);
    let (a, b, d, e) = TURNS[window_kind(w).1];
    let (i, j) = ((k / 3) as i32 - 1, (k % 3) as i32 - 1);
    ((r + a * i + b * j) * 7 + (c + d * i + e * j)) as u8
}

const fn window_squares() -> [[u8; 9]; WINDOWS] {
    let mut out = [[0u8; 9]; WINDOWS];
    let mut w = 0;
    while w < WINDOWS {
        let mut k = 0;
        while k < 9 {
            out[w][k] = window_square(w, k);
            k += 1;
        }
        w += 1;
    }
    out
}

const fn window_classes() -> [u8; WINDOWS] {
    let mut out = [0u8; WINDOWS];
    let mut w = 0;
    while w < WINDOWS {
        out[w] = window_kind(w).0;
        w += 1;
    }
    out
}

/// Each window's nine squares, in reading order.
pub const WINDOW_SQUARES: [[u8; 9]; WINDOWS] = window_squares();
/// Each window's table: 0 corner, 1 edge, 2 inner.
pub const WINDOW_CLASS: [u8; WINDOWS] = window_classes();

/// `TERNARY[t][m]`: for the nine bits `m` of a window as the board has
/// them (bit `3·(i+1) + (j+1)` for cell (i, j)), the base-3 number with a 1
/// at each set cell's place in the window's reading order under turn `t`.
/// The pattern index is then `TERNARY[t][mine] + 2·TERNARY[t][theirs]`.
static TERNARY: [[u16; 512]; 6] = ternary_tables();

const fn ternary_tables() -> [[u16; 512]; 6] {
    let mut out = [[0u16; 512]; 6];
    let mut t = 0;
    while t < 6 {
        let (a, b, d, e) = TURNS[t];
        let mut m = 0;
        while m < 512 {
            let mut value = 0u16;
            let mut place = 1u16;
            let mut k = 0;
            while k < 9 {
                let (i, j) = (k / 3 - 1, k % 3 - 1);
                let (di, dj) = (a * i + b * j, d * i + e * j);
                let bit = (3 * (di + 1) + (dj + 1)) as usize;
                if m & (1 << bit) != 0 {
                    value += place;
                }
                place *= 3;
                k += 1;
            }
            out[t][m] = value;
            m += 1;
        }
        t += 1;
    }
    out
}

/// The turn of each window (an index into [`TURNS`]).
const WINDOW_TURN: [u8; WINDOWS] = {
    let mut out = [0u8; WINDOWS];
    let mut w = 0;
    while w < WINDOWS {
        out[w] = window_kind(w).1 as u8;
        w += 1;
    }
    out
};

/// The nine bits of the window around (`row`, `col`) as the board has them.
#[inline(always)]
fn window_bits(bb: u64, row: usize, col: usize) -> usize {
    let rows = (bb >> ((row - 1) * 7 + col - 1)) as usize;
    (rows & 7) | ((rows >> 7) & 7) << 3 | ((rows >> 14) & 7) << 6
}

/// What the evaluation sees of a position, from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// The feature index of each window's pattern (its table included).
    pub patterns: [u32; WINDOWS],
    /// The values of the whole-board features [`MATERIAL`], [`SAFE`] and
    /// [`TEMPO`], in that order: the mover's minus the opponent's pieces and
    /// safe pieces, and 1.
    pub scalars: [i32; SCALARS],
    /// Empty squares: 49 on an empty board, 0 on a full one.
    pub empties: i32,
}

/// The features of a board where `mine` are the mover's pieces and
/// `theirs` the opponent's (no gaps: a gap would read as empty).
#[inline]
pub fn features(mine: u64, theirs: u64) -> Features {
    let mut patterns = [0u32; WINDOWS];
    for (w, out) in patterns.iter_mut().enumerate() {
        let (row, col) = (1 + w / 5, 1 + w % 5);
        let turn = &TERNARY[WINDOW_TURN[w] as usize];
        let index = turn[window_bits(mine, row, col)] as u32
            + 2 * turn[window_bits(theirs, row, col)] as u32;
        *out = WINDOW_CLASS[w] as u32 * PATTERNS as u32 + index;
    }
    let occupied = (mine | theirs).count_ones() as i32;
    let exposed = singles(FULL & !(mine | theirs));
    Features {
        patterns,
        scalars: [
            mine.count_ones() as i32 - theirs.count_ones() as i32,
            (mine & !exposed).count_ones() as i32 - (theirs & !exposed).count_ones() as i32,
            1,
        ],
        empties: PHASE_SQUARES - occupied,
    }
}

/// Weights read at run time, which replace the built-in ones for the whole
/// process: `engine datagen --eval` plays with them (no other code sets
/// them, so the app always uses the built-in weights).
static RUNTIME: tables::Runtime = tables::Runtime::new();

/// Makes `weights` the process's weights instead of the built-in ones.
/// Once only: a second call is an error and changes nothing.
pub fn use_weights(weights: &[(i16, i16)]) -> Result<(), String> {
    RUNTIME.set(weights, FEATURES)
}

/// The weights of the hand-written evaluation as tables: 100 a piece, 8 a
/// safe piece, everything else 0. They score every open board exactly as
/// the hand-written evaluation does; `engine train` starts from them and
/// `engine datagen --eval hand` plays with them.
pub fn hand_weights() -> Vec<(i16, i16)> {
    let mut w = vec![(0, 0); FEATURES];
    w[MATERIAL] = (100, 100);
    w[SAFE] = (8, 8);
    w
}

/// Reads a weights file (as [`weights_file`] writes it).
pub fn read_weights_file(bytes: &[u8]) -> Result<Vec<(i16, i16)>, String> {
    tables::read(bytes, MAGIC, FEATURES, "Territory Duel")
}

/// The score of `f` for the side to move: the blend of the empty-board
/// and full-board sums by the number of empty squares.
pub fn score(f: &Features) -> i32 {
    match RUNTIME.get() {
        Some(w) => score_with(w, f),
        None => score_with(&WEIGHTS, f),
    }
}

#[inline]
fn score_with(weights: &[[i16; 2]], f: &Features) -> i32 {
    let weight = |i: usize| {
        let [open, end] = weights[i];
        (open as i32, end as i32)
    };
    let (mut open, mut end) = (0, 0);
    for &p in &f.patterns {
        let (o, e) = weight(p as usize);
        open += o;
        end += e;
    }
    for (i, &x) in f.scalars.iter().enumerate() {
        let (o, e) = weight(MATERIAL + i);
        open += o * x;
        end += e * x;
    }
    (open * f.empties + end * (PHASE_SQUARES - f.empties)) / PHASE_SQUARES
}

/// The smallest index among the patterns that the board's symmetries make
/// equivalent to feature `f` (scalars map to themselves). An inner window
/// can be seen under all eight turns and mirrors of the board; an edge
/// window, read with its edge at the top, only mirrored left to right; a
/// corner window, read with its corner at the top left, only mirrored along
/// that corner's diagonal. Giving equivalent patterns one weight (as
/// `engine train` does) makes the score the same for a position and its
/// mirror images.
pub fn canonical(f: usize) -> usize {
    if f >= MATERIAL {
        return f;
    }
    let (class, index) = (f / PATTERNS, f % PATTERNS);
    let mut digits = [0usize; 9];
    let mut rest = index;
    for d in digits.iter_mut() {
        *d = rest % 3;
        rest /= 3;
    }
    // Each symmetry as (a, b, d, e): cell (i, j) shows what was at
    // (a·i + b·j, d·i + e·j).
    const ALL: [(i32, i32, i32, i32); 8] = [
        (1, 0, 0, 1),
        (1, 0, 0, -1),
        (-1, 0, 0, 1),
        (-1, 0, 0, -1),
        (0, 1, 1, 0),
        (0, 1, -1, 0),
        (0, -1, 1, 0),
        (0, -1, -1, 0),
    ];
    let group: &[(i32, i32, i32, i32)] = match class {
        0 => &[ALL[0], ALL[4]],
        1 => &ALL[..2],
        _ => &ALL,
    };
    let mut best = index;
    for &(a, b, d, e) in group {
        let mut value = 0usize;
        for k in (0..9).rev() {
            let (i, j) = (k / 3 - 1, k % 3 - 1);
            let from = (3 * (a * i + b * j + 1) + (d * i + e * j + 1)) as usize;
            value = value * 3 + digits[from];
        }
        best = best.min(value);
    }
    class * PATTERNS + best
}

/// Writes a weights file from `(empty-board, full-board)` pairs.
pub fn weights_file(weights: &[(i16, i16)]) -> Vec<u8> {
    assert_eq!(weights.len(), FEATURES, "one pair per feature");
    tables::write(MAGIC, weights)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_window_reads_nine_different_squares_around_its_centre() {
        for (w, squares) in WINDOW_SQUARES.iter().enumerate() {
            let centre = ((1 + w / 5) * 7 + 1 + w % 5) as u8;
            assert_eq!(squares[4], centre, "window {w}");
            let mut seen = squares.to_vec();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), 9);
            for &sq in squares {
                let (dr, dc) = (
                    sq as i32 / 7 - centre as i32 / 7,
                    sq as i32 % 7 - centre as i32 % 7,
                );
                assert!(dr.abs() <= 1 && dc.abs() <= 1, "window {w} square {sq}");
            }
        }
        let count = |c: u8| WINDOW_CLASS.iter().filter(|&&k| k == c).count();
        assert_eq!((count(0), count(1), count(2)), (4, 12, 9));
    }

    #[test]
    fn turned_windows_read_their_board_edge_first() {
        // The first row read of every corner and edge window lies on the
        // board's edge; a corner's first square is the board's corner.
        let on_edge = |sq: u8| sq / 7 == 0 || sq / 7 == 6 || sq.is_multiple_of(7) || sq % 7 == 6;
        for w in 0..WINDOWS {
            if WINDOW_CLASS[w] < 2 {
                assert!(
                    WINDOW_SQUARES[w][..3].iter().all(|&s| on_edge(s)),
                    "window {w}"
                );
            }
            if WINDOW_CLASS[w] == 0 {
                assert!([0, 6, 42, 48].contains(&WINDOW_SQUARES[w][0]), "window {w}");
            }
        }
    }

    #[test]
    fn the_same_shape_in_each_corner_is_the_same_pattern() {
        // A piece of ours in the corner and one of theirs beside it along
        // the edge, in each of the four corners.
        let shapes = [(0u8, 1u8), (6, 5), (42, 43), (48, 47)];
        let indices: Vec<u32> = shapes
            .iter()
            .map(|&(c, n)| {
                let f = features(1 << c, 1 << n);
                let corner = (0..WINDOWS).find(|&w| WINDOW_SQUARES[w][0] == c).unwrap();
                f.patterns[corner]
            })
            .collect();
        assert!(indices.iter().all(|&i| i == indices[0]), "{indices:?}");
        assert_ne!(indices[0], 0);
    }

    #[test]
    fn mirror_images_of_a_position_have_the_same_canonical_patterns() {
        // A lopsided position and its mirror images under the board's
        // eight symmetries: the multiset of canonical patterns is the same.
        let mine = [0u8, 1, 8, 16, 24, 30, 40]
            .iter()
            .fold(0u64, |b, &s| b | 1 << s);
        let theirs = [2u8, 9, 10, 23, 33, 41, 47]
            .iter()
            .fold(0u64, |b, &s| b | 1 << s);
        let turn = |bb: u64, t: usize| -> u64 {
            let mut out = 0;
            for sq in 0..49u64 {
                if bb >> sq & 1 == 1 {
                    let (r, c) = (sq / 7, sq % 7);
                    let (r, c) = match t {
                        0 => (r, c),
                        1 => (r, 6 - c),
                        2 => (6 - r, c),
                        3 => (6 - r, 6 - c),
                        4 => (c, r),
                        5 => (c, 6 - r),
                        6 => (6 - c, r),
                        _ => (6 - c, 6 - r),
                    };
                    out |= 1 << (r * 7 + c);
                }
            }
            out
        };
        let canon = |m: u64, t: u64| {
            let mut v: Vec<usize> = features(m, t)
                .patterns
                .iter()
                .map(|&p| canonical(p as usize))
                .collect();
            v.sort();
            v
        };
        let base = canon(mine, theirs);
        for t in 1..8 {
            assert_eq!(canon(turn(mine, t), turn(theirs, t)), base, "symmetry {t}");
        }
        // Without canonical patterns the mirror images differ.
        let raw = |m: u64, t: u64| {
            let mut v = features(m, t).patterns.to_vec();
            v.sort();
            v
        };
        assert_ne!(raw(turn(mine, 1), turn(theirs, 1)), raw(mine, theirs));
    }

    #[test]
    fn the_hand_weights_score_as_the_hand_written_evaluation() {
        // 100 a piece and 8 a safe piece (no empty neighbour), every phase.
        let w: Vec<[i16; 2]> = hand_weights().iter().map(|&(o, e)| [o, e]).collect();
        let mut rng = crate::ai::SplitMix64::new(11);
        for _ in 0..2000 {
            let (mut mine, mut theirs) = (0u64, 0u64);
            for sq in 0..49 {
                match rng.below(4) {
                    1 => mine |= 1 << sq,
                    2 => theirs |= 1 << sq,
                    _ => {}
                }
            }
            let empty = FULL & !(mine | theirs);
            let exposed = singles(empty);
            let material = mine.count_ones() as i32 - theirs.count_ones() as i32;
            let safe =
                (mine & !exposed).count_ones() as i32 - (theirs & !exposed).count_ones() as i32;
            assert_eq!(
                score_with(&w, &features(mine, theirs)),
                100 * material + 8 * safe
            );
        }
    }

    #[test]
    fn a_weights_file_is_checked_when_read() {
        let bytes = weights_file(&hand_weights());
        assert_eq!(read_weights_file(&bytes).unwrap(), hand_weights());
        assert!(read_weights_file(&bytes[..100]).is_err());
        let mut wrong = bytes.clone();
        wrong[0] = b'X';
        assert!(read_weights_file(&wrong)
            .unwrap_err()
            .contains("not a Territory Duel weights file"));
    }

    #[test]
    fn the_weights_file_round_trips() {
        let pairs: Vec<(i16, i16)> = (0..FEATURES).map(|i| (i as i16, -(i as i16))).collect();
        let bytes = weights_file(&pairs);
        assert_eq!(bytes.len(), FILE_BYTES);
        assert_eq!(&bytes[..8], MAGIC);
        assert_eq!(i16::from_le_bytes([bytes[8 + 4 * 7], bytes[9 + 4 * 7]]), 7);
        assert_eq!(read_weights_file(&bytes).unwrap(), pairs);
        let builtin = read_weights_file(FILE).unwrap();
        assert_eq!(builtin.len(), FEATURES);
        assert_eq!(
            weights_file(&builtin),
            FILE,
            "the built-in file reads back byte for byte"
        );
    }
}
