//! The search's only source of time, injected: a monotonic clock in
//! milliseconds ([`Clock`]); natively [`InstantClock`], in the browser
//! worker `performance.now()`. Kept in its own file so the search takes
//! its time from here without importing `ai/mod.rs`, which imports it.

/// A monotonic clock in milliseconds: the search's only source of time.
pub trait Clock {
    /// Milliseconds since some fixed origin; never goes backwards.
    fn now_ms(&self) -> f64;
}

impl<F: Fn() -> f64> Clock for F {
    fn now_ms(&self) -> f64 {
        self()
    }
}

/// The native clock, from [`std::time::Instant`]. It compiles for wasm32
/// (so the native-only `engine` binary does too) but `Instant` panics in the
/// browser: the worker passes `performance.now()` instead.
#[derive(Clone, Copy, Debug)]
pub struct InstantClock(std::time::Instant);

impl InstantClock {
    /// A clock whose origin is now.
    pub fn new() -> Self {
        InstantClock(std::time::Instant::now())
    }
}

impl Default for InstantClock {
    fn default() -> Self {
        InstantClock::new()
    }
}

impl Clock for InstantClock {
    fn now_ms(&self) -> f64 {
        self.0.elapsed().as_secs_f64() * 1000.0
    }
}
