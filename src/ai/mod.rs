//! The computer player: a search generic over [`Game`], one evaluation per
//! game, five playing levels, the text protocols of the `engine`
//! command line ([`uci`]) and the browser worker's request handling
//! ([`worker`]).
//!
//! The search runs on one thread and takes its time from an injected
//! [`Clock`] (the browser worker passes `performance.now()`, native code
//! [`InstantClock`]), so the same code runs natively and in WebAssembly.
//!
//! Entry points: [`think`] for one move from a position (or [`think_record`]
//! from a game record), [`Searcher::think`] to keep the transposition table
//! between moves.

pub mod bench;
mod clock;
pub mod datagen;
pub mod duel;
pub mod engine;
pub mod eval;
mod level;
pub mod nnue_train;
mod rng;
mod search;
pub mod selfplay;
pub mod stats;
pub mod train;
pub mod uci;
pub mod worker;

use std::sync::atomic::AtomicBool;

pub use clock::{Clock, InstantClock};
pub use eval::Evaluate;
pub use level::{Level, LevelParams};
pub use rng::SplitMix64;
pub use search::{SearchInfo, Searcher, MATE, MATE_BOUND, MAX_DEPTH};

use crate::games::{Game, Record};
use search::Control;

/// Longest a search with an explicit `movetime_ms` may think: well inside
/// the 30 s move clock, whatever a caller asks.
pub const MAX_MOVETIME_MS: u64 = 20_000;

/// What bounds a search. Every limit given applies (the first reached
/// ends the search); with none given the level's thinking time applies,
/// unless `infinite` is set (then only the stop flag ends it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Thinking time in milliseconds (capped at [`MAX_MOVETIME_MS`]).
    pub movetime_ms: Option<u64>,
    /// Node budget (checked every 1024 nodes; the first iteration always completes).
    pub nodes: Option<u64>,
    /// Search until stopped (UCI `go infinite`); ignores the level's time.
    pub infinite: bool,
    /// A softer time limit in milliseconds, for a game on the clock: no
    /// new iteration starts past it, stretched up to 2.1 times while the
    /// best move is unsettled and shrunk to 0.7 times once it takes most
    /// of the nodes (`movetime_ms` stays the hard limit).
    pub soft_ms: Option<u64>,
}

impl SearchLimits {
    /// Search to `depth` plies.
    pub fn depth(depth: u32) -> Self {
        SearchLimits {
            depth: Some(depth),
            ..Default::default()
        }
    }

    /// Search for `ms` milliseconds.
    pub fn movetime(ms: u64) -> Self {
        SearchLimits {
            movetime_ms: Some(ms),
            ..Default::default()
        }
    }
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The move to play; `None` exactly when the game is over.
    pub best: Option<M>,
    /// The search score of the best move for the side to move (the move
    /// played may differ at lower levels).
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The principal variation of the search's best move.
    pub pv: Vec<M>,
    /// Milliseconds spent.
    pub elapsed_ms: f64,
}

/// One search request: the position, the game's earlier positions (for
/// repetitions), the limits and how to play.
#[derive(Clone, Debug)]
pub struct SearchRequest<'a, G: Game> {
    /// The position to move in.
    pub position: &'a G,
    /// Hashes of the earlier positions since the last irreversible move,
    /// oldest first, without the current one (see [`history_of`]).
    pub history: &'a [u64],
    /// Plies played so far in the game (the opening varies for the first few).
    pub game_ply: usize,
    /// The search limits.
    pub limits: SearchLimits,
    /// The playing level.
    pub level: Level,
    /// Seed for the level's random choices: equal seeds, equal moves.
    pub seed: u64,
}

/// How a running search is timed and stopped.
#[derive(Clone, Copy)]
pub struct SearchControl<'a> {
    /// The time source.
    pub clock: &'a dyn Clock,
    /// Set to `true` (from another thread natively) to end the search early.
    pub stop: Option<&'a AtomicBool>,
}

/// The hashes [`SearchRequest::history`] wants, from a game record: the
/// positions since the last irreversible move, current one excluded.
pub fn history_of<G: Game>(record: &Record<G>) -> Vec<u64> {
    let mut pos = record.start().clone();
    let mut out = Vec::new();
    for &mv in record.moves() {
        if pos.is_irreversible(mv) {
            out.clear();
        } else {
            out.push(pos.hash());
        }
        pos.play_unchecked(mv);
    }
    out
}

