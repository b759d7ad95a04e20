//! Room codes, join keys and seat tokens: random bits from the operating
//! system, written in lowercase base32 (RFC 4648 alphabet, no padding).

const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";

/// Bytes of randomness in a room code (80 bits → 16 characters).
pub const ROOM_BYTES: usize = 10;
/// Bytes in a join key (80 bits → 16 characters).
pub const KEY_BYTES: usize = 10;
/// Bytes in a seat token (160 bits → 32 characters).
pub const TOKEN_BYTES: usize = 20;

/// `bytes` random bytes from the OS generator, as base32.
pub fn random(bytes: usize) -> Result<String, String> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| format!("no randomness from the OS: {e}"))?;
    Ok(base32(&buf))
}

/// A random bit (sides of a quick match, "random" side choice).
pub fn coin() -> Result<bool, String> {
    let mut b = [0u8; 1];
    getrandom::fill(&mut b).map_err(|e| format!("no randomness from the OS: {e}"))?;
    Ok(b[0] & 1 == 1)
}

fn base32(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 8 / 5 + 1);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &b in bytes {
        acc = (acc << 8) | u32::from(b);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(ALPHABET[((acc >> bits) & 31) as usize] as char);
        }
    }
    if bits > 0 {
        out.push(ALPHABET[((acc << (5 - bits)) & 31) as usize] as char);
    }
    out
}

/// A code as a client typed or sent it, normalised (trimmed, lowercase),
/// or `None` when it cannot be one of ours (wrong length or characters).
pub fn normalize(code: &str) -> Option<String> {
    let code = code.trim().to_ascii_lowercase();
    let ok = (8..=64).contains(&code.len()) && code.bytes().all(|b| ALPHABET.contains(&b));
    ok.then_some(code)
}

/// Compares two secrets in time independent of where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// How a stored seat token starts: what follows is the SHA-256 of the
/// token (base32), not the token.
pub const SEALED: &str = "sha256:";

/// What the store keeps of a seat token: its SHA-256, so a leaked
/// database seats nobody. A token already sealed stays as it is.
pub fn seal(token: &str) -> String {
    use sha2::{Digest, Sha256};
    if token.starts_with(SEALED) {
        return token.to_string();
    }
    format!("{SEALED}{}", base32(&Sha256::digest(token.as_bytes())))
}

/// Whether `presented` is the token that `stored` keeps (sealed, or in
/// plain text in a room stored before tokens were sealed). A presented
/// text that is itself a seal (taken from a leaked database) never is.
pub fn token_matches(stored: &str, presented: &str) -> bool {
    if presented.starts_with(SEALED) {
        return false;
    }
    if stored.starts_with(SEALED) {
        same_secret(stored, &seal(presented))
    } else {
        same_secret(stored, presented)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_and_alphabet() {
        assert_eq!(random(ROOM_BYTES).unwrap().len(), 16);
        assert_eq!(random(TOKEN_BYTES).unwrap().len(), 32);
        assert_eq!(base32(b"foobar"), "mzxw6ytboi");
        let a = random(TOKEN_BYTES).unwrap();
        assert_ne!(a, random(TOKEN_BYTES).unwrap());
        assert_eq!(normalize(&format!(" {} ", a.to_uppercase())), Some(a));
        assert_eq!(normalize("short"), None);
        assert_eq!(normalize("abcdefgh!"), None);
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "abcd"));
    }

    #[test]
    fn sealed_tokens() {
        let token = random(TOKEN_BYTES).unwrap();
        let sealed = seal(&token);
        assert!(sealed.starts_with(SEALED) && !sealed.contains(&token));
        assert_eq!(seal(&sealed), sealed, "sealing twice changes nothing");
        assert!(token_matches(&sealed, &token));
        assert!(!token_matches(&sealed, &random(TOKEN_BYTES).unwrap()));
        assert!(
            !token_matches(&sealed, &sealed),
            "the seal itself seats nobody"
        );
        assert!(
            token_matches(&token, &token),
            "a room stored before sealing"
        );
    }
}
