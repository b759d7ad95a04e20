//! The waits of online play: the reconnect backoff, and the time left on
//! a clock counted down from the server's figure (the server alone
//! decides a timeout).

/// The first reconnect waits this long…
pub const BACKOFF_FIRST_MS: u32 = 500;
/// …doubling up to this.
pub const BACKOFF_MAX_MS: u32 = 8_000;

/// How long to wait before connection attempt number `attempt` after a
/// failure (1 = the first retry): 0.5 s, 1 s, 2 s, 4 s, then 8 s.
pub fn backoff_ms(attempt: u32) -> u32 {
    let doublings = attempt.saturating_sub(1).min(16);
    BACKOFF_FIRST_MS
        .saturating_mul(1 << doublings)
        .min(BACKOFF_MAX_MS)
}

/// Time left now from a server figure `ms` received at `received_at`
/// (both in milliseconds of a monotonic clock), counting down when
/// `running`. Never below zero: only the server decides a timeout.
pub fn left_now(ms: u64, running: bool, received_at: f64, now: f64) -> f64 {
    let ms = ms as f64;
    if running {
        (ms - (now - received_at).max(0.0)).max(0.0)
    } else {
        ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_half_a_second_to_eight() {
        let waits: Vec<u32> = (1..=7).map(backoff_ms).collect();
        assert_eq!(waits, [500, 1000, 2000, 4000, 8000, 8000, 8000]);
        assert_eq!(backoff_ms(0), 500);
        assert_eq!(backoff_ms(u32::MAX), 8000);
    }

    #[test]
    fn clock_counts_down_from_the_servers_figure() {
        assert_eq!(left_now(30_000, true, 1_000.0, 1_000.0), 30_000.0);
        assert_eq!(left_now(30_000, true, 1_000.0, 3_500.0), 27_500.0);
        assert_eq!(
            left_now(30_000, true, 1_000.0, 99_000.0),
            0.0,
            "never below zero"
        );
        assert_eq!(
            left_now(12_000, false, 1_000.0, 9_000.0),
            12_000.0,
            "stopped"
        );
        assert_eq!(
            left_now(5_000, true, 1_000.0, 500.0),
            5_000.0,
            "no time travel"
        );
    }
}
