//! Territory Duel's network evaluation (NNUE): a small efficiently
//! updatable network, trained by `engine nnue-train` on our own self-play.
//!
//! **Inputs.** A net file says which of two encodings it reads (the
//! input count in its header, [`Inputs`]):
//! - [`Inputs::Pieces`], 98 per perspective: a piece of that perspective's
//!   side on square `s` is input `s`, a piece of the other side is input
//!   `49 + s` (gaps and empty squares are no input).
//! - [`Inputs::Windows`], 2916 per perspective: each of the 36 2×2 windows
//!   of the 7×7 board is in one of 3^4 = 81 states (each square empty, the
//!   perspective's own or the other side's), one input per window and
//!   state, so 36 inputs are active on every board. A window sees its four
//!   squares together: a hole, a lone piece, a wall of two (what the
//!   strongest public engine's net reads, as tuples of squares).
//!   The states are "own / other" per perspective rather than "side to
//!   move / opponent": the two accumulators then belong to X and O and
//!   survive a change of the side to move, so a move only touches the
//!   windows around the squares it changed (a view relative to the side
//!   to move would flip every window at every ply).
//!
//! Each of the two perspectives (X's and O's) has its own accumulator of
//! [`HIDDEN`] sums: the bias plus the feature weights of its active inputs.
//! Both use the same weights, so a position and its colour-swapped twin
//! score the same by construction.
//!
//! **Output.** The side to move's accumulator, then the other's, each
//! clipped to `[0, 1]` and squared (SCReLU), times one of [`MAX_BUCKETS`]
//! output weight vectors picked by the number of pieces on the board (the
//! phase), plus that bucket's bias; times [`SCALE`] this is the score in
//! the search's centipawn-like units (about 100 a piece).
//!
//! **Incremental updates.** A clone adds one piece, a jump moves one, and
//! either flips up to eight: the child's accumulators are the parent's
//! plus a few weight rows ([`update`]). With [`Inputs::Pieces`] a flip is
//! one row per perspective: the net stores, for each square, the
//! difference "mine minus theirs" ([`Net::flips`]); when the changes would
//! cost more rows than the pieces on the board (early in the game, or
//! between unrelated positions) the child is refreshed from scratch
//! instead. With [`Inputs::Windows`] every window holding a changed square
//! (up to four per square, each counted once however many of its squares
//! changed) swaps its old state's row for its new one: a clone with eight
//! flips touches 16 windows, 32 rows per view; past 18 windows a refresh
//! (36 rows) is cheaper. The search is copy-make: it
//! keeps one accumulator pair per ply and computes the child's from the
//! parent's as it makes a move (`Evaluate::acc_update`).
//!
//! **Integers.** Weights are quantised: the feature weights and bias by
//! [`QA`] (`i16`, and every board's accumulator fits an `i16`, checked when
//! a net is read), the output weights by [`QB`] (`i16` with |w| <= 128 so
//! that `v * w` fits an `i16` for `v` <= 255), the output bias by `QA *
//! QB` (`i32`). Additions wrap (modular arithmetic), so the order of the
//! additions never matters: the AVX2 path (x86-64, detected at run time),
//! the `simd128` path (the worker's WebAssembly) and the portable scalar
//! path give the same score bit for bit (tests compare them).
//!
//! The committed weights are `ataxx-nnue.bin` (see docs/engine.md, "How the
//! evaluation weights were made", "Territory Duel's network"): window
//! inputs, 128 hidden units tied from 16 free units, stored as those
//! (93,632 bytes, 53 KB gzip), the second generation (trained on the
//! pattern tables' self-play and the first window net's). Measured on
//! 2026-12-06 against the pattern tables at 5 s + 0.05 s a game: +164.1 ±
//! 96.8 Elo over 100 games (72/0/28). The 256-unit net trained on the
//! same data was not clearly better at that clock (32/0/29 over 61 games;
//! +23.2 Elo, -68.1 to +117.9, over 30 pairs) and is twice the size and
//! slower (1.04 M against 1.11 M nodes/s from the start), hence 128.
//! `engine uai --net FILE`, `engine datagen --net FILE` and `engine bench
//! --net FILE` play with another file of this engine's hidden size
//! (`none`: the pattern tables).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use crate::games::ataxx::board::SQUARES;

/// Inputs per perspective of [`Inputs::Pieces`]: a square × whose piece.
pub const PIECE_INPUTS: usize = 2 * SQUARES;
/// The 2×2 windows of the board: 6 × 6 top-left corners.
pub const WINDOWS: usize = 36;
/// The states of a window: each of its four squares empty, own or other.
pub const WINDOW_STATES: usize = 81;
/// Inputs per perspective of [`Inputs::Windows`].
pub const WINDOW_INPUTS: usize = WINDOWS * WINDOW_STATES;

/// What a net reads: its input encoding (see the module header).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inputs {
    /// A square × whose piece: 98 inputs.
    Pieces,
    /// A 2×2 window × its 81 states: 2916 inputs.
    Windows,
}

impl Inputs {
    /// Inputs per perspective.
    pub const fn count(self) -> usize {
        match self {
            Inputs::Pieces => PIECE_INPUTS,
            Inputs::Windows => WINDOW_INPUTS,
        }
    }

    /// The encoding with `count` inputs, as a file's header gives it.
    pub fn from_count(count: usize) -> Option<Inputs> {
        match count {
            PIECE_INPUTS => Some(Inputs::Pieces),
            WINDOW_INPUTS => Some(Inputs::Windows),
            _ => None,
        }
    }

    /// Calls `f` with each active input of a perspective whose pieces are
    /// `own`, the other side's `other`.
    #[inline(always)]
    pub fn for_each_active(self, own: u64, other: u64, mut f: impl FnMut(usize)) {
        match self {
            Inputs::Pieces => {
                squares(own).for_each(&mut f);
                squares(other).for_each(|s| f(SQUARES + s));
            }
            Inputs::Windows => (0..WINDOWS).for_each(|w| f(window_input(own, other, w))),
        }
    }
}

/// The top-left square of window `w` (row-major, 6 per row).
#[inline(always)]
pub const fn window_square(w: usize) -> usize {
    (w / 6) * 7 + w % 6
}

