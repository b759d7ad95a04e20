//! Limits per client address: how many games an address may create (a
//! token bucket, so reconnecting does not reset it) and how many
//! connections it may hold open at once. Both maps are bounded: an entry
//! goes when it holds nothing (a full bucket, no connection).
//!
//! An IPv6 client is counted by its /64 network ([`client_key`]): one
//! home or server is usually given a whole /64, so counting each address
//! would give a client 2^64 of them (issue 33: the code keyed on the
//! whole address). An IPv4 address mapped into IPv6 counts as the IPv4
//! address. Behind a reverse proxy every client has the proxy's address:
//! there the operator turns these limits off and limits at the proxy
//! (docs/operations.md, "What the operator must do").

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a client address is counted under: an IPv4 address as it is, an
/// IPv6 address by its /64 network (an IPv4-mapped one as its IPv4 address).
pub fn client_key(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V4(_) => addr,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// A token bucket per client ([`client_key`]): `burst` at once, then one
/// per `every`.
pub struct Buckets {
    burst: u32,
    every: Duration,
    /// Tokens spent (not left) and when that was last counted: an address
    /// with nothing spent needs no entry.
    spent: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl Buckets {
    pub fn new(burst: u32, every: Duration) -> Buckets {
        Buckets {
            burst,
            every,
            spent: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `addr`; `false` when its bucket is empty (a
    /// burst of 0 turns the limit off).
    pub fn take(&self, addr: IpAddr) -> bool {
        if self.burst == 0 {
            return true;
        }
        let addr = client_key(addr);
        let now = Instant::now();
        let every = self.every.as_secs_f64().max(1e-9);
        let refund = |(spent, at): (f64, Instant)| {
            (spent - now.saturating_duration_since(at).as_secs_f64() / every).max(0.0)
        };
        let mut map = lock(&self.spent);
        // Bounded: past 10,000 addresses, the ones that have refilled go.
        if map.len() >= 10_000 {
            map.retain(|_, e| refund(*e) > 0.0);
        }
        let spent = map.get(&addr).copied().map_or(0.0, refund);
        if spent + 1.0 > f64::from(self.burst) {
            return false;
        }
        map.insert(addr, (spent + 1.0, now));
        true
    }
}

/// Open connections per client ([`client_key`]).
pub struct PerAddr {
    max: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// One connection counted against its address while it lives.
pub struct AddrGuard {
    owner: Arc<PerAddr>,
    addr: IpAddr,
}

impl PerAddr {
    /// At most `max` connections per address (0: no limit).
    pub fn new(max: usize) -> Arc<PerAddr> {
        Arc::new(PerAddr {
            max,
            open: Mutex::new(HashMap::new()),
        })
    }

    /// Counts one more connection from `addr`, or `None` at the limit.
    pub fn admit(self: &Arc<Self>, addr: IpAddr) -> Option<AddrGuard> {
        let addr = client_key(addr);
        let mut open = lock(&self.open);
        let n = open.entry(addr).or_insert(0);
        if self.max > 0 && *n >= self.max {
            return None;
        }
        *n += 1;
        Some(AddrGuard {
            owner: self.clone(),
            addr,
        })
    }
}

impl Drop for AddrGuard {
    fn drop(&mut self) {
        let mut open = lock(&self.owner.open);
        if let Some(n) = open.get_mut(&self.addr) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&self.addr);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_refills_and_is_per_address() {
        let b = Buckets::new(2, Duration::from_millis(50));
        let (x, y): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        assert!(b.take(x) && b.take(x));
        assert!(!b.take(x), "a third at once is refused");
        assert!(b.take(y), "another address has its own bucket");
        std::thread::sleep(Duration::from_millis(60));
        assert!(b.take(x), "one more after the refill time");
        assert!(!b.take(x));
    }

    /// Issue 33: an IPv6 client holds a whole /64; it is one client.
    #[test]
    fn ipv6_is_counted_per_64_and_mapped_ipv4_as_ipv4() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let b = Buckets::new(2, Duration::from_secs(3600));
        assert!(b.take(ip("2001:db8:1:2::1")));
        assert!(b.take(ip("2001:db8:1:2:ffff:1234:5678:9abc")));
        assert!(
            !b.take(ip("2001:db8:1:2:dead:beef::7")),
            "a third address of the same /64 is the same client"
        );
        assert!(b.take(ip("2001:db8:1:3::1")), "the next /64 is another");
        assert!(b.take(ip("10.0.0.9")) && b.take(ip("::ffff:10.0.0.9")));
        assert!(!b.take(ip("10.0.0.9")), "IPv4-mapped counts as IPv4");
        assert_eq!(client_key(ip("10.1.2.3")), ip("10.1.2.3"));

        let p = PerAddr::new(2);
        let _x = p.admit(ip("2001:db8::1")).unwrap();
        let _y = p.admit(ip("2001:db8::2")).unwrap();
        assert!(p.admit(ip("2001:db8::3:4:5")).is_none());
        assert!(p.admit(ip("2001:db8:0:1::1")).is_some());
    }

    #[test]
    fn connections_per_address_are_counted_until_dropped() {
        let p = PerAddr::new(2);
        let x: IpAddr = "10.0.0.1".parse().unwrap();
        let a = p.admit(x).unwrap();
        let b = p.admit(x).unwrap();
        assert!(p.admit(x).is_none());
        drop(a);
        assert!(p.admit(x).is_some());
        drop(b);
        assert!(
            lock(&p.open).is_empty(),
            "no entry for an address with no connection"
        );
    }
}
