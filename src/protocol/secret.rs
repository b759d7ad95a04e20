//! A player's secret and its recovery code, as both ends read them (issue
//! 37): the server makes the secret and checks what is sent with
//! `identify`; the page shows the recovery code and checks its shape
//! before sending it, so a typo is caught without a round trip. One
//! definition, so the two never disagree on what a code looks like.

/// Characters of a secret (160 bits in base32).
pub const SECRET_CHARS: usize = 32;

/// The secret written as a recovery code: `abcd-efgh-ijkl-…`.
pub fn recovery_code(secret: &str) -> String {
    let chars: Vec<char> = secret.chars().collect();
    chars
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

/// A secret as sent or typed (a recovery code with its dashes and spaces,
/// any case), or `None` when it cannot be one (wrong length, or a
/// character base32 does not use: 0, 1, 8, 9).
pub fn parse_secret(typed: &str) -> Option<String> {
    if typed.len() > 4 * SECRET_CHARS {
        return None;
    }
    let secret: String = typed
        .chars()
        .filter(|c| !matches!(c, '-' | ' ' | '\t' | '\n' | '\r'))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let ok = secret.len() == SECRET_CHARS
        && secret
            .bytes()
            .all(|b| b.is_ascii_lowercase() || (b'2'..=b'7').contains(&b));
    ok.then_some(secret)
}
