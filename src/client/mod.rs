//! What the page decides, without a browser: compiled and tested natively,
//! held in signals by the components in `ui` and drawn by them.
//!
//! - [`clock`]: the per-move clock, computed from injected timestamps.
//! - [`diagram`]: the rules pages' board diagrams: positions and moves.
//! - [`ending`]: the result line in words ("O resigned — X wins.").
//! - [`games`]: each game's part of the above, one file per game of the
//!   list (its ending's counts, its moves' marks).
//! - [`local`]: a game on this device (two players or against the
//!   computer): record, undo/redo and review, forced moves, the clock rules,
//!   timeouts, pause, a dialog over the board, resume after a reload.
//! - [`mark`]: which spots a move touches, for drawing a hint on the board.
//! - [`moves`]: the move list's rows, shared by the local and online screens.
//! - [`online`]: online play as the page sees it: links, the server's
//!   address, reconnecting, and the session with the server.
//! - [`review`]: the review after a game: its scores, the biggest drops and
//!   the moves the computer preferred.
//! - [`score`]: the computer's score in words ("+0.35", "wins in 3").

pub mod clock;
pub mod diagram;
pub mod ending;
pub mod games;
pub mod local;
pub mod mark;
pub mod moves;
pub mod online;
pub mod review;
pub mod score;
