//! Typed messages between the app and the AI worker (serde; sent with
//! serde-wasm-bindgen as plain JavaScript objects).
//!
//! A request names the game and rules, the start position and the moves
//! played, so the worker rebuilds the whole game (repetition history
//! included) and the app never shares memory with it. Every answer carries
//! the request's `id`: the app ignores answers to requests it no longer
//! wants (after undo, a new game, or leaving the game).
//!
//! [`online`] holds the messages between the app and the game server,
//! [`wire`] the page's codec for them (with the small [`json`] reader).

pub mod json;
pub mod online;
pub mod session;
pub mod wire;

use serde::{Deserialize, Serialize};

use crate::ai::bench::{self, BenchLine};
use crate::ai::{self, Evaluate, Level, SearchControl, SearchInfo, SearchLimits};
use crate::games::any::{AnyRecord, Variant};
use crate::games::{Game, Record};

/// App → worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Find a move for the side to move.
    Think {
        id: u32,
        game: Variant,
        /// The start position in the game's notation.
        start: String,
        /// The moves played since, in the game's notation.
        moves: Vec<String>,
        /// A level slug (`beginner` … `master`).
        level: String,
        /// Thinking time; `None` uses the level's own time.
        movetime_ms: Option<u64>,
        /// Seed for the level's random choices (32 bits: JavaScript
        /// numbers hold them exactly).
        seed: u32,
    },
    /// Run the fixed search benchmark (`engine bench`'s positions and depths).
    Bench { id: u32 },
}

impl Request {
    /// The request's id, echoed by every answer.
    pub fn id(&self) -> u32 {
        match self {
            Request::Think { id, .. } | Request::Bench { id } => *id,
        }
    }
}

/// Worker → app.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Response {
    /// The worker has started and takes requests.
    Ready,
    /// Progress of a search, after each completed depth.
    Info {
        id: u32,
        depth: u32,
        /// Score for the side to move, in hundredths of a piece (or a mate score).
        score: i32,
        nodes: u64,
        nps: u64,
    },
    /// The answer to a `Think`: `None` when the game is over.
    Best {
        id: u32,
        mv: Option<String>,
        score: i32,
        depth: u32,
        nodes: u64,
        elapsed_ms: f64,
    },
    /// The benchmark's figures, one line per game.
    Bench { id: u32, lines: Vec<BenchLine> },
    /// The request could not be served (bad position, move or level).
    Error { id: u32, message: String },
}

impl Response {
    /// The id of the request this answers (`None` for `Ready`).
    pub fn id(&self) -> Option<u32> {
        match self {
            Response::Ready => None,
            Response::Info { id, .. }
            | Response::Best { id, .. }
            | Response::Bench { id, .. }
            | Response::Error { id, .. } => Some(*id),
        }
    }

    /// Whether this is the last message for its request.
    pub fn is_final(&self) -> bool {
        matches!(
            self,
            Response::Best { .. } | Response::Bench { .. } | Response::Error { .. }
        )
    }
}

/// A `Think` request with its level read.
struct Job {
    id: u32,
    level: Level,
    movetime_ms: Option<u64>,
    seed: u32,
}

fn think_on<G: Game + Evaluate>(
    job: &Job,
    record: &Record<G>,
    clock: &dyn ai::Clock,
    post: &mut dyn FnMut(Response),
) -> Response {
    let id = job.id;
    let limits = SearchLimits {
        movetime_ms: job.movetime_ms,
        ..Default::default()
    };
    let ctl = SearchControl { clock, stop: None };
    let mut on_info = |info: &SearchInfo<G::Move>| {
        let secs = (info.elapsed_ms / 1000.0).max(0.001);
        post(Response::Info {
            id,
            depth: info.depth,
            score: info.score,
            nodes: info.nodes,
            nps: (info.nodes as f64 / secs) as u64,
        });
    };
    let result = ai::think_record(
        record,
        limits,
        job.level,
        u64::from(job.seed),
        &ctl,
        &mut on_info,
    );
    Response::Best {
        id,
        mv: result.best.map(|m| m.to_string()),
        score: result.score,
        depth: result.depth,
        nodes: result.nodes,
        elapsed_ms: result.elapsed_ms,
    }
}

/// Serves one request: what the worker runs. `post` receives progress
/// messages; the return value is the final answer. Never panics on input.
pub fn serve(request: &Request, clock: &dyn ai::Clock, post: &mut dyn FnMut(Response)) -> Response {
    let Request::Think {
        id,
        game,
        start,
        moves,
        level,
        movetime_ms,
        seed,
    } = request
    else {
        return Response::Bench {
            id: request.id(),
            lines: bench::run(clock),
        };
    };
    let Ok(level) = level.parse::<Level>() else {
        return Response::Error {
            id: *id,
            message: format!("unknown level '{level}'"),
        };
    };
    let record = match AnyRecord::restore(game, start, moves) {
        Ok(r) => r,
        Err(e) => {
            return Response::Error {
                id: *id,
                message: e.to_string(),
            }
        }
    };
    let job = Job {
        id: *id,
        level,
        movetime_ms: *movetime_ms,
        seed: *seed,
    };
    match &record {
        AnyRecord::Ataxx(r) => think_on(&job, r, clock, post),
        AnyRecord::Stones(r) => think_on(&job, r, clock, post),
        AnyRecord::Mill(r) => think_on(&job, r, clock, post),
    }
}
