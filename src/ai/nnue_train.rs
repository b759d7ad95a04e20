//! `engine nnue-train`: trains Territory Duel's network
//! ([`super::eval::nnue`]) on `engine datagen` positions.
//!
//! The model is the network in `f32`: 98 inputs per perspective (a square
//! × whose piece) or 2916 (a 2×2 window × its 81 states, `--inputs
//! windows`; see [`nnue::Inputs`]), `hidden` units, SCReLU, one output per piece-count bucket. Its output times
//! [`nnue::SCALE`] is the score; `sigmoid(score / K)` is read as the side
//! to move's expected result, and each position's target mixes its search
//! score and its game's result: `lambda · sigmoid(search / K) + (1 −
//! lambda) · result` (`K` fitted to the data as `engine train` does). The
//! loss is the squared error of the two, minimised with Adam over shuffled
//! mini-batches, the step size falling from `lr` to `lr / 20` along a
//! cosine. The rules do not notice the board's eight symmetries (turns and
//! mirrors): by default (`tied`) each free hidden unit is copied eight
//! times, once per symmetry, so the score is exactly the same for a
//! position and its mirror images and every position trains all eight
//! copies; an untied net instead sees each position in a random symmetry
//! on every pass. Weights are clipped ([`CLIP`], [`OUT_CLIP`]) so that the
//! quantised net's accumulators and products fit their integers (see
//! [`nnue`]).
//!
//! A batch is cut into [`CHUNKS`] fixed slices whose gradients are summed
//! in order, whatever the number of threads: a run is reproducible from
//! its seed on any machine and any `--threads`. The hot loops are the
//! same code compiled twice, plainly and for AVX2 (picked at run time);
//! neither uses fused multiply-adds, so both give the same floats.

use super::eval::nnue;
use super::eval::nnue::{Inputs, SYMMETRIES};
use super::train::fit_scale_pairs;
use super::SplitMix64;
use crate::games::ataxx::board::SQUARES;
use crate::games::ataxx::{Ataxx, AtaxxRules};
use crate::games::Game;

/// Slices of a batch, each with its own gradient, summed in order.
pub const CHUNKS: usize = 16;
/// The largest |feature weight| and |bias|: quantised, 1.98 · 255 = 505
/// per input keeps every board's accumulator inside an `i16`.
pub const CLIP: f32 = 1.98;
/// The largest |output weight|: quantised, 127/256 · 256 = 127 keeps the
/// output products `v · w` (v <= 255) inside an `i16`.
pub const OUT_CLIP: f32 = 127.0 / nnue::QB as f32;

/// One training position, from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetSample {
    /// The side to move's pieces.
    pub mine: u64,
    /// The other side's pieces.
    pub theirs: u64,
    /// The search score for the side to move.
    pub score: i16,
    /// The game's result for the side to move in halves: 0, 1 or 2.
    pub result: u8,
}

/// Reads `engine datagen` lines (`FEN<TAB>score<TAB>result`, `#` lines
/// skipped) into `out`; positions with gaps are skipped (the net is for
/// the open board). Returns the number of positions read. An unreadable
/// line is an error naming it.
pub fn read_samples(text: &str, out: &mut Vec<NetSample>) -> Result<usize, String> {
    let rules = AtaxxRules::default();
    let before = out.len();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let bad = |why: &str| format!("line {}: {why}: '{line}'", n + 1);
        let mut fields = line.split('\t');
        let (Some(fen), Some(score), Some(result), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(bad("expected FEN, score and result separated by tabs"));
        };
        let pos = Ataxx::from_text(fen, &rules).map_err(|e| bad(&e.to_string()))?;
        let score: i32 = score
            .parse()
            .map_err(|_| bad("the score is not a whole number"))?;
        let result = match result {
            "1" => 2,
            "0.5" => 1,
            "0" => 0,
            _ => return Err(bad("the result is not 1, 0.5 or 0")),
        };
        if pos.gaps_bb() != 0 {
            continue;
        }
        let us = pos.side_to_move();
        out.push(NetSample {
            mine: pos.pieces_bb(us),
            theirs: pos.pieces_bb(us.opponent()),
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            result,
        });
    }
    Ok(out.len() - before)
}

/// Where each part of the flat parameter vector lies. A tied net has
/// `hidden` free units, each copied eight times in the file, once per
/// symmetry of the board (see [`FloatNet::quantised`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// What the net reads.
    pub inputs: Inputs,
    /// Free hidden units per perspective.
    pub hidden: usize,
    pub buckets: usize,
    /// Whether each unit is copied under the eight symmetries.
    pub tied: bool,
}

