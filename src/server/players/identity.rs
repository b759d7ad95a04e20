//! A player's identity without an account: a random secret that lives on
//! the player's device, and a public id.
//!
//! - The **secret** is 160 bits from the OS generator (32 base32
//!   characters, like a seat token). The server sends it once, when the
//!   identity is made, and keeps only its SHA-256 ([`super::super::ids::seal`]):
//!   a leaked database names nobody. No slow hash is needed: the secret
//!   is random, not a password a person chose, so there is nothing to
//!   guess.
//! - The **recovery code** is the same secret written for people: eight
//!   groups of four, `abcd-efgh-…`. Typed on another device (any case,
//!   with or without the dashes or spaces) it is that identity there too;
//!   the export file holds the same code. Whoever has it is the player,
//!   so the page shows it only on request.
//! - The **public id** (80 bits, 16 characters) names a player in links
//!   (`?player=ID`) and in the store; it never gives access.

use super::super::ids;
pub use crate::protocol::secret::{parse_secret, recovery_code, SECRET_CHARS};

/// Bytes of the secret (160 bits → 32 characters).
pub const SECRET_BYTES: usize = ids::TOKEN_BYTES;
/// Bytes of the public id (80 bits → 16 characters).
pub const ID_BYTES: usize = ids::ROOM_BYTES;

/// A new secret and public id.
pub fn fresh() -> Result<(String, String), String> {
    Ok((ids::random(SECRET_BYTES)?, ids::random(ID_BYTES)?))
}

/// What the store keeps of a secret.
pub fn seal(secret: &str) -> String {
    ids::seal(secret)
}

/// A public id as sent (`?player=ID`), normalised, or `None`.
pub fn parse_id(typed: &str) -> Option<String> {
    ids::normalize(typed).filter(|id| id.len() == 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_round_trip_through_the_recovery_code() {
        let (secret, id) = fresh().unwrap();
        assert_eq!(secret.len(), SECRET_CHARS);
        assert_eq!(parse_id(&id), Some(id.clone()));
        let code = recovery_code(&secret);
        assert_eq!(code.len(), SECRET_CHARS + 7);
        assert_eq!(parse_secret(&code), Some(secret.clone()));
        assert_eq!(parse_secret(&code.to_uppercase()), Some(secret.clone()));
        assert_eq!(
            parse_secret(&format!("  {}\n", code.replace('-', " "))),
            Some(secret.clone())
        );
        // Only the hash is kept, and it is not the secret.
        let sealed = seal(&secret);
        assert!(!sealed.contains(&secret));
        assert!(ids::token_matches(&sealed, &secret));
        assert!(!ids::token_matches(&sealed, &fresh().unwrap().0));
    }

    #[test]
    fn anything_else_is_no_secret() {
        for typed in [
            "",
            "short",
            &"a".repeat(31),
            &"a".repeat(33),
            &"1".repeat(32), // 0, 1, 8, 9 are not base32
            &"é".repeat(32),
            &"-".repeat(1000),
            "sha256:abcdefghijklmnopqrstuvwxyz234",
        ] {
            assert_eq!(parse_secret(typed), None, "{typed:?}");
        }
        assert_eq!(parse_id("abc"), None);
        assert_eq!(parse_id(&"a".repeat(32)), None);
    }

    #[test]
    fn two_identities_differ() {
        let (a, b) = (fresh().unwrap(), fresh().unwrap());
        assert_ne!(a.0, b.0);
        assert_ne!(a.1, b.1);
    }
}
