//! Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system",
//! 2012/2022): the steps of the paper, with its worked example as a test.
//!
//! Decisions:
//! - **One game is one rating period**, as lichess does: a finished rated
//!   game updates both players at once (from the ratings they had before
//!   it), so a rating moves after every game instead of at the end of a
//!   week. [`update`] still takes any number of games in a period, which
//!   is how the paper's example is checked.
//! - **Idle time widens the deviation** (the paper's step 6 for a player
//!   who did not compete): `φ² + σ²·t`, with `t` the idle time in rating
//!   periods of [`IDLE_PERIOD_MS`] (5 days; lichess uses about 4.7). A
//!   player back after a year has about 1.3× the deviation they left with;
//!   after two, a settled deviation of 60 has grown to 130: provisional
//!   again.
//! - **τ = 0.5**, the paper's example and middle of its advice (0.3–1.2):
//!   how fast the volatility may change. New players start at 1500 with
//!   deviation 350 and volatility 0.06 (the paper's defaults).
//! - **The deviation stays within 45..350**: 350 is where every new player
//!   starts (no one is less known than that); the floor of 45 (lichess's)
//!   keeps a very regular player's rating able to move.
//! - **The volatility search is bounded** (Illinois method, ε = 10⁻⁶, at
//!   most [`MAX_ITERATIONS`] steps): it never loops forever on a strange
//!   input; it converges in under 10 steps on every case in the tests.
//! - A rating is **provisional** (shown with `?`) while its deviation is
//!   over [`PROVISIONAL_DEVIATION`] (110, as lichess).

/// The factor between the Glicko scale (1500-centred) and Glicko-2's.
pub const SCALE: f64 = 173.7178;
/// Where every player starts.
pub const INITIAL_RATING: f64 = 1500.0;
pub const INITIAL_DEVIATION: f64 = 350.0;
pub const INITIAL_VOLATILITY: f64 = 0.06;
/// The system constant τ: how much the volatility may change.
pub const TAU: f64 = 0.5;
/// The deviation never grows past where new players start…
pub const MAX_DEVIATION: f64 = 350.0;
/// …nor falls under this.
pub const MIN_DEVIATION: f64 = 45.0;
/// Over this deviation a rating is provisional (`?`).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// One rating period of idle time (5 days), for [`Rating::idle`].
pub const IDLE_PERIOD_MS: u64 = 5 * 24 * 3600 * 1000;
/// Steps of the volatility search at most.
pub const MAX_ITERATIONS: u32 = 100;
/// The volatility search stops when its interval is this narrow.
const EPSILON: f64 = 1e-6;

/// A player's rating in one game, on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            rating: INITIAL_RATING,
            deviation: INITIAL_DEVIATION,
            volatility: INITIAL_VOLATILITY,
        }
    }
}

/// A game's result for the player whose rating is updated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    fn value(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }

    /// The same game seen from the opponent.
    pub fn opposite(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }
}

impl Rating {
    /// Whether the rating is still provisional (shown with `?`).
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating after `idle_ms` without a rated game: the deviation
    /// grows as in the paper's step 6, by σ² per idle rating period.
    pub fn idle(self, idle_ms: u64) -> Rating {
        if idle_ms == 0 {
            return self;
        }
        let periods = idle_ms as f64 / IDLE_PERIOD_MS as f64;
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + self.volatility * self.volatility * periods).sqrt();
        Rating {
            deviation: (grown * SCALE).clamp(MIN_DEVIATION, MAX_DEVIATION),
            ..self
        }
    }

    /// Whether every field is a finite number in range (a stored rating
    /// that is not is replaced by a new player's, never used).
    pub fn is_sane(&self) -> bool {
        self.rating.is_finite()
            && (0.0..=10_000.0).contains(&self.rating)
            && self.deviation.is_finite()
            && (1.0..=MAX_DEVIATION).contains(&self.deviation)
            && self.volatility.is_finite()
            && self.volatility > 0.0
            && self.volatility < 1.0
    }
}