/// `TERN[b]`: the four bits of `b` (the window's top-left, top-right,
/// bottom-left and bottom-right squares) as base-3 digits 0 or 1.
const TERN: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut b = 0;
    while b < 16 {
        t[b] = ((b & 1) + 3 * ((b >> 1) & 1) + 9 * ((b >> 2) & 1) + 27 * ((b >> 3) & 1)) as u8;
        b += 1;
    }
    t
};

/// The window's four squares of `bb` as four bits (see [`TERN`]).
#[inline(always)]
fn nibble(bb: u64, s: usize) -> usize {
    (((bb >> s) & 3) | (((bb >> (s + 7)) & 3) << 2)) as usize
}

/// The input of window `w` for a perspective whose pieces are `own`, the
/// other side's `other`: `w · 81 + Σ digitₖ · 3ᵏ` with digit 1 for own, 2
/// for other, 0 for empty.
#[inline(always)]
pub fn window_input(own: u64, other: u64, w: usize) -> usize {
    let s = window_square(w);
    w * WINDOW_STATES + TERN[nibble(own, s)] as usize + 2 * TERN[nibble(other, s)] as usize
}

/// The eight symmetries of the board as square maps: `SYMMETRIES[g][s]`
/// is where square `s` goes.
pub const SYMMETRIES: [[u8; SQUARES]; 8] = symmetries();

const fn symmetries() -> [[u8; SQUARES]; 8] {
    let mut out = [[0u8; SQUARES]; 8];
    let mut g = 0;
    while g < 8 {
        let mut s = 0;
        while s < SQUARES {
            let (r, c) = (s / 7, s % 7);
            let (r2, c2) = match g {
                0 => (r, c),
                1 => (r, 6 - c),
                2 => (6 - r, c),
                3 => (6 - r, 6 - c),
                4 => (c, r),
                5 => (c, 6 - r),
                6 => (6 - c, r),
                _ => (6 - c, 6 - r),
            };
            out[g][s] = (r2 * 7 + c2) as u8;
            s += 1;
        }
        g += 1;
    }
    out
}

/// Input `i` with the board turned by symmetry `g`: a piece input's
/// square turned; a window input's four squares turned, which gives
/// another window (a 2×2 block stays a 2×2 block) with its states moved
/// to their new corners.
pub fn turn_input(inputs: Inputs, i: usize, g: usize) -> usize {
    let map = &SYMMETRIES[g];
    match inputs {
        Inputs::Pieces => {
            let (owner, sq) = (i / SQUARES, i % SQUARES);
            owner * SQUARES + map[sq] as usize
        }
        Inputs::Windows => {
            let (w, mut state) = (i / WINDOW_STATES, i % WINDOW_STATES);
            let s = window_square(w);
            let (mut own, mut other) = (0u64, 0u64);
            let (mut row, mut col) = (usize::MAX, usize::MAX);
            for sq in [s, s + 1, s + 7, s + 8] {
                let to = map[sq] as usize;
                match state % 3 {
                    1 => own |= 1 << to,
                    2 => other |= 1 << to,
                    _ => {}
                }
                state /= 3;
                row = row.min(to / 7);
                col = col.min(to % 7);
            }
            window_input(own, other, row * 6 + col)
        }
    }
}

/// `WINDOWS_OF[s]`: bit `w` set for each window that holds square `s`.
const WINDOWS_OF: [u64; SQUARES] = {
    let mut t = [0u64; SQUARES];
    let mut w = 0;
    while w < WINDOWS {
        let s = window_square(w);
        t[s] |= 1 << w;
        t[s + 1] |= 1 << w;
        t[s + 7] |= 1 << w;
        t[s + 8] |= 1 << w;
        w += 1;
    }
    t
};
/// Hidden units per perspective (a build constant: the rows are arrays).
pub const HIDDEN: usize = 128;
/// Most output buckets a file may have.
pub const MAX_BUCKETS: usize = 8;
/// Quantisation of the feature weights and the accumulator: 1.0 is `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights: 1.0 is `QB`. The trained output
/// weights are small (about 0.02 on average over the 512 units), so they
/// get a fine step; |w| <= 128/256 = 0.5 is plenty (the largest trained
/// ones are about 0.4). With `QB` = 64 the step was a fifth of the mean
/// weight and the integer scores strayed 28 on average from the floats.
pub const QB: i32 = 256;
/// The network's output 1.0 in score units.
pub const SCALE: i32 = 400;
/// The largest |output weight| (quantised): `QA * 128` fits an `i16`.
pub const MAX_OUT_WEIGHT: i32 = 128;
/// A net file's first bytes.
pub const MAGIC: &[u8; 8] = b"STDNNUE1";
/// Bytes before the weights: the magic, then `u16` inputs, hidden units
/// in the file, buckets and copies (0: the file holds every unit; 8: a
/// tied net, whose file holds `HIDDEN / 8` free units, each copied under
/// the board's 8 symmetries when read, an eighth of the size).
pub const HEADER_BYTES: usize = 16;

/// The committed net.
const FILE: &[u8] = include_bytes!("ataxx-nnue.bin");

/// The bytes of a file with `inputs` inputs, `hidden` units and `buckets`
/// output buckets.
pub const fn file_bytes(inputs: usize, hidden: usize, buckets: usize) -> usize {
    HEADER_BYTES + 2 * (inputs * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
}

/// A net file's header, checked against the file: what [`Net::from_bytes`]
/// and the trainer (`FloatNet::from_file`) both read first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileHeader {
    pub inputs: Inputs,
    /// Hidden units stored in the file (free units when `tied`).
    pub hidden: usize,
    pub buckets: usize,
    /// Copies field 8: each stored unit stands for eight, one per symmetry.
    pub tied: bool,
}

impl FileHeader {
    /// Reads the header: the magic, a known input count, copies 0 or 8,
    /// 1 to [`MAX_BUCKETS`] buckets, and a file exactly as long as that
    /// shape needs (so the weights after it can be read without checks).
    pub fn read(bytes: &[u8]) -> Result<FileHeader, String> {
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err(format!(
                "not a Territory Duel net file (it must start with {})",
                String::from_utf8_lossy(MAGIC)
            ));
        }
        let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]) as usize;
        let (inputs, hidden, buckets, copies) = (u16_at(8), u16_at(10), u16_at(12), u16_at(14));
        let tied = match copies {
            0 => false,
            8 => true,
            _ => return Err(format!("the net's copies field is {copies} (0 or 8)")),
        };
        let Some(kind) = Inputs::from_count(inputs) else {
            return Err(shape_error(inputs, hidden * if tied { 8 } else { 1 }));
        };
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(format!(
                "the net has {buckets} output buckets (1 to {MAX_BUCKETS})"
            ));
        }
        let size = file_bytes(inputs, hidden, buckets);
        if bytes.len() != size {
            return Err(format!(
                "the net file has {} bytes; its header says {size}",
                bytes.len()
            ));
        }
        Ok(FileHeader {
            inputs: kind,
            hidden,
            buckets,
            tied,
        })
    }
}