/// Searches `req.position` and picks a move as `req.level` plays. See
/// [`Searcher::think`]; this one uses a fresh transposition table.
pub fn think<G: Game + Evaluate>(
    req: &SearchRequest<G>,
    ctl: &SearchControl,
    on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
) -> SearchResult<G::Move> {
    Searcher::<G>::default().think(req, ctl, on_info)
}

/// [`think`] for the current position of a game record: no move when the
/// record says the game is over (repetition, timeout and resignation
/// included); the record's history feeds repetition detection.
pub fn think_record<G: Game + Evaluate>(
    record: &Record<G>,
    limits: SearchLimits,
    level: Level,
    seed: u64,
    ctl: &SearchControl,
    on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
) -> SearchResult<G::Move> {
    if record.outcome().is_some() {
        return SearchResult {
            best: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            elapsed_ms: 0.0,
        };
    }
    let history = history_of(record);
    let req = SearchRequest {
        position: record.position(),
        history: &history,
        game_ply: record.moves().len(),
        limits,
        level,
        seed,
    };
    think(&req, ctl, on_info)
}

impl<G: Game + Evaluate> Searcher<G> {
    /// Searches `req.position` within its limits and the level's, then
    /// picks the move: the best one, or (lower levels, the opening) a
    /// seeded random choice among moves scored within the level's margin,
    /// or now and then (Beginner, Casual) any legal move. Calls `on_info`
    /// after each completed iteration. Returns no move when the position
    /// is over; otherwise always a legal move, even if stopped at once.
    pub fn think(
        &mut self,
        req: &SearchRequest<G>,
        ctl: &SearchControl,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let start_ms = ctl.clock.now_ms();
        let params = req.level.params();
        let limits = req.limits;
        let given =
            limits.depth.is_some() || limits.movetime_ms.is_some() || limits.nodes.is_some();
        let movetime = match limits.movetime_ms {
            Some(ms) => Some(ms.min(MAX_MOVETIME_MS)),
            None if given || limits.infinite => None,
            None => Some(params.time_ms),
        };
        let max_depth = match (limits.depth, params.max_depth) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => MAX_DEPTH,
        };
        let control = Control {
            clock: ctl.clock,
            stop: ctl.stop,
            start_ms,
            deadline_ms: movetime.map(|ms| start_ms + ms as f64),
            // Iterations start until the deadline: the thinking time is used
            // in full, and an unfinished iteration still counts for the
            // moves it searched to the end.
            soft_ms: limits.soft_ms.map(|ms| start_ms + ms as f64),
            max_nodes: limits.nodes,
            max_depth,
        };
        let margin = if req.game_ply < params.opening_plies {
            params.margin.max(params.opening_margin)
        } else {
            params.margin
        };
        self.set_plain(params.plain_eval);
        let root = self.iterate(req.position, req.history, margin, &control, on_info);
        let elapsed_ms = ctl.clock.now_ms() - start_ms;
        let Some(top) = root.moves.first().copied() else {
            return SearchResult {
                best: None,
                score: 0,
                depth: 0,
                nodes: self.nodes(),
                pv: Vec::new(),
                elapsed_ms,
            };
        };
        let mut rng = SplitMix64::new(req.seed ^ req.position.hash());
        let best = pick(&root.moves, margin, &params, &mut rng);
        SearchResult {
            best: Some(best),
            score: top.score,
            depth: root.depth,
            nodes: self.nodes(),
            pv: root.pv,
            elapsed_ms,
        }
    }
}

/// The level's choice among the scored root moves (best first).
fn pick<M: Copy>(
    moves: &[search::RootMove<M>],
    margin: i32,
    params: &LevelParams,
    rng: &mut SplitMix64,
) -> M {
    let best = moves[0].score;
    if params.blunder > 0.0 && rng.next_f64() < params.blunder {
        return moves[rng.below(moves.len())].mv;
    }
    if margin <= 0 || best.abs() > MATE_BOUND {
        return moves[0].mv;
    }
    let candidates: Vec<(M, f64)> = moves
        .iter()
        .filter(|r| r.score > -MATE_BOUND && r.score >= best - margin)
        .map(|r| {
            let t = params.temperature.max(1.0);
            (r.mv, ((r.score - best) as f64 / t).exp())
        })
        .collect();
    let total: f64 = candidates.iter().map(|c| c.1).sum();
    let mut x = rng.next_f64() * total;
    for &(mv, w) in &candidates {
        if x < w {
            return mv;
        }
        x -= w;
    }
    moves[0].mv
}
