//! A game as text, for export and import: optional `[Tag "value"]` header
//! lines, then the moves in the game's notation with move numbers.
//!
//! ```text
//! [Game "Mill"]
//! [Start "…"]            (only when the game did not start from the usual position)
//! 1. d6 f4 2. d2 b4 3. b6xb4 …
//! ```
//! Import reads the same, ignores move numbers and result marks, and for
//! Mill accepts Sanmill's move lists (`a1-a4xd7`, or `xd7` on its own).

use super::games::UiGame;
use super::words::{position_why, Problem};
use crate::client::moves::{move_rows, record_from_moves};
use crate::games::Record;

/// The text of a game.
pub fn export<G: UiGame>(record: &Record<G>) -> String {
    let mut out = format!("[Game \"{}\"]\n", G::KIND.title());
    let start = record.start();
    if *start != G::start(start.rules()) {
        out.push_str(&format!("[Start \"{}\"]\n", start.to_text()));
    }
    // Numbered as the move list numbers them (one function for both).
    let mut line = String::new();
    for row in move_rows(record) {
        line.push_str(&format!(" {}.", row.number));
        match row.first {
            Some(c) => line.push_str(&format!(" {}", c.text)),
            None => line.push_str(".."),
        }
        if let Some(c) = row.second {
            line.push_str(&format!(" {}", c.text));
        }
    }
    out.push_str(line.trim());
    out.push('\n');
    out
}

/// Reads a game in the text form, under `rules`; the error names the
/// line or move that is wrong.
pub fn import<G: UiGame>(text: &str, rules: &G::Rules) -> Result<Record<G>, Problem> {
    let mut start = None;
    let mut moves = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix('[') {
            let (name, value) = tag
                .trim_end_matches(']')
                .split_once(' ')
                .ok_or_else(|| Problem::Header(line.to_string()))?;
            let value = value.trim().trim_matches('"');
            match name {
                "Game" if value != G::KIND.title() && value != G::KIND.slug() => {
                    return Err(Problem::WrongGame(value.to_string()));
                }
                "Start" => start = Some(value.to_string()),
                _ => {}
            }
            continue;
        }
        for token in line.split_whitespace() {
            // A move number ("12." or "12...") alone or glued to its move.
            let token = match token.rfind('.') {
                Some(i)
                    if token[..i]
                        .trim_end_matches('.')
                        .chars()
                        .all(|c| c.is_ascii_digit()) =>
                {
                    &token[i + 1..]
                }
                _ => token,
            };
            if token.is_empty() || matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
                continue;
            }
            moves.extend(G::split_token(token));
        }
    }
    let pos = match start {
        Some(text) => {
            G::from_text(&text, rules).map_err(|e| Problem::BadPosition(text, position_why(e)))?
        }
        None => G::start(rules),
    };
    Ok(record_from_moves(pos, moves)?)
}