/// A net whose inputs or hidden units this engine is not built for.
fn shape_error(inputs: usize, units: usize) -> String {
    format!(
        "the net has {inputs} inputs and {units} hidden units; this engine is built for {PIECE_INPUTS} or {WINDOW_INPUTS} and {HIDDEN}"
    )
}

/// A quantised network, ready to evaluate.
#[repr(C, align(64))]
pub struct Net {
    inputs: Inputs,
    /// `features[i]`: the weights of input `i` (see the module header).
    features: Vec<Row>,
    /// [`Inputs::Pieces`] only: `flips[s]` is `features[s] - features[49 +
    /// s]`, what a piece on `s` changing from the other side's to the
    /// perspective's own adds.
    flips: Vec<Row>,
    bias: [i16; HIDDEN],
    /// Per bucket: the side to move's `HIDDEN` weights, then the other's.
    out: [[i16; 2 * HIDDEN]; MAX_BUCKETS],
    out_bias: [i32; MAX_BUCKETS],
    buckets: usize,
}

impl Net {
    /// Reads a net file (as `engine nnue-train` writes it), checking its
    /// size, its shape and that no board can overflow the accumulator.
    pub fn from_bytes(bytes: &[u8]) -> Result<Box<Net>, String> {
        let FileHeader {
            inputs: kind,
            hidden,
            buckets,
            tied,
        } = FileHeader::read(bytes)?;
        let inputs = kind.count();
        // A full file (copies 0) holds all HIDDEN units; a tied one (8)
        // holds HIDDEN / 8 free units, each copied under the 8 symmetries
        // as it is read.
        let copies = if tied { 8 } else { 1 };
        if hidden * copies != HIDDEN {
            return Err(shape_error(inputs, hidden * copies));
        }
        let i16s = |from: usize, n: usize| -> Vec<i16> {
            bytes[from..from + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect()
        };
        let m = hidden;
        let free_features = i16s(HEADER_BYTES, inputs * m);
        let free_bias = i16s(HEADER_BYTES + 2 * inputs * m, m);
        let free_out = i16s(HEADER_BYTES + 2 * (inputs + 1) * m, buckets * 2 * m);
        let mut net = Box::new(Net {
            inputs: kind,
            features: vec![[0; HIDDEN]; inputs],
            flips: Vec::new(),
            bias: [0; HIDDEN],
            out: [[0; 2 * HIDDEN]; MAX_BUCKETS],
            out_bias: [0; MAX_BUCKETS],
            buckets,
        });
        // Unit g·m + j of a tied net reads the board turned by symmetry
        // g: its weight for input i is free unit j's for i turned by g (as
        // `engine nnue-train` lays out a full file).
        for (i, row) in net.features.iter_mut().enumerate() {
            for g in 0..copies {
                let from = turn_input(kind, i, g) * m;
                row[g * m..(g + 1) * m].copy_from_slice(&free_features[from..from + m]);
            }
        }
        for g in 0..copies {
            net.bias[g * m..(g + 1) * m].copy_from_slice(&free_bias);
            for b in 0..buckets {
                for view in 0..2 {
                    let from = b * 2 * m + view * m;
                    net.out[b][view * HIDDEN + g * m..view * HIDDEN + (g + 1) * m]
                        .copy_from_slice(&free_out[from..from + m]);
                }
            }
        }
        for b in 0..buckets {
            let at = bytes.len() - 4 * (buckets - b);
            net.out_bias[b] =
                i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        }
        // The largest accumulator any board can reach: every square (or
        // window) in the state whose weight is furthest from zero.
        let groups: Vec<Vec<usize>> = match kind {
            Inputs::Pieces => (0..SQUARES).map(|s| vec![s, SQUARES + s]).collect(),
            Inputs::Windows => (0..WINDOWS)
                .map(|w| (w * WINDOW_STATES..(w + 1) * WINDOW_STATES).collect())
                .collect(),
        };
        for h in 0..HIDDEN {
            let worst: i32 = (net.bias[h] as i32).abs()
                + groups
                    .iter()
                    .map(|g| {
                        g.iter()
                            .map(|&i| (net.features[i][h] as i32).abs())
                            .max()
                            .unwrap_or(0)
                    })
                    .sum::<i32>();
            if worst > i16::MAX as i32 {
                return Err(format!(
                    "hidden unit {h} can reach {worst}, beyond the i16 accumulator"
                ));
            }
        }
        if let Some(w) = net.out[..buckets]
            .iter()
            .flatten()
            .find(|w| (**w as i32).abs() > MAX_OUT_WEIGHT)
        {
            return Err(format!("an output weight is {w}, beyond ±{MAX_OUT_WEIGHT}"));
        }
        if kind == Inputs::Pieces {
            net.flips = (0..SQUARES)
                .map(|s| {
                    let mut row = [0i16; HIDDEN];
                    for (h, r) in row.iter_mut().enumerate() {
                        *r = net.features[s][h].wrapping_sub(net.features[SQUARES + s][h]);
                    }
                    row
                })
                .collect();
        }
        Ok(net)
    }

    /// What the net reads.
    pub fn inputs(&self) -> Inputs {
        self.inputs
    }

    /// The score with this net of a board whose side to move has the
    /// pieces `mine` and the other side `theirs`.
    pub fn evaluate_board(&self, mine: u64, theirs: u64) -> i32 {
        let k = kernels::best();
        let mut acc = Accumulator::default();
        refresh_with(self, mine, theirs, &mut acc, k);
        evaluate_with(self, &acc, 0, (mine | theirs).count_ones(), k)
    }

    /// The output bucket of a board with `occupied` pieces.
    #[inline]
    fn bucket(&self, occupied: u32) -> usize {
        (occupied as usize * self.buckets / 50).min(self.buckets - 1)
    }
}

static BUILTIN: OnceLock<Box<Net>> = OnceLock::new();
static RUNTIME: OnceLock<Box<Net>> = OnceLock::new();
/// Whether Strong and Master play with the net (`engine … --net none`
/// turns it off, so the old evaluation can be measured with the same build).
static DISABLED: AtomicBool = AtomicBool::new(false);

/// The net in use: one set with [`use_net`], else the committed one.
#[inline]
pub fn net() -> &'static Net {
    if let Some(n) = RUNTIME.get() {
        return n;
    }
    BUILTIN.get_or_init(|| Net::from_bytes(FILE).expect("the committed net file is valid"))
}

