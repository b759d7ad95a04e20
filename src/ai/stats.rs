//! Match statistics for `engine duel`: Elo with its 95 % error bar and the
//! sequential probability ratio test (SPRT), from game pairs
//! (pentanomial) or single games (trinomial).
//!
//! Both use the normal approximation of the score distribution (the
//! "GSPRT" of engine testing frameworks): with per-sample scores `x_i`
//! in `[0, 1]` (a game: 0, ½, 1; a pair of games with colours swapped:
//! 0, ¼, ½, ¾, 1), mean `μ` and variance `σ²` over `n` samples,
//!
//! - Elo = `-400·log10(1/μ − 1)` (the logistic model), its 95 % interval
//!   the Elo of `μ ± 1.96·σ/√n`;
//! - LLR = `n·(μ₁ − μ₀)·(2μ − μ₀ − μ₁) / (2σ²)`, where `μ₀`, `μ₁` are the
//!   expected scores at `elo0`, `elo1`; H1 is accepted at LLR ≥
//!   `ln((1−β)/α)`, H0 at LLR ≤ `ln(β/(1−α))`.
//!
//! The pentanomial form is the one to trust: the two games of a pair share
//! an opening, so their results are correlated, and pairs are the
//! independent samples.

/// The expected score (0..1) of a player `elo` points stronger.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives the expected score `score` (±∞ at 0 and 1).
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Counts of results from one engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// Counts of game-pair scores 0, ½, 1, 1½, 2 (index = half points).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

/// Mean, variance and sample count of a score distribution on `[0, 1]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments {
    pub mean: f64,
    pub variance: f64,
    pub n: f64,
}

impl Trinomial {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Per-game score moments (`None` without games).
    pub fn moments(&self) -> Option<Moments> {
        moments(&[(0.0, self.losses), (0.5, self.draws), (1.0, self.wins)])
    }
}

impl Pentanomial {
    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Adds a pair worth `half_points` (0..=4) half points.
    pub fn add(&mut self, half_points: usize) {
        self.0[half_points.min(4)] += 1;
    }

    /// Per-pair score moments, the pair's score halved to `[0, 1]`.
    pub fn moments(&self) -> Option<Moments> {
        let p = self.0;
        moments(&[
            (0.0, p[0]),
            (0.25, p[1]),
            (0.5, p[2]),
            (0.75, p[3]),
            (1.0, p[4]),
        ])
    }
}

fn moments(buckets: &[(f64, u64)]) -> Option<Moments> {
    let n: u64 = buckets.iter().map(|b| b.1).sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let mean = buckets.iter().map(|&(x, c)| x * c as f64).sum::<f64>() / n;
    let variance = buckets
        .iter()
        .map(|&(x, c)| (x - mean) * (x - mean) * c as f64)
        .sum::<f64>()
        / n;
    Some(Moments { mean, variance, n })
}

/// An Elo estimate with its 95 % confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    /// Lower and upper bound of the 95 % interval.
    pub low: f64,
    pub high: f64,
}

impl EloEstimate {
    /// Half the interval's width: the `±` figure.
    pub fn error(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// 1.96: the two-sided 95 % quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// The Elo estimate from score moments.
pub fn elo(m: &Moments) -> EloEstimate {
    let se = (m.variance / m.n).sqrt();
    EloEstimate {
        elo: elo_of_score(m.mean),
        low: elo_of_score(m.mean - Z95 * se),
        high: elo_of_score(m.mean + Z95 * se),
    }
}

/// The SPRT's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H1 (the change gains at least `elo1`) accepted.
    H1,
    /// H0 (the change gains at most `elo0`) accepted.
    H0,
    /// Not decided: play on.
    Continue,
}

impl Default for Sprt {
    fn default() -> Self {
        Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

impl Sprt {
    /// Reads `elo0=0,elo1=5,alpha=0.05,beta=0.05` (any subset; the rest
    /// default to these values).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut s = Sprt::default();
        for part in text.split(',').filter(|p| !p.trim().is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("--sprt: '{part}' is not key=value"))?;
            let v: f64 = v
                .trim()
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| format!("--sprt: {k}: '{v}' is not a number"))?;
            match k.trim() {
                "elo0" => s.elo0 = v,
                "elo1" => s.elo1 = v,
                "alpha" => s.alpha = v,
                "beta" => s.beta = v,
                other => {
                    return Err(format!(
                        "--sprt: unknown key '{other}' (expected elo0, elo1, alpha, beta)"
                    ))
                }
            }
        }
        if !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5) {
            return Err("--sprt: alpha and beta must be between 0 and 0.5".into());
        }
        if s.elo1 <= s.elo0 {
            return Err("--sprt: elo1 must be above elo0".into());
        }
        Ok(s)
    }

    /// The lower (accept H0) and upper (accept H1) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for these moments (0
    /// while the variance is 0: nothing can be told yet).
    pub fn llr(&self, m: &Moments) -> f64 {
        if m.variance <= 0.0 {
            return 0.0;
        }
        let s0 = expected_score(self.elo0);
        let s1 = expected_score(self.elo1);
        m.n * (s1 - s0) * (2.0 * m.mean - s0 - s1) / (2.0 * m.variance)
    }

    /// The verdict at this LLR.
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (low, high) = self.bounds();
        if llr >= high {
            Verdict::H1
        } else if llr <= low {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}
