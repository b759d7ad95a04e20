//! The five playing levels and what each one changes in the search.

use std::fmt;
use std::str::FromStr;

/// A playing strength, weakest first. Lower levels search shallower and
/// choose among near-equal moves at random (seeded), with the occasional
/// plausible mistake, so a new player can win and games differ.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Level {
    /// One ply, wide random choice and some random moves: beatable by a new player.
    Beginner,
    /// Two plies, random among moves within a clear margin.
    Casual,
    /// Four plies, small random margin.
    Intermediate,
    /// Full search for about a second; varies only in the opening.
    Strong,
    /// Full search for the whole thinking time (2.5 s by default).
    Master,
}

/// How a level plays: the search limits it adds and how it picks a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelParams {
    /// Deepest iteration (plies; a Mill removal is part of its move's ply).
    pub max_depth: Option<u32>,
    /// Thinking time when the caller gives no limit, in milliseconds.
    pub time_ms: u64,
    /// Root moves within this many centipawns of the best are candidates.
    pub margin: i32,
    /// Softmax temperature (centipawns) for picking among the candidates.
    pub temperature: f64,
    /// Chance of playing a uniformly random legal move instead.
    pub blunder: f64,
    /// Game plies during which `opening_margin` replaces a smaller `margin`.
    pub opening_plies: usize,
    /// Candidate margin in the opening, so that strong levels vary too.
    pub opening_margin: i32,
    /// Scores positions with the game's plain evaluation
    /// ([`crate::ai::Evaluate::evaluate_plain`]; Mill: the hand-written
    /// one) instead of its learned one.
    pub plain_eval: bool,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 5] = [
        Level::Beginner,
        Level::Casual,
        Level::Intermediate,
        Level::Strong,
        Level::Master,
    ];

    /// The name shown to players.
    pub fn name(self) -> &'static str {
        match self {
            Level::Beginner => "Beginner",
            Level::Casual => "Casual",
            Level::Intermediate => "Intermediate",
            Level::Strong => "Strong",
            Level::Master => "Master",
        }
    }

    /// The lower-case identifier used in settings, messages and the CLI.
    pub fn slug(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Casual => "casual",
            Level::Intermediate => "intermediate",
            Level::Strong => "strong",
            Level::Master => "master",
        }
    }

    /// The search and choice parameters of this level.
    pub fn params(self) -> LevelParams {
        match self {
            Level::Beginner => LevelParams {
                max_depth: Some(1),
                time_ms: 300,
                margin: 150,
                temperature: 60.0,
                blunder: 0.15,
                opening_plies: 0,
                opening_margin: 0,
                plain_eval: true,
            },
            Level::Casual => LevelParams {
                max_depth: Some(2),
                time_ms: 500,
                margin: 80,
                temperature: 40.0,
                blunder: 0.05,
                opening_plies: 0,
                opening_margin: 0,
                plain_eval: true,
            },
            Level::Intermediate => LevelParams {
                max_depth: Some(4),
                time_ms: 800,
                margin: 30,
                temperature: 15.0,
                blunder: 0.0,
                opening_plies: 0,
                opening_margin: 0,
                plain_eval: true,
            },
            Level::Strong => LevelParams {
                max_depth: None,
                time_ms: 1200,
                margin: 0,
                temperature: 5.0,
                blunder: 0.0,
                opening_plies: 6,
                opening_margin: 10,
                plain_eval: false,
            },
            Level::Master => LevelParams {
                max_depth: None,
                time_ms: 2500,
                margin: 0,
                temperature: 3.0,
                blunder: 0.0,
                opening_plies: 4,
                opening_margin: 5,
                plain_eval: false,
            },
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = String;

    /// Reads a slug or name, case-insensitive (`master`, `Master`), or a
    /// number 1–5.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        Level::ALL
            .iter()
            .enumerate()
            .find(|(i, l)| l.slug() == t || (i + 1).to_string() == t)
            .map(|(_, &l)| l)
            .ok_or_else(|| {
                let known: Vec<&str> = Level::ALL.iter().map(|l| l.slug()).collect();
                format!("unknown level '{s}' (expected one of {})", known.join(", "))
            })
    }
}