/// Makes the net in `bytes` the process's net instead of the committed
/// one. Once only: a second call is an error and changes nothing.
pub fn use_net(bytes: &[u8]) -> Result<(), String> {
    let net = Net::from_bytes(bytes)?;
    RUNTIME
        .set(net)
        .map_err(|_| "the net was already set".to_string())
}

/// Turns the net off for this process: Strong and Master then play with
/// the pattern tables, as before the net (`--net none`).
pub fn disable() {
    DISABLED.store(true, Ordering::Relaxed);
}

/// Whether Strong and Master play with the net.
#[inline]
pub fn enabled() -> bool {
    !DISABLED.load(Ordering::Relaxed)
}

/// The two perspectives' hidden sums: `[X's, O's]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub views: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            views: [[0; HIDDEN]; 2],
        }
    }
}

/// A weight row.
type Row = [i16; HIDDEN];

/// Most rows one kernel call adds (or subtracts): an update that needs
/// more is done as a refresh, and a refresh adds its rows this many at a
/// time. 18: half of a window net's 36 rows, where an update of touched
/// windows stops paying.
const MAX_ROWS: usize = 18;

/// Rows to add and to subtract for one view.
struct Rows<'a> {
    add: [&'a Row; MAX_ROWS],
    n_add: usize,
    sub: [&'a Row; MAX_ROWS],
    n_sub: usize,
}

impl<'a> Rows<'a> {
    #[inline(always)]
    fn new(zero: &'a Row) -> Self {
        Rows {
            add: [zero; MAX_ROWS],
            n_add: 0,
            sub: [zero; MAX_ROWS],
            n_sub: 0,
        }
    }
    #[inline(always)]
    fn add(&mut self, r: &'a Row) {
        self.add[self.n_add] = r;
        self.n_add += 1;
    }
    #[inline(always)]
    fn sub(&mut self, r: &'a Row) {
        self.sub[self.n_sub] = r;
        self.n_sub += 1;
    }
}

/// The squares of a bitboard, lowest first.
#[inline(always)]
fn squares(mut bb: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if bb == 0 {
            None
        } else {
            let s = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            Some(s)
        }
    })
}

/// Computes both views from scratch for X's pieces `x` and O's `o`.
pub fn refresh(x: u64, o: u64, acc: &mut Accumulator) {
    refresh_with(net(), x, o, acc, kernels::best());
}

fn refresh_with(net: &Net, x: u64, o: u64, acc: &mut Accumulator, k: Kernels) {
    for (view, (own, other)) in [(x, o), (o, x)].into_iter().enumerate() {
        // The view's own pieces are "own" (inputs 0..49 of a piece net),
        // the other side's "other".
        let mut inputs = [0u16; SQUARES];
        let mut n = 0;
        net.inputs.for_each_active(own, other, |i| {
            inputs[n] = i as u16;
            n += 1;
        });
        let dst = &mut acc.views[view];
        *dst = net.bias;
        let mut rows = Rows::new(&net.bias);
        for &i in &inputs[..n] {
            rows.add(&net.features[i as usize]);
            if rows.n_add == MAX_ROWS {
                let src = *dst;
                (k.combine)(&src, dst, &rows.add, &[]);
                rows.n_add = 0;
            }
        }
        if rows.n_add > 0 {
            let src = *dst;
            (k.combine)(&src, dst, &rows.add[..rows.n_add], &[]);
        }
    }
}

/// The accumulators of the board `(x, o)` from those of `(px, po)`:
/// changed squares only, or a refresh when that needs fewer rows. Correct
/// for any two boards (a move, a pass, or unrelated positions).
pub fn update(px: u64, po: u64, from: &Accumulator, x: u64, o: u64, to: &mut Accumulator) {
    update_with(net(), px, po, from, x, o, to, kernels::best());
}

#[allow(clippy::too_many_arguments)]
#[inline]
fn update_with(
    net: &Net,
    px: u64,
    po: u64,
    from: &Accumulator,
    x: u64,
    o: u64,
    to: &mut Accumulator,
    k: Kernels,
) {
    if net.inputs == Inputs::Windows {
        update_windows(net, px, po, from, x, o, to, k);
        return;
    }
    // Pieces that changed sides: one flip row each.
    let to_x = x & po;
    let to_o = o & px;
    let x_add = x & !px & !to_x;
    let x_sub = px & !x & !to_o;
    let o_add = o & !po & !to_o;
    let o_sub = po & !o & !to_x;
    // Each view adds the new pieces and subtracts the gone ones, and adds
    // or subtracts one flip row per changed piece.
    let added = (x_add | o_add).count_ones() as usize;
    let gone = (x_sub | o_sub).count_ones() as usize;
    let flips = (to_x.count_ones() as usize).max(to_o.count_ones() as usize);
    let rows = added + gone + (to_x | to_o).count_ones() as usize;
    if rows > (x | o).count_ones() as usize || added + flips > MAX_ROWS || gone + flips > MAX_ROWS {
        refresh_with(net, x, o, to, k);
        return;
    }
    // X's view reads X's pieces as its own (inputs 0..49), O's view as the
    // other side's (49..98). A piece turning to X is "theirs to mine" for
    // X's view and "mine to theirs" for O's.
    let mut rows = [Rows::new(&net.bias), Rows::new(&net.bias)];
    for s in squares(x_add) {
        rows[0].add(&net.features[s]);
        rows[1].add(&net.features[SQUARES + s]);
    }
    for s in squares(o_add) {
        rows[0].add(&net.features[SQUARES + s]);
        rows[1].add(&net.features[s]);
    }
    for s in squares(x_sub) {
        rows[0].sub(&net.features[s]);
        rows[1].sub(&net.features[SQUARES + s]);
    }
    for s in squares(o_sub) {
        rows[0].sub(&net.features[SQUARES + s]);
        rows[1].sub(&net.features[s]);
    }
    for s in squares(to_x) {
        rows[0].add(&net.flips[s]);
        rows[1].sub(&net.flips[s]);
    }
    for s in squares(to_o) {
        rows[0].sub(&net.flips[s]);
        rows[1].add(&net.flips[s]);
    }
    for (view, r) in rows.iter().enumerate() {
        (k.combine)(
            &from.views[view],
            &mut to.views[view],
            &r.add[..r.n_add],
            &r.sub[..r.n_sub],
        );
    }
}