impl Layout {
    /// Copies of each free unit: 8 when tied, else 1.
    fn copies(&self) -> usize {
        if self.tied {
            8
        } else {
            1
        }
    }
    /// The hidden units per perspective the engine computes.
    pub fn units(&self) -> usize {
        self.hidden * self.copies()
    }
    /// Feature weights: one row of `hidden` per input.
    fn ft(&self) -> usize {
        0
    }
    fn bias(&self) -> usize {
        self.inputs.count() * self.hidden
    }
    /// Output weights: `buckets` rows of `2 · hidden`.
    fn out(&self) -> usize {
        self.bias() + self.hidden
    }
    fn out_bias(&self) -> usize {
        self.out() + self.buckets * 2 * self.hidden
    }
    /// The number of parameters.
    pub fn len(&self) -> usize {
        self.out_bias() + self.buckets
    }
    /// Whether there are none (never: a net has at least its biases).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The bucket of a board with `occupied` pieces (as [`nnue`] picks it).
    fn bucket(&self, occupied: u32) -> usize {
        (occupied as usize * self.buckets / 50).min(self.buckets - 1)
    }
}

/// A network in floating point.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub layout: Layout,
    pub params: Vec<f32>,
}

impl FloatNet {
    /// Small random weights (seeded): the feature weights uniform in
    /// ±0.17 (a board's few dozen active inputs then spread the hidden sums
    /// over about ±1, where SCReLU bends), the output weights uniform in
    /// ±1/√(2·units), the biases 0.
    pub fn random(layout: Layout, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let mut params = vec![0f32; layout.len()];
        let mut uniform = |a: f64| ((rng.next_f64() * 2.0 - 1.0) * a) as f32;
        for w in &mut params[layout.ft()..layout.bias()] {
            *w = uniform(0.17);
        }
        let a = 1.0 / ((2 * layout.units()) as f64).sqrt();
        for w in &mut params[layout.out()..layout.out_bias()] {
            *w = uniform(a);
        }
        FloatNet { layout, params }
    }

    /// A net read back from its file (what [`FloatNet::quantised`] wrote):
    /// each integer divided by its quantisation step. The start of a run
    /// that goes on from an earlier net (`engine nnue-train --init`).
    pub fn from_file(bytes: &[u8]) -> Result<Self, String> {
        let nnue::FileHeader {
            inputs,
            hidden,
            buckets,
            tied,
        } = nnue::FileHeader::read(bytes)?;
        let count = inputs.count();
        if hidden == 0 {
            return Err("a net file with no hidden units".into());
        }
        let layout = Layout {
            inputs,
            hidden,
            buckets,
            tied,
        };
        let mut params = Vec::with_capacity(layout.len());
        let mut at = nnue::HEADER_BYTES;
        let mut i16s = |n: usize, step: i32, params: &mut Vec<f32>| {
            for _ in 0..n {
                let v = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
                params.push(v as f32 / step as f32);
                at += 2;
            }
        };
        i16s(count * hidden + hidden, nnue::QA, &mut params);
        i16s(buckets * 2 * hidden, nnue::QB, &mut params);
        let tail = &bytes[bytes.len() - 4 * buckets..];
        for b in tail.chunks_exact(4) {
            let v = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            params.push(v as f32 / (nnue::QA * nnue::QB) as f32);
        }
        debug_assert_eq!(params.len(), layout.len());
        Ok(FloatNet { layout, params })
    }

    /// The score (in [`nnue::SCALE`] units, not yet scaled) of a position.
    pub fn forward(&self, mine: u64, theirs: u64) -> f32 {
        let mut scratch = Scratch::new(self.layout);
        forward(&self.params, self.layout, mine, theirs, 0, &mut scratch)
    }