/// g(φ) of the paper's step 3.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// E(μ, μⱼ, φⱼ) of the paper's step 3.
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The rating after one rating period in which `player` played `games`
/// (each opponent's rating before the period, and the score). With no
/// games only the deviation grows (step 6 for one period).
pub fn update(player: Rating, games: &[(Rating, Score)], tau: f64) -> Rating {
    // Step 2: to the Glicko-2 scale.
    let mu = (player.rating - INITIAL_RATING) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    if games.is_empty() {
        return player.idle(IDLE_PERIOD_MS);
    }
    // Steps 3 and 4: the estimated variance v and improvement Δ.
    let mut inv_v = 0.0;
    let mut sum = 0.0;
    for (opp, score) in games {
        let mu_j = (opp.rating - INITIAL_RATING) / SCALE;
        let phi_j = opp.deviation / SCALE;
        let e = expected(mu, mu_j, phi_j);
        let gj = g(phi_j);
        inv_v += gj * gj * e * (1.0 - e);
        sum += gj * (score.value() - e);
    }
    let v = 1.0 / inv_v;
    let delta = v * sum;
    // Step 5: the new volatility σ' (the Illinois method).
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < f64::from(MAX_ITERATIONS) {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    let mut steps = 0;
    while (big_b - big_a).abs() > EPSILON && steps < MAX_ITERATIONS {
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
        steps += 1;
    }
    let sigma_new = (big_a / 2.0).exp();
    // Step 6: the pre-period deviation φ*.
    let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
    // Step 7: the new deviation and rating.
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * sum;
    // Step 8: back to the Glicko scale.
    let updated = Rating {
        rating: SCALE * mu_new + INITIAL_RATING,
        deviation: (SCALE * phi_new).clamp(MIN_DEVIATION, MAX_DEVIATION),
        volatility: sigma_new,
    };
    if updated.rating.is_finite() && updated.volatility.is_finite() {
        updated
    } else {
        // Never store a number that is not one: the game leaves it as it was.
        player
    }
}

/// Both players' ratings after one game between them (each from the
/// ratings before it): `score` is the first player's.
pub fn game(first: Rating, second: Rating, score: Score) -> (Rating, Rating) {
    (
        update(first, &[(second, score)], TAU),
        update(second, &[(first, score.opposite())], TAU),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, within: f64) -> bool {
        (a - b).abs() <= within
    }

    /// Glickman's worked example: a 1500 (RD 200, σ 0.06) player beats a
    /// 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300), with
    /// τ = 0.5: 1464.06, RD 151.52, σ 0.05999.
    #[test]
    fn the_papers_worked_example() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opp = |rating, deviation| Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let games = [
            (opp(1400.0, 30.0), Score::Win),
            (opp(1550.0, 100.0), Score::Loss),
            (opp(1700.0, 300.0), Score::Loss),
        ];
        let r = update(player, &games, 0.5);
        assert!(close(r.rating, 1464.06, 0.01), "{r:?}");
        assert!(close(r.deviation, 151.52, 0.01), "{r:?}");
        assert!(close(r.volatility, 0.05999, 0.000_01), "{r:?}");
        // The paper's intermediate figures: μ' = -0.2069, φ' = 0.8722.
        assert!(close((r.rating - 1500.0) / SCALE, -0.2069, 0.0001));
        assert!(close(r.deviation / SCALE, 0.8722, 0.0001));
    }

    #[test]
    fn one_game_moves_both_players_the_opposite_way() {
        let (a, b) = game(Rating::default(), Rating::default(), Score::Win);
        assert!(a.rating > 1500.0 && b.rating < 1500.0);
        assert!(close(a.rating - 1500.0, 1500.0 - b.rating, 1e-9));
        // Two new players: a win is worth about 162 points.
        assert!(close(a.rating, 1662.3, 0.1), "{a:?}");
        assert!(a.deviation < 350.0 && b.deviation < 350.0);
        let (c, d) = game(Rating::default(), Rating::default(), Score::Draw);
        assert!(close(c.rating, 1500.0, 1e-9) && close(d.rating, 1500.0, 1e-9));
    }

    #[test]
    fn a_player_becomes_established_after_some_games() {
        let mut p = Rating::default();
        let mut games = 0;
        let opponent = Rating {
            rating: 1500.0,
            deviation: 80.0,
            volatility: 0.06,
        };
        while p.provisional() {
            let score = if games % 2 == 0 {
                Score::Win
            } else {
                Score::Loss
            };
            p = update(p, &[(opponent, score)], TAU);
            games += 1;
            assert!(games < 100, "still provisional after 100 games: {p:?}");
        }
        assert!((10..=30).contains(&games), "{games} games");
        assert!(p.deviation >= MIN_DEVIATION);
    }

    #[test]
    fn idle_time_widens_the_deviation_up_to_the_start() {
        let settled = Rating {
            rating: 1800.0,
            deviation: 60.0,
            volatility: 0.06,
        };
        let year = 365 * 24 * 3600 * 1000;
        let a = settled.idle(year);
        assert!(a.deviation > 60.0 && !a.provisional(), "{a:?}");
        let b = settled.idle(2 * year);
        assert!(b.provisional(), "{b:?}");
        assert_eq!(b.rating, 1800.0);
        assert_eq!(settled.idle(100 * year).deviation, MAX_DEVIATION);
        assert_eq!(settled.idle(0), settled);
    }

    #[test]
    fn nonsense_never_comes_out() {
        let wild = Rating {
            rating: 1e9,
            deviation: 1e-9,
            volatility: 1e-12,
        };
        let r = update(wild, &[(Rating::default(), Score::Loss)], TAU);
        assert!(r.rating.is_finite() && r.deviation.is_finite() && r.volatility.is_finite());
        assert!(!wild.is_sane());
        assert!(Rating::default().is_sane());
        let nan = Rating {
            rating: f64::NAN,
            ..Rating::default()
        };
        assert!(!nan.is_sane());
    }
}