/// [`update_with`] for a window net: each window holding a changed square,
/// once, swaps the row of its old state for its new one in both views.
#[allow(clippy::too_many_arguments)]
#[inline]
fn update_windows(
    net: &Net,
    px: u64,
    po: u64,
    from: &Accumulator,
    x: u64,
    o: u64,
    to: &mut Accumulator,
    k: Kernels,
) {
    let touched = squares((x ^ px) | (o ^ po)).fold(0u64, |t, s| t | WINDOWS_OF[s]);
    if touched.count_ones() as usize > MAX_ROWS {
        refresh_with(net, x, o, to, k);
        return;
    }
    let mut rows = [Rows::new(&net.bias), Rows::new(&net.bias)];
    for w in squares(touched) {
        rows[0].sub(&net.features[window_input(px, po, w)]);
        rows[0].add(&net.features[window_input(x, o, w)]);
        rows[1].sub(&net.features[window_input(po, px, w)]);
        rows[1].add(&net.features[window_input(o, x, w)]);
    }
    for (view, r) in rows.iter().enumerate() {
        (k.combine)(
            &from.views[view],
            &mut to.views[view],
            &r.add[..r.n_add],
            &r.sub[..r.n_sub],
        );
    }
}

/// The score for the side to move (`stm`: 0 X, 1 O) of a board with
/// `occupied` pieces whose accumulators are `acc`.
#[inline]
pub fn evaluate(acc: &Accumulator, stm: usize, occupied: u32) -> i32 {
    evaluate_with(net(), acc, stm, occupied, kernels::best())
}

#[inline]
fn evaluate_with(net: &Net, acc: &Accumulator, stm: usize, occupied: u32, k: Kernels) -> i32 {
    let b = net.bucket(occupied);
    let sum = (k.output)(&acc.views[stm], &acc.views[1 - stm], &net.out[b]);
    let raw = (sum / QA) as i64 + net.out_bias[b] as i64;
    let score = raw * SCALE as i64 / (QA * QB) as i64;
    score.clamp(-(MAX_SCORE as i64), MAX_SCORE as i64) as i32
}

/// The net's scores stay inside this, far from proven wins and losses.
pub const MAX_SCORE: i32 = 20_000;

/// The score of a board from scratch (no accumulator kept): X's pieces
/// `x`, O's `o`, side to move `stm` (0 X, 1 O).
pub fn evaluate_board(x: u64, o: u64, stm: usize) -> i32 {
    let mut acc = Accumulator::default();
    refresh(x, o, &mut acc);
    evaluate(&acc, stm, (x | o).count_ones())
}

/// The arithmetic kernels: adding rows to an accumulator and the output
/// layer, one set per instruction set.
#[derive(Clone, Copy)]
pub struct Kernels {
    /// `dst = src + Σ add − Σ sub`, lane by lane, wrapping.
    pub combine: fn(&Row, &mut Row, &[&Row], &[&Row]),
    /// `Σ v·(v·w)` over the side to move's `v` then the other's, `v` each
    /// accumulator clipped to `[0, QA]`, wrapping in `i32`.
    pub output: fn(&Row, &Row, &[i16; 2 * HIDDEN]) -> i32,
    /// Its name, for tests and the bench.
    pub name: &'static str,
}

pub mod kernels {
    //! The kernels: portable scalar code, AVX2 (x86-64, used when the CPU
    //! has it) and WebAssembly `simd128` (the worker). All compute the same
    //! integers.

    use super::{Kernels, Row, HIDDEN, QA};

