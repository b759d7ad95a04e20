//! The computer's score in words (src/client/score.rs), natively: the
//! hint, the thinking line and the review show scores this way.

use stoneplay::ai::{MATE, MATE_BOUND};
use stoneplay::client::score::format_score;
use stoneplay::i18n::Lang;

/// Ordinary scores are pieces with two decimals and a sign, the minus a
/// real minus sign; zero counts as even (+).
#[test]
fn a_score_is_pieces_with_two_decimals_and_a_sign() {
    assert_eq!(format_score(Lang::En, 35), "+0.35");
    assert_eq!(format_score(Lang::En, -120), "−1.20");
    assert_eq!(format_score(Lang::En, 0), "+0.00");
    assert_eq!(format_score(Lang::En, 1_005), "+10.05");
    // The largest ordinary score is still pieces, not a win.
    assert_eq!(
        format_score(Lang::En, MATE_BOUND - 1),
        format!("+{:.2}", f64::from(MATE_BOUND - 1) / 100.0)
    );
}

/// A found win or loss is counted in the side to move's moves (plies
/// rounded up to whole moves), worded in the chosen language.
#[test]
fn a_win_or_loss_is_counted_in_moves() {
    assert_eq!(format_score(Lang::En, MATE - 1), "wins in 1");
    assert_eq!(format_score(Lang::En, MATE - 5), "wins in 3");
    assert_eq!(format_score(Lang::En, MATE - 6), "wins in 3");
    assert_eq!(format_score(Lang::En, -(MATE - 2)), "loses in 1");
    assert_eq!(format_score(Lang::En, -(MATE - 4)), "loses in 2");
    assert_eq!(format_score(Lang::Tr, MATE - 5), "3 hamlede kazanır");
    assert_eq!(format_score(Lang::Tr, -(MATE - 4)), "2 hamlede kaybeder");
}
