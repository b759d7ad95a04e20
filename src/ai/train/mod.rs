//! `engine train`: fits a table evaluation to self-play positions from
//! `engine datagen`: Territory Duel's pattern tables
//! ([`super::eval::patterns`]) or Stones!' stone tables
//! ([`super::eval::stones`]), or Mill's term tables. Each is a
//! [`TableModel`], in its game's file (`ataxx.rs`, `stones.rs`, `mill.rs`).
//!
//! The model is the evaluation itself, in floating point: the score is the
//! sum of the active features' weights (times their values), blended
//! between the opening and the ending weight by the position's phase, and
//! `sigmoid(score / K)` is read as the mover's expected result. Each
//! position's target mixes its game's result with its search score:
//! `lambda · sigmoid(search / K) + (1 − lambda) · result`. Training
//! minimises the cross-entropy with Adam over shuffled mini-batches (only
//! the weights a batch touches move), with a light L2 pull of the table
//! weights towards 0 so that rare entries stay small. The last part of the
//! file (its latest games) is held out to show the fit is not memorised.
//!
//! Everything is seeded and single-threaded, so a run is reproducible.

mod ataxx;
mod mill;
mod stones;

pub use ataxx::AtaxxTables;
pub use mill::MillTables;
pub use stones::StonesTables;

#[cfg(test)]
use super::eval::patterns;
use super::SplitMix64;

/// An evaluation made of weight tables that `engine train` can fit: each
/// position has a few active features with values, and each feature an
/// (opening, ending) pair of weights blended by the position's phase.
pub trait TableModel {
    /// What the model reads of a position.
    type Features: Clone;
    /// The number of weight pairs.
    const FEATURES: usize;
    /// The weights training starts from: the hand-written evaluation.
    fn start_weights() -> Vec<(i16, i16)>;
    /// Reads one datagen position; `Ok(None)` skips it.
    fn read(fen: &str) -> Result<Option<Self::Features>, String>;
    /// The share of the opening weights in the blend: 1 at the start, 0 at
    /// the end.
    fn opening_share(f: &Self::Features) -> f64;
    /// Calls `add(feature, value)` for each active feature.
    fn active(f: &Self::Features, add: impl FnMut(usize, f64));
    /// Whether the L2 pull applies to `feature`.
    fn pulled(feature: usize) -> bool;
    /// The feature whose weight `feature` shares (for symmetries).
    fn canonical(feature: usize) -> usize {
        feature
    }
}

/// One training position.
#[derive(Clone, Debug)]
pub struct Sample<F> {
    features: F,
    /// The search score (side to move), kept to fit `K`.
    search: i32,
    /// The game's result for the side to move: 0, 0.5 or 1.
    result: f32,
}

/// How a training run goes.
#[derive(Clone, Copy, Debug)]
pub struct TrainConfig {
    pub epochs: u32,
    /// Share of the search score in the target (the rest is the result).
    pub lambda: f64,
    /// The score scale `K` (score / K is the logit); `None` fits it to the data.
    pub scale: Option<f64>,
    /// Adam's step size at the start (decays linearly to a tenth).
    pub lr: f64,
    /// L2 pull of the pattern weights towards 0.
    pub l2: f64,
    /// L2 pull of every weight towards its starting (hand-written) value,
    /// per position of a batch: keeps terms that the data cannot tell
    /// apart (they rise and fall together) near values that play sound
    /// tactics. 0 (the default) fits the data alone.
    pub prior: f64,
    /// Positions per mini-batch.
    pub batch: usize,
    /// Share of positions held out (from the file's end).
    pub validation: f64,
    pub seed: u64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 12,
            lambda: 0.5,
            scale: None,
            lr: 3.0,
            l2: 1e-4,
            prior: 0.0,
            batch: 4096,
            validation: 0.05,
            seed: 1,
        }
    }
}