    /// The fastest kernels this machine runs.
    #[inline]
    pub fn best() -> Kernels {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                return AVX2;
            }
        }
        #[cfg(target_arch = "wasm32")]
        {
            return SIMD128;
        }
        #[allow(unreachable_code)]
        SCALAR
    }

    /// Plain Rust, one lane at a time (the compiler may still vectorise it
    /// with the target's baseline instructions).
    pub const SCALAR: Kernels = Kernels {
        combine: scalar_combine,
        output: scalar_output,
        name: "scalar",
    };

    fn scalar_combine(src: &Row, dst: &mut Row, add: &[&Row], sub: &[&Row]) {
        *dst = *src;
        for r in add {
            for (d, &w) in dst.iter_mut().zip(r.iter()) {
                *d = d.wrapping_add(w);
            }
        }
        for r in sub {
            for (d, &w) in dst.iter_mut().zip(r.iter()) {
                *d = d.wrapping_sub(w);
            }
        }
    }

    fn scalar_output(us: &Row, them: &Row, w: &[i16; 2 * HIDDEN]) -> i32 {
        let mut sum = 0i32;
        for (view, acc) in [us, them].into_iter().enumerate() {
            for (&a, &wt) in acc.iter().zip(&w[view * HIDDEN..(view + 1) * HIDDEN]) {
                let v = a.clamp(0, QA as i16) as i32;
                // v·w fits an i16 (|w| <= 128), as the SIMD paths compute it.
                let vw = (v * wt as i32) as i16 as i32;
                sum = sum.wrapping_add(v * vw);
            }
        }
        sum
    }

    #[cfg(target_arch = "x86_64")]
    use avx2::AVX2;

    #[cfg(target_arch = "x86_64")]
    mod avx2 {
        use super::super::{Kernels, Row, HIDDEN, QA};
        use std::arch::x86_64::*;

        /// AVX2: sixteen lanes at a time. Private: only [`super::best`]
        /// hands it out, and only when the CPU has AVX2, which makes the
        /// calls below sound.
        pub(super) const AVX2: Kernels = Kernels {
            combine,
            output,
            name: "avx2",
        };

        const LANES: usize = 16;

        fn combine(src: &Row, dst: &mut Row, add: &[&Row], sub: &[&Row]) {
            debug_assert!(std::arch::is_x86_feature_detected!("avx2"));
            // SAFETY: these kernels are only handed out when the CPU has
            // AVX2 (see `AVX2`).
            unsafe { combine_avx2(src, dst, add, sub) }
        }

        #[target_feature(enable = "avx2")]
        unsafe fn combine_avx2(src: &Row, dst: &mut Row, add: &[&Row], sub: &[&Row]) {
            // The whole row in eight registers: each row to add or take
            // away is then walked once, not once per sixteen lanes.
            const GROUP: usize = 8;
            for g in 0..HIDDEN / (LANES * GROUP) {
                let at = g * LANES * GROUP;
                // SAFETY: `at + 16 * GROUP <= HIDDEN`: every load and store
                // is inside its row; unaligned loads need no alignment.
                unsafe {
                    let load = |r: &Row, i: usize| {
                        _mm256_loadu_si256(r.as_ptr().add(at + i * LANES).cast())
                    };
                    let mut v: [__m256i; GROUP] = std::array::from_fn(|i| load(src, i));
                    for r in add {
                        for (i, v) in v.iter_mut().enumerate() {
                            *v = _mm256_add_epi16(*v, load(r, i));
                        }
                    }
                    for r in sub {
                        for (i, v) in v.iter_mut().enumerate() {
                            *v = _mm256_sub_epi16(*v, load(r, i));
                        }
                    }
                    for (i, v) in v.into_iter().enumerate() {
                        _mm256_storeu_si256(dst.as_mut_ptr().add(at + i * LANES).cast(), v);
                    }
                }
            }
        }

        fn output(us: &Row, them: &Row, w: &[i16; 2 * HIDDEN]) -> i32 {
            debug_assert!(std::arch::is_x86_feature_detected!("avx2"));
            // SAFETY: as in `combine`.
            unsafe { output_avx2(us, them, w) }
        }

        #[target_feature(enable = "avx2")]
        unsafe fn output_avx2(us: &Row, them: &Row, w: &[i16; 2 * HIDDEN]) -> i32 {
            let zero = _mm256_setzero_si256();
            let top = _mm256_set1_epi16(QA as i16);
            let mut sum = _mm256_setzero_si256();
            for (view, acc) in [us, them].into_iter().enumerate() {
                for c in 0..HIDDEN / LANES {
                    let at = c * LANES;
                    // SAFETY: inside the rows, as in `combine_avx2`.
                    unsafe {
                        let v = _mm256_loadu_si256(acc.as_ptr().add(at).cast());
                        let v = _mm256_min_epi16(_mm256_max_epi16(v, zero), top);
                        let wt = _mm256_loadu_si256(w.as_ptr().add(view * HIDDEN + at).cast());
                        let vw = _mm256_mullo_epi16(v, wt);
                        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, vw));
                    }
                }
            }
            let mut lanes = [0i32; 8];
            // SAFETY: `lanes` holds eight i32s.
            unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum) };
            lanes.iter().fold(0i32, |a, &b| a.wrapping_add(b))
        }
    }

    #[cfg(target_arch = "wasm32")]
    use simd128::SIMD128;

    #[cfg(target_arch = "wasm32")]
    mod simd128 {
        use super::super::{Kernels, Row, HIDDEN, QA};
        use std::arch::wasm32::*;

        /// WebAssembly `simd128`: eight lanes at a time. Every browser
        /// that runs the app's worker has it (Chrome 91, Firefox 89,
        /// Safari 16.4); only the worker's code uses it.
        pub(super) const SIMD128: Kernels = Kernels {
            combine,
            output,
            name: "simd128",
        };

        const LANES: usize = 8;

        fn combine(src: &Row, dst: &mut Row, add: &[&Row], sub: &[&Row]) {
            // SAFETY: simd128 is part of every engine the worker runs in
            // (see above); the function only reads and writes its rows.
            unsafe { combine_simd(src, dst, add, sub) }
        }

        /// Chunks of eight lanes summed together, half a row at a time:
        /// each row to add or take away is walked twice, not sixteen
        /// times (about 40 % less time in the worker's updates).
        const GROUP: usize = 8;

        #[target_feature(enable = "simd128")]
        unsafe fn combine_simd(src: &Row, dst: &mut Row, add: &[&Row], sub: &[&Row]) {
            for g in 0..HIDDEN / (LANES * GROUP) {
                let at = g * LANES * GROUP;
                // SAFETY: `at + 8 * GROUP <= HIDDEN`: inside every row.
                unsafe {
                    let load = |r: &Row, i: usize| v128_load(r.as_ptr().add(at + i * LANES).cast());
                    let mut v: [v128; GROUP] = std::array::from_fn(|i| load(src, i));
                    for r in add {
                        for (i, v) in v.iter_mut().enumerate() {
                            *v = i16x8_add(*v, load(r, i));
                        }
                    }
                    for r in sub {
                        for (i, v) in v.iter_mut().enumerate() {
                            *v = i16x8_sub(*v, load(r, i));
                        }
                    }
                    for (i, v) in v.into_iter().enumerate() {
                        v128_store(dst.as_mut_ptr().add(at + i * LANES).cast(), v);
                    }
                }
            }
        }

        fn output(us: &Row, them: &Row, w: &[i16; 2 * HIDDEN]) -> i32 {
            // SAFETY: as in `combine`.
            unsafe { output_simd(us, them, w) }
        }

        #[target_feature(enable = "simd128")]
        unsafe fn output_simd(us: &Row, them: &Row, w: &[i16; 2 * HIDDEN]) -> i32 {
            let zero = i16x8_splat(0);
            let top = i16x8_splat(QA as i16);
            let mut sum = i32x4_splat(0);
            for (view, acc) in [us, them].into_iter().enumerate() {
                for c in 0..HIDDEN / LANES {
                    let at = c * LANES;
                    // SAFETY: inside the rows, as in `combine_simd`.
                    unsafe {
                        let v = v128_load(acc.as_ptr().add(at).cast());
                        let v = i16x8_min(i16x8_max(v, zero), top);
                        let wt = v128_load(w.as_ptr().add(view * HIDDEN + at).cast());
                        let vw = i16x8_mul(v, wt);
                        sum = i32x4_add(sum, i32x4_dot_i16x8(v, vw));
                    }
                }
            }
            i32x4_extract_lane::<0>(sum)
                .wrapping_add(i32x4_extract_lane::<1>(sum))
                .wrapping_add(i32x4_extract_lane::<2>(sum))
                .wrapping_add(i32x4_extract_lane::<3>(sum))
        }
    }
}