    /// The file `engine nnue-train` writes and the engine reads: see
    /// [`nnue::Net::from_bytes`]. A tied net's file holds its free units
    /// only (copies field 8, an eighth of the size: 187 KB instead of 1.5
    /// MB with window inputs); as the engine reads it, free unit `j`
    /// becomes the units `g · hidden + j` (`g` = 0..8), unit `g · hidden +
    /// j` reading the board turned by symmetry `g`: its weight for input
    /// `i` is the free unit's weight for `i` turned by `g`. Turning the
    /// board then only permutes the units, so the quantised score is
    /// exactly the same for a position and its seven mirror images.
    pub fn quantised(&self) -> Vec<u8> {
        let l = self.layout;
        let m = l.hidden;
        let p = &self.params;
        let mut out = nnue::MAGIC.to_vec();
        let copies = if l.tied { 8 } else { 0 };
        for v in [l.inputs.count(), m, l.buckets, copies] {
            out.extend_from_slice(&(v as u16).to_le_bytes());
        }
        let q16 = |x: f32, scale: i32, limit: i32| -> [u8; 2] {
            let v = (x as f64 * scale as f64).round() as i32;
            (v.clamp(-limit, limit) as i16).to_le_bytes()
        };
        let limit = i16::MAX as i32;
        for &w in &p[l.ft()..l.bias()] {
            out.extend_from_slice(&q16(w, nnue::QA, limit));
        }
        for &w in &p[l.bias()..l.out()] {
            out.extend_from_slice(&q16(w, nnue::QA, limit));
        }
        for &w in &p[l.out()..l.out_bias()] {
            out.extend_from_slice(&q16(w, nnue::QB, nnue::MAX_OUT_WEIGHT));
        }
        for &w in &p[l.out_bias()..] {
            let v = (w as f64 * (nnue::QA * nnue::QB) as f64).round() as i32;
            out.extend_from_slice(&v.to_le_bytes());
        }
        debug_assert_eq!(out.len(), nnue::file_bytes(l.inputs.count(), m, l.buckets));
        out
    }
}

/// The board `bb` turned by symmetry `map`.
#[inline(always)]
fn turn_board(mut bb: u64, map: &[u8; SQUARES]) -> u64 {
    let mut out = 0u64;
    while bb != 0 {
        out |= 1 << map[bb.trailing_zeros() as usize];
        bb &= bb - 1;
    }
    out
}

/// Working space for one position: per perspective the hidden sums of
/// every copy (copy `c` at `c · hidden`), their gradients, and each
/// copy's active inputs.
struct Scratch {
    acc: [Vec<f32>; 2],
    grad: [Vec<f32>; 2],
    features: Vec<[Vec<usize>; 2]>,
}

impl Scratch {
    fn new(l: Layout) -> Self {
        let n = l.units();
        Scratch {
            acc: [vec![0.0; n], vec![0.0; n]],
            grad: [vec![0.0; n], vec![0.0; n]],
            features: (0..l.copies())
                .map(|_| [Vec::with_capacity(SQUARES), Vec::with_capacity(SQUARES)])
                .collect(),
        }
    }
}

#[inline(always)]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// `Σ screlu(a)·b` in eight interleaved partial sums added up in a fixed
/// order: the same floats whatever the vector width.
#[inline(always)]
fn dot_screlu(acc: &[f32], w: &[f32]) -> f32 {
    let mut part = [0f32; 8];
    for (a, b) in acc.chunks_exact(8).zip(w.chunks_exact(8)) {
        for i in 0..8 {
            part[i] += screlu(a[i]) * b[i];
        }
    }
    ((part[0] + part[1]) + (part[2] + part[3])) + ((part[4] + part[5]) + (part[6] + part[7]))
}

/// The side to move's and the other side's active inputs of a position
/// seen in symmetry `sym`.
#[inline(always)]
fn active(inputs: Inputs, mine: u64, theirs: u64, sym: usize, features: &mut [Vec<usize>; 2]) {
    let map = &SYMMETRIES[sym];
    let [us, them] = features;
    us.clear();
    them.clear();
    if inputs == Inputs::Windows {
        let (mine, theirs) = (turn_board(mine, map), turn_board(theirs, map));
        inputs.for_each_active(mine, theirs, |i| us.push(i));
        inputs.for_each_active(theirs, mine, |i| them.push(i));
        return;
    }
    let mut bb = mine;
    while bb != 0 {
        let s = map[bb.trailing_zeros() as usize] as usize;
        bb &= bb - 1;
        us.push(s);
        them.push(SQUARES + s);
    }
    let mut bb = theirs;
    while bb != 0 {
        let s = map[bb.trailing_zeros() as usize] as usize;
        bb &= bb - 1;
        us.push(SQUARES + s);
        them.push(s);
    }
}

