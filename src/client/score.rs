//! The computer's score in words, as the game screen (hint, thinking line)
//! and the review show it: a pure function of the score and the language,
//! so it is tested natively.

use crate::ai::{MATE, MATE_BOUND};
use crate::i18n::Lang;
use crate::tn;

/// "+0.35", "−1.20" or "wins in 3" from the side to move's view.
pub fn format_score(lang: Lang, score: i32) -> String {
    if score.abs() >= MATE_BOUND {
        let plies = MATE - score.abs();
        let moves = (plies + 1) / 2;
        return if score > 0 {
            tn!(lang, "score.wins_in", moves)
        } else {
            tn!(lang, "score.loses_in", moves)
        };
    }
    let sign = if score < 0 { "−" } else { "+" };
    format!("{sign}{:.2}", f64::from(score.abs()) / 100.0)
}