/// For tests: the score of board `(x, o)` with every kernel set this
/// machine has, through a refresh and through updates along `path` (a
/// list of boards ending at `(x, o)`): each set's scores, which must all
/// be equal.
pub fn scores_by_kernels(path: &[(u64, u64)], stm: usize) -> Vec<(&'static str, i32, i32)> {
    scores_by_kernels_with(net(), path, stm)
}

/// [`scores_by_kernels`] with the net `net`.
pub fn scores_by_kernels_with(
    net: &Net,
    path: &[(u64, u64)],
    stm: usize,
) -> Vec<(&'static str, i32, i32)> {
    let mut sets = vec![kernels::SCALAR];
    let best = kernels::best();
    if best.name != "scalar" {
        sets.push(best);
    }
    let (x, o) = *path.last().expect("a path of at least one board");
    sets.into_iter()
        .map(|k| {
            let mut fresh = Accumulator::default();
            refresh_with(net, x, o, &mut fresh, k);
            let (mut px, mut po) = path[0];
            let mut acc = Accumulator::default();
            refresh_with(net, px, po, &mut acc, k);
            for &(nx, no) in &path[1..] {
                let mut next = Accumulator::default();
                update_with(net, px, po, &acc, nx, no, &mut next, k);
                acc = next;
                (px, po) = (nx, no);
            }
            let occupied = (x | o).count_ones();
            (
                k.name,
                evaluate_with(net, &fresh, stm, occupied, k),
                evaluate_with(net, &acc, stm, occupied, k),
            )
        })
        .collect()
}