/// The output of the net `p` for a position seen in symmetry `sym` (a
/// tied net sees all eight; fills the hidden sums in `s`).
#[inline(always)]
fn forward(p: &[f32], l: Layout, mine: u64, theirs: u64, sym: usize, s: &mut Scratch) -> f32 {
    let m = l.hidden;
    let bias = &p[l.bias()..l.bias() + m];
    for c in 0..l.copies() {
        let g = if l.tied { c } else { sym };
        active(l.inputs, mine, theirs, g, &mut s.features[c]);
        for view in 0..2 {
            let acc = &mut s.acc[view][c * m..(c + 1) * m];
            acc.copy_from_slice(bias);
            for &f in &s.features[c][view] {
                let row = &p[f * m..(f + 1) * m];
                for (a, &w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            }
        }
    }
    let b = l.bucket((mine | theirs).count_ones());
    let out = &p[l.out() + b * 2 * m..l.out() + (b + 1) * 2 * m];
    let mut y = p[l.out_bias() + b];
    for view in 0..2 {
        for c in 0..l.copies() {
            y += dot_screlu(
                &s.acc[view][c * m..(c + 1) * m],
                &out[view * m..(view + 1) * m],
            );
        }
    }
    y
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What the loss needs besides the net.
#[derive(Clone, Copy, Debug)]
struct Target {
    /// `SCALE / K`: the output's logit per unit.
    gain: f32,
    /// `1 / K`: the search score's logit per point.
    inv_k: f32,
    lambda: f32,
}

impl Target {
    fn of(&self, s: &NetSample) -> f32 {
        self.lambda * sigmoid(s.score as f32 * self.inv_k)
            + (1.0 - self.lambda) * s.result as f32 * 0.5
    }
}

/// Adds the gradient of the loss over `samples` (each seen in symmetry
/// `syms[i]`) to `grad`; returns the summed loss.
#[inline(always)]
fn chunk_gradient(
    p: &[f32],
    l: Layout,
    samples: &[NetSample],
    syms: &[u8],
    t: Target,
    grad: &mut [f32],
    s: &mut Scratch,
) -> f64 {
    let m = l.hidden;
    let mut loss = 0f64;
    for (sample, &sym) in samples.iter().zip(syms) {
        let y = forward(p, l, sample.mine, sample.theirs, sym as usize, s);
        let prob = sigmoid(y * t.gain);
        let diff = prob - t.of(sample);
        loss += (diff * diff) as f64;
        let dy = 2.0 * diff * prob * (1.0 - prob) * t.gain;
        let b = l.bucket((sample.mine | sample.theirs).count_ones());
        let out_at = l.out() + b * 2 * m;
        grad[l.out_bias() + b] += dy;
        for view in 0..2 {
            let w = &p[out_at + view * m..out_at + (view + 1) * m];
            for c in 0..l.copies() {
                let acc = &s.acc[view][c * m..(c + 1) * m];
                let g_acc = &mut s.grad[view][c * m..(c + 1) * m];
                let g_out = &mut grad[out_at + view * m..out_at + (view + 1) * m];
                for i in 0..m {
                    let a = acc[i];
                    g_out[i] += dy * screlu(a);
                    g_acc[i] = if a > 0.0 && a < 1.0 {
                        dy * w[i] * 2.0 * a
                    } else {
                        0.0
                    };
                }
            }
        }
        let (g_ft, rest) = grad.split_at_mut(l.bias());
        let g_bias = &mut rest[..m];
        for view in 0..2 {
            for c in 0..l.copies() {
                let g_acc = &s.grad[view][c * m..(c + 1) * m];
                for (g, &d) in g_bias.iter_mut().zip(g_acc) {
                    *g += d;
                }
                for &f in &s.features[c][view] {
                    for (g, &d) in g_ft[f * m..(f + 1) * m].iter_mut().zip(g_acc) {
                        *g += d;
                    }
                }
            }
        }
    }
    loss
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn chunk_gradient_avx2(
    p: &[f32],
    l: Layout,
    samples: &[NetSample],
    syms: &[u8],
    t: Target,
    grad: &mut [f32],
    s: &mut Scratch,
) -> f64 {
    chunk_gradient(p, l, samples, syms, t, grad, s)
}

/// [`chunk_gradient`], with AVX2 where the CPU has it (the same floats).
fn chunk_gradient_best(
    p: &[f32],
    l: Layout,
    samples: &[NetSample],
    syms: &[u8],
    t: Target,
    grad: &mut [f32],
    s: &mut Scratch,
) -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            return unsafe { chunk_gradient_avx2(p, l, samples, syms, t, grad, s) };
        }
    }
    chunk_gradient(p, l, samples, syms, t, grad, s)
}

/// How a training run goes.
#[derive(Clone, Copy, Debug)]
pub struct NetConfig {
    /// What the net reads.
    pub inputs: Inputs,
    /// Free hidden units per perspective (the engine computes eight times
    /// as many when `tied`).
    pub hidden: usize,
    /// Whether each unit is copied under the board's eight symmetries, so
    /// that the score is exactly the same for mirror images.
    pub tied: bool,
    pub buckets: usize,
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per mini-batch.
    pub batch: usize,
    /// Adam's first step size; the last is `lr / 20`.
    pub lr: f64,
    /// Share of the search score in the target (the rest is the result).
    pub lambda: f64,
    /// The score scale `K`; `None` fits it to the data.
    pub scale: Option<f64>,
    /// Share of positions held out (from the end: the latest games).
    pub validation: f64,
    /// Whether each pass sees every position in a random symmetry (a tied
    /// net sees all eight at once).
    pub symmetries: bool,
    pub threads: usize,
    pub seed: u64,
}