/// Reads `engine datagen` lines (`FEN<TAB>score<TAB>result`; lines
/// starting with `#` are skipped) for model `M`. An unreadable line is an
/// error naming it.
pub fn read_samples<M: TableModel>(text: &str) -> Result<Vec<Sample<M::Features>>, String> {
    let mut out = Vec::new();
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
        let features = M::read(fen).map_err(|e| bad(&e))?;
        let search: i32 = score
            .parse()
            .map_err(|_| bad("the score is not a whole number"))?;
        let result: f32 = match result {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            _ => return Err(bad("the result is not 1, 0.5 or 0")),
        };
        if let Some(features) = features {
            out.push(Sample {
                features,
                search,
                result,
            });
        }
    }
    Ok(out)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of predicting `p` for target `y`.
fn cross_entropy(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// The `K` for which `sigmoid(search / K)` best predicts the results:
/// the search scores' own scale, so the trained score keeps it.
pub fn fit_scale<F>(samples: &[Sample<F>]) -> f64 {
    let pairs: Vec<(i32, f32)> = samples.iter().map(|s| (s.search, s.result)).collect();
    fit_scale_pairs(&pairs)
}

/// [`fit_scale`] for `(search score, result)` pairs (the network trainer's
/// positions).
pub fn fit_scale_pairs(pairs: &[(i32, f32)]) -> f64 {
    let loss = |k: f64| -> f64 {
        pairs
            .iter()
            .map(|&(search, result)| cross_entropy(sigmoid(search as f64 / k), result as f64))
            .sum::<f64>()
    };
    // Golden-section search over log K in [20, 5000].
    let (mut a, mut b) = (20f64.ln(), 5000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if loss(c.exp()) < loss(d.exp()) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

/// The model's score of `f` with float weights `w` (pairs per feature).
fn predict<M: TableModel>(w: &[[f64; 2]], f: &M::Features) -> f64 {
    let t = M::opening_share(f);
    let (mut open, mut end) = (0.0, 0.0);
    M::active(f, |i, x| {
        open += w[i][0] * x;
        end += w[i][1] * x;
    });
    open * t + end * (1.0 - t)
}

fn target<F>(s: &Sample<F>, lambda: f64, k: f64) -> f64 {
    lambda * sigmoid(s.search as f64 / k) + (1.0 - lambda) * s.result as f64
}

/// Mean cross-entropy of the model on `samples`.
fn mean_loss<M: TableModel>(
    w: &[[f64; 2]],
    samples: &[Sample<M::Features>],
    lambda: f64,
    k: f64,
) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples
        .iter()
        .map(|s| {
            cross_entropy(
                sigmoid(predict::<M>(w, &s.features) / k),
                target(s, lambda, k),
            )
        })
        .sum::<f64>()
        / samples.len() as f64
}

/// One epoch's figures, for the progress lines.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    pub epoch: u32,
    pub train_loss: f64,
    pub validation_loss: f64,
}

/// What a training run made.
#[derive(Clone, Debug)]
pub struct Trained {
    /// The scale used.
    pub scale: f64,
    /// Positions trained on and held out.
    pub train: usize,
    pub validation: usize,
    /// The held-out loss of the starting weights (the hand-written evaluation).
    pub start_validation_loss: f64,
    /// The quantised weights, one (empty-board, full-board) pair per feature.
    pub weights: Vec<(i16, i16)>,
}

/// Trains the tables on `samples` (in file order; the last
/// `cfg.validation` share is held out).
pub fn train<M: TableModel>(
    samples: &mut [Sample<M::Features>],
    cfg: &TrainConfig,
    report: &mut dyn FnMut(EpochReport),
) -> Trained {
    let held = ((samples.len() as f64 * cfg.validation) as usize).min(samples.len());
    let split = samples.len() - held;
    let scale = cfg.scale.unwrap_or_else(|| fit_scale(samples));
    let (train_set, validation) = samples.split_at_mut(split);
    let n = M::FEATURES;
    let mut w = vec![[0f64; 2]; n];
    // Start from the hand-written evaluation.
    for (f, (o, e)) in M::start_weights().into_iter().enumerate() {
        w[f] = [o as f64, e as f64];
    }
    let start = w.clone();
    let start_validation_loss = mean_loss::<M>(&w, validation, cfg.lambda, scale);
    let mut m = vec![[0f64; 2]; n];
    let mut v = vec![[0f64; 2]; n];
    let mut grad = vec![[0f64; 2]; n];
    let mut touched: Vec<usize> = Vec::new();
    let mut seen = vec![false; n];
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut step = 0i32;
    let mut rng = SplitMix64::new(cfg.seed);
    let batches_per_epoch = train_set.len().div_ceil(cfg.batch.max(1)).max(1);
    let total_batches = (batches_per_epoch * cfg.epochs as usize).max(1);
    for epoch in 1..=cfg.epochs {
        // Fisher–Yates with the seeded generator.
        for i in (1..train_set.len()).rev() {
            let j = rng.below(i + 1);
            train_set.swap(i, j);
        }
        let mut loss_sum = 0.0;
        for batch in train_set.chunks(cfg.batch.max(1)) {
            for s in batch {
                let f = &s.features;
                let y = target(s, cfg.lambda, scale);
                let p = sigmoid(predict::<M>(&w, f) / scale);
                loss_sum += cross_entropy(p, y);
                // d(loss)/d(score) up to a constant factor (1 / K / batch),
                // which Adam's step does not depend on; dividing by it would
                // shrink the gradients below Adam's epsilon.
                let g = p - y;
                let t = M::opening_share(f);
                M::active(f, |feature, x| {
                    grad[feature][0] += g * x * t;
                    grad[feature][1] += g * x * (1.0 - t);
                    if !seen[feature] {
                        seen[feature] = true;
                        touched.push(feature);
                    }
                });
            }
            step += 1;
            let progress = step as f64 / total_batches as f64;
            let lr = cfg.lr * (1.0 - 0.9 * progress);
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            if cfg.prior > 0.0 {
                // The prior moves every weight, seen in the batch or not.
                for (feature, was_seen) in seen.iter_mut().enumerate() {
                    if !*was_seen {
                        *was_seen = true;
                        touched.push(feature);
                    }
                }
            }
            for &feature in &touched {
                for phase in 0..2 {
                    let mut gr = grad[feature][phase];
                    if M::pulled(feature) {
                        gr += cfg.l2 * w[feature][phase];
                    }
                    gr += cfg.prior
                        * batch.len() as f64
                        * (w[feature][phase] - start[feature][phase]);
                    m[feature][phase] = b1 * m[feature][phase] + (1.0 - b1) * gr;
                    v[feature][phase] = b2 * v[feature][phase] + (1.0 - b2) * gr * gr;
                    let update =
                        lr * (m[feature][phase] / c1) / ((v[feature][phase] / c2).sqrt() + eps);
                    w[feature][phase] -= update;
                    grad[feature][phase] = 0.0;
                }
                seen[feature] = false;
            }
            touched.clear();
        }
        report(EpochReport {
            epoch,
            train_loss: loss_sum / train_set.len().max(1) as f64,
            validation_loss: mean_loss::<M>(&w, validation, cfg.lambda, scale),
        });
    }
    // Every feature takes the weight of its canonical feature.
    let weights = (0..n)
        .map(|f| {
            let [o, e] = w[M::canonical(f)];
            let q = |x: f64| x.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
            (q(o), q(e))
        })
        .collect();
    Trained {
        scale,
        train: split,
        validation: held,
        start_validation_loss,
        weights,
    }
}

#[cfg(test)]
mod tests {
    use super::ataxx::canonical_features;
    use super::*;

    /// Positions where the result follows a simple rule the tables can
    /// learn: the side with a piece in the a1 corner wins.
    fn corner_rule_samples() -> Vec<Sample<patterns::Features>> {
        let mut rng = SplitMix64::new(9);
        let mut out = Vec::new();
        for _ in 0..4000 {
            let (mut mine, mut theirs) = (0u64, 0u64);
            for sq in 0..49 {
                match rng.below(3) {
                    1 => mine |= 1 << sq,
                    2 => theirs |= 1 << sq,
                    _ => {}
                }
            }
            let result = if mine & 1 != 0 {
                1.0
            } else if theirs & 1 != 0 {
                0.0
            } else {
                0.5
            };
            out.push(Sample {
                features: canonical_features(mine, theirs),
                search: 0,
                result,
            });
        }
        out
    }

    #[test]
    fn training_learns_what_decides_the_games_and_is_reproducible() {
        let cfg = TrainConfig {
            epochs: 6,
            lambda: 0.0,
            scale: Some(100.0),
            batch: 256,
            lr: 5.0,
            ..Default::default()
        };
        let mut a = corner_rule_samples();
        let mut losses = Vec::new();
        let trained = train::<AtaxxTables>(&mut a, &cfg, &mut |r| losses.push(r.validation_loss));
        assert!(
            losses.last().unwrap() < &(trained.start_validation_loss * 0.8),
            "held-out loss {losses:?} from {}",
            trained.start_validation_loss
        );
        let mut b = corner_rule_samples();
        assert_eq!(
            train::<AtaxxTables>(&mut b, &cfg, &mut |_| {}).weights,
            trained.weights
        );
    }

    /// The prior holds the weights near where they started: the stronger
    /// it is, the nearer; without it the fit is the data's alone.
    #[test]
    fn the_prior_keeps_the_weights_near_the_start() {
        let start = AtaxxTables::start_weights();
        let drift = |prior: f64| {
            let cfg = TrainConfig {
                epochs: 4,
                lambda: 0.0,
                scale: Some(100.0),
                batch: 256,
                lr: 5.0,
                prior,
                ..Default::default()
            };
            let mut samples = corner_rule_samples();
            let w = train::<AtaxxTables>(&mut samples, &cfg, &mut |_| {}).weights;
            w.iter()
                .zip(&start)
                .map(|(a, b)| (a.0 as i32 - b.0 as i32).abs() + (a.1 as i32 - b.1 as i32).abs())
                .sum::<i32>()
        };
        let (free, weak, strong) = (drift(0.0), drift(0.001), drift(1.0));
        assert!(free > 100, "{free}");
        assert!(weak < free, "{weak} {free}");
        assert!(
            strong < weak && strong < free / 10,
            "{strong} {weak} {free}"
        );
    }

    #[test]
    fn the_scale_fit_finds_the_scale_the_results_were_drawn_with() {
        let mut rng = SplitMix64::new(4);
        let samples: Vec<Sample<patterns::Features>> = (0..20000)
            .map(|_| {
                let search = rng.below(1201) as i32 - 600;
                let win = rng.next_f64() < sigmoid(search as f64 / 150.0);
                Sample {
                    features: patterns::features(0, 0),
                    search,
                    result: if win { 1.0 } else { 0.0 },
                }
            })
            .collect();
        let k = fit_scale(&samples);
        assert!((120.0..190.0).contains(&k), "K = {k}");
    }

    #[test]
    fn bad_lines_are_named_and_gaps_are_skipped() {
        let ok = "x5o/7/7/7/7/7/o5x x 0 1\t12\t0.5\n# game 0\n";
        assert_eq!(read_samples::<AtaxxTables>(ok).unwrap().len(), 1);
        let gap = "x5o/7/7/3-3/7/7/o5x x 0 1\t0\t1\n";
        assert_eq!(read_samples::<AtaxxTables>(gap).unwrap().len(), 0);
        for bad in [
            "x5o/7/7/7/7/7/o5x x 0 1\t12\n",
            "x5o/7/7/7/7/7/o5x x 0 1\tten\t1\n",
            "x5o/7/7/7/7/7/o5x x 0 1\t1\twin\n",
            "x5o/7/7 x 0 1\t1\t1\n",
        ] {
            let e = read_samples::<AtaxxTables>(bad).unwrap_err();
            assert!(e.starts_with("line 1: "), "{e}");
        }
    }
}
