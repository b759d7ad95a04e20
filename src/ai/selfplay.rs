//! Self-play between two levels, for `engine match` and strength checks.
//!
//! Games come in pairs: each pair starts from the same seeded random
//! opening (a few random plies), played once with each level moving first,
//! so neither colour nor opening favours a level.

use super::{
    history_of, Clock, Evaluate, Level, SearchControl, SearchLimits, SearchRequest, Searcher,
    SplitMix64,
};
use crate::games::{Game, Record, Side};

/// A game still running after this many plies is scored a draw.
pub const MAX_GAME_PLIES: usize = 600;

/// Match score from the first level's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchScore {
    /// Games the first level won.
    pub wins: u32,
    /// Drawn games (including games cut at [`MAX_GAME_PLIES`]).
    pub draws: u32,
    /// Games the first level lost.
    pub losses: u32,
}

/// How a match is played.
#[derive(Clone, Copy, Debug)]
pub struct MatchConfig {
    /// Number of games (an odd last game has the first level moving first).
    pub games: u32,
    /// Thinking time per move for both levels, capped by each level's own time.
    pub movetime_ms: Option<u64>,
    /// Random plies at the start of each pair of games.
    pub opening_plies: usize,
    /// Seed of the openings and of the levels' choices.
    pub seed: u64,
    /// Each level's own thinking time is multiplied by this (1.0: the
    /// app's times), so a quick ladder keeps the levels' time ratios.
    pub time_scale: f64,
}

impl MatchConfig {
    /// The thinking time of `level` for one move, in milliseconds (at least 1).
    pub fn move_time(&self, level: Level) -> u64 {
        let own = ((level.params().time_ms as f64 * self.time_scale).round() as u64).max(1);
        self.movetime_ms.map_or(own, |cap| cap.min(own))
    }
}

/// Plays one game from `start`: `first` moves first. Returns the winner
/// (`None` for a draw) and the number of plies.
pub fn play_game<G: Game + Evaluate>(
    start: Record<G>,
    players: [(Level, &mut Searcher<G>); 2],
    cfg: &MatchConfig,
    seed: u64,
    clock: &dyn Clock,
) -> (Option<Side>, usize) {
    let mut record = start;
    let first_side = record.position().side_to_move();
    let [(la, sa), (lb, sb)] = players;
    sa.clear();
    sb.clear();
    let mut ply = 0;
    while record.outcome().is_none() && ply < MAX_GAME_PLIES {
        let stm = record.position().side_to_move();
        let (level, searcher) = if stm == first_side {
            (la, &mut *sa)
        } else {
            (lb, &mut *sb)
        };
        let history = history_of(&record);
        let req = SearchRequest {
            position: record.position(),
            history: &history,
            game_ply: record.moves().len(),
            limits: SearchLimits {
                movetime_ms: Some(cfg.move_time(level)),
                ..Default::default()
            },
            level,
            seed: seed.wrapping_add(ply as u64 * 0x9E37),
        };
        let ctl = SearchControl { clock, stop: None };
        let result = searcher.think(&req, &ctl, &mut |_| {});
        let Some(mv) = result.best else { break };
        if record.play(mv).is_err() {
            break;
        }
        ply += 1;
    }
    (record.outcome().and_then(|o| o.winner), ply)
}

/// Plays `cfg.games` games of `a` against `b` from `start`, alternating
/// who moves first; `on_game` sees each game's index, whether `a` moved
/// first, whether `a` won (`None` for a draw) and the length in plies.
pub fn play_match<G: Game + Evaluate>(
    start: &G,
    a: Level,
    b: Level,
    cfg: &MatchConfig,
    clock: &dyn Clock,
    on_game: &mut dyn FnMut(u32, bool, Option<bool>, usize),
) -> MatchScore {
    let mut score = MatchScore::default();
    let mut sa = Searcher::<G>::new(18);
    let mut sb = Searcher::<G>::new(18);
    let mut opening = Record::new(start.clone());
    for game in 0..cfg.games {
        if game % 2 == 0 {
            let mut rng = SplitMix64::new(cfg.seed ^ (game as u64).wrapping_mul(0xA5A5_1234));
            opening = Record::new(start.clone());
            for _ in 0..cfg.opening_plies {
                let moves = opening.position().legal_moves();
                if moves.is_empty() || opening.outcome().is_some() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                let _ = opening.play(mv);
            }
        }
        let a_first = game % 2 == 0;
        let players = if a_first {
            [(a, &mut sa), (b, &mut sb)]
        } else {
            [(b, &mut sb), (a, &mut sa)]
        };
        let seed = cfg.seed.wrapping_add(game as u64 * 7919);
        let (winner, plies) = play_game(opening.clone(), players, cfg, seed, clock);
        let mover = opening.position().side_to_move();
        let a_side = if a_first { mover } else { mover.opponent() };
        match winner {
            None => score.draws += 1,
            Some(w) if w == a_side => score.wins += 1,
            Some(_) => score.losses += 1,
        }
        on_game(game, a_first, winner.map(|w| w == a_side), plies);
    }
    score
}