/// For tests: a valid net file of random weights (seeded) reading
/// `inputs`, with `buckets` output buckets; its hidden sums spread over
/// the whole clipped range and beyond, so every kernel's clipping and
/// wrapping is exercised.
pub fn random_net_file(inputs: Inputs, buckets: usize, seed: u64) -> Vec<u8> {
    let mut rng = crate::ai::SplitMix64::new(seed);
    let mut small = |a: usize| (rng.below(2 * a + 1) as i32 - a as i32) as i16;
    let mut b = MAGIC.to_vec();
    for v in [inputs.count(), HIDDEN, buckets, 0] {
        b.extend_from_slice(&(v as u16).to_le_bytes());
    }
    let spread = match inputs {
        Inputs::Pieces => 90,
        Inputs::Windows => 120,
    };
    for _ in 0..(inputs.count() + 1) * HIDDEN {
        b.extend_from_slice(&small(spread).to_le_bytes());
    }
    for _ in 0..buckets * 2 * HIDDEN {
        b.extend_from_slice(&small(MAX_OUT_WEIGHT as usize).to_le_bytes());
    }
    for _ in 0..buckets {
        b.extend_from_slice(&(small(30_000) as i32 * 50).to_le_bytes());
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::SplitMix64;
    use crate::games::ataxx::Ataxx;
    use crate::games::{Game, Side};

    /// Boards along random games from the start, X's and O's pieces.
    fn random_games(games: usize, seed: u64) -> Vec<Vec<(u64, u64, usize)>> {
        let mut rng = SplitMix64::new(seed);
        (0..games)
            .map(|_| {
                let mut pos = Ataxx::default();
                let mut path = Vec::new();
                while pos.outcome().is_none() && path.len() < 200 {
                    let stm = pos.side_to_move().index();
                    path.push((pos.pieces_bb(Side::First), pos.pieces_bb(Side::Second), stm));
                    let moves = pos.legal_moves();
                    pos.play_unchecked(moves[rng.below(moves.len())]);
                }
                path
            })
            .collect()
    }

    /// The committed net and random nets of both encodings.
    fn nets() -> Vec<(String, Box<Net>)> {
        let mut nets = vec![("committed".to_string(), Net::from_bytes(FILE).unwrap())];
        for (inputs, seed) in [
            (Inputs::Pieces, 1),
            (Inputs::Windows, 2),
            (Inputs::Windows, 3),
        ] {
            let net = Net::from_bytes(&random_net_file(inputs, 4, seed)).unwrap();
            assert_eq!(net.inputs(), inputs);
            nets.push((format!("random {inputs:?} {seed}"), net));
        }
        nets
    }

    /// Along random games, the accumulators updated move by move give the
    /// score a refresh gives, and every kernel set this machine has (AVX2
    /// natively where the CPU has it, `simd128` in WebAssembly, scalar)
    /// gives the same numbers, for nets of both encodings.
    #[test]
    fn updates_refreshes_and_every_kernel_set_agree() {
        for (name, net) in nets() {
            updates_refreshes_and_kernels_agree_with(&name, &net);
        }
    }

    fn updates_refreshes_and_kernels_agree_with(net_name: &str, net: &Net) {
        let mut checked = 0;
        let mut distinct = std::collections::HashSet::new();
        for game in random_games(12, 7) {
            for end in 1..=game.len() {
                let path: Vec<(u64, u64)> = game[..end].iter().map(|&(x, o, _)| (x, o)).collect();
                let stm = game[end - 1].2;
                let scores = scores_by_kernels_with(net, &path, stm);
                let (_, want, _) = scores[0];
                for &(name, fresh, updated) in &scores {
                    assert_eq!(
                        (fresh, updated),
                        (want, want),
                        "{net_name}: {name} at ply {end}"
                    );
                }
                distinct.insert(want);
                checked += 1;
            }
        }
        assert!(checked > 500, "{checked}");
        assert!(
            distinct.len() > 50,
            "{net_name}: the net scores boards differently"
        );
    }

    /// A jump between unrelated boards and a pass (the same board) update
    /// as well as a move does.
    #[test]
    fn an_update_between_any_two_boards_equals_a_refresh() {
        let mut rng = SplitMix64::new(3);
        let random_board = |rng: &mut SplitMix64| {
            let (mut x, mut o) = (0u64, 0u64);
            for sq in 0..49 {
                match rng.below(3) {
                    1 => x |= 1 << sq,
                    2 => o |= 1 << sq,
                    _ => {}
                }
            }
            (x, o)
        };
        let nets = nets();
        for _ in 0..200 {
            let (px, po) = random_board(&mut rng);
            let (x, o) = match rng.below(4) {
                0 => (px, po),
                // One square changed (few windows touched: an update).
                1 => {
                    let sq = 1u64 << rng.below(49);
                    ((px ^ sq) & !po, po & !sq)
                }
                _ => random_board(&mut rng),
            };
            for (net_name, net) in &nets {
                for stm in 0..2 {
                    let scores = scores_by_kernels_with(net, &[(px, po), (x, o)], stm);
                    for &(name, fresh, updated) in &scores {
                        assert_eq!(fresh, updated, "{net_name}: {name}");
                    }
                }
            }
        }
    }

    /// A position and its colour-swapped twin (X's pieces O's and the
    /// other side to move) score the same: both perspectives share the
    /// weights.
    #[test]
    fn the_colours_swapped_score_the_same() {
        for (name, net) in nets() {
            let k = kernels::best();
            let score = |x: u64, o: u64, stm: usize| {
                let mut acc = Accumulator::default();
                refresh_with(&net, x, o, &mut acc, k);
                evaluate_with(&net, &acc, stm, (x | o).count_ones(), k)
            };
            for game in random_games(4, 11) {
                for &(x, o, stm) in &game {
                    assert_eq!(score(x, o, stm), score(o, x, 1 - stm), "{name}");
                }
            }
        }
    }

    /// A window's input, square by square: digit 1 for own, 2 for other,
    /// in the order top-left, top-right, bottom-left, bottom-right.
    #[test]
    fn window_inputs_read_their_four_squares() {
        let mut rng = SplitMix64::new(5);
        for _ in 0..300 {
            let (mut own, mut other) = (0u64, 0u64);
            for sq in 0..SQUARES {
                match rng.below(3) {
                    1 => own |= 1 << sq,
                    2 => other |= 1 << sq,
                    _ => {}
                }
            }
            let mut seen = Vec::new();
            Inputs::Windows.for_each_active(own, other, |i| seen.push(i));
            assert_eq!(seen.len(), WINDOWS);
            for (w, &input) in seen.iter().enumerate() {
                let (r, c) = (w / 6, w % 6);
                let squares = [
                    r * 7 + c,
                    r * 7 + c + 1,
                    (r + 1) * 7 + c,
                    (r + 1) * 7 + c + 1,
                ];
                let mut want = w * WINDOW_STATES;
                for (k, sq) in squares.into_iter().enumerate() {
                    let digit = if own >> sq & 1 == 1 {
                        1
                    } else if other >> sq & 1 == 1 {
                        2
                    } else {
                        0
                    };
                    want += digit * 3usize.pow(k as u32);
                }
                assert_eq!(input, want, "window {w}");
            }
        }
        // Every square is in one to four windows, 144 memberships in all.
        let total: u32 = WINDOWS_OF.iter().map(|w| w.count_ones()).sum();
        assert_eq!(total, 4 * WINDOWS as u32);
        assert_eq!(WINDOWS_OF[0].count_ones(), 1);
        assert_eq!(WINDOWS_OF[24].count_ones(), 4);
    }

    /// A window net file is checked as a piece net's is: its size, and no
    /// board may overflow the accumulator.
    #[test]
    fn a_window_net_file_is_checked_when_read() {
        let good = random_net_file(Inputs::Windows, 2, 9);
        assert_eq!(good.len(), file_bytes(WINDOW_INPUTS, HIDDEN, 2));
        assert!(Net::from_bytes(&good).is_ok());
        assert!(Net::from_bytes(&good[..good.len() - 2])
            .err()
            .unwrap()
            .contains("bytes"));
        // Unit 7: 1000 in one state of every window reaches 36,000 plus
        // the bias.
        let mut big = good.clone();
        for w in 0..WINDOWS {
            let at = HEADER_BYTES + 2 * ((w * WINDOW_STATES + 40) * HIDDEN + 7);
            big[at..at + 2].copy_from_slice(&1000i16.to_le_bytes());
        }
        assert!(Net::from_bytes(&big)
            .err()
            .unwrap()
            .contains("hidden unit 7 can reach"));
        let mut count = good.clone();
        count[8..10].copy_from_slice(&2915u16.to_le_bytes());
        assert!(Net::from_bytes(&count)
            .err()
            .unwrap()
            .contains("2915 inputs"));
    }

    fn header(hidden: u16, buckets: u16) -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        for v in [PIECE_INPUTS as u16, hidden, buckets, 0] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b
    }

    #[test]
    fn a_net_file_is_checked_when_read() {
        let good = {
            let mut b = header(HIDDEN as u16, 2);
            b.resize(file_bytes(PIECE_INPUTS, HIDDEN, 2), 0);
            b
        };
        assert!(Net::from_bytes(&good).is_ok());
        assert!(Net::from_bytes(&good[..good.len() - 1])
            .err()
            .unwrap()
            .contains("bytes"));
        let mut wrong = good.clone();
        wrong[0] = b'X';
        assert!(Net::from_bytes(&wrong)
            .err()
            .unwrap()
            .contains("not a Territory Duel net"));
        let mut buckets = good.clone();
        buckets[12] = 9;
        assert!(Net::from_bytes(&buckets)
            .err()
            .unwrap()
            .contains("output buckets"));
        // Input weights that a full board could add past i16::MAX.
        let mut big = good.clone();
        for s in 0..SQUARES {
            let at = HEADER_BYTES + 2 * (s * HIDDEN + 5);
            big[at..at + 2].copy_from_slice(&700i16.to_le_bytes());
        }
        assert!(Net::from_bytes(&big)
            .err()
            .unwrap()
            .contains("hidden unit 5 can reach 34300"));
        // An output weight whose product with 255 leaves the i16.
        let mut out = good.clone();
        let at = HEADER_BYTES + 2 * (PIECE_INPUTS * HIDDEN + HIDDEN + 3);
        out[at..at + 2].copy_from_slice(&129i16.to_le_bytes());
        assert!(Net::from_bytes(&out)
            .err()
            .unwrap()
            .contains("output weight is 129"));
    }

    #[test]
    fn the_committed_net_reads_and_uses_every_bucket_it_has() {
        let net = Net::from_bytes(FILE).unwrap();
        let buckets: std::collections::BTreeSet<usize> = (0..=49).map(|n| net.bucket(n)).collect();
        assert_eq!(buckets.len(), net.buckets);
    }
}
