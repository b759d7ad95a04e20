//! The AI worker's request handling, natively testable: a
//! [`Request`](crate::protocol::Request) from the page becomes a search
//! (or the bench) and its [`Response`](crate::protocol::Response)s. The
//! worker binary (`bin/worker.rs`) only moves messages between the page
//! and [`serve`].

use super::bench;
use super::{self as ai, Evaluate, Level, SearchControl, SearchInfo, SearchLimits};
use crate::games::any::AnyRecord;
use crate::games::{Game, Record};
use crate::protocol::{Request, Response};

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
        let first = bench::run(clock);
        return Response::Bench {
            id: request.id(),
            lines: bench::run(clock),
            first,
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
    crate::with_record!(&record, G, r => think_on(&job, r, clock, post))
}
