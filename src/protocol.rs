//! Typed messages between the app and the AI worker (serde; sent with
//! serde-wasm-bindgen as plain JavaScript objects).
//!
//! A request names the game and rules, the start position and the moves
//! played, so the worker rebuilds the whole game (repetition history
//! included) and the app never shares memory with it. Every answer carries
//! the request's `id`: the app ignores answers to requests it no longer
//! wants (after undo, a new game, or leaving the game).
//!
//! The worker serves these with `ai::worker::serve`, next to the search.
//!
//! [`online`] holds the messages between the app and the game server,
//! [`wire`] the page's codec for them (with the small [`json`] reader),
//! [`secret`] a player's secret and recovery code as both ends read them.

pub mod json;
pub mod online;
pub mod secret;
pub mod wire;

use serde::{Deserialize, Serialize};

use crate::games::any::Variant;

/// One game's bench figures (`engine bench` prints them, the worker
/// sends them to the page).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BenchLine {
    /// `ataxx`, `stones`, `mill` or `bench` for the total.
    pub game: String,
    pub nodes: u64,
    pub ms: f64,
}

impl BenchLine {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 * 1000.0 / self.ms.max(0.001)) as u64
    }
}

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
    /// The benchmark's figures, one line per game: `lines` from a second
    /// run of it, `first` from the first, which also pays for the browser
    /// compiling the code it runs (its first, quick compile, then the
    /// optimised one of the functions that run most).
    Bench {
        id: u32,
        lines: Vec<BenchLine>,
        first: Vec<BenchLine>,
    },
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
