//! The per-move clock.
//!
//! Time left is computed from timestamps (the page passes
//! `performance.now()`), never by subtracting a fixed tick, so a late or
//! skipped timer tick cannot make the clock drift: the ticks only make the
//! display catch up. When the clock runs is decided by
//! [`super::local::LocalGame`]; this type only counts.

/// The move clock of the side to move: a limit per move, restarted at every
/// turn, that can be paused and resumed without losing time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveClock {
    /// Time allowed for one move; `None` means no clock.
    limit_ms: Option<f64>,
    /// Time that was left when the clock last started running (or stopped).
    left_ms: f64,
    /// The timestamp when it last started running; `None` when stopped.
    since: Option<f64>,
}

impl MoveClock {
    /// A stopped clock allowing `limit_ms` per move (`None`: no clock).
    pub fn new(limit_ms: Option<f64>) -> Self {
        MoveClock {
            limit_ms,
            left_ms: limit_ms.unwrap_or(0.0),
            since: None,
        }
    }

    /// The time allowed per move.
    pub fn limit_ms(&self) -> Option<f64> {
        self.limit_ms
    }

    /// A new turn: full time, running from `now`.
    pub fn start_turn(&mut self, now: f64) {
        self.left_ms = self.limit_ms.unwrap_or(0.0);
        self.since = self.limit_ms.map(|_| now);
    }

    /// Stops the clock, keeping the time that was left at `now`.
    pub fn stop(&mut self, now: f64) {
        if let Some(since) = self.since.take() {
            self.left_ms = (self.left_ms - (now - since)).max(0.0);
        }
    }

    /// Stopped, with `left_ms` left for the current turn (resuming a saved game).
    pub fn stopped_with(&mut self, left_ms: f64) {
        self.since = None;
        self.left_ms = left_ms.clamp(0.0, self.limit_ms.unwrap_or(0.0));
    }

    /// Starts the clock again from the time that was left.
    pub fn resume(&mut self, now: f64) {
        if self.limit_ms.is_some() && self.since.is_none() {
            self.since = Some(now);
        }
    }

    /// Whether the clock is counting down.
    pub fn is_running(&self) -> bool {
        self.since.is_some()
    }

    /// Milliseconds left at `now`, or `None` when there is no clock.
    pub fn left_at(&self, now: f64) -> Option<f64> {
        self.limit_ms?;
        Some(match self.since {
            Some(since) => (self.left_ms - (now - since)).max(0.0),
            None => self.left_ms,
        })
    }
}

/// "0:27" for 26.2 s left: whole seconds, rounded up so 0:00 means time is up.
pub fn format_left(ms: f64) -> String {
    let secs = (ms / 1000.0).ceil().max(0.0) as u64;
    format!("{}:{:02}", secs / 60, secs % 60)
}
