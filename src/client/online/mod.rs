//! The page's side of online play, without the browser: compiled and
//! tested natively, driven by `ui::online` (which owns the WebSocket, the
//! timers and the signals). Moved here from `protocol/` (issue 34), which
//! keeps the wire types only; split by concern:
//!
//! - [`link`]: what an online link asks for, and the links the page hands
//!   out (invite, watch, your room).
//! - [`address`]: which server a tab talks to.
//! - [`timing`]: the reconnect backoff and the clock counted down from the
//!   server's figure.
//! - [`chart`]: a player's rating history as an SVG path.
//! - [`identity`]: the player's identity kept on the device, the
//!   recovery code, ratings in words (issue 37).
//! - [`session`]: the session state machine, from the server's messages
//!   to what the page must do.

pub mod address;
pub mod chart;
pub mod identity;
pub mod link;
pub mod session;
pub mod timing;