impl Default for NetConfig {
    fn default() -> Self {
        NetConfig {
            inputs: Inputs::Pieces,
            hidden: nnue::HIDDEN / 8,
            tied: true,
            buckets: 4,
            epochs: 30,
            batch: 16_384,
            lr: 0.001,
            lambda: 0.5,
            scale: None,
            validation: 0.02,
            symmetries: true,
            threads: 1,
            seed: 1,
        }
    }
}

/// One pass's figures.
#[derive(Clone, Copy, Debug)]
pub struct NetEpoch {
    pub epoch: u32,
    pub train_loss: f64,
    pub validation_loss: f64,
    /// The held-out loss against the game results alone (`lambda` = 0),
    /// comparable between runs with different `lambda`.
    pub result_loss: f64,
}

/// What a run made.
#[derive(Clone, Debug)]
pub struct TrainedNet {
    pub net: FloatNet,
    pub scale: f64,
    pub train: usize,
    pub validation: usize,
}

/// The mean loss of `net` over `samples` (identity symmetry).
pub fn mean_loss(net: &FloatNet, samples: &[NetSample], lambda: f64, scale: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let t = Target {
        gain: nnue::SCALE as f32 / scale as f32,
        inv_k: 1.0 / scale as f32,
        lambda: lambda as f32,
    };
    let mut s = Scratch::new(net.layout);
    let mut sum = 0f64;
    for sample in samples {
        let y = forward(
            &net.params,
            net.layout,
            sample.mine,
            sample.theirs,
            0,
            &mut s,
        );
        let d = sigmoid(y * t.gain) - t.of(sample);
        sum += (d * d) as f64;
    }
    sum / samples.len() as f64
}

/// The mean loss over `samples` of another evaluation `score` (in score
/// units, from the side to move), with the same target: the pattern
/// tables' loss, to compare the net with on the same held-out positions.
pub fn mean_loss_of(
    samples: &[NetSample],
    lambda: f64,
    scale: f64,
    score: impl Fn(u64, u64) -> i32,
) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let t = Target {
        gain: nnue::SCALE as f32 / scale as f32,
        inv_k: 1.0 / scale as f32,
        lambda: lambda as f32,
    };
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let d = sigmoid(score(s.mine, s.theirs) as f32 * t.inv_k) - t.of(s);
            (d * d) as f64
        })
        .sum();
    sum / samples.len() as f64
}

