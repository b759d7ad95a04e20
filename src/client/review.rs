//! What the review after a game decides, without a browser: the scores it
//! draws, the moves where the evaluation dropped most for the player who
//! made them, and for each of those the move the computer preferred.
//!
//! The page asks the worker about every position in turn (the position
//! after 0, 1, .. moves); each answer gives a score for the side to move
//! and that side's best move. [`Analysis`] keeps them, one per position.

use crate::ai::MATE_BOUND;
use crate::games::{Game, Record, Side};

/// How many of the worst moves to mark.
pub const MARKED: usize = 3;
/// A drop smaller than this (hundredths of a piece) is not a mistake.
pub const MISTAKE: i32 = 80;
/// The largest score drawn: a win counts as ten pieces.
pub const CLAMP: i32 = 1_000;

/// A score for drawing, from the first player's side: wins and losses are
/// drawn at ±[`CLAMP`], other scores cut there.
pub fn clamp(score: i32) -> i32 {
    if score.abs() >= MATE_BOUND {
        score.signum() * CLAMP
    } else {
        score.clamp(-CLAMP, CLAMP)
    }
}

/// The score axis of the graph for `evals` (hundredths of a piece): its
/// half-range, the smallest of 1, 2, 5 and 10 pieces that holds every
/// score (a win is drawn at 10), and the scores to label, top to bottom:
/// the range, half of it, 0 and their negatives.
pub fn score_axis(evals: &[i32]) -> (i32, Vec<i32>) {
    let most = evals.iter().map(|v| v.abs()).max().unwrap_or(0);
    let range = [100, 200, 500, CLAMP]
        .into_iter()
        .find(|&r| most <= r)
        .unwrap_or(CLAMP);
    (range, vec![range, range / 2, 0, -range / 2, -range])
}

/// A score axis label in pieces, from the first player's side: "+5",
/// "+0.5", "0", "−2".
pub fn pieces_label(score: i32) -> String {
    let sign = match score.signum() {
        1 => "+",
        -1 => "−",
        _ => "",
    };
    let a = score.unsigned_abs();
    if a.is_multiple_of(100) {
        format!("{sign}{}", a / 100)
    } else {
        format!("{sign}{}", f64::from(a) / 100.0)
    }
}

/// The move numbers labelled on the graph's move axis for a game of
/// `total` numbered moves (the move list's rows, [`crate::client::moves`]):
/// the multiples of the smallest step of 1, 2, 5, 10, 20, 50, … that labels
/// at most `most` of them. The page draws label `n` at the position after
/// row `n` is complete, as the list and the review's mistakes number it.
pub fn move_ticks(total: usize, most: usize) -> Vec<usize> {
    let most = most.max(1);
    let mut step = 1;
    for k in 0.. {
        step = [1, 2, 5][k % 3] * 10usize.pow((k / 3) as u32);
        if total / step <= most {
            break;
        }
    }
    (1..=total / step).map(|i| i * step).collect()
}

/// The moves where the evaluation fell most for the player who moved:
/// (ply after the move, drop), largest first. `evals` are from the first
/// player's side, one per position (the start is 0); `movers[i]` made move
/// `i + 1`. Only moves whose both ends are evaluated are judged.
pub fn worst_moves(evals: &[i32], movers: &[Side]) -> Vec<(usize, i32)> {
    let mut drops: Vec<(usize, i32)> = movers
        .iter()
        .enumerate()
        .filter_map(|(i, &side)| {
            let (before, after) = (*evals.get(i)?, *evals.get(i + 1)?);
            let drop = match side {
                Side::First => before - after,
                Side::Second => after - before,
            };
            (drop >= MISTAKE).then_some((i + 1, drop))
        })
        .collect();
    drops.sort_by_key(|d| std::cmp::Reverse(d.1));
    drops.truncate(MARKED);
    drops
}

/// The worker's answers so far, one per position of the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    /// Scores from the first player's side, clamped for drawing.
    pub evals: Vec<i32>,
    /// The move the computer found for the side to move in each position
    /// (as the worker wrote it), `None` at the end or when it gave none.
    pub best: Vec<Option<String>>,
}

impl Analysis {
    /// Records the answer for the next position: `score` is from the side
    /// to move's view (`side`), `best` the move it found.
    pub fn push(&mut self, side: Side, score: i32, best: Option<String>) {
        let from_first = if side == Side::First { score } else { -score };
        self.evals.push(clamp(from_first));
        self.best.push(best);
    }

    /// Records the final position, scored by the result (no move there).
    pub fn push_final(&mut self, score: i32) {
        self.evals.push(clamp(score));
        self.best.push(None);
    }

    /// How many positions are done.
    pub fn len(&self) -> usize {
        self.evals.len()
    }

    /// Whether nothing is done yet.
    pub fn is_empty(&self) -> bool {
        self.evals.is_empty()
    }

    /// The move the computer preferred to move `ply` of `record` (the move
    /// that led to the position after `ply` moves): its best move in the
    /// position before, when it found one that differs from the move played.
    pub fn better_move<G: Game>(&self, record: &Record<G>, ply: usize) -> Option<G::Move> {
        let before = ply.checked_sub(1)?;
        let played = *record.moves().get(before)?;
        let text = self.best.get(before)?.as_deref()?;
        let found = record.position_at(before).parse_move(text).ok()?;
        (found != played).then_some(found)
    }
}
