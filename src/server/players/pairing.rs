//! Quick match pairs like with like: rated players with rated players
//! (casual with casual), and among rated ones, ratings close enough for
//! how long both have waited.
//!
//! The range each player accepts starts at ±[`START_RANGE`] and widens by
//! [`WIDEN_BY`] every [`WIDEN_EVERY_MS`] of waiting, up to ±[`MAX_RANGE`];
//! two players are paired when each is within the other's range (so a
//! newcomer who has waited long is not handed to someone who has not).
//! With the figures below, two players 300 apart are paired once both
//! have waited 10 s; at 30 s anyone within 700 is. Lichess widens its
//! pool's range in much the same way. A provisional player's rating is
//! uncertain: their range starts at twice as wide.

/// The range (± rating points) a player accepts at once.
pub const START_RANGE: u32 = 100;
/// It widens by this much…
pub const WIDEN_BY: u32 = 100;
/// …every this long (ms) of waiting…
pub const WIDEN_EVERY_MS: u64 = 5_000;
/// …up to this.
pub const MAX_RANGE: u32 = 700;

/// One player waiting for a rated quick match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Seeker {
    pub rating: u32,
    pub provisional: bool,
    /// When they started waiting (ms, any clock both share).
    pub since_ms: u64,
    /// Their range widens every this long ([`WIDEN_EVERY_MS`]; the
    /// server's `Config::widen_every`).
    pub widen_every_ms: u64,
}

impl Seeker {
    /// The range this player accepts at `now_ms`.
    pub fn range(&self, now_ms: u64) -> u32 {
        let steps = now_ms.saturating_sub(self.since_ms) / self.widen_every_ms.max(1);
        let start = if self.provisional {
            2 * START_RANGE
        } else {
            START_RANGE
        };
        let widened = u64::from(start) + steps.saturating_mul(u64::from(WIDEN_BY));
        widened.min(u64::from(MAX_RANGE)) as u32
    }

    /// Whether these two may be paired at `now_ms`.
    pub fn suits(&self, other: &Seeker, now_ms: u64) -> bool {
        let gap = self.rating.abs_diff(other.rating);
        gap <= self.range(now_ms) && gap <= other.range(now_ms)
    }
}

/// The waiting player to pair `me` with at `now_ms`: the closest rating
/// among those who suit, the longest-waiting first among equals; `None`
/// when nobody suits yet (then `me` waits too).
pub fn best<'a, K>(
    me: &Seeker,
    waiting: impl IntoIterator<Item = (&'a K, &'a Seeker)>,
    now_ms: u64,
) -> Option<&'a K> {
    waiting
        .into_iter()
        .filter(|(_, s)| me.suits(s, now_ms))
        .min_by_key(|(_, s)| (me.rating.abs_diff(s.rating), s.since_ms))
        .map(|(k, _)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(rating: u32, since_ms: u64) -> Seeker {
        Seeker {
            rating,
            provisional: false,
            since_ms,
            widen_every_ms: WIDEN_EVERY_MS,
        }
    }

    #[test]
    fn the_range_widens_with_waiting_up_to_a_limit() {
        let s = at(1500, 0);
        assert_eq!(s.range(0), 100);
        assert_eq!(s.range(4_999), 100);
        assert_eq!(s.range(5_000), 200);
        assert_eq!(s.range(30_000), 700);
        assert_eq!(s.range(u64::MAX), MAX_RANGE);
        let p = Seeker {
            provisional: true,
            ..s
        };
        assert_eq!(p.range(0), 200);
    }

    #[test]
    fn both_must_accept_the_gap() {
        let a = at(1500, 0);
        let b = at(1800, 0);
        assert!(!a.suits(&b, 0));
        assert!(!a.suits(&b, 9_999));
        assert!(a.suits(&b, 10_000));
        // One who has just come is not handed a distant opponent.
        let late = at(1800, 10_000);
        assert!(!a.suits(&late, 10_000));
        assert!(a.suits(&late, 20_000));
        assert!(!at(1000, 0).suits(&at(1800, 0), u64::MAX), "never past 700");
    }

    #[test]
    fn the_closest_suitable_player_is_chosen() {
        let me = at(1500, 1_000);
        let waiting = [
            ("far", at(2100, 0)),
            ("near", at(1560, 500)),
            ("nearer", at(1450, 900)),
            ("same gap, earlier", at(1550, 100)),
        ];
        let pick = best(&me, waiting.iter().map(|(k, s)| (k, s)), 1_000);
        assert_eq!(pick, Some(&"same gap, earlier"));
        assert_eq!(best::<&str>(&me, [].into_iter(), 0), None);
        let only_far = [("far", at(2100, 0))];
        assert_eq!(best(&me, only_far.iter().map(|(k, s)| (k, s)), 1_000), None);
    }
}