/// Trains a net on `samples` (file order: the last `cfg.validation`
/// share is held out; the rest is shuffled in place).
///
/// With `init` the run starts from that net (of the same shape) instead
/// of random weights: a new generation fine-tuned from the one before.
pub fn train(
    samples: &mut [NetSample],
    cfg: &NetConfig,
    init: Option<&FloatNet>,
    report: &mut dyn FnMut(NetEpoch),
) -> TrainedNet {
    let layout = Layout {
        inputs: cfg.inputs,
        hidden: cfg.hidden,
        buckets: cfg.buckets,
        tied: cfg.tied,
    };
    assert!(
        layout.hidden.is_multiple_of(8) && (1..=nnue::MAX_BUCKETS).contains(&layout.buckets),
        "hidden units a multiple of 8, 1 to {} buckets",
        nnue::MAX_BUCKETS
    );
    let held = ((samples.len() as f64 * cfg.validation) as usize).min(samples.len());
    let split = samples.len() - held;
    let scale = cfg.scale.unwrap_or_else(|| {
        let pairs: Vec<(i32, f32)> = samples
            .iter()
            .map(|s| (s.score as i32, s.result as f32 * 0.5))
            .collect();
        fit_scale_pairs(&pairs)
    });
    let (train_set, validation) = samples.split_at_mut(split);
    let t = Target {
        gain: nnue::SCALE as f32 / scale as f32,
        inv_k: 1.0 / scale as f32,
        lambda: cfg.lambda as f32,
    };
    let mut net = match init {
        Some(start) => {
            assert_eq!(start.layout, layout, "the starting net has another shape");
            start.clone()
        }
        None => FloatNet::random(layout, cfg.seed),
    };
    let n = layout.len();
    let mut m = vec![0f32; n];
    let mut v = vec![0f32; n];
    let mut grads: Vec<Vec<f32>> = (0..CHUNKS).map(|_| vec![0f32; n]).collect();
    let mut losses = [0f64; CHUNKS];
    let mut rng = SplitMix64::new(cfg.seed ^ 0x5EED_D47A);
    let batch = cfg.batch.max(CHUNKS);
    let batches_per_epoch = train_set.len().div_ceil(batch).max(1);
    let total = (batches_per_epoch * cfg.epochs as usize).max(1);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let (out_from, out_to) = (layout.out(), layout.out_bias());
    let threads = cfg.threads.clamp(1, CHUNKS);
    let mut syms = vec![0u8; train_set.len()];
    let mut step = 0usize;
    for epoch in 1..=cfg.epochs {
        for i in (1..train_set.len()).rev() {
            let j = rng.below(i + 1);
            train_set.swap(i, j);
        }
        for s in syms.iter_mut() {
            *s = if cfg.symmetries && !cfg.tied {
                (rng.next_u64() >> 61) as u8
            } else {
                0
            };
        }
        let mut loss_sum = 0f64;
        for (bi, batch_samples) in train_set.chunks(batch).enumerate() {
            let batch_syms = &syms[bi * batch..bi * batch + batch_samples.len()];
            let per_chunk = batch_samples.len().div_ceil(CHUNKS);
            let params = &net.params;
            let per_thread = CHUNKS.div_ceil(threads);
            std::thread::scope(|scope| {
                for (tid, (gs, ls)) in grads
                    .chunks_mut(per_thread)
                    .zip(losses.chunks_mut(per_thread))
                    .enumerate()
                {
                    scope.spawn(move || {
                        let mut scratch = Scratch::new(layout);
                        for (k, (g, loss)) in gs.iter_mut().zip(ls.iter_mut()).enumerate() {
                            let c = tid * per_thread + k;
                            g.iter_mut().for_each(|x| *x = 0.0);
                            let lo = (c * per_chunk).min(batch_samples.len());
                            let hi = ((c + 1) * per_chunk).min(batch_samples.len());
                            *loss = chunk_gradient_best(
                                params,
                                layout,
                                &batch_samples[lo..hi],
                                &batch_syms[lo..hi],
                                t,
                                g,
                                &mut scratch,
                            );
                        }
                    });
                }
            });
            let (first, rest) = grads.split_at_mut(1);
            let total_grad = &mut first[0];
            for g in rest.iter() {
                for (a, &b) in total_grad.iter_mut().zip(g) {
                    *a += b;
                }
            }
            loss_sum += losses.iter().sum::<f64>();
            step += 1;
            let progress = step as f64 / total as f64;
            let lr_end = cfg.lr / 20.0;
            let lr = (lr_end
                + 0.5 * (cfg.lr - lr_end) * (1.0 + (std::f64::consts::PI * progress).cos()))
                as f32;
            let (c1, c2) = (1.0 - b1.powi(step as i32), 1.0 - b2.powi(step as i32));
            let inv = 1.0 / batch_samples.len() as f32;
            for i in 0..n {
                let g = total_grad[i] * inv;
                m[i] = b1 * m[i] + (1.0 - b1) * g;
                v[i] = b2 * v[i] + (1.0 - b2) * g * g;
                let w = net.params[i] - lr * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
                let clip = if (out_from..out_to).contains(&i) {
                    OUT_CLIP
                } else {
                    CLIP
                };
                net.params[i] = w.clamp(-clip, clip);
            }
        }
        report(NetEpoch {
            epoch,
            train_loss: loss_sum / train_set.len().max(1) as f64,
            validation_loss: mean_loss(&net, validation, cfg.lambda, scale),
            result_loss: mean_loss(&net, validation, 0.0, scale),
        });
    }
    TrainedNet {
        net,
        scale,
        train: split,
        validation: held,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_symmetries_are_eight_different_permutations() {
        let mut seen = Vec::new();
        for map in &SYMMETRIES {
            let mut sorted = map.to_vec();
            sorted.sort();
            assert_eq!(sorted, (0..49).collect::<Vec<u8>>());
            assert!(!seen.contains(map));
            seen.push(*map);
            // The corners stay corners.
            for c in [0usize, 6, 42, 48] {
                assert!([0, 6, 42, 48].contains(&map[c]));
            }
        }
    }

    /// Positions where the result follows a rule the net can learn: the
    /// side with more pieces in the centre 3×3 wins.
    fn centre_rule_samples(n: usize, seed: u64) -> Vec<NetSample> {
        let centre: u64 = [16, 17, 18, 23, 24, 25, 30, 31, 32]
            .iter()
            .fold(0, |b, &s| b | 1 << s);
        let mut rng = SplitMix64::new(seed);
        (0..n)
            .map(|_| {
                let (mut mine, mut theirs) = (0u64, 0u64);
                for sq in 0..49 {
                    match rng.below(4) {
                        1 => mine |= 1 << sq,
                        2 => theirs |= 1 << sq,
                        _ => {}
                    }
                }
                let d = (mine & centre).count_ones() as i32 - (theirs & centre).count_ones() as i32;
                NetSample {
                    mine,
                    theirs,
                    score: 0,
                    result: (d.signum() + 1) as u8,
                }
            })
            .collect()
    }

    fn small_config(threads: usize) -> NetConfig {
        NetConfig {
            inputs: Inputs::Pieces,
            hidden: 16,
            tied: false,
            buckets: 2,
            epochs: 4,
            batch: 256,
            lr: 0.01,
            lambda: 0.0,
            scale: Some(400.0),
            validation: 0.1,
            symmetries: true,
            threads,
            seed: 3,
        }
    }

    #[test]
    fn training_learns_what_decides_the_games_for_any_thread_count() {
        let mut a = centre_rule_samples(6000, 5);
        let mut losses = Vec::new();
        let one = train(&mut a, &small_config(1), None, &mut |e| {
            losses.push(e.validation_loss)
        });
        let start = mean_loss(
            &FloatNet::random(one.net.layout, 3),
            &a[a.len() - one.validation..],
            0.0,
            400.0,
        );
        assert!(
            *losses.last().unwrap() < start * 0.6,
            "held-out loss {losses:?} from {start}"
        );
        let mut b = centre_rule_samples(6000, 5);
        let three = train(&mut b, &small_config(3), None, &mut |_| {});
        assert_eq!(one.net, three.net, "the same net with 1 and 3 threads");
        // Tied, the same.
        let tied = |threads| NetConfig {
            tied: true,
            hidden: 8,
            ..small_config(threads)
        };
        let mut losses = Vec::new();
        let mut c = centre_rule_samples(6000, 5);
        let one = train(&mut c, &tied(1), None, &mut |e| {
            losses.push(e.validation_loss)
        });
        assert!(
            *losses.last().unwrap() < start * 0.6,
            "tied: held-out loss {losses:?} from {start}"
        );
        let mut d = centre_rule_samples(6000, 5);
        assert_eq!(one.net, train(&mut d, &tied(2), None, &mut |_| {}).net);
        // A window net (tied and not), the same.
        for tied in [false, true] {
            let windows = |threads| NetConfig {
                inputs: Inputs::Windows,
                tied,
                hidden: if tied { 8 } else { 16 },
                ..small_config(threads)
            };
            let mut losses = Vec::new();
            let mut e = centre_rule_samples(6000, 5);
            let one = train(&mut e, &windows(1), None, &mut |e| {
                losses.push(e.validation_loss)
            });
            let start = mean_loss(
                &FloatNet::random(one.net.layout, 3),
                &e[e.len() - one.validation..],
                0.0,
                400.0,
            );
            assert!(
                *losses.last().unwrap() < start * 0.6,
                "windows, tied {tied}: held-out loss {losses:?} from {start}"
            );
            let mut f = centre_rule_samples(6000, 5);
            assert_eq!(one.net, train(&mut f, &windows(2), None, &mut |_| {}).net);
        }
    }

    /// A net file read back gives the same file again, and a run started
    /// from it begins where that net was: its first pass's held-out loss
    /// is near the start net's, far below a random start's.
    #[test]
    fn a_net_file_reads_back_and_a_run_can_start_from_it() {
        for (tied, inputs, hidden) in [(true, Inputs::Windows, 8), (false, Inputs::Pieces, 16)] {
            let cfg = NetConfig {
                inputs,
                tied,
                hidden,
                ..small_config(1)
            };
            let mut a = centre_rule_samples(6000, 5);
            let first = train(&mut a, &cfg, None, &mut |_| {});
            let bytes = first.net.quantised();
            let back = FloatNet::from_file(&bytes).unwrap();
            assert_eq!(back.layout, first.net.layout);
            assert_eq!(back.quantised(), bytes, "tied {tied}: the same file again");
            let held = &a[a.len() - first.validation..];
            let start_loss = mean_loss(&back, held, 0.0, 400.0);
            let random_loss = mean_loss(&FloatNet::random(back.layout, 3), held, 0.0, 400.0);
            let once = NetConfig {
                epochs: 1,
                lr: 0.0005,
                ..cfg
            };
            let mut b = centre_rule_samples(6000, 5);
            let mut losses = Vec::new();
            train(&mut b, &once, Some(&back), &mut |e| {
                losses.push(e.validation_loss)
            });
            assert!(
                losses[0] < start_loss * 1.1 && losses[0] < random_loss * 0.7,
                "tied {tied}: {losses:?} from {start_loss}, random {random_loss}"
            );
        }
        // Not a net, or cut short: refused with the reason.
        assert!(FloatNet::from_file(b"not a net").is_err());
        let net = FloatNet::random(
            Layout {
                inputs: Inputs::Windows,
                hidden: 8,
                buckets: 2,
                tied: true,
            },
            1,
        );
        let bytes = net.quantised();
        let e = FloatNet::from_file(&bytes[..bytes.len() - 2]).unwrap_err();
        assert!(e.contains("bytes"), "{e}");
    }

    #[test]
    fn a_net_file_has_the_header_and_size_the_engine_reads() {
        let net = FloatNet::random(
            Layout {
                inputs: Inputs::Pieces,
                hidden: 32,
                buckets: 3,
                tied: false,
            },
            1,
        );
        let bytes = net.quantised();
        assert_eq!(bytes.len(), nnue::file_bytes(nnue::PIECE_INPUTS, 32, 3));
        assert_eq!(&bytes[..8], nnue::MAGIC);
        assert_eq!(u16::from_le_bytes([bytes[10], bytes[11]]), 32);
        // Built for another width, the engine refuses it with the reason.
        let e = nnue::Net::from_bytes(&bytes).err().unwrap();
        assert!(e.contains("32 hidden units"), "{e}");
    }

    /// A tied net, quantised, scores a position and its seven mirror
    /// images exactly alike in the engine; an untied one does not. For
    /// both encodings (a window net's turned inputs are other windows).
    #[test]
    fn a_tied_net_scores_mirror_images_exactly_alike() {
        let turn = |bb: u64, g: usize| {
            (0..49)
                .filter(|&s| bb >> s & 1 == 1)
                .fold(0u64, |b, s| b | 1 << SYMMETRIES[g][s])
        };
        let mut rng = SplitMix64::new(8);
        let mut untied_differs = false;
        for (tied, inputs) in [
            (true, Inputs::Pieces),
            (false, Inputs::Pieces),
            (true, Inputs::Windows),
            (false, Inputs::Windows),
        ] {
            let layout = Layout {
                inputs,
                hidden: if tied { nnue::HIDDEN / 8 } else { nnue::HIDDEN },
                buckets: 2,
                tied,
            };
            let float = FloatNet::random(layout, 4);
            let bytes = float.quantised();
            assert_eq!(
                bytes.len(),
                nnue::file_bytes(inputs.count(), layout.hidden, 2),
                "a tied file holds the free units only"
            );
            let net = nnue::Net::from_bytes(&bytes).unwrap();
            let (mut off, mut size) = (0.0, 0.0);
            for _ in 0..100 {
                let (mut mine, mut theirs) = (0u64, 0u64);
                for sq in 0..49 {
                    match rng.below(3) {
                        1 => mine |= 1 << sq,
                        2 => theirs |= 1 << sq,
                        _ => {}
                    }
                }
                let v = net.evaluate_board(mine, theirs);
                let f = float.forward(mine, theirs) * nnue::SCALE as f32;
                off += (f - v as f32).abs();
                size += f.abs();
                for g in 1..8 {
                    let w = net.evaluate_board(turn(mine, g), turn(theirs, g));
                    if tied {
                        assert_eq!(w, v, "{inputs:?}: symmetry {g}");
                    } else if w != v {
                        untied_differs = true;
                    }
                }
            }
            // The engine's integers are the floats' score, quantised (a
            // random net's output weights are small, so a few percent off).
            assert!(
                off < size * 0.25,
                "{inputs:?} tied {tied}: {} off, scores {}",
                off / 100.0,
                size / 100.0
            );
        }
        assert!(untied_differs);
    }

    #[test]
    fn datagen_lines_are_read_from_the_side_to_move_and_bad_ones_named() {
        let mut out = Vec::new();
        let text = "# header\nx5o/7/7/7/7/7/o5x o 0 1\t-12\t0\n7/7/3-3/7/7/7/x5o x 0 1\t0\t1\n";
        assert_eq!(read_samples(text, &mut out).unwrap(), 1);
        // O to move: O's pieces (a1, g7) are the mover's.
        assert_eq!(out[0].mine, 1 | 1 << 48);
        assert_eq!(out[0].theirs, 1 << 6 | 1 << 42);
        assert_eq!((out[0].score, out[0].result), (-12, 0));
        for bad in [
            "x5o/7/7/7/7/7/o5x x 0 1\t12\n",
            "x5o/7/7/7/7/7/o5x x 0 1\tten\t1\n",
            "x5o/7/7/7/7/7/o5x x 0 1\t1\twin\n",
        ] {
            let e = read_samples(bad, &mut out).unwrap_err();
            assert!(e.starts_with("line 1: "), "{e}");
        }
    }
}
