//! The player's identity as the page sees it (issue 37): what this device
//! keeps, the recovery code, and a player's rating in words. No account:
//! the identity is a random secret the server made (`register`), kept on
//! the device and sent with `identify` on every connection; the server
//! stores only its hash, so a lost secret cannot be sent again and an
//! identity forgotten on every device is gone (its name and ratings stay
//! on the server, out of reach).
//!
//! The recovery code is the same secret in eight groups of four
//! (`abcd-efgh-…`): typed on another device it is the identity there too.
//! The page checks its shape before sending it (a typo is caught here,
//! in the player's language, without a round trip); the server decides
//! whether it is anyone's (`bad_identity`).

use serde::{Deserialize, Serialize};

use crate::protocol::online::{PlayerTag, RatingInfo};

pub use crate::protocol::secret::{
    parse_secret as parse_recovery_code, recovery_code, SECRET_CHARS,
};

/// The identity this device keeps for one server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptIdentity {
    /// The server's WebSocket address (an identity lives on one server).
    pub server: String,
    pub secret: String,
    /// The public id and the last name the server confirmed (shown before
    /// the connection is up).
    pub id: String,
    pub name: String,
}

/// The identity of this connection, as the server last described it.
#[derive(Clone, Debug, PartialEq)]
pub struct Me {
    pub player: PlayerTag,
    pub ratings: Vec<RatingInfo>,
    /// When the name may change again (this page's monotonic ms).
    pub rename_at: f64,
}

/// A rating as chips show it: `1500`, or `1500?` while provisional;
/// `None` when the player has none in this game.
pub fn rating_text(tag: &PlayerTag) -> Option<String> {
    let r = tag.rating?;
    Some(if tag.provisional {
        format!("{r}?")
    } else {
        r.to_string()
    })
}

/// A rated game's change for one side: `1500 → 1662 +162` (`−` for a
/// loss, `±0` when unchanged).
pub fn rating_change(before: u32, after: u32) -> String {
    let d = i64::from(after) - i64::from(before);
    let sign = match d.cmp(&0) {
        std::cmp::Ordering::Greater => format!("+{d}"),
        std::cmp::Ordering::Less => format!("\u{2212}{}", -d),
        std::cmp::Ordering::Equal => "±0".to_string(),
    };
    format!("{before} \u{2192} {after} {sign}")
}

/// Whole seconds (rounded up) until `at`, from `now` (both monotonic ms);
/// 0 once it has passed.
pub fn wait_secs(at: f64, now: f64) -> u64 {
    let left = at - now;
    if left.is_finite() && left > 0.0 {
        (left / 1000.0).ceil() as u64
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "abcdefghijklmnopqrstuvwxyz234567";

    #[test]
    fn the_recovery_code_is_the_secret_in_groups_of_four_and_reads_back() {
        let code = recovery_code(SECRET);
        assert_eq!(code, "abcd-efgh-ijkl-mnop-qrst-uvwx-yz23-4567");
        assert_eq!(parse_recovery_code(&code).as_deref(), Some(SECRET));
        let typed = " ABCD EFGH-ijkl mnopQRSTuvwx yz23-4567\n";
        assert_eq!(parse_recovery_code(typed).as_deref(), Some(SECRET));
    }

    #[test]
    fn anything_else_is_no_recovery_code() {
        for bad in [
            "",
            "abcd-efgh",
            &format!("{SECRET}a"),
            "abcdefghijklmnopqrstuvwxyz234561", // 1 is not base32
            "abcdefghijklmnopqrstuvwxyz23456é",
            &"-".repeat(200),
        ] {
            assert_eq!(parse_recovery_code(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn ratings_and_their_changes_in_words() {
        let mut tag = PlayerTag {
            id: "x".into(),
            name: "Ana".into(),
            rating: Some(1500),
            provisional: true,
        };
        assert_eq!(rating_text(&tag).as_deref(), Some("1500?"));
        tag.provisional = false;
        assert_eq!(rating_text(&tag).as_deref(), Some("1500"));
        tag.rating = None;
        assert_eq!(rating_text(&tag), None);
        assert_eq!(rating_change(1500, 1662), "1500 → 1662 +162");
        assert_eq!(rating_change(1500, 1338), "1500 → 1338 −162");
        assert_eq!(rating_change(1500, 1500), "1500 → 1500 ±0");
    }

    #[test]
    fn the_rename_wait_counts_whole_seconds_up() {
        assert_eq!(wait_secs(10_500.0, 10_000.0), 1);
        assert_eq!(wait_secs(12_000.0, 10_000.0), 2);
        assert_eq!(wait_secs(10_000.0, 10_000.0), 0);
        assert_eq!(wait_secs(5_000.0, 10_000.0), 0);
        assert_eq!(wait_secs(f64::NAN, 10_000.0), 0);
    }
}
